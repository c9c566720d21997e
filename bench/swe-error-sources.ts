/**
 * Where the f32 GPU's difference to the float64 reference comes from (issue #8): the dam break to t = 1
 * at each size, L1 relative difference of h, q_x, q_y to the pure float64 run for
 *   - the float64 reference with one f32 rounding injected: the whole state stored in f32 between steps
 *     ("state"), only h ("h"), only q_x, q_y ("q"), or only Δt ("dt");
 *   - the GPU kernels with the depth in one f32 and as an f32 pair.
 * The injections wrap the reference's private update step (the rounding applies after every update), so
 * the arithmetic stays float64 and only the storage is rounded.
 *
 *   npx tsx bench/swe-error-sources.ts [--sizes 100,200,400] [--modes state,h,q,dt,gpu-f32,gpu-pair] [--out f.jsonl]
 */
import { SweCpuSolver } from '../src/backends/cpu/shallow-water.js';
import { SweGpuSolver } from '../src/backends/webgpu/shallow-water.js';
import { defaultGpuContext, type GpuContext } from '../src/backends/webgpu/device.js';
import { damBreak } from '../src/apps/shallow-water/scenarios.js';
import type { SweProblem } from '../src/apps/shallow-water/problem.js';
import { ArgumentError } from '../src/errors.js';
import { Output, parseArgs, table } from './common.js';
import { relativeL1 } from '../src/util/metrics.js';

const MODES = ['state', 'h', 'q', 'dt', 'gpu-f32', 'gpu-pair'] as const;
type Mode = (typeof MODES)[number];


/** The reference solver's private per-step update, reached for the injections. */
type Updatable = { update(dt: number): void };

function roundArrays(arrays: Float64Array[]): void {
  for (const a of arrays) for (let i = 0; i < a.length; i++) a[i] = Math.fround(a[i]);
}

function injected(p: SweProblem, mode: 'state' | 'h' | 'q' | 'dt'): SweCpuSolver {
  const s = new SweCpuSolver(p);
  const target = s as unknown as Updatable;
  const update = target.update.bind(s);
  const fields = () => (mode === 'state' ? [s.h, s.qx, s.qy, s.hc] : mode === 'h' ? [s.h] : mode === 'q' ? [s.qx, s.qy] : []);
  roundArrays(fields());
  target.update = (dt: number) => {
    update(mode === 'dt' ? Math.fround(dt) : dt);
    roundArrays(fields());
  };
  s.advance(1);
  return s;
}

async function gpuRun(ctx: GpuContext, p: SweProblem, depthPair: boolean) {
  const g = await SweGpuSolver.create(ctx, p, { depthPair });
  try {
    await g.advance(1);
    return await g.read();
  } finally {
    g.destroy();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = new Output(args.out);
  const sizes = (args.sizes ?? '100,200,400').split(',').map(Number);
  const modes = (args.modes ?? MODES.join(',')).split(',') as Mode[];
  for (const m of modes) if (!MODES.includes(m)) throw new ArgumentError('--modes', m, MODES.join(' | '));
  const ctx = modes.some((m) => m.startsWith('gpu')) ? await defaultGpuContext() : null;
  const rows: (string | number)[][] = [];
  for (const n of sizes) {
    const p = damBreak(n);
    const ref = new SweCpuSolver(p);
    ref.advance(1);
    for (const mode of modes) {
      const s = mode === 'gpu-f32' || mode === 'gpu-pair' ? await gpuRun(ctx!, p, mode === 'gpu-pair') : injected(p, mode);
      const e = { h: relativeL1(s.h, ref.h), qx: relativeL1(s.qx, ref.qx), qy: relativeL1(s.qy, ref.qy) };
      rows.push([`${n}²`, mode, e.h.toExponential(2), e.qx.toExponential(2), e.qy.toExponential(2), `${s.steps}/${ref.steps}`]);
      out.record({ kind: 'error-source', n, mode, steps: s.steps, refSteps: ref.steps, l1: e });
    }
  }
  console.log(table(['mesh', 'rounding', 'L1 h', 'L1 qx', 'L1 qy', 'steps/ref'], rows));
  ctx?.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
