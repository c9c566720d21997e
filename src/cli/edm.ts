/**
 * `butterfly edm`: runs the seven EDM cases of seed 001 on WebGPU with random complex data, checks each
 * against the float64 CPU reference, and prints GPU times (JSON lines with --json).
 */
import type { CliCommand } from './commands.js';
import { defaultGpuContext } from '../backends/webgpu/device.js';
import { runEdm, type EdmRecord } from '../apps/edm/run.js';
import { progress } from './progress.js';

export const edmCommand: CliCommand = {
  spec: {
    name: 'edm',
    summary: 'EDM batched padded 2-D convolution (seed 001): check vs float64 and time on WebGPU',
    options: {
      '--cases': { value: 'list', help: 'EDM cases to run, 1..7 (e.g. 1-7 or 1,4,7; default all)' },
      '--angles': { value: 'list', help: 'angle counts to run for each case (default 1,7)' },
      '--reps': { value: 'N', help: 'minimum repetitions per timed round (default 5)' },
      '--check': {
        value: 'all|some|none',
        help: 'compare all slices, the first ≤ 64, or none with float64 (default all)',
      },
      '--split': { help: 'plan with separate (split) FFT and multiply kernels' },
      '--json': { help: 'one JSON record per line instead of the table' },
    },
  },
  async run(a) {
    const cases = a.intList('--cases', { min: 1, max: 7 });
    const angles = a.intList('--angles', { min: 1, max: 1024 });
    const reps = a.int('--reps', 5, { min: 1 });
    const check = a.choice('--check', ['all', 'some', 'none'] as const, 'all');
    const json = a.flag('--json');
    const ctx = await defaultGpuContext();
    if (!json) {
      console.log(
        `device: ${ctx.adapter.vendor} ${ctx.adapter.device || ctx.adapter.description} (${ctx.adapter.backend}${ctx.adapter.software ? ', software' : ''})`,
      );
      console.log('case angles   M mfft slices  passes        ms    GB/s   rel L2    thesis C1060 ms');
    }
    const total = (cases?.length ?? 7) * (angles?.length ?? 2);
    const bar = progress('edm');
    bar.update(0, `0 of ${total} runs`);
    let done = 0;
    let worst = 0;
    try {
      await runEdm(ctx, {
        cases,
        angles,
        reps,
        check,
        tuning: a.flag('--split') ? { split: true } : undefined,
        onRecord(r: EdmRecord) {
          bar.done();
          if (r.relL2 !== null) worst = Math.max(worst, r.relL2);
          if (json) console.log(JSON.stringify(r));
          else {
            console.log(
              `${String(r.case).padStart(4)} ${String(r.angles).padStart(6)} ${String(r.M).padStart(3)} ${String(r.mfft).padStart(4)} ` +
                `${String(r.slices).padStart(6)} ${String(r.passes).padStart(7)} ${r.ms.toFixed(4).padStart(9)} ${r.GBps.toFixed(1).padStart(7)} ` +
                `${r.relL2 === null ? '     -  ' : r.relL2.toExponential(2)} ${String(r.thesisGpuMs).padStart(10)}`,
            );
          }
          done++;
          bar.update(
            done / total,
            `${done} of ${total} runs (last: case ${r.case}, ${r.angles} angle${r.angles === 1 ? '' : 's'})`,
          );
        },
      });
    } finally {
      bar.done();
    }
    if (worst > 1e-5) {
      console.error(`relative L2 error ${worst.toExponential(2)} exceeds 1e-5`);
      process.exitCode = 1;
    }
  },
};
