/**
 * WebGPU executor for grid convolutions (codegen/convolve-grid.ts): owns the pipelines, the twiddle
 * table, the uniforms and the intermediates of the split version, and records the whole chain into one
 * compute pass (dispatches in one pass are ordered and see each other's writes).
 *
 * Batch (number of slices) is fixed per plan because the split version's intermediates are sized by it.
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import {
  generateGridKernel,
  GRID_BINDING_INDEX,
  GRID_PARAMS_BYTES,
  type GridGeometry,
  type GridKernelSource,
} from '../../codegen/convolve-grid.js';
import { planGridConv, type GridConvRecipe, type GridPlanOptions } from '../../planner/convolve-grid.js';
import { twiddleTable32 } from '../../planner/twiddles.js';
import { checkReadback, createStorageBuffer, readBuffer, type GpuContext } from './device.js';
import { getPipeline } from './pipelines.js';
import { dispatchGrid } from '../../planner/dispatch.js';

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
  /** Bind groups by source, destination, spectra and the windows' byte offsets. */
  private readonly groups = new WeakMap<
    GPUBuffer,
    WeakMap<GPUBuffer, Map<GPUBuffer | null, Map<string, GPUBindGroup[]>>>
  >();
  /** Variants of a smaller batch (withBatch) share pipelines, twiddles and intermediates with their parent. */
  private ownsShared = true;

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

  /**
   * Bytes one slice adds to the largest per-batch binding (input, output, intermediates): the batch that
   * fits a binding of B bytes is ⌊B / this⌋. Callers split larger batches into windows with it.
   */
  static bindingBytesPerSlice(ctx: GpuContext, geometry: GridGeometry, options: GridPlanOptions = {}): number {
    const recipe = planGridConv(geometry, ctx.limits, options);
    const g = recipe.geometry;
    return (
      BYTES * Math.max(g.inRows * g.inCols, g.inverse ? g.outRows * g.outCols : g.P * g.Q, ...recipe.intermediates)
    );
  }

  static async create(
    ctx: GpuContext,
    geometry: GridGeometry,
    batch: number,
    options: GridConvOptions = {},
  ): Promise<GridConvolver> {
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
      if (n * BYTES > maxBinding)
        throw new DeviceLimitError('maxStorageBufferBindingSize', n * BYTES, maxBinding, `grid convolution ${what}`);
    }
    const tw = new Float32Array(2 * (g.P + g.Q));
    tw.set(twiddleTable32(g.P), 0);
    tw.set(twiddleTable32(g.Q), 2 * g.P);
    const twiddles = createStorageBuffer(ctx, tw, 'gridconv twiddles');
    const t1 =
      recipe.intermediates.length > 0
        ? createStorageBuffer(ctx, batch * recipe.intermediates[0] * BYTES, 'gridconv T1')
        : null;
    const t2 =
      recipe.intermediates.length > 1
        ? createStorageBuffer(ctx, batch * recipe.intermediates[1] * BYTES, 'gridconv T2')
        : null;
    const chain: [Pass['from'], Pass['to']][] =
      recipe.algorithm === 'fused'
        ? [['src', 'dst']]
        : g.inverse
          ? [
              ['src', 't1'],
              ['t1', 't2'],
              ['t2', 'dst'],
            ]
          : [
              ['src', 't1'],
              ['t1', 'dst'],
            ];
    const passes: Pass[] = [];
    try {
      for (let i = 0; i < recipe.kernels.length; i++) {
        const kernel = generateGridKernel(g, recipe.kernels[i]);
        const pipeline = await getPipeline(ctx, kernel);
        const grid = dispatchGrid(kernel.workgroups(batch), ctx.limits.maxComputeWorkgroupsPerDimension);
        const params = ctx.device.createBuffer({
          size: GRID_PARAMS_BYTES,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
          label: 'gridconv params',
        });
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

  /**
   * The same convolution for a smaller batch (a window of a larger one): shares pipelines, twiddles and
   * intermediates with this plan, which must outlive it; only its uniforms are its own.
   */
  withBatch(batch: number): GridConvolver {
    if (this.destroyed) throw new DestroyedError('grid convolution plan was destroyed');
    if (!Number.isSafeInteger(batch) || batch < 1 || batch > this.batch)
      throw new ArgumentError('batch', batch, `an integer in [1, ${this.batch}]`);
    const passes = this.passes.map((p) => {
      const grid = dispatchGrid(p.kernel.workgroups(batch), this.ctx.limits.maxComputeWorkgroupsPerDimension);
      const params = this.ctx.device.createBuffer({
        size: GRID_PARAMS_BYTES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        label: 'gridconv params',
      });
      this.ctx.device.queue.writeBuffer(params, 0, new Uint32Array([batch, grid[0], this.comps, this.layers]));
      return { ...p, grid, params };
    });
    const v = new GridConvolver(
      this.ctx,
      this.recipe,
      batch,
      this.comps,
      this.layers,
      passes,
      this.twiddles,
      this.t1,
      this.t2,
    );
    v.ownsShared = false;
    return v;
  }

  private bindGroups(
    src: GPUBuffer,
    dst: GPUBuffer,
    shape: GPUBuffer | null,
    srcOffset: number,
    dstOffset: number,
  ): GPUBindGroup[] {
    let a = this.groups.get(src);
    if (!a) this.groups.set(src, (a = new WeakMap()));
    let b = a.get(dst);
    if (!b) a.set(dst, (b = new Map()));
    let c = b.get(shape);
    if (!c) b.set(shape, (c = new Map()));
    const key = `${srcOffset}/${dstOffset}`;
    const hit = c.get(key);
    if (hit) return hit;
    const buffers = { src, dst, t1: this.t1, t2: this.t2 };
    // The user's buffers are bound as windows of exactly this batch (a larger buffer may hold several).
    const inBytes = BYTES * this.inputLength;
    const outBytes = BYTES * this.outputLength;
    const made = this.passes.map((p) => {
      const res: Record<string, GPUBufferBinding> = {
        src: p.from === 'src' ? { buffer: src, offset: srcOffset, size: inBytes } : { buffer: buffers[p.from]! },
        dst: p.to === 'dst' ? { buffer: dst, offset: dstOffset, size: outBytes } : { buffer: buffers[p.to]! },
        twiddles: { buffer: this.twiddles },
        params: { buffer: p.params },
      };
      if (p.kernel.bindings.includes('shape')) {
        if (!shape) throw new ArgumentError('shape', shape, 'a buffer of spectra (this convolution multiplies by S)');
        res.shape = { buffer: shape };
      }
      return this.ctx.device.createBindGroup({
        layout: p.pipeline.getBindGroupLayout(0),
        label: p.kernel.name,
        entries: p.kernel.bindings.map((name) => ({ binding: GRID_BINDING_INDEX[name], resource: res[name] })),
      });
    });
    c.set(key, made);
    return made;
  }

  /**
   * Records the convolution src → dst (multiplying by the spectra in `shape`) into `encoder`. The input and
   * output are read and written at byte offsets `srcOffset` / `dstOffset` (multiples of the device's
   * minStorageBufferOffsetAlignment), so one buffer can hold several windows of a larger batch.
   */
  encode(
    encoder: GPUCommandEncoder,
    src: GPUBuffer,
    dst: GPUBuffer,
    shape: GPUBuffer | null = null,
    srcOffset = 0,
    dstOffset = 0,
  ): void {
    if (this.destroyed) throw new DestroyedError('grid convolution plan was destroyed');
    const ctx = this.ctx;
    ctx.assertUsable('grid convolution');
    ctx.checkEncoder('encoder', encoder);
    const align = ctx.limits.minStorageBufferOffsetAlignment;
    for (const [name, off] of [
      ['srcOffset', srcOffset],
      ['dstOffset', dstOffset],
    ] as const) {
      if (!Number.isSafeInteger(off) || off < 0 || off % align !== 0)
        throw new ArgumentError(name, off, `a non-negative multiple of ${align} bytes`);
    }
    ctx.checkBuffer('src', src, srcOffset + BYTES * this.inputLength);
    ctx.checkBuffer('dst', dst, dstOffset + BYTES * this.outputLength);
    if (shape) ctx.checkBuffer('shape', shape, BYTES * this.shapeLength);
    const groups = this.bindGroups(src, dst, shape, srcOffset, dstOffset);
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
    if (x.length !== 2 * this.inputLength)
      throw new ArgumentError('x', x, `${2 * this.inputLength} values (${this.batch} slices, interleaved complex)`);
    if (this.geometry.inverse && (!shape || shape.length !== 2 * this.shapeLength)) {
      throw new ArgumentError(
        'shape',
        shape,
        `${2 * this.shapeLength} values (${this.layers} spectra of ${this.geometry.P}×${this.geometry.Q}, interleaved complex)`,
      );
    }
    const ctx = this.ctx;
    const src = createStorageBuffer(ctx, x, 'gridconv src');
    const sb = shape && this.geometry.inverse ? createStorageBuffer(ctx, shape, 'gridconv shape') : null;
    const outBytes = 2 * this.outputLength * 4;
    checkReadback(outBytes, `the result of a grid convolution of ${this.batch} slices`);
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
    for (const p of this.passes) p.params.destroy();
    if (!this.ownsShared) return;
    this.twiddles.destroy();
    this.t1?.destroy();
    this.t2?.destroy();
  }
}
