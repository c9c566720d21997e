/**
 * EDM benchmark (seed 001): the seven cases, 1 and 7 angles, WebGPU fused/split grid convolution with
 * data resident on the device, checked against the float64 reference. Prints a table and JSON lines
 * with the same fields as bench/edm_cupy.py (lib, case, angles, M, mfft, slices, ms, …).
 *
 *   npx tsx bench/edm.ts [--cases 1-7] [--angles 1,7] [--reps N] [--check all|some|none] [--split] [--max-radix R] [--target E] [--threads T] [--no-fuse-multiply] [--json out.jsonl]
 *   npx esbuild bench/edm.ts --bundle --platform=node --format=esm --external:webgpu --outfile=.gpu/bench-edm.mjs
 */
import { defaultGpuContext } from '../src/backends/webgpu/device.js';
import { runEdm } from '../src/apps/edm/run.js';
import { Output, parseArgs, parseRange, table } from './common.js';

const args = parseArgs(process.argv.slice(2));
const ctx = await defaultGpuContext();
const out = new Output(args.json && args.json !== 'true' ? args.json : undefined);
const rows: (string | number)[][] = [];
const recs = await runEdm(ctx, {
  cases: args.cases ? parseRange(args.cases) : undefined,
  angles: args.angles ? parseRange(args.angles) : undefined,
  reps: args.reps ? Number(args.reps) : undefined,
  rounds: args.rounds ? Number(args.rounds) : undefined,
  check: (args.check as 'all' | 'some' | 'none') ?? 'all',
  tuning: {
    split: args.split === 'true' || undefined,
    maxRadix: args['max-radix'] ? Number(args['max-radix']) : undefined,
    targetElements: args.target ? Number(args.target) : undefined,
    maxThreads: args.threads ? Number(args.threads) : undefined,
    fuseMultiply: args['no-fuse-multiply'] === 'true' ? false : undefined,
  },
  onRecord(r) {
    out.record(r as unknown as Record<string, unknown>);
    if (args.json === 'true') console.log(JSON.stringify(r));
    rows.push([
      r.case,
      r.angles,
      r.M,
      r.mfft,
      r.slices,
      r.algorithm,
      r.passes,
      r.ms.toFixed(4),
      r.GBps,
      r.relL2 === null ? '-' : r.relL2.toExponential(2),
      r.thesisGpuMs,
    ]);
  },
});
console.error(
  table(['case', 'angles', 'M', 'mfft', 'slices', 'algorithm', 'passes', 'ms', 'GB/s', 'rel L2', 'thesis ms'], rows),
);
if (recs.some((r) => r.relL2 !== null && r.relL2 > 1e-5)) process.exitCode = 1;
process.exit();
