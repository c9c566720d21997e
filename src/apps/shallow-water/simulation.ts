/**
 * The shallow-water application API: one simulation object over either backend, and a driver that
 * advances to an end time while taking snapshots and a mass time series.
 *
 *   const sim = await createSweSimulation(damBreak(400), { backend: 'auto' });
 *   const run = await runSwe(sim, { tEnd: 1, snapshots: 4, onSnapshot: (s) => ... });
 *   run.series  // [{ time, steps, water, pollutant }]
 *   sim.destroy();
 */
import { ArgumentError, BackendUnavailableError } from '../../errors.js';
import { SweCpuSolver } from '../../backends/cpu/shallow-water.js';
import { SweGpuSolver, type SweGpuOptions } from '../../backends/webgpu/shallow-water.js';
import { defaultGpuContext, type GpuContext } from '../../backends/webgpu/device.js';
import { masses, type SweProblem, type SweState } from './problem.js';

export type SweBackend = 'auto' | 'webgpu' | 'cpu';

export interface SweSimulationOptions {
  /** 'auto' (default): WebGPU if an adapter is available, else the float64 CPU reference. */
  backend?: SweBackend;
  gpu?: GpuContext;
  /**
   * WebGPU: experimental kernel overrides (structure, tile shape, rows an invocation, depth pair; see
   * SweKernelOptions), for benchmarks and tests. The defaults are the fastest measured.
   */
  tuning?: SweGpuOptions;
}

export interface SweSimulation {
  readonly backend: 'webgpu' | 'cpu';
  /** 'float32' on WebGPU, 'float64' on the CPU. */
  readonly precision: 'float32' | 'float64';
  readonly problem: SweProblem;
  /** Simulated time and steps taken so far. */
  readonly time: number;
  readonly steps: number;
  /** Advances to tEnd (seconds). onProgress gets the time reached now and then. */
  advance(tEnd: number, options?: { onProgress?: (time: number, steps: number) => void }): Promise<void>;
  /** A float64 copy of the current state. */
  read(): Promise<SweState>;
  destroy(): void;
}

class CpuSimulation implements SweSimulation {
  readonly backend = 'cpu' as const;
  readonly precision = 'float64' as const;
  readonly solver: SweCpuSolver;
  constructor(readonly problem: SweProblem) {
    this.solver = new SweCpuSolver(problem);
  }
  get time(): number {
    return this.solver.time;
  }
  get steps(): number {
    return this.solver.steps;
  }
  async advance(tEnd: number, options: { onProgress?: (time: number, steps: number) => void } = {}): Promise<void> {
    if (!Number.isFinite(tEnd) || tEnd < 0) throw new ArgumentError('tEnd', tEnd, 'a finite time ≥ 0');
    let last = performance.now();
    this.solver.advance(tEnd, {
      onStep: (t, s) => {
        const now = performance.now();
        if (now - last > 200) {
          last = now;
          options.onProgress?.(t, s);
        }
      },
    });
    options.onProgress?.(this.solver.time, this.solver.steps);
  }
  async read(): Promise<SweState> {
    return this.solver.state();
  }
  destroy(): void {}
}

class GpuSimulation implements SweSimulation {
  readonly backend = 'webgpu' as const;
  readonly precision = 'float32' as const;
  constructor(
    readonly problem: SweProblem,
    readonly solver: SweGpuSolver,
  ) {}
  get time(): number {
    return this.solver.time;
  }
  get steps(): number {
    return this.solver.steps;
  }
  advance(tEnd: number, options: { onProgress?: (time: number, steps: number) => void } = {}): Promise<void> {
    return this.solver.advance(tEnd, options);
  }
  read(): Promise<SweState> {
    return this.solver.read();
  }
  destroy(): void {
    this.solver.destroy();
  }
}

export async function createSweSimulation(
  problem: SweProblem,
  options: SweSimulationOptions = {},
): Promise<SweSimulation> {
  const backend = options.backend ?? 'auto';
  if (!['auto', 'webgpu', 'cpu'].includes(backend))
    throw new ArgumentError('backend', backend, "'auto', 'webgpu' or 'cpu'");
  if (backend === 'cpu') return new CpuSimulation(problem);
  let ctx: GpuContext | null = options.gpu ?? null;
  if (!ctx) {
    try {
      ctx = await defaultGpuContext();
    } catch (e) {
      if (backend === 'webgpu') throw e instanceof BackendUnavailableError ? e : new BackendUnavailableError(String(e));
      return new CpuSimulation(problem);
    }
  }
  return new GpuSimulation(problem, await SweGpuSolver.create(ctx, problem, options.tuning));
}

export interface SweSeriesPoint {
  time: number;
  steps: number;
  /** Total water volume Σ h·|V| and pollutant amount Σ hC·|V|. */
  water: number;
  pollutant: number;
}

export interface SweRunOptions {
  tEnd: number;
  /** Snapshots at equal time intervals, the initial and final states included (default 2: both ends). */
  snapshots?: number;
  /** Points of the mass time series (default: at the snapshots, and at least 20). */
  seriesPoints?: number;
  onSnapshot?: (state: SweState, index: number) => void | Promise<void>;
  /** Fraction of the run done, 0..1, with the simulated time. */
  onProgress?: (fraction: number, time: number, steps: number) => void;
}

export interface SweRunResult {
  series: SweSeriesPoint[];
  final: SweState;
  wallSeconds: number;
}

/**
 * Advances sim from its current time to tEnd, reading the state back at the series points (every
 * snapshot is also a series point). On the GPU each read-back is a full state copy, so keep the
 * number of points moderate for large meshes.
 */
export async function runSwe(sim: SweSimulation, options: SweRunOptions): Promise<SweRunResult> {
  const { tEnd } = options;
  if (!Number.isFinite(tEnd) || tEnd < sim.time)
    throw new ArgumentError('tEnd', tEnd, `a finite time ≥ the current time ${sim.time}`);
  const nSnap = Math.max(2, options.snapshots ?? 2);
  const nSeries = Math.max(nSnap, options.seriesPoints ?? Math.max(20, nSnap));
  const t0 = sim.time;
  const times = new Set<number>();
  const snapAt = new Map<number, number>();
  for (let k = 0; k < nSeries; k++) times.add(t0 + ((tEnd - t0) * k) / (nSeries - 1));
  for (let k = 0; k < nSnap; k++) {
    const t = t0 + ((tEnd - t0) * k) / (nSnap - 1);
    times.add(t);
    snapAt.set(t, k);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const series: SweSeriesPoint[] = [];
  const start = performance.now();
  let final: SweState | null = null;
  for (const t of sorted) {
    await sim.advance(t, {
      onProgress: (time, steps) => options.onProgress?.(tEnd > t0 ? (time - t0) / (tEnd - t0) : 1, time, steps),
    });
    const state = await sim.read();
    const m = masses(sim.problem, state);
    series.push({ time: state.time, steps: state.steps, water: m.water, pollutant: m.pollutant });
    const k = snapAt.get(t);
    if (k !== undefined) await options.onSnapshot?.(state, k);
    final = state;
  }
  return { series, final: final!, wallSeconds: (performance.now() - start) / 1000 };
}
