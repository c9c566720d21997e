/**
 * scipy.fft-shaped real-to-real transforms: dct/idct/dst/idst (types 1–4), dctn/idctn/dstn/idstn and the
 * Hartley transform dht/idht (self-inverse up to 1/N). Float32Array runs on WebGPU when available (each
 * transform fused into its FFT's passes), Float64Array on the float64 CPU backend; results have the
 * input's array type. 'auto' falls back to the CPU for lengths the GPU planner does not handle yet.
 */
import { ArgumentError } from '../errors.js';
import type { GpuContext } from '../backends/webgpu/device.js';
import { WebGpuR2r, type R2rFamily, type R2rNorm } from '../backends/webgpu/r2r.js';
import * as cpuDct from '../backends/cpu/r2r-dct.js';
import { onCpuEngine } from '../backends/cpu/engine-scope.js';
import { precompileEngine, WASM_SIMD } from '../backends/cpu/wasm-fft.js';
import { columnsAxisEngineAhead } from '../backends/cpu/fft-columns-axis.js';
import { planCpuEngineDctColumns } from '../planner/cpu-fft.js';
import { fusedR2rRows, type R2rRowKind, type RowOp } from '../backends/cpu/engine-rows.js';
import { transformAlongAxes, type AxisStep } from '../backends/cpu/axis-transpose.js';
import * as cpuDst from '../backends/cpu/r2r-dst.js';
import * as cpuDht from '../backends/cpu/r2r-dht.js';
import { MAX_TYPED_ARRAY_LENGTH, normScale } from '../planner/fft-problem.js';
import { checkDistinct, normalizeAxis, resizeAxis } from '../backends/cpu/fft-nd.js';
import { checkBackend, fallsBack, gpuFor, type BackendChoice } from './backend.js';
import { checkThreads, executeEngineRows, planeThreads, runColumnSteps } from '../backends/cpu/worker-pool.js';
import { checkOut, deliver, overlaps } from './out.js';
import { filledResultLike } from '../util/filled-result.js';
import { engineNow, rowsNow } from './one-shot-now.js';
import { checkOptionNames, DHT_1D_OPTIONS, R2R_1D_OPTIONS, R2R_ND_OPTIONS } from './options.js';

export type RealArray = Float32Array | Float64Array;

/** The transforms return the input's array type (Float32Array in, Float32Array out). */
type SameArray<O> = {
  (x: Float32Array, o?: O): Promise<Float32Array>;
  (x: Float64Array, o?: O): Promise<Float64Array>;
  (x: RealArray, o?: O): Promise<RealArray>;
};

export interface R2rCallOptions {
  /** DCT/DST type 1–4 (default 2). */
  type?: number;
  /** Length along `axis`: input cropped or zero-padded. */
  n?: number;
  axis?: number;
  norm?: R2rNorm;
  /** scipy's orthogonalize (default: norm === 'ortho'). */
  orthogonalize?: boolean;
  /** Row-major shape of x (default 1-D). */
  shape?: readonly number[];
  backend?: BackendChoice;
  gpu?: GpuContext;
  /**
   * CPU engine: threads a call may use, the calling thread included (default: the available cores). DCT types 2
   * and 3 and the DHT along the last axis split their lines across them; other transforms run on the calling thread.
   */
  threads?: number;
  /** Where to write the result (numpy's `out`): the input's array type and exactly the result's length. */
  out?: RealArray;
}

export interface R2rNdCallOptions extends Omit<R2rCallOptions, 'n' | 'axis'> {
  s?: readonly number[];
  axes?: readonly number[];
}

export const dct = ((x: RealArray, o: R2rCallOptions = {}) => oneD('dct', false, x, o)) as SameArray<R2rCallOptions>;
export const idct = ((x: RealArray, o: R2rCallOptions = {}) => oneD('dct', true, x, o)) as SameArray<R2rCallOptions>;
export const dst = ((x: RealArray, o: R2rCallOptions = {}) => oneD('dst', false, x, o)) as SameArray<R2rCallOptions>;
export const idst = ((x: RealArray, o: R2rCallOptions = {}) => oneD('dst', true, x, o)) as SameArray<R2rCallOptions>;
export const dht = ((x: RealArray, o: Omit<R2rCallOptions, 'type' | 'orthogonalize'> = {}) =>
  oneD('dht', false, x, o)) as SameArray<Omit<R2rCallOptions, 'type' | 'orthogonalize'>>;
export const idht = ((x: RealArray, o: Omit<R2rCallOptions, 'type' | 'orthogonalize'> = {}) =>
  oneD('dht', true, x, o)) as SameArray<Omit<R2rCallOptions, 'type' | 'orthogonalize'>>;
export const dctn = ((x: RealArray, o: R2rNdCallOptions = {}) => nd('dct', false, x, o)) as SameArray<R2rNdCallOptions>;
export const idctn = ((x: RealArray, o: R2rNdCallOptions = {}) => nd('dct', true, x, o)) as SameArray<R2rNdCallOptions>;
export const dstn = ((x: RealArray, o: R2rNdCallOptions = {}) => nd('dst', false, x, o)) as SameArray<R2rNdCallOptions>;
export const idstn = ((x: RealArray, o: R2rNdCallOptions = {}) => nd('dst', true, x, o)) as SameArray<R2rNdCallOptions>;

/** scipy refuses an orthogonalize that is not a boolean; 'no' would otherwise count as true. */
function checkOrthogonalize(v: unknown): void {
  if (v !== undefined && typeof v !== 'boolean') throw new ArgumentError('orthogonalize', v, 'true or false');
}

async function oneD(family: R2rFamily, inverse: boolean, x: RealArray, o: R2rCallOptions | null): Promise<RealArray> {
  checkOptionNames(o, family === 'dht' ? DHT_1D_OPTIONS : R2R_1D_OPTIONS, `${inverse ? 'i' : ''}${family}`);
  o ??= {};
  checkOrthogonalize(o.orthogonalize);
  const now = r2rNow(family, inverse, x, o);
  if (now) return now;
  // numpy's −1 ("keep") is for `s` only: a 1-D length must be given as a positive integer (scipy refuses −1).
  if (o.n !== undefined && (!Number.isSafeInteger(o.n) || o.n < 1))
    throw new ArgumentError('n', o.n, 'a positive integer');
  if (o.axis !== undefined) {
    const ndim = Array.isArray(o.shape) ? o.shape.length : 1;
    normalizeAxis(o.axis, ndim, 'axis');
  }
  return nd(family, inverse, x, { ...o, axes: [o.axis ?? -1], s: o.n === undefined ? undefined : [o.n] }, true);
}

/** A transform of rows along the last axis computed at once where nothing needs awaiting (one-shot-now.ts); else undefined. */
function r2rNow(family: R2rFamily, inverse: boolean, x: RealArray, o: R2rCallOptions): RealArray | undefined {
  const now = engineNow(x, o, 1);
  if (!now || (o.orthogonalize !== undefined && typeof o.orthogonalize !== 'boolean')) return undefined;
  const { m: n, rows } = now;
  const type = family === 'dht' ? undefined : (o.type ?? 2);
  const kind = rowKind(family, type, inverse);
  if (!kind || n < (kind === 'dct1' ? 2 : 1) || (o.n !== undefined && o.n !== n)) return undefined;
  const op = rowOp(kind, inverse, n, now.precision, now.norm, o.orthogonalize);
  return op ? rowsNow(op, x, rows, o.out, x.length, now.threads) : undefined;
}

/** The length of the last axis where it is the only axis transformed, with no crop or pad; else null. */
function lastAxisOnly(shape: readonly number[], axes: readonly number[], s: readonly number[]): number | null {
  const n = shape[shape.length - 1]!;
  return axes.length === 1 && axes[0] === shape.length - 1 && s[0] === n ? n : null;
}

/**
 * `out` unless it overlaps x (the engine would read what it already wrote), else a new array of x's type, which
 * the caller must write in full.
 */
function resultArray(x: RealArray, out: RealArray | undefined): RealArray {
  return out && !overlaps(out, x) ? out : filledResultLike(x, x.length);
}

/** The engine row operation of a transform (idct / idst of type t run type 1, 3, 2, 4: scipy's inverse map). */
function rowKind(family: R2rFamily, type: number | undefined, inverse: boolean): R2rRowKind | null {
  if (family === 'dht') return 'dht';
  if (type === 1 || type === 4) return `${family === 'dct' ? 'dct' : 'dst'}${type}`;
  if (type !== 2 && type !== 3) return null;
  const t = (type === 2) !== inverse ? '2' : '3';
  return family === 'dct' ? (`dct${t}` as const) : (`dst${t}` as const);
}

/**
 * A DCT or DST of any type or the DHT along the last axis with no crop or pad, where the CPU engine has a fused
 * module for it (engine-rows.ts fusedR2rRows): straight from the caller's array into a result of its type, the
 * norm's scale and scipy's orthogonalize steps inside the engine.
 */
async function r2rLastAxis(
  kind: R2rRowKind,
  inverse: boolean,
  x: RealArray,
  n: number,
  norm: R2rNorm,
  orthogonalize: boolean | undefined,
  out: RealArray | undefined,
  threads: number | undefined,
): Promise<RealArray | null> {
  const op = rowOp(kind, inverse, n, x instanceof Float32Array ? 'f32' : 'f64', norm, orthogonalize);
  if (!op) return null;
  const dst = resultArray(x, out);
  await executeEngineRows(op, x, dst, x.length / n, threads);
  return deliver(dst, x, out);
}

/** The engine row operation of a transform of rows of n, with its norm's scale, where a fused module exists; else null. */
function rowOp(
  kind: R2rRowKind,
  inverse: boolean,
  n: number,
  precision: 'f32' | 'f64',
  norm: R2rNorm,
  orthogonalize: boolean | undefined,
): RowOp | null {
  if (!fusedR2rRows(kind, n, precision)) return null;
  // scipy's norms: the denominator 2n for types 2–4, 2(n − 1) for the DCT-I, 2(n + 1) for the DST-I, n for the DHT.
  const denom = kind === 'dht' ? n : kind === 'dct1' ? 2 * (n - 1) : kind === 'dst1' ? 2 * (n + 1) : 2 * n;
  const scale = normScale(denom, inverse ? 'inverse' : 'forward', norm);
  const orth = kind === 'dht' || kind === 'dst1' ? false : (orthogonalize ?? norm === 'ortho');
  return { kind, n, precision, scale, orthogonalize: orth };
}

/**
 * The DHT along the last axis with no crop or pad, for odd lengths (no fused module): the engine's batched rfft of
 * the caller's rows (split across threads), then Re − Im times the norm's scale, into a result of the input's type.
 */
async function dhtLastAxis(
  inverse: boolean,
  x: RealArray,
  n: number,
  norm: R2rNorm,
  out: RealArray | undefined,
  threads: number | undefined,
): Promise<RealArray> {
  const lines = x.length / n;
  const y = filledResultLike(x, 2 * (Math.floor(n / 2) + 1) * lines);
  await executeEngineRows(
    { kind: 'rfft', n, precision: x instanceof Float32Array ? 'f32' : 'f64' },
    x,
    y,
    lines,
    threads,
  );
  const dst = resultArray(x, out);
  cpuDht.hartleyFromSpectra(y, dst, n, lines, normScale(n, inverse ? 'inverse' : 'forward', norm));
  return deliver(dst, x, out);
}

/**
 * DCT-I / DST-I along the last axis where no fused module exists (the extension's real FFT is not a lane module):
 * each row's even (DCT-I, 2(n − 1)) or odd (DST-I, 2(n + 1)) extension in the input's precision, the engine's
 * batched real FFT of them (split across threads), and the real parts (DCT-I) or minus the imaginary parts (DST-I),
 * with scipy's scale and, for the DCT-I, its orthogonalize steps. Null for the other kinds.
 */
async function type1LastAxis(
  kind: R2rRowKind,
  inverse: boolean,
  x: RealArray,
  n: number,
  norm: R2rNorm,
  orthogonalize: boolean | undefined,
  out: RealArray | undefined,
  threads: number | undefined,
): Promise<RealArray | null> {
  if (kind !== 'dct1' && kind !== 'dst1') return null;
  const sine = kind === 'dst1';
  const m = sine ? 2 * (n + 1) : 2 * (n - 1);
  const nc = m / 2 + 1;
  const lines = x.length / n;
  const scale = normScale(m, inverse ? 'inverse' : 'forward', norm);
  const orth = !sine && (orthogonalize ?? norm === 'ortho');
  const ext = filledResultLike(x, lines * m);
  for (let q = 0, s = 0, b = 0; q < lines; q++, s += n, b += m) {
    if (sine) {
      // 0, x_0 … x_(n−1), 0, −x_(n−1) … −x_0.
      ext[b] = 0;
      ext[b + n + 1] = 0;
      ext.set(x.subarray(s, s + n), b + 1);
      for (let i = 0; i < n; i++) ext[b + m - 1 - i] = -x[s + i]!;
    } else {
      // x_0 … x_(n−1), x_(n−2) … x_1.
      ext.set(x.subarray(s, s + n), b);
      for (let i = 1; i < n - 1; i++) ext[b + m - i] = x[s + i]!;
      if (orth) {
        ext[b]! *= Math.SQRT2;
        ext[b + n - 1]! *= Math.SQRT2;
      }
    }
  }
  const spec = filledResultLike(x, lines * 2 * nc);
  await executeEngineRows(
    { kind: 'rfft', n: m, precision: x instanceof Float32Array ? 'f32' : 'f64' },
    ext,
    spec,
    lines,
    threads,
  );
  const dst = resultArray(x, out);
  for (let q = 0, d = 0, z = 0; q < lines; q++, d += n, z += 2 * nc) {
    if (sine) for (let k = 0; k < n; k++) dst[d + k] = -scale * spec[z + 2 * k + 3]!;
    else {
      for (let k = 0; k < n; k++) dst[d + k] = scale * spec[z + 2 * k]!;
      if (orth) {
        dst[d]! *= Math.SQRT1_2;
        dst[d + n - 1]! *= Math.SQRT1_2;
      }
    }
  }
  return deliver(dst, x, out);
}

async function nd(
  family: R2rFamily,
  inverse: boolean,
  x: RealArray,
  o: R2rNdCallOptions | null,
  /** Called as a 1-D transform: its length is the option `n`. */
  oneDimension = false,
): Promise<RealArray> {
  if (!oneDimension) checkOptionNames(o, R2R_ND_OPTIONS, `${inverse ? 'i' : ''}${family}n`);
  o ??= {};
  checkOrthogonalize(o.orthogonalize);
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array))
    throw new ArgumentError('x', x, 'a Float32Array or Float64Array of real values');
  if (o.shape !== undefined && !Array.isArray(o.shape))
    throw new ArgumentError('shape', o.shape, 'a non-empty array of non-negative integers');
  if (o.axes !== undefined && !Array.isArray(o.axes))
    throw new ArgumentError('axes', o.axes, 'an array of axis indices');
  if (o.s !== undefined && !Array.isArray(o.s)) throw new ArgumentError('s', o.s, 'an array of lengths, one per axis');
  const shape = [...(o.shape ?? [x.length])];
  // Empty axes as numpy allows them: untransformed, or transformed and zero-padded by s / n.
  if (shape.length === 0 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0))
    throw new ArgumentError('shape', o.shape, 'a non-empty array of non-negative integers');
  if (shape.reduce((a, b) => a * b, 1) !== x.length)
    throw new ArgumentError('x', x, `${shape.reduce((a, b) => a * b, 1)} values for shape [${shape.join(', ')}]`);
  const type = family === 'dht' ? undefined : (o.type ?? 2);
  if (type !== undefined && ![1, 2, 3, 4].includes(type))
    throw new ArgumentError('type', o.type, 'a transform type 1, 2, 3 or 4');
  const norm = o.norm ?? 'backward';
  if (!['backward', 'ortho', 'forward'].includes(norm))
    throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
  if (o.axes === undefined && o.s && o.s.length > shape.length)
    throw new ArgumentError('s', o.s, `at most ${shape.length} lengths for a ${shape.length}-D array`);
  const axes = (o.axes ?? (o.s ? o.s.map((_, i) => shape.length - o.s!.length + i) : shape.map((_, i) => i))).map((a) =>
    normalizeAxis(a, shape.length, 'axes'),
  );
  checkDistinct(axes, o.axes);
  if (o.s && o.s.length !== axes.length) throw new ArgumentError('s', o.s, `${axes.length} lengths, one per axis`);
  const s = axes.map((a, i) => (o.s && o.s[i] !== -1 ? o.s[i] : shape[a]));
  const minN = family === 'dct' && type === 1 ? 2 : 1;
  const kindName = `${family.toUpperCase()}${type ? ` type ${type}` : ''}`;
  s.forEach((v, i) => {
    if (Number.isSafeInteger(v) && v >= minN) return;
    // Blame what set the length: the n or s given, else the input's own length along that axis.
    if (o.s && o.s[i] !== -1)
      throw new ArgumentError(oneDimension ? 'n' : 's', v, `an integer ≥ ${minN} for ${kindName}`);
    throw new ArgumentError(
      'x',
      x,
      `at least ${minN} value${minN > 1 ? 's' : ''} along axis ${axes[i]} for ${kindName} (shape [${shape.join(', ')}])`,
    );
  });
  const threads = checkThreads(o.threads);
  const outLength = shape.reduce((p, d, a) => p * (axes.includes(a) ? s[axes.indexOf(a)]! : d), 1);
  // The result lives in one typed array: refuse lengths past that here, not as a RangeError from an allocation.
  if (!(outLength <= MAX_TYPED_ARRAY_LENGTH))
    throw new ArgumentError(
      oneDimension ? 'n' : 's',
      oneDimension ? s[0] : o.s,
      'lengths whose result fits one typed array (at most 2^32 values)',
    );
  const out = checkOut(o.out, x, outLength);
  const requested = checkBackend(o.backend ?? 'auto');
  // No input values: all zeros (an empty batch, or empty axes zero-padded), as scipy.fft.
  if (x.length === 0) return deliver(new (x instanceof Float32Array ? Float32Array : Float64Array)(outLength), x, out);
  // No axes: scipy.fft returns a copy of the input (never the input itself).
  if (axes.length === 0) return deliver(out && !overlaps(out, x) ? x : x.slice(), x, out);
  // 'auto' keeps float64 data on the float64 CPU backend (WGSL has no f64); 'webgpu' computes it in f32.
  const backend = requested === 'auto' && x instanceof Float64Array ? 'cpu' : requested;
  // The CPU engine computes in the input's precision; every FFT the adapters plan runs on it.
  const cpu = async (): Promise<RealArray> => {
    const kind = rowKind(family, type, inverse);
    const n = lastAxisOnly(shape, axes, s);
    const direct =
      n === null || !kind
        ? null
        : ((await r2rLastAxis(kind, inverse, x, n, norm, o.orthogonalize, out, threads)) ??
          (family === 'dht' ? await dhtLastAxis(inverse, x, n, norm, out, threads) : null) ??
          (await type1LastAxis(kind, inverse, x, n, norm, o.orthogonalize, out, threads)));
    if (direct) return direct;
    // Several axes, or one that is not the last: rows of the fused module, between transposes where the axis is
    // not innermost (axis-transpose.ts); axes it does not take go through the reference one at a time.
    const precision = x instanceof Float32Array ? 'f32' : 'f64';
    const output = precision === 'f32' ? 'float32' : 'float64';
    const steps: AxisStep[] = [];
    // The DCT-II/-III and DST-II/-III along a non-last axis on the data where it lies (no transposes), where the
    // column module takes them: the step's lines lie apart by the axes after it, those transformed before it (axes
    // after i) at s.
    const dctColumns = async (op: RowOp, axis: number, i: number) => {
      if (!['dct2', 'dct3', 'dst2', 'dst3'].includes(op.kind) || !WASM_SIMD) return {};
      const inner = shape.reduce((p, d, a) => (a <= axis ? p : p * (axes.indexOf(a) > i ? s[axes.indexOf(a)]! : d)), 1);
      const recipe =
        inner > 1
          ? planCpuEngineDctColumns(op.n, inner, precision, op.kind.startsWith('dst'), await planeThreads(threads))
          : null;
      const engine = recipe && (await columnsAxisEngineAhead(recipe));
      if (!engine) return {};
      const inverse = op.kind === 'dct3' || op.kind === 'dst3';
      const first = op.orthogonalize ? (inverse ? Math.SQRT2 : Math.SQRT1_2) : 1;
      return {
        columns: (input: RealArray, output: RealArray, outer: number) =>
          engine.run(input, output, outer, inverse, op.scale ?? 1, first, runColumnSteps),
      };
    };
    for (let i = axes.length - 1; i >= 0; i--) {
      const [axis, m] = [axes[i]!, s[i]!];
      const op = kind && m === shape[axis] ? rowOp(kind, inverse, m, precision, norm, o.orthogonalize) : null;
      if (op) {
        const rows = (input: RealArray, result: RealArray, count: number) =>
          executeEngineRows(op, input, result, count, threads);
        steps.push({ axis, nIn: m, nOut: m, inPer: 1, outPer: 1, rows, ...(await dctColumns(op, axis, i)) });
        continue;
      }
      const reference = (data: RealArray, sh: number[]) =>
        onCpuEngine(precision, () =>
          family === 'dht'
            ? (inverse ? cpuDht.idht : cpuDht.dht)(data, { norm, n: m, axis, output }, sh)
            : (family === 'dct' ? (inverse ? cpuDct.idctn : cpuDct.dctn) : inverse ? cpuDst.idstn : cpuDst.dstn)(
                data,
                sh,
                { type, norm, orthogonalize: o.orthogonalize, axes: [axis], s: [m], output },
              ),
        );
      steps.push({ axis, reference });
    }
    if (steps.some((st) => 'rows' in st))
      return deliver(await transformAlongAxes(x, shape, steps, out && !overlaps(out, x) ? out : undefined), x, out);
    return deliver(onCpuEngine(precision, cpuReference), x, out);
  };
  const cpuReference = (): RealArray => {
    // Results are written in the input's array type straight from the last axis transformed.
    const output = x instanceof Float32Array ? 'float32' : 'float64';
    const ndOpts = { type, norm, orthogonalize: o.orthogonalize, axes, s, output } as const;
    let r: { data: RealArray };
    if (family === 'dht') {
      // The DHT module is 1-D per axis: apply along each axis in turn (last first, as scipy).
      let cur: { data: RealArray; shape: number[] } = { data: x, shape };
      for (let i = axes.length - 1; i >= 0; i--)
        cur = (inverse ? cpuDht.idht : cpuDht.dht)(
          cur.data,
          { norm, n: s[i], axis: axes[i], output: i === 0 ? output : 'float64' },
          cur.shape,
        );
      r = cur;
    } else if (family === 'dct') r = (inverse ? cpuDct.idctn : cpuDct.dctn)(x, shape, ndOpts);
    else r = (inverse ? cpuDst.idstn : cpuDst.dstn)(x, shape, ndOpts);
    return r.data;
  };
  const ctx = await gpuFor(backend, o.gpu);
  if (!ctx) {
    // The lengths the r2r adapters' FFTs take (type 1: 2(n−1), DST-I: 2(n+1), type 4: n/2 or 2n).
    await precompileEngine(
      s.flatMap((n) => [n, Math.floor(n / 2), 2 * n, 2 * (n - 1), 2 * (n + 1)]).filter((n) => n >= 1),
      x instanceof Float32Array ? 'f32' : 'f64',
    );
    return cpu();
  }
  let data: Float64Array | null = null;
  let cur = shape;
  axes.forEach((a, i) => {
    if (cur[a] !== s[i]) {
      const r = resizeAxis(data ?? Float64Array.from(x), cur, a, s[i], 1);
      data = r.data;
      cur = r.shape;
    }
  });
  const input = data ? Float32Array.from(data) : x instanceof Float32Array ? x : Float32Array.from(x);
  let plan: WebGpuR2r;
  try {
    plan = await WebGpuR2r.create(ctx, {
      family,
      type,
      inverse,
      norm,
      orthogonalize: o.orthogonalize,
      shape: cur,
      axes,
    });
  } catch (e) {
    if (fallsBack(e, backend)) return cpu();
    throw e;
  }
  try {
    return deliver(await plan.run(input), x, out);
  } finally {
    plan.destroy();
  }
}
