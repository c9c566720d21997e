/**
 * WebGPU executor of the shallow-water scheme: device buffers (state ping-pong pair, with the depth
 * pair also the ping-pong pair of the depth's low parts, bathymetry, per-tile CFL partials, the 16-byte
 * Sim record {dt, t_hi, t_lo, steps}, uniforms), pipelines and the step recording. A step is
 * cfl → reduce → update in one compute pass (fused structure: reduce → update, after one cfl at the
 * start); many steps are recorded into one submission and the host reads only the 16-byte Sim record
 * between submissions to decide how many more steps to record (Δt itself never leaves the GPU).
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import type { SweProblem, SweState } from '../../planner/swe-problem.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';
import { getPipeline } from './pipelines.js';
import {
  SWE_PARAMS_BYTES,
  sweCflKernel,
  sweReduceKernel,
  sweUpdateKernel,
  sweStagedWorkgroupBytes,
  sweHaloWorkgroupBytes,
} from '../../codegen/shallow-water.js';
import { SWE_DEFAULT_KERNEL_OPTIONS, type SweKernelOptions } from '../../planner/swe-problem.js';
import { SWE_H_DRY } from '../cpu/shallow-water.js';

const KIND_CODE = { wall: 0, open: 1, tide: 2 } as const;

export interface SweGpuOptions extends Partial<SweKernelOptions> {
  /** Most steps recorded in one submission (default 256). */
  maxStepsPerSubmit?: number;
}

export interface SweAdvanceOptions {
  /** Called after each submission with the simulated time reached. */
  onProgress?: (time: number, steps: number) => void;
  /** Stop after this many steps even if tEnd is not reached. */
  maxSteps?: number;
}

/** Splits a float64 into an f32 pair whose sum approximates it to ~1e-14 relative. */
function split(t: number): [number, number] {
  const hi = Math.fround(t);
  return [hi, Math.fround(t - hi)];
}

/** The dispatches of one step (see encodeSteps). */
export type SweKernelName = 'cfl' | 'reduce' | 'update';

export class SweGpuSolver {
  private readonly buffers: GPUBuffer[] = [];
  private state: GPUBuffer[] = [];
  /** Low parts of the depth pair (ping-pong like the state), empty without options.depthPair. */
  private depthLo: GPUBuffer[] = [];
  private partials!: GPUBuffer;
  private sim!: GPUBuffer;
  private uniform!: GPUBuffer;
  private params = new ArrayBuffer(SWE_PARAMS_BYTES);
  private pipes!: { cfl: GPUComputePipeline; reduce: GPUComputePipeline; update: GPUComputePipeline };
  private groups!: { cfl: GPUBindGroup[]; reduce: GPUBindGroup; update: GPUBindGroup[] };
  private current = 0;
  /** Fused structure: whether the partials hold the current state's rates (after the first recorded cfl). */
  private ratesRecorded = false;
  /** Workgroups of the cfl dispatch (one partial each), and of the update dispatch. */
  private tiles: [number, number] = [1, 1];
  private updateTiles: [number, number] = [1, 1];
  private destroyed = false;
  private lastTEnd = NaN;
  /** Time and steps as of the last read of the Sim record. */
  time = 0;
  steps = 0;
  private lastDt = 0;

  private constructor(
    readonly ctx: GpuContext,
    readonly problem: SweProblem,
    readonly options: SweKernelOptions & { maxStepsPerSubmit: number },
  ) {}

  static async create(ctx: GpuContext, problem: SweProblem, options: SweGpuOptions = {}): Promise<SweGpuSolver> {
    const o = { ...SWE_DEFAULT_KERNEL_OPTIONS, maxStepsPerSubmit: 256, ...options };
    const s = new SweGpuSolver(ctx, problem, o);
    await s.build();
    return s;
  }

  /** Bytes of device memory held. */
  get deviceBytes(): number {
    return this.buffers.reduce((a, b) => a + b.size, 0);
  }

  private async build(): Promise<void> {
    const { ctx, problem: p, options: o } = this;
    const n = p.nx * p.ny;
    const maxThreads = ctx.limits.maxComputeInvocationsPerWorkgroup;
    const staged = o.structure !== 'halo';
    const fused = o.structure === 'fused';
    const [tw, th] = staged ? [o.tileX, o.tileY] : [o.tile, o.tile];
    const shape = `shallow-water ${o.structure} tile ${tw}×${th}${staged ? '' : `, ${o.cflRows} / ${o.rows} rows an invocation`}`;
    if (tw * th > maxThreads)
      throw new DeviceLimitError('maxComputeInvocationsPerWorkgroup', tw * th, maxThreads, shape);
    const maxX = ctx.limits.maxComputeWorkgroupSizeX; // heights are ≤ 256 (codegen check), which every device allows in y
    if (tw > maxX) throw new DeviceLimitError('maxComputeWorkgroupSizeX', tw, maxX, shape);
    const wgBytes = staged ? sweStagedWorkgroupBytes(tw, th) : sweHaloWorkgroupBytes(tw, o.rows, o.cflRows);
    if (wgBytes > ctx.limits.maxComputeWorkgroupStorageSize) {
      throw new DeviceLimitError(
        'maxComputeWorkgroupStorageSize',
        wgBytes,
        ctx.limits.maxComputeWorkgroupStorageSize,
        shape,
      );
    }
    const stateBytes = n * 16;
    const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
    if (stateBytes > maxBinding)
      throw new DeviceLimitError(
        'maxStorageBufferBindingSize',
        stateBytes,
        maxBinding,
        `shallow-water state of ${p.nx}×${p.ny} cells (16 bytes each)`,
      );
    // Cells each tile owns: staged W×H, fused (W−2)×(H−2) (a ring recomputed), halo (T−1)² (first row and column are halo).
    // Halo tiles are rows (cflRows) times taller: T·rows − 1 owned rows.
    const [ow, oh] = fused ? [tw - 2, th - 2] : staged ? [tw, th] : [tw - 1, th * o.cflRows - 1];
    this.tiles = [Math.ceil(p.nx / ow), Math.ceil(p.ny / oh)];
    this.updateTiles = staged ? this.tiles : [this.tiles[0], Math.ceil(p.ny / (th * o.rows - 1))];
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    if (Math.max(...this.tiles, ...this.updateTiles) > maxDim)
      throw new DeviceLimitError(
        'maxComputeWorkgroupsPerDimension',
        Math.max(...this.tiles, ...this.updateTiles),
        maxDim,
        `shallow-water mesh ${p.nx}×${p.ny}`,
      );
    const numPartials = this.tiles[0] * this.tiles[1];

    const w = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      w[4 * i] = p.h[i];
      w[4 * i + 1] = p.qx[i];
      w[4 * i + 2] = p.qy[i];
      w[4 * i + 3] = p.hc[i];
    }
    const mk = (data: ArrayBufferView | number, label: string) => {
      const b = createStorageBuffer(ctx, data, label);
      this.buffers.push(b);
      return b;
    };
    // The second state buffer starts poisoned (NaN) so that a cell the update failed to write shows.
    this.state = [mk(w, 'swe-state-0'), mk(new Float32Array(4 * n).fill(NaN), 'swe-state-1')];
    const H = mk(Float32Array.from(p.H), 'swe-bathymetry');
    if (o.depthPair) {
      // Low parts of the depth pair: the initial depth's rounding residual, then the ping-pong partner.
      const lo = new Float32Array(n);
      for (let i = 0; i < n; i++) lo[i] = p.h[i] - w[4 * i];
      this.depthLo = [mk(lo, 'swe-depth-lo-0'), mk(new Float32Array(n).fill(NaN), 'swe-depth-lo-1')];
    }
    this.partials = mk(numPartials * 4, 'swe-partials');
    this.sim = mk(new Float32Array(4), 'swe-sim');
    this.uniform = ctx.device.createBuffer({
      size: SWE_PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'swe-params',
    });
    this.buffers.push(this.uniform);

    const u = new Uint32Array(this.params);
    const f = new Float32Array(this.params);
    const b = p.boundaries;
    const pr = p.params;
    u.set(
      [
        p.nx,
        p.ny,
        this.tiles[0],
        numPartials,
        KIND_CODE[b.xmin],
        KIND_CODE[b.xmax],
        KIND_CODE[b.ymin],
        KIND_CODE[b.ymax],
      ],
      0,
    );
    f.set(
      [
        p.dx,
        p.dy,
        1 / p.dx,
        1 / p.dy,
        pr.g,
        pr.alpha,
        pr.hEps,
        pr.epsilon,
        pr.cfl,
        pr.g * pr.manning * pr.manning,
        0,
        0,
        p.tide.mean,
      ],
      8,
    );
    u[21] = p.tide.constituents.length;
    f[22] = SWE_H_DRY;
    f[23] = Number.isFinite(pr.dtMax) ? pr.dtMax : 3.4e38;
    f[40] = 0; // P.zero: keeps the compilers from folding the two-sums (see twoSum in the codegen)
    // Frequencies in cycles per second and phases in cycles: the kernel reduces the argument to half a
    // cycle before cos, whose accuracy WGSL only bounds on [−π, π] (hours of tide are thousands of radians).
    p.tide.constituents.forEach((c, k) => f.set([c.amplitude, 1 / c.period, c.phase / (2 * Math.PI), 0], 24 + 4 * k));
    ctx.device.queue.writeBuffer(this.uniform, 0, this.params);

    const [cfl, reduce, update] = await Promise.all([
      getPipeline(ctx, sweCflKernel(o)),
      getPipeline(ctx, sweReduceKernel(o)),
      getPipeline(ctx, sweUpdateKernel(o)),
    ]);
    this.pipes = { cfl, reduce, update };
    const d = ctx.device;
    const bg = (pipe: GPUComputePipeline, bufs: GPUBuffer[]) =>
      d.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })),
      });
    this.groups = {
      cfl: [0, 1].map((k) => bg(cfl, [this.state[k], H, this.partials, this.sim, this.uniform])),
      reduce: bg(reduce, [this.partials, this.sim, this.uniform]),
      update: [0, 1].map((k) => {
        const bufs = [this.state[k], H, this.state[1 - k], this.sim, this.uniform];
        if (o.depthPair) bufs.push(this.depthLo[k], this.depthLo[1 - k]);
        const entries = bufs.map((buffer, binding) => ({ binding, resource: { buffer } }));
        if (fused) entries.push({ binding: 7, resource: { buffer: this.partials } });
        return d.createBindGroup({ layout: update.getBindGroupLayout(0), entries });
      }),
    };
  }

  private assertUsable(what: string): void {
    if (this.destroyed) throw new DestroyedError(`${what}: the shallow-water solver was destroyed`);
    this.ctx.assertUsable(what);
  }

  private setEnd(tEnd: number): void {
    if (tEnd === this.lastTEnd) return;
    const [hi, lo] = split(tEnd);
    const f = new Float32Array(this.params);
    f[18] = hi;
    f[19] = lo;
    this.ctx.device.queue.writeBuffer(this.uniform, 18 * 4, this.params, 18 * 4, 8);
    this.lastTEnd = tEnd;
  }

  /**
   * Records `count` steps (cfl → reduce → update each; fused: reduce → update, the update leaving the
   * next step's rates in the partials, after one cfl for the first step) into one compute pass.
   * `only` (for benchmarks' per-kernel timings) records just the named dispatches of each step; the
   * state still alternates whenever the update runs.
   */
  encodeSteps(enc: GPUCommandEncoder, count: number, only?: readonly SweKernelName[]): void {
    const pass = enc.beginComputePass({ label: 'swe-steps' });
    const [tx, ty] = this.tiles;
    const fused = this.options.structure === 'fused';
    const runs = (k: SweKernelName) => !only || only.includes(k);
    for (let s = 0; s < count; s++) {
      const k = this.current;
      if ((!fused || !this.ratesRecorded || only) && runs('cfl')) {
        pass.setPipeline(this.pipes.cfl);
        pass.setBindGroup(0, this.groups.cfl[k]);
        pass.dispatchWorkgroups(tx, ty);
        this.ratesRecorded = true;
      }
      if (runs('reduce')) {
        pass.setPipeline(this.pipes.reduce);
        pass.setBindGroup(0, this.groups.reduce);
        pass.dispatchWorkgroups(1);
      }
      if (runs('update')) {
        pass.setPipeline(this.pipes.update);
        pass.setBindGroup(0, this.groups.update[k]);
        pass.dispatchWorkgroups(...this.updateTiles);
        this.current = 1 - k;
      }
    }
    pass.end();
  }

  /** Reads the Sim record: time (float64 from the f32 pair), steps, last Δt. */
  async readSim(): Promise<{ time: number; steps: number; dt: number }> {
    const raw = await readBuffer(this.ctx, this.sim, 0, 16);
    const f = new Float32Array(raw);
    const u = new Uint32Array(raw);
    this.time = f[1] + f[2];
    this.steps = u[3];
    this.lastDt = f[0];
    return { time: this.time, steps: this.steps, dt: f[0] };
  }

  /**
   * Steps until tEnd. Submissions of up to maxStepsPerSubmit steps; the size of the next one is
   * estimated from the last Δt so that few no-op steps are recorded past tEnd.
   */
  async advance(tEnd: number, options: SweAdvanceOptions = {}): Promise<void> {
    this.assertUsable('SweGpuSolver.advance');
    if (!Number.isFinite(tEnd) || tEnd < 0) throw new ArgumentError('tEnd', tEnd, 'a finite time ≥ 0');
    this.setEnd(tEnd);
    const maxSteps = options.maxSteps ?? Infinity;
    const startSteps = this.steps;
    const thr = 1e-7 * Math.abs(Math.fround(tEnd));
    for (;;) {
      const rem = tEnd - this.time;
      if (rem <= thr || this.steps - startSteps >= maxSteps) break;
      let count = this.lastDt > 0 ? Math.ceil(rem / this.lastDt) + 1 : 4;
      count = Math.max(1, Math.min(count, this.options.maxStepsPerSubmit, maxSteps - (this.steps - startSteps)));
      await this.ctx.checked('shallow-water steps', () => {
        const enc = this.ctx.device.createCommandEncoder();
        this.encodeSteps(enc, count);
        this.ctx.device.queue.submit([enc.finish()]);
      });
      const before = this.steps;
      const s = await this.readSim();
      options.onProgress?.(s.time, s.steps);
      if (s.steps === before && s.dt === 0) break; // nothing advanced: tEnd reached within f32 resolution
    }
  }

  /** Reads the current state back (float64 copies of the f32 values). */
  async read(): Promise<SweState> {
    this.assertUsable('SweGpuSolver.read');
    const n = this.problem.nx * this.problem.ny;
    const sim = await this.readSim();
    const w = new Float32Array(await readBuffer(this.ctx, this.state[this.current], 0, n * 16));
    const lo = this.depthLo.length
      ? new Float32Array(await readBuffer(this.ctx, this.depthLo[this.current], 0, n * 4))
      : null;
    const h = new Float64Array(n),
      qx = new Float64Array(n),
      qy = new Float64Array(n),
      hc = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      h[i] = lo ? w[4 * i] + lo[i] : w[4 * i];
      qx[i] = w[4 * i + 1];
      qy[i] = w[4 * i + 2];
      hc[i] = w[4 * i + 3];
    }
    return { nx: this.problem.nx, ny: this.problem.ny, time: sim.time, steps: sim.steps, h, qx, qy, hc };
  }

  /** The state buffer holding the current state (for benchmarks and interop). */
  get stateBuffer(): GPUBuffer {
    return this.state[this.current];
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.buffers) b.destroy();
  }
}
