/**
 * This build's CPU engine against an older build's, in one process: the same one-shot calls (threads: 1 unless
 * --threads, a number or 'default' to leave the option out; into reused `out` arrays; f32 unless --precision f64)
 * alternating between the two builds round by round, best time of each.
 * Kinds: rfft, irfft, dct, idct, dht, dst (type 2), dct1…dct4, dst1…dst4 (rows of n), fft (complex rows of n),
 * fft2 (one n × batch complex 2-D array), fft0 (the same array's columns: fft along axis 0), rfft2 and irfft2 (one
 * n × batch real 2-D array and its half spectrum), rfft0 and irfft0 (rfft and irfft along axis 0 of an n × batch
 * real array).
 * For changes too small for bench:cpu's run-to-run spread. Prints new / old per row.
 * Kind fftbuf: fft rows through a plan's engine buffers (createFftPlan({ n, batch, threads }).createBuffers).
 * --shared: inputs and outputs on SharedArrayBuffers.
 * --fresh: calls without `out` (a new result each call, as one-shot users make them), timed in runs of 10 calls and
 * reported as the mean of all runs rather than the best, so that what fresh memory costs (page faults, which some
 * calls pay and others do not) counts; use with --isolate (each build's own heap).
 * --isolate: each build in a process of its own, a fresh pair of processes a round (for threaded calls: two builds'
 * worker pools in one process share the cores, and a worker spinning for its next job takes one from the other).
 *
 *   git archive <commit> | tar x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old && (cd /tmp/old && npx tsc)
 *   node dist/bench/cpu-ab.js --against /tmp/old/dist/src/index.js [--kinds rfft,dct,irfft,idct]
 *     [--shapes 16x65536,32x32768,64x16384,256x4096,4096x256] [--rounds 9] [--threads 1] [--against-threads 1]
 *     [--precision f32]
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from './common.js';

type Api = typeof import('../src/index.js');
type Tag = 'new' | 'old';
const args = parseArgs(process.argv.slice(2));
if (!args.against) throw new Error('--against: the path of an older build’s dist/src/index.js');
// --child new|old: one build's round of every cell, printed as JSON (the processes of --isolate).
const child = args.child as Tag | undefined;
const isolate = 'isolate' in args && !child;
const load = async (tag: Tag) =>
  (tag === 'new' ? await import('../src/index.js') : await import(pathToFileURL(resolve(args.against!)).href)) as Api;
const older = isolate || child === 'new' ? null : await load('old');
const newer = isolate || child === 'old' ? null : await load('new');
const kinds = (args.kinds ?? 'rfft,dct,irfft,idct').split(',');
const shapes = (args.shapes ?? '16x65536,32x32768,64x16384,256x4096,4096x256')
  .split(',')
  .map((s) => s.split('x').map(Number) as [number, number]);
const rounds = Number(args.rounds ?? 9);
// 'default': the option left out (the cores, split where measured faster). --against-threads: the older build's
// (default: the same), so that `--against dist/src/index.js --threads default --against-threads 1` sets this
// build's default against its own single thread.
const threadsOf = (s: string | undefined) => (s === 'default' ? undefined : Number(s ?? 1));
const threads = threadsOf(args.threads);
const againstThreads = args['against-threads'] === undefined ? threads : threadsOf(args['against-threads']);
const complexKinds = ['fft', 'fftbuf', 'fft2', 'fft0', 'rfft2', 'irfft2'];
const precision = (args.precision ?? 'f32') as 'f32' | 'f64';
if (precision !== 'f32' && precision !== 'f64') throw new Error(`--precision: 'f32' or 'f64', not ${precision}`);
const Arr = precision === 'f32' ? Float32Array : Float64Array;
type Data = Float32Array | Float64Array;
/** --shared: every array (input, spectrum, output) on a SharedArrayBuffer, which worker threads read and write in place. */
const onShared = 'shared' in args;
const fresh = 'fresh' in args;
/** Calls a timing: fresh results cost most on some calls and nothing on others. */
const CALLS_TIMED = fresh ? 10 : 2;
function alloc(len: number): Data {
  if (!onShared) return new Arr(len);
  return new Arr(new SharedArrayBuffer(len * Arr.BYTES_PER_ELEMENT) as unknown as ArrayBuffer);
}
/** A cell's second input (half spectra for irfft, complex data for fft and fft2) and its output array. */
function cellArrays(kind: string, n: number, batch: number): { spec: Data; out: Data } {
  const complex = complexKinds.includes(kind);
  const half = 2 * (Math.floor(n / 2) + 1) * batch;
  return {
    spec: randomData(complex ? 2 * n * batch : half),
    out: alloc(complex ? 2 * n * batch : kind === 'rfft' || kind === 'rfft0' ? half : n * batch),
  };
}

/** `len` random values in [-0.5, 0.5), filled in place (map would return an ordinary array). */
function randomData(len: number): Data {
  const a = alloc(len);
  for (let i = 0; i < len; i++) a[i] = Math.random() - 0.5;
  return a;
}

type Plan = Awaited<ReturnType<Api['createFftPlan']>>;
/** Per build, the plans and engine buffers of fftbuf by `n:batch:threads`. */
const bufferPlans = new WeakMap<Api, Map<string, { plan: Plan; input: Data; output: Data }>>();

/** fftbuf: the plan and engine buffers of (build, n, batch, threads), made on first use with `spec` as input. */
async function viaBuffers(api: Api, t: number | undefined, n: number, batch: number, spec: Data) {
  const plans = bufferPlans.get(api) ?? new Map<string, { plan: Plan; input: Data; output: Data }>();
  bufferPlans.set(api, plans);
  let e = plans.get(`${n}:${batch}:${t}`);
  if (!e) {
    const plan = await api.createFftPlan({ n, batch, threads: t, backend: 'cpu' });
    const b = plan.createBuffers(precision) as { input: Data; output: Data };
    b.input.set(spec.subarray(0, b.input.length));
    e = { plan, input: b.input, output: b.output };
    plans.set(`${n}:${batch}:${t}`, e);
  }
  return e.plan.execute(e.input as Float32Array, e.output as Float32Array);
}

function call(
  api: Api,
  t: number | undefined,
  kind: string,
  n: number,
  batch: number,
  x: Data,
  spec: Data,
  into: Data,
) {
  const o = { threads: t, backend: 'cpu' as const };
  const out = fresh ? undefined : into;
  if (kind === 'fftbuf') return viaBuffers(api, t, n, batch, spec);
  const M = Math.floor(n / 2) + 1;
  if (kind === 'rfft') return api.rfft(x, { ...o, shape: [batch, n], out });
  if (kind === 'irfft') return api.irfft(spec, { ...o, shape: [batch, M], n, out: out?.subarray(0, n * batch) });
  if (kind === 'dct') return api.dct(x, { ...o, type: 2, shape: [batch, n], out: out?.subarray(0, n * batch) });
  if (kind === 'idct') return api.idct(x, { ...o, type: 2, shape: [batch, n], out: out?.subarray(0, n * batch) });
  if (kind === 'dht') return api.dht(x, { ...o, shape: [batch, n], out: out?.subarray(0, n * batch) });
  // Other r2r types: dst (type 2), dct1/dct4/dst1/dst3/dst4.
  const r2r = /^(dct|dst)([1-4])$/.exec(kind) ?? (kind === 'dst' ? [kind, 'dst', '2'] : null);
  if (r2r) {
    const f = r2r[1] === 'dct' ? api.dct : api.dst;
    return f(x, { ...o, type: Number(r2r[2]), shape: [batch, n], out: out?.subarray(0, n * batch) });
  }
  if (kind === 'fft') return api.fft(spec, { ...o, shape: [batch, n], out });
  if (kind === 'fft2') return api.fft2(spec, { ...o, shape: [n, batch], out });
  if (kind === 'fft0') return api.fft(spec, { ...o, shape: [n, batch], axis: 0, out });
  if (kind === 'rfft0') return api.rfft(x, { ...o, shape: [n, batch], axis: 0, out: out?.subarray(0, 2 * M * batch) });
  if (kind === 'irfft0')
    return api.irfft(spec.subarray(0, 2 * M * batch), {
      ...o,
      shape: [M, batch],
      axis: 0,
      n,
      out: out?.subarray(0, n * batch),
    });
  const H = Math.floor(batch / 2) + 1;
  if (kind === 'rfft2') return api.rfft2(x, { ...o, shape: [n, batch], out: out?.subarray(0, 2 * n * H) });
  if (kind === 'irfft2')
    return api.irfft2(spec.subarray(0, 2 * n * H), {
      ...o,
      shape: [n, H],
      s: [n, batch],
      out: out?.subarray(0, n * batch),
    });
  throw new Error(`--kinds: unknown kind ${kind}`);
}

/** One build's round in a process of its own: the best of `rounds` pairs of calls per cell. */
function isolatedRound(tag: Tag): Record<string, number> {
  const argv = process.argv.slice(2).filter((a) => a !== '--isolate');
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...argv, '--child', tag], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`--isolate: the ${tag} build's process failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

if (isolate) {
  const best: Record<Tag, Record<string, number>> = { new: {}, old: {} };
  for (let r = 0; r < rounds; r++) {
    for (const tag of (r % 2 ? ['new', 'old'] : ['old', 'new']) as Tag[]) {
      for (const [cell, ms] of Object.entries(isolatedRound(tag)))
        best[tag][cell] = fresh ? (best[tag][cell] ?? 0) + ms / rounds : Math.min(best[tag][cell] ?? Infinity, ms);
    }
  }
  console.log('shape        kind    new ms    old ms   new / old');
  for (const cell of Object.keys(best.new)) {
    const [shape, kind] = cell.split(' ') as [string, string];
    const a = best.new[cell]!,
      b = best.old[cell]!;
    console.log(
      `${shape.padEnd(12)} ${kind.padEnd(6)} ${a.toFixed(3).padStart(8)} ${b.toFixed(3).padStart(8)}   ${(a / b).toFixed(3)}`,
    );
  }
  process.exit(0);
}

if (child) {
  // Warm each cell (workers started, modules compiled, the thread choice settled), then time `rounds` pairs of calls.
  const api = (child === 'new' ? newer : older)!;
  const t = child === 'new' ? threads : againstThreads;
  const out: Record<string, number> = {};
  for (const [n, batch] of shapes) {
    const x = randomData(n * batch);
    for (const kind of kinds) {
      const { spec, out: o } = cellArrays(kind, n, batch);
      for (let w = 0; w < 20; w++) await call(api, t, kind, n, batch, x, spec, o);
      let best = Infinity,
        sum = 0;
      for (let r = 0; r < 5; r++) {
        const t0 = performance.now();
        for (let c = 0; c < CALLS_TIMED; c++) await call(api, t, kind, n, batch, x, spec, o);
        const ms = (performance.now() - t0) / CALLS_TIMED;
        best = Math.min(best, ms);
        sum += ms;
      }
      if (fresh) best = sum / 5;
      out[`${n}×${batch} ${kind}`] = best;
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

console.log('shape        kind    new ms    old ms   new / old');
for (const [n, batch] of shapes) {
  const x = randomData(n * batch);
  for (const kind of kinds) {
    const { spec, out } = cellArrays(kind, n, batch);
    const best = { new: Infinity, old: Infinity };
    for (let r = 0; r < rounds; r++) {
      const order: [Tag, Api][] =
        r % 2
          ? [
              ['new', newer!],
              ['old', older!],
            ]
          : [
              ['old', older!],
              ['new', newer!],
            ];
      for (const [tag, api] of order) {
        const t = tag === 'new' ? threads : againstThreads;
        await call(api, t, kind, n, batch, x, spec, out);
        const t0 = performance.now();
        for (let c = 0; c < CALLS_TIMED; c++) await call(api, t, kind, n, batch, x, spec, out);
        const ms = (performance.now() - t0) / CALLS_TIMED;
        best[tag] = fresh ? (best[tag] === Infinity ? 0 : best[tag]) + ms / rounds : Math.min(best[tag], ms);
      }
    }
    const shape = `${n}×${batch}`.padEnd(12);
    console.log(
      `${shape} ${kind.padEnd(6)} ${best.new.toFixed(3).padStart(8)} ${best.old.toFixed(3).padStart(8)}   ${(best.new / best.old).toFixed(3)}`,
    );
  }
}
