/**
 * One-shot calls as users make them, on the CPU engine, against scipy in the same run: transforms along axes other
 * than the last (dct/rfft along axis 0, dctn/rfftn over every axis, 3-D), and FFT / overlap-add convolution.
 * Each case runs in f32 and f64 (threads: 1; scipy workers=1, scipy.signal for convolution). Optionally an older
 * build's same calls (`--against`, a dist/src/index.js), interleaved with ours round by round.
 * Milliseconds per call, best of --rounds; ratios are scipy / ours (above 1: ours is faster).
 *
 *   node dist/bench/cpu-calls.js [--cases dctn-512,conv1d-100k] [--rounds 9] [--against /tmp/old/dist/src/index.js]
 *        [--out bench/results/cpu/<date>-calls.json] [--no-python]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from './common.js';

type Api = typeof import('../src/index.js');
type Arr = Float32Array | Float64Array;

interface CallCase {
  id: string;
  /** Shape of the main operand (real) and, for convolutions, of the second. */
  shape: number[];
  kernel?: number[];
  js(api: Api, x: Arr, k: Arr | undefined): Promise<unknown>;
  /**
   * A Python expression over x, k (numpy arrays of the case's dtype; xc: x's last axis of 2 as complex), np, sf
   * (scipy.fft), ss (scipy.signal).
   */
  py: string;
}

const o = { backend: 'cpu' as const, threads: 1 };
const CASES: CallCase[] = [
  {
    id: 'dct-axis0-1024',
    shape: [1024, 1024],
    js: (a, x) => a.dct(x, { ...o, shape: [1024, 1024], axis: 0 }),
    py: 'sf.dct(x, axis=0, workers=1)',
  },
  {
    id: 'dctn-512',
    shape: [512, 512],
    js: (a, x) => a.dctn(x, { ...o, shape: [512, 512] }),
    py: 'sf.dctn(x, workers=1)',
  },
  {
    id: 'dctn-1024',
    shape: [1024, 1024],
    js: (a, x) => a.dctn(x, { ...o, shape: [1024, 1024] }),
    py: 'sf.dctn(x, workers=1)',
  },
  {
    id: 'idctn-1024',
    shape: [1024, 1024],
    js: (a, x) => a.idctn(x, { ...o, shape: [1024, 1024] }),
    py: 'sf.idctn(x, workers=1)',
  },
  {
    id: 'dstn4-512',
    shape: [512, 512],
    js: (a, x) => a.dstn(x, { ...o, shape: [512, 512], type: 4 }),
    py: 'sf.dstn(x, type=4, workers=1)',
  },
  {
    id: 'dctn-64^3',
    shape: [64, 64, 64],
    js: (a, x) => a.dctn(x, { ...o, shape: [64, 64, 64] }),
    py: 'sf.dctn(x, workers=1)',
  },
  {
    id: 'rfft-axis0-1024',
    shape: [1024, 1024],
    js: (a, x) => a.rfft(x, { ...o, shape: [1024, 1024], axis: 0 }),
    py: 'sf.rfft(x, axis=0, workers=1)',
  },
  {
    id: 'rfft-axis0-65536x8',
    shape: [65536, 8],
    js: (a, x) => a.rfft(x, { ...o, shape: [65536, 8], axis: 0 }),
    py: 'sf.rfft(x, axis=0, workers=1)',
  },
  {
    id: 'rfftn-64^3',
    shape: [64, 64, 64],
    js: (a, x) => a.rfftn(x, { ...o, shape: [64, 64, 64] }),
    py: 'sf.rfftn(x, workers=1)',
  },
  {
    id: 'irfftn-64^3',
    shape: [64, 64, 33, 2],
    js: (a, x) => a.irfftn(x, { ...o, shape: [64, 64, 33], s: [64, 64, 64] }),
    py: 'sf.irfftn(xc, s=(64, 64, 64), workers=1)',
  },
  {
    id: 'rfftn-axes20-64^3',
    shape: [64, 64, 64],
    js: (a, x) => a.rfftn(x, { ...o, shape: [64, 64, 64], axes: [2, 0] }),
    py: 'sf.rfftn(x, axes=(2, 0), workers=1)',
  },
  {
    id: 'rfft2-1024',
    shape: [1024, 1024],
    js: (a, x) => a.rfft2(x, { ...o, shape: [1024, 1024] }),
    py: 'sf.rfft2(x, workers=1)',
  },
  {
    id: 'rfft2-1000',
    shape: [1000, 1000],
    js: (a, x) => a.rfft2(x, { ...o, shape: [1000, 1000] }),
    py: 'sf.rfft2(x, workers=1)',
  },
  {
    id: 'irfft2-1024',
    shape: [1024, 513, 2],
    js: (a, x) => a.irfft2(x, { ...o, shape: [1024, 513], s: [1024, 1024] }),
    py: 'sf.irfft2(xc, s=(1024, 1024), workers=1)',
  },
  {
    id: 'fft2-1024',
    shape: [1024, 1024, 2],
    js: (a, x) => a.fft2(x, { ...o, shape: [1024, 1024] }),
    py: 'sf.fft2(xc, workers=1)',
  },
  {
    id: 'fftconvolve-100000x1000',
    shape: [100000],
    kernel: [1000],
    js: (a, x, k) => a.fftconvolve(x, k!, { backend: 'cpu' }),
    py: 'ss.fftconvolve(x, k)',
  },
  {
    id: 'oaconvolve-100000x1000',
    shape: [100000],
    kernel: [1000],
    js: (a, x, k) => a.oaconvolve(x, k!, { backend: 'cpu' }),
    py: 'ss.oaconvolve(x, k)',
  },
  {
    id: 'fftconvolve-2^20x4096',
    shape: [1 << 20],
    kernel: [4096],
    js: (a, x, k) => a.fftconvolve(x, k!, { backend: 'cpu' }),
    py: 'ss.fftconvolve(x, k)',
  },
  {
    id: 'oaconvolve-2^20x4096',
    shape: [1 << 20],
    kernel: [4096],
    js: (a, x, k) => a.oaconvolve(x, k!, { backend: 'cpu' }),
    py: 'ss.oaconvolve(x, k)',
  },
  {
    id: 'fftconvolve-64^3x9^3',
    shape: [64, 64, 64],
    kernel: [9, 9, 9],
    js: (a, x, k) =>
      a.fftconvolve({ data: x, shape: [64, 64, 64] }, { data: k!, shape: [9, 9, 9] }, { backend: 'cpu' }),
    py: 'ss.fftconvolve(x, k)',
  },
  {
    id: 'oaconvolve-64^3x9^3',
    shape: [64, 64, 64],
    kernel: [9, 9, 9],
    js: (a, x, k) => a.oaconvolve({ data: x, shape: [64, 64, 64] }, { data: k!, shape: [9, 9, 9] }, { backend: 'cpu' }),
    py: 'ss.oaconvolve(x, k)',
  },
  {
    id: 'oaconvolve-512^2x31^2',
    shape: [512, 512],
    kernel: [31, 31],
    js: (a, x, k) => a.oaconvolve({ data: x, shape: [512, 512] }, { data: k!, shape: [31, 31] }, { backend: 'cpu' }),
    py: 'ss.oaconvolve(x, k)',
  },
  {
    id: 'fftconvolve-512^2x31^2',
    shape: [512, 512],
    kernel: [31, 31],
    js: (a, x, k) => a.fftconvolve({ data: x, shape: [512, 512] }, { data: k!, shape: [31, 31] }, { backend: 'cpu' }),
    py: 'ss.fftconvolve(x, k)',
  },
  // 2-D complex arrays whose rows are not a whole number of lanes (the padded 2-D engine).
  ...(
    [
      [512, 513],
      [1000, 1001],
      [1001, 1001],
      [509, 509],
    ] as const
  ).map(
    ([r, c]): CallCase => ({
      id: `fft2-${r}x${c}`,
      shape: [r, c, 2],
      js: (a, x) => a.fft2(x, { ...o, shape: [r, c] }),
      py: 'sf.fft2(xc, workers=1)',
    }),
  ),
  // Complex columns whose width is not a whole number of lanes (the column module's zero columns), along axis 0
  // and as the leading axes of odd volumes.
  ...(
    [
      [1024, 513],
      [4096, 65],
      [1000, 999],
    ] as const
  ).map(
    ([r, c]): CallCase => ({
      id: `fft-axis0-${r}x${c}`,
      shape: [r, c, 2],
      js: (a, x) => a.fft(x, { ...o, shape: [r, c], axis: 0 }),
      py: 'sf.fft(xc, axis=0, workers=1)',
    }),
  ),
  {
    id: 'fftn-63^3',
    shape: [63, 63, 63, 2],
    js: (a, x) => a.fftn(x, { ...o, shape: [63, 63, 63] }),
    py: 'sf.fftn(xc, workers=1)',
  },
  {
    id: 'rfft2-1000x1001',
    shape: [1000, 1001],
    js: (a, x) => a.rfft2(x, { ...o, shape: [1000, 1001] }),
    py: 'sf.rfft2(x, workers=1)',
  },
  // Rows of odd and prime lengths, where the real transforms take their own paths.
  ...(
    [
      [2187, 479],
      [1009, 1039],
      [1001, 1000],
    ] as const
  ).flatMap(([n, rows]) =>
    (['dct2', 'dct3', 'dct4', 'dst2', 'dst3', 'dst4'] as const).map(
      (kind): CallCase => ({
        id: `${kind}-${n}`,
        shape: [rows, n],
        js: (a, x) => (kind.startsWith('dct') ? a.dct : a.dst)(x, { ...o, type: Number(kind[3]), shape: [rows, n] }),
        py: `sf.${kind.slice(0, 3)}(x, type=${kind[3]}, workers=1)`,
      }),
    ),
  ),
  // Single rows of lengths whose modules hold several rows in their lanes (odd, or not splitting across them), and
  // a length whose half the complex planner sends to Bluestein.
  ...([59049, 177147, 999999] as const).flatMap((n): CallCase[] => [
    {
      id: `fft1-${n}`,
      shape: [n, 2],
      js: (a, x) => a.fft(x, { ...o, shape: [n] }),
      py: 'sf.fft(xc, workers=1)',
    },
    {
      id: `rfft1-${n}`,
      shape: [n],
      js: (a, x) => a.rfft(x, o),
      py: 'sf.rfft(x, workers=1)',
    },
  ]),
  ...(
    [
      ['rfft', 142544],
      ['dct', 142544],
      ['dct', 59049],
      ['rfft', 19683],
      ['dct', 19683],
    ] as const
  ).map(
    ([kind, n]): CallCase => ({
      id: `${kind}1-${n}`,
      shape: [n],
      js: (a, x) => a[kind](x, o),
      py: `sf.${kind}(x, workers=1)`,
    }),
  ),
];

const args = parseArgs(process.argv.slice(2));
const rounds = Number(args.rounds ?? 9);
const pick = args.cases?.split(',');
const cases = pick ? CASES.filter((c) => pick.includes(c.id)) : CASES;
if (pick && cases.length !== pick.length)
  throw new Error(`--cases: known ids are ${CASES.map((c) => c.id).join(', ')}`);
const ours = (await import('../src/index.js')) as Api;
const older = args.against ? ((await import(pathToFileURL(path.resolve(args.against)).href)) as Api) : null;

function seeded(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32 - 0.5));
}
const size = (s: number[]) => s.reduce((a, b) => a * b, 1);

interface Row {
  id: string;
  precision: 'f32' | 'f64';
  ours_ms: number;
  old_ms?: number;
  scipy_ms?: number;
}
const rows: Row[] = [];
for (const c of cases) {
  for (const [precision, T] of [
    ['f32', Float32Array],
    ['f64', Float64Array],
  ] as const) {
    const x = T.from(seeded(size(c.shape), 1));
    const k = c.kernel ? T.from(seeded(size(c.kernel), 2)) : undefined;
    const builds: [keyof Row, Api][] = older
      ? [
          ['ours_ms', ours],
          ['old_ms', older],
        ]
      : [['ours_ms', ours]];
    const best: Partial<Record<keyof Row, number>> = {};
    for (const [, api] of builds) await c.js(api, x, k); // warm-up: plans and modules
    for (let r = 0; r < rounds; r++) {
      for (const [key, api] of r % 2 ? [...builds].reverse() : builds) {
        const t = performance.now();
        await c.js(api, x, k);
        best[key] = Math.min(best[key] ?? Infinity, performance.now() - t);
      }
    }
    rows.push({ id: c.id, precision, ours_ms: best.ours_ms!, old_ms: best.old_ms });
    console.error(`  ${c.id} ${precision} … ${best.ours_ms!.toFixed(2)} ms`);
  }
}

if (args['no-python'] === undefined) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const script = path.resolve(here, '../../bench/cpu_calls.py');
  const spec = cases.map((c) => ({ id: c.id, shape: c.shape, kernel: c.kernel, py: c.py }));
  const r = spawnSync('python3', [script, JSON.stringify({ rounds, cases: spec })], { encoding: 'utf8' });
  if (r.status !== 0) console.error(`python anchors failed: ${r.stderr}`);
  else {
    const py = JSON.parse(r.stdout) as { times: Record<string, number>; versions: string };
    for (const row of rows) row.scipy_ms = py.times[`${row.id}/${row.precision}`];
    console.log(`scipy: ${py.versions}`);
  }
}

const f = (v: number | undefined, d = 2) => (v === undefined ? '—' : v.toFixed(d));
console.log(`\n### One-shot calls along other axes and convolution, ms per call (best of ${rounds}), threads 1\n`);
console.log(`${os.cpus()[0]?.model}, ${os.cpus().length} cores, Node ${process.version}\n`);
console.log(
  `| Case | precision | ours | ${older ? 'previous build | ' : ''}scipy | scipy / ours |${older ? ' previous / ours |' : ''}`,
);
console.log(`|---|---|---|---|---|${older ? '---|---|' : ''}`);
for (const r of rows) {
  const ratio = r.scipy_ms === undefined ? '—' : `${(r.scipy_ms / r.ours_ms).toFixed(2)}×`;
  const prev = older ? ` ${f(r.old_ms)} |` : '';
  const prevRatio = older ? ` ${(r.old_ms! / r.ours_ms).toFixed(2)}× |` : '';
  console.log(`| ${r.id} | ${r.precision} | ${f(r.ours_ms)} |${prev} ${f(r.scipy_ms)} | ${ratio} |${prevRatio}`);
}
if (args.out) {
  mkdirSync(path.dirname(args.out), { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    node: process.version,
  };
  writeFileSync(args.out, JSON.stringify({ ...meta, rounds, against: args.against ?? null, rows }, null, 1));
  console.log(`\nJSON: ${args.out}`);
}
