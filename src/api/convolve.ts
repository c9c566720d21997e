/**
 * Convolution and correlation (scipy.signal semantics): `convolve`, `fftconvolve`, `oaconvolve`,
 * `correlate`, modes 'full' | 'same' | 'valid', N-D on the CPU, 1-D and 2-D on WebGPU, batched,
 * real and complex.
 *
 * Operands: a typed array (1-D real), or `{ data, shape, complex }` with complex data interleaved
 * (re, im). `axes` (default: all) names the convolved axes, which must be the trailing ones; the leading
 * axes are batch axes and broadcast as in scipy (equal sizes, or 1). Results are complex when either
 * operand is, and have Float32Array data when both inputs are Float32Array, else Float64Array.
 *
 * Backends: 'cpu' computes in float64; 'webgpu' in f32 (rank ≤ 2 convolved axes; batch axes of the
 * second operand all 1 or equal to the first's, or the first's all 1); 'auto' (default) runs Float32Array
 * inputs on WebGPU when an adapter exists and the problem is supported there, else on the CPU.
 *
 * Method 'auto' picks direct or FFT by a cost model in complex multiply-add units:
 *   CPU:    direct = Π(na)·Π(nb),           fft = 2·3·P·log2 P + 4·P   (P = Π nextFastLen(na + nb − 1))
 *   WebGPU: direct = Π(out)·Π(min(na, nb)), fft = 16·P·log2 P + 2e5
 * (the GPU's FFT is memory-bound, its multiply-adds nearly free, and each FFT launch chain costs about as
 * much as 2e5 multiply-adds of the direct kernel). Both sets of constants are estimates, not yet fitted
 * to timings. 'oa' (overlap-add) splits the larger operand into
 * blocks and is chosen explicitly (oaconvolve) or on WebGPU when a padded row or column does not fit
 * the workgroup memory.
 */
import { ArgumentError, UnsupportedError } from '../errors.js';
import {
  checkMode,
  chooseCpuMethod,
  convGeometry,
  directConvolve,
  fftConvolve,
  nextFastLen,
  oaConvolve,
  overlapAddBlock,
  type ConvMode,
  type Operand,
} from '../backends/cpu/convolve.js';
import { product } from '../backends/cpu/fft-nd.js';
import { onCpuEngine } from '../backends/cpu/engine-scope.js';
import { createStorageBuffer, readBuffer, type GpuContext } from '../backends/webgpu/device.js';
import { checkBackend, fallsBack, gpuFor } from './backend.js';
import { GridConvolver } from '../backends/webgpu/convolve-grid.js';
import { directConvolveGpu } from '../backends/webgpu/convolve-direct.js';

export type { ConvMode } from '../backends/cpu/convolve.js';
export { nextFastLen } from '../backends/cpu/convolve.js';
export type ConvMethod = 'auto' | 'direct' | 'fft' | 'oa';

export interface ConvOperand {
  data: Float32Array | Float64Array;
  /** Row-major shape (default [length] real, [length/2] complex). */
  shape?: readonly number[];
  /** Interleaved complex data (default false). */
  complex?: boolean;
}

export type ConvInput = ConvOperand | Float32Array | Float64Array;
type F32Input = Float32Array | (ConvOperand & { data: Float32Array });
type F64Input = Float64Array | (ConvOperand & { data: Float64Array });

export interface ConvolveOptions {
  mode?: ConvMode;
  method?: ConvMethod;
  /** Convolved axes (default all); must be the trailing axes; negative values count from the end. */
  axes?: readonly number[];
  backend?: 'auto' | 'webgpu' | 'cpu';
  gpu?: GpuContext;
}

/** `data` is a Float32Array when both inputs are float32, else a Float64Array (the overloads say which). */
export interface ConvResult<T extends Float32Array | Float64Array = Float32Array | Float64Array> {
  data: T;
  shape: number[];
  complex: boolean;
  /** What actually ran. */
  method: 'direct' | 'fft' | 'oa';
  backend: 'cpu' | 'webgpu';
}

interface Prepared {
  data: Float32Array | Float64Array;
  shape: number[];
  complex: boolean;
}

function prepare(x: ConvInput, name: string): Prepared {
  if (x instanceof Float32Array || x instanceof Float64Array) return { data: x, shape: [x.length], complex: false };
  if (!x || typeof x !== 'object' || !(x.data instanceof Float32Array || x.data instanceof Float64Array)) {
    throw new ArgumentError(name, x, 'a Float32Array, a Float64Array or { data, shape, complex }');
  }
  const complex = Boolean(x.complex);
  const per = complex ? 2 : 1;
  if (complex && x.data.length % 2 !== 0)
    throw new ArgumentError(`${name}.data`, x.data, 'an even number of values (interleaved complex)');
  const shape = x.shape ? [...x.shape] : [x.data.length / per];
  if (shape.length === 0 || !shape.every((d) => Number.isSafeInteger(d) && d >= 1)) {
    throw new ArgumentError(`${name}.shape`, x.shape, 'a non-empty array of positive integers');
  }
  if (per * product(shape) !== x.data.length) {
    throw new ArgumentError(
      `${name}.data`,
      x.data,
      `${per * product(shape)} values for ${complex ? 'complex' : 'real'} shape [${shape.join(', ')}]`,
    );
  }
  return { data: x.data, shape, complex };
}

function convAxesCount(nd: number, axes: readonly number[] | undefined): number {
  if (axes === undefined) return nd;
  if (!Array.isArray(axes) || axes.length === 0)
    throw new ArgumentError('axes', axes, 'a non-empty array of axis indices');
  const norm = axes.map((a) => {
    if (!Number.isInteger(a) || a < -nd || a >= nd)
      throw new ArgumentError('axes', axes, `axis indices in [${-nd}, ${nd})`);
    return a < 0 ? a + nd : a;
  });
  const sorted = [...new Set(norm)].sort((x, y) => x - y);
  if (sorted.length !== norm.length) throw new ArgumentError('axes', axes, 'distinct axes');
  if (sorted[0] !== nd - sorted.length || sorted[sorted.length - 1] !== nd - 1) {
    throw new UnsupportedError(
      `axes [${axes.join(', ')}]: this version convolves trailing axes only; move the axes last (transpose) first`,
    );
  }
  return sorted.length;
}

interface Problem {
  a: Prepared;
  b: Prepared;
  k: number;
  leadA: number[];
  leadB: number[];
  lead: number[];
  mode: ConvMode;
  complex: boolean;
}

function problemOf(in1: ConvInput, in2: ConvInput, options: ConvolveOptions): Problem {
  const a = prepare(in1, 'in1');
  const b = prepare(in2, 'in2');
  const mode = checkMode(options.mode);
  if (a.shape.length !== b.shape.length) {
    throw new ArgumentError(
      'in2.shape',
      b.shape,
      `the same number of dimensions as in1 (${a.shape.length}), as scipy requires`,
    );
  }
  const nd = a.shape.length;
  const k = convAxesCount(nd, options.axes);
  const leadA = a.shape.slice(0, nd - k);
  const leadB = b.shape.slice(0, nd - k);
  const lead = leadA.map((n, i) => {
    const m = leadB[i];
    if (n !== m && n !== 1 && m !== 1)
      throw new ArgumentError(
        'in2.shape',
        b.shape,
        `batch axes that broadcast with in1's [${leadA.join(', ')}] (equal sizes or 1)`,
      );
    return Math.max(n, m);
  });
  // validates shapes and the 'valid' rule early, with scipy's message
  convGeometry(a.shape.slice(nd - k), b.shape.slice(nd - k), mode);
  return { a, b, k, leadA, leadB, lead, mode, complex: a.complex || b.complex };
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

/** Convolution with method choice (scipy.signal.convolve). */
export function convolve(in1: F32Input, in2: F32Input, options?: ConvolveOptions): Promise<ConvResult<Float32Array>>;
export function convolve(in1: F64Input, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function convolve(in1: ConvInput, in2: F64Input, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function convolve(in1: ConvInput, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult>;
export async function convolve(in1: ConvInput, in2: ConvInput, options: ConvolveOptions = {}): Promise<ConvResult> {
  const p = problemOf(in1, in2, options);
  const method = options.method ?? 'auto';
  if (!['auto', 'direct', 'fft', 'oa'].includes(method))
    throw new ArgumentError('method', method, "'auto', 'direct', 'fft' or 'oa'");
  const backend = checkBackend(options.backend ?? 'auto');
  const f32 = p.a.data instanceof Float32Array && p.b.data instanceof Float32Array;
  if (backend === 'webgpu' || (backend === 'auto' && f32)) {
    const why = gpuUnsupported(p);
    if (why) {
      if (backend === 'webgpu') throw new UnsupportedError(`WebGPU convolution: ${why}`);
    } else {
      // The one backend choice (api/backend.ts): 'auto' skips software adapters.
      const ctx = await gpuFor(backend, options.gpu);
      if (ctx) {
        try {
          return await runGpu(ctx, p, method);
        } catch (e) {
          if (!fallsBack(e, backend)) throw e;
        }
      }
    }
  }
  return runCpu(p, method, f32);
}

/** FFT convolution (scipy.signal.fftconvolve). */
export function fftconvolve(
  in1: F32Input,
  in2: F32Input,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float32Array>>;
export function fftconvolve(
  in1: F64Input,
  in2: ConvInput,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float64Array>>;
export function fftconvolve(
  in1: ConvInput,
  in2: F64Input,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float64Array>>;
export function fftconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult>;
export function fftconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options: Omit<ConvolveOptions, 'method'> = {},
): Promise<ConvResult> {
  return convolve(in1, in2, { ...options, method: 'fft' });
}

/** Overlap-add convolution (scipy.signal.oaconvolve): same result as fftconvolve, faster for long × short. */
export function oaconvolve(
  in1: F32Input,
  in2: F32Input,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float32Array>>;
export function oaconvolve(
  in1: F64Input,
  in2: ConvInput,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float64Array>>;
export function oaconvolve(
  in1: ConvInput,
  in2: F64Input,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult<Float64Array>>;
export function oaconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options?: Omit<ConvolveOptions, 'method'>,
): Promise<ConvResult>;
export function oaconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options: Omit<ConvolveOptions, 'method'> = {},
): Promise<ConvResult> {
  return convolve(in1, in2, { ...options, method: 'oa' });
}

/**
 * Cross-correlation (scipy.signal.correlate): z[k] = Σ_l in1[l + k − (n2 − 1)]·conj(in2[l]) in 'full'
 * mode, i.e. convolve(in1, reverse(conj(in2))) over the convolved axes; modes crop as for convolve.
 */
export function correlate(in1: F32Input, in2: F32Input, options?: ConvolveOptions): Promise<ConvResult<Float32Array>>;
export function correlate(in1: F64Input, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function correlate(in1: ConvInput, in2: F64Input, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function correlate(in1: ConvInput, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult>;
export function correlate(in1: ConvInput, in2: ConvInput, options: ConvolveOptions = {}): Promise<ConvResult> {
  const b = prepare(in2, 'in2');
  const nd = b.shape.length;
  const k = convAxesCount(nd, options.axes);
  return convolve(in1, reverseConj(b, k), options);
}

function reverseConj(b: Prepared, k: number): Prepared {
  const nd = b.shape.length;
  const per = b.complex ? 2 : 1;
  const inner = product(b.shape.slice(nd - k));
  const outer = product(b.shape.slice(0, nd - k));
  const convShape = b.shape.slice(nd - k);
  const strides = convShape.map((_, i) => product(convShape.slice(i + 1)));
  const out = new (b.data instanceof Float32Array ? Float32Array : Float64Array)(b.data.length);
  for (let o = 0; o < outer; o++) {
    for (let e = 0; e < inner; e++) {
      // reversed index: each coordinate i → n − 1 − i
      let rem = e;
      let r = 0;
      for (let d = 0; d < k; d++) {
        const c = Math.floor(rem / strides[d]);
        rem -= c * strides[d];
        r += (convShape[d] - 1 - c) * strides[d];
      }
      const src = (o * inner + e) * per;
      const dst = (o * inner + r) * per;
      out[dst] = b.data[src];
      if (per === 2) out[dst + 1] = -b.data[src + 1];
    }
  }
  return { data: out, shape: b.shape, complex: b.complex };
}

// ---------------------------------------------------------------- CPU

function toOperand(x: Prepared, offset: number, shape: number[]): Operand {
  const per = x.complex ? 2 : 1;
  const n = per * product(shape);
  const slice = x.data.subarray(offset * n, (offset + 1) * n);
  return { data: slice instanceof Float64Array ? slice : Float64Array.from(slice), shape, complex: x.complex };
}

function batchIndex(lead: number[], own: number[], flat: number): number {
  // maps a flat index over the broadcast batch shape to the flat index of an operand (size-1 axes repeat)
  let idx = 0;
  let rem = flat;
  let stride = 1;
  for (let d = lead.length - 1; d >= 0; d--) {
    const c = rem % lead[d];
    rem = (rem - c) / lead[d];
    idx += (own[d] === 1 ? 0 : c) * stride;
    stride *= own[d];
  }
  return idx;
}

function runCpu(p: Problem, method: ConvMethod, f32: boolean): ConvResult {
  const nd = p.a.shape.length;
  const sa = p.a.shape.slice(nd - p.k);
  const sb = p.b.shape.slice(nd - p.k);
  const m: 'direct' | 'fft' | 'oa' = method === 'auto' ? chooseCpuMethod(sa, sb) : method;
  const fn = m === 'direct' ? directConvolve : m === 'fft' ? fftConvolve : oaConvolve;
  const count = product(p.lead);
  const g = convGeometry(sa, sb, p.mode);
  const per = p.complex ? 2 : 1;
  const outN = per * product(g.out);
  const out = new (f32 ? Float32Array : Float64Array)(count * outN);
  // FFT-based methods plan on the CPU engine, in float32 when both operands are.
  onCpuEngine(f32 ? 'f32' : 'f64', () => {
    for (let i = 0; i < count; i++) {
      const y = fn(
        toOperand(p.a, batchIndex(p.lead, p.leadA, i), sa),
        toOperand(p.b, batchIndex(p.lead, p.leadB, i), sb),
        p.mode,
      );
      out.set(y.data, i * outN);
    }
  });
  return { data: out, shape: [...p.lead, ...g.out], complex: p.complex, method: m, backend: 'cpu' };
}

// ---------------------------------------------------------------- WebGPU

function gpuUnsupported(p: Problem): string | null {
  if (p.k > 2) return `${p.k} convolved axes (WebGPU handles 1 or 2)`;
  const ca = product(p.leadA);
  const cb = product(p.leadB);
  if (cb !== 1 && ca !== 1 && p.leadA.some((n, i) => n !== p.leadB[i]))
    return 'batch axes must be equal, or all 1 in one operand';
  return null;
}

function complexF32(x: Prepared): Float32Array {
  if (x.complex) return x.data instanceof Float32Array ? x.data : Float32Array.from(x.data);
  const out = new Float32Array(2 * x.data.length);
  for (let i = 0; i < x.data.length; i++) out[2 * i] = x.data[i];
  return out;
}

function as2d(shape: number[], k: number): [number, number] {
  const s = shape.slice(shape.length - k);
  return k === 1 ? [1, s[0]] : [s[0], s[1]];
}

async function runGpu(ctx: GpuContext, p: Problem, method: ConvMethod): Promise<ConvResult> {
  const nd = p.a.shape.length;
  const sa = p.a.shape.slice(nd - p.k);
  const sb = p.b.shape.slice(nd - p.k);
  const g = convGeometry(sa, sb, p.mode);
  const [r0, c0] = p.k === 1 ? [0, g.start[0]] : [g.start[0], g.start[1]];
  const [Ho, Wo] = p.k === 1 ? [1, g.out[0]] : [g.out[0], g.out[1]];
  // x: the batched operand (its block goes through the grid), kern: the other (spectra). Convolution
  // commutes and the crop window is a window of the full convolution, so swapping changes nothing.
  const ca = product(p.leadA);
  const cb = product(p.leadB);
  const swap = ca === 1 && cb > 1;
  const [x, kern] = swap ? [p.b, p.a] : [p.a, p.b];
  const count = Math.max(ca, cb);
  const kernels = swap ? ca : cb;
  const [Hx, Wx] = as2d(x.shape, p.k);
  const [Hk, Wk] = as2d(kern.shape, p.k);
  let m: 'direct' | 'fft' | 'oa' = method === 'auto' ? chooseConvMethod(sa, sb, p.mode, 'webgpu') : method;
  const smemElems = ctx.limits.maxComputeWorkgroupStorageSize / 8;
  const P = nextFastLen(Hx + Hk - 1);
  const Q = nextFastLen(Wx + Wk - 1);
  if (m === 'fft' && (P > smemElems || Q > smemElems)) m = 'oa';
  let y: Float32Array;
  if (m === 'direct') {
    y = await directConvolveGpu(
      ctx,
      { H1: Hx, W1: Wx, H2: Hk, W2: Wk, r0, c0, Ho, Wo },
      count,
      kernels,
      complexF32(x),
      complexF32(kern),
    );
  } else if (m === 'fft') {
    y = await gridConvolve(
      ctx,
      complexF32(x),
      count,
      Hx,
      Wx,
      complexF32(kern),
      kernels,
      Hk,
      Wk,
      P,
      Q,
      { r0, c0, Ho, Wo },
      1,
    );
  } else {
    y = await overlapAddGpu(
      ctx,
      complexF32(x),
      count,
      Hx,
      Wx,
      complexF32(kern),
      kernels,
      Hk,
      Wk,
      { r0, c0, Ho, Wo },
      smemElems,
    );
  }
  const outShape = [...p.lead, ...g.out];
  const n = product(outShape);
  const f64 = !(p.a.data instanceof Float32Array && p.b.data instanceof Float32Array);
  let data: Float32Array | Float64Array;
  if (p.complex) data = f64 ? Float64Array.from(y) : y;
  else {
    data = new (f64 ? Float64Array : Float32Array)(n);
    for (let i = 0; i < n; i++) data[i] = y[2 * i];
  }
  return { data, shape: outShape, complex: p.complex, method: m, backend: 'webgpu' };
}

interface Crop {
  r0: number;
  c0: number;
  Ho: number;
  Wo: number;
}

/**
 * Batched FFT convolution on a P×Q grid: spectra of the kernels (a forward-only grid plan), then one
 * grid convolution whose slice s uses spectrum ⌊s / comps⌋ mod kernels. All on the device.
 */
async function gridConvolve(
  ctx: GpuContext,
  x: Float32Array,
  count: number,
  Hx: number,
  Wx: number,
  k: Float32Array,
  kernels: number,
  Hk: number,
  Wk: number,
  P: number,
  Q: number,
  crop: Crop,
  comps: number,
): Promise<Float32Array> {
  const spec = await GridConvolver.create(
    ctx,
    { P, Q, inRows: Hk, inCols: Wk, outRow0: 0, outCol0: 0, outRows: P, outCols: Q, inverse: false },
    kernels,
  );
  let conv: GridConvolver;
  try {
    conv = await GridConvolver.create(
      ctx,
      {
        P,
        Q,
        inRows: Hx,
        inCols: Wx,
        outRow0: crop.r0,
        outCol0: crop.c0,
        outRows: crop.Ho,
        outCols: crop.Wo,
        inverse: true,
      },
      count,
      { comps, layers: kernels },
    );
  } catch (e) {
    spec.destroy(); // 'auto' falls back to the CPU after this error: release what was made
    throw e;
  }
  const n = count * crop.Ho * crop.Wo;
  const bufs: GPUBuffer[] = [];
  try {
    const kb = createStorageBuffer(ctx, k, 'conv kernel');
    bufs.push(kb);
    const sb = createStorageBuffer(ctx, kernels * P * Q * 8, 'conv spectra');
    bufs.push(sb);
    const xb = createStorageBuffer(ctx, x, 'conv x');
    bufs.push(xb);
    const yb = createStorageBuffer(ctx, new Float32Array(2 * n).fill(NaN), 'conv y');
    bufs.push(yb);
    await ctx.checked('fftconvolve', () => {
      const enc = ctx.device.createCommandEncoder();
      spec.encode(enc, kb, sb);
      conv.encode(enc, xb, yb, sb);
      ctx.device.queue.submit([enc.finish()]);
    });
    return new Float32Array(await readBuffer(ctx, yb, 0, 8 * n));
  } finally {
    for (const b of bufs) b.destroy();
    spec.destroy();
    conv.destroy();
  }
}

/**
 * Overlap-add on WebGPU: x's slices are cut into Lr×Lc blocks on the host, every block of every slice is
 * one slice of a batched grid convolution (full mode, grid P×Q fitting the workgroup memory), and the
 * block results are added back at their offsets on the host before the mode's crop.
 */
async function overlapAddGpu(
  ctx: GpuContext,
  x: Float32Array,
  count: number,
  Hx: number,
  Wx: number,
  k: Float32Array,
  kernels: number,
  Hk: number,
  Wk: number,
  crop: Crop,
  smemElems: number,
): Promise<Float32Array> {
  const fitBlock = (n: number, nk: number) => {
    let L = overlapAddBlock(n, nk);
    while (L > 1 && nextFastLen(L + nk - 1) > smemElems) L = Math.max(1, Math.floor(L / 2));
    if (nextFastLen(L + nk - 1) > smemElems)
      throw new UnsupportedError(
        `overlap-add: a kernel of length ${nk} does not fit the workgroup memory (${smemElems} complex values)`,
      );
    return L;
  };
  const Lr = fitBlock(Hx, Hk);
  const Lc = fitBlock(Wx, Wk);
  const br = Math.ceil(Hx / Lr);
  const bc = Math.ceil(Wx / Lc);
  const nb = br * bc;
  const blocks = new Float32Array(2 * count * nb * Lr * Lc);
  for (let s = 0; s < count; s++) {
    for (let bi = 0; bi < br; bi++) {
      for (let bj = 0; bj < bc; bj++) {
        const base = (s * nb + bi * bc + bj) * Lr * Lc;
        for (let r = 0; r < Lr && bi * Lr + r < Hx; r++) {
          const src = (s * Hx + bi * Lr + r) * Wx + bj * Lc;
          const len = Math.min(Lc, Wx - bj * Lc);
          blocks.set(x.subarray(2 * src, 2 * (src + len)), 2 * (base + r * Lc));
        }
      }
    }
  }
  const Fr = Lr + Hk - 1;
  const Fc = Lc + Wk - 1;
  const part = await gridConvolve(
    ctx,
    blocks,
    count * nb,
    Lr,
    Lc,
    k,
    kernels,
    Hk,
    Wk,
    nextFastLen(Fr),
    nextFastLen(Fc),
    { r0: 0, c0: 0, Ho: Fr, Wo: Fc },
    nb,
  );
  const FH = Hx + Hk - 1;
  const FW = Wx + Wk - 1;
  const out = new Float32Array(2 * count * crop.Ho * crop.Wo);
  const full = new Float64Array(2 * FH * FW);
  for (let s = 0; s < count; s++) {
    full.fill(0);
    for (let bi = 0; bi < br; bi++) {
      for (let bj = 0; bj < bc; bj++) {
        const base = (s * nb + bi * bc + bj) * Fr * Fc;
        for (let r = 0; r < Fr && bi * Lr + r < FH; r++) {
          const dst = (bi * Lr + r) * FW + bj * Lc;
          const len = Math.min(Fc, FW - bj * Lc);
          for (let c = 0; c < len; c++) {
            full[2 * (dst + c)] += part[2 * (base + r * Fc + c)];
            full[2 * (dst + c) + 1] += part[2 * (base + r * Fc + c) + 1];
          }
        }
      }
    }
    for (let r = 0; r < crop.Ho; r++) {
      for (let c = 0; c < crop.Wo; c++) {
        const src = (crop.r0 + r) * FW + crop.c0 + c;
        const dst = (s * crop.Ho + r) * crop.Wo + c;
        out[2 * dst] = full[2 * src];
        out[2 * dst + 1] = full[2 * src + 1];
      }
    }
  }
  return out;
}
