/**
 * The N-D FFT planner of the WebGPU backend: for a shape, axes and kind, the 1-D plans (problem, options)
 * WebGpuFftNd runs per axis and the layouts between them, as plain data without a device. The 1-D
 * algorithms know nothing of axes.
 *
 * For axis a of a row-major array: inner = ∏ dims after a, outer = ∏ dims before a. The last axis is a
 * plain batch (stride 1); other axes are strided batches (stride inner, distance 1), with a second batch
 * level for the outer dims. Real transforms follow numpy: rfftn does R2C along the last of `axes` first,
 * irfftn does C2R along it last.
 */
import { ArgumentError, ButterflyError } from '../errors.js';
import { fftProblem, MAX_TYPED_ARRAY_LENGTH, type FftNorm, type FftProblem } from './fft-problem.js';
import type { FftTuning, WebGpuFftPlanOptions } from './fft-webgpu.js';

/** The 1-D planning options an N-D step may carry (adapters' hooks are not among them). */
export type FftNdPlanOptions = Omit<WebGpuFftPlanOptions, 'custom'>;

export type FftNdKind = 'c2c' | 'r2c' | 'c2r';

export interface FftNdDescriptor {
  /**
   * c2c: the complex array's shape. r2c: the real input's shape. c2r: the real OUTPUT's shape (the input
   * has n/2+1 along the last of `axes`).
   */
  shape: readonly number[];
  /** Axes to transform (default: all), distinct, in [−ndim, ndim). */
  axes?: readonly number[];
  kind?: FftNdKind;
  direction?: 'forward' | 'inverse';
  norm?: FftNorm;
  /** Experimental planner overrides for every step (see FftTuning). */
  tuning?: FftTuning;
}

function product(a: readonly number[]): number {
  return a.reduce((x, y) => x * y, 1);
}

/**
 * Axis indices in [0, ndim). Repeated axes are allowed where numpy allows them (complex transforms apply
 * the transform once per mention); real transforms need distinct axes (`distinct`).
 */
export function normalizeAxes(axes: readonly number[] | undefined, ndim: number, distinct = false): number[] {
  const out = (axes ?? Array.from({ length: ndim }, (_, i) => i)).map((a) => {
    if (!Number.isInteger(a) || a < -ndim || a >= ndim)
      throw new ArgumentError('axes', axes, `axis indices in [${-ndim}, ${ndim})`);
    return a < 0 ? a + ndim : a;
  });
  if (out.length === 0) throw new ArgumentError('axes', axes, 'at least one axis');
  if (distinct && new Set(out).size !== out.length) throw new ArgumentError('axes', axes, 'distinct axes');
  return out;
}

/** One 1-D plan of an N-D transform: which axis, its shapes, and the plans create() tries for it. */
export interface FftNdStep {
  /** The axis transformed (in [0, ndim)). */
  axis: number;
  real: 'r2c' | 'c2r' | undefined;
  /** Array shape before and after this step. */
  inShape: number[];
  outShape: number[];
  inBytes: number;
  outBytes: number;
  /**
   * The 1-D plans create() tries, in order: each but the last is skipped when WebGpuFft.create refuses it
   * with a ButterflyError that is not an ArgumentError (fftNdFallsBack); the first that plans is run.
   */
  candidates: {
    mode: 'columns' | 'interleaved' | 'strided' | 'rows';
    problem: FftProblem;
    options: FftNdPlanOptions;
  }[];
}

export interface FftNdPlanning {
  kind: FftNdKind;
  direction: 'forward' | 'inverse';
  /** Normalised axes, as given. */
  axes: number[];
  inShape: number[];
  outShape: number[];
  /** In the order they run. */
  steps: FftNdStep[];
}

/** Whether create() moves on to the next candidate of a step after this error. */
export function fftNdFallsBack(e: unknown): boolean {
  return e instanceof ButterflyError && !(e instanceof ArgumentError);
}

/**
 * The layouts of an N-D transform, without a device: validates the descriptor and lists the 1-D plans
 * (problem and options) of each step, in the order WebGpuFftNd.create runs them.
 */
export function planFftNd(d: FftNdDescriptor): FftNdPlanning {
  const shape = [...d.shape];
  if (shape.length === 0 || !shape.every((v) => Number.isSafeInteger(v) && v >= 1)) {
    throw new ArgumentError('shape', d.shape, 'a non-empty array of positive integers');
  }
  // Complex values of the largest side (a C2R's input has n/2+1 along one axis, never more than n):
  // beyond one typed array the products would fail later as RangeErrors or wrap in u32 uniforms.
  if (!(2 * product(shape) <= MAX_TYPED_ARRAY_LENGTH)) {
    throw new ArgumentError(
      'shape',
      d.shape,
      `at most 2^31 elements in all (2 × product ≤ 2^32 values; here ${2 * product(shape)})`,
    );
  }
  const kind = d.kind ?? 'c2c';
  const axes = normalizeAxes(d.axes, shape.length, kind !== 'c2c');
  const direction = kind === 'r2c' ? 'forward' : kind === 'c2r' ? 'inverse' : (d.direction ?? 'forward');
  if (kind !== 'c2c' && d.direction && d.direction !== direction) {
    throw new ArgumentError('direction', d.direction, `'${direction}' for a ${kind.toUpperCase()} transform`);
  }
  const last = axes[axes.length - 1];
  const half = (s: number[]) => s.map((v, i) => (i === last ? Math.floor(v / 2) + 1 : v));
  // Shapes before the first step and after the last.
  const inShape = kind === 'c2r' ? half(shape) : shape;
  const outShape = kind === 'r2c' ? half(shape) : shape;
  // Order of steps: R2C first on the last axis; C2R last on it; complex axes in between.
  const order =
    kind === 'r2c' ? [last, ...axes.slice(0, -1)] : kind === 'c2r' ? [...axes.slice(0, -1), last] : [...axes].reverse();
  const steps: FftNdStep[] = [];
  let cur = [...inShape];
  for (const [k, a] of order.entries()) {
    const real = kind === 'r2c' && k === 0 ? 'r2c' : kind === 'c2r' && k === order.length - 1 ? 'c2r' : undefined;
    const next = [...cur];
    if (real === 'r2c') next[a] = Math.floor(shape[a] / 2) + 1;
    if (real === 'c2r') next[a] = shape[a];
    const n = shape[a];
    const inner = product(cur.slice(a + 1));
    const outer = product(cur.slice(0, a));
    const lenIn = cur[a];
    const lenOut = next[a];
    const problem =
      inner === 1
        ? fftProblem({ n, batch: outer, direction, norm: d.norm, input: { dist: lenIn }, output: { dist: lenOut } })
        : fftProblem({
            n,
            batch: inner,
            direction,
            norm: d.norm,
            input: { stride: inner, dist: 1 },
            output: { stride: inner, dist: 1 },
          });
    const opts: FftNdPlanOptions = { tuning: d.tuning, real };
    if (inner !== 1 && outer > 1) opts.outer = { count: outer, inDist: lenIn * inner, outDist: lenOut * inner };
    const candidates: FftNdStep['candidates'] = [];
    if (inner > 1 && !real) {
      // Complex axis that is not the last: one column-staged pass over contiguous column blocks,
      // when the length fits a pass; else the strided batch below.
      const blocks = fftProblem({
        n,
        batch: outer,
        direction,
        norm: d.norm,
        input: { dist: n * inner },
        output: { dist: n * inner },
      });
      candidates.push({ mode: 'columns', problem: blocks, options: { tuning: d.tuning, columns: inner } });
      // Too long for one column pass: a multi-pass transform over the strided batch, batch-fastest
      // (contiguous in every pass); the strided single-kernel path below is the last resort.
      candidates.push({ mode: 'interleaved', problem, options: { ...opts, interleavedBatch: true } });
    }
    candidates.push({ mode: inner === 1 ? 'rows' : 'strided', problem, options: opts });
    const elemIn = real === 'r2c' ? 4 : 8;
    const elemOut = real === 'c2r' ? 4 : 8;
    steps.push({
      axis: a,
      real,
      inShape: cur,
      outShape: next,
      inBytes: product(cur) * elemIn,
      outBytes: product(next) * elemOut,
      candidates,
    });
    cur = next;
  }
  return { kind, direction, axes, inShape, outShape, steps };
}
