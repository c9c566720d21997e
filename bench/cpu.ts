/**
 * CPU benchmark: Butterfly's CPU engine (public API, backend 'cpu') against fft.js, @echogarden/pffft-wasm (SIMD
 * build), kissfft-wasm and numpy / scipy.fft (bench/cpu_numpy.py, run as a child process after the JavaScript
 * timings, so the two never share the cores), all in one run.
 *
 *   npm run bench:cpu                      # full: N = 2^4…2^20, 1000, 1009, 3^7, 2·3·5·7·11, 2-D 1024², single 2^16…2^22, tridiagonal
 *   npm run bench:cpu -- --quick           # a small subset, fewer repetitions (checks the wiring in a minute or two)
 *   node dist/bench/cpu.js [--sizes 2^4-2^20,1000,1009,2187,2310,1024x1024] [--single-sizes 2^16-2^22]
 *        [--families c2c,c2c1,r2c,dct2,dst2,dct4,c2c2d,tri]
 *        [--reps 11] [--total 2^20] [--min-rep-ms 50] [--out file.json] [--no-python] [--svg docs/cpu-gflops.svg]
 *
 * Conventions. GFLOPS = 5·N·log2 N·batch / t for complex transforms, 2.5·N·log2 N·batch / t for R2C and the DCTs and DSTs
 * (2-D n×n: 5·n²·log2 n²). batch = total / N (at least 1), so every timing touches the same number of elements;
 * c2c1 is C2C of single transforms (batch 1) at --single-sizes, where threads split one transform.
 * Each column: warm-up, an inner loop of calls long enough for the clock (--min-rep-ms), --reps rounds, the
 * columns of a case in interleaved rounds; GFLOPS come from the BEST round (the median is in the JSON). The
 * Python anchors run twice, before and after ours, each cell keeping the faster. Tridiagonal: Mrows/s =
 * rows · systems / t.
 * Ours is timed through the public API (createFftPlan + execute into a reused output; rfft, dct, dst, fft2 as one-shot calls
 * with `out`, a reused output, which includes their plan-cache lookups), with `threads: 1` and `threads: <all cores>`;
 * C2C also with `threads: <all cores>` on input and output that live on SharedArrayBuffers (nothing staged).
 * Every column's output on one input is compared with a float64 reference computed here (radix-2 / Bluestein in
 * float64); a column whose error exceeds its tolerance reports no number, only the error.
 * Results: JSON in bench/results/cpu/<date>-<host>.json (or --out), Markdown tables on stdout;
 * `node dist/bench/report-cpu.js [results.json]` (or --svg here) draws GFLOPS against N as an SVG.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createFftPlan,
  createTridiagonalPlan,
  dct,
  dst,
  encodeNpy,
  fft2,
  parseNpy,
  rfft,
  type FftPlanOptions,
  type FftNdCallOptions,
  type R2rCallOptions,
  type FftCallOptions,
  type TridiagonalPlanDescriptor,
} from '../src/index.js';
import { renderCpuSvg } from './report-cpu.js';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
// dist/bench/cpu.js → the repository root is two levels up; bench/cpu.ts under tsx → one.
const root = existsSync(path.join(here, '..', 'package.json')) ? path.join(here, '..') : path.join(here, '..', '..');

// ---------------------------------------------------------------------------------------------------------
// Options

type Family = 'c2c' | 'c2c1' | 'r2c' | 'dct2' | 'dst2' | 'dct4' | 'c2c2d' | 'tri';
const FAMILIES: Family[] = ['c2c', 'c2c1', 'r2c', 'dct2', 'dst2', 'dct4', 'c2c2d', 'tri'];
/** The real-to-real families: the one-shot function and type each times (n reals in, n out). */
const R2R: Partial<Record<Family, { fn: 'dct' | 'dst'; type: number }>> = {
  dct2: { fn: 'dct', type: 2 },
  dst2: { fn: 'dst', type: 2 },
  dct4: { fn: 'dct', type: 4 },
};
/** 1-D complex: 'c2c' (batches of total / N) and 'c2c1' (single transforms, which threads split). */
const isC2c = (f: Family): boolean => f === 'c2c' || f === 'c2c1';
// The tridiagonal cases of bench/tridiagonal_numpy.py and bench/tridiagonal-cpu.ts (rows per system, systems): 2^20 rows
// each; copied, since importing that script would run it.
const TRI_CASES: [number, number][] = [
  [1024, 1024],
  [64, 16384],
  [16384, 8],
  [16, 65536],
  [256, 4096],
];

interface Options {
  sizes: string;
  /** Lengths of the single-transform family (c2c1). */
  singleSizes: string;
  families: Family[];
  reps: number;
  total: number;
  minRepMs: number;
  quick: boolean;
  out?: string;
  python: boolean;
  svg?: string;
  threadsAll: number;
  pythonBin: string;
}

function parseCli(argv: string[]): Options {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[a.slice(2)] = argv[++i];
    else flags[a.slice(2)] = 'true';
  }
  const known = [
    'sizes',
    'single-sizes',
    'families',
    'reps',
    'total',
    'min-rep-ms',
    'quick',
    'out',
    'no-python',
    'svg',
    'threads',
    'python',
    'help',
  ];
  for (const k of Object.keys(flags))
    if (!known.includes(k)) throw new Error(`unknown flag --${k} (known: ${known.map((x) => '--' + x).join(' ')})`);
  if (flags.help) {
    console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]);
    process.exit(0);
  }
  const quick = flags.quick === 'true';
  const families = (flags.families ?? FAMILIES.join(',')).split(',') as Family[];
  for (const f of families)
    if (!FAMILIES.includes(f)) throw new Error(`--families: ${f} is not one of ${FAMILIES.join(', ')}`);
  const num = (k: string, d: number) => {
    if (flags[k] === undefined) return d;
    const v = parseCount(flags[k]);
    if (!(v > 0)) throw new Error(`--${k}: expected a positive number, got ${flags[k]}`);
    return v;
  };
  return {
    sizes:
      flags.sizes ??
      (quick ? '2^4,2^8,2^12,2^16,1000,1009,2187,2310,256x256' : '2^4-2^20,1000,1009,2187,2310,1024x1024'),
    singleSizes: flags['single-sizes'] ?? (quick ? '2^16,2^20' : '2^16-2^22'),
    families,
    quick,
    reps: num('reps', quick ? 3 : 11),
    total: num('total', quick ? 2 ** 16 : 2 ** 20),
    minRepMs: num('min-rep-ms', quick ? 20 : 50),
    out: flags.out,
    python: flags['no-python'] !== 'true',
    svg: flags.svg === 'true' ? path.join(root, 'docs', 'cpu-gflops.svg') : flags.svg,
    threadsAll: num('threads', os.availableParallelism()),
    pythonBin: flags.python ?? 'python3',
  };
}

function parseCount(s: string): number {
  const m = /^(\d+)\^(\d+)$/.exec(s.trim());
  return m ? Number(m[1]) ** Number(m[2]) : Number(s);
}

interface SizeSpec {
  n: number;
  rows?: number;
}

/** "2^4-2^20,1000,1024x1024" → [{n:16}, …, {n:1000}, {n:1024, rows:1024}]. */
function parseSizes(spec: string): SizeSpec[] {
  const out: SizeSpec[] = [];
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const pow = /^2\^(\d+)-2\^(\d+)$/.exec(part);
    const two = /^(\d+)x(\d+)$/.exec(part);
    if (pow) for (let k = Number(pow[1]); k <= Number(pow[2]); k++) out.push({ n: 2 ** k });
    else if (two) out.push({ rows: Number(two[1]), n: Number(two[2]) });
    else {
      const n = parseCount(part);
      if (!Number.isSafeInteger(n) || n < 2) throw new Error(`--sizes: ${part} is not a length ≥ 2, 2^a-2^b or RxC`);
      out.push({ n });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Timing

interface Timing {
  best_s: number;
  median_s: number;
  reps: number;
  inner: number;
}

/** Seconds per call: warm-up, an inner loop of ≥ minRepMs, `reps` rounds (stops early past a time budget). */
async function timeIt(fn: () => unknown, reps: number, minRepMs: number, budgetMs = 8000): Promise<Timing> {
  await fn();
  let t0 = performance.now();
  await fn();
  const one = Math.max(performance.now() - t0, 1e-4);
  const inner = Math.max(1, Math.ceil(minRepMs / one));
  const times: number[] = [];
  const end = performance.now() + budgetMs;
  for (let r = 0; r < reps; r++) {
    t0 = performance.now();
    for (let i = 0; i < inner; i++) await fn();
    times.push((performance.now() - t0) / inner / 1e3);
    if (performance.now() > end && times.length >= 2) break;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { best_s: sorted[0], median_s: sorted[Math.floor(sorted.length / 2)], reps: times.length, inner };
}

// ---------------------------------------------------------------------------------------------------------
// Float64 reference (independent of the engine under test): radix-2 for powers of two, Bluestein otherwise.

function fft64(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if (n <= 1) return;
  if ((n & (n - 1)) === 0) return radix2(re, im);
  // Bluestein: chirp w_k = exp(-iπ k²/n), with k² reduced mod 2n so the angle stays exact.
  let m = 1;
  while (m < 2 * n - 1) m *= 2;
  const wr = new Float64Array(n),
    wi = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const a = (Math.PI * ((k * k) % (2 * n))) / n;
    wr[k] = Math.cos(a);
    wi[k] = -Math.sin(a);
  }
  const ar = new Float64Array(m),
    ai = new Float64Array(m),
    br = new Float64Array(m),
    bi = new Float64Array(m);
  for (let k = 0; k < n; k++) {
    ar[k] = re[k] * wr[k] - im[k] * wi[k];
    ai[k] = re[k] * wi[k] + im[k] * wr[k];
  }
  br[0] = wr[0];
  bi[0] = -wi[0];
  for (let k = 1; k < n; k++) {
    br[k] = br[m - k] = wr[k];
    bi[k] = bi[m - k] = -wi[k];
  }
  radix2(ar, ai);
  radix2(br, bi);
  for (let k = 0; k < m; k++) {
    const r = ar[k] * br[k] - ai[k] * bi[k];
    ai[k] = ar[k] * bi[k] + ai[k] * br[k];
    ar[k] = r;
  }
  // Inverse via conjugation.
  for (let k = 0; k < m; k++) ai[k] = -ai[k];
  radix2(ar, ai);
  for (let k = 0; k < n; k++) {
    const r = ar[k] / m,
      i = -ai[k] / m;
    re[k] = r * wr[k] - i * wi[k];
    im[k] = r * wi[k] + i * wr[k];
  }
}

function radix2(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  const cs = new Float64Array(n / 2),
    sn = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cs[k] = Math.cos((2 * Math.PI * k) / n);
    sn[k] = -Math.sin((2 * Math.PI * k) / n);
  }
  for (let len = 2; len <= n; len *= 2) {
    const half = len / 2,
      step = n / len;
    for (let s = 0; s < n; s += len) {
      for (let k = 0; k < half; k++) {
        const c = cs[k * step],
          d = sn[k * step];
        const p = s + k,
          q = p + half;
        const tr = re[q] * c - im[q] * d,
          ti = re[q] * d + im[q] * c;
        re[q] = re[p] - tr;
        im[q] = im[p] - ti;
        re[p] += tr;
        im[p] += ti;
      }
    }
  }
}

/** Interleaved complex → interleaved complex DFT (float64). */
function refC2C(x: ArrayLike<number>, n: number): Float64Array {
  const re = new Float64Array(n),
    im = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    re[k] = x[2 * k];
    im[k] = x[2 * k + 1];
  }
  fft64(re, im);
  const out = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    out[2 * k] = re[k];
    out[2 * k + 1] = im[k];
  }
  return out;
}

/** The n/2 + 1 non-negative-frequency terms of a real signal, interleaved. */
function refR2C(x: ArrayLike<number>, n: number): Float64Array {
  const re = Float64Array.from({ length: n }, (_, i) => x[i]),
    im = new Float64Array(n);
  fft64(re, im);
  const m = Math.floor(n / 2) + 1,
    out = new Float64Array(2 * m);
  for (let k = 0; k < m; k++) {
    out[2 * k] = re[k];
    out[2 * k + 1] = im[k];
  }
  return out;
}

/** scipy.fft.dct type 2, norm None: y_k = 2 Σ x_n cos(πk(2n+1)/(2N)), as the real part of a 4N-point DFT. */
/** DST-II by the odd extension of length 4N: y_k = −Im U_{k+1}. */
function refDst2(x: ArrayLike<number>, n: number): Float64Array {
  const re = new Float64Array(4 * n),
    im = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    re[2 * i + 1] = x[i];
    re[4 * n - 2 * i - 1] = -x[i];
  }
  fft64(re, im);
  return Float64Array.from({ length: n }, (_, k) => -im[k + 1]);
}

/** DCT-IV by the even extension of length 8N at odd indices: y_k = Re U_{2k+1}. */
function refDct4(x: ArrayLike<number>, n: number): Float64Array {
  const re = new Float64Array(8 * n),
    im = new Float64Array(8 * n);
  for (let i = 0; i < n; i++) {
    re[2 * i + 1] = x[i];
    re[8 * n - 2 * i - 1] = x[i];
  }
  fft64(re, im);
  return Float64Array.from({ length: n }, (_, k) => re[2 * k + 1]);
}

function refDct2(x: ArrayLike<number>, n: number): Float64Array {
  const re = new Float64Array(4 * n),
    im = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    re[2 * i + 1] = x[i];
    re[4 * n - 2 * i - 1] = x[i];
  }
  fft64(re, im);
  return re.slice(0, n);
}

/** 2-D DFT of a rows × n interleaved complex array: rows, then columns. */
function ref2D(x: Float64Array, rows: number, n: number): Float64Array {
  const out = new Float64Array(2 * rows * n);
  for (let r = 0; r < rows; r++) out.set(refC2C(x.subarray(2 * r * n, 2 * (r + 1) * n), n), 2 * r * n);
  const cr = new Float64Array(rows),
    ci = new Float64Array(rows);
  for (let c = 0; c < n; c++) {
    for (let r = 0; r < rows; r++) {
      cr[r] = out[2 * (r * n + c)];
      ci[r] = out[2 * (r * n + c) + 1];
    }
    fft64(cr, ci);
    for (let r = 0; r < rows; r++) {
      out[2 * (r * n + c)] = cr[r];
      out[2 * (r * n + c) + 1] = ci[r];
    }
  }
  return out;
}

/** max |got − ref| / max |ref| over the first ref.length values of `got` (starting at `offset`). */
function relErr(got: ArrayLike<number>, ref: Float64Array, offset = 0): number {
  let e = 0,
    m = 0;
  for (let i = 0; i < ref.length; i++) {
    const g = got[offset + i];
    e = Math.max(e, Number.isFinite(g) ? Math.abs(g - ref[i]) : Infinity);
    m = Math.max(m, Math.abs(ref[i]));
  }
  return e / (m || 1);
}

// f32 anchors round inputs, twiddles and every butterfly; 1e-4 of the largest output is ~100× their usual error
// and far below any wiring mistake (a wrong sign, ordering or scale gives errors of order 1).
const TOL32 = 1e-4,
  TOL64 = 1e-9;

// ---------------------------------------------------------------------------------------------------------
// Anchors

type Runner = () => unknown;
interface Prepared {
  run: Runner;
  check(): Promise<number>;
  dispose?(): void;
}
interface Column {
  key: string;
  prec: 32 | 64;
  prepare(): Promise<Prepared | null>;
}

interface Case {
  id: string;
  family: Family;
  n: number;
  rows?: number;
  batch: number;
  x32: Float32Array; // the benchmark input (complex interleaved or real), float32-representable values
  x64: Float64Array; // the same values in float64
  ref: Float64Array; // float64 reference of the FIRST transform of the batch
  refLast: Float64Array; // … and of the LAST (catches batch-stride mistakes)
  flops: number; // per call (whole batch)
}

// The Emscripten modules of the WASM anchors, which ship no types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WasmModule = any;
let pffftMod: WasmModule = null;
let kissMod: WasmModule = null;

async function loadWasmAnchors(): Promise<void> {
  try {
    const { default: PFFFT } = await import('@echogarden/pffft-wasm/simd' as string);
    pffftMod = await PFFFT();
  } catch (e) {
    console.error(`pffft-wasm (SIMD) unavailable: ${(e as Error).message}`);
  }
  try {
    // kissfft-wasm 1.1.2's Emscripten loader fetch()es its .wasm by file path, which fails under Node ≥ 18; hand
    // it the bytes instead, and drop the process-wide error handlers it installs.
    const before = new Set([...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')]);
    const loader = require('kissfft-wasm/lib/kissfft.js');
    const wasmBinary = readFileSync(require.resolve('kissfft-wasm/lib/kissfft.wasm'));
    kissMod = await loader({ wasmBinary });
    for (const l of process.listeners('uncaughtException'))
      if (!before.has(l)) process.removeListener('uncaughtException', l);
    for (const l of process.listeners('unhandledRejection'))
      if (!before.has(l)) process.removeListener('unhandledRejection', l);
  } catch (e) {
    console.error(`kissfft-wasm unavailable: ${(e as Error).message}`);
  }
}

/** Factors only 2, 3, 5 (pffft's radices) and the SIMD size multiple (16 complex, 32 real). */
function pffftSupports(n: number, real: boolean): boolean {
  if (n % (real ? 32 : 16) !== 0) return false;
  let m = n;
  for (const p of [2, 3, 5]) while (m % p === 0) m /= p;
  return m === 1;
}

function columnsFor(c: Case, o: Options): Column[] {
  const cols: Column[] = [];
  const { family, n, batch } = c;
  const per = isC2c(family) || family === 'c2c2d' ? 2 : 1;
  const len = (c.rows ?? 1) * n * per; // values per transform
  const checkOurs = (out: ArrayLike<number>, outLen: number) =>
    Math.max(relErr(out, c.ref, 0), relErr(out, c.refLast, (batch - 1) * outLen));
  const outLen = family === 'r2c' ? 2 * (Math.floor(n / 2) + 1) : R2R[family] ? n : len;

  // Ours, through the public API.
  // `shared`: input and output on SharedArrayBuffers, which workers read and write in place (no staging);
  // `buffers`: the plan's engine buffers (FftPlan.createBuffers), which the kernel transforms where they lie.
  const ours = (
    key: string,
    prec: 32 | 64,
    threads: number,
    mode: 'plain' | 'shared' | 'buffers' = 'plain',
  ): Column => ({
    key,
    prec,
    async prepare() {
      let x = prec === 32 ? c.x32 : c.x64;
      const shared = mode === 'shared';
      if (shared) {
        const sx = new Float32Array(new SharedArrayBuffer(4 * x.length));
        sx.set(x);
        x = sx;
      }
      let run: () => Promise<ArrayLike<number>>;
      if (isC2c(family)) {
        const opts: FftPlanOptions & { threads?: number } = { n, batch, backend: 'cpu', threads };
        const plan = await createFftPlan(opts);
        if (mode === 'buffers') {
          const buf = plan.createBuffers(prec === 32 ? 'f32' : 'f64');
          buf.input.set(x);
          return {
            run: () => plan.execute(buf.input, buf.output),
            check: async () => checkOurs(await plan.execute(buf.input, buf.output), outLen),
          };
        }
        // Into a reused output array, as the anchors write into preallocated memory.
        const out = shared
          ? new Float32Array(new SharedArrayBuffer(8 * n * batch))
          : new (prec === 32 ? Float32Array : Float64Array)(2 * n * batch);
        run = () =>
          prec === 32
            ? plan.execute(x as Float32Array, out as Float32Array)
            : plan.execute(x as Float64Array, out as Float64Array);
      } else {
        // One-shot calls with numpy's `out`: into a reused output array, like the plan above.
        const out = new (prec === 32 ? Float32Array : Float64Array)(outLen * batch);
        if (family === 'r2c') {
          const opts: FftCallOptions = { shape: [batch, n], backend: 'cpu', threads, out };
          run = () => rfft(x, opts);
        } else if (R2R[family]) {
          const { fn, type } = R2R[family]!;
          const opts: R2rCallOptions = { type, shape: [batch, n], backend: 'cpu', threads, out };
          run = () => (fn === 'dct' ? dct(x, opts) : dst(x, opts));
        } else {
          const opts: FftNdCallOptions = { shape: [batch, c.rows!, n], backend: 'cpu', threads, out };
          run = () => fft2(x, opts);
        }
      }
      return { run, check: async () => checkOurs(await run(), outLen) };
    },
  });
  cols.push(ours('ours32_1', 32, 1), ours('ours32_all', 32, o.threadsAll), ours('ours64_1', 64, 1));
  if (isC2c(family))
    cols.push(
      ours('ours32_all_shared', 32, o.threadsAll, 'shared'),
      ours('ours32_1_buf', 32, 1, 'buffers'),
      ours('ours32_all_buf', 32, o.threadsAll, 'buffers'),
      ours('ours64_1_buf', 64, 1, 'buffers'),
    );

  // fft.js (float64, powers of two only; complex and real transforms).
  const pow2 = (n & (n - 1)) === 0;
  if ((isC2c(family) || family === 'r2c') && pow2) {
    cols.push({
      key: 'fftjs',
      prec: 64,
      async prepare() {
        const FFT = require('fft.js');
        const f = new FFT(n);
        const out = new Float64Array(2 * n);
        const rows = Array.from({ length: batch }, (_, b) => c.x64.subarray(b * len, (b + 1) * len));
        const run = isC2c(family)
          ? () => {
              for (let b = 0; b < batch; b++) f.transform(out, rows[b]);
            }
          : () => {
              for (let b = 0; b < batch; b++) f.realTransform(out, rows[b]);
            };
        const check = async () => {
          // realTransform fills the first half of the spectrum, which is all R2C returns.
          if (isC2c(family)) f.transform(out, rows[0]);
          else f.realTransform(out, rows[0]);
          const e0 = relErr(out, c.ref);
          if (isC2c(family)) f.transform(out, rows[batch - 1]);
          else f.realTransform(out, rows[batch - 1]);
          return Math.max(e0, relErr(out, c.refLast));
        };
        return { run, check };
      },
    });
  }

  // pffft-wasm, SIMD build (float32; n a multiple of 16 (complex) / 32 (real) with factors 2, 3, 5).
  if ((isC2c(family) || family === 'r2c') && pffftMod && pffftSupports(n, family === 'r2c')) {
    cols.push({
      key: 'pffft',
      prec: 32,
      async prepare() {
        const m = pffftMod;
        const setup = m._pffft_new_setup(n, isC2c(family) ? 1 : 0);
        if (!setup) return null;
        const bytes = len * batch * 4;
        const inp = m._pffft_aligned_malloc(bytes),
          out = m._pffft_aligned_malloc(bytes),
          work = m._pffft_aligned_malloc(len * 4);
        m.HEAPF32.set(c.x32, inp / 4);
        const stride = len * 4;
        const run = () => {
          for (let b = 0; b < batch; b++)
            m._pffft_transform_ordered(setup, inp + b * stride, out + b * stride, work, 0);
        };
        const check = async () => {
          run();
          let e = 0;
          for (const [b, ref] of [
            [0, c.ref],
            [batch - 1, c.refLast],
          ] as const) {
            const got = m.HEAPF32.subarray(out / 4 + b * len, out / 4 + (b + 1) * len);
            if (isC2c(family)) e = Math.max(e, relErr(got, ref));
            else {
              // Ordered real output: [X_0, X_{n/2}, Re X_1, Im X_1, …]; unpack to n/2 + 1 complex terms.
              const u = new Float64Array(n + 2);
              u.set(got.subarray(2), 2);
              u[0] = got[0];
              u[n] = got[1];
              e = Math.max(e, relErr(u, ref));
            }
          }
          return e;
        };
        const dispose = () => {
          for (const ptr of [inp, out, work]) m._pffft_aligned_free(ptr);
          m._pffft_destroy_setup(setup);
        };
        return { run, check, dispose };
      },
    });
  }

  // kissfft-wasm (float32, any length; real transforms need even n; fftnd for 2-D).
  if (kissMod && (isC2c(family) || family === 'c2c2d' || (family === 'r2c' && n % 2 === 0))) {
    cols.push({
      key: 'kissfft',
      prec: 32,
      async prepare() {
        const m = kissMod;
        let cfg: number;
        if (family === 'c2c2d') {
          const dims = m._malloc(8);
          m.HEAP32.set([c.rows!, n], dims / 4);
          cfg = m._kiss_fftnd_alloc(dims, 2, 0, 0, 0);
        } else cfg = isC2c(family) ? m._kiss_fft_alloc(n, 0, 0, 0) : m._kiss_fftr_alloc(n, 0, 0, 0);
        if (!cfg) return null;
        const outPer = family === 'r2c' ? n + 2 : len;
        const inp = m._malloc(len * batch * 4),
          out = m._malloc(outPer * batch * 4);
        m.HEAPF32.set(c.x32, inp / 4);
        const f = isC2c(family) ? m._kiss_fft : family === 'r2c' ? m._kiss_fftr : m._kiss_fftnd;
        const run = () => {
          for (let b = 0; b < batch; b++) f(cfg, inp + b * len * 4, out + b * outPer * 4);
        };
        const check = async () => {
          run();
          const got = m.HEAPF32.subarray(out / 4, out / 4 + outPer * batch);
          return Math.max(relErr(got, c.ref, 0), relErr(got, c.refLast, (batch - 1) * outPer));
        };
        const dispose = () => {
          for (const ptr of [inp, out, cfg]) m._free(ptr);
        };
        return { run, check, dispose };
      },
    });
  }
  return cols;
}

// ---------------------------------------------------------------------------------------------------------
// Cases

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeCase(family: Family, s: SizeSpec, o: Options): Case {
  const { n } = s;
  const per = isC2c(family) || family === 'c2c2d' ? 2 : 1;
  const tlen = (s.rows ?? 1) * n;
  const batch = family === 'c2c1' ? 1 : Math.max(1, Math.floor(o.total / tlen));
  const rnd = mulberry32(n * 7919 + (s.rows ?? 0) + FAMILIES.indexOf(family));
  const x32 = new Float32Array(batch * tlen * per);
  for (let i = 0; i < x32.length; i++) x32[i] = 2 * rnd() - 1;
  const x64 = Float64Array.from(x32);
  const L = tlen * per;
  const first = x64.subarray(0, L),
    last = x64.subarray((batch - 1) * L, batch * L);
  const ref = (v: Float64Array) =>
    isC2c(family)
      ? refC2C(v, n)
      : family === 'r2c'
        ? refR2C(v, n)
        : family === 'dct2'
          ? refDct2(v, n)
          : family === 'dst2'
            ? refDst2(v, n)
            : family === 'dct4'
              ? refDct4(v, n)
              : ref2D(v, s.rows!, n);
  const lg = Math.log2(tlen);
  const flops = (per === 2 ? 5 : 2.5) * tlen * lg * batch;
  const id = family === 'c2c2d' ? `${family}-${s.rows}x${n}` : `${family}-${n}`;
  return { id, family, n, rows: s.rows, batch, x32, x64, ref: ref(first), refLast: ref(last), flops };
}

interface ColResult extends Partial<Timing> {
  gflops?: number;
  mrows?: number;
  err?: number;
  tol?: number;
  error?: string;
}
interface CaseResult {
  id: string;
  family: Family;
  n: number;
  rows?: number;
  batch: number;
  flops?: number;
  cols: Record<string, ColResult>;
}

async function runFftCase(c: Case, o: Options): Promise<CaseResult> {
  const res: CaseResult = {
    id: c.id,
    family: c.family,
    n: c.n,
    rows: c.rows,
    batch: c.batch,
    flops: c.flops,
    cols: {},
  };
  // Every column is prepared and checked first, then timed in interleaved rounds (one round of each column
  // in turn), so that a burst of load on this shared machine falls on all columns alike.
  const live: { key: string; p: Prepared; inner: number; times: number[]; err: number; tol: number }[] = [];
  try {
    for (const col of columnsFor(c, o)) {
      const tol = col.prec === 32 ? TOL32 : TOL64;
      try {
        const p = await col.prepare();
        if (!p) continue;
        const err = await p.check();
        if (!(err <= tol)) {
          res.cols[col.key] = {
            err,
            tol,
            error: `output differs from the float64 reference (rel. error ${err.toExponential(2)} > ${tol})`,
          };
          p.dispose?.();
          continue;
        }
        live.push({ key: col.key, p, inner: await innerCount(p.run, o.minRepMs), times: [], err, tol });
      } catch (e) {
        res.cols[col.key] = { error: (e as Error).message.split('\n')[0] };
      }
    }
    const end = performance.now() + 8000 * Math.max(1, live.length);
    for (let r = 0; r < o.reps; r++) {
      for (const l of live) {
        const t0 = performance.now();
        for (let i = 0; i < l.inner; i++) await l.p.run();
        l.times.push((performance.now() - t0) / l.inner / 1e3);
      }
      if (performance.now() > end && r >= 1) break;
    }
    for (const l of live) {
      const sorted = [...l.times].sort((a, b) => a - b);
      const t: Timing = {
        best_s: sorted[0]!,
        median_s: sorted[sorted.length >> 1]!,
        reps: sorted.length,
        inner: l.inner,
      };
      res.cols[l.key] = { ...t, gflops: c.flops / t.best_s / 1e9, err: l.err, tol: l.tol };
    }
  } finally {
    for (const l of live) l.p.dispose?.();
  }
  return res;
}

/** Calls per round: enough for the clock (minRepMs), after two warm-up calls. */
async function innerCount(fn: () => unknown, minRepMs: number): Promise<number> {
  await fn();
  const t0 = performance.now();
  await fn();
  return Math.max(1, Math.ceil(minRepMs / Math.max(performance.now() - t0, 1e-4)));
}

// ---------------------------------------------------------------------------------------------------------
// Tridiagonal (Mrows/s), ours; the numpy / scipy anchors come from bench/tridiagonal_numpy.py via cpu_numpy.py.

function triSystems(n: number, batch: number, seed: number) {
  const rnd = mulberry32(seed);
  const u = () => 2 * rnd() - 1;
  const a = new Float64Array(n * batch),
    b = new Float64Array(n * batch),
    c = new Float64Array(n * batch),
    d = new Float64Array(n * batch);
  for (let i = 0; i < n * batch; i++) {
    a[i] = u();
    c[i] = u();
    d[i] = u();
    const mag = Math.abs(a[i]) + Math.abs(c[i]) + 0.5 + rnd();
    b[i] = rnd() < 0.5 ? -mag : mag;
  }
  return { a, b, c, d }; // strided: system j row i at j·n + i
}

function transposeTo(v: Float64Array, n: number, batch: number): Float64Array {
  const out = new Float64Array(v.length);
  for (let j = 0; j < batch; j++) for (let i = 0; i < n; i++) out[i * batch + j] = v[j * n + i];
  return out;
}

async function runTriCase(n: number, batch: number, o: Options): Promise<CaseResult> {
  const id = `tri-${n}x${batch}`;
  const res: CaseResult = { id, family: 'tri', n, batch, cols: {} };
  const sys = triSystems(n, batch, n + batch);
  // The fourth field: the plan's engine buffers (TridiagonalPlan.createBuffers), solved where they lie.
  // The fifth: threads (--threads, default the cores, for "all"). The sixth: checkResidual (numpy's Thomas checks
  // nothing: the unchecked columns are the like-for-like ones).
  const variants: [string, 'strided' | 'interleaved', 'float32' | 'float64', boolean, number, boolean][] = [
    ['ours64_strided_1', 'strided', 'float64', false, 1, true],
    ['ours64_inter_1', 'interleaved', 'float64', false, 1, true],
    ['ours64_inter_1_buf', 'interleaved', 'float64', true, 1, true],
    ['ours64_inter_1_nc', 'interleaved', 'float64', false, 1, false],
    ['ours64_inter_1_buf_nc', 'interleaved', 'float64', true, 1, false],
    ['ours32_inter_1', 'interleaved', 'float32', false, 1, true],
    ['ours64_strided_all', 'strided', 'float64', false, o.threadsAll, true],
    ['ours64_inter_all', 'interleaved', 'float64', false, o.threadsAll, true],
    ['ours64_inter_all_buf', 'interleaved', 'float64', true, o.threadsAll, true],
  ];
  for (const [key, layout, dtype, buffers, threads, checkResidual] of variants) {
    let plan: Awaited<ReturnType<typeof createTridiagonalPlan>> | null = null;
    try {
      const conv = (v: Float64Array) => {
        const w = layout === 'interleaved' ? transposeTo(v, n, batch) : v;
        return dtype === 'float32' ? Float32Array.from(w) : w;
      };
      let data: {
        lower: Float32Array | Float64Array;
        diag: Float32Array | Float64Array;
        upper: Float32Array | Float64Array;
        rhs: Float32Array | Float64Array;
      } = { lower: conv(sys.a), diag: conv(sys.b), upper: conv(sys.c), rhs: conv(sys.d) };
      const desc: TridiagonalPlanDescriptor = { n, batch, layout, dtype, backend: 'cpu', threads, checkResidual };
      const p = (plan = await createTridiagonalPlan(desc));
      if (buffers) {
        const b = p.createBuffers();
        for (const k of ['lower', 'diag', 'upper', 'rhs'] as const) b[k].set(data[k]);
        data = b;
      }
      const run = () => p.solve(data);
      // Residual max |A x − d| / max |d| on every system (a_0 and c_{n−1} lie outside the matrix).
      const x = (await run()).x as Float32Array | Float64Array;
      const at = (v: ArrayLike<number>, j: number, i: number) => v[layout === 'strided' ? j * n + i : i * batch + j];
      let r = 0,
        dm = 0;
      for (let j = 0; j < batch; j++) {
        for (let i = 0; i < n; i++) {
          let s = at(data.diag, j, i) * at(x, j, i) - at(data.rhs, j, i);
          if (i > 0) s += at(data.lower, j, i) * at(x, j, i - 1);
          if (i < n - 1) s += at(data.upper, j, i) * at(x, j, i + 1);
          r = Math.max(r, Number.isFinite(s) ? Math.abs(s) : Infinity);
          dm = Math.max(dm, Math.abs(at(data.rhs, j, i)));
        }
      }
      const err = r / dm,
        tol = dtype === 'float32' ? 1e-4 : 1e-10;
      if (!(err <= tol)) {
        res.cols[key] = { err, tol, error: `residual ${err.toExponential(2)} > ${tol}` };
        continue;
      }
      const t = await timeIt(run, o.reps, o.minRepMs);
      res.cols[key] = { ...t, mrows: (n * batch) / t.best_s / 1e6, err, tol };
    } catch (e) {
      res.cols[key] = { error: (e as Error).message.split('\n')[0] };
    } finally {
      plan?.destroy();
    }
  }
  return res;
}

// ---------------------------------------------------------------------------------------------------------
// numpy / scipy

interface PyOut {
  python?: string;
  numpy?: string;
  scipy?: string;
  cpu_count?: number;
  error?: string;
  // Rows of bench/cpu_numpy.py's JSON output, read and amended field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  results?: any[];
}

/** Two runs of the Python anchors merged: per case and column, the faster timing (errors from either run kept). */
function bestOf(a: PyOut, b: PyOut): PyOut {
  if (a.error || !a.results) return b;
  if (b.error || !b.results) return a;
  const results = b.results.map((rb) => {
    const ra = a.results!.find((x) => x.id === rb.id);
    if (!ra || ra.error || rb.error) return rb.error ? (ra ?? rb) : rb;
    const cols = { ...rb.cols };
    for (const [k, ta] of Object.entries(ra.cols as Record<string, Timing>)) {
      const tb = cols[k] as Timing | undefined;
      if (!tb || (ta.best_s > 0 && ta.best_s < tb.best_s)) cols[k] = ta;
    }
    return { ...rb, cols };
  });
  return { ...b, results };
}

function runPython(cases: Case[], triCases: [number, number][], o: Options): PyOut {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
  try {
    const spec = {
      reps: o.reps,
      min_rep_s: o.minRepMs / 1e3,
      budget_s: 8,
      cases: [
        ...cases.map((c) => {
          // The first transform of the batch, float64 (complex as a trailing axis of 2), for the accuracy check.
          const L = (c.rows ?? 1) * c.n * (isC2c(c.family) || c.family === 'c2c2d' ? 2 : 1);
          const shape = isC2c(c.family) ? [c.n, 2] : c.family === 'c2c2d' ? [c.rows!, c.n, 2] : [c.n];
          const checkIn = path.join(dir, `${c.id}.npy`);
          writeFileSync(checkIn, encodeNpy(shape, c.x64.slice(0, L)));
          return {
            id: c.id,
            family: c.family === 'c2c1' ? 'c2c' : c.family,
            n: c.n,
            rows: c.rows,
            batch: c.batch,
            check_in: checkIn,
            check_out: path.join(dir, `${c.id}-out`),
          };
        }),
        ...triCases.map(([n, batch]) => ({ id: `tri-${n}x${batch}`, family: 'tri', n, batch })),
      ],
    };
    const specPath = path.join(dir, 'spec.json');
    writeFileSync(specPath, JSON.stringify(spec));
    const r = spawnSync(o.pythonBin, [path.join(root, 'bench', 'cpu_numpy.py'), specPath], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 << 20,
    });
    if (r.error || r.status !== 0)
      return { error: `${o.pythonBin} bench/cpu_numpy.py failed: ${r.error?.message ?? `exit ${r.status}`}` };
    const py = JSON.parse(r.stdout) as PyOut;
    // Accuracy of each Python column on the check input, against the same float64 reference.
    for (const pr of py.results ?? []) {
      const c = cases.find((k) => k.id === pr.id);
      if (!c || !pr.checks) continue;
      for (const [col, file] of Object.entries(pr.checks as Record<string, string>)) {
        const arr = parseNpy(readFileSync(file));
        const tol = col === 'numpy64' ? TOL64 : TOL32;
        const err = relErr(arr.data as ArrayLike<number>, c.ref);
        pr.cols[col] = { ...pr.cols[col], err, tol };
        if (!(err <= tol))
          pr.cols[col].error =
            `output differs from the float64 reference (rel. error ${err.toExponential(2)} > ${tol})`;
      }
    }
    return py;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Tables

const LABELS: Record<string, string> = {
  ours32_1: 'ours f32 1t',
  ours32_all: 'ours f32 all',
  ours32_all_shared: 'ours f32 all, shared',
  ours64_1: 'ours f64 1t',
  ours32_1_buf: 'ours f32 1t, buffers',
  ours32_all_buf: 'ours f32 all, buffers',
  ours64_1_buf: 'ours f64 1t, buffers',
  fftjs: 'fft.js f64',
  pffft: 'pffft SIMD',
  kissfft: 'kissfft',
  numpy64: 'numpy c128',
  scipy32_w1: 'scipy c64 w1',
  scipy32_all: 'scipy c64 all',
  ours64_strided_1: 'ours f64 strided 1t',
  ours64_inter_1: 'ours f64 inter. 1t',
  ours64_inter_1_buf: 'ours f64 inter. 1t, buffers',
  ours64_inter_1_nc: 'ours f64 inter. 1t, unchecked',
  ours64_inter_1_buf_nc: 'ours f64 inter. 1t, buffers, unchecked',
  ours32_inter_1: 'ours f32 inter. 1t',
  ours64_strided_all: 'ours f64 strided all',
  ours64_inter_all: 'ours f64 inter. all',
  ours64_inter_all_buf: 'ours f64 inter. all, buffers',
  numpy_thomas: 'numpy Thomas',
  solve_banded: 'solve_banded / system',
};
const FFT_COLS = [
  'ours32_1',
  'ours32_all',
  'ours32_all_shared',
  'ours64_1',
  'ours32_1_buf',
  'ours32_all_buf',
  'ours64_1_buf',
  'fftjs',
  'pffft',
  'kissfft',
  'numpy64',
  'scipy32_w1',
  'scipy32_all',
];
const TRI_COLS = [
  'ours64_strided_1',
  'ours64_inter_1',
  'ours64_inter_1_buf',
  'ours64_inter_1_nc',
  'ours64_inter_1_buf_nc',
  'ours32_inter_1',
  'ours64_strided_all',
  'ours64_inter_all',
  'ours64_inter_all_buf',
  'numpy_thomas',
  'solve_banded',
];
const TITLES: Record<Family, string> = {
  c2c: 'C2C, GFLOPS = 5·N·log2N·batch / t (best round)',
  c2c1: 'C2C, single transforms (batch 1), GFLOPS = 5·N·log2N / t (best round)',
  r2c: 'R2C, GFLOPS = 2.5·N·log2N·batch / t (best round); numpy = rfft f64, scipy = rfft f32',
  dct2: 'DCT-II, GFLOPS = 2.5·N·log2N·batch / t (best round); "numpy c128" = scipy.fft.dct f64 workers=1, scipy = dct f32',
  dst2: 'DST-II, GFLOPS = 2.5·N·log2N·batch / t (best round); "numpy c128" = scipy.fft.dst f64 workers=1, scipy = dst f32',
  dct4: 'DCT-IV, GFLOPS = 2.5·N·log2N·batch / t (best round); "numpy c128" = scipy.fft.dct type 4 f64 workers=1, scipy = f32',
  c2c2d: '2-D C2C, GFLOPS = 5·R·C·log2(R·C)·batch / t (best round); kissfft = kiss_fftnd',
  tri: 'Tridiagonal, Mrows/s = rows·systems / t (best round), diagonally dominant random systems',
};

function val(r: ColResult | undefined): number | undefined {
  return r && !r.error ? (r.gflops ?? r.mrows) : undefined;
}

function fmt(v: number | undefined, digits = 2): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(digits);
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : '—';
}

function markdown(results: CaseResult[]): string {
  const out: string[] = [];
  for (const fam of FAMILIES) {
    const rows = results.filter((r) => r.family === fam);
    if (rows.length === 0) continue;
    out.push(`### ${TITLES[fam]}`, '');
    const cols = fam === 'tri' ? TRI_COLS : FFT_COLS;
    let ratios: [string, (r: CaseResult) => string][];
    if (fam === 'tri') {
      const best = (r: CaseResult, keys: string[]) => {
        const v = keys.map((k) => val(r.cols[k])).filter((x) => x !== undefined) as number[];
        return v.length ? Math.max(...v) : undefined;
      };
      const oursBest = (r: CaseResult) => best(r, ['ours64_strided_1', 'ours64_inter_1']);
      ratios = [
        ['f64 1t / solve_banded', (r) => ratio(oursBest(r), val(r.cols.solve_banded))],
        ['f64 1t / numpy Thomas', (r) => ratio(oursBest(r), val(r.cols.numpy_thomas))],
        // numpy's Thomas works on arrays already in its memory: the engine buffers are the like-for-like case.
        ['buffers / numpy Thomas', (r) => ratio(val(r.cols.ours64_inter_1_buf), val(r.cols.numpy_thomas))],
        [
          'f64 all / numpy Thomas',
          (r) => ratio(best(r, ['ours64_strided_all', 'ours64_inter_all']), val(r.cols.numpy_thomas)),
        ],
        ['buffers all / numpy Thomas', (r) => ratio(val(r.cols.ours64_inter_all_buf), val(r.cols.numpy_thomas))],
        // Neither checks its solutions (checkResidual: false).
        ['unchecked / numpy Thomas', (r) => ratio(val(r.cols.ours64_inter_1_nc), val(r.cols.numpy_thomas))],
        ['unchecked buffers / numpy Thomas', (r) => ratio(val(r.cols.ours64_inter_1_buf_nc), val(r.cols.numpy_thomas))],
      ];
    } else {
      const c = (r: CaseResult, k: string) => val(r.cols[k]);
      const oneD = isC2c(fam) || fam === 'r2c';
      ratios = [
        ...(oneD
          ? [
              ['f32 / pffft', (r: CaseResult) => ratio(c(r, 'ours32_1'), c(r, 'pffft'))] as [
                string,
                (r: CaseResult) => string,
              ],
            ]
          : []),
        ['f32 / scipy w1', (r) => ratio(c(r, 'ours32_1'), c(r, 'scipy32_w1'))],
        [R2R[fam] ? 'f64 / scipy f64' : 'f64 / numpy', (r) => ratio(c(r, 'ours64_1'), c(r, 'numpy64'))],
        ...(oneD
          ? [
              ['f64 / fft.js', (r: CaseResult) => ratio(c(r, 'ours64_1'), c(r, 'fftjs'))] as [
                string,
                (r: CaseResult) => string,
              ],
            ]
          : []),
      ];
      if (fam === 'r2c') {
        // Transforms per second, R2C over C2C of the same N (ours f32, 1 thread): twice the GFLOPS ratio.
        ratios.push([
          'R2C/C2C rate',
          (r) => {
            const c2c = results.find((k) => k.family === 'c2c' && k.n === r.n);
            const tr = r.cols.ours32_1?.best_s,
              tc = c2c?.cols.ours32_1?.best_s;
            return !r.cols.ours32_1?.error && !c2c?.cols.ours32_1?.error && tr && tc && c2c
              ? `${(tc / c2c.batch / (tr / r.batch)).toFixed(2)}×`
              : '—';
          },
        ]);
      }
      ratios.push(['all / 1t', (r) => ratio(c(r, 'ours32_all'), c(r, 'ours32_1'))]);
      if (isC2c(fam)) {
        ratios.push(['shared / 1t', (r) => ratio(c(r, 'ours32_all_shared'), c(r, 'ours32_1'))]);
        // pffft and numpy transform data already in their own memory: the engine buffers are the like-for-like case.
        ratios.push(
          ['buffers f32 / pffft', (r) => ratio(c(r, 'ours32_1_buf'), c(r, 'pffft'))],
          ['buffers f32 / scipy w1', (r) => ratio(c(r, 'ours32_1_buf'), c(r, 'scipy32_w1'))],
          ['buffers f64 / numpy', (r) => ratio(c(r, 'ours64_1_buf'), c(r, 'numpy64'))],
          ['buffers all / 1t', (r) => ratio(c(r, 'ours32_all_buf'), c(r, 'ours32_1_buf'))],
        );
      }
    }
    const present = cols.filter((k) => rows.some((r) => r.cols[k]));
    const head = [
      fam === 'tri' ? 'n × systems' : 'N × batch',
      ...present.map((k) => LABELS[k]),
      ...ratios.map(([h]) => h),
    ];
    out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    for (const r of rows) {
      const size = r.rows ? `${r.rows}×${r.n} × ${r.batch}` : `${r.n} × ${r.batch}`;
      const cells = present.map((k) => (r.cols[k]?.error ? 'wrong/err' : fmt(val(r.cols[k]))));
      out.push(`| ${[size, ...cells, ...ratios.map(([, f]) => f(r))].join(' | ')} |`);
    }
    const errs = rows.flatMap((r) =>
      Object.entries(r.cols)
        .filter(([, v]) => v.error)
        .map(([k, v]) => `${r.id} ${LABELS[k] ?? k}: ${v.error}`),
    );
    if (errs.length) out.push('', ...errs.map((e) => `- ${e}`));
    out.push('');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const o = parseCli(process.argv.slice(2));
  const sizes = parseSizes(o.sizes);
  await loadWasmAnchors();
  const triCases = o.families.includes('tri')
    ? TRI_CASES.map(([n, b]): [number, number] => [n, Math.max(1, Math.round((b * o.total) / 2 ** 20))])
    : [];
  const cases: Case[] = [];
  for (const fam of o.families) {
    if (fam === 'tri') continue;
    const list = fam === 'c2c1' ? parseSizes(o.singleSizes) : sizes;
    for (const s of list) if ((fam === 'c2c2d') === (s.rows !== undefined)) cases.push(makeCase(fam, s, o));
  }
  // The Python anchors run in their own process, so never beside ours: once before and once after them.
  let pyFirst: PyOut | null = null;
  if (o.python) {
    process.stderr.write('  numpy / scipy (first window) …\n');
    pyFirst = runPython(cases, triCases, o);
  }
  const results: CaseResult[] = [];
  for (const c of cases) {
    process.stderr.write(`  ${c.id} × ${c.batch} …`);
    const t0 = performance.now();
    results.push(await runFftCase(c, o));
    process.stderr.write(` ${((performance.now() - t0) / 1e3).toFixed(1)} s\n`);
  }
  for (const [n, b] of triCases) {
    process.stderr.write(`  tri-${n}x${b} …`);
    results.push(await runTriCase(n, b, o));
    process.stderr.write(' done\n');
  }
  let py: PyOut | null = null;
  if (o.python) {
    // A second window for the Python anchors (the first ran before ours): each cell keeps its faster one.
    process.stderr.write('  numpy / scipy (second window) …\n');
    py = bestOf(pyFirst!, runPython(cases, triCases, o));
    if (py.error) console.error(py.error);
    for (const pr of py.results ?? []) {
      const r = results.find((k) => k.id === pr.id);
      if (!r) continue;
      if (pr.error) {
        r.cols[r.family === 'tri' ? 'numpy_thomas' : 'numpy64'] = { error: pr.error };
        continue;
      }
      for (const [k, t] of Object.entries(pr.cols as Record<string, Timing & ColResult>)) {
        const rate =
          r.family === 'tri' ? { mrows: (r.n * r.batch) / t.best_s / 1e6 } : { gflops: r.flops! / t.best_s / 1e9 };
        if (r.family === 'tri' && pr.residual?.[k] !== undefined) {
          t.err = pr.residual[k];
          t.tol = 1e-10;
          if (!(t.err! <= 1e-10)) t.error = `residual ${t.err!.toExponential(2)} > 1e-10`;
        }
        r.cols[k] = { ...t, ...rate };
      }
    }
  }
  const host = os.hostname().replace(/[^A-Za-z0-9_.-]/g, '_');
  const date = new Date().toISOString().slice(0, 10);
  const doc = {
    date: new Date().toISOString(),
    host,
    cpu: os.cpus()[0]?.model,
    cores: os.availableParallelism(),
    node: process.version,
    options: { ...o, sizes: o.sizes },
    conventions: 'GFLOPS from the best round: 5·N·log2N·batch/t complex, 2.5·… real; Mrows/s = rows·systems/t',
    versions: {
      'fft.js': require('fft.js/package.json').version,
      '@echogarden/pffft-wasm': JSON.parse(
        readFileSync(path.join(root, 'node_modules/@echogarden/pffft-wasm/package.json'), 'utf8'),
      ).version,
      'kissfft-wasm': require('kissfft-wasm/package.json').version,
      python: py?.python,
      numpy: py?.numpy,
      scipy: py?.scipy,
    },
    python_error: py?.error,
    results,
  };
  const outPath = o.out ?? path.join(root, 'bench', 'results', 'cpu', `${date}-${host}${o.quick ? '-quick' : ''}.json`);
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, JSON.stringify(doc, null, 1) + '\n');
  console.log(
    `## CPU benchmark — ${doc.cpu}, ${doc.cores} cores, Node ${doc.node}${py?.numpy ? `, numpy ${py.numpy}, scipy ${py.scipy}` : ''}\n`,
  );
  console.log(
    `threads "all" = ${o.threadsAll}; total ${o.total} elements per call; ${o.reps} rounds of ≥ ${o.minRepMs} ms.\n`,
  );
  const md = markdown(results);
  console.log(md);
  // The tables beside the JSON: bench/report.ts puts the newest into BENCHMARKS.md.
  writeFileSync(outPath.replace(/\.json$/, '.md'), md + '\n');
  console.log(`JSON: ${path.relative(process.cwd(), outPath)}`);
  if (o.svg) {
    mkdirSync(path.dirname(o.svg), { recursive: true });
    writeFileSync(o.svg, renderCpuSvg(doc));
    console.log(`SVG: ${path.relative(process.cwd(), o.svg)}`);
  }
}

main().catch((e) => {
  // Bad flags get their one-line message; anything else its stack.
  console.error(e instanceof Error && /^(--|unknown flag|unexpected argument)/.test(e.message) ? e.message : e);
  process.exit(1);
});
