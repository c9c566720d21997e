/**
 * WebGPU executor for FFT recipes: owns the pipeline, the twiddle table and the uniforms of one plan, and
 * encodes dispatches against caller-provided buffers (so transforms chain on the device without host
 * round trips).
 *
 * Batches larger than one storage binding are split into chunks: each chunk binds an aligned window of
 * the buffer and carries the remainder of its offset in the uniforms. Workgroup counts beyond
 * maxComputeWorkgroupsPerDimension use a 2-D grid.
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import type { FftProblem } from '../../planner/fft-problem.js';
import { layoutSpan, normScale } from '../../planner/fft-problem.js';
import type { WorkgroupFftRecipe } from '../../planner/fft-recipe.js';
import { planWorkgroupFft, type WorkgroupPlanOptions } from '../../planner/fft-workgroup.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import { FFT_PARAMS_BYTES, generateWorkgroupFft, type FftKernelSource } from '../../codegen/fft-stockham-workgroup.js';
import { dispatchGrid, getPipeline } from './pipelines.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';

const BYTES = 8; // complex64

interface Chunk {
  firstProblem: number;
  problems: number;
  inByteOffset: number;
  inByteSize: number;
  outByteOffset: number;
  outByteSize: number;
  grid: [number, number];
  params: GPUBuffer;
}

export interface WebGpuFftOptions extends WorkgroupPlanOptions {
  /** Source and destination are the same buffer (requires identical input and output layouts). */
  inPlace?: boolean;
  /**
   * Lower the binding and dispatch limits used to split the work (never above the device's). Lets tests
   * exercise multi-binding chunks and 2-D grids with small data.
   */
  splitLimits?: { maxStorageBufferBindingSize?: number; maxComputeWorkgroupsPerDimension?: number };
}

export class WebGpuFft {
  private destroyed = false;
  private readonly bindGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, GPUBindGroup[]>>();

  private constructor(
    readonly ctx: GpuContext,
    readonly problem: FftProblem,
    readonly recipe: WorkgroupFftRecipe,
    readonly kernel: FftKernelSource,
    private readonly pipeline: GPUComputePipeline,
    private readonly twiddles: GPUBuffer | null,
    private readonly chunks: Chunk[],
    readonly inPlace: boolean,
  ) {}

  static async create(ctx: GpuContext, problem: FftProblem, options: WebGpuFftOptions = {}): Promise<WebGpuFft> {
    ctx.assertUsable('createFftPlan');
    const recipe = planWorkgroupFft(problem.n, problem.batch, ctx.limits, options);
    const inPlace = options.inPlace ?? false;
    if (inPlace && JSON.stringify(problem.input) !== JSON.stringify(problem.output)) {
      throw new ArgumentError('output', problem.output, 'the same layout as input for an in-place transform');
    }
    const kernel = generateWorkgroupFft(recipe, {
      direction: problem.direction,
      scale: normScale(problem.n, problem.direction, problem.norm),
      inPlace,
    });
    const pipeline = await getPipeline(ctx, kernel);
    const twiddles = kernel.bindings.includes('twiddles')
      ? createStorageBuffer(ctx, twiddleTable32(problem.n), `twiddles${problem.n}`)
      : null;
    const chunks = planChunks(ctx, problem, recipe, options.splitLimits ?? {});
    return new WebGpuFft(ctx, problem, recipe, kernel, pipeline, twiddles, chunks, inPlace);
  }

  /** Number of dispatches (binding windows) the batch is split into. */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** The dispatch grid of each chunk. */
  get grids(): [number, number][] {
    return this.chunks.map((c) => c.grid);
  }

  /** Bytes a source buffer must hold for this plan's layout. */
  get inputBytes(): number {
    return layoutSpan(this.problem.input, this.problem.n, this.problem.batch) * BYTES;
  }

  get outputBytes(): number {
    return layoutSpan(this.problem.output, this.problem.n, this.problem.batch) * BYTES;
  }

  /** Records the transform into `encoder`: one compute pass per binding chunk. */
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer, passDescriptor?: GPUComputePassDescriptor): void {
    this.assertUsable();
    if (this.inPlace && src !== dst) throw new ArgumentError('dst', 'another buffer', 'the source buffer (plan is in place)');
    if (!this.inPlace && src === dst) throw new ArgumentError('dst', 'the source buffer', 'a different buffer (plan is out of place; create it with inPlace: true)');
    if (src.size < this.inputBytes) throw new ArgumentError('src', `GPUBuffer of ${src.size} bytes`, `at least ${this.inputBytes} bytes`);
    if (dst.size < this.outputBytes) throw new ArgumentError('dst', `GPUBuffer of ${dst.size} bytes`, `at least ${this.outputBytes} bytes`);
    const groups = this.bindGroupsFor(src, dst);
    const pass = encoder.beginComputePass(passDescriptor);
    pass.setPipeline(this.pipeline);
    this.chunks.forEach((c, i) => {
      pass.setBindGroup(0, groups[i]);
      pass.dispatchWorkgroups(c.grid[0], c.grid[1]);
    });
    pass.end();
  }

  /** Encodes, submits and waits for completion; WebGPU errors surface as DeviceError. */
  async execute(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    await this.ctx.checked(this.kernel.name, () => {
      const enc = this.ctx.device.createCommandEncoder();
      this.encode(enc, src, dst);
      this.ctx.device.queue.submit([enc.finish()]);
    });
    await this.ctx.device.queue.onSubmittedWorkDone();
  }

  /** Convenience: typed array in (interleaved complex, the input layout), typed array out. */
  async run(input: Float32Array): Promise<Float32Array> {
    this.assertUsable();
    const inElems = layoutSpan(this.problem.input, this.problem.n, this.problem.batch);
    if (input.length < 2 * inElems) {
      throw new ArgumentError('input', input, `a Float32Array of at least ${2 * inElems} values (interleaved complex)`);
    }
    const src = createStorageBuffer(this.ctx, input.subarray(0, 2 * inElems), 'fft-input');
    const dst = this.inPlace ? src : createStorageBuffer(this.ctx, this.outputBytes, 'fft-output');
    try {
      await this.execute(src, dst);
      return new Float32Array(await readBuffer(this.ctx, dst, 0, this.outputBytes));
    } finally {
      src.destroy();
      if (dst !== src) dst.destroy();
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.twiddles?.destroy();
    for (const c of this.chunks) c.params.destroy();
  }

  private assertUsable(): void {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    this.ctx.assertUsable(this.kernel.name);
  }

  private bindGroupsFor(src: GPUBuffer, dst: GPUBuffer): GPUBindGroup[] {
    let inner = this.bindGroups.get(src);
    if (!inner) {
      inner = new WeakMap();
      this.bindGroups.set(src, inner);
    }
    let groups = inner.get(dst);
    if (!groups) {
      const layout = this.pipeline.getBindGroupLayout(0);
      groups = this.chunks.map((c) => {
        const entries: GPUBindGroupEntry[] = [];
        for (const b of this.kernel.bindings) {
          if (b === 'src' || b === 'data') {
            const size = this.inPlace ? Math.max(c.inByteSize, c.outByteSize) : c.inByteSize;
            entries.push({ binding: 0, resource: { buffer: src, offset: c.inByteOffset, size } });
          } else if (b === 'dst') entries.push({ binding: 1, resource: { buffer: dst, offset: c.outByteOffset, size: c.outByteSize } });
          else if (b === 'twiddles') entries.push({ binding: 2, resource: { buffer: this.twiddles! } });
          else entries.push({ binding: 3, resource: { buffer: c.params } });
        }
        return this.ctx.device.createBindGroup({ layout, entries, label: this.kernel.name });
      });
      inner.set(dst, groups);
    }
    return groups;
  }
}

/** Splits the batch so each dispatch's bindings fit maxStorageBufferBindingSize. */
function planChunks(
  ctx: GpuContext,
  problem: FftProblem,
  recipe: WorkgroupFftRecipe,
  lower: NonNullable<WebGpuFftOptions['splitLimits']>,
): Chunk[] {
  const { n, batch, input, output } = problem;
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, lower.maxStorageBufferBindingSize ?? Infinity);
  const maxDim = Math.min(ctx.limits.maxComputeWorkgroupsPerDimension, lower.maxComputeWorkgroupsPerDimension ?? Infinity);
  const align = ctx.limits.minStorageBufferOffsetAlignment;
  const oneIn = ((n - 1) * input.stride + 1) * BYTES;
  const oneOut = ((n - 1) * output.stride + 1) * BYTES;
  const room = maxBinding - align; // worst-case misalignment of a window start
  if (oneIn > room || oneOut > room) {
    throw new DeviceLimitError('maxStorageBufferBindingSize', Math.max(oneIn, oneOut) + align, maxBinding, `one problem of n = ${n}`);
  }
  const fit = (one: number, dist: number) => (dist === 0 ? batch : Math.floor((room - one) / (dist * BYTES)) + 1);
  const perChunk = Math.max(1, Math.min(batch, fit(oneIn, input.dist), fit(oneOut, output.dist)));
  const chunks: Chunk[] = [];
  for (let first = 0; first < batch; first += perChunk) {
    const problems = Math.min(perChunk, batch - first);
    const inStart = (input.offset + first * input.dist) * BYTES;
    const outStart = (output.offset + first * output.dist) * BYTES;
    const inAligned = Math.floor(inStart / align) * align;
    const outAligned = Math.floor(outStart / align) * align;
    const inSpan = layoutSpan({ offset: 0, stride: input.stride, dist: input.dist }, n, problems) * BYTES;
    const outSpan = layoutSpan({ offset: 0, stride: output.stride, dist: output.dist }, n, problems) * BYTES;
    const workgroups = Math.ceil(problems / recipe.problemsPerWorkgroup);
    const grid = dispatchGrid(workgroups, maxDim);
    const params = ctx.device.createBuffer({
      size: FFT_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'fft-params',
    });
    ctx.device.queue.writeBuffer(
      params,
      0,
      new Uint32Array([
        problems,
        grid[0],
        (inStart - inAligned) / BYTES,
        input.stride,
        input.dist,
        (outStart - outAligned) / BYTES,
        output.stride,
        output.dist,
      ]),
    );
    chunks.push({
      firstProblem: first,
      problems,
      inByteOffset: inAligned,
      inByteSize: inSpan + (inStart - inAligned),
      outByteOffset: outAligned,
      outByteSize: outSpan + (outStart - outAligned),
      grid,
      params,
    });
  }
  return chunks;
}
