/**
 * Turns benchmark JSON lines (ours and the anchors, measured in the same run) into the tables of
 * BENCHMARKS.md and the bandwidth plot docs/fft-bandwidth.svg. Nothing here is measured: it only reads
 * what the bench scripts wrote under bench/results/.
 *
 *   npx tsx bench/report.ts > BENCHMARKS.md
 */
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { compareRuns, FAMILIES, type FamilyComparison } from './compare.js';

type Row = Record<string, unknown> & { lib?: string; kind?: string; N?: number; ms?: number; GBps?: number };

function load(path: string): Row[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

// Each table's anchors (cuFFT, cuSPARSE, CuPy) are measured in the same run as ours: EDM, convolution and
// sparse FFT from run final25, the tridiagonal table from final30, the other C2C lengths from final31, the FFT tables from
// final44 and shallow water from final16 (below); the runs' scripts are in git history (bench/gpu-runs/).
const run = 'bench/results/2026-11-22-h200-final25';
const run30 = 'bench/results/2026-11-24-h200-final30';
const tri = load(`${run30}/tri.jsonl`);
const triOld = load(`${run30}/tri-old.jsonl`);
const cusparse = load(`${run30}/cusparse.jsonl`);
const edm = load(`${run}/edm.jsonl`);
const cupy = load(`${run}/cupy.jsonl`);
const conv = load(`${run}/conv.jsonl`);
// An older run still quoted: final28 (the R2C repeats of the section on
// timing variance), each with cuFFT and, as "previous kernels", commit 1565ad7 measured in the same run.
const run28 = 'bench/results/2026-11-22-h200-final28';
// Every FFT table (C2C, R2C, DCT-II, DHT, 2-D, other lengths) from one run, final44: ours, commit f5c2ea7
// as "previous kernels", and the anchors measured twice in that run, as before and warmed up for 300 ms like
// ours; each case takes the faster of its two anchor readings (the anchors' own run-to-run spread). The
// errors of sizes the tables' run does not check (N > 2^22) come from final32 and final35, which checked
// them against the float64 CPU transforms.
const run39 = 'bench/results/2026-11-24-h200-final44';
const run32 = 'bench/results/2026-11-24-h200-final32';
const run35 = 'bench/results/2026-11-24-h200-final35';
/** The faster of two readings of each anchor case (matched by lib, kind, N and shape). */
function fasterAnchors(a: Row[], b: Row[]): Row[] {
  const key = (r: Row) => `${r.lib}|${r.kind}|${r.N}|${r.shape ?? ''}`;
  const other = new Map(b.map((r) => [key(r), r] as const));
  return a.map((r) => {
    const o = other.get(key(r));
    return o && o.ms !== undefined && r.ms !== undefined && o.ms < r.ms ? o : r;
  });
}
const anchors39 = (name: string) => fasterAnchors(load(`${run39}/${name}.jsonl`), load(`${run39}/${name}-warm.jsonl`));
const checks = [
  ...load(`${run32}/check-c2c.jsonl`),
  ...load(`${run32}/check-r2c.jsonl`),
  ...load(`${run35}/check-dct2.jsonl`),
  ...load(`${run35}/check-dht.jsonl`),
];
const extra39 = anchors39('cufft-extra');
const r2r24 = (k: string) => ({
  ours: load(`${run39}/${k}-new.jsonl`),
  anchors: extra39,
  prev: load(`${run39}/${k}-old.jsonl`),
  checks,
});
const r2c26 = {
  ours: load(`${run39}/r2c-new.jsonl`),
  anchors: anchors39('cufft-r2c'),
  prev: load(`${run39}/r2c-old.jsonl`),
  checks,
};
const c2c26 = {
  ours: load(`${run39}/c2c-new.jsonl`),
  anchors: anchors39('cufft-c2c'),
  prev: load(`${run39}/c2c-old.jsonl`),
  checks,
};
const odd26 = load(`${run39}/c2c-2d-new.jsonl`);
const oddOld26 = load(`${run39}/c2c-2d-old.jsonl`);
const cufft26 = extra39;
const odd30 = load(`${run39}/c2c-odd-new.jsonl`);
const oddOld30 = load(`${run39}/c2c-odd-old.jsonl`);
const cufft30 = extra39;
const run16 = 'bench/results/2026-11-22-h200-final16';
const swe = load(`${run16}/swe.jsonl`);
const sweOld = load(`${run16}/swe-old.jsonl`);
const swe1000 = load('bench/results/2026-11-22-h200-swe-1000b/compare-1000.jsonl');
const sfftOurs = load(`${run}/sfft.jsonl`);
const sfftCu = load(`${run}/sfft-cufft.jsonl`);

const f = (x: number | undefined, d = 3) =>
  x === undefined || !Number.isFinite(x) ? '—' : x >= 1000 ? x.toFixed(0) : x.toPrecision(d);
const copy = c2c26.ours.find((r) => r.lib === 'device-copy')?.GBps as number;
const cuCopy = c2c26.anchors.find((r) => r.lib === 'device-copy')?.GBps as number;

function tableOf(headers: string[], rows: (string | number)[][]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** A table of one transform kind against its anchor; with `prev`, a column of the previous kernels' times. */
function fftTable(
  kind: string,
  anchorKind: string,
  anchorLib: string,
  src: { ours: Row[]; anchors: Row[]; prev?: Row[]; checks?: Row[] },
): string {
  const rows: (string | number)[][] = [];
  for (const o of src.ours.filter(
    (r) => r.lib === 'butterfly' && r.kind === kind && r.ms && Number.isInteger(Math.log2(r.N!)),
  )) {
    const c = src.anchors.find((r) => r.lib === anchorLib && r.kind === anchorKind && r.N === o.N);
    const p = src.prev?.find((r) => r.lib === 'butterfly' && r.kind === kind && r.N === o.N);
    const recipe = (o.recipe as { passes?: number; radices?: string } | undefined) ?? {};
    // Sizes the table's run did not check (the bench checks up to 2^22) take the error of a separate check run.
    const err =
      o.relErr ??
      src.checks?.find((r) => r.lib === 'butterfly' && r.kind === kind && r.N === o.N && typeof r.relErr === 'number')
        ?.relErr;
    rows.push([
      String(o.N),
      String(o.batch),
      String(recipe.passes ?? ''),
      f(o.ms),
      ...(src.prev ? [p ? f(p.ms) : '—'] : []),
      f(o.GBps),
      f(o.fracCopy as number, 2),
      c ? f(c.ms) : '—',
      c ? f(c.GBps) : '—',
      c ? `**${(c.ms! / o.ms!).toFixed(2)}**` : '—',
      err === null || err === undefined ? 'n/a' : (err as number).toExponential(1),
    ]);
  }
  const prevHead = src.prev ? ['previous kernels ms'] : [];
  return tableOf(
    [
      'N',
      'batch',
      'passes',
      'ours ms',
      ...prevHead,
      'ours GB/s',
      'of copy',
      `${anchorLib} ms`,
      `${anchorLib} GB/s`,
      'speed-up',
      'rel. L2 err',
    ],
    rows,
  );
}

function triTable(): string {
  const rows: (string | number)[][] = [];
  const ns = [...new Set(tri.filter((r) => r.lib === 'butterfly' && r.N).map((r) => r.N!))].sort((a, b) => a - b);
  for (const n of ns) {
    const s = tri.find((r) => r.N === n && r.layout === 'strided' && r.lib === 'butterfly');
    const i = tri.find((r) => r.N === n && r.layout === 'interleaved' && r.lib === 'butterfly');
    const cs = cusparse.find((r) => r.N === n && r.fn === 'gtsv2StridedBatch');
    const ci = cusparse
      .filter((r) => r.N === n && String(r.fn).startsWith('gtsvInterleavedBatch'))
      .sort((a, b) => (b.Mrows_per_s as number) - (a.Mrows_per_s as number))[0];
    const so = triOld.find((r) => r.N === n && r.layout === 'strided');
    const io = triOld.find((r) => r.N === n && r.layout === 'interleaved');
    const m = (r?: Row) => (r ? f(r.Mrows_per_s as number) : '—');
    const ratio = (a?: Row, b?: Row) =>
      a && b ? `**${((a.Mrows_per_s as number) / (b.Mrows_per_s as number)).toFixed(2)}**` : '—';
    rows.push([
      n,
      m(s),
      m(so),
      m(cs),
      ratio(s, cs),
      m(i),
      m(io),
      ci ? `${m(ci)} ${String(ci.fn).replace('gtsvInterleavedBatch', '')}` : '—',
      ratio(i, ci),
    ]);
  }
  return tableOf(
    [
      'N',
      'ours strided',
      'previous kernels',
      'gtsv2StridedBatch',
      'ratio',
      'ours interleaved',
      'previous kernels',
      'gtsvInterleavedBatch (best algo)',
      'ratio',
    ],
    rows,
  );
}

function edmTable(): string {
  const rows: (string | number)[][] = [];
  for (const o of edm.filter((r) => r.lib === 'butterfly')) {
    const c = cupy.find((r) => r.lib === 'cupy' && r.case === o.case && r.angles === o.angles);
    const g = cupy.find((r) => r.lib === 'cupy-graph' && r.case === o.case && r.angles === o.angles);
    const us = (x?: number) => (x === undefined ? '—' : (x * 1000).toFixed(1));
    rows.push([
      String(o.case),
      String(o.angles),
      `${o.M}`,
      `${o.mfft}`,
      String(o.slices),
      String(o.algorithm),
      us(o.ms),
      us(c?.ms),
      c ? `**${(c.ms! / o.ms!).toFixed(1)}**` : '—',
      us(g?.ms),
      g ? `**${(g.ms! / o.ms!).toFixed(1)}**` : '—',
      (o.relL2 as number).toExponential(1),
    ]);
  }
  return tableOf(
    [
      'case',
      'angles',
      'M',
      'mfft',
      'slices',
      'ours',
      'ours µs',
      'CuPy µs',
      'speed-up',
      'CuPy in a CUDA graph µs',
      'speed-up',
      'rel. L2',
    ],
    rows,
  );
}

function sweTable(): string {
  const cp = swe.find((r) => r.kind === 'copy');
  const rows = swe
    .filter((r) => r.kind === 'gpu')
    .map((r) => {
      const o = sweOld.find((x) => x.kind === 'gpu' && x.n === r.n);
      const d = (r.msPerDispatch ?? {}) as Record<string, number>;
      return [
        `${r.n}²`,
        f(r.msPerStep as number),
        o ? f(o.msPerStep as number) : '—',
        `${f(d.cfl)} / ${f(d.reduce)} / ${f(d.update)}`,
        f((r.cellUpdatesPerSecond as number) / 1e9),
        f((r.boundCellUpdatesPerSecond as number) / 1e9),
        `${((r.fractionOfBound as number) * 100).toFixed(1)}%`,
        o ? `${((o.fractionOfBound as number) * 100).toFixed(1)}%` : '—',
      ];
    });
  const cpu = swe
    .filter((r) => r.kind === 'cpu')
    .map((r) => `${r.n}²: ${f((r.cellUpdatesPerSecond as number) / 1e6)} M cell updates/s`);
  return `${tableOf(['mesh', 'ms / step', 'previous kernels ms', 'cfl / reduce / update ms (each alone)', 'G cell updates/s', 'bandwidth bound (G/s)', 'of bound', 'previous: of bound'], rows)}\n\nDevice copy in the same run: ${f(cp?.GBps as number)} GB/s. CPU reference (one JS thread on the GPU machine): ${cpu.join('; ') || 'see the JSON'}.`;
}

function svgPlot(): string {
  const W = 860,
    H = 480,
    L = 70,
    R = 20,
    T = 40,
    B = 55;
  const x = (l: number) => L + ((l - 1) / 26) * (W - L - R);
  const ymax = 4500;
  const y = (g: number) => H - B - (Math.min(g, ymax) / ymax) * (H - T - B);
  const series: [string, string, Row[], boolean][] = [
    [
      'butterfly C2C',
      '#1f77b4',
      c2c26.ours.filter((r) => r.lib === 'butterfly' && r.kind === 'c2c' && Number.isInteger(Math.log2(r.N!))),
      false,
    ],
    ['cuFFT C2C', '#ff7f0e', c2c26.anchors.filter((r) => r.lib === 'cuFFT' && r.kind === 'c2c' && r.log2N), false],
    ['butterfly R2C', '#2ca02c', r2c26.ours.filter((r) => r.lib === 'butterfly' && r.kind === 'r2c'), true],
    ['cuFFT R2C', '#d62728', r2c26.anchors.filter((r) => r.lib === 'cuFFT' && r.kind === 'r2c' && r.log2N), true],
  ];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
  ];
  parts.push(
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15">Batched FFT throughput on an NVIDIA H200 (2^27 elements, out of place; each kind with cuFFT in one run)</text>`,
  );
  for (let g = 0; g <= ymax; g += 500)
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${y(g)}" y2="${y(g)}" stroke="#ddd"/><text x="${L - 6}" y="${y(g) + 4}" text-anchor="end">${g}</text>`,
    );
  for (let l = 1; l <= 27; l += 2) parts.push(`<text x="${x(l)}" y="${H - B + 18}" text-anchor="middle">2^${l}</text>`);
  parts.push(`<text x="${W / 2}" y="${H - 12}" text-anchor="middle">N (transform length)</text>`);
  parts.push(`<text transform="translate(18 ${H / 2}) rotate(-90)" text-anchor="middle">effective GB/s</text>`);
  if (copy)
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${y(copy)}" y2="${y(copy)}" stroke="#555" stroke-dasharray="6 4"/><text x="${W - R - 4}" y="${y(copy) - 6}" text-anchor="end">device copy ${copy.toFixed(0)} GB/s</text>`,
    );
  series.forEach(([name, color, rows, dashed], i) => {
    const pts = rows.map((r) => [Math.log2(r.N!), r.GBps!] as [number, number]).sort((a, b) => a[0] - b[0]);
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" ${dashed ? 'stroke-dasharray="3 3"' : ''} points="${pts.map(([l, g]) => `${x(l).toFixed(1)},${y(g).toFixed(1)}`).join(' ')}"/>`,
    );
    parts.push(
      `<line x1="${L + 20}" x2="${L + 50}" y1="${T + 12 + i * 18}" y2="${T + 12 + i * 18}" stroke="${color}" stroke-width="2" ${dashed ? 'stroke-dasharray="3 3"' : ''}/><text x="${L + 56}" y="${T + 16 + i * 18}">${name}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

writeFileSync('docs/fft-bandwidth.svg', svgPlot());

const deviceName = String(c2c26.anchors.find((r) => r.device)?.device ?? 'GPU');
const out: string[] = [];
out.push(`# Benchmarks

All numbers come from the project's own bench scripts, run on the lent **${deviceName}** (driver 580, Dawn
\`webgpu\` 0.6.2 over Vulkan) on **2026-11-24** (the EDM, convolution, sparse FFT and shallow-water tables on
**2026-11-22**), with the anchors (cuFFT ${String(c2c26.anchors.find((r) => r.version)?.version ?? '')}, cuSPARSE, CuPy) measured **in the same run** on the same GPU. Data resident on the device, out of place, times are medians. The raw JSON lines are in
\`bench/results/\`; this page is generated from them by \`npx tsx bench/report.ts > BENCHMARKS.md\`.

Commands (on the GPU machine, after \`../shared/gpu-kit/prepare.sh\`; \`bench/gpu/run.sh\` bundles the benches and runs
every family with its anchors, see bench/gpu/README.md; the tables come from the runs final44 (every FFT table:
C2C, R2C, DCT-II, DHT, 2-D, other lengths), final25 (EDM, convolution, sparse FFT), final30 (tridiagonal)
and final16 (shallow water); the one-off scripts of those runs and of the sweeps behind the choices are in git history):

    node bench-fft.mjs --kind c2c --sizes 1-27            # and --kind r2c / dct2 / dht, --n 1000,…, --shape2d 1024x1024
    python3 anchor_cufft.py --kind c2c --total 27 --sizes 1-27   # and --kind r2c
    python3 bench/cufft_extra.py --c2c 1000,59049,78125,1009,4099 --shape2d 1024x1024,4096x4096 --r2r 2-20
    node bench-tridiagonal.mjs ; python3 anchor_cusparse.py --total 24 --sizes 2-24
    node bench-edm.mjs --check some --json edm.jsonl ; python3 bench/edm_cupy.py ; node bench-convolve.mjs
    node bench-swe.mjs --sizes 1000,2000,4096 --compare 400 ; node bench-swe.mjs --dump 1000 (then bench/swe-compare-dump.ts here)
    node bench-sfft.mjs --sizes 18-27 --k 1000 --ks 1000,2000,5000,10000 --snr 20 --reps 10 ; python3 bench/sfft_cufft.py --sizes 18-27

(each \`bench-*.mjs\` is \`npx esbuild bench/<name>.ts --bundle --platform=node --format=esm --external:webgpu\`).

GFLOPS conventions: 5·N·log2N·batch/t (complex), 2.5·… (real, r2r). Effective GB/s counts one read and one
write of the data. Device-copy bandwidth measured by our vec4 copy kernel in the same run: **${f(copy)} GB/s**
(cuFFT's script measured ${f(cuCopy)} GB/s with cudaMemcpy). "speed-up" is anchor time / our time.

![GB/s against N](docs/fft-bandwidth.svg)

## Batched complex FFT (C2C), 2^27 complex64 in total

${fftTable('c2c', 'c2c', 'cuFFT', c2c26)}

From the final44 run (bench/results/2026-11-24-h200-final44, 2026-11-24), with cuFFT and the
previous kernels (commit f5c2ea7) in the same run. cuFFT was timed twice in that run, as before and warmed up
for 300 ms like ours, and each size takes the faster reading (in final39 the two differed by up to 27%, in
either direction: the anchor's own run-to-run spread, not its warm-up). What changed:
- **A short last pass** (\`shortLastPass\`, \`src/planner/fft-multipass.ts\`): where the balanced two-pass
  split has two equal passes (2^14 = 128·128, 2^16 = 256·256), the last pass now takes 64 points and the first
  the rest (256·64, 1024·64; a first pass of up to 1024 points, else a last pass of 128). In this run C2C 2^14
  1.19 → 1.17 ms (0.61× → 0.62× cuFFT) and 2^16 1.24 → 1.21 (0.94× → 0.96×); two alternating rounds in
  …-sweep63 measured 1.19 → 1.16 and 1.24 → 1.20. Where the balanced split is already uneven it lost (2^15 as
  512·64 by 1%, 2^18 as 2048·128 1.27 → 1.53 ms), so those sizes keep theirs. An explicit split can be asked
  for with \`passLengths\` (bench flag \`--passLengths 512.128\`).
- Tried and not kept: **multi-pass plans recorded block by block** (\`l2Block\`, commit d912253, …-sweep62):
  every pass of one block of problems, then the next block, so that a pass would read its predecessor's output
  from the 50 MB L2 instead of DRAM. Every block size from 4 to 64 MiB lost to pass by pass: C2C 2^14 1.19 →
  1.40 ms with 64 MiB blocks and 3.6–3.9 with 4 MiB, and 2^15 … 2^18 alike. Each dependent dispatch costs
  about 5–7 µs, and no L2 saving showed through that; the option was removed again.

Earlier changes (final43, against commit c2e6f89):
- **Multi-pass kernels' rows swizzled and rotated a column instead of padded** (\`passLayout\`,
  \`src/planner/row-layout.ts\`). A pass kernel interleaves its B columns across a warp, and its odd-length
  padded rows put those columns on neighbouring banks: a model of the exchanges' accesses (\`butterfly plan\`
  prints it) counts 2–3.5 wavefronts an access for them. Unpadded rows whose 32-value blocks are XOR-swizzled
  (i ^ ((i >> s) & 31), s = 3, 4 or 5, whichever the model rates best for the pass's radices) and rotated by
  32/B banks for column r count 1–1.25, in 1/16 less memory, so the 1024- and 512-point passes (16 KiB instead
  of 17.4) keep 3 workgroups an SM instead of 2. C2C 2^18 1.39 → 1.27 ms, 2^19 1.64 → 1.38 (0.77× → 0.92×
  cuFFT), 2^27 2.45 → 2.21 (0.82× → 0.91×); two alternating rounds in …-sweep56 measured the same, and
  per-kernel times (…-sweep59) put the 1024-point first pass at 0.63 ms against 0.75–0.76 padded, a later
  512-point pass at 0.75 against 0.89. The fused R2C
  last pass keeps padded rows: swizzled it lost 3–8% (…-sweep57, and in 16 columns either way, …-final41-extra).
- **2^20 in two passes**, 1024·1024, which lost to three with padded rows, its second pass in 4 columns: a
  later pass whose rows would hold more than 16 KiB in the default 8 columns takes 4, so that 3 workgroups fit
  an SM. 1.77 → 1.50 ms (0.73× → 0.86× cuFFT; with 8 columns 1.61, …-final41-extra, two rounds).
- **2^25's 512-point first pass in 8 columns** (16 KiB with swizzled rows): its elements lie 65536 apart, and
  128- and 256-point first passes already took 8 from 8192 apart; per-kernel 0.76 → 0.64 ms (…-sweep60, two
  alternating rounds: C2C 2^25 2.04 → 1.93, R2C 2^26 1.26 → 1.20, DHT 2^26 1.27 → 1.23). In final43 C2C
  2^25 2.13 → 1.92 ms (0.94× → 1.05× cuFFT). The 1024-point first passes of 2^26 and 2^27 keep 4 (32 KiB in 8).
- Tried and not kept: 2^21 in two passes, 1024·2048: 1.81 ms in 4 columns (32 KiB), 3.10 in 2 (16-byte runs),
  against 1.74 in three (…-sweep58, …-final42-extra).

**Workgroup memory limits residency on this driver** (\`bench/occupancy-probe.ts\`, …-sweep53): every
workgroup counts itself in on a global atomic, spins, and counts itself out; the peak over a dispatch of many
waves, divided by the 132 SMs, is how many workgroups an SM keeps resident. Whatever the workgroup size (64 …
1024 invocations) and register use, an SM held at most 48 KiB of workgroup memory: 11 workgroups of 4352 B,
5 of 8704, 2 of 17408, 2 of 24576, 1 of 34816 (the hardware has 228 KiB; WebGPU offers no carve-out
setting). Padded 4096-point rows (17412 B) therefore left 2 workgroups an SM, unpadded ones (16384 B) 3;
unpadded rows with bank conflicts were already 5% faster (…-sweep54), swizzled ones 13% (final40, below). 8192 (32 KiB) keeps
one workgroup an SM either way: its four-round \`split4\` exchange (16 KiB) was slower in every stage order,
padded, unpadded or swizzled (0.99–1.20 ms, …-sweep54, -sweep55), and at 2^14 one workgroup an SM is all a
whole 128 KiB problem can have.

Earlier changes (final40, against commit fa92f6b):
- **Workgroup rows XOR-swizzled instead of padded** in single-workgroup FFTs from 4096 values a row
  (\`swizzle\`): C2C 4096 0.638 → 0.546 ms (0.82× → 0.96× cuFFT, now at the device-copy bandwidth) and 8192
  0.819 → 0.775 (0.64× → 0.68×); the half-lengths 4096 and 8192 of R2C, DCT-II and DHT 8192 and 16384, and the
  4096-point rows of 2-D 4096² (1.90 → 1.79 ms). Index i of a row lives at i ^ ((i >> 4) & 31): the same
  spread over the 32 banks as the padding's i + (i >> 4), in 1/16 less memory. In …-sweep55, two alternating
  rounds, forced on every single-workgroup length: no better from 64 to 2048 values a row (±3%), 32 slower
  (0.52 → 0.60), so shorter rows keep the padding.

Earlier changes (final39, against commit 9204918):
- **8192 in radix-32 stages first, the remainder last** (32·32·8 instead of the balanced 32·16·16): 0.846 →
  0.815 ms (0.62× → 0.64× cuFFT; …-final35: 0.845 → 0.816, and 0.845 → 0.817 in a second pair of processes). Of the stage
  orders of final34's side sweep, 16·16·32, 32·32·8's reverse 8·32·32, 16·16·16·2 (512 invocations),
  16·8·8·8 and 64·16·8 were slower (0.89–1.10 ms), and for 4096 the balanced 16·16·16 stays fastest (0.63
  against 0.69–0.92 for 32·16·8, 32·32·4, 8·8·8·8, 16·16·4·4).
  Its error, 4.3e-7, is above 32·16·16's 3.0e-7 and far within the 1e-6·log2 N of the tests.
- **A long first pass where it saves a fourth pass**: 2^25 = 512·256·256, 2^26 = 1024·256·256 and 2^27 =
  1024·512·256 now take three passes instead of four (2.53 / 2.51 / 2.56 → 2.13 / 2.16 / 2.44 ms, 0.78–0.81× →
  0.95 / 0.94 / 0.82× cuFFT; …-final33 and -final35 measured the same), the long first passes with 4 columns a workgroup
  (…-sweep44: 2^25 2.15 → 2.12, 2^26 2.23 → 2.15 against 8). Their errors in the table are from final32,
  which checked them against the float64 CPU FFT (\`--checkMax 27\`; the times of such check runs are not
  used: the checks of the previous size, hundreds of MB through the host, slow the next one's timing).

In final43 the sizes up to 2^17 and 2^21 … 2^24 run kernels of the same speed in both columns (within 3%;
2^17 1.23 → 1.20 ms).

The benches now warm a plan up for at least 300 ms of GPU time before timing it. Timed right after its
creation, a plan could run up to 3× slower for about 100 ms: four plans of R2C 2^26 made one after another in
one process read 1.26–3.98 ms, and the same plans, kept and timed again at the end, 1.256–1.262 each
(…-sweep45, three processes). With the longer warm-up, twelve such plans in three processes read 1.26–1.27
(…-final33). This was the process-to-process variance of the largest sizes in earlier runs (below).

Earlier changes (final27, against commit 1565ad7):
- **Real and imaginary parts exchanged in two rounds** (half the workgroup memory of one vec2 round, so more
  workgroups stay resident) in every single-workgroup FFT from n = 128 (was 1024): 128 … 512 from 0.55 to
  0.51 ms, now at cuFFT (…-final20 side sweep), and in every multi-pass kernel: a 256-point pass
  0.81 → 0.64 ms, a 128-point one 0.66 → 0.56–0.61 (…-sweep32). C2C 2^14 … 2^16 1.25–1.47 → 1.13–1.23 ms.
- **A long first pass in radix-32 stages where it saves a third pass**: 2^17 = 512·256, 2^18 = 1024·256 and
  2^19 = 1024·512 in two passes (1.75–1.82 → 1.23–1.64 ms, 0.76–0.96× cuFFT). With f32 rows a first pass
  (whose stores are contiguous rows) of 512 points in 32·16 takes 0.64 ms and one of 1024 points in 32·32
  0.75, against ~0.6 for passes of at most 256 points; a later 512-point pass takes 0.90–0.93, and 2^20 =
  1024·1024 lost to three passes (…-sweep33, -sweep37).
- **Wider first and last passes where their strides are long**: the last pass with 16 columns a workgroup
  from 2^20 (128-byte runs for its strided stores, affordable now that its rows are f32: 2^21's last pass
  0.69 → 0.57 ms, …-sweep35), and the first pass with 8 instead of 4 wherever its elements lie 8192 or more
  apart (a 256-point first pass from 2^22: 0.71–0.75 → 0.64 ms, …-sweep36). 2^20 … 2^24 1.98–2.48 →
  1.74–1.94 ms (0.72–0.93× cuFFT), 2^25 … 2^27 2.68–2.88 → 2.51–2.68.

Every N ≤ 4096 runs in one pass at the device-copy bandwidth (0.94–2.4× cuFFT; cuFFT itself falls below
bandwidth for N ≤ 32). 8192 stays single-pass at 0.70 of bandwidth: one workgroup an SM (32 KiB of
workgroup memory of the 48 KiB an SM holds, and 64 KiB of registers), so its loads, butterflies and exchanges
hardly overlap. For 4096, one vec2 exchange round instead of two split ones (32 KiB, one workgroup an SM) took
it from 0.63 to 0.87 ms (…-sweep51), four rounds (\`split4\`) to 0.90 (…-sweep35). Beyond
one workgroup (N ≥ 16384) the multi-pass kernels need one pass more than cuFFT at 2^14 and 2^21 (a 2048-point
pass holds 32 KiB of workgroup memory, one workgroup an SM; a whole 2^14 problem 64 KiB); from 2^22 on both
take three passes, and ours run at 0.89–1.05× cuFFT: our passes average 0.62–0.74 ms over 2^27 elements,
cuFFT's 0.55–0.68.

**A fused two-pass kernel, probed and not built.** Instead of two dispatches, one workgroup could take a whole
2^14 … 2^17-point problem through both passes, its intermediate going through a small scratch area in global
memory that stays in the 50 MB L2 cache, so that DRAM sees one read and one write an element.
\`bench/l2-probe.ts\` moves the data of such a kernel with no arithmetic (…-sweep44, copy 0.544 ms):

${(() => {
  const probe = load('bench/results/2026-11-24-h200-sweep44/l2-probe.jsonl').filter((r) => r.lib === 'l2-probe');
  const shapes = [...new Set(probe.map((r) => `${r.n1}x${r.n2}`))];
  const pick = (sh: string, mode: string, mb?: number) =>
    probe.find((r) => `${r.n1}x${r.n2}` === sh && r.mode === mode && (mb === undefined || r.scratchMB === mb));
  return tableOf(
    [
      'n1 × n2',
      'two dispatches ms',
      'fused, full-size scratch',
      'fused, 8 MB scratch (unsafe reuse)',
      'fused, 16 MB, safe ticket',
      'fused, 32 MB, safe ticket',
    ],
    shapes.map((sh) => [
      sh,
      f(pick(sh, 'twopass')?.ms),
      f(pick(sh, 'full')?.ms),
      f(pick(sh, 'mod', 8)?.ms),
      f(pick(sh, 'ticket', 16)?.ms),
      f(pick(sh, 'ticket', 32)?.ms),
    ]),
  );
})()}

The L2 scratch does save DRAM traffic (128 × 128: 1.21 ms in two dispatches, 0.85 fused), but the fused
structure's movement alone stays at 0.47–0.64 of copy speed (8 MB), and the safe form, where a workgroup takes a
ticket and waits until its slot's previous user has finished, needs enough slots for every resident workgroup
(0.96 ms at 16 MB for 128 × 128, far slower with fewer). Our two-pass 2^14 FFT already runs in 1.18 ms; a
fused one could at best approach the probe's times before any arithmetic: 0.96 ms in the safe form (0.76×
cuFFT's 0.723) or 0.85 with unsafe reuse (0.85×), short of the 0.9× goal either way; larger problems gain
less (512 × 256: 1.15 fused against 1.57 in two dispatches, where our FFT takes 1.26).

Per-pass times after the swizzled rows (\`--breakdown\`, which times each kernel of a plan alone; …-sweep59):
passes of 128 to 256 points 0.56–0.69 ms, long first passes of 512 points 0.60 (2^17) and 0.76 (2^25, elements
65536 apart; 0.64 in 8 columns, …-sweep60) and of 1024 points 0.63 (2^18 … 2^20) and 0.80 (2^26, 2^27), later
512- and 1024-point passes 0.75 and 0.87. Per-pass times of the plans before them (padded rows, …-sweep49, copy
0.54 ms): C2C passes of 64 to 256 points 0.56–0.71 ms, long first passes of 512 points 0.64–0.78 and of 1024
points 0.75–0.85, a later 512-point pass 0.89–0.90; the R2C's fused last pass 0.36–0.54 ms. In
the same run radix 32 in every pass (\`--maxRadix 32\`) moved no C2C or R2C size from 2^12 to 2^27 beyond
the run's noise, except 8192, where it means 32·16·16 again (0.84 against 0.82 ms). Earlier readings, for 2^27
elements:
passes of 32 to 256 points run at 0.55–0.65 ms (…-sweep32, -sweep33), 512-point ones at 0.83–0.90 and
1024-point ones at 0.89–1.11 (radix-32 stages made those no faster: a 1024-point pass 32·32 took 1.05–1.19,
…-sweep25). The first pass (which writes each column as one contiguous row) takes 4 columns a workgroup
instead of 8 (128-point from 2^20 on stays at 8, where 4 was slower); later passes lost with 4
(…-sweep17, -sweep18). A data-movement probe with the same access pattern and no arithmetic
(\`bench/pass-probe.ts\`, …-probe, …-sweep8) streams 256-byte column runs at copy speed and 64-byte runs at
~0.75 of it; 16 columns (128-byte runs) per workgroup were slower in the FFT kernels (…-sweep5, -sweep8,
-sweep17).

## Lengths that are not powers of two

${(() => {
  const rows = odd30.filter((r) => r.lib === 'butterfly' && r.kind === 'c2c' && !Number.isInteger(Math.log2(r.N!)));
  return tableOf(
    ['N', 'batch', 'recipe', 'ours ms', 'previous kernels ms', 'ours GB/s', 'cuFFT ms', 'speed-up', 'rel. L2 err'],
    rows.map((o) => {
      const c = cufft30.find((r) => r.kind === 'c2c' && r.N === o.N && !r.log2N);
      const p = oddOld30.find((r) => r.kind === 'c2c' && r.N === o.N);
      const rec = o.recipe as { radices?: string };
      return [
        String(o.N),
        String(o.batch),
        String(rec?.radices ?? '').replace(/\|/g, '/'),
        f(o.ms),
        p ? f(p.ms) : '—',
        f(o.GBps),
        c ? f(c.ms) : '—',
        c ? `**${(c.ms! / o.ms!).toFixed(2)}**` : '—',
        o.relErr ? (o.relErr as number).toExponential(1) : 'n/a',
      ];
    }),
  );
})()}

From the final44 run (bench/results/2026-11-24-h200-final44, 2026-11-24), with cuFFT (the faster of
its two readings) and, as previous kernels, commit f5c2ea7. The short last pass of the C2C section applies to
powers of two only; both columns agree within 1% (1000 within 5%, 0.70 against 0.73 ms, the run's spread).
Earlier (final43, against commit c2e6f89), the swizzled and rotated rows of multi-pass kernels
(C2C section) took 102400 = 320·320 (two passes of rows of 320 = 10·32 values) 1.59 → 1.44 ms (1.24× → 1.36×
cuFFT); the other multi-pass lengths here have no pass that is a multiple of 32 values, or ran within 2%. The
changes below were measured in the final31 run (bench/results/2026-11-24-h200-final31) against commit df5f793,
each in one run; final31's readings of the current kernels agree with this table within 4%.
1009 and 4099 are primes: Bluestein with L = 2048 / 8748, chirps fused into the passes. What changed, each
measured against the kernels before it in one run:
- **Odd radices of up to 16 points.** Each odd prime factor used to be a stage of its own (3^5 = 3·3·3·3·3,
  five exchanges through workgroup memory); the planner now groups them into composite odd radices of at
  most 16 points (9·9·3), each one butterfly in registers (\`maxOddRadix\`, default 16): 3^7 1.24 → 0.70 ms,
  3^8 1.65 → 1.02 (now one workgroup of 729 invocations: 6561/3 would need 2187), 3^10 2.17 → 1.56, 3^11
  2.45 → 1.85. Radices up to 27 were slower than 16 at every size but 5^7 (…-sweep39). Composite radices are
  split into their prime factors in registers (a 27-point butterfly as three levels of 3-point ones with
  folded twiddles, not the O(r²) symmetric-pair sums): 1–3% at the limit of 16 (…-sweep40).
- **Twos packed with odd factors** in single-workgroup lengths (\`mergedRadices\`: 12 = 12, 100 = 10·10,
  1500 = 15·10·10, Bluestein's 8748 = 12·9·9·9) where that saves a stage and the workgroup fills no less of
  its warps: 12 0.85 → 0.55 ms, 100 0.83 → 0.58, 500 0.78 → 0.71, 1500 0.85 → 0.76, and Bluestein 4099 7.05
  → 4.48 (1.73× cuFFT). 1000 keeps 8·5·5·5: 10·10·10 ran 0.68 → 0.73 ms (…-sweep43), on 100 invocations a
  problem (100 of 128 lanes) against 125. The R2C of the same run at small lengths: 12 0.445 → 0.288 ms, 100
  0.543 → 0.329, 500 0.537 → 0.353, 1000 0.468 → 0.383, 1500 0.542 → 0.484, 6000 0.547 → 0.493
  (r2c-small*.jsonl).
- **A first pass of up to 1024 points** (was 512) where two passes then suffice: 5^7 = 625·125 instead of
  125·25·25, 2.27 → 1.78 ms (…-final29 measured the rule alone).
- **Two passes where the later one has up to 480 points** (was 256): 320·320 2.09 → 1.58 ms (1.22× cuFFT),
  343·343 = 7^6 2.73 → 1.70, 480·480 2.65 → 1.78 (1.13×); in …-sweep41 300·300 2.14 → 1.76, 270·270 2.40 →
  2.22 and 350·350 2.39 → 2.18, while with later passes of 500 and 512 points two passes lost (500·500 2.22
  → 2.56, 800·500 2.26 → 2.67, 768·512 1.91 → 1.96), so those keep three.

## 2-D batches

${(() => {
  const rows = odd26.filter((r) => r.kind === 'c2c-2d');
  return tableOf(
    ['shape', 'batch', 'ours ms', 'previous kernels ms', 'ours GB/s', 'cuFFT ms', 'speed-up'],
    rows.map((o) => {
      const c = cufft26.find((r) => r.kind === 'c2c-2d' && r.shape === o.shape);
      const p = oddOld26.find((r) => r.kind === 'c2c-2d' && r.shape === o.shape);
      return [
        String(o.shape),
        String(o.batch),
        f(o.ms),
        p ? f(p.ms) : '—',
        f(o.GBps),
        c ? f(c.ms) : '—',
        c ? `**${(c.ms! / o.ms!).toFixed(2)}**` : '—',
      ];
    }),
  );
})()}

From the final44 run (bench/results/2026-11-24-h200-final44, 2026-11-24), with cuFFT (the faster of
its two readings) and the kernels of commit f5c2ea7 in the same run: no change since (both columns within 1.2%).
Earlier (final43, against commit c2e6f89): the column passes' rows are
swizzled and rotated a column (see C2C above; the bank-conflict model counts 4 and 3.5 wavefronts an access for
the padded rows of 512²'s 32·16 and 2048²'s 16·16·8 column passes, 1 for the new ones): 512² 1.17 → 1.06 ms
(0.97× → 1.07× cuFFT), 2048² 1.61 → 1.49 (0.87× → 0.94×); 4096²'s 64-point batch-fastest passes (XOR from bit
3) ran within 2% here, and padded against swizzled in two alternating rounds 1.79–1.80 against 1.76–1.77 ms
(…-final41-extra). Earlier (final40, against commit fa92f6b): the 4096-point rows of 4096² became
single-workgroup FFTs with swizzled rows, 1.90 → 1.79 ms. Earlier (final39, against commit 9204918): the column pass of the
non-last axis (one pass over blocks of neighbouring columns) in radix-32 stages where its length is a power of
two of 512 points or more, with 8 columns a workgroup at 512 points: 512² 1.35 → 1.17 ms (0.81× → 0.93× cuFFT)
and 1024² 1.40 → 1.28 (0.82× → 0.90×). Radix 32 alone, in three alternating rounds (…-sweep47): 1.34–1.35 →
1.25 and 1.40–1.41 → 1.27, with radix 32 for the rows as well (\`--maxRadix 32\`) no better (1.28 / 1.28); then
8 columns instead of 4 (…-sweep50): 512² 1.25 → 1.16–1.17, 1024² 1.27–1.28 → 1.30, so 1024 keeps 4. 2048² keeps 16·16·8
(32·32·2 and 32·64 for both axes: 1.82 / 1.94 against 1.61 ms, …-sweep48); 4096² runs its columns as a
batch-fastest multi-pass. Earlier (…-sweep36): the column passes take 8 columns a workgroup up to 256 points
(256²: 1.29 → 1.06 ms) and the batch-fastest multi-pass of longer axes 16 (4096²: 2.02 → 1.91).

## Real-to-complex FFT (R2C), 2^27 reals in total

${fftTable('r2c', 'r2c', 'cuFFT', r2c26)}

From the final44 run (bench/results/2026-11-24-h200-final44, 2026-11-24): cuFFT (the faster of its
two readings) and the previous kernels (commit f5c2ea7) in the same run. What changed: **a short fused last
pass** (the C2C section's \`shortLastPass\`, always on for the fused real transforms). The fused last pass
costs more the longer it is (per-kernel times of R2C and DHT in …-sweep63: 0.36–0.38 ms for 64 points, 0.39–0.43 for
128, 0.47–0.50 for 256, against 0.30–0.34 for first passes of 128 … 1024 points), so two passes now end in a
64-point one (else 128) with a first pass of up to 1024 points taking the rest: half-lengths 2^14 … 2^17 as
256·64, 512·64, 1024·64 and 1024·128. Three passes end in 64 points where the rest splits into two with a
later pass of at most 256: half-lengths 2^21 … 2^24 as 256·128·64 … 1024·256·64 (…-sweep64). In this run R2C
2^15 … 2^18 0.682 / 0.705 / 0.764 / 0.792 → 0.658 / 0.667 / 0.680 / 0.723 ms (0.68–1.11× → 0.70–1.24× cuFFT)
and 2^22 1.04 → 1.00 (0.91× → 0.95×); the other multi-pass sizes within 2% (the single-workgroup ones, whose
kernels did not change, within 5%: the run's spread). Tried and not kept: 2^19 as 2048·128 (0.80 → 0.87 ms,
…-sweep63), and half-lengths 2^25 and 2^26 ending in 64 points (up to 7% slower, …-sweep64), which keep
512·256·256 and 1024·256·256. Also tried and not kept: **64 column slots in the fused 64-point last pass**
(\`lastPassColumns: 64\`: a warp's 32 low slots then read one 256-byte run of the row instead of two 128-byte
ones). On an H100 it won (bench/results/2026-11-24-h100-sweep65, two rounds: that pass 0.43–0.50 → 0.40–0.43
ms, DHT 2^17 0.90 → 0.83, R2C 2^15 0.91 → 0.80), but on this H200 the pass takes 0.36–0.40 ms either way
(…-sweep66, per-kernel, two rounds) and the whole transforms ran 0–4% slower (…-final45, against 32 slots in
the same run: R2C, DCT-II and DHT 2^15 … 2^17 and 2^20 … 2^25 between −1.8% and +3.8%), so the default stays at
32 and 64 is an option; swizzled rows in 64 slots (16 KiB, three workgroups an SM) were slower on both GPUs.
On the H200 the fused pass is therefore not limited by its run length; it runs at 0.69–0.76 of copy speed
whatever its columns (0.36–0.40 ms against 0.273 for a copy of its bytes), against 0.81–0.93 for the first pass.

Earlier (final43, against commit c2e6f89): the swizzled and rotated
rows of the C2C section in every pass but the fused last one, which keeps padded rows (swizzled, R2C 2^15 …
2^27 ran 3–8% slower; with only the last pass padded, 2^18 and 2^19 ran 0.815 / 0.861 → 0.792 / 0.801 ms,
…-sweep57, two alternating rounds). In final43 R2C 2^19 0.857 → 0.800 ms (1.02× → 1.10× cuFFT), 2^26 1.27 →
1.20 (1.01× → 1.07×, the 8-column first pass of C2C 2^25); the other sizes within 2.5%. Tried and not kept (…-sweep58): 2^20 and 2^21 in two passes with a fused 512- or 1024-point
last pass: 2^20 with 8 swizzled columns 0.92 against 0.98 ms, but the DHT of that plan 1.09 against 0.99, and
2^21 1.09–1.24 against 0.96.

Earlier (final40, against commit fa92f6b): the swizzled rows of single-workgroup FFTs in the half-lengths 4096
and 8192: R2C 8192 0.356 → 0.318 ms (0.79× → 0.89× cuFFT) and 16384 0.470 → 0.445 (0.74× → 0.79×).

Earlier (final39, against commit 9204918): the long first pass of
the C2C section for the half-lengths 2^25 and 2^26 (512·256·256 and 1024·256·256 with the fused last pass), R2C
2^26 and 2^27 1.42 / 1.36 → 1.27 ms (1.01× / 1.00× cuFFT; …-final33: 1.42 / 1.35 → 1.26; in …-sweep45 every
plan of 2^26, timed again after the others, ran 1.256–1.262 ms). R2C is now at or above cuFFT from 2^17 to 2^19 and from 2^23 to 2^27.

Earlier changes (final28, against commit 1565ad7):
- **The split exchange from a half-length of 256** (real and imaginary parts through workgroup memory in two
  rounds, half the memory of one vec2 round, so more workgroups stay resident): N = 512 0.302 → 0.280 ms,
  N = 1024 0.314 → 0.270, DHT and DCT-II alike (…-sweep31; N = 256 lost 2% and keeps the vec2 round).
- **The same in every multi-pass kernel, the fused last pass included**: its mirror-column post-processing
  now gathers z_k and z_{M−k} one component at a time from f32 rows (\`r2cPassPostSplit\`). That pass went
  from 0.49 to 0.40 ms at 2^15 and from 0.60 to 0.50 from 2^22 on (…-sweep34); with f32 rows it also takes
  32 columns (16 mirror pairs) where they fit, which had lost with vec2 rows (2^21: 1.05 → 0.95 ms,
  …-sweep35); the wider first passes of the C2C section; and its long radix-32 first pass where the fused
  last pass stays at 256 points (2^18 = 1024·256 and 2^19 half-lengths: 0.99 → 0.81 ms and 0.99 → 0.85,
  …-sweep38). R2C 2^15 … 2^25: 0.80–1.93 → 0.68–1.16 ms, 0.69–1.11× cuFFT, ≥ 1.0× at 2^17 … 2^19 and 2^23 …
  2^25.

Tried and not kept (…-sweep25 … -sweep30, -sweep33): radix 32 for half-lengths 512 and 1024, 32 columns in
the fused last pass, output rows at 32-byte boundaries (no change: the odd row length n/2 + 1 is not what
the fused last pass pays for), 64- and 128-invocation workgroups, a 512-point pass (R2C 2^18 0.98 → 1.02
ms), and one workgroup for a 16384-point half-length (the \`split4\` exchange, see the DHT section).

How the R2C kernels work (each measured against the kernels before it in alternating processes,
…-sweep12 … -sweep15, -sweep18):
- **Paired last stage.** An R2C output y_k needs z_k and z_{M−k}, which the last FFT stage leaves in different
  invocations, so the post-processing used to go through workgroup memory once more (split exchanges: in two
  rounds). When each invocation holds an even number of last-stage butterflies, the planner now gives it
  mirror pairs (b, nb − b): both partners of every output are in its registers, and the post-processing
  needs no exchange and no barrier. Where the balanced radices give one butterfly an invocation, half-lengths
  256 and 512 are re-split so the last radix is smaller (256 = 16·8·2, 512 = 16·16·2); 64 and 4096 measured
  slower that way and keep the exchange. N = 64: 0.387 → 0.324 ms, 256: 0.367 → 0.302, 512: 0.326 → 0.306,
  1024: 0.326 → 0.315, 2048: 0.299 → 0.281, 4096: 0.302 → 0.289; DCT-II 256: 0.454 → 0.344.
- **One real-twiddle read an invocation** (W^(t+e) = W^t·W^e with W^e a constant; the mirror output's
  twiddle as −conj, since W^M = −1) instead of one table read per output: R2C 2^11 … 2^14 5–9%, the
  multi-pass R2C's fused last pass 2–4%.
- **Radix 32 from a half-length of 8192** (N = 16384: 0.528 → 0.464 ms; radix 32 had lost to 16 while the
  post-processing needed its own exchange), and the multi-pass first pass at 4 columns (see C2C above;
  2^16: 0.42 → 0.34 ms for that pass).

Multi-pass R2C does its post-processing in its last pass: a workgroup takes 8 mirror pairs of columns
(j, Ns − j), so z_k and z_{M−k} meet in its workgroup memory (\`r2cPassFusable\`), with no separate kernel
(…-sweep9: 2^15 0.86 against 0.99 ms, 2^27 1.61 against 1.77 with the separate kernel).

Before the longer warm-up, the largest sizes seemed to vary between processes. Three short fresh processes
each, alternating with the previous kernels (commit 1565ad7), in final28, ms (cuFFT from final44):

${(() => {
  const rep = ['new', 'old'].flatMap((b) =>
    [1, 2, 3].flatMap((i) =>
      load(`${run28}/repeat-r2c-${b}-${i}.jsonl`)
        .filter((r) => r.lib === 'butterfly')
        .map((r) => ({ ...r, b })),
    ),
  );
  const ns = [...new Set(rep.map((r) => r.N!))].sort((x, y) => x - y);
  return tableOf(
    ['N', 'final28 kernels', 'commit 1565ad7', 'cuFFT'],
    ns.map((n) => {
      const col = (b: string) =>
        rep
          .filter((r) => r.b === b && r.N === n)
          .map((r) => f(r.ms))
          .join(', ');
      const c = r2c26.anchors.find((r) => r.lib === 'cuFFT' && r.kind === 'r2c' && r.N === n);
      return [String(n), col('new'), col('old'), c ? f(c.ms) : '—'];
    }),
  );
})()}

2^26 and 2^27 read 1.53–4.05 ms there. The cause was the timing, not the kernels: a plan timed right after
its creation can run up to 3× slower for about 100 ms, and timed again later it runs at full speed
(…-sweep45, see the C2C section). The benches now warm up for at least 300 ms first.

## DCT-II and Hartley transform against cuFFT R2C + separate kernels (2^27 reals in total)

The anchor is the straightforward GPU pipeline: (DCT-II) a gather kernel for Makhoul's permutation, cuFFT
R2C and a post-processing kernel; (DHT) cuFFT R2C and a post-processing kernel (CuPy RawKernels). Ours fuses
the permutation and the post-processing into the FFT's own first and last passes; the paired last stage and
the twiddle change above apply to both. Both tables are from the final44 run
(bench/results/2026-11-24-h200-final44, 2026-11-24): ours, the anchor (the faster of its two readings), and as
"previous kernels" commit f5c2ea7, in one run. What changed: the short fused last pass of the R2C section
(64 points, else 128). 2^15 … 2^18: DCT-II 0.723 / 0.748 / 0.793 / 0.819 → 0.692 / 0.694 / 0.710 / 0.777 ms
(1.89–2.20× → 1.97–2.46× the anchor), DHT 0.707 / 0.723 / 0.774 / 0.803 → 0.678 / 0.684 / 0.716 / 0.762
(1.09–1.50× → 1.14–1.62×); three passes ending in 64 points, 2^22 … 2^25: DCT-II 1.12 / 1.15 / 1.17 / 1.26 →
1.07 / 1.11 / 1.14 / 1.24, DHT 1.06 / 1.08 / 1.09 / 1.18 → 1.02 / 1.04 / 1.07 / 1.15. **DCT-II 2^27 read 1.40
ms** in the full run (1.39 for the previous kernels) and 1.40 / 1.40 (1.40 / 1.40) timed alone in the extras
of that run, two alternating rounds of a process each (…-final44-extra; DHT 1.27–1.28, R2C 1.24 both ways):
final43's 2.84 ms did not recur.

**Against the goal of ≥ 1.5× for N = 2^2 … 2^20:** the DCT-II meets it at every N (1.75× at the least, at
2^20). The DHT meets it from 2^2 to 2^13 and at 2^17 and 2^18, and falls short at 2^14 (1.42×), 2^15 (1.14×),
2^16 (1.36×), 2^19 (1.44×) and 2^20 (1.23×); the reasons are at the end of this section.

Earlier (final43, against commit c2e6f89): the swizzled and rotated rows of the multi-pass kernels (C2C
section; the fused last pass keeps padded rows, see R2C) took 2^16 … 2^19: DCT-II 0.775 / 0.830 / 0.856 / 0.890 →
0.741 / 0.794 / 0.823 / 0.833 ms (1.96–2.09× → 2.05–2.19×), DHT 0.765 / 0.819 / 0.845 / 0.887 → 0.730 / 0.782 /
0.807 / 0.822 (1.22–1.42× → 1.28–1.48×), and the 8-column first pass 2^26: DCT-II 1.39 → 1.30, DHT 1.29 → 1.23.
DCT-II 2^27 read 2.84 ms in final43 (0.77× the anchor), against 1.35 for the previous kernels; it read
1.49 in final41 and final42. Timed alone (…-sweep61, three alternating rounds in processes of 2^25 … 2^27) it
takes 1.38 ms, and with every pass padded (the previous layout) 1.35: its 1024-point first pass, which
gathers Makhoul's permutation from both ends of each row, runs 0.49 ms swizzled against 0.47 padded. The
slow readings came at the end of a process that had run every size from 2^2, and final44 read 1.40 in both
places (above). Earlier (final40, against commit fa92f6b):
the swizzled rows of single-workgroup FFTs took the half-lengths 4096 and 8192: DCT-II 8192 0.425 → 0.367 ms
(2.78× → 3.21×) and 16384 0.530 → 0.507 (2.38× → 2.48×), DHT 8192 0.387 → 0.334 (1.52× → 1.76×) and 16384
0.475 → 0.458 (1.38× → 1.43×). Earlier (final39, against commit
9204918): the long first pass of the C2C section took 2^26 and 2^27
(half-lengths 2^25 and 2^26) from four passes to three: DCT-II 1.49 / 1.50 → 1.39 / 1.35 ms (1.47–1.48× →
1.58 / 1.63×), DHT 1.39 / 1.40 → 1.28 / 1.31 (1.12–1.14× → 1.24 / 1.20×; …-final34 measured the same). The
staged outputs and split exchanges behind the other sizes are described below and in the R2C section.

### DCT-II

${fftTable('dct2', 'dct2', 'cuFFT+kernels', r2r24('dct2'))}

Multi-pass DCT-II does its post-processing in the last pass, as the DHT does: the DCT hooks' second output
uses aux[N − k] = −i·conj(aux[k]) (one quarter-root entry a pair of outputs), and the fused pass forms aux[k]
from one table read an invocation (the \`wrq\` hook) instead of reading the table at outputs far apart,
which had made the fused pass 1.11 ms against 0.34 + 0.34 ms for the last pass and a separate
post-processing kernel (…-sweep21, -sweep22).

### DHT

${fftTable('dht', 'dht', 'cuFFT+kernels', r2r24('dht'))}

**Staged outputs (N = 64: DHT 0.600 → 0.338 ms, DCT-II 0.548 → 0.367).** The half-length 32 runs 4
invocations a problem, so each invocation's real outputs h_k and h_{N−k} were 16-byte runs: stores that
cover half a 32-byte sector. Where an invocation's stores would cover less than a sector
(\`stagedR2cOutDefault\`), the post-processed outputs now go to workgroup memory and leave by a coalesced
copy of whole rows (…-sweep26). Staging where the runs already fill a sector (N ≥ 128, or R2C 64) lost
5–30% there, as did 64- and 128-invocation workgroups at every N ≤ 2048 (…-sweep30) and radix 32 for
half-lengths 512 … 1024 (…-sweep28).

The split exchanges, wider last pass and long first pass of the R2C section took the multi-pass DHT from
0.87–1.05 ms to 0.70–0.99 (2^15: 0.88× → 1.09×, 2^17 … 2^19: 1.12–1.15× → 1.35–1.42×; final28) and the
multi-pass DCT-II to 1.76–2.08×. Where the DHT stays short of 1.5× (final44: 2^14 1.42×, 2^15 1.14×, 2^16
1.36×, 2^19 1.44×, 2^20 1.23×, and 1.25–1.37× beyond the goal's range), it is the R2C underneath: the anchor is
one cuFFT R2C plus one light kernel, and our R2C is 0.78× cuFFT at 2^14 (one workgroup an SM for its
8192-point half-length, see C2C) and 0.70–1.24× multi-pass. From 2^15 on two passes are needed, and two
passes cannot beat two device copies (2 × 0.273 ms for 2^27 reals in this run, against the 0.515 ms that 1.5×
of the 0.773 ms anchor at 2^15 allows); at 2^16 1.5× allows 0.622 ms, both passes at 88% of copy speed where
ours run at 80%. 2^19 (1024·256) keeps a 256-point fused last pass, since a first pass of 2048 points holds
one workgroup an SM (2048·128 lost, R2C section), and 2^20 takes three passes where cuFFT takes two (two with
a 512- or 1024-point fused last pass lost, R2C section). One pass of a 16384-point half-length fits a 48 KiB
workgroup only by exchanging in four rounds (the \`split4\` exchange, option \`exchange: 'split4'\`), and
its 128 KiB of registers a workgroup leave one workgroup an SM: DHT 2^15 0.850 against 0.867 ms in two passes
of the kernels before the split pass exchanges, R2C 0.821 against 0.795, C2C 16384 1.44 against 1.25
(…-sweep27), so it is not the default.

## Tridiagonal systems, 2^24 rows in total (Mrows/s)

${triTable()}

Measured on 2026-11-24 with the final30 run (bench/results/2026-11-24-h200-final30); the
"previous kernels" columns are the kernels of commit df5f793 in the same run, timed by the same bench script.
A second pass of the defaults in that run (tri-repeat.jsonl) agrees within 1.5% everywhere. Each reading spans
at least 5 ms of back-to-back solves (at most 400; the earlier runs used 20), so Dawn's ~65 µs timestamp
quantum is at most ~1.3% of a reading. What changed in this run:
- **Status words stored instead of cleared and OR-ed.** Before every solve the executor cleared the status
  buffer (4 bytes a system, a pass of its own followed by a barrier) and the kernels OR-ed their bits into
  it; at N = 4 the clear is a twentieth of the solve's traffic. Where one 'solve' level is the whole solve,
  there is one right-hand side and one invocation holds a whole system (the per-system Thomas kernels of the
  interleaved layout, and direct-rows Wang & Mou at N = 4; \`statusByStore\`), that invocation stores its
  system's word, flagged or not, and there is no clear. In three alternating fresh processes (ab-new-*,
  ab-old-*): interleaved N = 4 199k → 218k–220k Mrows/s, 8: 196k–197k → 210k–212k, 16: 194k–195k → 203k–204k;
  strided N = 4 192k–194k → 203k–204k; the other sizes keep the clear and did not move. Gathering the bits
  of a system's several invocations in workgroup memory first, so that larger systems could store too, cost
  a barrier that lost up to 5% at N = 32 … 128 (…-final29), where the clear is at most 0.6% of the traffic;
  it was not kept. The per-system Thomas kernel also drops its guards by the runtime n where n fills its
  rows; its workgroup size (64 to 512 invocations) made no difference at N = 4 … 16 (…-final29, tt-*.jsonl).

Earlier changes, each measured against the kernels before it in one run (…-sweep-tri4 … -sweep-tri24,
…-tri-pingpong, …-final10-tri, …-final15-tri):
- **Direct rows** (real strided systems, n a multiple of 4): every invocation loads its own R consecutive
  rows as R/4 vec4s of each array straight from global memory, and stores its R solutions the same way, so
  a warp moves whole 512-byte runs and nothing is staged through workgroup memory (before: a coalesced
  scalar load into workgroup memory, a barrier, and R reads back, and the same for the output). Workgroup
  memory then holds only the exchange area (the first and last row of each invocation, twice), so a whole
  system of up to 16384 rows fits one workgroup instead of 2048, and systems of 4096 … 16384 rows are no
  longer partitioned. With it, 8 rows an invocation from 256 rows and 16 from 4096 (4 below 256), and
  256-row workgroups for small systems. Strided N = 4: 165k → 190k Mrows/s, 1024: 114k → 197k, 2048:
  76.4k → 183k, 4096: 69.2k → 177k, 8192: 68.3k → 131k, 16384: 64.8k → 91.4k (…-sweep-tri23, -sweep-tri24).
  Four interleaved systems an invocation as vec4 lanes (the same idea for the interleaved per-system
  Thomas) gained nothing at N = 4 and 8 and lost at 16 (…-sweep-tri24), and was not kept.
- **Bank-swizzled workgroup arrays.** An invocation reads its R consecutive rows from workgroup memory; as one
  array of row structs, lanes were R·4 words apart, an up to 32-way bank conflict on every access. Four scalar
  arrays with row v at v ^ ((v >> 5) & 31) put those rows, and the coalesced staged rows, in distinct banks
  (strided N = 4: 125k → 160k Mrows/s; rows per invocation 8 or 16 had been slower than 4 for this reason).
- **Only block-boundary rows through the exchange steps** (the 'thomas' interior): an invocation merges its
  rows one at a time into its block's first and last rows, only those two take part in the workgroup
  stages, and the interior rows are solved by Thomas between the two known ends (O(N) work a system instead
  of O(N log N)).
- **Normalised boundary rows** (b = 1): a merge costs one reciprocal and the updates of the other rows no
  division (strided N = 1024 86.8k → 96.6k, 2^24 45.3k → 49.7k, …-sweep-tri9); the left and right rows of
  a merge updated in one branch-free form (1–3%, …-sweep-tri12).
- **Fewer instructions a row.** These kernels are bound by instructions and latency, not bandwidth, and
  every trim showed:
  - no integer division by a runtime value per row: the partition kernels found each row's chunk with a
    division by the chunk count (now once a workgroup: 2^24 49.7k → 53.9k, …-sweep-tri10);
  - every kernel took a system's matrix as sys mod batch (now skipped with one right-hand side);
  - with one system a workgroup, row addresses come from two bases computed once (+5%, …-sweep-tri16);
  - 'expand' does not repeat the dominance and pivot checks of its level's 'reduce' (+3%, …-sweep-tri15);
  - exchanged rows go without their b = 1, and no system bound check is made per row (+4–8%,
    …-sweep-tri17); the exchange area needs no swizzle (≤ 2%, …-sweep-tri19);
  - the per-system Thomas kernels address rows from two bases computed once (interleaved N = 512:
    82.6k → 107k).
- **One barrier an exchange step** (two alternating exchange areas, ≤ 2%).
- **Smaller partition chunks** (128 rows, real strided) for N ≥ 4096. Several chunks a workgroup (option
  \`partitionChunksPerWorkgroup\`, to lift the limit of 32 resident one-warp workgroups an SM) measured slower
  (2^24: 45.3k with one chunk, 43.8k / 43.0k / 41.3k with 2 / 4 / 8, …-sweep-tri8; again without the
  per-row division: 55.0k with one, 51.2k / 50.2k with 2 / 4, …-sweep-tri13), so the default stays 1.
  Chunk loads aligned to 32 bytes (option \`alignChunks\`; chunks are 129 rows apart) cost more in
  instructions than they saved (2^24: 55.1k against 49.2k aligned, …-sweep-tri14).
- **Interleaved N > 2048: the partition level reduces the same 128-row chunk of 8 consecutive systems in a
  workgroup**, so its loads run across neighbouring systems (neighbouring addresses in this layout) instead of
  one system's rows a batch apart (N = 4096 14.5k → 48.8k, 2^17 4.6k → 37.9k, …-sweep-tri21).
- **Interleaved N = 17 … 2048: one invocation a system, Thomas streamed through global memory** (c' to a
  scratch array laid out like the input, d' to x, then the backward sweep), 8 rows (12 from N = 512) loaded
  together and the next ones issued before the current ones are eliminated. Beyond N = 2048 there are too
  few systems in 2^24 rows for one invocation each (N = 4096 streamed: 12.2k; Wang & Mou now 48.8k).

Dawn adds work to every kernel: workgroup memory is zero-initialised and array indices are clamped
(robustness). Switching both off with Dawn's unsafe toggles (\`BUTTERFLY_DAWN_FLAGS\`, …-toggles) gained 0–4%
here and nothing for the C2C FFT, so neither explains the remaining gaps; the library does not use them.

Goals: 100,000 Mrows/s reached for every strided N ≤ 2^12 (176k–206k, 6.5–66× gtsv2StridedBatch); 60,000
reached for every N from 2^13 to 2^24 (61.7k–131k, 2.8–5.0× gtsv2StridedBatch). Interleaved: at or above
gtsvInterleavedBatch (its best algorithm at each N) for every N it handles, up to 4096 at this total size:
1.01× at N = 4 (220k against 218k Mrows/s; 1.05× in …-final29, 223k against 213k) and 1.39–9.9× from N = 8;
beyond, where cuSPARSE does not run at this total size, 38k–56k. At N = 4 both move 20 bytes a row at
4.3–4.5 TB/s: a read-heavy stream runs above the 3.9–4.0 TB/s of a device copy (half reads, half writes).

## EDM batched padded 2-D convolution (seed 001's seven cases)

${edmTable()}

From the final25 run (bench/results/2026-11-22-h200-final25), with CuPy in the same run and the
kernels of commit 6e26168 (split exchanges, before the first-pass, N-D column-pass and long-first-pass changes
of the C2C section). The eager CuPy pipeline is dominated by launch overhead; the
CUDA-graph replay of the same calls is the stronger anchor: cases 1–6 run 2.5–3.6× faster than it (2.2–3.0×
with the FFT kernels before the split exchanges, final7), case 7 1.4–1.6×.

2-D \`fftconvolve\` of 4096×4096 with a 63×63 kernel (the same run):

${tableOf(
  ['mode', 'ours complex64 ms', 'cupyx complex64 ms', 'cupyx float32 ms', 'vs complex64', 'vs float32'],
  conv
    .filter((r) => r.lib === 'butterfly')
    .map((r) => {
      const c = cupy.find((x) => x.kind === 'fftconvolve2d' && x.mode === r.mode && x.dtype === 'complex64');
      const c32 = cupy.find((x) => x.kind === 'fftconvolve2d' && x.mode === r.mode && x.dtype === 'float32');
      return [
        String(r.mode),
        f(r.ms as number),
        c ? f(c.ms as number) : '—',
        c32 ? f(c32.ms as number) : '—',
        c ? `**${((c.ms as number) / (r.ms as number)).toFixed(2)}**` : '—',
        c32 ? `**${((c32.ms as number) / (r.ms as number)).toFixed(2)}**` : '—',
      ];
    }),
)}

## Shallow water with pollutant (seed 000 §2.2), one step

${sweTable()}

From the final16 run (\`node bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown\`); the
previous kernels (commit edc4c56's codegen) in the same run. \`--breakdown\` times each kernel alone over the
same steps. What changed (…-sweep-swe2 … -swe7), each against the kernels before it in one run:
- **Loads first.** Each invocation issues all its cells' loads before any boundary logic (indices clamped
  into the mesh, so no load needs a guard); the loads under branches had queued one memory latency after
  another (4096²: cfl 0.26 → 0.20 ms, update 0.54 → 0.49).
- **Cells staged once an invocation**, the edges in the reciprocal form (one desingularised reciprocal a
  cell and one a Roe state instead of a division per velocity), and the tile's CFL maximum in two levels
  (two barriers instead of log2 256).
- **A column of cells an invocation**: two in the update (0.489 → 0.466 ms), three in the cfl kernel (0.203 →
  0.155 ms). More invocations with less work each went the other way: one edge flux an invocation (x- and
  y-edges in separate slices) took the update to 0.724 ms.

The kernels are bound by arithmetic and latency, not bandwidth: the update alone moves 44 B a cell in
0.46 ms at 4096² (1.6 TB/s), and the depth pair's 8 extra bytes cost 8%. 50% of the bound would need the
whole step in 0.41 ms, with the cfl and reduce kernels already 0.16 of it: the update would have to run
1.9× faster. The staged and fused structures (fewer bytes, fewer divisions) measured slower on this GPU
(…-sweep-swe, …-sweep-swe2).

Probes of the update kernel (timing-only variants with wrong results, \`SweKernelOptions.probe\` up to commit 0a13d51,
since removed from the generator; …-sweep53, 4096², update
alone, ms): as built 0.464 (f32 depth 0.427); the same arithmetic with every load from the first 2^18 cells,
which the L2 cache holds, 0.441 (0.425); the same loads and stores without the arithmetic 0.214 (0.156). DRAM
traffic is not what limits it: the arithmetic alone takes 0.44 ms, more than the 0.41 ms that 50% of the bound
allows for the whole step. In the same run, c and 1/(2c) from one reciprocal square root and the friction
with one reciprocal instead of three divisions (the current kernels) ran as fast as commit fa92f6b's, in
alternating processes: 0.630 / 0.635 against 0.636 / 0.631 ms a step at 4096² (30.0–30.6% of the bound); the
table above is from final16, whose kernels differ from today's only by that. Rows a cfl / update invocation
again: 2 / 3 stay fastest (4096² update 0.464 ms; one row 0.491, three 0.534).

Accuracy, dam break to t = 1, GPU (f32 with the depth pair) against the float64 reference, relative L1:
${(() => {
  const c = swe.find((r) => r.kind === 'compare') as
    | { n: number; l1: { h: number; qx: number; qy: number } }
    | undefined;
  const d = swe1000.find((r) => r.kind === 'compare-dump') as
    | { n: number; cpuSteps: number; l1: { h: number; qx: number; qy: number } }
    | undefined;
  const line = (x: { n: number; l1: { h: number; qx: number; qy: number } }) =>
    `h ${x.l1.h.toExponential(1)}, q_x ${x.l1.qx.toExponential(1)}, q_y ${x.l1.qy.toExponential(1)}`;
  return [
    c ? `- 400² (\`--compare 400\`, bench/results/2026-11-22-h200-final16): ${line(c)};` : '',
    d
      ? `- 1000² (\`--dump 1000\` on the H200, compared with the float64 reference run on the CPU by \`bench/swe-compare-dump.ts\`, ${d.cpuSteps} steps, bench/results/2026-11-22-h200-swe-1000b): ${line(d)}.`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
})()}

Before the depth pair (and before the time two-sum was protected from the shader compiler's
simplification), the 1000² q difference was 1.56e-5.
`);
if (sfftOurs.length) {
  const rows = sfftOurs
    .filter((r) => r.lib === 'butterfly-sfft')
    .map((r) => {
      const c = sfftCu.find((x) => x.n === r.n);
      const snr = r.snrDb === null || r.snrDb === undefined ? 'exact' : `${r.snrDb} dB`;
      return [
        `2^${r.log2n}`,
        String(r.k),
        String(r.path),
        snr,
        f(r.gpuMs as number),
        f(r.e2eMs as number),
        `${((r.recovered as number) * 100).toFixed(1)}%`,
        (r.l1PerCoefficient as number).toExponential(1),
        f(r.denseGpuMs as number),
        c ? f(c.gpuMs as number) : '—',
        c ? `**${((c.gpuMs as number) / (r.gpuMs as number)).toFixed(2)}**` : '—',
        String(r.status),
      ];
    });
  out.push(`## Sparse FFT (k largest frequencies of an n-point signal)

Signals with k random frequencies (random magnitudes and phases), exactly sparse or with white noise at the
given SNR, made on the GPU. "gpu ms" is the sparse transform on the device (median); "e2e" adds reading the
k results back. Dense FFTs (ours and cuFFT, one n-point C2C) measured in the same run.

${tableOf(['n', 'k', 'path', 'signal', 'gpu ms', 'e2e ms', 'recovered', 'L1 / coef.', 'our dense ms', 'cuFFT dense ms', 'vs cuFFT', 'status'], rows)}

The exact path is a chain of 6 dispatches (hashing of all 4 rounds in one dispatch, one batched B-point FFT,
one decoding stage over all rounds, one peeling stage, subtraction, estimation); it was 34 dispatches and 13
buffer clears before. Its GPU time hardly depends on n (0.062–0.086 ms for k = 1000), so it is faster than
cuFFT's dense transform from **n = 2^22** (1.25×) up, 26.4× at 2^27. The robust path (noisy signals) is
faster than cuFFT from 2^25 with noise, 2^26 on exactly sparse signals (at 2^27 its exact-signal case spends
its time in the cutoff's histogram, 2.10 ms). From the final25 run (bench/results/
2026-11-22-h200-final25, kernels of commit 6e26168), with cuFFT in the same run. An earlier sweep of the same code measured the exact path at
0.10–0.15 ms for 2^20–2^25 in one long process with many variants (bench/results/2026-11-22-h200-sweep-sfft),
our dense FFT slowed alike; a short check run (bench/results/2026-11-22-h200-sfft-check: default and
2^27-point allocations, twice each) measured 2^22 at 0.066–0.075 ms in all four, with single outliers at
2^23 and 2^24 (0.12, 0.18 ms) — the same kind of slowdown as the FFT repeats above.
`);
}
/**
 * One run of every FFT family (bench/gpu/run.sh fft) against previous kernels: the accuracy rows, per power of two
 * 2^10 … 2^27 each family's new/prev time and anchor/ours speed-up, and the 2-D and other-length summaries.
 */
function fftRun(dir: string) {
  const L = (name: string) => load(`${dir}/${name}.jsonl`);
  const byN = (rows: Row[], lib: string, kind?: string) =>
    new Map(
      rows
        .filter((r) => r.lib === lib && (!kind || r.kind === kind))
        .map((r) => [r.shape && r.kind === 'c2c-2d' ? r.shape : r.N, r] as const),
    );
  const acc = byN(L('accuracy-new'), 'butterfly');
  const accOld = byN(L('accuracy-recurrence'), 'butterfly');
  const accCu = byN(L('cufft-accuracy'), 'cuFFT');
  const e = (r?: Row) => (r && typeof r.relErr === 'number' ? r.relErr.toExponential(2) : '—');
  const accRows = [...acc.keys()]
    .sort((a, b) => Number(a) - Number(b))
    .map((n) => {
      const o = acc.get(n),
        c = accCu.get(n);
      return [
        String(n),
        e(o),
        e(accOld.get(n)),
        e(c),
        o && c ? `**${((o.relErr as number) / (c.relErr as number)).toFixed(2)}**` : '—',
      ];
    });
  const extra = L('cufft-extra');
  const fams: [string, string, Map<unknown, Row>][] = [
    ['c2c', 'C2C', byN(L('cufft-c2c'), 'cuFFT')],
    ['r2c', 'R2C', byN(L('cufft-r2c'), 'cuFFT')],
    ['dct2', 'DCT-II', byN(extra, 'cuFFT+kernels', 'dct2')],
    ['dht', 'DHT', byN(extra, 'cuFFT+kernels', 'dht')],
  ];
  const cur = fams.map(([k]) => byN(L(`${k}-new`), 'butterfly'));
  const prev = fams.map(([k]) => byN(L(`${k}-old`), 'butterfly'));
  const ratio = (a?: Row, b?: Row) => (a?.ms && b?.ms ? (a.ms / b.ms).toFixed(2) : '—');
  const sizeRows: string[][] = [];
  for (let l = 10; l <= 27; l++) {
    const n = 2 ** l;
    sizeRows.push([
      `2^${l}`,
      ...fams.flatMap(([, , anchor], i) => [
        ratio(cur[i]!.get(n), prev[i]!.get(n)),
        ratio(anchor.get(n), cur[i]!.get(n)),
      ]),
    ]);
  }
  const other = (name: string, key: (r: Row) => unknown) => {
    const a = byN(L(`${name}-new`), 'butterfly'),
      b = byN(L(`${name}-old`), 'butterfly');
    return [...a.entries()].map(([k, r]) => {
      const c = extra.find(
        (x) => x.lib === 'cuFFT' && key(x) === k && (name === 'c2c-2d' ? x.kind === 'c2c-2d' : x.kind === 'c2c'),
      );
      return `${String(k)}: ${ratio(r, b.get(k))} (${ratio(c, r)}×)`;
    });
  };
  return { accRows, sizeRows, fams, other };
}
// The two-level twiddles: every FFT family re-run with the previous kernels and the anchors in one run.
{
  const dir = 'bench/results/2026-11-26-h200-final-twiddles/fft';
  const { accRows, sizeRows, fams, other } = fftRun(dir);
  out.push(`
## Twiddles and accuracy (2026-11-26)

The FFT tables above are from final44. Since then the kernels form their twiddles in two levels (\`twiddles:
'two-level'\`, \`src/planner/fft-workgroup.ts\`) from 4096 points and for lengths that are not powers of two:
radix-16 and larger and odd radix-5 and larger stages read W^1 and W^B from the float64-accurate table
(B² ≥ the radix) instead of raising one rounded W^1 to every power, which multiplied its phase error by up to
31. Every FFT family was re-run on the ${deviceName} with the previous kernels (commit b807d56) and the anchors
in the same run: \`bash bench/gpu/run.sh fft\` (${dir}; cuFFT's R2C, C2C and accuracy readings are single
readings, DCT-II / DHT / 2-D / other-length anchors warmed 300 ms).

Accuracy, relative L2 error against a float64 FFT of the same seeded complex64 input (one transform;
\`python3 bench/cufft_extra.py --accuracy … --save DIR\`, then \`node bench-fft.mjs --accuracy DIR\`):

${tableOf(['N', 'ours', 'previous (one-read recurrence)', 'cuFFT', 'ours / cuFFT'], accRows)}

Time of the new kernels over the previous ones ("new/prev", below 1 is faster) and speed-up over the anchor
(cuFFT; for DCT-II and DHT cuFFT R2C plus a pre/post kernel) in the same run:

${tableOf(['N', ...fams.flatMap(([, label]) => [`${label} new/prev`, `${label} anchor/ours`])], sizeRows)}

2-D: ${other('c2c-2d', (r) => r.shape).join(', ')}. Other lengths: ${other('c2c-odd', (r) => r.N).join(', ')}
(new/prev, and anchor/ours in parentheses). Sizes below 4096 that are powers of two run the same kernels as
before; their ratios show the run-to-run spread (±1%).

The families whose kernels have their own generators were re-run in the same session (same folder): 2-D
convolution 1.857 / 1.846 ms (full / same) against 1.864 / 1.849 with the previous kernels; the sparse FFT
within the run-to-run spread; EDM cases 1–5 (5–25 µs each) swing by ±30% with the order of the processes
(edm-order/: the second process of a pair is faster whichever it is), cases 6 and 7 with one angle within
0.5%, and case 7 with 7 angles reads 1.0–5.4 ms in either build (its 1.2 GB of buffers).
`);
}
// One workgroup for 8192 and 16384 points (the rounds exchange): every FFT family and the sparse FFT against the
// commit before it, with the anchors, in one session.
{
  const dir = 'bench/results/2026-11-26-h200-rounds';
  const { accRows, sizeRows, fams, other } = fftRun(`${dir}/fft`);
  // The sparse FFT's flagged rows, timed again in alternating processes (old, new, old, new).
  const repeated = sfftRepeats(`${dir}/sfft/sfft-repeat`);
  const rows = comparisonRows(compareRuns([dir]), repeated);
  out.push(`
## One workgroup for 8192 and 16384 points: the rounds exchange (2026-11-26)

Powers of two from 8192 to 16384 now run in one workgroup whose invocations keep their values at fixed positions
(512 invocations × 32 registers for 16384, 256 × 32 for 8192) and exchange them between stages through one block
of workgroup memory at a time, in rounds (\`exchange: 'rounds'\`, \`src/planner/fft-rounds.ts\`): 16384 points in
32 KiB, where a whole row would need 128 KiB. The real transforms, DCT-II and DHT of twice those lengths use it
for their half-length transform, with the post-processing gathering mirror pairs through the same block. Where a
stage's stride divides the invocations, every butterfly of an invocation has the same twiddles, which it reads
and forms once. The rows that change are C2C 2^13 and 2^14 and R2C / DCT-II / DHT 2^14 and 2^15 (C2C 8192 0.779 →
0.723 ms and 16384 1.153 → 0.911, cuFFT 0.527 and 0.728); every other size runs the same kernels as before, so its
new/prev ratio shows the run-to-run spread. One run on the ${deviceName}: \`bash bench/gpu/run.sh bundle --against
84f1764\`, then \`bash bench/gpu/run.sh fft\` and \`… sfft\`, source \`${dir}\`; cuFFT's C2C and R2C readings are
single readings, the DCT-II / DHT / 2-D / other-length anchors warmed 300 ms. These rows supersede the final44
tables above at those sizes. (VkFFT's suite, in the same run, timed 7 C2C sizes within its time budget, among
them 16384 at 3.34 ms a transform, host-timed and in place; \`fft/vkfft-c2c.jsonl\`.)

Time of the new kernels over the previous ones ("new/prev", below 1 is faster) and speed-up over the anchor
(cuFFT; for DCT-II and DHT cuFFT R2C plus a pre/post kernel) in the same run:

${tableOf(['N', ...fams.flatMap(([, label]) => [`${label} new/prev`, `${label} anchor/ours`])], sizeRows)}

2-D: ${other('c2c-2d', (r) => r.shape).join(', ')}. Other lengths: ${other('c2c-odd', (r) => r.N).join(', ')}
(new/prev, and anchor/ours in parentheses).

Accuracy in the same run (relative L2 error against a float64 FFT of the same seeded complex64 input; 8192 now
runs the rounds kernel):

${tableOf(['N', 'ours', 'ours, one-read recurrence', 'cuFFT', 'ours / cuFFT'], accRows)}

All rows, new / old (\`node dist/bench/compare.js ${dir}\`):

${tableOf(['family', 'rows', 'new / old, median', 'range', 'rows > 5% slower → ratio in the two repeats'], rows)}

The sparse FFT runs FFTs of 4096 … 262144 points in small batches; its robust mode's dense FFTs are of 8192 and
16384 points from n = 2^19 to 2^23, where this run read 0.96–1.08 of the old time. The flagged rows are 70–520
µs readings, and the exact mode's (4096-point FFTs, unchanged) moved as much (0.80–1.16) in the repeats.
`);
}
/** One family's row times in a JSON-lines file (the family's key and time, as bench/compare.ts reads them). */
function familyTimes(path: string, family: string): Map<string, number> {
  const spec = FAMILIES.find((f) => f.family === family)!;
  const m = new Map<string, number>();
  for (const r of load(path)) {
    const k = spec.key(r);
    const t = spec.time(r);
    if (k !== null && t) m.set(k, t);
  }
  return m;
}

/** The new / old ratios of sparse-FFT rows timed again in alternating processes (sfft-{old,new}-{1,2}.jsonl in dir). */
function sfftRepeats(dir: string): (family: string, key: string) => string {
  const [o1, n1, o2, n2] = ['old-1', 'new-1', 'old-2', 'new-2'].map((tag) =>
    familyTimes(`${dir}/sfft-${tag}.jsonl`, 'sfft'),
  );
  return (_family, key) => {
    const a = n1!.get(key),
      b = o1!.get(key),
      c = n2!.get(key),
      d = o2!.get(key);
    return a && b && c && d ? `${(a / b).toFixed(3)}, ${(c / d).toFixed(3)}` : 'not repeated';
  };
}

/** Table rows of a new / old comparison: each family's median and range, its flagged rows and their repeats. */
function comparisonRows(
  all: FamilyComparison[],
  repeated: (family: string, key: string) => string,
): (string | number)[][] {
  return all.map((c) => [
    c.family,
    c.rows,
    c.median.toFixed(3),
    `${c.min.ratio.toFixed(3)} – ${c.max.ratio.toFixed(3)}`,
    c.slower.length === 0
      ? 'none'
      : c.slower.map((x) => `${x.key}: ${x.ratio.toFixed(3)} → ${repeated(c.family, x.key)}`).join('; '),
  ]);
}

// Same kernels, new house: every GPU family against the commit before the refactors of 2026-11-26, one run.
{
  const dir = 'bench/results/2026-11-26-h200-refactor';
  const all = compareRuns([dir]);
  // Rows flagged in the first pass, timed again in alternating processes (old, new, old, new).
  const repeated = sfftRepeats(`${dir}/sfft-repeat`);
  const rows = comparisonRows(all, repeated);
  out.push(`
## Same kernels after the refactors (2026-11-26, H200, first part)

The planning moves into the planner, the shallow-water probes leaving the generator and the one-shot API
changes of 2026-11-26 must not change any GPU kernel's speed. Every family was timed on the H200 in one run,
this tree against commit b523bbf ("old" bundles, \`bash bench/gpu/run.sh bundle --against b523bbf\`), and
compared by \`node dist/bench/compare.js ${dir}\` (time new / old; rows more than 5% slower are listed, then
repeated in alternating processes: old, new, old, new). Source: \`${dir}\`.

${tableOf(['family', 'rows', 'new / old, median', 'range', 'rows > 5% slower → ratio in the two repeats'], rows)}

The edm rows are 5–15 µs kernels whose spread between processes is larger than any difference here. The
sparse FFT's flagged rows at 2^18 and 2^19 are the first sizes of its run (60–160 µs) and within 4% when
repeated; the repeat covered 2^18 … 2^21, so the 2^25 row with noise (1.06) was not timed again.
`);
}
// The whole plan in the planner (2026-11-26, second part): every family against the commit before it.
{
  const dir = 'bench/results/2026-11-26-h100-house';
  const all = compareRuns([dir]);
  // Flagged rows timed again in alternating processes (new, old), two pairs where both came back.
  const times = new Map<string, Map<string, number>>();
  const rep = (family: string, tag: string) => {
    const path = `${dir}/repeat/${family}-${tag}.jsonl`;
    if (!times.has(path)) times.set(path, familyTimes(path, family));
    return times.get(path)!;
  };
  const repeated = (family: string, key: string): string => {
    const pairs =
      family === 'fft'
        ? [[key.split(' ')[0] + '-new', key.split(' ')[0] + '-old']]
        : [
            ['new-1', 'old-1'],
            ['new-2', 'old-2'],
          ];
    const ratios = pairs
      .map(([a, b]) => [rep(family, a!).get(key), rep(family, b!).get(key)])
      .filter(([a, b]) => a && b)
      .map(([a, b]) => (a! / b!).toFixed(3));
    return ratios.length ? ratios.join(', ') : 'not repeated';
  };
  const rows = comparisonRows(all, repeated);
  out.push(`
## Same kernels with the whole plan in the planner (2026-11-26, H100)

WebGpuFft's kernels, buffers and binding windows now come from the planner (planWebGpuFftPasses), the
real-to-real adapters from planR2r, the grid convolution's and shallow water's defaults from the planner,
tuning knobs from one \`tuning\` object, and the generators are split by concern. Before timing, 5,700 plans
(every FFT kind, layout and R2C variant, r2r and N-D, three device models) were checked to give byte-identical
WGSL, bindings, tables and dispatch uniforms. Every family was then timed on an H100 in one session, this
tree against commit 1140fa6 (\`bash bench/gpu/run.sh bundle --against 1140fa6\`), compared by
\`node dist/bench/compare.js ${dir}\`; rows more than 5% slower were timed again in alternating processes
(new, old). Source: \`${dir}\`.

${tableOf(['family', 'rows', 'new / old, median', 'range', 'rows > 5% slower → ratio when repeated'], rows)}

The DHT 1024 row repeated at 0.374 ms against the old build's 0.375 in the first pass (the old process's
repeat did not come back). The edm and sparse-FFT rows are 5–200 µs kernels whose spread between processes
(±20%, both directions, in the repeats) is larger than any difference; their medians over the repeats are
1.00. The sparse FFT's 2^27 row was not repeated (the repeat covered 2^18 … 2^22).
`);
}
// Anchors on the same GPU in the same run: cuFFT and VkFFT (Vulkan, the driver stack WebGPU runs on).
{
  const dir = 'bench/results/2026-11-26-h100-house/anchors-2p25';
  const by = (file: string, lib: string) =>
    new Map(
      load(`${dir}/${file}`)
        .filter((r) => r.lib === lib && typeof r.ms === 'number')
        .map((r) => [r.N as number, r.ms as number]),
    );
  const table = (kind: 'c2c' | 'r2c') => {
    const ours = by(`${kind}.jsonl`, 'butterfly');
    const cu = by(`cufft-${kind}.jsonl`, 'cuFFT');
    const vk = by(`vkfft-${kind}.jsonl`, 'VkFFT');
    const rows = [...ours.keys()]
      .sort((a, b) => a - b)
      .map((N) => {
        const o = ours.get(N)!;
        const c = cu.get(N);
        const v = vk.get(N);
        return [
          `2^${Math.log2(N)}`,
          o.toFixed(4),
          c ? c.toFixed(4) : '–',
          v ? v.toFixed(4) : '–',
          c ? (c / o).toFixed(2) : '–',
          v ? (v / o).toFixed(2) : '–',
        ];
      });
    return tableOf(['N', 'ours ms', 'cuFFT ms', 'VkFFT ms', 'cuFFT / ours', 'VkFFT / ours'], rows);
  };
  const ratios = (kind: 'c2c' | 'r2c') => {
    const ours = by(`${kind}.jsonl`, 'butterfly');
    const vk = by(`vkfft-${kind}.jsonl`, 'VkFFT');
    const r = [...ours]
      .filter(([N]) => vk.has(N))
      .map(([N, o]) => vk.get(N)! / o)
      .sort((a, b) => a - b);
    return { lo: r[0]!, hi: r[r.length - 1]!, median: r[r.length >> 1]!, n: r.length };
  };
  const c = ratios('c2c');
  const r = ratios('r2c');
  out.push(`
## Anchors at 2^25 elements: cuFFT and VkFFT on the same GPU (2026-11-26, H100)

Batched 1-D transforms of 2^25 complex64 values in all (batch = 2^25 / N), timed in one session on an H100:
ours (\`bench-fft.mjs --total 25\`, out of place, forward), cuFFT 12 (\`anchor_cufft.py --total 25\`) and
VkFFT 1.3.4 with its Vulkan backend, the closest peer on WebGPU's driver stack (\`bench-vkfft.mjs --total 25\`:
VkFFT's own benchmark, in place, which times a forward and an inverse transform together; half that pair is
shown). 2^25 rather than the other tables' 2^27: VkFFT's benchmark spends about 11 s of host time per size
at 2^27, so one run times every size only at the smaller total. VkFFT / ours: C2C ${c.lo.toFixed(2)}–${c.hi.toFixed(2)}
(median ${c.median.toFixed(2)}, ${c.n} sizes), R2C ${r.lo.toFixed(2)}–${r.hi.toFixed(2)} (median ${r.median.toFixed(2)}).
At 2^14 VkFFT's single kernel beats our two passes; \`bench/vkfft-probe/\` prints its plan and times it (512
invocations × 32 registers, four-round exchanges; docs/DECISIONS.md beside 'split4').
Source: \`${dir}\`.

**C2C**

${table('c2c')}

**R2C** (N real inputs, N/2 + 1 outputs)

${table('r2c')}
`);
}
// The CPU engine: the newest tables written by bench/cpu.ts (npm run bench:cpu), on this project's machine.
{
  const dir = 'bench/results/cpu';
  const mds = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md') && f !== 'README.md')
        .sort()
    : [];
  if (mds.length > 0) {
    const file = `${dir}/${mds[mds.length - 1]}`;
    out.push(`
## CPU engine (no GPU)

Measured by \`npm run bench:cpu\` (bench/cpu.ts, with bench/cpu_numpy.py run by it in the same job) on this
project's 2-core AMD EPYC machine (no GPU, Node 20), ${mds[mds.length - 1].slice(0, 10)}; source: \`${file}\` and the JSON
beside it; plot: docs/cpu-gflops.svg. Every anchor is measured in the same run and checked against a float64
reference before it is timed. Ours: the public API into a reused output array, as the anchors write into
preallocated memory (\`createFftPlan\` + \`execute\` for C2C; \`rfft\`, \`dct\`, \`fft2\` as one-shot calls with
numpy's \`out\`), "1t" = \`threads: 1\`, "all" = both cores (inputs on ordinary ArrayBuffers, so each worker's
share is copied in and out through shared staging memory, in pieces, by the calling thread), "all, shared" (C2C)
= both cores with input and output on SharedArrayBuffers, which the workers read and write in place.
pffft's columns have the data already in its own heap and exclude copies, and numpy and scipy work on their own
arrays; ours include copying into and out of the engine's WebAssembly memory, except the "buffers" columns: the
plan's engine buffers (\`FftPlan.createBuffers\`, \`TridiagonalPlan.createBuffers\`), which the kernels work on where
they lie (shared by both threads in "all, buffers"), the like-for-like comparison with those anchors. Best of 11 rounds: ours and the JavaScript anchors in interleaved rounds (one
round of each column in turn), the Python anchors (their own process) in two windows, before and after ours, each
cell keeping its faster window. On this shared machine repeated runs still differ by up to about 30% per cell, so
read ratios near 1 as ties.

![CPU GFLOPS against N](docs/cpu-gflops.svg)

${readFileSync(file, 'utf8')
  .replace(/^## .*\n/, '')
  .trim()}
`);
  }
}

console.log(out.join('\n'));
