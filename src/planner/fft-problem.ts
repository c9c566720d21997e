/**
 * The description of a batched 1-D complex FFT: what to compute, never how. Validated once here so that
 * planners and backends can trust it.
 */
import { ArgumentError } from '../errors.js';

export type FftDirection = 'forward' | 'inverse';
/** numpy's meaning: 'backward' scales the inverse by 1/N, 'forward' the forward, 'ortho' both by 1/√N. */
export type FftNorm = 'backward' | 'ortho' | 'forward';

/** Element addressing in units of complex elements: element e of problem b is at offset + b·dist + e·stride. */
export interface ComplexLayout {
  offset: number;
  stride: number;
  dist: number;
}

export interface FftProblem {
  readonly n: number;
  readonly batch: number;
  readonly direction: FftDirection;
  readonly norm: FftNorm;
  readonly input: ComplexLayout;
  readonly output: ComplexLayout;
}

export interface FftProblemInit {
  n: number;
  batch?: number;
  direction?: FftDirection;
  norm?: FftNorm;
  input?: Partial<ComplexLayout>;
  output?: Partial<ComplexLayout>;
}

const NORMS: readonly FftNorm[] = ['backward', 'ortho', 'forward'];

export function isPositiveInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

function layout(name: string, l: Partial<ComplexLayout> | undefined, n: number): ComplexLayout {
  const out = { offset: l?.offset ?? 0, stride: l?.stride ?? 1, dist: l?.dist ?? n };
  if (!Number.isSafeInteger(out.offset) || out.offset < 0)
    throw new ArgumentError(`${name}.offset`, out.offset, 'a non-negative integer');
  if (!isPositiveInteger(out.stride)) throw new ArgumentError(`${name}.stride`, out.stride, 'a positive integer');
  if (!Number.isSafeInteger(out.dist) || out.dist < 0)
    throw new ArgumentError(`${name}.dist`, out.dist, 'a non-negative integer');
  return out;
}

export function fftProblem(init: FftProblemInit): FftProblem {
  if (typeof init !== 'object' || init === null) throw new ArgumentError('options', init, 'an object such as { n }');
  if (!isPositiveInteger(init.n)) throw new ArgumentError('n', init.n, 'a positive integer transform length');
  const batch = init.batch === undefined ? 1 : init.batch;
  if (!isPositiveInteger(batch)) throw new ArgumentError('batch', batch, 'a positive integer');
  const direction = init.direction ?? 'forward';
  if (direction !== 'forward' && direction !== 'inverse')
    throw new ArgumentError('direction', direction, "'forward' or 'inverse'");
  const norm = init.norm ?? 'backward';
  if (!NORMS.includes(norm)) throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
  const input = layout('input', init.input, init.n);
  const output = layout('output', init.output, init.n);
  // Every backend holds a side in one typed array (on the device, one buffer read back as one): refuse here,
  // with the argument named, what would otherwise fail deep inside as a RangeError.
  for (const [name, l] of [
    ['input', input],
    ['output', output],
  ] as const) {
    const values = 2 * layoutSpan(l, init.n, batch);
    if (!(values <= MAX_TYPED_ARRAY_LENGTH)) {
      const what = init.batch === undefined ? 'n' : 'n, batch';
      throw new ArgumentError(
        what,
        init.batch === undefined ? init.n : `${init.n}, ${batch}`,
        `a problem whose ${name} fits one typed array (2 × ${name} span ≤ 2^32 values; here ${values} values)`,
      );
    }
  }
  return Object.freeze({ n: init.n, batch, direction, norm, input, output });
}

/**
 * Whether a layout puts the n · batch values of a batch at distinct indices (what a complex plan's output needs: a
 * later problem would overwrite an earlier one; inputs may overlap, one problem read as many).
 */
export function distinctPlaces(l: ComplexLayout, n: number, batch: number): boolean {
  const { stride: s, dist: d } = l;
  if (batch === 1) return true;
  if (d === 0) return false;
  // Problems one after another, or interleaved problem by problem: the layouts in use.
  if (d > (n - 1) * s || s > (batch - 1) * d) return true;
  // Other layouts: mark every index (spans past 2^26 values, far beyond the layouts in use, pass unchecked).
  const span = (batch - 1) * d + (n - 1) * s + 1;
  if (span > 2 ** 26) return true;
  const seen = new Uint8Array(span);
  for (let b = 0; b < batch; b++) {
    for (let k = 0; k < n; k++) {
      const i = b * d + k * s;
      if (seen[i]) return false;
      seen[i] = 1;
    }
  }
  return true;
}

/**
 * The longest typed array the library creates: V8 (Node 20, Chrome) refuses more than 2^32 elements.
 * Products of sizes are checked against it before anything is allocated.
 */
export const MAX_TYPED_ARRAY_LENGTH = 2 ** 32;

/** The factor applied to the output, by numpy's convention. */
export function normScale(n: number, direction: FftDirection, norm: FftNorm): number {
  if (norm === 'ortho') return 1 / Math.sqrt(n);
  if (norm === 'backward') return direction === 'inverse' ? 1 / n : 1;
  return direction === 'forward' ? 1 / n : 1;
}

/** Number of complex elements a layout spans for `batch` problems of length n (the buffer must hold this many). */
export function layoutSpan(l: ComplexLayout, n: number, batch: number): number {
  return l.offset + (batch - 1) * l.dist + (n - 1) * l.stride + 1;
}
