/**
 * WebGPU executor for FFT recipes: owns each pass's pipeline, twiddle tables, uniforms and scratch
 * buffers, and encodes dispatches against caller-provided buffers (so transforms chain on the device
 * without host round trips).
 *
 * Batches larger than one storage binding are split into chunks: each chunk binds an aligned window of
 * the buffer and carries the remainder of its offset in the uniforms. Workgroup counts beyond
 * maxComputeWorkgroupsPerDimension use a 2-D grid. Multi-pass transforms ping-pong through scratch
 * buffers so that the last pass lands in the destination.
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import type { ComplexLayout, FftProblem } from '../../planner/fft-problem.js';
import { layoutSpan, normScale } from '../../planner/fft-problem.js';
import type { FftRecipe, WorkgroupFftRecipe } from '../../planner/fft-recipe.js';
import type { WorkgroupPlanOptions } from '../../planner/fft-workgroup.js';
import { planFft } from '../../planner/fft-multipass.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import { FFT_PARAMS_BYTES, generateWorkgroupFft, type FftKernelSource } from '../../codegen/fft-stockham-workgroup.js';
import { dispatchGrid, getPipeline } from './pipelines.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';

const BYTES = 8; // complex64

interface Chunk {
  inByteOffset: number;
  inByteSize: number;
  outByteOffset: number;
  outByteSize: number;
  grid: [number, number];
  params: GPUBuffer;
}

type BufferName = 'src' | 'dst' | 'tmp0' | 'tmp1';

interface PassProgram {
  recipe: WorkgroupFftRecipe;
  kernel: FftKernelSource;
  pipeline: GPUComputePipeline;
  twiddles: GPUBuffer | null;
  outer: GPUBuffer | null;
  chunks: Chunk[];
  from: BufferName;
  to: BufferName;
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
  private readonly bindGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, GPUBindGroup[][]>>();

  private constructor(
    readonly ctx: GpuContext,
    readonly problem: FftProblem,
    readonly recipe: FftRecipe,
    private readonly programs: PassProgram[],
    private readonly scratch: { tmp0: GPUBuffer | null; tmp1: GPUBuffer | null },
    readonly inPlace: boolean,
  ) {}

  static async create(ctx: GpuContext, problem: FftProblem, options: WebGpuFftOptions = {}): Promise<WebGpuFft> {
    ctx.assertUsable('createFftPlan');
    const recipe = planFft(problem.n, problem.batch, ctx.limits, options);
    const inPlace = options.inPlace ?? false;
    if (inPlace && JSON.stringify(problem.input) !== JSON.stringify(problem.output)) {
      throw new ArgumentError('output', problem.output, 'the same layout as input for an in-place transform');
    }
    const passes = recipe.algorithm === 'stockham-multipass' ? recipe.passes : [recipe];
    const P = passes.length;
    // Buffer chain: the last pass writes the destination; in place, the first pass must not.
    const to: BufferName[] = passes.map((_, i) => {
      if (i === P - 1) return 'dst';
      if (inPlace) return i % 2 === 0 ? 'tmp0' : 'tmp1';
      return (P - 1 - i) % 2 === 0 ? 'dst' : 'tmp0';
    });
    const from: BufferName[] = passes.map((_, i) => (i === 0 ? 'src' : to[i - 1]));
    const contiguous: ComplexLayout = { offset: 0, stride: 1, dist: problem.n };
    const scratchBytes = problem.n * problem.batch * BYTES;
    const needs = (b: BufferName) => to.includes(b);
    const maxBuffer = ctx.limits.maxBufferSize;
    if ((needs('tmp0') || needs('tmp1')) && scratchBytes > maxBuffer) {
      throw new DeviceLimitError('maxBufferSize', scratchBytes, maxBuffer, `the scratch buffer of a ${P}-pass FFT of n = ${problem.n}, batch ${problem.batch}`);
    }
    const scratch = {
      tmp0: needs('tmp0') ? ctx.device.createBuffer({ size: scratchBytes, usage: GPUBufferUsage.STORAGE, label: 'fft-scratch0' }) : null,
      tmp1: needs('tmp1') ? ctx.device.createBuffer({ size: scratchBytes, usage: GPUBufferUsage.STORAGE, label: 'fft-scratch1' }) : null,
    };
    const programs: PassProgram[] = [];
    try {
      for (const [i, r] of passes.entries()) {
        const kernel = generateWorkgroupFft(r, {
          direction: problem.direction,
          scale: i === P - 1 ? normScale(problem.n, problem.direction, problem.norm) : 1,
          inPlace: inPlace && P === 1,
        });
        const pipeline = await getPipeline(ctx, kernel);
        const twiddles = kernel.bindings.includes('twiddles') ? createStorageBuffer(ctx, twiddleTable32(r.n), `twiddles${r.n}`) : null;
        const outer = kernel.outerTable ? createStorageBuffer(ctx, kernel.outerTable, 'outer-twiddles') : null;
        const inLayout = i === 0 ? problem.input : contiguous;
        const outLayout = i === P - 1 ? problem.output : contiguous;
        const chunks = planChunks(ctx, problem.n, problem.batch, inLayout, outLayout, r, options.splitLimits ?? {});
        programs.push({ recipe: r, kernel, pipeline, twiddles, outer, chunks, from: from[i], to: to[i] });
      }
    } catch (e) {
      for (const p of programs) destroyProgram(p);
      scratch.tmp0?.destroy();
      scratch.tmp1?.destroy();
      throw e;
    }
    return new WebGpuFft(ctx, problem, recipe, programs, scratch, inPlace);
  }

  /** Number of dispatches (binding windows) of the first pass. */
  get chunkCount(): number {
    return this.programs[0].chunks.length;
  }

  /** The dispatch grid of each chunk of the first pass. */
  get grids(): [number, number][] {
    return this.programs[0].chunks.map((c) => c.grid);
  }

  /** Kernel names, one per pass. */
  get kernelNames(): string[] {
    return this.programs.map((p) => p.kernel.name);
  }

  /** Bytes a source buffer must hold for this plan's layout. */
  get inputBytes(): number {
    return layoutSpan(this.problem.input, this.problem.n, this.problem.batch) * BYTES;
  }

  get outputBytes(): number {
    return layoutSpan(this.problem.output, this.problem.n, this.problem.batch) * BYTES;
  }

  /** Records the transform into `encoder`: one compute pass for all passes and chunks. */
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer, passDescriptor?: GPUComputePassDescriptor): void {
    this.assertUsable();
    if (this.inPlace && src !== dst) throw new ArgumentError('dst', 'another buffer', 'the source buffer (plan is in place)');
    if (!this.inPlace && src === dst) throw new ArgumentError('dst', 'the source buffer', 'a different buffer (plan is out of place; create it with inPlace: true)');
    if (src.size < this.inputBytes) throw new ArgumentError('src', `GPUBuffer of ${src.size} bytes`, `at least ${this.inputBytes} bytes`);
    if (dst.size < this.outputBytes) throw new ArgumentError('dst', `GPUBuffer of ${dst.size} bytes`, `at least ${this.outputBytes} bytes`);
    const groups = this.bindGroupsFor(src, dst);
    const pass = encoder.beginComputePass(passDescriptor);
    // Dispatches in one compute pass are ordered with respect to storage writes (WebGPU's usage scopes
    // synchronise between dispatches), so pass p+1 sees pass p's results.
    this.programs.forEach((prog, p) => {
      pass.setPipeline(prog.pipeline);
      prog.chunks.forEach((c, i) => {
        pass.setBindGroup(0, groups[p][i]);
        pass.dispatchWorkgroups(c.grid[0], c.grid[1]);
      });
    });
    pass.end();
  }

  /** Encodes, submits and waits for completion; WebGPU errors surface as DeviceError. */
  async execute(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    await this.ctx.checked(this.programs[0].kernel.name, () => {
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
    for (const p of this.programs) destroyProgram(p);
    this.scratch.tmp0?.destroy();
    this.scratch.tmp1?.destroy();
  }

  private assertUsable(): void {
    if (this.destroyed) throw new DestroyedError(`FFT plan (n = ${this.problem.n}) was destroyed`);
    this.ctx.assertUsable(this.programs[0].kernel.name);
  }

  private bindGroupsFor(src: GPUBuffer, dst: GPUBuffer): GPUBindGroup[][] {
    let inner = this.bindGroups.get(src);
    if (!inner) {
      inner = new WeakMap();
      this.bindGroups.set(src, inner);
    }
    let groups = inner.get(dst);
    if (!groups) {
      const buffers: Record<BufferName, GPUBuffer | null> = { src, dst, tmp0: this.scratch.tmp0, tmp1: this.scratch.tmp1 };
      groups = this.programs.map((prog) => {
        const layout = prog.pipeline.getBindGroupLayout(0);
        const inBuf = buffers[prog.from]!;
        const outBuf = buffers[prog.to]!;
        return prog.chunks.map((c) => {
          const entries: GPUBindGroupEntry[] = [];
          for (const b of prog.kernel.bindings) {
            if (b === 'src' || b === 'data') {
              const size = b === 'data' ? Math.max(c.inByteSize, c.outByteSize) : c.inByteSize;
              entries.push({ binding: 0, resource: { buffer: inBuf, offset: c.inByteOffset, size } });
            } else if (b === 'dst') entries.push({ binding: 1, resource: { buffer: outBuf, offset: c.outByteOffset, size: c.outByteSize } });
            else if (b === 'twiddles') entries.push({ binding: 2, resource: { buffer: prog.twiddles! } });
            else if (b === 'outer') entries.push({ binding: 4, resource: { buffer: prog.outer! } });
            else entries.push({ binding: 3, resource: { buffer: c.params } });
          }
          return this.ctx.device.createBindGroup({ layout, entries, label: prog.kernel.name });
        });
      });
      inner.set(dst, groups);
    }
    return groups;
  }
}

function destroyProgram(p: PassProgram): void {
  p.twiddles?.destroy();
  p.outer?.destroy();
  for (const c of p.chunks) c.params.destroy();
}

/**
 * Splits the batch so each dispatch's bindings fit maxStorageBufferBindingSize. A chunk covers whole
 * problems; in a multi-pass kernel each problem is n/R column problems.
 */
function planChunks(
  ctx: GpuContext,
  n: number,
  batch: number,
  input: ComplexLayout,
  output: ComplexLayout,
  recipe: WorkgroupFftRecipe,
  lower: NonNullable<WebGpuFftOptions['splitLimits']>,
): Chunk[] {
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, lower.maxStorageBufferBindingSize ?? Infinity);
  const maxDim = Math.min(ctx.limits.maxComputeWorkgroupsPerDimension, lower.maxComputeWorkgroupsPerDimension ?? Infinity);
  const align = ctx.limits.minStorageBufferOffsetAlignment;
  const cols = recipe.pass ? n / recipe.n : 1;
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
    const workgroups = Math.ceil((problems * cols) / recipe.problemsPerWorkgroup);
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
        problems * cols,
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
