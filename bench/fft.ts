/**
 * FFT benchmark: total elements fixed (2^27 on a GPU, 2^20 on a software adapter), batch = total / N,
 * data resident on the device, out of place. Reports GFLOPS (5·N·log2N·batch/t for complex transforms,
 * 2.5·… for real and r2r ones), effective GB/s (the bytes a transform must read and write once) and the
 * fraction of the device-copy bandwidth measured in the same run. Each size is checked against the float64
 * CPU backend on its first problem.
 *
 *   node dist/bench/fft.js [--kind c2c|r2c|c2r|dct2|dht] [--total 27] [--sizes 1-13 | --n 1000,59049]
 *                          [--shape2d 1024x1024,4096x4096] [--reps 20] [--json out.jsonl] [--inverse]
 *                          [--checkMax 22] (largest log2 N checked against the float64 CPU FFT) [--keep] [--pauseMs 0]
 *   node dist/bench/fft.js --accuracy DIR [--twiddles …]: C2C of every DIR/x-N.npy (complex64 as float32
 *                          pairs, written by bench/cufft_extra.py --accuracy with cuFFT's errors on the same
 *                          inputs), relative L2 error against the float64 CPU FFT, one JSON line each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createStorageBuffer, defaultGpuContext, readBuffer } from '../src/backends/webgpu/device.js';
import { parseNpy } from '../src/util/npy.js';
import { WebGpuFft } from '../src/backends/webgpu/fft.js';
import { WebGpuFftNd } from '../src/backends/webgpu/fft-nd.js';
import { WebGpuR2r } from '../src/backends/webgpu/r2r.js';
import { planCpuRfft } from '../src/backends/cpu/fft-real.js';
import { dct as cpuDct } from '../src/backends/cpu/r2r-dct.js';
import { dht as cpuDht } from '../src/backends/cpu/r2r-dht.js';
import { fftn as cpuFftn } from '../src/backends/cpu/fft-nd.js';
import { planCpuFft } from '../src/backends/cpu/fft-plan.js';
import { fftProblem } from '../src/planner/fft-problem.js';
import type { FftTuning } from '../src/planner/fft-webgpu.js';
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
const maxN = largestWorkgroupFft(
  ctx.limits,
  args.exchange ? { exchange: args.exchange as 'complex' | 'split' | 'split4' | 'rounds' } : {},
);
const sizes = parseRange(args.sizes ?? `1-${Math.log2(maxN)}`).filter((l) => l <= totalLog2);
const reps = Number(args.reps ?? (software ? 2 : 20));
const direction = args.inverse ? 'inverse' : 'forward';
const out = new Output(args.json);
// Planner overrides, to explore the resource analysis on a new device (e.g. --maxSingle 32 --wg 128).
const tuning: FftTuning = {
  ...(args.maxSingle ? { maxSingleInvocation: Number(args.maxSingle) } : {}),
  ...(args.wg ? { targetWorkgroupSize: Number(args.wg) } : {}),
  ...(args.maxRadix ? { maxRadix: Number(args.maxRadix) } : {}),
  ...(args.minCols ? { minColumns: Number(args.minCols) } : {}),
  ...(args.maxPass ? { maxPassLength: Number(args.maxPass) } : {}),
  ...(args.passLoads ? { passLoads: args.passLoads as 'direct' | 'staged' } : {}),
  ...(args.staging ? { staging: args.staging === 'true' } : {}),
  ...(args.twiddles ? { twiddles: args.twiddles as 'table' | 'recurrence' | 'two-level' } : {}),
  ...(args.exchange ? { exchange: args.exchange as 'complex' | 'split' | 'split4' | 'rounds' } : {}),
  // --registers 32: values an invocation holds with --exchange rounds (planner/fft-rounds.ts).
  ...(args.registers ? { registers: Number(args.registers) } : {}),
  ...(args.roundsSplit ? { roundsSplit: args.roundsSplit !== 'false' } : {}),
  ...(args.passExchange ? { passExchange: args.passExchange as 'complex' | 'split' } : {}),
  ...(args.r2cPostKernel ? { r2cPostKernel: true } : {}),
  ...(args.r2cFused ? { r2cFused: true } : {}),
  ...(args.r2cUnpaired ? { r2cPaired: false } : {}),
  ...(args.stageOut ? { r2cStagedOut: args.stageOut !== 'false' } : {}),
  ...(args.longFirstRest ? { longFirstRest: Number(args.longFirstRest) } : {}),
  ...(args.longFirstMax ? { longFirstMax: Number(args.longFirstMax) } : {}),
  ...(args.maxOddRadix ? { maxOddRadix: Number(args.maxOddRadix) } : {}),
  ...(args.radices ? { radices: args.radices.split('.').map(Number) } : {}),
  ...(args.mergedUpTo ? { mergedRadixUpTo: Number(args.mergedUpTo) } : {}),
  ...(args.r2cPairAll ? { r2cPairAll: args.r2cPairAll !== 'false' } : {}),
  ...(args.lastCols ? { lastPassColumns: Number(args.lastCols) } : {}),
  ...(args.firstCols ? { firstPassColumns: Number(args.firstCols) } : {}),
  ...(args.padding ? { padding: args.padding !== 'false' } : {}),
  ...(args.swizzle ? { swizzle: args.swizzle !== 'false' } : {}),
  ...(args.passLayout ? { passLayout: args.passLayout as 'padded' | 'swizzled' } : {}),
  ...(args.lastPassLayout ? { lastPassLayout: args.lastPassLayout as 'padded' | 'swizzled' } : {}),
  ...(args.passStore ? { passStore: args.passStore as 'direct' | 'rows' } : {}),
  // --shuffle true|false: subgroup shuffle exchanges where the device has subgroups (planner/fft-subgroup.ts).
  ...(args.shuffle ? { subgroupShuffle: args.shuffle !== 'false' } : {}),
  // --passLengths 512.128: the multi-pass split (of the complex transform; for R2C / DHT / DCT-II the half-length).
  ...(args.passLengths ? { passLengths: args.passLengths.split('.').map(Number) } : {}),
};
const variant = args.label ?? 'default';
const device =
  `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device} ${ctx.adapter.description}`.trim();

if (args.accuracy) {
  const dir = args.accuracy;
  const files = readdirSync(dir)
    .filter((f) => /^x-\d+\.npy$/.test(f))
    .sort((a, b) => parseInt(a.slice(2)) - parseInt(b.slice(2)));
  for (const f of files) {
    const x = parseNpy(readFileSync(`${dir}/${f}`)).data;
    const n = x.length / 2;
    const inp = Float32Array.from(x);
    const plan = await WebGpuFft.create(ctx, fftProblem({ n, batch: 1 }), { tuning });
    const a = createStorageBuffer(ctx, inp);
    const b = createStorageBuffer(ctx, new Float32Array(inp.length));
    await plan.execute(a, b);
    const got = new Float32Array(await readBuffer(ctx, b, 0, inp.byteLength));
    const ref = new Float64Array(2 * n);
    planCpuFft(n).execute(Float64Array.from(inp), ref);
    const relErr = relativeL2(got, ref);
    console.log(`N=${n} ${variant}: ${relErr.toExponential(3)}`);
    out.record({ lib: 'butterfly', variant, planOptions: tuning, device, kind: 'accuracy', N: n, relErr });
    plan.destroy();
    a.destroy();
    b.destroy();
  }
  process.exit(0);
}
const kind = (args.kind ?? 'c2c') as 'c2c' | 'r2c' | 'c2r' | 'dct2' | 'dht';
console.log(
  `# butterfly ${kind.toUpperCase()} FFT benchmark — ${device} (${ctx.adapter.backend}) — ${new Date().toISOString()}`,
);
console.log(`# total 2^${totalLog2} elements, out of place, ${direction}, median of 5 rounds × ${reps} reps`);

const bytes = total * 8;
const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const src = ctx.device.createBuffer({ size: bytes, usage });
const dst = ctx.device.createBuffer({ size: bytes, usage });
// Random data, written in 16 MiB pieces (the content matters only for the correctness check).
const piece = randomFloat32(Math.min(2 * total, 1 << 22), 12345);
for (let off = 0; off < bytes; off += piece.byteLength) {
  ctx.device.queue.writeBuffer(
    src,
    off,
    piece as Float32Array<ArrayBuffer>,
    0,
    Math.min(piece.length, (bytes - off) / 4),
  );
}
const copy = await copyBandwidth(ctx, src, dst, bytes, reps);
console.log(`# device copy: ${copy.GBps.toFixed(1)} GB/s (${copy.ms.toFixed(3)} ms for 2 × ${bytes} bytes)`);
out.record({ lib: 'device-copy', device, bytes: 2 * bytes, ms: copy.ms, GBps: copy.GBps });

interface Case {
  label: string;
  n: number;
  batch: number;
  flops: number;
  bytes: number;
  make(): Promise<{
    encode(enc: GPUCommandEncoder, a: GPUBuffer, b: GPUBuffer): void;
    destroy(): void;
    recipe?: unknown;
  }>;
  check(inp: Float32Array): Float64Array;
  inFloats: number;
  outFloats: number;
}

const cases: Case[] = [];
const log2 = Math.log2;
const explicit = args.n ? args.n.split(',').map(Number) : null;
const lengths = explicit ?? sizes.map((l) => 2 ** l);
if (args.shape2d) {
  for (const spec of args.shape2d.split(',')) {
    const [a, b] = spec.split('x').map(Number);
    const batch = Math.max(1, Math.floor(total / (a * b)));
    cases.push({
      label: `${a}x${b}`,
      n: a * b,
      batch,
      flops: 5 * a * b * log2(a * b) * batch,
      bytes: 16 * a * b * batch,
      inFloats: 2 * a * b,
      outFloats: 2 * a * b,
      make: () => WebGpuFftNd.create(ctx, { shape: [batch, a, b], axes: [1, 2], kind: 'c2c', direction, tuning }),
      check: (inp) => cpuFftn(inp, [a, b]).data,
    });
  }
} else {
  for (const n of lengths) {
    if (kind === 'c2c') {
      const batch = Math.max(1, Math.floor(total / n));
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 5 * n * log2(n) * batch,
        bytes: 16 * n * batch,
        inFloats: 2 * n,
        outFloats: 2 * n,
        make: () => WebGpuFft.create(ctx, fftProblem({ n, batch, direction }), { tuning }),
        check: (inp) => {
          const ref = new Float64Array(2 * n);
          planCpuFft(n).execute(Float64Array.from(inp), ref, { inverse: direction === 'inverse' });
          return ref;
        },
      });
    } else if (kind === 'r2c' || kind === 'c2r') {
      const h = Math.floor(n / 2) + 1;
      // --outPad k: rows of the half spectrum h + k apart (e.g. 3 puts every row of an R2C with n/2 a multiple
      // of 4 at a 32-byte boundary), to see what the numpy layout's odd row length costs.
      const hd = h + Number(args.outPad ?? 0);
      const batch = Math.max(1, Math.floor(total / n));
      const r2c = kind === 'r2c';
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 2.5 * n * log2(n) * batch,
        bytes: (4 * n + 8 * h) * batch,
        inFloats: r2c ? n : 2 * h,
        outFloats: r2c ? 2 * h : n,
        make: () =>
          WebGpuFft.create(
            ctx,
            fftProblem({
              n,
              batch,
              direction: r2c ? 'forward' : 'inverse',
              input: { dist: r2c ? n : hd },
              output: { dist: r2c ? hd : n },
            }),
            { tuning, real: kind },
          ),
        check: (inp) => {
          const plan = planCpuRfft(n);
          if (r2c) {
            const y = new Float64Array(2 * h);
            plan.forward1(Float64Array.from(inp), 0, y, 0);
            return y;
          }
          const x = new Float64Array(n);
          plan.inverse1(Float64Array.from(inp), 0, x, 0, 1 / n);
          return x;
        },
      });
    } else {
      const batch = Math.max(1, Math.floor(total / n));
      cases.push({
        label: String(n),
        n,
        batch,
        flops: 2.5 * n * log2(n) * batch,
        bytes: 8 * n * batch,
        inFloats: n,
        outFloats: n,
        make: () =>
          WebGpuR2r.create(ctx, {
            family: kind === 'dct2' ? 'dct' : 'dht',
            type: 2,
            shape: [batch, n],
            axes: [-1],
            tuning,
          }),
        check: (inp) =>
          (kind === 'dct2' ? cpuDct(Float64Array.from(inp), { type: 2 }) : cpuDht(Float64Array.from(inp))).data,
      });
    }
  }
}

const rows: (string | number)[][] = [];
// --keep: plans stay alive (not destroyed after their case) and are all timed once more at the end, in
// order; --pauseMs: a pause before each case. Both probe the plan-to-plan variance of the largest sizes
// (does a slow plan stay slow? does it follow freeing the previous plan's buffers?).
const kept: {
  label: string;
  plan: { encode(enc: GPUCommandEncoder, a: GPUBuffer, b: GPUBuffer): void; destroy(): void };
}[] = [];
for (const [i, c] of cases.entries()) {
  if (args.pauseMs) await new Promise((r) => setTimeout(r, Number(args.pauseMs)));
  progress(i, cases.length, `N = ${c.label}`);
  let plan;
  try {
    plan = await c.make();
  } catch (e) {
    rows.push([c.label, c.batch, 'error', String((e as Error).message).slice(0, 60), '', '', '', '', '', '', '']);
    out.record({ lib: 'butterfly', kind, N: c.n, label: c.label, error: String(e) });
    continue;
  }
  const ms = await timeGpu(ctx, (enc) => plan.encode(enc, src, dst), reps);
  // --breakdown: each kernel of a WebGpuFft plan alone (its inputs are whatever the buffers hold).
  // A 1-D DCT / DHT is one FFT plan whose hooks read src and write dst directly.
  const fftPlan =
    plan instanceof WebGpuFft
      ? plan
      : plan instanceof WebGpuR2r && plan.axisPlans.length === 1
        ? plan.axisPlans[0]
        : null;
  const msPerKernel: number[] = [];
  if (args.breakdown && fftPlan && fftPlan.kernelNames.length > 1) {
    for (let k = 0; k < fftPlan.kernelNames.length; k++)
      msPerKernel.push(await timeGpu(ctx, (enc) => fftPlan.encode(enc, src, dst, undefined, k), reps));
    console.log(
      `  ${c.label}: ${fftPlan.kernelNames.map((name, k) => `${name} ${msPerKernel[k].toFixed(3)} ms`).join(', ')}`,
    );
  }
  let err: number | null = null;
  if (c.n <= 2 ** Number(args.checkMax ?? 22)) {
    const got = new Float32Array(await readBuffer(ctx, dst, 0, c.outFloats * 4));
    const inp = new Float32Array(await readBuffer(ctx, src, 0, c.inFloats * 4));
    err = relativeL2(got, c.check(inp));
  }
  const gflops = c.flops / ms / 1e6;
  const gbps = c.bytes / ms / 1e6;
  const r = plan.recipe
    ? describeRecipe(plan.recipe as Parameters<typeof describeRecipe>[0])
    : { passes: '', radices: '', mapping: '', exchange: '' };
  rows.push([
    c.label,
    c.batch,
    r.passes,
    r.radices,
    r.mapping,
    r.exchange,
    ms,
    gflops,
    gbps,
    gbps / copy.GBps,
    err ?? 'n/a',
  ]);
  out.record({
    lib: 'butterfly',
    variant,
    planOptions: tuning,
    device,
    kind: args.shape2d ? 'c2c-2d' : kind,
    direction,
    log2N: log2(c.n),
    N: c.n,
    shape: c.label,
    batch: c.batch,
    ms,
    GFLOPS: gflops,
    GBps: gbps,
    fracCopy: gbps / copy.GBps,
    relErr: err,
    recipe: r,
    ...(msPerKernel.length ? { msPerKernel, kernels: fftPlan!.kernelNames } : {}),
  });
  if (args.keep) kept.push({ label: c.label, plan });
  else plan.destroy();
}
progress(cases.length, cases.length, 'done');
if (kept.length) {
  const again: string[] = [];
  for (const [k, { label, plan }] of kept.entries()) {
    const ms = await timeGpu(ctx, (enc) => plan.encode(enc, src, dst), reps);
    again.push(`${label} ${ms.toFixed(3)}`);
    out.record({ lib: 'butterfly', variant, kind, retime: k, N: Number(label) || label, ms });
  }
  console.log(`# timed again, in order: ${again.join(' ')}`);
  for (const { plan } of kept) plan.destroy();
}
console.log(
  table(['N', 'batch', 'passes', 'radices', 'l×b', 'exchange', 'ms', 'GFLOPS', 'GB/s', 'of copy', 'rel err'], rows),
);
src.destroy();
dst.destroy();
process.exit(0);
