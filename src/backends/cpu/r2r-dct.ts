/**
 * DCT types 1–4 in float64 with scipy.fft's definitions and `norm`/`orthogonalize` semantics, each a
 * thin adapter over the real/complex FFT plus O(N) pre/post steps (pocketfft's structure):
 * - DCT-I: even extension of length 2(N−1), rfft, real part.
 * - DCT-II: Makhoul (SEEDS.md, corrected): v = evens then odds reversed, rfft_N, y_k = 2·Re(e^{−iπk/2N}·V_k).
 * - DCT-III: the inverse of that path: V_k = e^{+iπk/2N}(x_k − i·x_{N−k}), unnormalised irfft_N, unshuffle.
 * - DCT-IV: even N via one complex FFT of length N/2 (pairs x_{2p} + i·x_{N−1−2p}, pre/post twiddles);
 *   odd N via one real FFT of length N between a signed permutation and a fold (core/dct4-odd-same-length.ts).
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
 * and the N-D variants. Kernels take a block of contiguous lines, so each block costs one batched FFT
 * call (on the CPU engine, one WebAssembly call per chunk) instead of one per line.
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
import { applyGather } from '../../core/gather-map.js';
import { dct4OddGathers } from '../../core/dct4-odd-same-length.js';

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
  /** Array type of the result: Float64Array (default), or Float32Array written straight from the last axis. */
  output?: R2rOutput;
}

/**
 * Unnormalised 1-D kernel over `count` contiguous lines: reads src[0 … count·N) (may scribble on it),
 * writes dst[0 … count·N).
 */
export type R2rKernel = (src: Float64Array, dst: Float64Array, count: number) => void;

/** What the shared driver needs to know about one transform (a type and direction of DCT/DST/DHT). */
export interface R2rSpec {
  /** Name for error messages, e.g. 'DCT type 1'. */
  name: string;
  minN: number;
  /** 'backward' inverse scale is 1/denom(N); ortho uses 1/√denom both ways. */
  denom: (n: number) => number;
  kernel: (n: number) => R2rKernel;
  /** orthogonalize pre/post scaling in place (optional). */
  pre?: (buf: Float64Array, n: number) => void;
  post?: (buf: Float64Array, n: number) => void;
}

export function checkType(type: unknown): R2rType {
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4)
    throw new ArgumentError('type', type, 'a transform type 1, 2, 3 or 4');
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

/** A result whose array type was asked for (runR2r's `output`). */
export interface R2rResult {
  data: Float64Array | Float32Array;
  shape: number[];
}
export type R2rOutput = 'float32' | 'float64';
export type DataOf<O extends R2rOutput> = O extends 'float32' ? Float32Array : Float64Array;

/**
 * Shared driver: apply `spec` along one axis of x (row-major `shape`, default 1-D), with numpy-style
 * crop/zero-pad to n, overall `norm` scale and optional orthogonalize steps.
 */
export function runR2r<O extends R2rOutput = 'float64'>(
  x: Input,
  shape: readonly number[] | undefined,
  axisArg: number | undefined,
  nArg: number | undefined,
  spec: R2rSpec,
  norm: Norm | undefined,
  orthogonalize: boolean,
  inverse: boolean,
  output: O = 'float64' as O,
): { data: DataOf<O>; shape: number[] } {
  const sh = shape ? [...shape] : [x.length];
  if (sh.length === 0 || sh.some((d) => !Number.isInteger(d) || d < 0))
    throw new ArgumentError('shape', shape, 'a non-empty array of non-negative integer dimensions');
  if (product(sh) !== x.length)
    throw new ArgumentError('x', x.length, `${product(sh)} values for shape [${sh.join(', ')}]`);
  const axis = normalizeAxis(axisArg ?? -1, sh.length);
  const old = sh[axis]!;
  const n = nArg ?? old;
  if (!Number.isInteger(n) || n < spec.minN)
    throw new ArgumentError('n', n, `an integer ≥ ${spec.minN} for ${spec.name}`);
  const scale = overallScale(norm, spec.denom(n), inverse);
  const outShape = [...sh];
  outShape[axis] = n;
  const outer = product(sh.slice(0, axis)),
    inner = product(sh.slice(axis + 1));
  const out = output === 'float32' ? new Float32Array(outer * n * inner) : new Float64Array(outer * n * inner);
  const keep = Math.min(n, old);
  const xa = x instanceof Float64Array || x instanceof Float32Array ? x : Float64Array.from(x);
  const kernel = spec.kernel(n);
  const lines = outer * inner;
  // Blocks of lines: consecutive lines when they are contiguous (inner = 1), else consecutive columns of
  // one outer index, gathered row by row so that reads stay sequential.
  const perBlock = Math.max(1, Math.min(inner === 1 ? lines : inner, Math.floor(LINE_BLOCK / n)));
  const src = new Float64Array(perBlock * n),
    dst = new Float64Array(perBlock * n);
  for (let l0 = 0; l0 < lines; ) {
    const o = Math.floor(l0 / inner),
      i0 = l0 - o * inner;
    const count = Math.min(perBlock, inner === 1 ? lines - l0 : inner - i0);
    if (inner === 1 && keep === n && old === n) src.set(xa.subarray(l0 * n, (l0 + count) * n));
    else if (inner === 1) {
      for (let q = 0; q < count; q++) {
        src.set(xa.subarray((l0 + q) * old, (l0 + q) * old + keep), q * n);
        src.fill(0, q * n + keep, (q + 1) * n);
      }
    } else {
      const ib = o * old * inner + i0;
      for (let e = 0; e < keep; e++) for (let q = 0, p = ib + e * inner; q < count; q++, p++) src[q * n + e] = xa[p]!;
      if (keep < n) for (let q = 0; q < count; q++) src.fill(0, q * n + keep, (q + 1) * n);
    }
    if (orthogonalize && spec.pre) for (let q = 0; q < count; q++) spec.pre(src.subarray(q * n, (q + 1) * n), n);
    kernel(src, dst, count);
    if (orthogonalize && spec.post) for (let q = 0; q < count; q++) spec.post(dst.subarray(q * n, (q + 1) * n), n);
    if (inner === 1) {
      if (scale === 1) out.set(dst.subarray(0, count * n), l0 * n);
      else for (let e = 0, ob = l0 * n; e < count * n; e++) out[ob + e] = scale * dst[e]!;
    } else {
      const ob = o * n * inner + i0;
      for (let e = 0; e < n; e++)
        for (let q = 0, p = ob + e * inner; q < count; q++, p++) out[p] = scale * dst[q * n + e]!;
    }
    l0 += count;
  }
  return { data: out as DataOf<O>, shape: outShape };
}

/** N-D driver: runR2r along each axis in turn (last of `axes` first, as scipy). */
export function runR2rNd(
  x: Input,
  shape: readonly number[],
  options: R2rNdOptions,
  specFor: (type: R2rType) => R2rSpec,
  inverse: boolean,
): R2rResult {
  const nd = shape.length;
  if (!Array.isArray(shape) || nd === 0) throw new ArgumentError('shape', shape, 'a non-empty array of dimensions');
  let axes: number[];
  if (options.axes !== undefined) axes = options.axes.map((a) => normalizeAxis(a, nd, 'axes'));
  else if (options.s !== undefined) axes = options.s.map((_, i) => nd - options.s!.length + i);
  else axes = shape.map((_, i) => i);
  if (options.s !== undefined && options.s.length !== axes.length)
    throw new ArgumentError('s', options.s, `${axes.length} lengths, one per axis`);
  const spec = specFor(checkType(options.type ?? 2));
  const orth = options.orthogonalize ?? options.norm === 'ortho';
  // Axes before the last one keep float64; the last writes the requested type.
  let cur: R2rResult = {
    data: x instanceof Float64Array || x instanceof Float32Array ? x : Float64Array.from(x),
    shape: [...shape],
  };
  for (let i = axes.length - 1; i >= 0; i--) {
    const s = options.s?.[i];
    cur = runR2r(
      cur.data,
      cur.shape,
      axes[i],
      s === undefined || s === -1 ? undefined : s,
      spec,
      options.norm,
      orth,
      inverse,
      i === 0 ? (options.output ?? 'float64') : 'float64',
    );
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

/** Scratch that grows to the largest block a kernel has seen. */
function scratch(): (len: number) => Float64Array {
  let buf = new Float64Array(0);
  return (len) => (buf.length >= len ? buf : (buf = new Float64Array(len)));
}

const kernelCache = new Map<string, R2rKernel>();
/** Kernels are cached per engine scope: the FFT plans they hold belong to it. */
export function cachedKernel(key: string, make: () => R2rKernel): R2rKernel {
  const scoped = `${cpuFftScopeKey()}/${key}`;
  let k = kernelCache.get(scoped);
  if (!k) {
    k = make();
    kernelCache.set(scoped, k);
  }
  return k;
}

export function dct1Kernel(n: number): R2rKernel {
  return cachedKernel(`dct1/${n}`, () => {
    const m = 2 * (n - 1);
    const plan = planCpuRfft(m);
    const nc = plan.nComplex;
    const ext = scratch(),
      spec = scratch();
    return (src, dst, count) => {
      const e = ext(count * m),
        y = spec(2 * nc * count);
      for (let q = 0; q < count; q++) {
        // Even extension: x_0 … x_{N−1}, x_{N−2} … x_1.
        const s = q * n,
          b = q * m;
        for (let i = 0; i < n; i++) e[b + i] = src[s + i]!;
        for (let i = 1; i < n - 1; i++) e[b + m - i] = src[s + i]!;
      }
      plan.forward(e, y, { batch: count });
      for (let q = 0; q < count; q++) for (let k = 0; k < n; k++) dst[q * n + k] = y[2 * (q * nc + k)]!;
    };
  });
}

/**
 * DCT-II: Makhoul's reorder of every line, one batched real FFT, then y_k = 2·Re(e^{−iπk/2N}·V_k); on
 * the CPU engine, for lengths it fuses, all three steps in one WebAssembly module.
 */
export function dct2Kernel(n: number): R2rKernel {
  return cachedKernel(`dct2/${n}`, () => {
    const engine = cpuEnginePrecision();
    const fusedRecipe = engine ? planCpuEngineDct2(n, engine) : null;
    const fused = fusedRecipe ? tryFusedRealFft(fusedRecipe) : null;
    if (fused) return (src, dst, count) => fused.forwardDct2(src, dst, count);
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const nc = plan.nComplex;
    const vs = scratch(),
      zs = scratch();
    return (src, dst, count) => {
      const v = vs(count * n),
        z = zs(2 * nc * count);
      for (let q = 0; q < count; q++) {
        // Evens ascending, then odds descending from the end.
        const s = q * n;
        for (let k = 0; 2 * k < n; k++) v[s + k] = src[s + 2 * k]!;
        for (let k = 0; 2 * k + 1 < n; k++) v[s + n - 1 - k] = src[s + 2 * k + 1]!;
      }
      plan.forward(v, z, { batch: count });
      for (let q = 0; q < count; q++) {
        const zb = 2 * nc * q;
        const d = q * n;
        for (let k = 0; k < nc; k++)
          dst[d + k] = 2 * (tw[2 * k]! * z[zb + 2 * k]! - tw[2 * k + 1]! * z[zb + 2 * k + 1]!);
        // V_k = conj V_{N−k} for k ≥ nc.
        for (let k = nc; k < n; k++)
          dst[d + k] = 2 * (tw[2 * k]! * z[zb + 2 * (n - k)]! + tw[2 * k + 1]! * z[zb + 2 * (n - k) + 1]!);
      }
    };
  });
}

export function dct3Kernel(n: number): R2rKernel {
  return cachedKernel(`dct3/${n}`, () => {
    const engine = cpuEnginePrecision();
    // The fused DCT-III exists for even lengths only (the half-length path).
    const fusedRecipe = engine ? planCpuEngineDct2(n, engine) : null;
    const fused = fusedRecipe?.realPost ? tryFusedRealFft(fusedRecipe) : null;
    if (fused) return (src, dst, count) => fused.inverseDct2(src, dst, count);
    const plan = planCpuRfft(n);
    const tw = quarterTwiddles(n);
    const nc = plan.nComplex;
    const zs = scratch(),
      vs = scratch();
    return (src, dst, count) => {
      const z = zs(2 * nc * count),
        v = vs(count * n);
      for (let q = 0; q < count; q++) {
        // V_k = e^{+iπk/2N}(x_k − i·x_{N−k}), x_N = 0; Hermitian, so only k ≤ N/2 is formed.
        const s = q * n,
          zb = 2 * nc * q;
        for (let k = 0; k < nc; k++) {
          const a = src[s + k]!,
            b = k === 0 ? 0 : src[s + n - k]!;
          const c = tw[2 * k]!,
            si = -tw[2 * k + 1]!; // conj of e^{−iπk/2N}
          // (c + i·si)(a − i·b)
          z[zb + 2 * k] = c * a + si * b;
          z[zb + 2 * k + 1] = si * a - c * b;
        }
      }
      // Unnormalised irfft ('forward' leaves the inverse unscaled).
      plan.inverse(z, v, { batch: count, norm: 'forward' });
      for (let q = 0; q < count; q++) {
        const s = q * n;
        for (let k = 0; 2 * k < n; k++) dst[s + 2 * k] = v[s + k]!;
        for (let k = 0; 2 * k + 1 < n; k++) dst[s + 2 * k + 1] = v[s + n - 1 - k]!;
      }
    };
  });
}

export function dct4Kernel(n: number): R2rKernel {
  return cachedKernel(`dct4/${n}`, () => {
    if (n % 2 === 0) {
      const h = n / 2;
      const plan = planCpuFft(h);
      const pre = new Float64Array(2 * h),
        post = new Float64Array(2 * h);
      for (let p = 0; p < h; p++) {
        const [c, s] = unitRoot(-p, 2 * n); // e^{−iπp/N}
        pre[2 * p] = c;
        pre[2 * p + 1] = s;
        const [c2, s2] = unitRoot(-(4 * p + 1), 8 * n); // e^{−iπ(4q+1)/(4N)}
        post[2 * p] = c2;
        post[2 * p + 1] = s2;
      }
      const ws = scratch(),
        ys = scratch();
      return (src, dst, count) => {
        const w = ws(count * n),
          y = ys(count * n);
        for (let q = 0; q < count; q++) {
          // Pairs x_{2p} + i·x_{N−1−2p}, times e^{−iπp/N}.
          const s = q * n;
          for (let p = 0; p < h; p++) {
            const a = src[s + 2 * p]!,
              b = src[s + n - 1 - 2 * p]!;
            const c = pre[2 * p]!,
              si = pre[2 * p + 1]!;
            w[s + 2 * p] = a * c - b * si;
            w[s + 2 * p + 1] = a * si + b * c;
          }
        }
        plan.execute(w, y, { batch: count });
        for (let q = 0; q < count; q++) {
          const s = q * n;
          for (let p = 0; p < h; p++) {
            const c = post[2 * p]!,
              si = post[2 * p + 1]!;
            const wr = y[s + 2 * p]!,
              wi = y[s + 2 * p + 1]!;
            dst[s + 2 * p] = 2 * (wr * c - wi * si);
            dst[s + n - 1 - 2 * p] = -2 * (wr * si + wi * c);
          }
        }
      };
    }
    // Odd N: one real FFT of N between two gathers (core/dct4-odd-same-length.ts); on the CPU engine, where it
    // fuses N, in its module.
    const engine = cpuEnginePrecision();
    const fusedRecipe = engine ? planCpuEngineDct2(n, engine) : null;
    const fused = fusedRecipe ? tryFusedRealFft(fusedRecipe) : null;
    if (fused) return (src, dst, count) => fused.forwardDct4(src, dst, count);
    const plan = planCpuRfft(n);
    const nc = plan.nComplex;
    const { pre, post } = dct4OddGathers(n);
    const cs = scratch(),
      zs = scratch();
    return (src, dst, count) => {
      const c = cs(count * n),
        z = zs(2 * nc * count);
      applyGather(pre, src, 0, n, c, 0, n, count);
      plan.forward(c, z, { batch: count });
      applyGather(post, z, 0, 2 * nc, dst, 0, n, count);
    };
  });
}

const SQ2 = Math.SQRT2;

/** Spec for the forward DCT of a type (unnormalised kernel + scipy's orthogonalize steps). */
export function dctSpec(type: R2rType): R2rSpec {
  switch (type) {
    case 1:
      return {
        name: 'DCT type 1',
        minN: 2,
        denom: (n) => 2 * (n - 1),
        kernel: dct1Kernel,
        pre: (b, n) => {
          b[0]! *= SQ2;
          b[n - 1]! *= SQ2;
        },
        post: (b, n) => {
          b[0]! /= SQ2;
          b[n - 1]! /= SQ2;
        },
      };
    case 2:
      return {
        name: 'DCT type 2',
        minN: 1,
        denom: (n) => 2 * n,
        kernel: dct2Kernel,
        post: (b) => {
          b[0]! /= SQ2;
        },
      };
    case 3:
      return {
        name: 'DCT type 3',
        minN: 1,
        denom: (n) => 2 * n,
        kernel: dct3Kernel,
        pre: (b) => {
          b[0]! *= SQ2;
        },
      };
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

export function dctn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): R2rResult {
  return runR2rNd(x, shape, options, dctSpec, false);
}

export function idctn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): R2rResult {
  return runR2rNd(x, shape, options, (t) => dctSpec(INVERSE_TYPE[t]), true);
}
