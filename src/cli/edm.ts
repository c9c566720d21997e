/**
 * `butterfly edm`: runs the seven EDM cases of seed 001 on WebGPU with random complex data, checks each
 * against the float64 CPU reference, and prints GPU times (JSON lines with --json).
 */
import type { CliCommand } from './commands.js';
import { defaultGpuContext } from '../backends/webgpu/device.js';
import { runEdm, type EdmRecord } from '../apps/edm/run.js';
import { flags } from './args.js';

function range(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) throw new Error(`bad list "${spec}" (e.g. 1-7 or 1,4,7)`);
    if (b === undefined) out.push(a);
    else for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}


export const edmCommand: CliCommand = {
  name: 'edm',
  usage: 'edm [--cases 1-7] [--angles 1,7] [--reps N] [--check all|some|none] [--split] [--json]',
  summary: 'EDM batched padded 2-D convolution (seed 001): check vs float64 and time on WebGPU',
  async run(args: string[]) {
    const f = flags(args);
    const ctx = await defaultGpuContext();
    const json = f.json === 'true';
    if (!json) {
      console.log(`device: ${ctx.adapter.vendor} ${ctx.adapter.device || ctx.adapter.description} (${ctx.adapter.backend}${ctx.adapter.software ? ', software' : ''})`);
      console.log('case angles   M mfft slices  passes        ms    GB/s   rel L2    thesis C1060 ms');
    }
    const check = (f.check ?? 'all') as 'all' | 'some' | 'none';
    if (!['all', 'some', 'none'].includes(check)) throw new Error(`--check: all, some or none (got ${f.check})`);
    let worst = 0;
    await runEdm(ctx, {
      cases: f.cases ? range(f.cases) : undefined,
      angles: f.angles ? range(f.angles) : undefined,
      reps: f.reps ? Number(f.reps) : undefined,
      check,
      planner: f.split === 'true' ? { split: true } : undefined,
      onRecord(r: EdmRecord) {
        if (r.relL2 !== null) worst = Math.max(worst, r.relL2);
        if (json) console.log(JSON.stringify(r));
        else {
          console.log(
            `${String(r.case).padStart(4)} ${String(r.angles).padStart(6)} ${String(r.M).padStart(3)} ${String(r.mfft).padStart(4)} ${String(r.slices).padStart(6)} ${String(r.passes).padStart(7)} ${r.ms.toFixed(4).padStart(9)} ${r.GBps.toFixed(1).padStart(7)} ${r.relL2 === null ? '     -  ' : r.relL2.toExponential(2)} ${String(r.thesisGpuMs).padStart(10)}`,
          );
        }
      },
    });
    if (worst > 1e-5) {
      console.error(`relative L2 error ${worst} exceeds 1e-5`);
      process.exitCode = 1;
    }
  },
};
