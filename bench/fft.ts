/**
 * Batched C2C FFT benchmark: total elements fixed (2^27 complex64 on a GPU, 2^20 on a software adapter),
 * batch = total / N, data resident on the device, out of place. Reports GFLOPS (5·N·log2N·batch/t),
 * effective GB/s (one read + one write of the data) and the fraction of the device-copy bandwidth measured
 * in the same run. Each size is also checked against the float64 recipe executor on a few problems.
 *
 *   node dist/bench/fft.js [--total 27] [--sizes 1-13] [--reps 20] [--json out.jsonl] [--inverse]
 */
import { defaultGpuContext, readBuffer } from '../src/backends/webgpu/device.js';
import { WebGpuFft } from '../src/backends/webgpu/fft.js';
import { planCpuFft } from '../src/backends/cpu/fft-plan.js';
import { fftProblem } from '../src/planner/fft-problem.js';
import { largestWorkgroupFft } from '../src/planner/fft-workgroup.js';
import { describeRecipe } from '../src/planner/fft-multipass.js';
import { randomFloat32 } from '../src/util/random.js';
import { relativeL2 } from '../src/util/metrics.js';
import { Output, copyBandwidth, parseArgs, parseRange, progress, table, timeGpu } from './common.js';

const args = parseArgs(process.argv.slice(2));
const ctx = await defaultGpuContext();
const software = ctx.adapter.software;
const totalLog2 = Number(args.total ?? (software ? 20 : 27));
const total = 2 ** totalLog2;
const maxN = largestWorkgroupFft(ctx.limits, args.exchange ? { exchange: args.exchange as 'complex' | 'split' } : {});
const sizes = parseRange(args.sizes ?? `1-${Math.log2(maxN)}`).filter((l) => l <= totalLog2);
const reps = Number(args.reps ?? (software ? 2 : 20));
const direction = args.inverse ? 'inverse' : 'forward';
const out = new Output(args.json);
// Planner overrides, to explore the resource analysis on a new device (e.g. --maxSingle 32 --wg 128).
const planOptions = {
  ...(args.maxSingle ? { maxSingleInvocation: Number(args.maxSingle) } : {}),
  ...(args.wg ? { targetWorkgroupSize: Number(args.wg) } : {}),
  ...(args.maxRadix ? { maxRadix: Number(args.maxRadix) } : {}),
  ...(args.minCols ? { minColumns: Number(args.minCols) } : {}),
  ...(args.staging ? { staging: args.staging === 'true' } : {}),
  ...(args.twiddles ? { twiddles: args.twiddles as 'table' | 'recurrence' } : {}),
  ...(args.exchange ? { exchange: args.exchange as 'complex' | 'split' } : {}),
};
const variant = args.label ?? 'default';
const device = `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device} ${ctx.adapter.description}`.trim();
console.log(`# butterfly C2C FFT benchmark — ${device} (${ctx.adapter.backend}) — ${new Date().toISOString()}`);
console.log(`# total 2^${totalLog2} complex64, out of place, ${direction}, median of 5 rounds × ${reps} reps`);

const bytes = total * 8;
const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const src = ctx.device.createBuffer({ size: bytes, usage });
const dst = ctx.device.createBuffer({ size: bytes, usage });
// Random data, written in 16 MiB pieces (the content matters only for the correctness check).
const piece = randomFloat32(Math.min(2 * total, 1 << 22), 12345);
for (let off = 0; off < bytes; off += piece.byteLength) {
  ctx.device.queue.writeBuffer(src, off, piece as Float32Array<ArrayBuffer>, 0, Math.min(piece.length, (bytes - off) / 4));
}
const copy = await copyBandwidth(ctx, src, dst, bytes, reps);
console.log(`# device copy: ${copy.GBps.toFixed(1)} GB/s (${copy.ms.toFixed(3)} ms for 2 × ${bytes} bytes)`);
out.record({ lib: 'device-copy', device, bytes: 2 * bytes, ms: copy.ms, GBps: copy.GBps });

const rows: (string | number)[][] = [];
for (const [i, l] of sizes.entries()) {
  const n = 2 ** l;
  const batch = total / n;
  progress(i, sizes.length, `N = ${n}`);
  const problem = fftProblem({ n, batch, direction });
  const plan = await WebGpuFft.create(ctx, problem, planOptions);
  const ms = await timeGpu(ctx, (enc) => plan.encode(enc, src, dst), reps);
  // Check the first problem against the float64 CPU FFT (skipped above 2^22, where it would take minutes).
  let err: number | null = null;
  if (n <= 1 << 22) {
    const got = new Float32Array(await readBuffer(ctx, dst, 0, n * 8));
    const inp = new Float32Array(await readBuffer(ctx, src, 0, n * 8));
    const ref = new Float64Array(2 * n);
    planCpuFft(n).execute(Float64Array.from(inp), ref, { inverse: direction === 'inverse' });
    err = relativeL2(got, ref);
  }
  const gflops = (5 * n * l * batch) / ms / 1e6;
  const gbps = (2 * bytes) / ms / 1e6;
  const r = describeRecipe(plan.recipe);
  rows.push([n, batch, r.passes, r.radices, r.mapping, r.exchange, ms, gflops, gbps, gbps / copy.GBps, err ?? 'n/a']);
  out.record({ lib: 'butterfly', variant, planOptions, device, kind: 'c2c', direction, log2N: l, N: n, batch, ms, GFLOPS: gflops, GBps: gbps, fracCopy: gbps / copy.GBps, relErr: err, recipe: r });
  plan.destroy();
}
progress(sizes.length, sizes.length, 'done');
console.log(table(['N', 'batch', 'passes', 'radices', 'l×b', 'exchange', 'ms', 'GFLOPS', 'GB/s', 'of copy', 'rel err'], rows));
src.destroy();
dst.destroy();
process.exit(0);
