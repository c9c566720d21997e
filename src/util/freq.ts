/**
 * numpy.fft helpers: fftfreq, rfftfreq, fftshift, ifftshift.
 *
 * fftshift/ifftshift work on flat row-major arrays with an optional `shape` and `axes` (default: all
 * axes, as numpy), and on interleaved complex data with `elementSize: 2` (each (re, im) pair moves as
 * one element). They return a new array of the same kind.
 */
import { ArgumentError } from '../errors.js';
import { checkOptionNames } from './option-names.js';

function checkN(n: unknown): asserts n is number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new ArgumentError('n', n, 'an integer ≥ 1');
}

function checkD(d: unknown): asserts d is number {
  if (typeof d !== 'number' || !Number.isFinite(d) || d === 0)
    throw new ArgumentError('d', d, 'a finite, non-zero sample spacing');
}

/** Sample frequencies of an n-point FFT: [0, 1, …, ⌈n/2⌉−1, −⌊n/2⌋, …, −1] / (d·n). */
export function fftfreq(n: number, d = 1): Float64Array {
  checkN(n);
  checkD(d);
  const out = new Float64Array(n);
  const half = Math.floor((n - 1) / 2) + 1; // number of non-negative frequencies
  for (let i = 0; i < half; i++) out[i] = i / (d * n);
  for (let i = half; i < n; i++) out[i] = (i - n) / (d * n);
  return out;
}

/** Sample frequencies of an n-point rfft: [0, 1, …, ⌊n/2⌋] / (d·n). */
export function rfftfreq(n: number, d = 1): Float64Array {
  checkN(n);
  checkD(d);
  const m = Math.floor(n / 2) + 1;
  const out = new Float64Array(m);
  for (let i = 0; i < m; i++) out[i] = i / (d * n);
  return out;
}

export interface ShiftOptions {
  /** Row-major shape (default: 1-D of length x.length / elementSize). */
  shape?: readonly number[];
  /** Axes to shift (negative allowed; default all). */
  axes?: readonly number[] | number;
  /** Numbers per element: 1 real, 2 interleaved complex (default 1). */
  elementSize?: 1 | 2;
}

type ShiftArray = Float64Array | Float32Array | number[];

function roll<T extends ShiftArray>(x: T, options: ShiftOptions, inverse: boolean): T {
  // numpy's name is `axes`: an `axis` would otherwise be dropped and every axis shifted.
  checkOptionNames(options, ['shape', 'axes', 'elementSize'], inverse ? 'ifftshift' : 'fftshift');
  const es = options.elementSize ?? 1;
  if (es !== 1 && es !== 2) throw new ArgumentError('elementSize', es, '1 (real) or 2 (interleaved complex)');
  if (x.length % es !== 0) throw new ArgumentError('x', x.length, `a length divisible by elementSize ${es}`);
  const shape = options.shape ?? [x.length / es];
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ArgumentError('shape', shape, 'a non-empty array of non-negative integer dimensions');
  }
  const total = shape.reduce((a, b) => a * b, 1);
  if (total * es !== x.length)
    throw new ArgumentError('x', x.length, `${total * es} values for shape [${shape.join(', ')}]`);
  const nd = shape.length;
  // One axis may be given as a number, as numpy's fftshift takes it.
  const given = typeof options.axes === 'number' ? [options.axes] : options.axes;
  if (given !== undefined && !Array.isArray(given))
    throw new ArgumentError('axes', options.axes, 'an axis index or an array of them');
  const axes = (given ?? shape.map((_, i) => i)).map((a) => {
    if (!Number.isInteger(a) || a < -nd || a >= nd)
      throw new ArgumentError('axes', options.axes, `axis indices in [${-nd}, ${nd - 1}]`);
    return a < 0 ? a + nd : a;
  });
  // Net shift per axis (repeated axes add up, as numpy.roll does).
  const shift = new Array<number>(nd).fill(0);
  for (const a of axes) shift[a]! += inverse ? -Math.floor(shape[a]! / 2) : Math.floor(shape[a]! / 2);
  const make = (): T =>
    Array.isArray(x) ? (new Array<number>(x.length) as T) : new (x.constructor as new (n: number) => T)(x.length);
  let src: T = x;
  // One axis at a time: view as outer × L × inner and rotate the middle index.
  for (let a = 0; a < nd; a++) {
    const L = shape[a]!;
    const k = L === 0 ? 0 : ((shift[a]! % L) + L) % L;
    if (k === 0) continue;
    const outer = shape.slice(0, a).reduce((p, q) => p * q, 1);
    const inner = shape.slice(a + 1).reduce((p, q) => p * q, 1) * es;
    const dst = make();
    for (let o = 0; o < outer; o++) {
      const base = o * L * inner;
      for (let i = 0; i < L; i++) {
        const from = base + i * inner,
          to = base + ((i + k) % L) * inner;
        for (let j = 0; j < inner; j++) dst[to + j] = src[from + j]!;
      }
    }
    src = dst;
  }
  if (src === x) {
    const copy = make();
    for (let i = 0; i < x.length; i++) copy[i] = x[i]!;
    return copy;
  }
  return src;
}

/** Move the zero-frequency term to the centre: roll each axis by ⌊n/2⌋. */
export function fftshift<T extends ShiftArray>(x: T, options: ShiftOptions = {}): T {
  return roll(x, options, false);
}

/** Inverse of fftshift: roll each axis by −⌊n/2⌋ (differs from fftshift for odd n). */
export function ifftshift<T extends ShiftArray>(x: T, options: ShiftOptions = {}): T {
  return roll(x, options, true);
}
