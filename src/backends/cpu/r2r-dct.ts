/**
 * DCT types 1–4 in float64 with scipy.fft's definitions and `norm`/`orthogonalize` semantics, each a
 * thin adapter over the real/complex FFT plus O(N) pre/post steps (pocketfft's structure):
 * - DCT-I: even extension of length 2(N−1), rfft, real part.
 * - DCT-II: Makhoul (SEEDS.md, corrected): v = evens then odds reversed, rfft_N, y_k = 2·Re(e^{−iπk/2N}·V_k).
 * - DCT-III: the inverse of that path: V_k = e^{+iπk/2N}(x_k − i·x_{N−k}), unnormalised irfft_N, unshuffle.
 * - DCT-IV: even N via one complex FFT of length N/2 (pairs x_{2p} + i·x_{N−1−2p}, pre/post twiddles);
 *   odd N via a complex FFT of length 2N of x_n·e^{−iπn/2N}.
 * Unnormalised (scipy 'backward' forward) definitions:
 *   I:   y_k = x_0 + (−1)^k x_{N−1} + 2 Σ_{n=1}^{N−2} x_n cos(πkn/(N−1))
 *   II:  y_k = 2 Σ x_n cos(πk(2n+1)/(2N))
 *   III: y_k = x_0 + 2 Σ_{n≥1} x_n cos(πn(2k+1)/(2N))
 *   IV:  y_k = 2 Σ x_n cos(π(2n+1)(2k+1)/(4N))
 * norm: 'backward' = none forward, 1/(2(N−1)) (type 1) or 1/(2N) inverse; 'ortho' = the square root of
 * that both ways; 'forward' = the reverse. orthogonalize (default: norm === 'ortho'): type 1 scales x_0,
 * x_{N−1} by √2 and y_0, y_{N−1} by 1/√2; type 2 scales y_0 by 1/√2; type 3 scales x_0 by √2.
 * idct of type t is the dct of type 1, 3, 2, 4 (t = 1, 2, 3, 4) with the inverse scaling.
 *
 * The driver (`runR2r`) is shared with the DST and DHT: any axis of a row-major shape, `n` crop/pad,
 * and the N-D variants, applying the 1-D kernel line by line.
 */
import { ArgumentError } from '../../errors.js';
import { unitRoot } from './dft-naive.js';
import { type Norm } from './fft-mixed-radix.js';
import { normalizeAxis, product, type NdArray } from './fft-nd.js';
import { planCpuFft } from './fft-plan.js';
import { planCpuRfft } from './fft-real.js';
import { cpuEnginePrecision, cpuFftScopeKey } from './engine-scope.js';
import { planCpuEngineDct2 } from '../../planner/cpu-fft.js';
import { tryFusedRealFft } from './wasm-fft.js';

export type R2rType = 1 | 2 | 3 | 4;

export interface R2rOptions {
  /** Transform type 1–4 (default 2). Ignored by the DHT. */
  type?: number;
  norm?: Norm;
  /** scipy's orthogonalize (default: norm === 'ortho'). */
  orthogonalize?: boolean;
  /** Transform length along `axis` (input cropped or zero-padded). */
  n?: number;
  /** Axis (default −1). */
  axis?: number;
}

export interface R2rNdOptions {
  type?: number;
  norm?: Norm;
  orthogonalize?: boolean;
  /** Lengths per axis (−1 = keep). */
  s?: readonly number[];
  /** Axes (default all, or the last len(s)). */
  axes?: readonly number[];
}

/** Unnormalised 1-D kernel: reads src[0..N) (may scribble on it), writes dst[0..N). */
export type R2rKernel = (src: Float64Array, dst: Float64Array) => void;

/** What the shared driver needs to know about one transform (a type and direction of DCT/DST/DHT). */
export interface R2rSpec {
  /** Name for error messages, e.g. 'DCT type 1'. */
  name: string;
  minN: number;
  /** 'backward' inverse scale is 1/denom(N); ortho uses 1/√denom both ways. */
  denom: (n: number) => number;
  kernel: (n: number) => R2rKernel;
  /** Optional: many contiguous lines at once (one batched FFT call instead of one per line). */
  batchKernel?: (n: number) => R2rBatchKernel;
  /** orthogonalize pre/post scaling in place (optional). */
  pre?: (buf: Float64Array, n: number) => void;
  post?: (buf: Float64Array, n: number) => void;
}

export function checkType(type: unknown): R2rType {
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4) throw new ArgumentError('type', type, 'a transform type 1, 2, 3 or 4');
  return type;
}

function overallScale(norm: Norm | undefined, denom: number, inverse: boolean): number {
  const nm = norm ?? 'backward';
  if (nm === 'ortho') return 1 / Math.sqrt(denom);
  if (nm === 'backward') return inverse ? 1 / denom : 1;
  if (nm === 'forward') return inverse ? 1 : 1 / denom;
  throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
}

type Input = Float64Array | Float32Array | readonly number[];

/**
 * Shared driver: apply `spec` along one axis of x (row-major `shape`, default 1-D), with numpy-style
 * crop/zero-pad to n, overall `norm` scale and optional orthogonalize steps.
 */
export function runR2r(x: Input, shape: readonly number[] | undefined, axisArg: number | undefined, nArg: number | undefined, spec: R2rSpec, norm: Norm | undefined, orthogonalize: boolean, inverse: boolean): NdArray {
  const sh = shape ? [...shape] : [x.length];
  if (sh.length === 0 || sh.some((d) => !Number.isInteger(d) || d < 0)) throw new ArgumentError('shape', shape, 'a non-empty array of non-negative integer dimensions');
  if (product(sh) !== x.length) throw new ArgumentError('x', x.length, `${product(sh)} values for shape [${sh.join(', ')}]`);
  const axis = normalizeAxis(axisArg ?? -1, sh.length);
  const old = sh[axis]!;
  const n = nArg ?? old;
  if (!Number.isInteger(n) || n < spec.minN) throw new ArgumentError('n', n, `an integer ≥ ${spec.minN} for ${spec.name}`);
  const scale = overallScale(norm, spec.denom(n), inverse);
  const outShape = [...sh];
  outShape[axis] = n;
  const outer = product(sh.slice(0, axis)), inner = product(sh.slice(axis + 1));
  const out = new Float64Array(outer * n * inner);
  const keep = Math.min(n, old);
  if (inner === 1 && spec.batchKernel) {
    // Lines are contiguous: move them in blocks through the batched kernel.
    const bk = spec.batchKernel(n);
    const block = Math.max(1, Math.min(outer, Math.floor(LINE_BLOCK / n)));
    const src = new Float64Array(block * n), dst = new Float64Array(block * n);
    for (let o0 = 0; o0 < outer; o0 += block) {
      const count = Math.min(block, outer - o0);
      for (let q = 0; q < count; q++) {
        const ib = (o0 + q) * old;
        if (x instanceof Float64Array || x instanceof Float32Array) src.set(x.subarray(ib, ib + keep), q * n);
        else for (let e = 0; e < keep; e++) src[q * n + e] = x[ib + e]!;
        src.fill(0, q * n + keep, (q + 1) * n);
        if (orthogonalize && spec.pre) spec.pre(src.subarray(q * n, (q + 1) * n), n);
      }
      bk(src, dst, count);
      for (let q = 0; q < count; q++) {
        if (orthogonalize && spec.post) spec.post(dst.subarray(q * n, (q + 1) * n), n);
        const ob = (o0 + q) * n;
        for (let e = 0; e < n; e++) out[ob + e] = scale * dst[q * n + e]!;
      }
    }
    return { data: out, shape: outShape };
  }
  const kernel = spec.kernel(n);
  const src = new Float64Array(n), dst = new Float64Array(n);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const ib = o * old * inner + i, ob = o * n * inner + i;
      for (let e = 0; e < keep; e++) src[e] = x[ib + e * inner]!;
      src.fill(0, keep);
      if (orthogonalize && spec.pre) spec.pre(src, n);
      kernel(src, dst);
      if (orthogonalize && spec.post) spec.post(dst, n);
      for (let e = 0; e < n; e++) out[ob + e * inner] = scale * dst[e]!;
    }
  }
  return { data: out, shape: outShape };
}

/** N-D driver: runR2r along each axis in turn (last of `axes` first, as scipy). */
export function runR2rNd(x: Input, shape: readonly number[], options: R2rNdOptions, specFor: (type: R2rType) => R2rSpec, inverse: boolean): NdArray {
  const nd = shape.length;
  if (!Array.isArray(shape) || nd === 0) throw new ArgumentError('shape', shape, 'a non-empty array of dimensions');
  let axes: number[];
  if (options.axes !== undefined) axes = options.axes.map((a) => normalizeAxis(a, nd, 'axes'));
  else if (options.s !== undefined) axes = options.s.map((_, i) => nd - options.s!.length + i);
  else axes = shape.map((_, i) => i);
  if (options.s !== undefined && options.s.length !== axes.length) throw new ArgumentError('s', options.s, `${axes.length} lengths, one per axis`);
  const spec = specFor(checkType(options.type ?? 2));
  const orth = options.orthogonalize ?? options.norm === 'ortho';
  let cur: NdArray = { data: x instanceof Float64Array ? x : Float64Array.from(x), shape: [...shape] };
  for (let i = axes.length - 1; i >= 0; i--) {
    const s = options.s?.[i];
    cur = runR2r(cur.data, cur.shape, axes[i], s === undefined || s === -1 ? undefined : s, spec, options.norm, orth, inverse);
  }
  return cur;
}

// ---- kernels -------------------------------------------------------------------------------------

/** e^{−iπk/(2N)} for k = 0..N−1, interleaved. */
function quarterTwiddles(n: number): Float64Array {
  const t = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const [c, s] = unitRoot(-k, 4 * n);
    t[2 * k] = c;
    t[2 * k + 1] = s;
  }
  return t;
}

/** Values per block of lines in the batched driver (fits L2 with the FFT's buffers). */
const LINE_BLOCK = 1 << 15;

export type R2rBatchKernel = (src: Float64Array, dst: Float64Array, count: number) => void;

/**
 * DCT-II of `count` contiguous lines: Makhoul's reorder of every line, one batched real FFT, then
 * y_k = 2·Re(e^{−iπk/2N}·V_k) per line.
 */
export function dct2BatchKernel(n: number): R2rBatchKernel {
  const engine = cpuEnginePrecision();
  const fusedRecipe = engine ? planCpuEngineDct2(n, engine) : null;
  const fused = fusedRecipe ? tryFusedRealFft(fusedRecipe) : null;
  if (fused) {
    // Reorder, real FFT and post-rotation in one WebAssembly module.
    return (src, dst, count) => fused.forwardDct2(src, dst, count);
  }
  const plan = planCpuRfft(n);
  const tw = quarterTwiddles(n);
  const nc = plan.nComplex;
  let v = new Float64Array(0);
  let z = new Float64Array(0);
  return (src, dst, count) => {
    if (v.length < count * n) {
      v = new Float64Array(count * n);
      z = new Float64Array(2 * nc * count);
    }
    for (let q = 0; q < count; q++) {
      const s = q * n;
      for (let k = 0; 2 * k < n; k++) v[s + k] = src[s + 2 * k]!;
      for (let k = 0; 2 * k + 1 < n; k++) v[s + n - 1 - k] = src[s + 2 * k + 1]!;
    }
    plan.forward(v, z, { batch: count });
    for (let q = 0; q < count; q++) {
      const zb = 2 * nc * q;
      const d = q * n;
      for (let k = 0; k < nc; k++) dst[d + k] = 2 * (tw[2 * k]! * z[zb + 2 * k]! - tw[2 * k + 1]! * z[zb + 2 * k + 1]!);
      // V_k = conj V_{N−k} for k ≥ nc.
      for (let k = nc; k < n; k++) dst[d + k] = 2 * (tw[2 * k]! * z[zb + 2 * (n - k)]! + tw[2 * k + 1]! * z[zb + 2 * (n - k) + 1]!);
    }
  };
}

const batchCache = new Map<string, R2rBatchKernel>();
function dct2Batch(n: number): R2rBatchKernel {
  const key = `${cpuFftScopeKey()}/dct2/${n}`;
  let k = batchCache.get(key);
  if (!k) {
    k = dct2BatchKernel(n);
    batchCache.set(key, k);
  }
  return k;
}

const kernelCache = new Map<string, R2rKernel>();
function cached(key: string, make: () => R2rKernel): R2rKernel {
  const scoped = `${cpuFftScopeKey()}/${key}`;
  let k = kernelCache.get(scoped);
  if (!k) {
    k = make();
    kernelCache.set(scoped, k);
  }
  return k;
}

export function dct1Kernel(n: number): R2rKernel {
  return cached(`dct1/${n}`, () => {
    const m = 2 * (n - 1);
    const plan = planCpuRfft(m);
    const ext = new Float64Array(m);
    const spec = new Float64Array(2 * plan.nComplex);
    return (src, dst) => {
      for (let i = 0; i < n; i++) ext[i] = src[i]!;
      for (let i = 1; i < n - 1; i++) ext[m - i] = src[i]!;
      plan.forward1(ext, 0, spec, 0);
      for (let k = 0; k < n; k++) dst[k] = spec[2 * k]!;
    };
  });
}

export function dct2Kernel(n: number): R2rKernel {
  return cached(`dct2/${n}`, () => {
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const v = new Float64Array(n);
    const z = new Float64Array(2 * plan.nComplex);
    return (src, dst) => {
      // Makhoul reorder: evens ascending, then odds descending from the end.
      for (let k = 0; 2 * k < n; k++) v[k] = src[2 * k]!;
      for (let k = 0; 2 * k + 1 < n; k++) v[n - 1 - k] = src[2 * k + 1]!;
      plan.forward1(v, 0, z, 0);
      const nc = plan.nComplex;
      for (let k = 0; k < n; k++) {
        // V_k for k ≥ nc from Hermitian symmetry V_k = conj V_{N−k}
        const zr = k < nc ? z[2 * k]! : z[2 * (n - k)]!;
        const zi = k < nc ? z[2 * k + 1]! : -z[2 * (n - k) + 1]!;
        dst[k] = 2 * (tw[2 * k]! * zr - tw[2 * k + 1]! * zi);
      }
    };
  });
}

export function dct3Kernel(n: number): R2rKernel {
  return cached(`dct3/${n}`, () => {
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const nc = plan.nComplex;
    const z = new Float64Array(2 * nc);
    const v = new Float64Array(n);
    return (src, dst) => {
      // V_k = e^{+iπk/2N}(x_k − i·x_{N−k}), x_N = 0; Hermitian, so only k ≤ N/2 is formed.
      for (let k = 0; k < nc; k++) {
        const a = src[k]!, b = k === 0 ? 0 : src[n - k]!;
        const c = tw[2 * k]!, s = -tw[2 * k + 1]!; // conj of e^{−iπk/2N}
        // (c + i s)(a − i b)
        z[2 * k] = c * a + s * b;
        z[2 * k + 1] = s * a - c * b;
      }
      plan.inverse1(z, 0, v, 0);
      for (let k = 0; 2 * k < n; k++) dst[2 * k] = v[k]!;
      for (let k = 0; 2 * k + 1 < n; k++) dst[2 * k + 1] = v[n - 1 - k]!;
    };
  });
}

export function dct4Kernel(n: number): R2rKernel {
  return cached(`dct4/${n}`, () => {
    if (n % 2 === 0) {
      const h = n / 2;
      const plan = planCpuFft(h);
      const pre = new Float64Array(2 * h), post = new Float64Array(2 * h);
      for (let p = 0; p < h; p++) {
        const [c, s] = unitRoot(-p, 2 * n); // e^{−iπp/N}
        pre[2 * p] = c;
        pre[2 * p + 1] = s;
        const [c2, s2] = unitRoot(-(4 * p + 1), 8 * n); // e^{−iπ(4q+1)/(4N)}
        post[2 * p] = c2;
        post[2 * p + 1] = s2;
      }
      const w = new Float64Array(2 * h);
      return (src, dst) => {
        for (let p = 0; p < h; p++) {
          const a = src[2 * p]!, b = src[n - 1 - 2 * p]!;
          const c = pre[2 * p]!, s = pre[2 * p + 1]!;
          w[2 * p] = a * c - b * s;
          w[2 * p + 1] = a * s + b * c;
        }
        plan.transformInPlace(w, 0, false);
        for (let q = 0; q < h; q++) {
          const c = post[2 * q]!, s = post[2 * q + 1]!;
          const tr = w[2 * q]! * c - w[2 * q + 1]! * s;
          const ti = w[2 * q]! * s + w[2 * q + 1]! * c;
          dst[2 * q] = 2 * tr;
          dst[n - 1 - 2 * q] = -2 * ti;
        }
      };
    }
    // Odd N: y_k = 2·Re(e^{−iπ(2k+1)/(4N)} · Σ_n x_n e^{−iπn/(2N)} e^{−2πi·nk/(2N)}).
    const plan = planCpuFft(2 * n);
    const pre = new Float64Array(2 * n), post = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      const [c, s] = unitRoot(-k, 4 * n);
      pre[2 * k] = c;
      pre[2 * k + 1] = s;
      const [c2, s2] = unitRoot(-(2 * k + 1), 8 * n);
      post[2 * k] = c2;
      post[2 * k + 1] = s2;
    }
    const w = new Float64Array(4 * n);
    return (src, dst) => {
      w.fill(0);
      for (let i = 0; i < n; i++) {
        w[2 * i] = src[i]! * pre[2 * i]!;
        w[2 * i + 1] = src[i]! * pre[2 * i + 1]!;
      }
      plan.transformInPlace(w, 0, false);
      for (let k = 0; k < n; k++) dst[k] = 2 * (w[2 * k]! * post[2 * k]! - w[2 * k + 1]! * post[2 * k + 1]!);
    };
  });
}

const SQ2 = Math.SQRT2;

/** Spec for the forward DCT of a type (unnormalised kernel + scipy's orthogonalize steps). */
export function dctSpec(type: R2rType): R2rSpec {
  switch (type) {
    case 1:
      return {
        name: 'DCT type 1', minN: 2, denom: (n) => 2 * (n - 1), kernel: dct1Kernel,
        pre: (b, n) => { b[0]! *= SQ2; b[n - 1]! *= SQ2; },
        post: (b, n) => { b[0]! /= SQ2; b[n - 1]! /= SQ2; },
      };
    case 2:
      return { name: 'DCT type 2', minN: 1, denom: (n) => 2 * n, kernel: dct2Kernel, batchKernel: dct2Batch, post: (b) => { b[0]! /= SQ2; } };
    case 3:
      return { name: 'DCT type 3', minN: 1, denom: (n) => 2 * n, kernel: dct3Kernel, pre: (b) => { b[0]! *= SQ2; } };
    case 4:
      return { name: 'DCT type 4', minN: 1, denom: (n) => 2 * n, kernel: dct4Kernel };
  }
}

/** Type of the transform that inverts type t (scipy's _inverse_typemap). */
export const INVERSE_TYPE: Record<R2rType, R2rType> = { 1: 1, 2: 3, 3: 2, 4: 4 };

function orth(o: { norm?: Norm; orthogonalize?: boolean }): boolean {
  return o.orthogonalize ?? o.norm === 'ortho';
}

/** scipy.fft.dct along `axis` of x (row-major `shape`, default 1-D). */
export function dct(x: Input, options: R2rOptions = {}, shape?: readonly number[]): NdArray {
  const t = checkType(options.type ?? 2);
  return runR2r(x, shape, options.axis, options.n, dctSpec(t), options.norm, orth(options), false);
}

/** scipy.fft.idct: the DCT of the inverse type with the inverse scaling. */
export function idct(x: Input, options: R2rOptions = {}, shape?: readonly number[]): NdArray {
  const t = checkType(options.type ?? 2);
  return runR2r(x, shape, options.axis, options.n, dctSpec(INVERSE_TYPE[t]), options.norm, orth(options), true);
}

export function dctn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): NdArray {
  return runR2rNd(x, shape, options, dctSpec, false);
}

export function idctn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): NdArray {
  return runR2rNd(x, shape, options, (t) => dctSpec(INVERSE_TYPE[t]), true);
}
