/**
 * WebGPU executor for a Wang & Mou tridiagonal recipe: pipelines, scratch buffers for the coarse
 * levels, uniform blocks, bind groups and the dispatch sequence
 *   reduce(0) → form(1) → … → solve(last) → … → expand(1) → expand(0),
 * all recorded into one compute pass (WebGPU orders dispatches of a pass and makes each one's writes
 * visible to the next).
 *
 * Batches whose arrays exceed one storage binding (maxStorageBufferBindingSize), or whose dispatches
 * exceed maxComputeWorkgroupsPerDimension² workgroups, are split into chunks of whole systems, as the
 * FFT executor does: each chunk binds an aligned window (minStorageBufferOffsetAlignment) of every user
 * array and of the status buffer, and carries the remainders of the window offsets in its uniform block.
 * A chunk is either a run of right-hand sides over the whole batch, or a run of matrices for one
 * right-hand side; its systems are then consecutive, so the kernels address them with a local system
 * index. The chunks run one after another in the same pass and share the coarse-level scratch buffers.
 * Only a single system whose arrays (in the interleaved layout: whose span, ≈ the whole matrix array)
 * exceed one binding is refused, with a DeviceLimitError naming the limit.
 */
import { ArgumentError, DeviceLimitError, DestroyedError } from '../../errors.js';
import type { GpuContext } from './device.js';
import { getPipeline } from './pipelines.js';
import { dispatchGrid } from '../../planner/dispatch.js';
import { statusByStore, type TridiagonalRecipe } from '../../planner/tridiagonal.js';
import {
  FORM_WORKGROUP,
  PARAMS_BYTES,
  formCoarseKernel,
  wangMouKernel,
  wangMouSpec,
} from '../../codegen/tridiagonal-wang-mou.js';
import { thomasKernel, thomasStreamKernel } from '../../codegen/tridiagonal-thomas.js';

export interface TridiagonalGpuBuffers {
  lower: GPUBuffer;
  diag: GPUBuffer;
  upper: GPUBuffer;
  rhs: GPUBuffer;
  /** Solution, same layout as rhs. May not alias the inputs. */
  out: GPUBuffer;
  /** One u32 per matrix, written by the solve (every word: bits OR-ed into a cleared buffer, or stored). */
  status: GPUBuffer;
}

/**
 * Lower the binding and dispatch limits used to split the work (never above the device's). Lets tests
 * exercise binding windows and 2-D grids with small data.
 */
export interface TridiagonalSplitLimits {
  maxStorageBufferBindingSize?: number;
  maxComputeWorkgroupsPerDimension?: number;
}

export interface TridiagonalExecutorOptions {
  splitLimits?: TridiagonalSplitLimits;
}

/** One chunk of whole systems: matrices [j0, j0 + matrices) × right-hand sides [r0, r0 + rhsCount). */
export interface TridiagonalChunk {
  j0: number;
  matrices: number;
  r0: number;
  rhsCount: number;
  /** Systems of the chunk (= matrices · rhsCount), consecutive in the kernels' system order. */
  systems: number;
  /** Byte windows bound for lower/diag/upper, rhs/out and status, and the remainders in elements. */
  mat: { offset: number; size: number; rem: number };
  rhs: { offset: number; size: number; rem: number };
  status: { offset: number; size: number; rem: number };
}

type UserKey = keyof TridiagonalGpuBuffers;
type Binding = GPUBuffer | UserKey | 'params';

interface Step {
  pipeline: GPUComputePipeline;
  /** Index of the uniform block of this step within a chunk's blocks. */
  block: number;
  bindings: Binding[];
}

const USAGE_SCRATCH = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
/** Uniform blocks are placed at multiples of 256 bytes (the largest minUniformBufferOffsetAlignment). */
const UNIFORM_ALIGN = 256;

/**
 * Splits a recipe's problem into chunks that fit the binding and dispatch limits. Pure (no GPU objects),
 * so it runs before anything is allocated; throws DeviceLimitError when a single system does not fit.
 */
export function planTridiagonalChunks(
  recipe: TridiagonalRecipe,
  limits: {
    maxStorageBufferBindingSize: number;
    maxComputeWorkgroupsPerDimension: number;
    minStorageBufferOffsetAlignment: number;
  },
): TridiagonalChunk[] {
  const { n: N, batch: B, nrhs: R, layout, complex } = recipe.problem;
  const E = complex ? 8 : 4;
  const maxBinding = limits.maxStorageBufferBindingSize;
  const maxDim = limits.maxComputeWorkgroupsPerDimension;
  const maxGrid = maxDim * maxDim;
  const align = Math.max(limits.minStorageBufferOffsetAlignment, 8);
  const interleaved = layout === 'interleaved';
  const what = `a tridiagonal solve (n ${N} × batch ${B} × nrhs ${R}, ${layout}${complex ? ', complex' : ''})`;

  // Systems one chunk may hold: every dispatch within maxDim² workgroups, every scratch buffer (bound
  // whole) within one binding.
  const scratchLimit = Math.floor(maxBinding / 16) * 16;
  let sysCap = Infinity;
  let capLimit = '';
  const cap = (v: number, limit: string) => {
    if (v < sysCap) {
      sysCap = v;
      capLimit = limit;
    }
  };
  for (const lv of recipe.levels) {
    if (lv.mode === 'solve') {
      cap(maxGrid * lv.systemsPerWorkgroup, 'maxComputeWorkgroupsPerDimension');
    } else {
      cap(Math.floor(maxGrid / lv.chunks), 'maxComputeWorkgroupsPerDimension');
      cap(Math.floor((maxGrid * FORM_WORKGROUP) / lv.separators), 'maxComputeWorkgroupsPerDimension');
      cap(Math.floor(scratchLimit / (lv.separators * E)), 'maxStorageBufferBindingSize');
      cap(Math.floor(scratchLimit / (lv.chunks * 6 * E)), 'maxStorageBufferBindingSize');
    }
  }
  if (sysCap < 1) {
    const lv = recipe.levels.find((l) => l.mode === 'partition')!;
    if (capLimit === 'maxComputeWorkgroupsPerDimension') {
      throw new DeviceLimitError(
        capLimit,
        lv.chunks,
        maxGrid,
        `one system of ${what}: its ${lv.chunks} partition workgroups exceed a 2-D grid`,
      );
    }
    throw new DeviceLimitError(capLimit, lv.chunks * 6 * E, scratchLimit, `the scratch of one system of ${what}`);
  }

  // Spans in elements of a chunk's windows.
  const matSpan = (bc: number) => (interleaved ? (N - 1) * B + bc : bc * N);
  const rhsSpan = (bc: number, rc: number) => (interleaved ? (rc * N - 1) * B + bc : rc * bc * N);
  const matStart = (j0: number) => (interleaved ? j0 : j0 * N);
  const rhsStart = (r0: number, j0: number) => (interleaved ? r0 * N * B + j0 : (r0 * B + j0) * N);

  const window = (startElem: number, spanElems: number, elem: number) => {
    const start = startElem * elem;
    const offset = Math.floor(start / align) * align;
    return { offset, size: start - offset + spanElems * elem, rem: (start - offset) / elem };
  };
  const chunk = (j0: number, bc: number, r0: number, rc: number): TridiagonalChunk => ({
    j0,
    matrices: bc,
    r0,
    rhsCount: rc,
    systems: bc * rc,
    mat: window(matStart(j0), matSpan(bc), E),
    rhs: window(rhsStart(r0, j0), rhsSpan(bc, rc), E),
    status: window(j0, bc, 4),
  });

  // The whole problem in one chunk, bound from offset 0.
  if (matSpan(B) * E <= maxBinding && rhsSpan(B, R) * E <= maxBinding && B * 4 <= maxBinding && B * R <= sysCap) {
    return [chunk(0, B, 0, R)];
  }
  const room = maxBinding - align; // worst-case misalignment of a window start
  const chunks: TridiagonalChunk[] = [];
  // Runs of right-hand sides over the whole batch.
  if (matSpan(B) * E <= room && B * 4 <= room && B <= sysCap) {
    // Both layouts: rc right-hand sides of the whole batch are rc·n·batch consecutive elements.
    const rc = Math.min(R, Math.floor(sysCap / B), Math.floor(room / (E * N * B)));
    if (rc >= 1) {
      for (let r0 = 0; r0 < R; r0 += rc) chunks.push(chunk(0, B, r0, Math.min(rc, R - r0)));
      return chunks;
    }
  }
  // Runs of matrices, one right-hand side each.
  const roomElems = Math.floor(room / E);
  const bc = Math.min(
    B,
    sysCap,
    Math.floor(room / 4),
    interleaved ? roomElems - (N - 1) * B : Math.floor(roomElems / N),
  );
  if (bc < 1) {
    const one = matSpan(1) * E;
    throw new DeviceLimitError(
      'maxStorageBufferBindingSize',
      one + align,
      maxBinding,
      `one system of ${what}${interleaved ? ` (an interleaved system spans (n − 1)·batch + 1 = ${matSpan(1)} elements)` : ''} does not fit one storage binding; ` +
        `smaller systems are split across bindings automatically${interleaved ? ', or use the strided layout' : ''}`,
    );
  }
  for (let r0 = 0; r0 < R; r0++) {
    for (let j0 = 0; j0 < B; j0 += bc) chunks.push(chunk(j0, Math.min(bc, B - j0), r0, 1));
  }
  return chunks;
}

export class TridiagonalGpuExecutor {
  private steps: Step[] = [];
  private chunks: TridiagonalChunk[] = [];
  /** Per chunk and step, the dispatch grid. */
  private grids: [number, number][][] = [];
  private blocksPerChunk = 0;
  private paramsBuf: GPUBuffer | null = null;
  private owned: GPUBuffer[] = [];
  private destroyed = false;
  private lastKey: GPUBuffer[] | null = null;
  private lastGroups: GPUBindGroup[][] = [];
  /** The kernels store every status word themselves (statusByStore): no clear before a solve. */
  readonly statusStore: boolean;

  private constructor(
    readonly ctx: GpuContext,
    readonly recipe: TridiagonalRecipe,
  ) {
    this.statusStore = statusByStore(recipe);
  }

  static async create(
    ctx: GpuContext,
    recipe: TridiagonalRecipe,
    options: TridiagonalExecutorOptions = {},
  ): Promise<TridiagonalGpuExecutor> {
    const ex = new TridiagonalGpuExecutor(ctx, recipe);
    try {
      await ex.build(options);
    } catch (e) {
      ex.destroy();
      throw e;
    }
    return ex;
  }

  /** Bytes of one element (f32 or complex f32). */
  get elementBytes(): number {
    return this.recipe.problem.complex ? 8 : 4;
  }

  private scratch(elements: number, label: string): GPUBuffer {
    const bytes = Math.max(16, Math.ceil((elements * this.elementBytes) / 16) * 16);
    const lim = this.ctx.limits.maxStorageBufferBindingSize;
    if (bytes > lim)
      throw new DeviceLimitError('maxStorageBufferBindingSize', bytes, lim, `tridiagonal scratch ${label}`);
    const b = this.ctx.device.createBuffer({ size: bytes, usage: USAGE_SCRATCH(), label });
    this.owned.push(b);
    return b;
  }

  private async build(options: TridiagonalExecutorOptions): Promise<void> {
    const { ctx, recipe } = this;
    const { problem, levels } = recipe;
    const split = options.splitLimits ?? {};
    for (const k of ['maxStorageBufferBindingSize', 'maxComputeWorkgroupsPerDimension'] as const) {
      const v = split[k];
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 1))
        throw new ArgumentError(`splitLimits.${k}`, v, 'a positive integer');
    }
    const maxDim = Math.min(
      ctx.limits.maxComputeWorkgroupsPerDimension,
      split.maxComputeWorkgroupsPerDimension ?? Infinity,
    );
    // Chunks first: they may refuse the problem, and nothing may be allocated before they do.
    const chunks = planTridiagonalChunks(recipe, {
      maxStorageBufferBindingSize: Math.min(
        ctx.limits.maxStorageBufferBindingSize,
        split.maxStorageBufferBindingSize ?? Infinity,
      ),
      maxComputeWorkgroupsPerDimension: maxDim,
      minStorageBufferOffsetAlignment: ctx.limits.minStorageBufferOffsetAlignment,
    });
    this.chunks = chunks;
    await ctx.checked('tridiagonal plan', () => undefined);
    const maxSys = chunks.reduce((m, c) => Math.max(m, c.systems), 0);
    // Per level: input arrays (level 0: the user's), output x, boundary rows (partition levels). Coarse
    // levels hold one chunk's systems; the chunks reuse them one after another.
    type Arrays = {
      A: GPUBuffer | 'lower';
      B: GPUBuffer | 'diag';
      C: GPUBuffer | 'upper';
      D: GPUBuffer | 'rhs';
      X: GPUBuffer | 'out';
    };
    const arrays: Arrays[] = [{ A: 'lower', B: 'diag', C: 'upper', D: 'rhs', X: 'out' }];
    for (let l = 1; l < levels.length; l++) {
      const cnt = levels[l].n * maxSys;
      arrays.push({
        A: this.scratch(cnt, `tridiagonal L${l} lower`),
        B: this.scratch(cnt, `tridiagonal L${l} diag`),
        C: this.scratch(cnt, `tridiagonal L${l} upper`),
        D: this.scratch(cnt, `tridiagonal L${l} rhs`),
        X: this.scratch(cnt, `tridiagonal L${l} x`),
      });
    }
    // Uniform blocks of a chunk: one per level, then one per partition level for 'form'.
    type Block = { level: number; form: boolean };
    const blocks: Block[] = levels.map((_, l) => ({ level: l, form: false }));
    const formBlock: number[] = [];
    levels.forEach((lv, l) => {
      if (lv.mode === 'partition') {
        formBlock[l] = blocks.length;
        blocks.push({ level: l, form: true });
      }
    });
    const down: Step[] = [];
    const up: Step[] = [];
    const store = this.statusStore;
    for (let l = 0; l < levels.length; l++) {
      const lv = levels[l];
      const arr = arrays[l];
      if (lv.mode === 'solve' && lv.algorithm === 'thomas-stream') {
        const pipe = await getPipeline(
          ctx,
          thomasStreamKernel({
            complex: problem.complex,
            chunk: lv.rowsPerThread,
            threads: lv.threads,
            statusStore: store,
          }),
        );
        const cp = this.scratch(lv.n * maxSys, `tridiagonal L${l} c'`);
        down.push({ pipeline: pipe, block: l, bindings: ['params', arr.A, arr.B, arr.C, arr.D, 'status', arr.X, cp] });
        continue;
      }
      if (lv.mode === 'solve') {
        const kernel =
          lv.algorithm === 'thomas'
            ? thomasKernel({
                complex: problem.complex,
                rows: lv.segment,
                threads: lv.threads,
                statusStore: store,
                exact: lv.n === lv.segment,
              })
            : wangMouKernel(wangMouSpec(lv, 'solve', problem.complex, store));
        const pipe = await getPipeline(ctx, kernel);
        down.push({ pipeline: pipe, block: l, bindings: ['params', arr.A, arr.B, arr.C, arr.D, 'status', arr.X] });
        continue;
      }
      const bnd = this.scratch(maxSys * lv.chunks * 6, `tridiagonal L${l} boundary rows`);
      const reduce = await getPipeline(ctx, wangMouKernel(wangMouSpec(lv, 'reduce', problem.complex)));
      down.push({ pipeline: reduce, block: l, bindings: ['params', arr.A, arr.B, arr.C, arr.D, 'status', bnd] });
      const form = await getPipeline(
        ctx,
        formCoarseKernel({ complex: problem.complex, layout: lv.layout, chunkRows: lv.segment }),
      );
      const next = arrays[l + 1];
      down.push({
        pipeline: form,
        block: formBlock[l],
        bindings: [
          'params',
          arr.A,
          arr.B,
          arr.C,
          arr.D,
          'status',
          bnd,
          next.A as GPUBuffer,
          next.B as GPUBuffer,
          next.C as GPUBuffer,
          next.D as GPUBuffer,
        ],
      });
      const expand = await getPipeline(ctx, wangMouKernel(wangMouSpec(lv, 'expand', problem.complex)));
      up.unshift({
        pipeline: expand,
        block: l,
        bindings: ['params', arr.A, arr.B, arr.C, arr.D, 'status', arr.X, next.X as GPUBuffer],
      });
    }
    this.steps = [...down, ...up];

    // Uniforms of every chunk, in one buffer; the grids of each block.
    this.blocksPerChunk = blocks.length;
    const words = new Uint32Array((chunks.length * blocks.length * UNIFORM_ALIGN) / 4);
    const blockGrids: [number, number][][] = [];
    chunks.forEach((c, ci) => {
      const gridsOfChunk: [number, number][] = [];
      blocks.forEach((bk, bi) => {
        const lv = levels[bk.level];
        const l = bk.level;
        const total = bk.form
          ? c.systems * lv.separators
          : lv.mode === 'solve'
            ? Math.ceil(c.systems / lv.systemsPerWorkgroup)
            : lv.acrossSystems
              ? lv.chunks * Math.ceil(c.systems / lv.systemsPerWorkgroup)
              : Math.ceil((c.systems * lv.chunks) / lv.systemsPerWorkgroup);
        const grid = dispatchGrid(bk.form ? Math.ceil(total / FORM_WORKGROUP) : total, maxDim);
        gridsOfChunk.push(grid);
        words.set(
          [
            lv.n,
            l === 0 ? c.matrices : c.systems,
            c.systems,
            c.matrices,
            lv.chunks,
            lv.separators,
            grid[0],
            total,
            l === 0 ? problem.batch : c.systems,
            l === 0 ? c.mat.rem : 0,
            l === 0 ? c.rhs.rem : 0,
            c.status.rem,
          ],
          ((ci * blocks.length + bi) * UNIFORM_ALIGN) / 4,
        );
      });
      blockGrids.push(gridsOfChunk);
    });
    this.grids = blockGrids.map((g) => this.steps.map((st) => g[st.block]));
    this.paramsBuf = ctx.device.createBuffer({
      size: words.byteLength,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'tridiagonal params',
    });
    this.owned.push(this.paramsBuf);
    ctx.device.queue.writeBuffer(this.paramsBuf, 0, words);
  }

  private bindGroups(bufs: TridiagonalGpuBuffers): GPUBindGroup[][] {
    const key = [bufs.lower, bufs.diag, bufs.upper, bufs.rhs, bufs.out, bufs.status];
    if (this.lastKey && key.every((b, i) => b === this.lastKey![i])) return this.lastGroups;
    const windowOf = (c: TridiagonalChunk, k: UserKey) =>
      k === 'status' ? c.status : k === 'rhs' || k === 'out' ? c.rhs : c.mat;
    const groups = this.chunks.map((c, ci) =>
      this.steps.map((st) =>
        this.ctx.device.createBindGroup({
          layout: st.pipeline.getBindGroupLayout(0),
          entries: st.bindings.map((b, i): GPUBindGroupEntry => {
            if (b === 'params') {
              return {
                binding: i,
                resource: {
                  buffer: this.paramsBuf!,
                  offset: (ci * this.blocksPerChunk + st.block) * UNIFORM_ALIGN,
                  size: PARAMS_BYTES,
                },
              };
            }
            if (typeof b === 'string') {
              const w = windowOf(c, b);
              return { binding: i, resource: { buffer: bufs[b], offset: w.offset, size: w.size } };
            }
            return { binding: i, resource: { buffer: b } };
          }),
        }),
      ),
    );
    this.lastKey = key;
    this.lastGroups = groups;
    return groups;
  }

  /**
   * Records the whole solve into `encoder`: the status clear where the kernels OR their bits into it
   * (not where they store every word, statusByStore), then all dispatches of all chunks.
   */
  record(
    encoder: GPUCommandEncoder,
    bufs: TridiagonalGpuBuffers,
    timestampWrites?: GPUComputePassTimestampWrites,
  ): void {
    if (this.destroyed) throw new DestroyedError('tridiagonal plan: used after destroy()');
    const groups = this.bindGroups(bufs);
    if (!this.statusStore) encoder.clearBuffer(bufs.status, 0, this.recipe.problem.batch * 4);
    const pass = encoder.beginComputePass(timestampWrites ? { timestampWrites } : {});
    this.chunks.forEach((_, ci) => {
      this.steps.forEach((st, i) => {
        const grid = this.grids[ci][i];
        pass.setPipeline(st.pipeline);
        pass.setBindGroup(0, groups[ci][i]);
        pass.dispatchWorkgroups(grid[0], grid[1]);
      });
    });
    pass.end();
  }

  /** Number of dispatches a solve makes (for benchmarks and tests). */
  get dispatches(): number {
    return this.steps.length * this.chunks.length;
  }

  /** Number of chunks (binding windows) a solve is split into; 1 when everything fits. */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** The chunks (windows and systems), for tests. */
  get chunkPlan(): readonly TridiagonalChunk[] {
    return this.chunks;
  }

  /** The dispatch grids of every chunk, one per step (for tests). */
  get dispatchGrids(): readonly (readonly [number, number][])[] {
    return this.grids;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
    this.owned = [];
    this.paramsBuf = null;
    this.lastGroups = [];
    this.lastKey = null;
  }
}
