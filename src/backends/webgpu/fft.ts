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
import { planWebGpuFft, type WebGpuFftPlanOptions } from '../../planner/fft-webgpu.js';
import { bluesteinLength } from '../../core/integers.js';
import type { ComplexLayout, FftProblem } from '../../planner/fft-problem.js';
import { layoutSpan, normScale } from '../../planner/fft-problem.js';
import type { FftRecipe } from '../../planner/fft-recipe.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import {
  FFT_PARAMS_BYTES,
  generateWorkgroupFft,
  type FftCustomIo,
  type FftKernelIo,
  type FftKernelSource,
} from '../../codegen/fft-stockham-workgroup.js';
import { generateR2cPost, R2C_POST_WORKGROUP } from '../../codegen/fft-real-post.js';
import { realTwiddleTable } from '../../codegen/fft-stockham-workgroup.js';
import { planCpuFft } from '../cpu/fft-plan.js';
import { bluesteinChirp, bluesteinFilter } from '../../planner/twiddles.js';
import { dispatchGrid, getPipeline } from './pipelines.js';
import { checkReadback, createStorageBuffer, readBuffer, type GpuContext } from './device.js';

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

/** Ping-pong intermediates of a multi-pass plan, created on first use. */
interface Scratch {
  bytes: number;
  needs0: boolean;
  needs1: boolean;
  tmp0: GPUBuffer | null;
  tmp1: GPUBuffer | null;
}

interface PassProgram {
  kernel: FftKernelSource;
  pipeline: GPUComputePipeline;
  twiddles: GPUBuffer | null;
  outer: GPUBuffer | null;
  real: GPUBuffer | null;
  aux: GPUBuffer | null;
  blu: GPUBuffer | null;
  chunks: Chunk[];
  from: BufferName;
  to: BufferName;
}

export interface WebGpuFftOptions extends Omit<WebGpuFftPlanOptions, 'custom'> {
  /**
   * Adapters (DCT, DST, DHT): hooks for the first pass's input and the last pass's output, and the sizes
   * of the user's arrays per problem (elements and bytes per element). The hooks do all scaling.
   */
  custom?: {
    io: FftCustomIo;
    inCount: number;
    outCount: number;
    inElem: number;
    outElem: number;
    /** See WebGpuFftPlanOptions.custom.fusedPost. */
    fusedPost?: boolean;
  };
}

/**
 * The subgroup size the planner may build shuffle exchanges on: only with the 'subgroups' feature and a fixed
 * size (min = max), since the bit maps assume it. Absent otherwise (llvmpipe has no subgroups).
 */
export function subgroupOptions(ctx: GpuContext): { subgroupSize?: number } {
  if (!ctx.features.has('subgroups')) return {};
  const info = (ctx.device as { adapterInfo?: { subgroupMinSize?: number; subgroupMaxSize?: number } }).adapterInfo;
  const min = info?.subgroupMinSize;
  return min && min === info?.subgroupMaxSize ? { subgroupSize: min } : {};
}

export class WebGpuFft {
  private destroyed = false;
  private readonly bindGroups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, GPUBindGroup[][]>>();

  private constructor(
    readonly ctx: GpuContext,
    readonly problem: FftProblem,
    readonly recipe: FftRecipe,
    private readonly programs: PassProgram[],
    private readonly scratch: Scratch,
    readonly inPlace: boolean,
    readonly real: 'r2c' | 'c2r' | undefined,
    private readonly outer: { count: number; inDist: number; outDist: number },
    private readonly customSizes: { inCount: number; outCount: number; inElem: number; outElem: number } | undefined,
  ) {}

  static async create(ctx: GpuContext, problem: FftProblem, options: WebGpuFftOptions = {}): Promise<WebGpuFft> {
    ctx.assertUsable('createFftPlan');
    const real = options.real;
    const inPlace = options.inPlace ?? false;
    if (inPlace && JSON.stringify(problem.input) !== JSON.stringify(problem.output)) {
      throw new ArgumentError('output', problem.output, 'the same layout as input for an in-place transform');
    }
    if (real && inPlace)
      throw new ArgumentError('inPlace', true, 'false for real transforms (input and output differ in size)');
    if (real === 'c2r' && problem.direction !== 'inverse')
      throw new ArgumentError('direction', problem.direction, "'inverse' for a C2R transform");
    if (real === 'r2c' && problem.direction !== 'forward')
      throw new ArgumentError('direction', problem.direction, "'forward' for an R2C transform");
    const N = problem.n;
    const custom = options.custom;
    const {
      recipe,
      scheme,
      bluestein: blu,
    } = planWebGpuFft(problem, ctx.limits, { ...subgroupOptions(ctx), ...options });
    const unwrapped = recipe.algorithm === 'bluestein' ? recipe.inner : recipe;
    const fftPasses = unwrapped.algorithm === 'stockham-multipass' ? unwrapped.passes : [unwrapped];
    // Bluestein runs the L-point recipe forward, then inverse.
    const passes = blu ? [...fftPasses, ...fftPasses] : fftPasses;
    const nFwd = fftPasses.length;
    const P = passes.length + (scheme?.postKernel ? 1 : 0);
    // Buffer chain: the last program writes the destination. In place, the first pass must not; for real
    // transforms (and Bluestein) the destination's size differs from the complex intermediate's.
    const to: BufferName[] = Array.from({ length: P }, (_, i) => {
      if (i === P - 1) return 'dst';
      if (inPlace || real || blu || custom) return i % 2 === 0 ? 'tmp0' : 'tmp1';
      return (P - 1 - i) % 2 === 0 ? 'dst' : 'tmp0';
    });
    const from: BufferName[] = to.map((_, i) => (i === 0 ? 'src' : to[i - 1]));
    const m = scheme ? scheme.m : N;
    const work = blu ? blu.L : m; // length of the complex intermediates
    const colsMode = !real && !blu && options.columns && options.columns > 1 ? options.columns : 0;
    const colSizes = colsMode
      ? { inCount: N * colsMode, outCount: N * colsMode, inElem: BYTES, outElem: BYTES }
      : undefined;
    const contiguous: ComplexLayout =
      options.interleavedBatch && !real
        ? { offset: 0, stride: problem.batch, dist: 1 }
        : { offset: 0, stride: 1, dist: work };
    const outer = options.outer ?? { count: 1, inDist: 0, outDist: 0 };
    if (!Number.isSafeInteger(outer.count) || outer.count < 1)
      throw new ArgumentError('outer.count', outer.count, 'a positive integer');
    const scratchBytes = work * problem.batch * outer.count * BYTES;
    const needs = (b: BufferName) => to.includes(b);
    const maxBuffer = ctx.limits.maxBufferSize;
    if ((needs('tmp0') || needs('tmp1')) && scratchBytes > maxBuffer) {
      throw new DeviceLimitError(
        'maxBufferSize',
        scratchBytes,
        maxBuffer,
        `the scratch buffer of a ${P}-pass FFT of n = ${problem.n}, batch ${problem.batch}`,
      );
    }
    // Allocated at the first encode, so that a run refused before any GPU work (a result too large for
    // the host) has not taken device memory first.
    const scratch: Scratch = {
      bytes: scratchBytes,
      tmp0: null,
      tmp1: null,
      needs0: needs('tmp0'),
      needs1: needs('tmp1'),
    };
    // Layouts of the complex transform actually run (real sides of packed transforms read as complex).
    const half = (l: ComplexLayout): ComplexLayout => ({ offset: l.offset / 2, stride: 1, dist: l.dist / 2 });
    const firstIn = scheme?.packed && real === 'r2c' && !custom ? half(problem.input) : problem.input;
    const lastOut = scheme?.packed && real === 'c2r' && !custom ? half(problem.output) : problem.output;
    const realScale = custom ? 1 : normScale(N, problem.direction, problem.norm);
    const fftScale = !scheme
      ? realScale
      : scheme.packed && real === 'c2r'
        ? 2 * realScale
        : scheme.postKernel
          ? 1
          : realScale;
    const nFft = passes.length;
    const bluTable = blu ? bluesteinTables(blu.m, blu.L, problem.direction) : null;
    const ioFor = (i: number): FftKernelIo | undefined => {
      const first = i === 0;
      const lastFft = i === nFft - 1 && !scheme?.postKernel;
      let load: FftKernelIo['load'] = 'complex';
      let store: FftKernelIo['store'] = 'complex';
      if (scheme && first)
        load =
          real === 'c2r'
            ? scheme.packed
              ? 'c2r'
              : 'hermitian'
            : scheme.packed
              ? custom
                ? 'packed-real'
                : 'complex'
              : 'real';
      if (scheme && lastFft)
        store =
          real === 'r2c'
            ? scheme.packed
              ? 'r2c'
              : 'half'
            : scheme.packed
              ? custom
                ? 'packed-real'
                : 'complex'
              : 'real';
      const hooks = custom && (first || lastFft) ? custom.io : undefined;
      const bluestein =
        blu && (first || lastFft || i === nFwd)
          ? { n: blu.m, L: blu.L, pre: first, mid: i === nFwd, post: lastFft, scale: fftScale }
          : undefined;
      if (load === 'complex' && store === 'complex' && !hooks && !bluestein) return undefined;
      // A hook applies only on its own side: the first pass keeps the default writer, the last the reader.
      const io = hooks
        ? {
            ...hooks,
            ...(first ? {} : { rd: undefined, rdr: undefined, inHelpers: undefined }),
            ...(lastFft ? {} : { wr: undefined, wrq: undefined, wrr: undefined, outHelpers: undefined }),
          }
        : undefined;
      if (io && (!first || !lastFft)) {
        io.key = `${hooks!.key}|${first ? 'in' : ''}${lastFft ? 'out' : ''}`;
        if (!lastFft) io.dstType = 'vec2<f32>';
        if (!first) io.srcType = 'vec2<f32>';
        if (!first && !lastFft) io.table = undefined;
      }
      return { load, store, realLength: N, custom: io, bluestein };
    };
    // Element sizes of each side (real arrays hold f32) for the binding windows.
    const inElem = (i: number) =>
      i === 0 && custom ? custom.inElem : i === 0 && real === 'r2c' && !scheme!.packed ? 4 : BYTES;
    const outElem = (i: number) =>
      i === P - 1 && custom ? custom.outElem : i === P - 1 && real === 'c2r' && !scheme!.packed ? 4 : BYTES;
    const outCount = (i: number) =>
      i === P - 1 && custom
        ? custom.outCount
        : i === P - 1 && real === 'r2c'
          ? Math.floor(N / 2) + 1
          : i === P - 1
            ? m
            : work;
    const programs: PassProgram[] = [];
    try {
      for (const [i, r] of passes.entries()) {
        const io = ioFor(i);
        const kernel = generateWorkgroupFft(r, {
          direction: blu ? (i < nFwd ? 'forward' : 'inverse') : problem.direction,
          // Bluestein folds the output scale into its final chirp.
          scale: i === nFft - 1 && !blu ? fftScale : 1,
          inPlace: inPlace && P === 1,
          io,
          pairedR2c: options.r2cPaired,
          stagedR2cOut: options.r2cStagedOut,
        });
        const pipeline = await getPipeline(ctx, kernel);
        const inLayout = i === 0 ? firstIn : contiguous;
        const outLayout = i === P - 1 ? lastOut : contiguous;
        const inCount =
          i === 0 && custom ? custom.inCount : i === 0 && real === 'c2r' ? Math.floor(N / 2) + 1 : i === 0 ? m : work;
        const sizes = colSizes ?? { inCount, outCount: outCount(i), inElem: inElem(i), outElem: outElem(i) };
        const units = colsMode ? colsMode : r.pass ? work / r.n : 1;
        // Windows first: planChunks may refuse the problem, and nothing may be allocated before it does.
        const chunks = forOuter(outer, i === 0, i === P - 1, work * problem.batch, inLayout, outLayout, (il, ol) =>
          planChunks(ctx, problem.batch, il, ol, sizes, units, r.problemsPerWorkgroup, options.splitLimits ?? {}),
        );
        const twiddles = kernel.bindings.includes('twiddles')
          ? createStorageBuffer(ctx, twiddleTable32(r.n), `twiddles${r.n}`)
          : null;
        const outerTw = kernel.outerTable ? createStorageBuffer(ctx, kernel.outerTable, 'outer-twiddles') : null;
        const realTw = kernel.realTable ? createStorageBuffer(ctx, kernel.realTable, 'real-twiddles') : null;
        const auxTable = io?.custom?.table;
        const aux =
          auxTable && kernel.bindings.includes('aux') ? createStorageBuffer(ctx, auxTable, 'adapter-table') : null;
        const bluBuf =
          bluTable && kernel.bindings.includes('blu') ? createStorageBuffer(ctx, bluTable, 'bluestein-chirps') : null;
        programs.push({
          kernel,
          pipeline,
          twiddles,
          outer: outerTw,
          real: realTw,
          aux,
          blu: bluBuf,
          chunks,
          from: from[i],
          to: to[i],
        });
      }
      if (scheme?.postKernel) {
        const kernel = generateR2cPost(N, realScale, custom?.io);
        const pipeline = await getPipeline(ctx, kernel);
        const realTw = createStorageBuffer(ctx, realTwiddleTable(N), 'real-twiddles');
        const aux =
          custom?.io.table && kernel.bindings.includes('aux')
            ? createStorageBuffer(ctx, custom.io.table, 'adapter-table')
            : null;
        const pairs = Math.floor(m / 2) + 1;
        const sizes = custom
          ? { inCount: m, outCount: custom.outCount, inElem: BYTES, outElem: custom.outElem }
          : { inCount: m, outCount: m + 1, inElem: BYTES, outElem: BYTES };
        const chunks = forOuter(outer, false, true, m * problem.batch, contiguous, problem.output, (il, ol) =>
          planChunks(ctx, problem.batch, il, ol, sizes, pairs, R2C_POST_WORKGROUP, options.splitLimits ?? {}),
        );
        programs.push({
          kernel,
          pipeline,
          twiddles: null,
          outer: null,
          real: realTw,
          aux,
          blu: null,
          chunks,
          from: from[P - 1],
          to: to[P - 1],
        });
      }
    } catch (e) {
      for (const p of programs) destroyProgram(p);
      scratch.tmp0?.destroy();
      scratch.tmp1?.destroy();
      throw e;
    }
    return new WebGpuFft(ctx, problem, recipe, programs, scratch, inPlace, real, outer, custom ?? colSizes);
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
    if (this.customSizes) {
      return (
        (layoutSpan(this.problem.input, this.customSizes.inCount, this.problem.batch) +
          (this.outer.count - 1) * this.outer.inDist) *
        this.customSizes.inElem
      );
    }
    const n = this.real === 'c2r' ? Math.floor(this.problem.n / 2) + 1 : this.problem.n;
    const extra = (this.outer.count - 1) * this.outer.inDist;
    return (layoutSpan(this.problem.input, n, this.problem.batch) + extra) * (this.real === 'r2c' ? 4 : BYTES);
  }

  get outputBytes(): number {
    if (this.customSizes) {
      return (
        (layoutSpan(this.problem.output, this.customSizes.outCount, this.problem.batch) +
          (this.outer.count - 1) * this.outer.outDist) *
        this.customSizes.outElem
      );
    }
    const n = this.real === 'r2c' ? Math.floor(this.problem.n / 2) + 1 : this.problem.n;
    const extra = (this.outer.count - 1) * this.outer.outDist;
    return (layoutSpan(this.problem.output, n, this.problem.batch) + extra) * (this.real === 'c2r' ? 4 : BYTES);
  }

  /** Records the transform into `encoder`: one compute pass for all passes and chunks. */
  /**
   * Records the transform into `encoder`. `onlyProgram` (for benchmarks' per-pass timings) records just
   * that one of its kernels (passes in order, then any post-processing kernel; see kernelNames).
   */
  encode(
    encoder: GPUCommandEncoder,
    src: GPUBuffer,
    dst: GPUBuffer,
    passDescriptor?: GPUComputePassDescriptor,
    onlyProgram?: number,
  ): void {
    this.assertUsable();
    if (this.inPlace && src !== dst)
      throw new ArgumentError('dst', 'another buffer', 'the source buffer (plan is in place)');
    if (!this.inPlace && src === dst)
      throw new ArgumentError(
        'dst',
        'the source buffer',
        'a different buffer (plan is out of place; create it with inPlace: true)',
      );
    this.ctx.checkEncoder('encoder', encoder);
    this.ctx.checkBuffer('src', src, this.inputBytes);
    this.ctx.checkBuffer('dst', dst, this.outputBytes);
    const groups = this.bindGroupsFor(src, dst);
    const pass = encoder.beginComputePass(passDescriptor);
    // Dispatches in one compute pass are ordered with respect to storage writes (WebGPU's usage scopes
    // synchronise between dispatches), so pass p+1 sees pass p's results.
    this.programs.forEach((prog, p) => {
      if (onlyProgram !== undefined && p !== onlyProgram) return;
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
    // Before the input is even looked at: nothing is uploaded for a result the host cannot hold.
    checkReadback(this.outputBytes, `the result of an FFT of n = ${this.problem.n}, batch ${this.problem.batch}`);
    const inFloats = this.inputBytes / 4;
    if (input.length < inFloats) {
      throw new ArgumentError(
        'input',
        input,
        `a Float32Array of at least ${inFloats} values (${this.real === 'r2c' ? 'real' : 'interleaved complex'})`,
      );
    }
    const src = createStorageBuffer(this.ctx, input.subarray(0, inFloats), 'fft-input');
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
      const sc = this.scratch;
      const usage = GPUBufferUsage.STORAGE;
      if (sc.needs0 && !sc.tmp0)
        sc.tmp0 = this.ctx.device.createBuffer({ size: sc.bytes, usage, label: 'fft-scratch0' });
      if (sc.needs1 && !sc.tmp1)
        sc.tmp1 = this.ctx.device.createBuffer({ size: sc.bytes, usage, label: 'fft-scratch1' });
      const buffers: Record<BufferName, GPUBuffer | null> = { src, dst, tmp0: sc.tmp0, tmp1: sc.tmp1 };
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
            } else if (b === 'dst')
              entries.push({ binding: 1, resource: { buffer: outBuf, offset: c.outByteOffset, size: c.outByteSize } });
            else if (b === 'twiddles') entries.push({ binding: 2, resource: { buffer: prog.twiddles! } });
            else if (b === 'outer') entries.push({ binding: 4, resource: { buffer: prog.outer! } });
            else if (b === 'real') entries.push({ binding: 5, resource: { buffer: prog.real! } });
            else if (b === 'aux') entries.push({ binding: 6, resource: { buffer: prog.aux! } });
            else if (b === 'blu') entries.push({ binding: 7, resource: { buffer: prog.blu! } });
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

/**
 * Chunks for every outer group: user-side layouts shift by the group's distance, scratch-side layouts by
 * one group's worth of scratch (`scratchGroup` complex elements).
 */
function forOuter(
  outer: { count: number; inDist: number; outDist: number },
  userIn: boolean,
  userOut: boolean,
  scratchGroup: number,
  inLayout: ComplexLayout,
  outLayout: ComplexLayout,
  make: (inLayout: ComplexLayout, outLayout: ComplexLayout) => Chunk[],
): Chunk[] {
  const chunks: Chunk[] = [];
  try {
    for (let g = 0; g < outer.count; g++) {
      const il = { ...inLayout, offset: inLayout.offset + g * (userIn ? outer.inDist : scratchGroup) };
      const ol = { ...outLayout, offset: outLayout.offset + g * (userOut ? outer.outDist : scratchGroup) };
      chunks.push(...make(il, ol));
    }
  } catch (e) {
    for (const c of chunks) c.params.destroy();
    throw e;
  }
  return chunks;
}

export { bluesteinLength };

/**
 * Bluestein tables, float64-accurate: [w_j = e^{∓iπ j²/m}, j < m | B_k = FFT_L(b)_k / L, k < L] with
 * b_j = w̄_j at j and L − j (the chirp, wrapped for a cyclic convolution). j² is reduced mod 2m
 * incrementally so no angle is ever large.
 */
const bluesteinCache = new Map<string, Float32Array>();

export function bluesteinTables(m: number, L: number, direction: 'forward' | 'inverse'): Float32Array {
  // The filter spectrum costs a float64 L-point FFT on the host: keep the last few, since one-shot calls
  // (fft(x) on a prime length) create a plan each time.
  const key = `${m}/${L}/${direction}`;
  const hit = bluesteinCache.get(key);
  if (hit) return hit;
  const out = computeBluesteinTables(m, L, direction);
  if (bluesteinCache.size >= 16) bluesteinCache.delete(bluesteinCache.keys().next().value!);
  bluesteinCache.set(key, out);
  return out;
}

function computeBluesteinTables(m: number, L: number, direction: 'forward' | 'inverse'): Float32Array {
  const w = bluesteinChirp(m, direction);
  const B = new Float64Array(2 * L);
  planCpuFft(L).execute(bluesteinFilter(w, m, L), B, {});
  const out = new Float32Array(2 * (m + L));
  out.set(w);
  for (let k = 0; k < 2 * L; k++) out[2 * m + k] = B[k] / L;
  return out;
}

function destroyProgram(p: PassProgram): void {
  p.twiddles?.destroy();
  p.outer?.destroy();
  p.real?.destroy();
  p.aux?.destroy();
  p.blu?.destroy();
  for (const c of p.chunks) c.params.destroy();
}

/**
 * Splits the batch so each dispatch's bindings fit maxStorageBufferBindingSize. A chunk covers whole
 * problems; a kernel runs `units` invocation groups per problem (columns of a pass, pairs of the R2C post
 * kernel), `perWorkgroup` of them per workgroup.
 */
function planChunks(
  ctx: GpuContext,
  batch: number,
  input: ComplexLayout,
  output: ComplexLayout,
  size: { inCount: number; outCount: number; inElem: number; outElem: number },
  units: number,
  perWorkgroup: number,
  lower: NonNullable<WebGpuFftOptions['splitLimits']>,
): Chunk[] {
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, lower.maxStorageBufferBindingSize ?? Infinity);
  const maxDim = Math.min(
    ctx.limits.maxComputeWorkgroupsPerDimension,
    lower.maxComputeWorkgroupsPerDimension ?? Infinity,
  );
  const align = ctx.limits.minStorageBufferOffsetAlignment;
  const oneIn = ((size.inCount - 1) * input.stride + 1) * size.inElem;
  const oneOut = ((size.outCount - 1) * output.stride + 1) * size.outElem;
  const room = maxBinding - align; // worst-case misalignment of a window start
  if (oneIn > room || oneOut > room) {
    throw new DeviceLimitError(
      'maxStorageBufferBindingSize',
      Math.max(oneIn, oneOut) + align,
      maxBinding,
      `one problem of ${Math.max(size.inCount, size.outCount)} elements`,
    );
  }
  const fit = (one: number, dist: number, elem: number) =>
    dist === 0 ? batch : Math.floor((room - one) / (dist * elem)) + 1;
  const perChunk = Math.max(
    1,
    Math.min(batch, fit(oneIn, input.dist, size.inElem), fit(oneOut, output.dist, size.outElem)),
  );
  const chunks: Chunk[] = [];
  for (let first = 0; first < batch; first += perChunk) {
    const problems = Math.min(perChunk, batch - first);
    const inStart = (input.offset + first * input.dist) * size.inElem;
    const outStart = (output.offset + first * output.dist) * size.outElem;
    const inAligned = Math.floor(inStart / align) * align;
    const outAligned = Math.floor(outStart / align) * align;
    const inSpan =
      layoutSpan({ offset: 0, stride: input.stride, dist: input.dist }, size.inCount, problems) * size.inElem;
    const outSpan =
      layoutSpan({ offset: 0, stride: output.stride, dist: output.dist }, size.outCount, problems) * size.outElem;
    const workgroups = Math.ceil((problems * units) / perWorkgroup);
    let grid: [number, number];
    try {
      grid = dispatchGrid(workgroups, maxDim);
    } catch (e) {
      for (const c of chunks) c.params.destroy();
      throw e;
    }
    const params = ctx.device.createBuffer({
      size: FFT_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'fft-params',
    });
    ctx.device.queue.writeBuffer(
      params,
      0,
      new Uint32Array([
        problems * units,
        grid[0],
        (inStart - inAligned) / size.inElem,
        input.stride,
        input.dist,
        (outStart - outAligned) / size.outElem,
        output.stride,
        output.dist,
      ]),
    );
    chunks.push({
      inByteOffset: inAligned,
      inByteSize: Math.ceil((inSpan + (inStart - inAligned)) / 4) * 4,
      outByteOffset: outAligned,
      outByteSize: Math.ceil((outSpan + (outStart - outAligned)) / 4) * 4,
      grid,
      params,
    });
  }
  return chunks;
}
