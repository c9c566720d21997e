/**
 * Sparse FFT benchmark (seed 003's experiments): ours (exact and robust paths) against our dense FFT on
 * the same device, for n = 2^18 … 2^27 with k = 1000, and k = 1000 … 10,000 at the largest n. cuFFT's
 * dense times come from bench/sfft_cufft.py (run it on the same machine; join on n).
 *
 * Signals are made on the GPU (k planted coefficients written into a zero spectrum, then our inverse FFT,
 * plus optional white noise from a hash-based Gaussian kernel), so n = 2^27 needs no host-side FFT.
 * Times: `gpuMs` is the GPU time of one sparse transform recorded into one submission (median of rounds
 * of `reps` repetitions, as bench/common.ts timeGpu) — everything up to the result lists, excluding their
 * readback; `e2eMs` is the host-measured executeGpu (readback, host merge and the verification hashing's
 * second submission included). Accuracy is measured against the planted coefficients.
 *
 *   node dist/bench/sfft.js [--sizes 18-27] [--k 1000] [--ks 1000,2000,5000,10000] [--snr 20]
 *                           [--paths exact,robust] [--reps 10] [--json out.jsonl]
 *                           [--variants r4s1b4,r3s2b4,r6s1b8] [--count] [--breakdown] [--xbuf 27]
 * --variants: exact-path parameter sets, each rR (rounds), sS (peeling stages), bC (B = pow2ceil(C·k)),
 *   any part omitted keeps the planner's default, and a final g selects gather 'sorted' (e.g. "g" alone);
 *   one row per variant (the robust path runs once).
 * --count: per call, the commands the path records (dispatches, compute passes, buffer clears, workgroups)
 *   and the bytes executeGpu reads back. --breakdown: also times the prefixes "hashing" and "hashing +
 *   B-point FFTs" of each path (hashMs, hashFftMs), so the rest is gpuMs − hashFftMs. --xbuf L: the
 *   signal buffer holds 2^L points whatever n is (recorded as xbufLog2).
 * Each path runs ≥ 100 ms before it is timed, so that the GPU's clocks have ramped up.
 * `gpuTsMs` (devices with timestamp queries): the same k repetitions timed on the GPU's clock instead,
 *   without the host's encoding and submission.
 * Output: a table on stdout and JSON lines (--json file, and on stdout with --jsonl).
 */
import { defaultGpuContext, type GpuContext } from '../src/backends/webgpu/device.js';
import { WebGpuFft } from '../src/backends/webgpu/fft.js';
import { getPipeline } from '../src/backends/webgpu/pipelines.js';
import { fftProblem } from '../src/planner/fft-problem.js';
import { createSfftPlan, type SfftParamOverrides, type SfftResult } from '../src/api/sfft.js';
import { buildSfftFilter } from '../src/backends/cpu/sfft-filter.js';
import { rng } from '../src/util/random.js';
import { Output, median, parseArgs, parseRange, progress, table, timeGpu } from './common.js';

const args = parseArgs(process.argv.slice(2));
const ctx = await defaultGpuContext();
const software = ctx.adapter.software;
const sizes = parseRange(args.sizes ?? (software ? '14-20' : '18-27'));
const kMain = Number(args.k ?? 1000);
const ks = (args.ks ?? (software ? '' : '1000,2000,5000,10000')).split(',').filter(Boolean).map(Number);
const snr = args.snr !== undefined ? Number(args.snr) : null;
const paths = (args.paths ?? 'exact,robust').split(',') as ('exact' | 'robust')[];
const reps = Number(args.reps ?? (software ? 2 : 10));
const count = args.count === 'true';
const xbufLog2 = Number(args.xbuf ?? 0);
const breakdown = args.breakdown === 'true';

interface Variant {
  label: string;
  params: SfftParamOverrides;
}

/** "r4s1b8" → rounds 4, stages 1, bExactConst 8 (parts optional), a final "g": gather 'sorted'; '' → defaults. */
function parseVariant(spec: string): Variant {
  const params: SfftParamOverrides = {};
  const re = /([rsb])(\d+(?:\.\d+)?)/g;
  let rest = spec;
  if (rest.endsWith('g')) {
    params.gather = 'sorted';
    rest = rest.slice(0, -1);
  }
  for (const m of spec.matchAll(re)) {
    const v = Number(m[2]);
    if (m[1] === 'r') params.rounds = v;
    else if (m[1] === 's') params.stages = v;
    else params.bExactConst = v;
    rest = rest.replace(m[0], '');
  }
  if (rest !== '')
    throw new Error(`--variants: cannot read "${spec}" (expected e.g. r4s1b4, or r4s1g for the sorted gather)`);
  return { label: spec || 'default', params };
}
const exactVariants = (args.variants ?? '').split(',').map((v) => parseVariant(v.trim()));

/**
 * GPU time per repetition from timestamp queries (null without the feature): empty compute passes write
 * timestamps before the first and after the last of `k` repetitions recorded into one submission, so the
 * host's encoding and submission (inside timeGpu's wall-clock window) are left out. Dawn may quantise
 * timestamps (~65 µs seen on the H200): k repetitions span one measurement; median over `rounds`.
 */
async function timeGpuTimestamps(
  encode: (enc: GPUCommandEncoder) => void,
  k: number,
  rounds = 5,
): Promise<number | null> {
  if (!ctx.timestamps) return null;
  const d = ctx.device;
  const qs = d.createQuerySet({ type: 'timestamp', count: 2 });
  const resolve = d.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const staging = d.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const times: number[] = [];
  try {
    for (let r = 0; r <= rounds; r++) {
      const enc = d.createCommandEncoder();
      enc.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0 } }).end();
      for (let i = 0; i < k; i++) encode(enc);
      enc.beginComputePass({ timestampWrites: { querySet: qs, endOfPassWriteIndex: 1 } }).end();
      enc.resolveQuerySet(qs, 0, 2, resolve, 0);
      enc.copyBufferToBuffer(resolve, 0, staging, 0, 16);
      d.queue.submit([enc.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(staging.getMappedRange().slice(0));
      staging.unmap();
      // The first round warms up.
      if (r > 0) times.push(Number(t[1] - t[0]) / 1e6 / k);
    }
  } finally {
    qs.destroy();
    resolve.destroy();
    staging.destroy();
  }
  return median(times);
}

interface Counts {
  dispatches: number;
  computePasses: number;
  clears: number;
  workgroups: number;
}

/** Counts what `encode` records, through proxies of the encoder and its compute passes. */
function countCommands(encode: (enc: GPUCommandEncoder) => void): Counts {
  const c: Counts = { dispatches: 0, computePasses: 0, clears: 0, workgroups: 0 };
  const bindAll = <T extends object>(target: T, over: Record<string, unknown>): T =>
    new Proxy(target, {
      get(t, prop) {
        if (typeof prop === 'string' && prop in over) return over[prop];
        const v = Reflect.get(t, prop, t);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
  const enc = ctx.device.createCommandEncoder();
  const proxy = bindAll(enc, {
    beginComputePass: (d?: GPUComputePassDescriptor) => {
      c.computePasses++;
      const pass = enc.beginComputePass(d);
      return bindAll(pass, {
        dispatchWorkgroups: (x: number, y = 1, z = 1) => {
          c.dispatches++;
          c.workgroups += x * y * z;
          pass.dispatchWorkgroups(x, y, z);
        },
      });
    },
    clearBuffer: (b: GPUBuffer, off?: number, size?: number) => {
      c.clears++;
      enc.clearBuffer(b, off, size);
    },
  });
  encode(proxy);
  ctx.device.queue.submit([enc.finish()]);
  return c;
}
const out = new Output(args.json);
const jsonl = args.jsonl === 'true';
const device =
  `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device} ${ctx.adapter.description}`.trim();
console.log(`# butterfly sparse FFT benchmark — ${device} (${ctx.adapter.backend}) — ${new Date().toISOString()}`);

const usage = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

interface Planted {
  freqs: Uint32Array;
  values: Float64Array;
  signalEnergy: number;
}

function plant(n: number, k: number, seed: number): Planted {
  const next = rng(seed);
  const set = new Set<number>();
  while (set.size < k) set.add(Math.floor(next() * n));
  const freqs = Uint32Array.from([...set].sort((a, b) => a - b));
  const values = new Float64Array(2 * k);
  let signalEnergy = 0;
  for (let i = 0; i < k; i++) {
    const m = 0.5 + next();
    const p = 2 * Math.PI * next();
    values[2 * i] = m * Math.cos(p);
    values[2 * i + 1] = m * Math.sin(p);
    signalEnergy += m * m;
  }
  return { freqs, values, signalEnergy };
}

const NOISE_WGSL = `
@group(0) @binding(0) var<storage, read_write> x: array<vec2<f32>>;
@group(0) @binding(1) var<uniform> p: vec4<f32>; // sigma, seed, n (as f32 bits via u32 below)
@group(0) @binding(2) var<uniform> q: vec4<u32>; // n, seed
fn pcg(v: u32) -> u32 { let s = v * 747796405u + 2891336453u; let w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u; return (w >> 22u) ^ w; }
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * 256u;
  if (i >= q.x) { return; }
  let a = pcg(i ^ pcg(q.y));
  let b = pcg(a + 0x9e3779b9u);
  let u1 = max(f32(a) / 4294967296.0, 1e-30);
  let u2 = f32(b) / 4294967296.0;
  let r = sqrt(-2.0 * log(u1));
  x[i] = x[i] + p.x * r * vec2<f32>(cos(6.2831853 * u2), sin(6.2831853 * u2));
}`;

/** x = ifft(spectrum with the planted coefficients) + noise, on the device. */
async function makeSignal(
  ctx: GpuContext,
  n: number,
  pl: Planted,
  snrDb: number | null,
  seed: number,
  x: GPUBuffer,
  spec: GPUBuffer,
): Promise<void> {
  const d = ctx.device;
  const enc0 = d.createCommandEncoder();
  enc0.clearBuffer(spec, 0, n * 8);
  d.queue.submit([enc0.finish()]);
  for (let i = 0; i < pl.freqs.length; i++) {
    d.queue.writeBuffer(spec, pl.freqs[i] * 8, new Float32Array([pl.values[2 * i], pl.values[2 * i + 1]]));
  }
  const inv = await WebGpuFft.create(ctx, fftProblem({ n, direction: 'inverse' }));
  await inv.execute(spec, x);
  inv.destroy();
  if (snrDb === null) return;
  // Σ|N_f|² = n·Σ|ν_t|² = n·n·2s² for complex white noise of variance s² per component.
  const s = Math.sqrt(pl.signalEnergy / 10 ** (snrDb / 10) / (2 * n * n));
  const pipe = await getPipeline(ctx, {
    name: 'bench-noise',
    key: 'bench-noise',
    wgsl: NOISE_WGSL,
    entryPoint: 'main',
  });
  const u1 = d.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const u2 = d.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  d.queue.writeBuffer(u1, 0, new Float32Array([s, 0, 0, 0]));
  d.queue.writeBuffer(u2, 0, new Uint32Array([n, seed, 0, 0]));
  const bg = d.createBindGroup({
    layout: pipe.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: x, size: n * 8 } },
      { binding: 1, resource: { buffer: u1 } },
      { binding: 2, resource: { buffer: u2 } },
    ],
  });
  const enc = d.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipe);
  pass.setBindGroup(0, bg);
  const wgs = Math.ceil(n / 256);
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  pass.dispatchWorkgroups(Math.min(wgs, maxDim), Math.ceil(wgs / maxDim));
  pass.end();
  d.queue.submit([enc.finish()]);
  await d.queue.onSubmittedWorkDone();
  u1.destroy();
  u2.destroy();
}

function accuracy(r: SfftResult, pl: Planted): { recovered: number; l1: number | null; maxRel: number } {
  const truth = new Map<number, number>();
  pl.freqs.forEach((f, i) => truth.set(f, i));
  let found = 0;
  let l1 = 0;
  let maxRel = 0;
  r.frequencies.forEach((f, i) => {
    const j = truth.get(f);
    if (j === undefined) return;
    found++;
    const e = Math.hypot(r.values[2 * i] - pl.values[2 * j], r.values[2 * i + 1] - pl.values[2 * j + 1]);
    l1 += e;
    maxRel = Math.max(maxRel, e / Math.hypot(pl.values[2 * j], pl.values[2 * j + 1]));
  });
  return { recovered: found / pl.freqs.length, l1: found ? l1 / found : null, maxRel };
}

const cases: { log2n: number; k: number }[] = sizes.map((l) => ({ log2n: l, k: kMain }));
const maxL = Math.max(...sizes);
for (const k of ks) if (k !== kMain) cases.push({ log2n: maxL, k });

const rows: (string | number)[][] = [];
let bufN = 0;
let x: GPUBuffer | null = null;
let spec: GPUBuffer | null = null;
const denseMsByN = new Map<number, number>();
for (const [ci, c] of cases.entries()) {
  const n = 2 ** c.log2n;
  progress(ci, cases.length, `n = 2^${c.log2n}, k = ${c.k}`);
  if (n > bufN) {
    x?.destroy();
    spec?.destroy();
    // --xbuf L: the signal lives at the start of a 2^L-point buffer whatever n is (the hashing's random reads
    // then cover the same n·8 bytes, but of a larger allocation: separates the size of the read range from
    // how the driver maps the buffer, e.g. its page size).
    const points = Math.max(n, 2 ** xbufLog2);
    x = ctx.device.createBuffer({ size: points * 8, usage: usage(), label: 'bench-x' });
    spec = ctx.device.createBuffer({ size: points * 8, usage: usage(), label: 'bench-spec' });
    bufN = points;
  }
  const seed = 1000 + ci;
  const pl = plant(n, c.k, seed);
  try {
    // Dense FFT of the same length on the same device (once per n).
    if (!denseMsByN.has(n)) {
      await makeSignal(ctx, n, pl, null, seed, x!, spec!);
      const dense = await WebGpuFft.create(ctx, fftProblem({ n }));
      const ms = await timeGpu(ctx, (enc) => dense.encode(enc, x!, spec!), reps);
      dense.destroy();
      denseMsByN.set(n, ms);
      const rec = { lib: 'butterfly-dense', device, n, log2n: c.log2n, gpuMs: ms };
      out.record(rec);
      if (jsonl) console.log(JSON.stringify(rec));
    }
    const denseMs = denseMsByN.get(n)!;
    const variants: { path: 'exact' | 'robust'; snrDb: number | null; v: Variant }[] = [];
    for (const p of paths) {
      if (p === 'exact') for (const v of exactVariants) variants.push({ path: p, snrDb: null, v });
      else variants.push({ path: p, snrDb: null, v: { label: 'default', params: {} } });
    }
    if (snr !== null && paths.includes('robust'))
      variants.push({ path: 'robust', snrDb: snr, v: { label: 'default', params: {} } });
    let lastSnr: number | null | undefined;
    for (const v of variants) {
      if (v.snrDb !== lastSnr) {
        await makeSignal(ctx, n, pl, v.snrDb, seed, x!, spec!);
        lastSnr = v.snrDb;
      }
      const planT0 = performance.now();
      const plan = await createSfftPlan({ ...v.v.params, n, k: c.k, backend: 'webgpu', gpu: ctx, mode: v.path, seed });
      const planMs = performance.now() - planT0;
      const g = plan.gpu!;
      const encodePath = (upTo: 'hash' | 'fft' | 'all') => (enc: GPUCommandEncoder) =>
        v.path === 'exact' ? g.encodeExact(enc, x!, upTo) : g.encodeRobust(enc, x!, upTo);
      const result = await plan.executeGpu(x!);
      for (const t0 = performance.now(); performance.now() - t0 < 100; ) {
        const enc = ctx.device.createCommandEncoder();
        for (let i = 0; i < 10; i++) encodePath('all')(enc);
        ctx.device.queue.submit([enc.finish()]);
        await ctx.device.queue.onSubmittedWorkDone();
      }
      const gpuMs = await timeGpu(ctx, encodePath('all'), reps);
      const e2e: number[] = [];
      const read0 = g.readbackBytes;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await plan.executeGpu(x!);
        e2e.push(performance.now() - t0);
      }
      const extra: Record<string, unknown> = {};
      // A failure of the timestamp path (driver, quantisation) must not lose the row.
      try {
        extra.gpuTsMs = await timeGpuTimestamps(encodePath('all'), Math.max(reps, 20));
      } catch (err) {
        extra.gpuTsError = String(err);
      }
      if (count)
        Object.assign(extra, countCommands(encodePath('all')), { readbackBytesPerCall: (g.readbackBytes - read0) / 3 });
      if (breakdown) {
        extra.hashMs = await timeGpu(ctx, encodePath('hash'), reps);
        extra.hashFftMs = await timeGpu(ctx, encodePath('fft'), reps);
      }
      const ex = result.recipe.exact;
      const ro = result.recipe.robust;
      const filt = ex ? buildSfftFilter(ex.filter) : buildSfftFilter(ro!.filterEst);
      const acc = accuracy(result, pl);
      const rec = {
        lib: 'butterfly-sfft',
        device,
        path: v.path,
        variant: v.path === 'exact' ? v.v.label : 'default',
        n,
        log2n: c.log2n,
        k: c.k,
        snrDb: v.snrDb,
        gpuMs,
        e2eMs: median(e2e),
        planMs,
        denseGpuMs: denseMs,
        speedupVsDense: denseMs / gpuMs,
        recovered: acc.recovered,
        l1PerCoefficient: acc.l1,
        maxRelError: acc.maxRel,
        status: result.status,
        algorithm: result.algorithm,
        residualFraction: result.diagnostics.residualFraction,
        candidates: result.diagnostics.candidates,
        samples: result.diagnostics.samples,
        recipe: {
          exact: ex && { B: ex.B, rounds: ex.rounds, stages: ex.stages },
          robust: ro && { bLoc: ro.bLoc, bEst: ro.bEst, loops: ro.loops.length },
        },
        // Loop sizes that could grow with n: the filter's time support W (taps per hashing) and its reach D
        // in bins (the H table), against the bucket width n/B.
        filterW: filt.W,
        filterD: filt.D,
        bucketWidth: n / filt.B,
        xbufLog2: Math.log2(bufN),
        ...extra,
      };
      out.record(rec);
      if (jsonl) console.log(JSON.stringify(rec));
      rows.push([
        `2^${c.log2n}`,
        c.k,
        v.path === 'exact' ? `exact ${v.v.label}` : v.path,
        v.snrDb ?? '-',
        gpuMs,
        rec.e2eMs,
        denseMs,
        denseMs / gpuMs,
        acc.recovered,
        acc.l1 ?? '-',
        acc.maxRel,
        result.status,
        ...(count ? [Number(extra.dispatches), Number(extra.clears)] : []),
      ]);
      plan.destroy();
    }
  } catch (e) {
    const rec = { lib: 'butterfly-sfft', device, n, log2n: c.log2n, k: c.k, error: String(e) };
    out.record(rec);
    console.log(JSON.stringify(rec));
  }
}
progress(cases.length, cases.length, 'done');
console.log(
  table(
    [
      'n',
      'k',
      'path',
      'SNR',
      'gpu ms',
      'e2e ms',
      'dense ms',
      'dense/sparse',
      'recovered',
      'L1/coef',
      'max rel',
      'status',
      ...(count ? ['dispatches', 'clears'] : []),
    ],
    rows,
  ),
);
x?.destroy();
spec?.destroy();
process.exit(0);
