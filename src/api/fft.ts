/**
 * Public FFT API (first cut): plans for repeated use, and numpy-like `fft` / `ifft` over the last axis.
 *
 * Layout: complex data is interleaved (re, im) in a Float32Array (WebGPU, f32) or Float64Array (CPU,
 * f64). Results have the input's array type. Backend 'auto' runs Float32Array on WebGPU when an adapter
 * exists (falling back to the CPU for lengths the GPU planner does not handle yet) and Float64Array on
 * the CPU, since WGSL has no f64.
 */
import { ArgumentError, DestroyedError, UnsupportedError } from '../errors.js';
import type { GpuContext } from '../backends/webgpu/device.js';
import { checkBackend, fallsBack, gpuFor, type BackendChoice } from './backend.js';
import { WebGpuFft } from '../backends/webgpu/fft.js';
import {
  engineBuffersId,
  engineFft,
  precompileEngine,
  SyncCompileRefused,
  syncCompileRestricted,
  WASM_SIMD,
  type EngineExecOptions,
  type EngineFft,
} from '../backends/cpu/wasm-fft.js';
import { releaseSharedMemories } from '../backends/cpu/shared-memories.js';
import {
  allocateLike,
  checkThreads,
  defaultThreads,
  executeEngineFft,
  executeEngineRows,
  planeThreads,
  runColumnSteps,
  runPlaneSteps,
  runsOnCaller,
  splitBuffersFor,
} from '../backends/cpu/worker-pool.js';
import { checkOut, deliver, overlaps } from './out.js';
import { fftNow } from './one-shot-now.js';
import { checkOptionNames, FFT_1D_OPTIONS, FFT_ND_OPTIONS, FFT_PLAN_OPTIONS } from './options.js';
import { filledResult } from '../util/filled-result.js';
import { onCpuEngine } from '../backends/cpu/engine-scope.js';
import {
  planCpuEngineBatchFft,
  planCpuEngineFft,
  planCpuEngineFft2,
  planCpuEngineFft3,
  planCpuEngineRfft2,
  planCpuEngineRfft3,
  planCpuEngineRealColumns,
  planCpuEngineColumns,
  type CpuEngineFftRecipe,
  type CpuPrecision,
} from '../planner/cpu-fft.js';
import { fft2Engine, precompileColumns, precompileFft2 } from '../backends/cpu/fft-2d.js';
import { transformAlongAxes, type AxisStep } from '../backends/cpu/axis-transpose.js';
import { normScale } from '../backends/cpu/fft-mixed-radix.js';
import { columnsAxisEngineAhead } from '../backends/cpu/fft-columns-axis.js';

/** CPU plans up to this length compile at creation (milliseconds); longer ones at their first execute. */
const EAGER_PLAN_MAX = 1 << 16;
import {
  distinctPlaces,
  fftProblem,
  layoutSpan,
  MAX_TYPED_ARRAY_LENGTH,
  type ComplexLayout,
  type FftNorm,
  type FftProblem,
  type FftProblemInit,
} from '../planner/fft-problem.js';
import type { FftRecipe } from '../planner/fft-recipe.js';
import type { FftTuning } from '../planner/fft-webgpu.js';
import * as cpuNd from '../backends/cpu/fft-nd.js';
import { c2rDefaultLast, normalizeAxis, resolveAxes } from '../backends/cpu/fft-nd.js';
import { WebGpuFftNd } from '../backends/webgpu/fft-nd.js';

export type { BackendChoice } from './backend.js';
// Every transform and plan returns the input's array type (Float32Array in, Float32Array out): overloads say so.
export type ComplexArray = Float32Array | Float64Array;

export interface FftPlanOptions extends FftProblemInit {
  backend?: BackendChoice;
  /**
   * CPU engine: the precision to compute in, 'f32' (4 lanes a vector) or 'f64' (2 lanes). Default: the
   * input array's (Float32Array → f32, Float64Array → f64). WebGPU always computes in f32.
   */
  precision?: CpuPrecision;
  /** GPU context to use (default: the shared one from defaultGpuContext()). */
  gpu?: GpuContext;
  /** WebGPU: transform in place (src === dst). */
  inPlace?: boolean;
  /**
   * WebGPU: experimental planner overrides, e.g. { maxRadix: 8 } (see FftTuning): for benchmarks; the
   * defaults are the fastest measured, and results do not depend on these.
   */
  tuning?: FftTuning;
  /**
   * CPU backend: threads a call may use, the calling thread included (default: the available cores,
   * os.availableParallelism() in Node, navigator.hardwareConcurrency in browsers; 1 = no worker threads).
   * Batches are split only when every share has at least 64K complex elements, and at the default only where
   * the first calls of that shape (about twelve, in runs of each way, retried now and then) measured the split
   * faster than the calling thread alone; a number given here splits whenever the shares are that large. A single
   * transform of 4 MiB or more is split by the four-step's phases (its result may then differ from one thread's in
   * the last bits, where one thread measured passes faster than the four-step). Workers start on the first threaded
   * call and are reused; they never keep a Node process alive, and disposeCpuWorkers() ends them. Input on a
   * SharedArrayBuffer (and then the result, allocated likewise) is read and written by the workers in place; other
   * input is copied per share.
   */
  threads?: number;
}

export interface FftPlan {
  readonly backend: 'webgpu' | 'cpu';
  readonly problem: FftProblem;
  /** The planner's recipe: a WorkgroupFftRecipe on WebGPU, a CPU engine recipe (lane-split / lane-batch / Bluestein) on the CPU. */
  readonly recipe: FftRecipe | CpuEngineFftRecipe;
  /**
   * Transforms interleaved complex data laid out as the problem's input layout; returns the output layout,
   * written into `output` when one is given (same array type, at least the output layout's length: no
   * allocation per call), else into a new array.
   */
  execute(input: Float32Array, output?: Float32Array): Promise<Float32Array>;
  execute(input: Float64Array, output?: Float64Array): Promise<Float64Array>;
  execute(input: ComplexArray, output?: ComplexArray): Promise<ComplexArray>;
  /**
   * CPU plans: execute() without a promise, on the calling thread (no worker threads), for callers that cannot
   * wait, such as an AudioWorklet's process(). Same arguments, result and errors as execute(); a single transform
   * that the plan's threads would split runs whole here, so its last bits of rounding may differ. WebGPU plans
   * throw an UnsupportedError (a GPU result can only be read back asynchronously).
   */
  executeSync(input: Float32Array, output?: Float32Array): Float32Array;
  executeSync(input: Float64Array, output?: Float64Array): Float64Array;
  executeSync(input: ComplexArray, output?: ComplexArray): ComplexArray;
  /**
   * Input and output arrays sized for this plan, to fill and pass to execute(buffers.input, buffers.output)
   * call after call. On the CPU engine they live in the engine's own WebAssembly memory, and execute()
   * transforms them where they lie instead of copying each chunk in and out: up to about twice as fast for
   * batches larger than the cache (short and long transforms gain most; mid lengths stream memory at the same
   * rate either way). Where SharedArrayBuffers exist (Node; browsers when the page is cross-origin isolated)
   * the memory is shared and the plan's threads transform their shares of it in place too; elsewhere such calls
   * run on the calling thread. Where that path does not apply (lengths the engine runs by Bluestein, strided or offset layouts, other arrays passed to
   * execute) the same arrays take the ordinary path; WebGPU plans get ordinary arrays. `precision` defaults
   * to the plan's ('f32' where it follows the input); the input is never modified.
   */
  createBuffers(precision: 'f32'): FftBuffers<Float32Array>;
  createBuffers(precision: 'f64'): FftBuffers<Float64Array>;
  createBuffers(precision?: CpuPrecision): FftBuffers<ComplexArray>;
  /** WebGPU only: transform between device buffers (no host round trip). */
  executeGpu(src: GPUBuffer, dst: GPUBuffer): Promise<void>;
  /** WebGPU only: record the transform into a command encoder, to chain with other GPU work. */
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void;
  destroy(): void;
}

/** A plan's input and output arrays (see FftPlan.createBuffers). */
export interface FftBuffers<T extends ComplexArray> {
  readonly input: T;
  readonly output: T;
}

/** Plain arrays of a plan's input and output lengths. */
function plainBuffers(p: FftProblem, precision: CpuPrecision): FftBuffers<ComplexArray> {
  const A = precision === 'f32' ? Float32Array : Float64Array;
  return { input: new A(2 * layoutSpan(p.input, p.n, p.batch)), output: new A(2 * layoutSpan(p.output, p.n, p.batch)) };
}

/** The CPU engine (WebAssembly SIMD), computing in the input's precision unless `precision` is given. */
class CpuPlan implements FftPlan {
  readonly backend = 'cpu' as const;
  private destroyed = false;
  constructor(
    readonly problem: FftProblem,
    private readonly precision?: CpuPrecision,
    private readonly threads?: number,
    /** Threads engine buffers are made for (the `threads` option, or the default resolved at creation). */
    private readonly bufferThreads = 1,
  ) {
    // Validate now (sizes the engine cannot hold are refused at creation); generate and compile up front
    // where that is cheap, so execute() costs only the transform, else at the first execute.
    planCpuEngineFft(problem.n, precision ?? 'f32');
    if (problem.n <= EAGER_PLAN_MAX)
      for (const p of precision ? [precision] : (['f64', 'f32'] as const)) this.engines[p] = engineFft(problem.n, p);
    this.options = {
      inverse: problem.direction === 'inverse',
      norm: problem.norm,
      batch: problem.batch,
      input: problem.input,
      output: problem.output,
    };
  }
  /** The engine plans compiled at creation, held so that calls skip the cache lookup. */
  private readonly engines: Partial<Record<CpuPrecision, EngineFft>> = {};
  /** Every call's engine options (the problem's). */
  private readonly options: EngineExecOptions;
  /** The engine's recipe for the plan's precision (float64 when it follows the input). */
  get recipe(): CpuEngineFftRecipe {
    return planCpuEngineBatchFft(this.problem.n, this.precision ?? 'f64');
  }
  execute(input: Float32Array, output?: Float32Array): Promise<Float32Array>;
  execute(input: Float64Array, output?: Float64Array): Promise<Float64Array>;
  execute(input: ComplexArray, output?: ComplexArray): Promise<ComplexArray>;
  async execute(input: ComplexArray, output?: ComplexArray): Promise<ComplexArray> {
    const { out, precision, options } = this.prepare(input, output);
    const p = this.problem;
    // Calls that run on this thread anyway go straight to the engine (small transforms: no second promise).
    if (runsOnCaller(p.n, precision, p.batch, this.threads)) this.engine(precision).execute(input, out, options);
    else await executeEngineFft(p.n, precision, input, out, options, this.threads);
    return out;
  }
  executeSync(input: Float32Array, output?: Float32Array): Float32Array;
  executeSync(input: Float64Array, output?: Float64Array): Float64Array;
  executeSync(input: ComplexArray, output?: ComplexArray): ComplexArray;
  executeSync(input: ComplexArray, output?: ComplexArray): ComplexArray {
    const { out, precision, options } = this.prepare(input, output);
    this.engine(precision).execute(input, out, options);
    return out;
  }
  /** Checks a call's arrays and resolves its result array, precision and engine options. */
  private prepare(
    input: ComplexArray,
    output: ComplexArray | undefined,
  ): { out: ComplexArray; precision: CpuPrecision; options: EngineExecOptions } {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    const p = this.problem;
    checkInput(input, p);
    const need = 2 * layoutSpan(p.output, p.n, p.batch);
    checkOutput(output, input, need);
    // SharedArrayBuffer-backed input gets a shared result too, so that worker threads write it directly.
    // Gaps between strided output elements stay zero; a dense result is written in full.
    const out = output ?? allocateLike(input, need, need === 2 * p.n * p.batch);
    const precision = this.precision ?? (input instanceof Float32Array ? 'f32' : 'f64');
    return { out, precision, options: this.options };
  }
  /** The engine plan of a precision: kept by the plan for the lengths compiled at creation, else the cached one. */
  private engine(precision: CpuPrecision): EngineFft {
    return this.engines[precision] ?? engineFft(this.problem.n, precision);
  }
  createBuffers(precision: 'f32'): FftBuffers<Float32Array>;
  createBuffers(precision: 'f64'): FftBuffers<Float64Array>;
  createBuffers(precision?: CpuPrecision): FftBuffers<ComplexArray>;
  createBuffers(precision?: CpuPrecision): FftBuffers<ComplexArray> {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    const prec = checkPrecision(precision) ?? this.precision ?? 'f32';
    if (this.precision && prec !== this.precision)
      throw new ArgumentError('precision', precision, `the plan's precision '${this.precision}'`);
    const p = this.problem;
    const plan = engineFft(p.n, prec);
    const packed = (l: ComplexLayout) => l.offset === 0 && l.stride === 1 && l.dist === p.n;
    if (!packed(p.input) || !packed(p.output)) return plainBuffers(p, prec);
    // A single large transform that threads split: the split plan's own regions, where shared memory exists.
    const split = splitBuffersFor(p.n, prec, p.batch, this.bufferThreads);
    if (split) return split;
    if (!plan.createBuffers) return plainBuffers(p, prec);
    const made = plan.createBuffers(p.batch, this.bufferThreads);
    const id = engineBuffersId(made.input);
    if (id !== undefined) this.bufferIds.push(id);
    return made;
  }
  executeGpu(): Promise<void> {
    throw new UnsupportedError('executeGpu: this plan runs on the CPU backend; create it with backend: "webgpu"');
  }
  encode(): void {
    throw new UnsupportedError('encode: this plan runs on the CPU backend; create it with backend: "webgpu"');
  }
  /** Memory ids of the engine buffers this plan made: workers drop their instances on them at destroy(). */
  private readonly bufferIds: number[] = [];
  destroy(): void {
    this.destroyed = true;
    releaseSharedMemories(this.bufferIds);
  }
}

class GpuPlan implements FftPlan {
  readonly backend = 'webgpu' as const;
  constructor(private readonly impl: WebGpuFft) {}
  get problem(): FftProblem {
    return this.impl.problem;
  }
  get recipe(): FftRecipe {
    return this.impl.recipe;
  }
  execute(input: Float32Array, output?: Float32Array): Promise<Float32Array>;
  execute(input: Float64Array, output?: Float64Array): Promise<Float64Array>;
  execute(input: ComplexArray, output?: ComplexArray): Promise<ComplexArray>;
  async execute(input: ComplexArray, output?: ComplexArray): Promise<ComplexArray> {
    checkInput(input, this.problem);
    const r =
      input instanceof Float32Array
        ? await this.impl.run(input)
        : Float64Array.from(await this.impl.run(Float32Array.from(input)));
    if (!output) return r;
    checkOutput(output, input, r.length);
    output.set(r);
    return output;
  }
  createBuffers(precision: 'f32'): FftBuffers<Float32Array>;
  createBuffers(precision: 'f64'): FftBuffers<Float64Array>;
  createBuffers(precision?: CpuPrecision): FftBuffers<ComplexArray>;
  createBuffers(precision?: CpuPrecision): FftBuffers<ComplexArray> {
    return plainBuffers(this.problem, checkPrecision(precision) ?? 'f32');
  }
  executeSync(input: Float32Array, output?: Float32Array): Float32Array;
  executeSync(input: Float64Array, output?: Float64Array): Float64Array;
  executeSync(input: ComplexArray, output?: ComplexArray): ComplexArray;
  executeSync(): ComplexArray {
    throw new UnsupportedError(
      'executeSync: a WebGPU plan reads its result back asynchronously; use execute(), or a plan created with backend: "cpu"',
    );
  }
  executeGpu(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    return this.impl.execute(src, dst);
  }
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void {
    this.impl.encode(encoder, src, dst);
  }
  destroy(): void {
    this.impl.destroy();
  }
}

function checkOutput(output: ComplexArray | undefined, input: ComplexArray, need: number): void {
  if (output === undefined) return;
  if (output.constructor !== input.constructor)
    throw new ArgumentError('output', output, `a ${input.constructor.name}, the input's type`);
  if (output.length < need)
    throw new ArgumentError('output', output, `at least ${need} values for this plan's output layout`);
}

function checkInput(input: unknown, p: FftProblem): asserts input is ComplexArray {
  if (!(input instanceof Float32Array) && !(input instanceof Float64Array)) {
    throw new ArgumentError('input', input, 'a Float32Array or Float64Array of interleaved complex values');
  }
  const need = 2 * layoutSpan(p.input, p.n, p.batch);
  if (input.length < need) {
    throw new ArgumentError(
      'input',
      input,
      `at least ${need} values (${p.batch} × ${p.n} complex, interleaved) for this plan`,
    );
  }
}

function checkPrecision(p: unknown): CpuPrecision | undefined {
  if (p !== undefined && p !== 'f32' && p !== 'f64') throw new ArgumentError('precision', p, "'f32' or 'f64'");
  return p;
}

/** Creates a plan: validate once, plan once, execute many times, destroy. */
export async function createFftPlan(options: FftPlanOptions): Promise<FftPlan> {
  checkOptionNames(options, FFT_PLAN_OPTIONS, 'createFftPlan');
  const problem = fftProblem(options);
  const { output: ol, n, batch } = problem;
  if (!distinctPlaces(ol, n, batch))
    throw new ArgumentError(
      'output',
      `stride ${ol.stride}, dist ${ol.dist}`,
      `a layout whose ${batch} problems of ${n} values write to distinct places`,
    );
  const backend = checkBackend(options.backend ?? 'auto');
  const ctx = await gpuFor(backend, options.gpu);
  const precision = checkPrecision(options.precision);
  const threads = checkThreads(options.threads);
  const cpuPlan = async (): Promise<CpuPlan> => {
    for (const p of precision ? [precision] : (['f32', 'f64'] as const)) await precompileEngine([problem.n], p);
    return new CpuPlan(problem, precision, threads, threads ?? (await defaultThreads()));
  };
  if (!ctx) return cpuPlan();
  try {
    return new GpuPlan(await WebGpuFft.create(ctx, problem, { tuning: options.tuning, inPlace: options.inPlace }));
  } catch (e) {
    if (fallsBack(e, backend)) return cpuPlan();
    throw e;
  }
}

export interface FftCallOptions {
  /** Shape of the array (row-major; complex elements for complex input, reals for real input). Default 1-D. */
  shape?: readonly number[];
  /** Length of the transformed axis (numpy's `n`): input cropped or zero-padded; irfft: output length. */
  n?: number;
  /** Axis to transform (default −1, the last). */
  axis?: number;
  norm?: FftNorm;
  backend?: BackendChoice;
  gpu?: GpuContext;
  /**
   * CPU engine: threads a call may use, the calling thread included (default: the available cores). Batches
   * along the last axis split as for plans (see FftPlanOptions.threads); other axes run on the calling thread.
   */
  threads?: number;
  /**
   * Where to write the result (numpy's `out`): the input's array type and exactly the result's length.
   * Reusing one saves allocating (and first touching) a result per call. May be the input itself.
   */
  out?: ComplexArray;
}

export interface FftNdCallOptions {
  /** Shape of the array (row-major; complex elements for complex input, reals for real input). Default 1-D. */
  shape?: readonly number[];
  /** Transform lengths along `axes` (numpy's `s`; −1 keeps a length); irfftn: output lengths. */
  s?: readonly number[];
  /** Axes to transform (default: all; the last two for the *2 functions). */
  axes?: readonly number[];
  norm?: FftNorm;
  backend?: BackendChoice;
  gpu?: GpuContext;
  /**
   * CPU engine: threads a call may use, the calling thread included (default: the available cores). Batches
   * along the last axis split as for plans (see FftPlanOptions.threads); other axes run on the calling thread.
   */
  threads?: number;
  /**
   * Where to write the result (numpy's `out`): the input's array type and exactly the result's length.
   * Reusing one saves allocating (and first touching) a result per call. May be the input itself.
   */
  out?: ComplexArray;
}

type Kind = 'c2c' | 'r2c' | 'c2r';

/** numpy.fft.fft: complex → complex along one axis. */
export function fft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function fft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function fft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function fft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'fft');
  return fftNow(x, options ?? {}, 'c2c', false) ?? nd(x, oneD(options ?? {}, x), 'c2c', 'forward', 'n');
}
/** numpy.fft.ifft ('backward' norm scales by 1/n). */
export function ifft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function ifft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function ifft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function ifft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'ifft');
  return fftNow(x, options ?? {}, 'c2c', true) ?? nd(x, oneD(options ?? {}, x), 'c2c', 'inverse', 'n');
}
/** numpy.fft.rfft: real → the n/2+1 non-negative-frequency terms (interleaved complex). */
export function rfft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function rfft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function rfft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function rfft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'rfft');
  return fftNow(x, options ?? {}, 'r2c', false) ?? nd(x, oneD(options ?? {}, x, 1), 'r2c', 'forward', 'n');
}
/** numpy.fft.irfft: n/2+1 complex terms → n reals (n defaults to 2·(m − 1)). */
export function irfft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function irfft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function irfft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function irfft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'irfft');
  return fftNow(x, options ?? {}, 'c2r', true) ?? nd(x, oneD(options ?? {}, x, 'c2r'), 'c2r', 'inverse', 'n');
}
export function fft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function fft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function fft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function fft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'fft2');
  return nd(x, last2(options ?? {}), 'c2c', 'forward');
}
export function ifft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function ifft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function ifft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function ifft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'ifft2');
  return nd(x, last2(options ?? {}), 'c2c', 'inverse');
}
export function rfft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function rfft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function rfft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function rfft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'rfft2');
  return nd(x, last2(options ?? {}), 'r2c', 'forward');
}
export function irfft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function irfft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function irfft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function irfft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'irfft2');
  return nd(x, last2(options ?? {}), 'c2r', 'inverse');
}
export function fftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function fftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function fftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function fftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'fftn');
  return nd(x, options ?? {}, 'c2c', 'forward');
}
export function ifftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function ifftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function ifftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function ifftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'ifftn');
  return nd(x, options ?? {}, 'c2c', 'inverse');
}
export function rfftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function rfftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function rfftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function rfftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'rfftn');
  return nd(x, options ?? {}, 'r2c', 'forward');
}
export function irfftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function irfftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function irfftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function irfftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'irfftn');
  return nd(x, options ?? {}, 'c2r', 'inverse');
}

function oneD(o: FftCallOptions, x?: ComplexArray, per: number | 'c2r' = 2): FftNdCallOptions {
  if (o.n !== undefined && (!Number.isSafeInteger(o.n) || o.n < 1))
    throw new ArgumentError('n', o.n, 'a positive integer');
  if (o.shape !== undefined && !Array.isArray(o.shape))
    throw new ArgumentError('shape', o.shape, 'a non-empty array of non-negative integers');
  if (o.axis !== undefined && !Number.isInteger(o.axis)) throw new ArgumentError('axis', o.axis, 'an integer');
  const ndim = o.shape?.length ?? 1;
  if (o.axis !== undefined && (o.axis < -ndim || o.axis >= ndim) && (o.shape || x)) {
    throw new ArgumentError('axis', o.axis, `an axis index in [${-ndim}, ${ndim}) for a ${ndim}-D array`);
  }
  if (per === 'c2r' && o.n === undefined && x) {
    // numpy's default output length 2·(m − 1) is empty for one input value: say which argument fixes it.
    const shape = o.shape ?? [x.length / 2];
    const m = shape[normalizeAxis(o.axis ?? -1, shape.length)];
    if (m === 1) throw new ArgumentError('n', o.n, 'an explicit output length: the default 2·(m − 1) is 0 for m = 1');
  }
  const s = o.n === undefined ? undefined : [o.n];
  return {
    shape: o.shape,
    axes: [o.axis ?? -1],
    s,
    norm: o.norm,
    backend: o.backend,
    gpu: o.gpu,
    threads: o.threads,
    out: o.out,
  };
}

function last2(o: FftNdCallOptions): FftNdCallOptions {
  return o.axes ? o : { ...o, axes: [-2, -1] };
}

/** The shape of the result of an N-D transform (numpy's rules for s, axes and real transforms). */
export function fftnOutputShape(
  kind: Kind,
  shape: readonly number[],
  options: { s?: readonly number[]; axes?: readonly number[] } = {},
): number[] {
  const { s, axes } = resolveAxes(shape, options, kind === 'c2r' ? c2rDefaultLast : undefined);
  const out = [...shape];
  axes.forEach((a, i) => (out[a] = s[i]));
  if (kind === 'r2c') out[axes[axes.length - 1]] = Math.floor(s[s.length - 1] / 2) + 1;
  return out;
}

async function nd(
  x: ComplexArray,
  o: FftNdCallOptions,
  kind: Kind,
  direction: 'forward' | 'inverse',
  /** What the caller named the lengths: 'n' for the 1-D calls (oneD), else 's'. */
  lengthsName: 'n' | 's' = 's',
): Promise<ComplexArray> {
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array)) {
    throw new ArgumentError(
      'x',
      x,
      `a Float32Array or Float64Array of ${kind === 'r2c' ? 'real values' : 'interleaved complex values'}`,
    );
  }
  const per = kind === 'r2c' ? 1 : 2;
  if (per === 2 && x.length % 2 !== 0)
    throw new ArgumentError('x', x, 'an even number of values (interleaved re, im pairs)');
  const shape = o.shape ?? [x.length / per];
  // Empty axes are allowed where numpy allows them: untransformed ones, or transformed ones zero-padded by s / n.
  if (!Array.isArray(shape) || shape.length === 0 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new ArgumentError('shape', shape, 'a non-empty array of non-negative integers');
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (per * count !== x.length) {
    throw new ArgumentError(
      'x',
      x,
      `${per * count} values for shape [${shape.join(', ')}] (${per === 2 ? 'complex, interleaved' : 'real'})`,
    );
  }
  const norm = o.norm ?? 'backward';
  const threads = checkThreads(o.threads);
  if (!['backward', 'ortho', 'forward'].includes(norm))
    throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
  if (Array.isArray(o.axes) && o.axes.length === 0) {
    // numpy and scipy.fft return a copy for a complex transform over no axes; a real one needs an axis.
    if (kind !== 'c2c') throw new ArgumentError('axes', o.axes, 'at least one axis for a real transform');
    if (o.s !== undefined && (!Array.isArray(o.s) || o.s.length !== 0))
      throw new ArgumentError('s', o.s, 'no lengths when axes is empty');
    checkBackend(o.backend ?? 'auto');
    const out = checkOut(o.out, x, x.length);
    return deliver(out && !overlaps(out, x) ? x : x.slice(), x, out);
  }
  const { s, axes } = resolveAxes(shape, o, kind === 'c2r' ? c2rDefaultLast : undefined);
  const requested = checkBackend(o.backend ?? 'auto');
  // 'auto' keeps float64 data on the float64 CPU backend (WGSL has no f64); 'webgpu' computes it in f32.
  const backend = requested === 'auto' && x instanceof Float64Array ? 'cpu' : requested;
  const outShape = fftnOutputShape(kind, shape, { s, axes });
  const outLength = (kind === 'c2r' ? 1 : 2) * outShape.reduce((a, b) => a * b, 1);
  // The result, and the input cropped or zero-padded to s, each live in one typed array: refuse lengths past that
  // here, with the argument named, rather than as a RangeError from an allocation.
  const padded = [...shape];
  axes.forEach((a, i) => (padded[a] = kind === 'c2r' && i === axes.length - 1 ? Math.floor(s[i] / 2) + 1 : s[i]));
  const paddedLength = per * padded.reduce((p, d) => p * d, 1);
  if (!(Math.max(outLength, paddedLength) <= MAX_TYPED_ARRAY_LENGTH)) {
    const given = lengthsName === 'n' ? s[0] : s;
    throw new ArgumentError(lengthsName, given, `lengths whose arrays fit one typed array (at most 2^32 values)`);
  }
  const out = checkOut(o.out, x, outLength);
  // No input values: the result is all zeros (an empty batch, or empty axes zero-padded), as numpy's.
  if (count === 0) return deliver(new (x instanceof Float32Array ? Float32Array : Float64Array)(outLength), x, out);
  const cpu = async (): Promise<ComplexArray> => {
    const direct = await cpuLastAxis(x, shape, s, axes, kind, direction, norm, out, threads);
    if (direct) return direct;
    const plane = await cpuLastTwoAxes(x, shape, s, axes, kind, direction, norm, out, threads);
    if (plane) return plane;
    const along =
      (await cpuRealAlongAxes(x, shape, s, axes, kind, norm, out, threads)) ??
      (await cpuComplexAxesThreaded(x, shape, s, axes, kind, direction, norm, out, threads));
    if (along) return along;
    const f =
      kind === 'r2c'
        ? cpuNd.rfftn
        : kind === 'c2r'
          ? cpuNd.irfftn
          : (x: ComplexArray, sh: readonly number[], o: cpuNd.FftNdOptions) =>
              // The first axis transformed writes straight into `out` where it can (no result copy).
              cpuNd.c2cN(x, sh, o, direction === 'inverse', out && !overlaps(out, x) ? out : undefined);
    // The CPU engine computes in the input's precision; every FFT the N-D driver plans runs on it.
    const precision = x instanceof Float32Array ? 'f32' : 'f64';
    await compileNdColumnsAhead(kind, shape, { s, axes }, precision);
    const r = onCpuEngine(precision, () => f(x, shape, { s, axes, norm }));
    return deliver(r.data, x, out);
  };
  const ctx = await gpuFor(backend, o.gpu);
  if (!ctx) {
    await precompileEngine([...s, ...s.map((v) => Math.floor(v / 2))], x instanceof Float32Array ? 'f32' : 'f64');
    return cpu();
  }
  // Crop / zero-pad every transformed axis up front (it commutes with the transforms along other axes).
  let data: Float64Array | null = null;
  let cur = [...shape];
  axes.forEach((a, i) => {
    const want = kind === 'c2r' && i === axes.length - 1 ? Math.floor(s[i] / 2) + 1 : s[i];
    if (cur[a] !== want) {
      const r = cpuNd.resizeAxis(data ?? Float64Array.from(x), cur, a, want, per);
      data = r.data;
      cur = r.shape;
    }
  });
  const input = data ? Float32Array.from(data) : x instanceof Float32Array ? x : Float32Array.from(x);
  const planShape = kind === 'c2r' ? cur.map((v, i) => (i === axes[axes.length - 1] ? s[s.length - 1] : v)) : cur;
  let plan: WebGpuFftNd;
  try {
    plan = await WebGpuFftNd.create(ctx, { shape: planShape, axes, kind, direction, norm });
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

/**
 * C2C, R2C or C2R over the last two axes on the CPU engine with no crop or pad (fft2 / rfft2 / irfft2 of arrays
 * or of a stack of them): the engine's 2-D path (src/backends/cpu/fft-2d.ts) in the input's precision, or null
 * where it has no recipe.
 */
async function cpuLastTwoAxes(
  x: ComplexArray,
  shape: readonly number[],
  s: readonly number[],
  axes: readonly number[],
  kind: Kind,
  direction: 'forward' | 'inverse',
  norm: FftNorm,
  out: ComplexArray | undefined,
  threads: number | undefined,
): Promise<ComplexArray | null> {
  const d = shape.length;
  if (!WASM_SIMD || d < 2 || axes.length < 2 || new Set(axes).size !== axes.length) return null;
  // Complex transforms commute: the last two axes here, any others (fftn of volumes) by the N-D driver after.
  // Real transforms need exactly the last two or three, the last one last (it is the real one).
  const rest = axes.filter((a) => a < d - 2);
  const realAxes =
    axes[axes.length - 1] === d - 1 &&
    (axes.length === 2 ? axes[0] === d - 2 : axes.length === 3 && rest.length === 1 && rest[0] === d - 3);
  if (kind === 'c2c' ? axes.length - rest.length !== 2 : !realAxes) return null;
  const rows = shape[d - 2]!;
  const last = kind === 'c2c' ? shape[d - 1]! : s[s.length - 1]!; // complex columns, or the real length
  // No crop or pad: the lengths are the input's (c2r: n/2 + 1 complex inputs for n real outputs).
  if (axes.some((a, i) => (kind === 'c2r' && a === d - 1 ? Math.floor(s[i]! / 2) + 1 : s[i]) !== shape[a])) return null;
  const precision = x instanceof Float32Array ? 'f32' : 'f64';
  const t = await planeThreads(threads);
  // A volume's third axis joins the engine where it is the one before the last two (fftn / rfftn over three axes).
  const volume = rest.length === 1 && rest[0] === d - 3;
  const recipe =
    (volume
      ? (kind === 'c2c' ? planCpuEngineFft3 : planCpuEngineRfft3)(shape[d - 3]!, rows, last, precision, t)
      : null) ??
    (kind === 'c2c' ? planCpuEngineFft2(rows, last, precision, t) : planCpuEngineRfft2(rows, last, precision, t));
  // Real transforms over three axes need the volume recipe (the N-D driver otherwise).
  if (!recipe || (kind !== 'c2c' && axes.length === 3 && !recipe.depth)) return null;
  const others = recipe.depth ? [] : rest;
  let engine;
  try {
    if (syncCompileRestricted()) await precompileFft2(recipe);
    engine = fft2Engine(recipe);
  } catch (e) {
    // A module this thread may not compile synchronously (a browser's main thread): the N-D driver instead.
    if (e instanceof RangeError || e instanceof SyncCompileRefused) return null;
    throw e;
  }
  const count = shape.slice(0, recipe.depth ? -3 : -2).reduce((a, b) => a * b, 1);
  const inverse = direction === 'inverse';
  const [, outLen] = engine.lengths(inverse);
  const Arr = x instanceof Float32Array ? Float32Array : Float64Array;
  const into = out && !overlaps(out, x) ? out : undefined;
  const dst = into && others.length === 0 ? into : filledResult(Arr, outLen * count);
  const size = rows * last * (recipe.depth?.n ?? 1);
  await engine.execute(x, dst, count, inverse, normScale(size, norm, inverse), runPlaneSteps);
  if (others.length === 0) return deliver(dst, x, out);
  // The other axes on the engine, in the input's precision, norms multiplying to numpy's over all axes.
  const r = onCpuEngine(precision, () => cpuNd.c2cN(dst, shape, { axes: others, norm }, inverse, into));
  return deliver(r.data, x, out);
}

/**
 * The common case on the CPU engine, a C2C, R2C or C2R along the last axis with no crop or pad: straight
 * from the caller's array into a result of its type, without the N-D driver's float64 copies.
 */
async function cpuLastAxis(
  x: ComplexArray,
  shape: readonly number[],
  s: readonly number[],
  axes: readonly number[],
  kind: Kind,
  direction: 'forward' | 'inverse',
  norm: FftNorm,
  out: ComplexArray | undefined,
  threads: number | undefined,
): Promise<ComplexArray | null> {
  const n = shape[shape.length - 1]!;
  if (axes.length !== 1 || axes[0] !== shape.length - 1) return null;
  const batch = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  const precision = x instanceof Float32Array ? 'f32' : 'f64';
  const Arr = x instanceof Float32Array ? Float32Array : Float64Array;
  // n here counts complex inputs for c2r; its output length s[0] must use exactly them (no crop or pad).
  if (kind === 'c2r' ? n !== Math.floor(s[0] / 2) + 1 : s[0] !== n) return null;
  // Values per row of the result: n complex (c2c), s[0] reals (c2r), n/2+1 complex (r2c).
  const perRow = kind === 'c2c' ? 2 * n : kind === 'c2r' ? s[0] : 2 * (Math.floor(n / 2) + 1);
  // Straight into the caller's `out` unless it overlaps the input (rows of other lengths would clobber it).
  const dst = out && !overlaps(out, x) ? out : filledResult(Arr, perRow * batch);
  if (kind === 'c2c') {
    await executeEngineFft(n, precision, x, dst, { batch, inverse: direction === 'inverse', norm }, threads);
  } else {
    const op = { kind: kind === 'r2c' ? 'rfft' : 'irfft', n: s[0], precision, norm } as const;
    await executeEngineRows(op, x, dst, batch, threads);
  }
  return deliver(dst, x, out);
}

/**
 * A real transform (r2c or c2r) over any axes on the CPU engine with no crop or pad: the real axis as rows of the
 * engine's real FFT, transposed innermost where it is not the last axis (axis-transpose.ts), and the complex axes
 * (after the real axis for r2c, before it for c2r, as numpy) as one block where they are consecutive, else through
 * the N-D driver's engine column passes; null for c2c and where an axis is cropped or padded.
 */
async function cpuRealAlongAxes(
  x: ComplexArray,
  shape: readonly number[],
  s: readonly number[],
  axes: readonly number[],
  kind: Kind,
  norm: FftNorm,
  out: ComplexArray | undefined,
  threads: number | undefined,
): Promise<ComplexArray | null> {
  if (kind === 'c2c') return null;
  const last = axes.length - 1;
  for (let i = 0; i <= last; i++) {
    const len = shape[axes[i]!]!;
    if (kind === 'c2r' && i === last ? len !== Math.floor(s[i]! / 2) + 1 : s[i] !== len) return null;
  }
  const precision = x instanceof Float32Array ? 'f32' : 'f64';
  const inverse = kind === 'c2r';
  const [axis, n] = [axes[last]!, s[last]!];
  const half = Math.floor(n / 2) + 1;
  const op = { kind: inverse ? 'irfft' : 'rfft', n, precision, norm } as const;
  const rows = (input: ComplexArray, output: ComplexArray, count: number) =>
    executeEngineRows(op, input, output, count, threads);
  // Along a non-last axis, pairs of real columns as complex ones where the column module applies (no transposes).
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const pairs =
    inner > 1 && WASM_SIMD ? planCpuEngineRealColumns(n, inner, precision, await planeThreads(threads)) : null;
  const engine = pairs && (await columnsAxisEngineAhead(pairs));
  const scale = normScale(n, norm, inverse);
  const columns = engine
    ? {
        columns: (input: ComplexArray, output: ComplexArray, outer: number) =>
          engine.run(input, output, outer, inverse, scale, 1, runColumnSteps),
      }
    : {};
  const real: AxisStep = inverse
    ? { axis, nIn: half, nOut: n, inPer: 2, outPer: 1, rows, ...columns }
    : { axis, nIn: n, nOut: half, inPer: 1, outPer: 2, rows, ...columns };
  const others = axes.slice(0, last);
  // The complex axes' column modules (the reference step below runs the N-D driver on the complex shape).
  if (others.length > 0) {
    const complexShape = shape.map((d, a) => (a === axis && !inverse ? half : d));
    await compileNdColumnsAhead('c2c', complexShape, { axes: others, s: others.map((a) => shape[a]!) }, precision);
  }
  const complex: AxisStep = {
    axis: others[0] ?? axis,
    reference: (data, sh) =>
      onCpuEngine(precision, () => cpuNd.c2cN(data, sh, { axes: others, s: others.map((a) => sh[a]!), norm }, inverse)),
  };
  // Consecutive complex axes: one step of their block as rows, which the N-D call below runs on the engine's
  // 2-D path where there are two (rfftn of a volume: its planes of the first two axes).
  const block = others.length > 1 && others.every((a, i) => i === 0 || a === others[i - 1]! + 1);
  const dims = others.map((a) => shape[a]!);
  const blockStep: AxisStep = {
    axis: others[0] ?? axis,
    span: others.length,
    nIn: dims.reduce((p, v) => p * v, 1),
    nOut: dims.reduce((p, v) => p * v, 1),
    inPer: 2,
    outPer: 2,
    rows: async (input: ComplexArray, output: ComplexArray, count: number) => {
      const o = {
        shape: [count, ...dims],
        axes: dims.map((_, j) => j + 1),
        norm,
        out: output,
        backend: 'cpu',
        threads,
      };
      await nd(input, o as FftNdCallOptions, 'c2c', inverse ? 'inverse' : 'forward');
    },
  };
  const c = block ? blockStep : complex;
  const steps = others.length === 0 ? [real] : inverse ? [c, real] : [real, c];
  return deliver(await transformAlongAxes(x, shape, steps, out && !overlaps(out, x) ? out : undefined), x, out);
}

/**
 * The column modules the N-D driver's complex axes will compile (fft-nd.ts columnsEngineOf), compiled ahead where this
 * thread may not compile them in place; nothing elsewhere.
 */
async function compileNdColumnsAhead(
  kind: Kind,
  shape: readonly number[],
  o: cpuNd.FftNdOptions,
  precision: CpuPrecision,
): Promise<void> {
  if (!syncCompileRestricted()) return;
  for (const r of cpuNd.columnsRecipesAhead(kind, shape, o, precision)) await precompileColumns(r);
}

/**
 * A C2C over one non-last axis or several axes with no crop or pad, with threads, where the 2-D engine does not take
 * it (odd widths, other axis sets): the N-D driver's steps in its order (last axis first), each on threads where it
 * plans them: the engine's rows for the last axis, the column module (split from COLUMNS_SPLIT_FROM_BYTES) for the
 * others. The kernels and scales are the driver's, so results equal one thread's. Null on one thread, or where an
 * axis has no column recipe (the N-D driver instead, all on the calling thread).
 */
async function cpuComplexAxesThreaded(
  x: ComplexArray,
  shape: readonly number[],
  s: readonly number[],
  axes: readonly number[],
  kind: Kind,
  direction: 'forward' | 'inverse',
  norm: FftNorm,
  out: ComplexArray | undefined,
  threads: number | undefined,
): Promise<ComplexArray | null> {
  if (kind !== 'c2c' || !WASM_SIMD || axes.some((a, i) => s[i] !== shape[a])) return null;
  const t = await planeThreads(threads);
  if (t <= 1) return null;
  const precision = x instanceof Float32Array ? 'f32' : 'f64';
  const inverse = direction === 'inverse';
  const steps: { len: number; outer: number; engine: Awaited<ReturnType<typeof columnsAxisEngineAhead>> }[] = [];
  for (let i = axes.length - 1; i >= 0; i--) {
    const { outer, len, inner } = cpuNd.axisGeometry(shape, axes[i]!);
    if (inner === 1) {
      steps.push({ len, outer, engine: null });
      continue;
    }
    const recipe = planCpuEngineColumns(len, inner, precision, t);
    const engine = recipe && (await columnsAxisEngineAhead(recipe));
    if (!engine) return null;
    steps.push({ len, outer, engine });
  }
  const dst =
    out && !overlaps(out, x) ? out : filledResult(x instanceof Float32Array ? Float32Array : Float64Array, x.length);
  let src = x;
  for (const { len, outer, engine } of steps) {
    if (engine) await engine.run(src, dst, outer, inverse, normScale(len, norm, inverse), 1, runColumnSteps);
    else await executeEngineFft(len, precision, src, dst, { batch: outer, inverse, norm }, threads);
    src = dst;
  }
  return deliver(dst, x, out);
}

export interface FftNdPlanOptions {
  /** c2c: the complex array's shape; r2c: the real input's shape; c2r: the real output's shape. */
  shape: readonly number[];
  axes?: readonly number[];
  kind?: 'c2c' | 'r2c' | 'c2r';
  direction?: 'forward' | 'inverse';
  norm?: FftNorm;
  gpu?: GpuContext;
}

/**
 * A device-resident N-D plan (WebGPU only): `encode(encoder, src, dst)` / `execute(src, dst)` on
 * GPUBuffers for chaining with other GPU work, or `run(Float32Array)`; real (f32) and interleaved complex
 * buffers as for rfftn / irfftn / fftn. Sizes: `inputBytes`, `outputBytes`. Call `destroy()` when done.
 */
export async function createFftNdPlan(options: FftNdPlanOptions): Promise<WebGpuFftNd> {
  const ctx = await gpuFor('webgpu', options.gpu);
  return WebGpuFftNd.create(ctx!, options);
}
