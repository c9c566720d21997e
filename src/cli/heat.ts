/** `butterfly heat`: 2-D implicit heat diffusion by ADI (Peaceman–Rachford), checked against the analytic solution. */
import type { CliCommand } from './commands.js';
import { runHeatAdi } from '../apps/heat-adi.js';
import { flag } from './args.js';


export const heatCommand: CliCommand = {
  name: 'heat',
  usage: 'heat [--grid M] [--steps S] [--t-end T] [--kappa K] [--backend webgpu|cpu|auto] [--dtype float32|float64]',
  summary: 'implicit heat diffusion by ADI: one batched tridiagonal solve per half step, vs the analytic solution',
  async run(args) {
    const r = await runHeatAdi({
      gridSize: Number(flag(args, '--grid') ?? 128),
      steps: Number(flag(args, '--steps') ?? 100),
      tEnd: Number(flag(args, '--t-end') ?? 0.05),
      kappa: Number(flag(args, '--kappa') ?? 1),
      backend: (flag(args, '--backend') ?? 'auto') as 'webgpu' | 'cpu' | 'auto',
      dtype: (flag(args, '--dtype') ?? undefined) as 'float32' | 'float64' | undefined,
    });
    for (const k of ['backend', 'gridSize', 'steps', 'dt', 'l2RelError', 'maxRelError', 'solves', 'solveMs', 'totalMs', 'status'] as const) {
      console.log(`${k.padEnd(12)} ${String((r as unknown as Record<string, unknown>)[k])}`);
    }
    if ((Number(r.status) & 3) !== 0 || !Number.isFinite(r.l2RelError)) process.exitCode = 1;
  },
};
