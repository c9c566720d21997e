/**
 * WebGPU executor for a Wang & Mou tridiagonal recipe: pipelines, scratch buffers for the coarse
 * levels, uniform blocks, bind groups and the dispatch sequence
 *   reduce(0) → form(1) → … → solve(last) → … → expand(1) → expand(0),
 * all recorded into one compute pass (WebGPU orders dispatches of a pass and makes each one's writes
 * visible to the next).
 */
import { DeviceLimitError, DestroyedError } from '../../errors.js';
import type { GpuContext } from './device.js';
import { dispatchGrid, getPipeline } from './pipelines.js';
import type { TridiagonalRecipe } from '../../planner/tridiagonal.js';
import { FORM_WORKGROUP, formCoarseKernel, wangMouKernel, wangMouSpec } from '../../codegen/tridiagonal-wang-mou.js';

export interface TridiagonalGpuBuffers {
  lower: GPUBuffer;
  diag: GPUBuffer;
  upper: GPUBuffer;
  rhs: GPUBuffer;
  /** Solution, same layout as rhs. May not alias the inputs. */
  out: GPUBuffer;
  /** One u32 per matrix; cleared and then OR-ed with the status bits by the solve. */
  status: GPUBuffer;
}

interface Step {
  pipeline: GPUComputePipeline;
  grid: [number, number];
  /** Bindings (index → buffer) of this step; 'user:*' entries are filled per call. */
  bindings: (GPUBuffer | keyof TridiagonalGpuBuffers)[];
}

const USAGE_SCRATCH = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

export class TridiagonalGpuExecutor {
  private steps: Step[] = [];
  private owned: GPUBuffer[] = [];
  private destroyed = false;
  private lastKey: GPUBuffer[] | null = null;
  private lastGroups: GPUBindGroup[] = [];

  private constructor(readonly ctx: GpuContext, readonly recipe: TridiagonalRecipe) {}

  static async create(ctx: GpuContext, recipe: TridiagonalRecipe): Promise<TridiagonalGpuExecutor> {
    const ex = new TridiagonalGpuExecutor(ctx, recipe);
    await ex.build();
    return ex;
  }

  /** Bytes of one element (f32 or complex f32). */
  get elementBytes(): number {
    return this.recipe.problem.complex ? 8 : 4;
  }

  private scratch(elements: number, label: string): GPUBuffer {
    const bytes = Math.max(16, Math.ceil((elements * this.elementBytes) / 16) * 16);
    const lim = this.ctx.limits.maxStorageBufferBindingSize;
    if (bytes > lim) throw new DeviceLimitError('maxStorageBufferBindingSize', bytes, lim, `tridiagonal scratch ${label}`);
    const b = this.ctx.device.createBuffer({ size: bytes, usage: USAGE_SCRATCH(), label });
    this.owned.push(b);
    return b;
  }

  private params(values: number[], label: string): GPUBuffer {
    const b = this.ctx.device.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label });
    this.ctx.device.queue.writeBuffer(b, 0, new Uint32Array(values));
    this.owned.push(b);
    return b;
  }

  private async build(): Promise<void> {
    const { ctx, recipe } = this;
    const { problem, levels } = recipe;
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    await ctx.checked('tridiagonal plan', () => undefined);
    // Per level: input arrays (level 0: the user's), output x, boundary rows (partition levels).
    type Arrays = { A: GPUBuffer | 'lower'; B: GPUBuffer | 'diag'; C: GPUBuffer | 'upper'; D: GPUBuffer | 'rhs'; X: GPUBuffer | 'out' };
    const arrays: Arrays[] = [{ A: 'lower', B: 'diag', C: 'upper', D: 'rhs', X: 'out' }];
    for (let l = 1; l < levels.length; l++) {
      const cnt = levels[l].n * levels[l].systems;
      arrays.push({
        A: this.scratch(cnt, `tridiagonal L${l} lower`), B: this.scratch(cnt, `tridiagonal L${l} diag`),
        C: this.scratch(cnt, `tridiagonal L${l} upper`), D: this.scratch(cnt, `tridiagonal L${l} rhs`),
        X: this.scratch(cnt, `tridiagonal L${l} x`),
      });
    }
    const levelParams: GPUBuffer[] = [];
    const grids: [number, number][] = [];
    for (let l = 0; l < levels.length; l++) {
      const lv = levels[l];
      const grid = dispatchGrid(lv.workgroups, maxDim);
      grids.push(grid);
      levelParams.push(this.params([
        lv.n, l === 0 ? problem.batch : lv.systems, lv.systems, problem.batch,
        lv.chunks, lv.separators, grid[0], lv.workgroups,
      ], `tridiagonal L${l} params`));
    }
    const down: Step[] = [];
    const up: Step[] = [];
    for (let l = 0; l < levels.length; l++) {
      const lv = levels[l];
      const arr = arrays[l];
      if (lv.mode === 'solve') {
        const pipe = await getPipeline(ctx, wangMouKernel(wangMouSpec(lv, 'solve', problem.complex)));
        down.push({ pipeline: pipe, grid: grids[l], bindings: [levelParams[l], arr.A, arr.B, arr.C, arr.D, 'status', arr.X] });
        continue;
      }
      const bnd = this.scratch(lv.systems * lv.chunks * 6, `tridiagonal L${l} boundary rows`);
      const reduce = await getPipeline(ctx, wangMouKernel(wangMouSpec(lv, 'reduce', problem.complex)));
      down.push({ pipeline: reduce, grid: grids[l], bindings: [levelParams[l], arr.A, arr.B, arr.C, arr.D, 'status', bnd] });
      const formCount = lv.systems * lv.separators;
      const formGroups = Math.ceil(formCount / FORM_WORKGROUP);
      const formGrid = dispatchGrid(formGroups, maxDim);
      const formParams = this.params([
        lv.n, l === 0 ? problem.batch : lv.systems, lv.systems, problem.batch,
        lv.chunks, lv.separators, formGrid[0], formCount,
      ], `tridiagonal L${l} form params`);
      const form = await getPipeline(ctx, formCoarseKernel({ complex: problem.complex, layout: lv.layout, chunkRows: lv.rowsPerWorkgroup }));
      const next = arrays[l + 1];
      down.push({ pipeline: form, grid: formGrid, bindings: [formParams, arr.A, arr.B, arr.C, arr.D, 'status', bnd, next.A as GPUBuffer, next.B as GPUBuffer, next.C as GPUBuffer, next.D as GPUBuffer] });
      const expand = await getPipeline(ctx, wangMouKernel(wangMouSpec(lv, 'expand', problem.complex)));
      up.unshift({ pipeline: expand, grid: grids[l], bindings: [levelParams[l], arr.A, arr.B, arr.C, arr.D, 'status', arr.X, next.X as GPUBuffer] });
    }
    this.steps = [...down, ...up];
  }

  private bindGroups(bufs: TridiagonalGpuBuffers): GPUBindGroup[] {
    const key = [bufs.lower, bufs.diag, bufs.upper, bufs.rhs, bufs.out, bufs.status];
    if (this.lastKey && key.every((b, i) => b === this.lastKey![i])) return this.lastGroups;
    const groups = this.steps.map((st) =>
      this.ctx.device.createBindGroup({
        layout: st.pipeline.getBindGroupLayout(0),
        entries: st.bindings.map((b, i) => ({
          binding: i,
          resource: { buffer: typeof b === 'string' ? bufs[b] : b },
        })),
      }),
    );
    this.lastKey = key;
    this.lastGroups = groups;
    return groups;
  }

  /** Records the whole solve (status clear + all dispatches) into `encoder`. */
  record(encoder: GPUCommandEncoder, bufs: TridiagonalGpuBuffers, timestampWrites?: GPUComputePassTimestampWrites): void {
    if (this.destroyed) throw new DestroyedError('tridiagonal plan: used after destroy()');
    const groups = this.bindGroups(bufs);
    encoder.clearBuffer(bufs.status, 0, Math.ceil((this.recipe.problem.batch * 4) / 4) * 4);
    const pass = encoder.beginComputePass(timestampWrites ? { timestampWrites } : {});
    this.steps.forEach((st, i) => {
      pass.setPipeline(st.pipeline);
      pass.setBindGroup(0, groups[i]);
      pass.dispatchWorkgroups(st.grid[0], st.grid[1]);
    });
    pass.end();
  }

  /** Number of dispatches a solve makes (for benchmarks and tests). */
  get dispatches(): number {
    return this.steps.length;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
    this.owned = [];
    this.lastGroups = [];
    this.lastKey = null;
  }
}
