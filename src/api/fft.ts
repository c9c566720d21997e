/**
 * Public FFT API (first cut): plans for repeated use, and numpy-like `fft` / `ifft` over the last axis.
 *
 * Layout: complex data is interleaved (re, im) in a Float32Array (WebGPU, f32) or Float64Array (CPU,
 * f64). Results have the input's array type. Backend 'auto' runs Float32Array on WebGPU when an adapter
 * exists (falling back to the CPU for lengths the GPU planner does not handle yet) and Float64Array on
 * the CPU, since WGSL has no f64.
 */
import { ArgumentError, DestroyedError, UnsupportedError, ButterflyError } from '../errors.js';
import { defaultGpuContext, type GpuContext } from '../backends/webgpu/device.js';
import { WebGpuFft } from '../backends/webgpu/fft.js';
import { planCpuFft, type CpuFftRecipe } from '../backends/cpu/fft-plan.js';
import { fftProblem, layoutSpan, type FftNorm, type FftProblem, type FftProblemInit } from '../planner/fft-problem.js';
import type { FftRecipe } from '../planner/fft-recipe.js';
import type { WorkgroupPlanOptions } from '../planner/fft-workgroup.js';

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';
export type ComplexArray = Float32Array | Float64Array;

export interface FftPlanOptions extends FftProblemInit {
  backend?: BackendChoice;
  /** GPU context to use (default: the shared one from defaultGpuContext()). */
  gpu?: GpuContext;
  /** WebGPU: transform in place (src === dst). */
  inPlace?: boolean;
  /** Planner overrides (WebGPU), e.g. { maxRadix: 8 }. */
  planner?: WorkgroupPlanOptions;
}

export interface FftPlan {
  readonly backend: 'webgpu' | 'cpu';
  readonly problem: FftProblem;
  /** The planner's recipe: a WorkgroupFftRecipe on WebGPU, a CPU recipe (mixed radix / Bluestein) on the CPU. */
  readonly recipe: FftRecipe | CpuFftRecipe;
  /** Transforms interleaved complex data laid out as the problem's input layout; returns the output layout. */
  execute(input: ComplexArray): Promise<ComplexArray>;
  /** WebGPU only: transform between device buffers (no host round trip). */
  executeGpu(src: GPUBuffer, dst: GPUBuffer): Promise<void>;
  /** WebGPU only: record the transform into a command encoder, to chain with other GPU work. */
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void;
  destroy(): void;
}

class CpuPlan implements FftPlan {
  readonly backend = 'cpu' as const;
  private destroyed = false;
  readonly recipe: CpuFftRecipe;
  private readonly impl;
  constructor(readonly problem: FftProblem) {
    this.impl = planCpuFft(problem.n);
    this.recipe = this.impl.recipe;
  }
  async execute(input: ComplexArray): Promise<ComplexArray> {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    const p = this.problem;
    checkInput(input, p);
    const out = new (input instanceof Float32Array ? Float32Array : Float64Array)(2 * layoutSpan(p.output, p.n, p.batch));
    this.impl.execute(input, out, {
      inverse: p.direction === 'inverse',
      norm: p.norm,
      batch: p.batch,
      input: p.input,
      output: p.output,
    });
    return out;
  }
  executeGpu(): Promise<void> {
    throw new UnsupportedError('executeGpu: this plan runs on the CPU backend; create it with backend: "webgpu"');
  }
  encode(): void {
    throw new UnsupportedError('encode: this plan runs on the CPU backend; create it with backend: "webgpu"');
  }
  destroy(): void {
    this.destroyed = true;
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
  async execute(input: ComplexArray): Promise<ComplexArray> {
    checkInput(input, this.problem);
    if (input instanceof Float32Array) return this.impl.run(input);
    return Float64Array.from(await this.impl.run(Float32Array.from(input)));
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

function checkInput(input: unknown, p: FftProblem): asserts input is ComplexArray {
  if (!(input instanceof Float32Array) && !(input instanceof Float64Array)) {
    throw new ArgumentError('input', input, 'a Float32Array or Float64Array of interleaved complex values');
  }
  const need = 2 * layoutSpan(p.input, p.n, p.batch);
  if (input.length < need) {
    throw new ArgumentError('input', input, `at least ${need} values (${p.batch} × ${p.n} complex, interleaved) for this plan`);
  }
}

/** Creates a plan: validate once, plan once, execute many times, destroy. */
export async function createFftPlan(options: FftPlanOptions): Promise<FftPlan> {
  const problem = fftProblem(options);
  const backend = options.backend ?? 'auto';
  if (backend !== 'auto' && backend !== 'webgpu' && backend !== 'cpu') {
    throw new ArgumentError('backend', backend, "'auto', 'webgpu' or 'cpu'");
  }
  if (backend === 'cpu') return new CpuPlan(problem);
  let ctx: GpuContext | null = options.gpu ?? null;
  if (!ctx) {
    try {
      ctx = await defaultGpuContext();
    } catch (e) {
      if (backend === 'webgpu') throw e;
      return new CpuPlan(problem);
    }
  }
  try {
    return new GpuPlan(await WebGpuFft.create(ctx, problem, { ...options.planner, inPlace: options.inPlace }));
  } catch (e) {
    // 'auto' falls back to the CPU for sizes the GPU planner does not handle yet; errors about the
    // caller's arguments are never swallowed.
    if (backend === 'auto' && e instanceof ButterflyError && !(e instanceof ArgumentError)) return new CpuPlan(problem);
    throw e;
  }
}

export interface FftCallOptions {
  /** Shape of the complex array (row-major); the transform runs over the last axis. Default [length/2]. */
  shape?: readonly number[];
  /** Length of the transformed axis: the input is cropped or zero-padded to it (numpy's `n`). */
  n?: number;
  /** Only the last axis (-1) is supported in this version. */
  axis?: number;
  norm?: FftNorm;
  backend?: BackendChoice;
  gpu?: GpuContext;
}

/** Discrete Fourier transform over the last axis of an interleaved complex array (numpy.fft.fft). */
export function fft(x: ComplexArray, options: FftCallOptions = {}): Promise<ComplexArray> {
  return transform(x, options, 'forward');
}

/** Inverse transform over the last axis (numpy.fft.ifft; 'backward' norm scales by 1/n). */
export function ifft(x: ComplexArray, options: FftCallOptions = {}): Promise<ComplexArray> {
  return transform(x, options, 'inverse');
}

async function transform(x: ComplexArray, options: FftCallOptions, direction: 'forward' | 'inverse'): Promise<ComplexArray> {
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array)) {
    throw new ArgumentError('x', x, 'a Float32Array or Float64Array of interleaved complex values');
  }
  if (x.length % 2 !== 0) throw new ArgumentError('x', x, 'an even number of values (interleaved re, im pairs)');
  const shape = options.shape ?? [x.length / 2];
  if (!Array.isArray(shape) || shape.length === 0 || !shape.every((d) => Number.isSafeInteger(d) && d >= 1)) {
    throw new ArgumentError('shape', shape, 'a non-empty array of positive integers');
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (2 * count !== x.length) throw new ArgumentError('x', x, `${2 * count} values for shape [${shape.join(', ')}] (complex, interleaved)`);
  const axis = options.axis ?? -1;
  if (axis !== -1 && axis !== shape.length - 1) {
    throw new UnsupportedError(`axis = ${axis}: this version transforms the last axis only; transpose the data or use axis -1`);
  }
  const len = shape[shape.length - 1];
  const n = options.n ?? len;
  if (!Number.isSafeInteger(n) || n < 1) throw new ArgumentError('n', n, 'a positive integer');
  const batch = count / len;
  let input: ComplexArray = x;
  if (n !== len) {
    // numpy semantics: crop or zero-pad the transformed axis.
    input = new (x instanceof Float32Array ? Float32Array : Float64Array)(2 * n * batch);
    const keep = Math.min(n, len);
    for (let b = 0; b < batch; b++) input.set(x.subarray(2 * b * len, 2 * (b * len + keep)), 2 * b * n);
  }
  const backend = options.backend ?? (x instanceof Float64Array ? 'cpu' : 'auto');
  const plan = await createFftPlan({ n, batch, direction, norm: options.norm, backend, gpu: options.gpu });
  try {
    return await plan.execute(input);
  } finally {
    plan.destroy();
  }
}
