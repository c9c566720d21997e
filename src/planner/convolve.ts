/**
 * Convolution planning: scipy's output windows (convGeometry), FFT sizes (nextFastLen), overlap-add block
 * lengths and the cost models behind method 'auto' on the CPU and on WebGPU. Plain functions of shapes,
 * shared by the CPU executors (backends/cpu/convolve.ts), the WebGPU ones and the API.
 */
import { ArgumentError, UnsupportedError } from '../errors.js';

function product(a: readonly number[]): number {
  return a.reduce((x, y) => x * y, 1);
}

export type ConvMode = 'full' | 'same' | 'valid';

export interface ConvGeometry {
  /** Size of the full convolution per axis (na + nb − 1). */
  full: number[];
  /** Output size per axis. */
  out: number[];
  /** First index of the full convolution kept, per axis. */
  start: number[];
}

export const CONV_MODES: readonly ConvMode[] = ['full', 'same', 'valid'];

export function checkMode(mode: unknown): ConvMode {
  if (mode === undefined) return 'full';
  if (typeof mode !== 'string' || !(CONV_MODES as readonly string[]).includes(mode)) {
    throw new ArgumentError('mode', mode, "'full', 'same' or 'valid'");
  }
  return mode as ConvMode;
}

/** Output window of a convolution of shapes `a` and `b` (same rank) in `mode`, with scipy's rules. */
export function convGeometry(
  a: readonly number[],
  b: readonly number[],
  mode: ConvMode,
  broadcastOnes = false,
): ConvGeometry {
  if (a.length !== b.length)
    throw new ArgumentError('shape', b, `the same number of convolved axes as the first operand (${a.length})`);
  for (const [name, s] of [
    ['in1', a],
    ['in2', b],
  ] as const) {
    for (const d of s)
      if (!Number.isSafeInteger(d) || d < 1)
        throw new ArgumentError(`${name}.shape`, s, 'positive integer sizes along the convolved axes');
  }
  const full = a.map((n, i) => n + b[i] - 1);
  if (mode === 'full') return { full, out: full.slice(), start: a.map(() => 0) };
  if (mode === 'same') return { full, out: a.slice(), start: b.map((n) => (n - 1) >> 1) };
  // broadcastOnes, as scipy.signal.fftconvolve / oaconvolve (not convolve / correlate): an axis where either operand
  // has length 1 is a broadcast, outside the 'valid' rule (its window is all of max(na, nb), as |na − nb| + 1 gives).
  const both = a.map((n, i) => !broadcastOnes || (n !== 1 && b[i] !== 1));
  const aBig = a.every((n, i) => !both[i] || n >= b[i]);
  const bBig = b.every((n, i) => !both[i] || n >= a[i]);
  if (!aBig && !bBig) {
    throw new ArgumentError(
      'mode',
      mode,
      `one operand at least as large as the other in every axis for 'valid' (shapes [${a.join(', ')}] and [${b.join(', ')}])`,
    );
  }
  return { full, out: a.map((n, i) => Math.abs(n - b[i]) + 1), start: a.map((n, i) => Math.min(n, b[i]) - 1) };
}

/** Smallest 2·3·5·7-smooth integer ≥ n: FFT lengths our planners handle with small radices. */
export function nextFastLen(n: number): number {
  if (n <= 1) return 1;
  let best = Infinity;
  for (let p7 = 1; p7 < best; p7 *= 7) {
    for (let p5 = p7; p5 < best; p5 *= 5) {
      for (let p3 = p5; p3 < best; p3 *= 3) {
        let p = p3;
        while (p < n) p *= 2;
        if (p < best) best = p;
      }
    }
  }
  return best;
}

/**
 * The CPU engine's fast length ≥ n for a real FFT: 7-smooth like nextFastLen and, from 16·W points (W = 4 lanes in
 * f32, 2 in f64), a multiple of 2·W, so the half-length complex FFT splits across the lanes (lane-split). Other
 * smooth lengths run lane-batch at about a quarter of the rate a point (rfft of 101250 = 2·3⁴·5⁴: 0.96 ms against
 * 0.21 ms for 96000, f32).
 */
export function nextFastCpuLen(n: number, precision: 'f32' | 'f64'): number {
  const w = precision === 'f32' ? 4 : 2;
  let m = nextFastLen(n);
  if (m < 16 * w) return m;
  while (m % (2 * w) !== 0) m = nextFastLen(m + 1);
  return m;
}

/** A real 1-D convolution on the CPU engine: blocks of L of the longer operand, each a real FFT row of p points. */
export interface RealConvolution1dPlan {
  method: 'fft' | 'oa';
  /** Whether the second operand is the longer one (cut into blocks; convolution commutes). */
  swap: boolean;
  /** Block length (the longer operand's whole length for 'fft'). */
  L: number;
  /** FFT length of a block: ≥ L + (shorter length) − 1. */
  p: number;
  blocks: number;
}

/** Plans by (na, nb, method, precision): the block search costs more than a short convolution's FFTs. */
const realPlans = new Map<string, RealConvolution1dPlan>();

export function planRealConvolution1d(
  na: number,
  nb: number,
  method: 'fft' | 'oa',
  precision: 'f32' | 'f64',
): RealConvolution1dPlan {
  const key = `${na},${nb},${method},${precision}`;
  let plan = realPlans.get(key);
  if (!plan) {
    if (realPlans.size >= 64) realPlans.delete(realPlans.keys().next().value!);
    realPlans.set(key, (plan = searchRealConvolution1d(na, nb, method, precision)));
  }
  return plan;
}

function searchRealConvolution1d(
  na: number,
  nb: number,
  method: 'fft' | 'oa',
  precision: 'f32' | 'f64',
): RealConvolution1dPlan {
  const swap = nb > na;
  const [nx, nk] = swap ? [nb, na] : [na, nb];
  const fast = (n: number) => nextFastCpuLen(n, precision);
  const L = method === 'oa' ? overlapAddBlock(nx, nk, fast) : nx;
  return { method, swap, L, p: fast(L + nk - 1), blocks: Math.ceil(nx / L) };
}

/**
 * Block length for overlap-add along one axis: minimises the FFT work per output sample,
 * P·log2 P / L with P = nextFastLen(L + nb − 1), over L ≤ na. Returns na (no splitting) when the
 * kernel is not much shorter than the signal.
 */
export function overlapAddBlock(na: number, nb: number, fastLen: (n: number) => number = nextFastLen): number {
  if (nb === 1) return Math.min(na, 4096);
  if (na <= 2 * nb) return na;
  let best = na;
  let bestCost = Infinity;
  for (let P = fastLen(nb + 1); ; P = fastLen(P + 1)) {
    const L = P - nb + 1;
    const cost = (P * Math.log2(P)) / Math.min(L, na);
    if (cost < bestCost) {
      bestCost = cost;
      best = Math.min(L, na);
    }
    if (L >= na) break;
  }
  return best;
}

/**
 * The cost model behind method 'auto' on the CPU, in units of one float64 complex multiply-add:
 *   direct ≈ Π(na)·Π(nb)                       (every pair of input elements);
 *   fft    ≈ C_FFT · 3 · P·log2 P + 4·P        (three transforms of P = Π nextFastLen(na + nb − 1)
 *                                                points and the spectrum product).
 * C_FFT = 2 is an estimate, not a fitted constant (a butterfly point does more index arithmetic than
 * the direct loop's streaming multiply-add); calibrate it with a timing sweep before relying on the
 * crossover. Real operands halve both sides alike, so the comparison ignores realness.
 */
export const CPU_FFT_COST = 2;

export function directCost(a: readonly number[], b: readonly number[]): number {
  return product(a) * product(b);
}

export function fftCost(a: readonly number[], b: readonly number[]): number {
  const P = product(a.map((n, i) => nextFastLen(n + b[i] - 1)));
  return CPU_FFT_COST * 3 * P * Math.log2(Math.max(2, P)) + 4 * P;
}

export function chooseCpuMethod(a: readonly number[], b: readonly number[]): 'direct' | 'fft' {
  return directCost(a, b) <= fftCost(a, b) ? 'direct' : 'fft';
}

const GPU_FFT_COST = 16;
const GPU_LAUNCH_COST = 2e5;

/** The method 'auto' would pick for convolved shapes a and b (see the module comment for the model). */
export function chooseConvMethod(
  a: readonly number[],
  b: readonly number[],
  mode: ConvMode = 'full',
  backend: 'cpu' | 'webgpu' = 'cpu',
): 'direct' | 'fft' {
  if (backend === 'cpu') return chooseCpuMethod(a, b);
  const g = convGeometry(a, b, mode);
  const direct = product(g.out) * product(a.map((n, i) => Math.min(n, b[i])));
  const P = product(g.full.map(nextFastLen));
  const fft = GPU_FFT_COST * P * Math.log2(Math.max(2, P)) + GPU_LAUNCH_COST;
  return direct <= fft ? 'direct' : 'fft';
}

/**
 * How WebGPU computes a convolution of x's Hx×Wx slices with Hk×Wk kernels (2-D; 1-D as one row): 'direct',
 * 'fft' on a P×Q grid whose padded rows and columns fit the workgroup memory (smemElems complex values), else
 * overlap-add ('oa') over Lr×Lc blocks of x, the longest blocks (overlapAddBlock) whose padded length fits.
 */
export interface GpuConvolutionPlan {
  method: 'direct' | 'fft' | 'oa';
  /** 'fft': the grid, nextFastLen of the full convolution per axis. */
  P: number;
  Q: number;
  /** 'oa': block sizes. */
  Lr: number;
  Lc: number;
}

export function planGpuConvolution(
  method: 'direct' | 'fft' | 'oa',
  x: [number, number],
  k: [number, number],
  smemElems: number,
): GpuConvolutionPlan {
  const [Hx, Wx] = x;
  const [Hk, Wk] = k;
  const P = nextFastLen(Hx + Hk - 1);
  const Q = nextFastLen(Wx + Wk - 1);
  const m = method === 'fft' && (P > smemElems || Q > smemElems) ? 'oa' : method;
  if (m !== 'oa') return { method: m, P, Q, Lr: Hx, Lc: Wx };
  const fitBlock = (n: number, nk: number) => {
    let L = overlapAddBlock(n, nk);
    while (L > 1 && nextFastLen(L + nk - 1) > smemElems) L = Math.max(1, Math.floor(L / 2));
    if (nextFastLen(L + nk - 1) > smemElems)
      throw new UnsupportedError(
        `overlap-add: a kernel of length ${nk} does not fit the workgroup memory (${smemElems} complex values)`,
      );
    return L;
  };
  return { method: m, P, Q, Lr: fitBlock(Hx, Hk), Lc: fitBlock(Wx, Wk) };
}
