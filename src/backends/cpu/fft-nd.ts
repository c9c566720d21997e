/**
 * numpy-shaped FFT API on the CPU backend: fft/ifft/rfft/irfft (1-D along any axis), fft2/ifft2/
 * rfft2/irfft2 and fftn/ifftn/rfftn/irfftn, with numpy's `n`/`s` (crop or zero-pad), `axis`/`axes`
 * (negative allowed) and `norm`.
 *
 * The N-D driver is separate from the 1-D algorithms (as in pocketfft): for each axis it views the
 * row-major array as `outer × L × inner` and runs the 1-D plan batched over `inner` lines with element
 * stride `inner` (or one contiguous batch of `outer` lines when the axis is the last one).
 *
 * Arrays: complex data is interleaved (re, im) float64 with 2·Π(shape) numbers; real data has Π(shape).
 * Inputs may be Float32Array; outputs are always new Float64Arrays.
 *
 * Differences from numpy: arrays are flat typed arrays plus an explicit `shape`; repeated axes are
 * applied repeatedly, as numpy does for c2c; there is no `out=` argument.
 */
import { ArgumentError } from '../../errors.js';
import { checkLength, type Norm } from './fft-mixed-radix.js';
import { planCpuFft } from './fft-plan.js';
import { planCpuRfft } from './fft-real.js';
import { cpuEnginePrecision } from './engine-scope.js';
import { columnsAxisEngineIfCompiles, type ColumnsAxisEngine } from './fft-columns-axis.js';
import { WASM_SIMD } from './wasm-fft.js';
import { planCpuEngineColumns, type CpuColumnsRecipe } from '../../planner/cpu-fft.js';
import { normScale } from '../../planner/fft-problem.js';

export interface NdArray {
  data: Float64Array;
  shape: number[];
}

export interface Fft1dOptions {
  /** Length of the transform along `axis` (input cropped or zero-padded); irfft: output length. */
  n?: number;
  /** Axis (default −1). */
  axis?: number;
  norm?: Norm;
}

export interface FftNdOptions {
  /** Transform lengths per axis in `axes` (−1 = keep the input's size); irfftn: output lengths. */
  s?: readonly number[];
  /** Axes to transform (default: all, or the last len(s) when only s is given). */
  axes?: readonly number[];
  norm?: Norm;
}

type Input = Float64Array | Float32Array;

export function product(shape: readonly number[]): number {
  let p = 1;
  for (const d of shape) p *= d;
  return p;
}

function checkShape(shape: readonly number[], dataLength: number, perElement: 1 | 2, name = 'shape'): number[] {
  if (!Array.isArray(shape) || shape.length === 0)
    throw new ArgumentError(name, shape, 'a non-empty array of dimensions');
  for (const d of shape)
    if (!Number.isInteger(d) || d < 0) throw new ArgumentError(name, shape, 'non-negative integer dimensions');
  const need = perElement * product(shape);
  if (dataLength !== need) {
    throw new ArgumentError(
      'x',
      dataLength,
      `an array of ${need} numbers for ${perElement === 2 ? 'complex' : 'real'} shape [${shape.join(', ')}]${perElement === 2 ? ' (interleaved re, im)' : ''}`,
    );
  }
  return [...shape];
}

/** Repeated axes are refused, as scipy.fft does (numpy applies them in turn; nothing here needs that). */
export function checkDistinct(axes: readonly number[], given: unknown): void {
  if (new Set(axes).size !== axes.length) throw new ArgumentError('axes', given, 'distinct axes (no axis twice)');
}

export function normalizeAxis(axis: number, ndim: number, name = 'axis'): number {
  if (!Number.isInteger(axis) || axis < -ndim || axis >= ndim)
    throw new ArgumentError(name, axis, `an integer in [${-ndim}, ${ndim - 1}]`);
  return axis < 0 ? axis + ndim : axis;
}

/** outer = Π shape[..axis), inner = Π shape(axis..]. */
export function axisGeometry(shape: readonly number[], axis: number): { outer: number; len: number; inner: number } {
  return { outer: product(shape.slice(0, axis)), len: shape[axis]!, inner: product(shape.slice(axis + 1)) };
}

/** Copy with dimension `axis` cropped or zero-padded to `len`. perElement: 1 real, 2 complex. */
export function resizeAxis(
  data: Float64Array,
  shape: readonly number[],
  axis: number,
  len: number,
  perElement: 1 | 2,
): NdArray {
  const { outer, len: old, inner } = axisGeometry(shape, axis);
  const newShape = [...shape];
  newShape[axis] = len;
  if (len === old) return { data: Float64Array.from(data), shape: newShape };
  const out = new Float64Array(perElement * outer * len * inner);
  const keep = Math.min(len, old) * inner * perElement;
  for (let o = 0; o < outer; o++) {
    out.set(
      data.subarray(o * old * inner * perElement, o * old * inner * perElement + keep),
      o * len * inner * perElement,
    );
  }
  return { data: out, shape: newShape };
}

/**
 * Calls fn(offset, stride) for every 1-D line along `axis` (offset and stride in elements), grouped so
 * callers can batch: `fn` gets a batch of `count` lines whose starts are `dist` apart.
 */
export function forEachLineBatch(
  shape: readonly number[],
  axis: number,
  fn: (offset: number, stride: number, count: number, dist: number) => void,
): void {
  const { outer, len, inner } = axisGeometry(shape, axis);
  if (outer === 0 || inner === 0 || len === 0) return;
  if (inner === 1) fn(0, 1, outer, len);
  else for (let o = 0; o < outer; o++) fn(o * len * inner, inner, inner, 1);
}

/** c2c along one axis of complex data, in place or into `out` (same shape). */
function c2cAxis(
  data: Float64Array | Float32Array,
  shape: readonly number[],
  axis: number,
  inverse: boolean,
  norm: Norm | undefined,
  out = data,
): void {
  const { outer, inner } = axisGeometry(shape, axis);
  const engine = inner > 1 ? columnsEngineOf(shape[axis]!, inner) : null;
  if (engine) {
    engine.run(data, out, outer, inverse, normScale(shape[axis]!, inverse ? 'inverse' : 'forward', norm ?? 'backward'));
    return;
  }
  const plan = planCpuFft(shape[axis]!);
  forEachLineBatch(shape, axis, (offset, stride, count, dist) => {
    const l = { offset, stride, dist };
    plan.execute(data, out, { batch: count, inverse, norm, input: l, output: l });
  });
}

/**
 * Inside the CPU engine's scope, the column module for transforms of length n whose lines lie `inner` complex values
 * apart (a non-last axis), where it applies; else null (the engine's plans gather the columns by transposes).
 */
function columnsEngineOf(n: number, inner: number): ColumnsAxisEngine | null {
  const precision = cpuEnginePrecision();
  const recipe = precision && WASM_SIMD ? planCpuEngineColumns(n, inner, precision) : null;
  // Null also where the module may not compile here: the plans' path instead.
  return recipe && columnsAxisEngineIfCompiles(recipe);
}

/**
 * The column recipes the N-D driver's complex axes will ask for (columnsEngineOf), for compiling ahead where this
 * thread may not compile them in place: the shapes as c2cN, rfftn and irfftn leave them at each complex axis.
 */
export function columnsRecipesAhead(
  kind: 'c2c' | 'r2c' | 'c2r',
  shape: readonly number[],
  options: FftNdOptions,
  precision: 'f32' | 'f64',
): CpuColumnsRecipe[] {
  const { s, axes } = resolveAxes(shape, options, kind === 'c2r' ? c2rDefaultLast : undefined);
  const cur = [...shape];
  const last = axes.length - 1;
  // rfftn transforms its real axis first (to n/2 + 1 values); c2cN and irfftn take every listed axis as complex.
  if (kind === 'r2c') cur[axes[last]!] = Math.floor(s[last]! / 2) + 1;
  const recipes: CpuColumnsRecipe[] = [];
  for (let i = kind === 'c2c' ? last : last - 1; i >= 0; i--) {
    const a = axes[i]!;
    cur[a] = s[i]!;
    const inner = product(cur.slice(a + 1));
    const r = inner > 1 && WASM_SIMD ? planCpuEngineColumns(cur[a]!, inner, precision) : null;
    if (r) recipes.push(r);
  }
  return recipes;
}

function r2cAxis(x: Float64Array, shape: readonly number[], axis: number, norm: Norm | undefined): NdArray {
  const n = shape[axis]!;
  const plan = planCpuRfft(n);
  const outShape = [...shape];
  outShape[axis] = plan.nComplex;
  const out = new Float64Array(2 * product(outShape));
  const { outer, inner } = axisGeometry(shape, axis);
  for (let o = 0; o < outer && inner > 0; o++) {
    plan.forward(x, out, {
      batch: inner,
      norm,
      input: { offset: o * n * inner, stride: inner, dist: 1 },
      output: { offset: o * plan.nComplex * inner, stride: inner, dist: 1 },
    });
  }
  return { data: out, shape: outShape };
}

/** C2R along `axis`: input has nComplex = n/2+1 there (already resized), output length n. */
function c2rAxis(y: Float64Array, shape: readonly number[], axis: number, n: number, norm: Norm | undefined): NdArray {
  const plan = planCpuRfft(n);
  const outShape = [...shape];
  outShape[axis] = n;
  const out = new Float64Array(product(outShape));
  const { outer, inner } = axisGeometry(shape, axis);
  for (let o = 0; o < outer && inner > 0; o++) {
    plan.inverse(y, out, {
      batch: inner,
      norm,
      input: { offset: o * plan.nComplex * inner, stride: inner, dist: 1 },
      output: { offset: o * n * inner, stride: inner, dist: 1 },
    });
  }
  return { data: out, shape: outShape };
}

/** numpy's (s, axes) resolution. `defaultLast` gives irfftn's default for the last axis. */
/**
 * The default output length of an inverse real N-D transform's last axis: 2(m − 1), and 1 where that axis holds a
 * single value (scipy.fft's irfftn and irfft2 return it; numpy raises).
 */
export const c2rDefaultLast = (m: number): number => (m === 0 ? 0 : Math.max(1, 2 * (m - 1)));

export function resolveAxes(
  shape: readonly number[],
  options: FftNdOptions,
  defaultLast?: (inputLen: number) => number,
): { s: number[]; axes: number[] } {
  const ndim = shape.length;
  if (options.s !== undefined && !Array.isArray(options.s))
    throw new ArgumentError('s', options.s, 'an array of transform lengths, one per axis');
  let axes: number[];
  if (options.axes !== undefined) {
    if (!Array.isArray(options.axes) || options.axes.length === 0)
      throw new ArgumentError('axes', options.axes, 'a non-empty array of axis indices');
    axes = options.axes.map((a) => normalizeAxis(a, ndim, 'axes'));
    checkDistinct(axes, options.axes);
  } else if (options.s !== undefined) {
    if (options.s.length > ndim)
      throw new ArgumentError('s', options.s, `at most ${ndim} lengths for a ${ndim}-D array`);
    axes = options.s.map((_, i) => ndim - options.s!.length + i);
  } else axes = shape.map((_, i) => i);
  let s: number[];
  if (options.s !== undefined) {
    if (options.s.length !== axes.length)
      throw new ArgumentError('s', options.s, `${axes.length} lengths, one per axis in axes`);
    s = options.s.map((v, i) => {
      // −1: the input's own length along that axis, for irfftn's last axis too (numpy 2 and scipy.fft).
      if (v === -1) return shape[axes[i]!]!;
      checkLength(v, 's', 1);
      return v;
    });
  } else {
    s = axes.map((a, i) => (i === axes.length - 1 && defaultLast ? defaultLast(shape[a]!) : shape[a]!));
  }
  s.forEach((v, i) => {
    if (v >= 1) return;
    // An empty axis transformed at its own length (numpy refuses it too): name the axis and what pads it.
    if (options.s === undefined || options.s[i] === -1)
      throw new ArgumentError('x', shape, `a non-empty axis ${axes[i]} (or a length in s / n to zero-pad it to)`);
    throw new ArgumentError('s', s, 'transform lengths ≥ 1 (no empty axes)');
  });
  return { s, axes };
}

function toF64(x: Input): Float64Array {
  return x instanceof Float64Array ? x : Float64Array.from(x);
}

/**
 * N-D complex FFT. Float64 throughout, except that Float32Array input inside the CPU engine's f32 scope
 * stays float32 (the engine computes in f32 either way; converting would only add two passes). `into`: an
 * array (not overlapping x) the result may be written to instead of a new one.
 */
export function c2cN(
  x: Input,
  shape: readonly number[],
  options: FftNdOptions,
  inverse: boolean,
  into?: Float64Array | Float32Array,
): { data: Float64Array | Float32Array; shape: number[] } {
  const sh = checkShape(shape, x.length, 2);
  const { s, axes } = resolveAxes(sh, options);
  const keep32 = x instanceof Float32Array && cpuEnginePrecision() === 'f32';
  let cur: { data: Float64Array | Float32Array; shape: number[] } = {
    data: keep32 ? (x as Float32Array) : toF64(x),
    shape: sh,
  };
  // A float64 copy of other input is already private; the transforms below work in place.
  let copied = !(x instanceof Float64Array) && !keep32;
  for (let i = axes.length - 1; i >= 0; i--) {
    const a = axes[i]!;
    if (!copied && cur.shape[a] === s[i]) {
      // The first transform reads the caller's array and writes a fresh one (no copy of the input first), or
      // `into` (the caller's result array, not overlapping x) when that has the working type and size.
      const fits = into && into.constructor === cur.data.constructor && into.length === cur.data.length;
      const out = fits
        ? into
        : cur.data instanceof Float32Array
          ? new Float32Array(cur.data.length)
          : new Float64Array(cur.data.length);
      c2cAxis(cur.data, cur.shape, a, inverse, options.norm, out);
      cur = { data: out, shape: cur.shape };
      copied = true;
      continue;
    }
    if (cur.shape[a] !== s[i] || !copied) {
      cur = resizeAxisSame(cur.data, cur.shape, a, s[i]!, 2);
      copied = true;
    }
    c2cAxis(cur.data, cur.shape, a, inverse, options.norm);
  }
  return cur;
}

export function fftn(x: Input, shape: readonly number[], options: FftNdOptions = {}): NdArray {
  return asF64(c2cN(x, shape, options, false));
}

export function ifftn(x: Input, shape: readonly number[], options: FftNdOptions = {}): NdArray {
  return asF64(c2cN(x, shape, options, true));
}

function asF64(r: { data: Float64Array | Float32Array; shape: number[] }): NdArray {
  return { data: toF64(r.data), shape: r.shape };
}

/** resizeAxis keeping the array type. */
function resizeAxisSame(
  data: Float64Array | Float32Array,
  shape: readonly number[],
  axis: number,
  len: number,
  perElement: 1 | 2,
): { data: Float64Array | Float32Array; shape: number[] } {
  if (data instanceof Float64Array) return resizeAxis(data, shape, axis, len, perElement);
  const { outer, len: old, inner } = axisGeometry(shape, axis);
  const newShape = [...shape];
  newShape[axis] = len;
  if (len === old) return { data: data.slice(), shape: newShape };
  const out = new Float32Array(perElement * outer * len * inner);
  const keep = Math.min(len, old) * inner * perElement;
  for (let o = 0; o < outer; o++)
    out.set(
      data.subarray(o * old * inner * perElement, o * old * inner * perElement + keep),
      o * len * inner * perElement,
    );
  return { data: out, shape: newShape };
}

/** Real N-D FFT: rfft along the last of `axes`, then complex FFTs along the others (numpy order). */
export function rfftn(x: Input, shape: readonly number[], options: FftNdOptions = {}): NdArray {
  const sh = checkShape(shape, x.length, 1);
  const { s, axes } = resolveAxes(sh, options);
  const last = axes.length - 1;
  const resized = resizeAxis(toF64(x), sh, axes[last]!, s[last]!, 1);
  const cur = r2cAxis(resized.data, resized.shape, axes[last]!, options.norm);
  for (let i = last - 1; i >= 0; i--) {
    const a = axes[i]!;
    const r = cur.shape[a] === s[i] ? cur : resizeAxis(cur.data, cur.shape, a, s[i]!, 2);
    cur.data = r.data;
    cur.shape = r.shape;
    c2cAxis(cur.data, cur.shape, a, false, options.norm);
  }
  return cur;
}

/**
 * Inverse of rfftn: inverse complex FFTs along all but the last of `axes`, then irfft along the last,
 * whose output length is s[-1] (default 2·(m − 1) for m input points; the input is cropped or
 * zero-padded to s[-1]/2 + 1 there).
 */
export function irfftn(x: Input, shape: readonly number[], options: FftNdOptions = {}): NdArray {
  const sh = checkShape(shape, x.length, 2);
  const { s, axes } = resolveAxes(sh, options, c2rDefaultLast);
  const last = axes.length - 1;
  let cur: NdArray = { data: toF64(x), shape: sh };
  let copied = false;
  for (let i = last - 1; i >= 0; i--) {
    const a = axes[i]!;
    if (cur.shape[a] !== s[i] || !copied) {
      cur = resizeAxis(cur.data, cur.shape, a, s[i]!, 2);
      copied = true;
    }
    c2cAxis(cur.data, cur.shape, a, true, options.norm);
  }
  const n = s[last]!;
  if (!(n >= 1)) throw new ArgumentError('n', n, 'an output length ≥ 1 (irfft of a single point needs an explicit n)');
  const a = axes[last]!;
  const r = resizeAxis(cur.data, cur.shape, a, Math.floor(n / 2) + 1, 2);
  return c2rAxis(r.data, r.shape, a, n, options.norm);
}

function oneD(options: Fft1dOptions): FftNdOptions {
  const axis = options.axis ?? -1;
  return { axes: [axis], s: options.n === undefined ? undefined : [options.n], norm: options.norm };
}

function defaultShape(x: Input, shape: readonly number[] | undefined, perElement: 1 | 2): readonly number[] {
  if (shape !== undefined) return shape;
  if (x.length % perElement !== 0)
    throw new ArgumentError('x', x.length, 'an even number of values (interleaved complex)');
  return [x.length / perElement];
}

/** numpy.fft.fft: 1-D complex FFT along `axis` (default last) of complex data with `shape` (default 1-D). */
export function fft(x: Input, options: Fft1dOptions = {}, shape?: readonly number[]): NdArray {
  const sh = defaultShape(x, shape, 2);
  return fftn(x, sh, oneD(options));
}
export function ifft(x: Input, options: Fft1dOptions = {}, shape?: readonly number[]): NdArray {
  const sh = defaultShape(x, shape, 2);
  return ifftn(x, sh, oneD(options));
}
/** numpy.fft.rfft: real input → n/2+1 complex outputs along `axis`. */
export function rfft(x: Input, options: Fft1dOptions = {}, shape?: readonly number[]): NdArray {
  const sh = defaultShape(x, shape, 1);
  return rfftn(x, sh, oneD(options));
}
/** numpy.fft.irfft: n real outputs (default 2·(m−1)) from m complex inputs along `axis`. */
export function irfft(x: Input, options: Fft1dOptions = {}, shape?: readonly number[]): NdArray {
  const sh = defaultShape(x, shape, 2);
  // 1-D, numpy and scipy.fft agree: the default 2·(m − 1) is empty for one value (irfftn takes 1 there, as scipy.fft).
  if (options.n === undefined && sh[normalizeAxis(options.axis ?? -1, sh.length)] === 1)
    throw new ArgumentError('n', options.n, 'an explicit output length: the default 2·(m − 1) is 0 for m = 1');
  return irfftn(x, sh, oneD(options));
}

const last2 = (o: FftNdOptions): FftNdOptions => ({ ...o, axes: o.axes ?? [-2, -1] });
export const fft2 = (x: Input, shape: readonly number[], o: FftNdOptions = {}): NdArray => fftn(x, shape, last2(o));
export const ifft2 = (x: Input, shape: readonly number[], o: FftNdOptions = {}): NdArray => ifftn(x, shape, last2(o));
export const rfft2 = (x: Input, shape: readonly number[], o: FftNdOptions = {}): NdArray => rfftn(x, shape, last2(o));
export const irfft2 = (x: Input, shape: readonly number[], o: FftNdOptions = {}): NdArray => irfftn(x, shape, last2(o));
