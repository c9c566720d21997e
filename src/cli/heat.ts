/** `butterfly heat`: 2-D implicit heat diffusion by ADI (Peaceman–Rachford), checked against the analytic solution. */
import type { CliCommand } from './commands.js';
import { runHeatAdi } from '../apps/heat-adi.js';
import { fmt } from './args.js';

export const heatCommand: CliCommand = {
  spec: {
    name: 'heat',
    summary: 'implicit heat diffusion by ADI: one batched tridiagonal solve per half step, vs the analytic solution',
    options: {
      '--grid': { value: 'M', help: 'interior grid points per direction (default 128)' },
      '--steps': { value: 'S', help: 'time steps (default 100)' },
      '--t-end': { value: 'T', help: 'final time (default 0.05)' },
      '--kappa': { value: 'K', help: 'diffusivity (default 1)' },
      '--backend': { value: 'auto|webgpu|cpu', help: 'where the tridiagonal solves run (default auto)' },
      '--dtype': { value: 'float32|float64', help: 'precision (default float32; float64 runs on the CPU)' },
    },
  },
  usesGpu: (a) => a.string('--backend') !== 'cpu' && a.string('--dtype') !== 'float64',
  async run(a) {
    const r = await runHeatAdi({
      gridSize: a.int('--grid', 128, { min: 3, max: 8192 }),
      steps: a.int('--steps', 100, { min: 1 }),
      tEnd: a.number('--t-end', 0.05, { above: 0 }),
      kappa: a.number('--kappa', 1, { above: 0 }),
      backend: a.choice('--backend', ['auto', 'webgpu', 'cpu'] as const, 'auto'),
      dtype: a.has('--dtype') ? a.choice('--dtype', ['float32', 'float64'] as const, 'float32') : undefined,
    });
    const rows: [string, string][] = [
      ['backend', `${r.backend} (${r.dtype})`],
      ['grid', `${r.gridSize} × ${r.gridSize} interior points`],
      ['steps', `${r.steps} of dt = ${fmt(r.dt)}`],
      ['L2 rel. error', fmt(r.l2RelError, 3)],
      ['max rel. error', fmt(r.maxRelError, 3)],
      ['solves', `${r.solves} batched tridiagonal solves of ${r.gridSize} systems`],
      ['solve time', `${fmt(r.solveMs, 3)} ms`],
      ['total time', `${fmt(r.totalMs, 3)} ms`],
      ['status', `${r.status}${r.status === 0 ? ' (ok)' : ''}`],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(15)} ${v}`);
    if ((Number(r.status) & 3) !== 0 || !Number.isFinite(r.l2RelError)) process.exitCode = 1;
  },
};
