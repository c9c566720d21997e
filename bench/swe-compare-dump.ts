/**
 * Compares a GPU dam-break dump (`bench/shallow-water.ts --dump N` on the GPU machine: gpu_N_{h,qx,qy}.npy,
 * float64 copies of the GPU state at t = 1) with the float64 CPU reference run here, for meshes whose
 * reference takes longer than one GPU-machine command may run (1000²: ~10 minutes of one JS thread).
 *
 *   npx tsx bench/swe-compare-dump.ts --dir DIR --n 1000 [--out result.jsonl]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SweCpuSolver } from '../src/backends/cpu/shallow-water.js';
import { damBreak } from '../src/apps/shallow-water/scenarios.js';
import { parseNpy } from '../src/util/npy.js';
import { Output, parseArgs } from './common.js';
import { relativeL1 } from '../src/util/metrics.js';

const args = parseArgs(process.argv.slice(2));
const n = Number(args.n ?? 1000);
const dir = args.dir ?? 'out';
const out = new Output(args.out);
const load = (q: string) => Float64Array.from(parseNpy(readFileSync(join(dir, `gpu_${n}_${q}.npy`)), q).data);
const gpu = { h: load('h'), qx: load('qx'), qy: load('qy') };
const t0 = performance.now();
const ref = new SweCpuSolver(damBreak(n));
ref.advance(1);
const seconds = (performance.now() - t0) / 1000;
const r = {
  kind: 'compare-dump',
  n,
  cpuSteps: ref.steps,
  cpuSeconds: seconds,
  l1: { h: relativeL1(gpu.h, ref.h), qx: relativeL1(gpu.qx, ref.qx), qy: relativeL1(gpu.qy, ref.qy) },
};
out.record(r);
console.log(
  `dam break ${n}² to t = 1: ${ref.steps} CPU steps (${seconds.toFixed(0)} s); L1 relative h ${r.l1.h.toExponential(2)}, qx ${r.l1.qx.toExponential(2)}, qy ${r.l1.qy.toExponential(2)} (bound 1e-5)`,
);
