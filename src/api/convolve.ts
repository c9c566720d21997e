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
import { ArgumentError, ButterflyError, UnsupportedError } from '../errors.js';
import {
  cmulInPlace,
  cropWindow,
  directConvolve,
  fftConvolve,
  oaConvolve,
  padInto,
  type Operand,
} from '../backends/cpu/convolve.js';
import { irfftn, rfftn } from './fft.js';
import { checkOptionNames } from './options.js';
import { convolveReal1d } from '../backends/cpu/convolve-real.js';
import { SyncCompileRefused, WASM_SIMD } from '../backends/cpu/wasm-fft.js';
import { planeThreads, runPlaneSteps } from '../backends/cpu/worker-pool.js';
import { fft2Engine, type Fft2Engine } from '../backends/cpu/fft-2d.js';
import { planCpuEngineRfft2 } from '../planner/cpu-fft.js';
import {
  checkMode,
  chooseConvMethod as planChooseConvMethod,
  chooseCpuMethod,
  nextFastCpuLen,
  nextFastLen as planNextFastLen,
  convGeometry,
  planGpuConvolution,
  type ConvGeometry,
  type ConvMode,
} from '../planner/convolve.js';
import { product } from '../backends/cpu/fft-nd.js';
import { onCpuEngine } from '../backends/cpu/engine-scope.js';
import type { GpuContext } from '../backends/webgpu/device.js';
import { gridConvolveGpu, overlapAddGpu, type Crop, type GpuConvOperands } from '../backends/webgpu/convolve.js';
import { checkBackend, fallsBack, gpuFor } from './backend.js';
import { directConvolveGpu } from '../backends/webgpu/convolve-direct.js';

export type { ConvMode } from '../planner/convolve.js';

/**
 * scipy.fft.next_fast_len (for a complex FFT): the smallest 2·3·5·7-smooth integer ≥ target; 0 for 0. `target` must
 * be a non-negative integer.
 */
export function nextFastLen(target: number): number {
  if (!Number.isSafeInteger(target) || target < 0) throw new ArgumentError('target', target, 'a non-negative integer');
  return target === 0 ? 0 : planNextFastLen(target);
}

/**
 * The method `method: 'auto'` picks for convolving shapes a and b (same rank, every length a positive integer) in
 * `mode` on `backend`.
 */
export function chooseConvMethod(
  a: readonly number[],
  b: readonly number[],
  mode: ConvMode = 'full',
  backend: 'cpu' | 'webgpu' = 'cpu',
): 'direct' | 'fft' {
  for (const [shape, name] of [
    [a, 'a'],
    [b, 'b'],
  ] as const) {
    if (!Array.isArray(shape) || shape.length === 0 || !shape.every((n) => Number.isSafeInteger(n) && n > 0))
      throw new ArgumentError(name, shape, 'a non-empty shape of positive integers');
  }
  if (a.length !== b.length)
    throw new ArgumentError(
      'b',
      b,
      `a shape of the same rank as a (${a.length} axes), as scipy.signal.choose_conv_method`,
    );
  checkMode(mode);
  if (backend !== 'cpu' && backend !== 'webgpu') throw new ArgumentError('backend', backend, "'cpu' or 'webgpu'");
  return planChooseConvMethod(a, b, mode, backend);
}
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

const CONVOLVE_OPTIONS: readonly string[] = ['mode', 'method', 'axes', 'backend', 'gpu'];

export interface ConvolveOptions {
  /**
   * 'full' (default), 'same' (in1's shape on every axis, batch axes too: where in1 has 1 and in2 more, only in2's
   * centre element is convolved, as scipy.signal crops it) or 'valid'.
   */
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
  /** scipy's fftconvolve / oaconvolve 'valid' rule: axes where either operand has length 1 are broadcasts. */
  broadcastOnes: boolean;
}

function problemOf(in1: ConvInput, in2: ConvInput, options: ConvolveOptions, broadcastOnes: boolean): Problem {
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
  leadA.forEach((n, i) => {
    const m = leadB[i];
    if (n !== m && n !== 1 && m !== 1)
      throw new ArgumentError(
        'in2.shape',
        b.shape,
        `batch axes that broadcast with in1's [${leadA.join(', ')}] (equal sizes or 1)`,
      );
  });
  // validates shapes and the 'valid' rule early, with scipy's message
  convGeometry(a.shape.slice(nd - k), b.shape.slice(nd - k), mode, broadcastOnes);
  // 'same' is in1's shape on every axis, as scipy crops it: a batch axis where in1 has 1 and in2 more keeps only the
  // centre of the broadcast, so only in2's centre element there is convolved.
  const centre = leadA.map((n, i) => (mode === 'same' && n === 1 && leadB[i]! > 1 ? (leadB[i]! - 1) >> 1 : -1));
  const bb = centre.some((c) => c >= 0) ? pickBatch(b, leadB, centre) : b;
  const leadB2 = leadB.map((m, i) => (centre[i]! >= 0 ? 1 : m));
  const lead = leadA.map((n, i) => Math.max(n, leadB2[i]!));
  return { a, b: bb, k, leadA, leadB: leadB2, lead, mode, complex: a.complex || bb.complex, broadcastOnes };
}

/** x with batch axis i (of its leading axes `lead`) reduced to element pick[i] where pick[i] ≥ 0. */
function pickBatch(x: Prepared, lead: readonly number[], pick: readonly number[]): Prepared {
  const block = x.data.length / product(lead);
  const kept = lead.map((m, i) => (pick[i]! >= 0 ? 1 : m));
  const data = new (x.data.constructor as Float32ArrayConstructor | Float64ArrayConstructor)(block * product(kept));
  for (let j = 0; j < product(kept); j++) {
    // j's multi-index over the kept axes, mapped to x's block index.
    let rest = j;
    let from = 0;
    let stride = 1;
    for (let i = lead.length - 1; i >= 0; i--) {
      const idx = pick[i]! >= 0 ? pick[i]! : rest % kept[i]!;
      rest = Math.floor(rest / kept[i]!);
      from += idx * stride;
      stride *= lead[i]!;
    }
    data.set(x.data.subarray(from * block, (from + 1) * block), j * block);
  }
  return { data, shape: [...kept, ...x.shape.slice(lead.length)], complex: x.complex };
}

/** Convolution with method choice (scipy.signal.convolve). */
export function convolve(in1: F32Input, in2: F32Input, options?: ConvolveOptions): Promise<ConvResult<Float32Array>>;
export function convolve(in1: F64Input, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function convolve(in1: ConvInput, in2: F64Input, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function convolve(in1: ConvInput, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult>;
export async function convolve(in1: ConvInput, in2: ConvInput, options: ConvolveOptions = {}): Promise<ConvResult> {
  checkOptionNames(options, CONVOLVE_OPTIONS, 'convolve');
  return run(in1, in2, options, false);
}

async function run(
  in1: ConvInput,
  in2: ConvInput,
  options: ConvolveOptions,
  broadcastOnes: boolean,
): Promise<ConvResult> {
  const p = problemOf(in1, in2, options, broadcastOnes);
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

/**
 * The 2-D engine (real FFT of rows × n, with a stash for one spectrum) that convolves padded planes in its own
 * memory; null where the engine has no recipe for the size or this thread may not compile its modules.
 */
async function convolutionEngine(rows: number, n: number, f32: boolean): Promise<Fft2Engine | null> {
  if (!WASM_SIMD) return null;
  const recipe = planCpuEngineRfft2(rows, n, f32 ? 'f32' : 'f64', await planeThreads(undefined));
  if (!recipe) return null;
  try {
    return fft2Engine(recipe, true);
  } catch (e) {
    // Also a memory the runtime refuses (ButterflyError): the stash adds a padded matrix, so the path without it.
    if (e instanceof RangeError || e instanceof SyncCompileRefused || e instanceof ButterflyError) return null;
    throw e;
  }
}

/**
 * Real N-D FFT convolution on the CPU engine in the operands' precision: both zero-padded to lane-split lengths
 * (nextFastCpuLen), the engine's rfftn (any axes as rows, see axis-transpose.ts), the spectra multiplied, irfftn,
 * and the mode's window.
 */
async function fftConvolveRealNd(
  p: Problem,
  [sa, sb]: [number[], number[]],
  g: ConvGeometry,
  f32: boolean,
): Promise<ConvResult> {
  const P = g.full.map((n) => nextFastCpuLen(n, f32 ? 'f32' : 'f64'));
  const half = [...P.slice(0, -1), Math.floor(P[P.length - 1]! / 2) + 1];
  const count = product(p.lead);
  const outN = product(g.out);
  const out = new (f32 ? Float32Array : Float64Array)(count * outN);
  const size = product(P);
  const operand = (x: Prepared, i: number, s: number[], into: Float32Array | Float64Array, at: number) => {
    const n = product(s);
    const v = x.data.subarray(i * n, (i + 1) * n);
    padInto(v, s, into, at, P);
  };
  const axes = P.map((_, d) => d + 1);
  const plane = P.length === 2 ? await convolutionEngine(P[0]!, P[1]!, f32) : null;
  if (plane) {
    const [ra, ca] = sa as [number, number];
    const [rb, cb] = sb as [number, number];
    for (let i = 0; i < count; i++) {
      const ia = batchIndex(p.lead, p.leadA, i);
      const ib = batchIndex(p.lead, p.leadB, i);
      const xa = p.a.data.subarray(ia * ra * ca, (ia + 1) * ra * ca);
      const xb = p.b.data.subarray(ib * rb * cb, (ib + 1) * rb * cb);
      const win = g.out as [number, number];
      await plane.convolve(xa, [ra, ca], xb, [rb, cb], g.start as [number, number], win, out, i * outN, runPlaneSteps);
    }
    return { data: out, shape: [...p.lead, ...g.out], complex: false, method: 'fft', backend: 'cpu' };
  }
  for (let i = 0; i < count; i++) {
    // Both operands as one stack of two, so one engine call transforms them.
    const pair = new (f32 ? Float32Array : Float64Array)(2 * size);
    operand(p.a, batchIndex(p.lead, p.leadA, i), sa, pair, 0);
    operand(p.b, batchIndex(p.lead, p.leadB, i), sb, pair, size);
    const spectra = await rfftn(pair, { shape: [2, ...P], axes, backend: 'cpu' });
    const fa = spectra.subarray(0, spectra.length / 2);
    cmulInPlace(fa, spectra.subarray(spectra.length / 2));
    const y = await irfftn(fa, { shape: half, s: P, backend: 'cpu' });
    out.set(cropWindow(y, P, g.start, g.out, 1), i * outN);
  }
  return { data: out, shape: [...p.lead, ...g.out], complex: false, method: 'fft', backend: 'cpu' };
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
export async function fftconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options: Omit<ConvolveOptions, 'method'> = {},
): Promise<ConvResult> {
  checkOptionNames(
    options,
    CONVOLVE_OPTIONS.filter((k) => k !== 'method'),
    'fftconvolve',
  );
  return run(in1, in2, { ...options, method: 'fft' }, true);
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
export async function oaconvolve(
  in1: ConvInput,
  in2: ConvInput,
  options: Omit<ConvolveOptions, 'method'> = {},
): Promise<ConvResult> {
  checkOptionNames(
    options,
    CONVOLVE_OPTIONS.filter((k) => k !== 'method'),
    'oaconvolve',
  );
  return run(in1, in2, { ...options, method: 'oa' }, true);
}

/**
 * Cross-correlation (scipy.signal.correlate): z[k] = Σ_l in1[l + k − (n2 − 1)]·conj(in2[l]) in 'full'
 * mode, i.e. convolve(in1, reverse(conj(in2))) over the convolved axes; modes crop as for convolve.
 */
export function correlate(in1: F32Input, in2: F32Input, options?: ConvolveOptions): Promise<ConvResult<Float32Array>>;
export function correlate(in1: F64Input, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function correlate(in1: ConvInput, in2: F64Input, options?: ConvolveOptions): Promise<ConvResult<Float64Array>>;
export function correlate(in1: ConvInput, in2: ConvInput, options?: ConvolveOptions): Promise<ConvResult>;
export async function correlate(in1: ConvInput, in2: ConvInput, options: ConvolveOptions = {}): Promise<ConvResult> {
  checkOptionNames(options, CONVOLVE_OPTIONS, 'correlate');
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

async function runCpu(p: Problem, method: ConvMethod, f32: boolean): Promise<ConvResult> {
  const nd = p.a.shape.length;
  const sa = p.a.shape.slice(nd - p.k);
  const sb = p.b.shape.slice(nd - p.k);
  const m: 'direct' | 'fft' | 'oa' = method === 'auto' ? chooseCpuMethod(sa, sb) : method;
  const fn = m === 'direct' ? directConvolve : m === 'fft' ? fftConvolve : oaConvolve;
  const count = product(p.lead);
  const g = convGeometry(sa, sb, p.mode, p.broadcastOnes);
  const per = p.complex ? 2 : 1;
  const outN = per * product(g.out);
  // Real N-D FFT convolution on the engine (the 2-D engine's memory, or rfftn / irfftn). Overlap-add too: its N-D
  // blocks run through float64 JavaScript, several times slower than this path (docs/DECISIONS.md), and the result is
  // the same convolution; `method` then says 'fft', what ran.
  if (!p.complex && p.k >= 2 && m !== 'direct') return fftConvolveRealNd(p, [sa, sb], g, f32);
  const out = new (f32 ? Float32Array : Float64Array)(count * outN);
  if (!p.complex && p.k === 1 && m !== 'direct') {
    // Real 1-D: the engine's batched real FFT rows in the operands' precision (convolve-real.ts).
    const slice = (x: Prepared, i: number, n: number): Float32Array | Float64Array => {
      const s = x.data.subarray(i * n, (i + 1) * n);
      return f32 || s instanceof Float64Array ? s : Float64Array.from(s);
    };
    for (let i = 0; i < count; i++) {
      const y = convolveReal1d(
        slice(p.a, batchIndex(p.lead, p.leadA, i), sa[0]!),
        slice(p.b, batchIndex(p.lead, p.leadB, i), sb[0]!),
        p.mode,
        m,
        f32 ? 'f32' : 'f64',
      );
      out.set(y, i * outN);
    }
    return { data: out, shape: [...p.lead, ...g.out], complex: false, method: m, backend: 'cpu' };
  }
  // FFT-based methods plan on the CPU engine, in float32 when both operands are.
  onCpuEngine(f32 ? 'f32' : 'f64', () => {
    for (let i = 0; i < count; i++) {
      const y = fn(
        toOperand(p.a, batchIndex(p.lead, p.leadA, i), sa),
        toOperand(p.b, batchIndex(p.lead, p.leadB, i), sb),
        p.mode,
        p.broadcastOnes,
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
  const g = convGeometry(sa, sb, p.mode, p.broadcastOnes);
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
  const plan = planGpuConvolution(
    method === 'auto' ? planChooseConvMethod(sa, sb, p.mode, 'webgpu') : method,
    [Hx, Wx],
    [Hk, Wk],
    ctx.limits.maxComputeWorkgroupStorageSize / 8,
  );
  const m = plan.method;
  const crop: Crop = { r0, c0, Ho, Wo };
  const ops: GpuConvOperands = { x: complexF32(x), count, Hx, Wx, k: complexF32(kern), kernels, Hk, Wk };
  const y =
    m === 'direct'
      ? await directConvolveGpu(ctx, { H1: Hx, W1: Wx, H2: Hk, W2: Wk, ...crop }, count, kernels, ops.x, ops.k)
      : m === 'fft'
        ? await gridConvolveGpu(ctx, ops, plan.P, plan.Q, crop, 1)
        : await overlapAddGpu(ctx, ops, crop, plan.Lr, plan.Lc);
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
