/**
 * WebGPU executor for grid convolutions (codegen/convolve-grid.ts): owns the pipelines, the twiddle
 * table, the uniforms and the intermediates of the split version, and records the whole chain into one
 * compute pass (dispatches in one pass are ordered and see each other's writes).
 *
 * Batch (number of slices) is fixed per plan because the split version's intermediates are sized by it.
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import { generateGridKernel, GRID_BINDING_INDEX, GRID_PARAMS_BYTES, type GridGeometry, type GridKernelSource } from '../../codegen/convolve-grid.js';
import { planGridConv, type GridConvRecipe, type GridPlanOptions } from '../../codegen/convolve-plan.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';
import { dispatchGrid, getPipeline } from './pipelines.js';

export interface GridConvOptions extends GridPlanOptions {
  /** Consecutive slices sharing one spectrum (EDM: 3 field components). Default 1. */
  comps?: number;
  /** Number of spectra; slice s uses spectrum ⌊s / comps⌋ mod layers. Default 1. */
  layers?: number;
}

interface Pass {
  kernel: GridKernelSource;
  pipeline: GPUComputePipeline;
  grid: [number, number];
  params: GPUBuffer;
  from: 'src' | 't1' | 't2';
  to: 'dst' | 't1' | 't2';
}

const BYTES = 8;

export class GridConvolver {
  private destroyed = false;
  private readonly groups = new WeakMap<GPUBuffer, WeakMap<GPUBuffer, Map<GPUBuffer | null, GPUBindGroup[]>>>();

  private constructor(
    readonly ctx: GpuContext,
    readonly recipe: GridConvRecipe,
    readonly batch: number,
    readonly comps: number,
    readonly layers: number,
    private readonly passes: Pass[],
    private readonly twiddles: GPUBuffer,
    private readonly t1: GPUBuffer | null,
    private readonly t2: GPUBuffer | null,
  ) {}

  get geometry(): GridGeometry {
    return this.recipe.geometry;
  }

  /** Complex elements of the input (batch × inRows × inCols). */
  get inputLength(): number {
    const g = this.geometry;
    return this.batch * g.inRows * g.inCols;
  }

  /** Complex elements of the output (batch × outRows × outCols, or batch × P × Q for a spectrum). */
  get outputLength(): number {
    const g = this.geometry;
    return g.inverse ? this.batch * g.outRows * g.outCols : this.batch * g.P * g.Q;
  }

  /** Complex elements of the spectra (layers × P × Q). */
  get shapeLength(): number {
    return this.layers * this.geometry.P * this.geometry.Q;
  }

  static async create(ctx: GpuContext, geometry: GridGeometry, batch: number, options: GridConvOptions = {}): Promise<GridConvolver> {
    ctx.assertUsable('grid convolution');
    if (!Number.isSafeInteger(batch) || batch < 1) throw new ArgumentError('batch', batch, 'a positive integer');
    const comps = options.comps ?? 1;
    const layers = options.layers ?? 1;
    if (!Number.isSafeInteger(comps) || comps < 1) throw new ArgumentError('comps', comps, 'a positive integer');
    if (!Number.isSafeInteger(layers) || layers < 1) throw new ArgumentError('layers', layers, 'a positive integer');
    const recipe = planGridConv(geometry, ctx.limits, options);
    const g = recipe.geometry;
    const maxBinding = ctx.limits.maxStorageBufferBindingSize;
    for (const [what, n] of [
      ['input', batch * g.inRows * g.inCols],
      ['output', g.inverse ? batch * g.outRows * g.outCols : batch * g.P * g.Q],
      ...recipe.intermediates.map((e, i) => [`intermediate ${i + 1}`, batch * e] as const),
    ] as const) {
      if (n * BYTES > maxBinding) throw new DeviceLimitError('maxStorageBufferBindingSize', n * BYTES, maxBinding, `grid convolution ${what}`);
    }
    const tw = new Float32Array(2 * (g.P + g.Q));
    tw.set(twiddleTable32(g.P), 0);
    tw.set(twiddleTable32(g.Q), 2 * g.P);
    const twiddles = createStorageBuffer(ctx, tw, 'gridconv twiddles');
    const t1 = recipe.intermediates.length > 0 ? createStorageBuffer(ctx, batch * recipe.intermediates[0] * BYTES, 'gridconv T1') : null;
    const t2 = recipe.intermediates.length > 1 ? createStorageBuffer(ctx, batch * recipe.intermediates[1] * BYTES, 'gridconv T2') : null;
    const chain: [Pass['from'], Pass['to']][] =
      recipe.algorithm === 'fused' ? [['src', 'dst']] : g.inverse ? [['src', 't1'], ['t1', 't2'], ['t2', 'dst']] : [['src', 't1'], ['t1', 'dst']];
    const passes: Pass[] = [];
    try {
      for (let i = 0; i < recipe.kernels.length; i++) {
        const kernel = generateGridKernel(g, recipe.kernels[i]);
        const pipeline = await getPipeline(ctx, kernel);
        const grid = dispatchGrid(kernel.workgroups(batch), ctx.limits.maxComputeWorkgroupsPerDimension);
        const params = ctx.device.createBuffer({ size: GRID_PARAMS_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: 'gridconv params' });
        ctx.device.queue.writeBuffer(params, 0, new Uint32Array([batch, grid[0], comps, layers]));
        passes.push({ kernel, pipeline, grid, params, from: chain[i][0], to: chain[i][1] });
      }
    } catch (e) {
      // Nothing a failed plan allocated may outlive it (the caller may fall back to the CPU and go on).
      twiddles.destroy();
      t1?.destroy();
      t2?.destroy();
      for (const p of passes) p.params.destroy();
      throw e;
    }
    return new GridConvolver(ctx, recipe, batch, comps, layers, passes, twiddles, t1, t2);
  }

  private bindGroups(src: GPUBuffer, dst: GPUBuffer, shape: GPUBuffer | null): GPUBindGroup[] {
    let a = this.groups.get(src);
    if (!a) this.groups.set(src, (a = new WeakMap()));
    let b = a.get(dst);
    if (!b) a.set(dst, (b = new Map()));
    const hit = b.get(shape);
    if (hit) return hit;
    const buffers = { src, dst, t1: this.t1, t2: this.t2 };
    const made = this.passes.map((p) => {
      const res: Record<string, GPUBuffer> = {
        src: buffers[p.from]!,
        dst: buffers[p.to]!,
        twiddles: this.twiddles,
        params: p.params,
      };
      if (p.kernel.bindings.includes('shape')) {
        if (!shape) throw new ArgumentError('shape', shape, 'a buffer of spectra (this convolution multiplies by S)');
        res.shape = shape;
      }
      return this.ctx.device.createBindGroup({
        layout: p.pipeline.getBindGroupLayout(0),
        label: p.kernel.name,
        entries: p.kernel.bindings.map((name) => ({ binding: GRID_BINDING_INDEX[name], resource: { buffer: res[name] } })),
      });
    });
    b.set(shape, made);
    return made;
  }

  /** Records the convolution src → dst (multiplying by the spectra in `shape`) into `encoder`. */
  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer, shape: GPUBuffer | null = null): void {
    if (this.destroyed) throw new DestroyedError('grid convolution plan was destroyed');
    const groups = this.bindGroups(src, dst, shape);
    const pass = encoder.beginComputePass({ label: 'gridconv' });
    this.passes.forEach((p, i) => {
      pass.setPipeline(p.pipeline);
      pass.setBindGroup(0, groups[i]);
      pass.dispatchWorkgroups(p.grid[0], p.grid[1]);
    });
    pass.end();
  }

  /** Host round trip: uploads x (and the spectra), runs, reads back. Output poisoned with NaN first. */
  async run(x: Float32Array, shape: Float32Array | null = null): Promise<Float32Array> {
    if (this.destroyed) throw new DestroyedError('grid convolution plan was destroyed');
    if (x.length !== 2 * this.inputLength) throw new ArgumentError('x', x, `${2 * this.inputLength} values (${this.batch} slices, interleaved complex)`);
    if (this.geometry.inverse && (!shape || shape.length !== 2 * this.shapeLength)) {
      throw new ArgumentError('shape', shape, `${2 * this.shapeLength} values (${this.layers} spectra of ${this.geometry.P}×${this.geometry.Q}, interleaved complex)`);
    }
    const ctx = this.ctx;
    const src = createStorageBuffer(ctx, x, 'gridconv src');
    const sb = shape && this.geometry.inverse ? createStorageBuffer(ctx, shape, 'gridconv shape') : null;
    const outBytes = 2 * this.outputLength * 4;
    const dst = createStorageBuffer(ctx, new Float32Array(2 * this.outputLength).fill(NaN), 'gridconv dst');
    try {
      await ctx.checked('grid convolution', () => {
        const enc = ctx.device.createCommandEncoder();
        this.encode(enc, src, dst, sb);
        ctx.device.queue.submit([enc.finish()]);
      });
      return new Float32Array(await readBuffer(ctx, dst, 0, outBytes));
    } finally {
      src.destroy();
      sb?.destroy();
      dst.destroy();
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.twiddles.destroy();
    this.t1?.destroy();
    this.t2?.destroy();
    for (const p of this.passes) p.params.destroy();
  }
}
