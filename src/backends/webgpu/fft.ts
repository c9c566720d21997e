/**
 * WebGPU executor for FFT plans: runs what planWebGpuFftPasses (src/planner/fft-webgpu-passes.ts)
 * decided — each kernel's recipe and load/store modes, the buffer chain, the binding windows and grids —
 * by generating and compiling the kernels, creating their tables, uniforms and scratch buffers, and
 * encoding dispatches against caller-provided buffers (so transforms chain on the device without host
 * round trips). Each window binds an aligned part of a buffer and carries the rest of its offset in the
 * uniforms; multi-pass transforms ping-pong through scratch buffers so the last pass lands in the
 * destination.
 */
import { ArgumentError, DestroyedError } from '../../errors.js';
import type { WebGpuFftPlanOptions } from '../../planner/fft-webgpu.js';
import {
  planWebGpuFftPasses,
  type FftBufferName,
  type FftPassSizes,
  type WebGpuFftPlan,
} from '../../planner/fft-webgpu-passes.js';
import { bluesteinLength } from '../../core/integers.js';
import type { FftProblem } from '../../planner/fft-problem.js';
import { layoutSpan } from '../../planner/fft-problem.js';
import type { FftRecipe } from '../../planner/fft-recipe.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import {
  FFT_PARAMS_BYTES,
  generateWorkgroupFft,
  type FftCustomIo,
  type FftKernelSource,
} from '../../codegen/fft-stockham-workgroup.js';
import { generateR2cPost } from '../../codegen/fft-real-post.js';
import { realTwiddleTable } from '../../codegen/fft-real-fused-post.js';
import { planCpuFft } from '../cpu/fft-plan.js';
import { bluesteinChirp, bluesteinFilter } from '../../planner/twiddles.js';
import { getPipeline } from './pipelines.js';
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
  from: FftBufferName;
  to: FftBufferName;
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

  readonly recipe: FftRecipe;
  readonly inPlace: boolean;
  readonly real: 'r2c' | 'c2r' | undefined;
  private readonly outer: { count: number; inDist: number; outDist: number };
  private readonly customSizes: FftPassSizes | undefined;

  private constructor(
    readonly ctx: GpuContext,
    readonly problem: FftProblem,
    /** Everything the planner decided: kernels, buffers, binding windows (see planWebGpuFftPasses). */
    readonly planned: WebGpuFftPlan,
    private readonly programs: PassProgram[],
    private readonly scratch: Scratch,
  ) {
    this.recipe = planned.recipe;
    this.inPlace = planned.inPlace;
    this.real = planned.real;
    this.outer = planned.outer;
    this.customSizes = planned.userSizes;
  }

  static async create(ctx: GpuContext, problem: FftProblem, options: WebGpuFftOptions = {}): Promise<WebGpuFft> {
    ctx.assertUsable('createFftPlan');
    const custom = options.custom;
    const planned = planWebGpuFftPasses(problem, ctx.limits, {
      ...subgroupOptions(ctx),
      ...options,
      ...(custom
        ? {
            custom: {
              inCount: custom.inCount,
              outCount: custom.outCount,
              inElem: custom.inElem,
              outElem: custom.outElem,
              ...(custom.fusedPost !== undefined ? { fusedPost: custom.fusedPost } : {}),
            },
          }
        : {}),
    });
    const blu = planned.bluestein;
    const bluTable = blu ? bluesteinTables(blu.m, blu.L, problem.direction) : null;
    const scratch: Scratch = {
      bytes: planned.scratch.bytes,
      tmp0: null,
      tmp1: null,
      needs0: planned.scratch.tmp0,
      needs1: planned.scratch.tmp1,
    };
    const programs: PassProgram[] = [];
    try {
      for (const pass of planned.passes) {
        const k = pass.kernel;
        const kernel = k
          ? generateWorkgroupFft(k.recipe, {
              direction: k.direction,
              scale: k.scale,
              inPlace: k.inPlace,
              io: k.io && { ...k.io, custom: k.hooks && custom && hookSides(custom.io, k.hooks) },
              pairedR2c: k.pairedR2c,
              stagedR2cOut: k.stagedR2cOut,
            })
          : generateR2cPost(pass.post!.n, pass.post!.scale, custom?.io);
        const pipeline = await getPipeline(ctx, kernel);
        const twiddles =
          k && kernel.bindings.includes('twiddles')
            ? createStorageBuffer(ctx, twiddleTable32(k.recipe.n), `twiddles${k.recipe.n}`)
            : null;
        const outerTw = kernel.outerTable ? createStorageBuffer(ctx, kernel.outerTable, 'outer-twiddles') : null;
        const realTable = k ? kernel.realTable : realTwiddleTable(problem.n);
        const realTw = realTable ? createStorageBuffer(ctx, realTable, 'real-twiddles') : null;
        const auxTable = k ? (k.hooks ? custom?.io.table : undefined) : custom?.io.table;
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
          chunks: pass.chunks.map((c) => ({ ...c, params: uniforms(ctx, c.params) })),
          from: pass.from,
          to: pass.to,
        });
      }
    } catch (e) {
      for (const p of programs) destroyProgram(p);
      throw e;
    }
    return new WebGpuFft(ctx, problem, planned, programs, scratch);
  }

  /** Number of dispatches (binding windows) of the first pass. */
  get chunkCount(): number {
    return this.programs[0].chunks.length;
  }

  /** The dispatch grid of each chunk of the first pass. */
  get grids(): [number, number][] {
    return this.programs[0].chunks.map((c) => c.grid);
  }

  /** Pipeline cache keys, one per kernel (what the generator was given, serialised). */
  get kernelKeys(): string[] {
    return this.programs.map((p) => p.kernel.key);
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
      const buffers: Record<FftBufferName, GPUBuffer | null> = { src, dst, tmp0: sc.tmp0, tmp1: sc.tmp1 };
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

/** The uniform block of one chunk (see FftDispatchChunk.params). */
function uniforms(ctx: GpuContext, params: number[]): GPUBuffer {
  const buf = ctx.device.createBuffer({
    size: FFT_PARAMS_BYTES,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    label: 'fft-params',
  });
  ctx.device.queue.writeBuffer(buf, 0, new Uint32Array(params));
  return buf;
}

/**
 * An adapter's hooks for a kernel that carries only one side of them: the first kernel keeps the default
 * writer, the last the default reader, and kernels between exchange plain complex values.
 */
function hookSides(hooks: FftCustomIo, side: { in: boolean; out: boolean }): FftCustomIo {
  const io: FftCustomIo = {
    ...hooks,
    ...(side.in ? {} : { rd: undefined, rdr: undefined, inHelpers: undefined }),
    ...(side.out ? {} : { wr: undefined, wrq: undefined, wrr: undefined, outHelpers: undefined }),
  };
  if (!side.in || !side.out) {
    io.key = `${hooks.key}|${side.in ? 'in' : ''}${side.out ? 'out' : ''}`;
    if (!side.out) io.dstType = 'vec2<f32>';
    if (!side.in) io.srcType = 'vec2<f32>';
    if (!side.in && !side.out) io.table = undefined;
  }
  return io;
}
