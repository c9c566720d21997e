/**
 * Real-to-real transforms (DCT, DST types 1–4, DHT) as FFT plans: for a descriptor, each transformed axis's
 * adapter (the scipy kernel, scale and orthogonalize factors), the FFT that carries it (length, real or
 * complex, direction) and that FFT's problem and options. The WebGPU backend attaches the adapter's hooks
 * (codegen/r2r-hooks.ts) and runs the steps; every choice is made here.
 */
import { ArgumentError } from '../errors.js';
import { fftProblem, MAX_TYPED_ARRAY_LENGTH, type FftProblem } from './fft-problem.js';
import type { FftTuning } from './fft-webgpu.js';
import type { WebGpuFftPassOptions } from './fft-webgpu-passes.js';
import { normalizeAxes } from './fft-nd.js';

export type R2rKind = 'dct1' | 'dct2' | 'dct3' | 'dct4' | 'dst1' | 'dst2' | 'dst3' | 'dst4' | 'dht';

export type R2rFamily = 'dct' | 'dst' | 'dht';
export type R2rNorm = 'backward' | 'ortho' | 'forward';

export interface R2rDescriptor {
  family: R2rFamily;
  /** 1–4 for DCT/DST (ignored by the DHT). */
  type?: number;
  inverse?: boolean;
  norm?: R2rNorm;
  /** scipy's orthogonalize (default: norm === 'ortho'); not used by the DHT. */
  orthogonalize?: boolean;
  shape: readonly number[];
  axes?: readonly number[];
  /** Planner options for the underlying FFTs (benchmarks and tests explore variants with it). */
  /** Experimental planner overrides (see FftTuning). */
  tuning?: FftTuning;
}

const INVERSE_TYPE: Record<number, number> = { 1: 1, 2: 3, 3: 2, 4: 4 };
const SQ2 = Math.SQRT2;

interface R2rSpec {
  kind: R2rKind;
  minN: number;
  denom: (n: number) => number;
  pre: (n: number) => [number, number][];
  post: (n: number) => [number, number][];
}

/** scipy's unnormalised kernels, denominators and orthogonalize corner factors. */
export function r2rSpec(family: R2rFamily, type: number): R2rSpec {
  const none = () => [] as [number, number][];
  if (family === 'dht') return { kind: 'dht', minN: 1, denom: (n) => n, pre: none, post: none };
  if (family === 'dct') {
    switch (type) {
      case 1:
        return {
          kind: 'dct1',
          minN: 2,
          denom: (n) => 2 * (n - 1),
          pre: (n) => [
            [0, SQ2],
            [n - 1, SQ2],
          ],
          post: (n) => [
            [0, 1 / SQ2],
            [n - 1, 1 / SQ2],
          ],
        };
      case 2:
        return { kind: 'dct2', minN: 1, denom: (n) => 2 * n, pre: none, post: () => [[0, 1 / SQ2]] };
      case 3:
        return { kind: 'dct3', minN: 1, denom: (n) => 2 * n, pre: () => [[0, SQ2]], post: none };
      case 4:
        return { kind: 'dct4', minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  } else {
    switch (type) {
      case 1:
        return { kind: 'dst1', minN: 1, denom: (n) => 2 * (n + 1), pre: none, post: none };
      case 2:
        return { kind: 'dst2', minN: 1, denom: (n) => 2 * n, pre: none, post: (n) => [[n - 1, 1 / SQ2]] };
      case 3:
        return { kind: 'dst3', minN: 1, denom: (n) => 2 * n, pre: (n) => [[n - 1, SQ2]], post: none };
      case 4:
        return { kind: 'dst4', minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  }
  throw new ArgumentError('type', type, 'a transform type 1, 2, 3 or 4');
}

export function overallScale(norm: R2rNorm, denom: number, inverse: boolean): number {
  if (norm === 'ortho') return 1 / Math.sqrt(denom);
  if (norm === 'backward') return inverse ? 1 / denom : 1;
  return inverse ? 1 : 1 / denom;
}

/**
 * The FFT that carries an adapter of length n (see codegen/r2r-hooks.ts for the pre/post steps): DCT-II,
 * DST-II and the DHT one R2C of length n; DCT-III and DST-III one C2R of length n; DCT-I the R2C of the even
 * extension (2(n − 1)), DST-I of the odd extension (2(n + 1)); DCT-IV and DST-IV one C2C of length 2n.
 */
export function r2rCarrier(
  kind: R2rKind,
  n: number,
): { fftLength: number; real: 'r2c' | 'c2r' | undefined; direction: 'forward' | 'inverse' } {
  switch (kind) {
    case 'dct3':
    case 'dst3':
      return { fftLength: n, real: 'c2r', direction: 'inverse' };
    case 'dct1':
      return { fftLength: 2 * (n - 1), real: 'r2c', direction: 'forward' };
    case 'dst1':
      return { fftLength: 2 * (n + 1), real: 'r2c', direction: 'forward' };
    case 'dct4':
    case 'dst4':
      return { fftLength: 2 * n, real: undefined, direction: 'forward' };
    default:
      return { fftLength: n, real: 'r2c', direction: 'forward' };
  }
}

/** One transformed axis: the adapter and the FFT plan that carries it. */
export interface R2rStep {
  axis: number;
  /** The axis length, and the adapter's kernel, overall scale and orthogonalize factors (index, factor). */
  n: number;
  kind: R2rKind;
  scale: number;
  pre: [number, number][];
  post: [number, number][];
  problem: FftProblem;
  /** The carrying FFT's options, with the adapter's user-side sizes (real f32 arrays, n a problem). */
  options: WebGpuFftPassOptions & { custom: NonNullable<WebGpuFftPassOptions['custom']> };
}

export interface R2rPlanning {
  shape: number[];
  /** In the order they run (last axis first). */
  steps: R2rStep[];
}

/** The plan WebGpuR2r.create runs for a descriptor; argument errors name the argument. */
export function planR2r(d: R2rDescriptor): R2rPlanning {
  const shape = [...d.shape];
  if (shape.length === 0 || !shape.every((v) => Number.isSafeInteger(v) && v >= 1)) {
    throw new ArgumentError('shape', d.shape, 'a non-empty array of positive integers');
  }
  const elements = shape.reduce((x, y) => x * y, 1);
  if (!(elements <= MAX_TYPED_ARRAY_LENGTH))
    throw new ArgumentError('shape', d.shape, `at most 2^32 elements in all (here ${elements})`);
  const inverse = d.inverse ?? false;
  const type = d.family === 'dht' ? 0 : (d.type ?? 2);
  if (d.family !== 'dht' && ![1, 2, 3, 4].includes(type))
    throw new ArgumentError('type', d.type, 'a transform type 1, 2, 3 or 4');
  const norm = d.norm ?? 'backward';
  if (!['backward', 'ortho', 'forward'].includes(norm))
    throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
  const orth = d.family !== 'dht' && (d.orthogonalize ?? norm === 'ortho');
  // The inverse of type t is the forward kernel of type INVERSE_TYPE[t] with the inverse scaling.
  const spec = r2rSpec(d.family, inverse && d.family !== 'dht' ? INVERSE_TYPE[type] : type);
  const axes = normalizeAxes(d.axes, shape.length, true);
  const steps = [...axes].reverse().map((a): R2rStep => {
    const n = shape[a];
    if (n < spec.minN)
      throw new ArgumentError(
        'n',
        n,
        `≥ ${spec.minN} along axis ${a} for ${d.family.toUpperCase()} type ${type || ''}`.trim(),
      );
    const carrier = r2rCarrier(spec.kind, n);
    const inner = shape.slice(a + 1).reduce((x, y) => x * y, 1);
    const outer = shape.slice(0, a).reduce((x, y) => x * y, 1);
    const layout = inner === 1 ? { stride: 1, dist: n } : { stride: inner, dist: 1 };
    const problem = fftProblem({
      n: carrier.fftLength,
      batch: inner === 1 ? outer : inner,
      direction: carrier.direction,
      input: layout,
      output: layout,
    });
    return {
      axis: a,
      n,
      kind: spec.kind,
      scale: overallScale(norm, spec.denom(n), inverse),
      pre: orth ? spec.pre(n) : [],
      post: orth ? spec.post(n) : [],
      problem,
      options: {
        tuning: d.tuning,
        real: carrier.real,
        // Multi-pass: the post-processing fused into the last pass for the DHT and for the adapters that take
        // their quarter-root twiddles from the pass (DCT-II, DST-II), where it measured faster
        // (docs/DECISIONS.md: fusedPost).
        custom: {
          inCount: n,
          outCount: n,
          inElem: 4,
          outElem: 4,
          fusedPost: spec.kind === 'dht' || spec.kind === 'dct2' || spec.kind === 'dst2',
        },
        ...(inner !== 1 && outer > 1 ? { outer: { count: outer, inDist: n * inner, outDist: n * inner } } : {}),
      },
    };
  });
  return { shape, steps };
}
