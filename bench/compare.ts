/**
 * New kernels against the previous ones ("-old" bundles, `bench/gpu/run.sh bundle --against <commit>`),
 * measured in the same run: per family, the rows both timed and the ratio of their times (new / old).
 * Rows more than 5% slower are listed; repeat them in alternating processes before believing them (short
 * GPU timings move by that much between processes).
 *
 *   node dist/bench/compare.js <run folder>...   (folders holding fft/, tridiagonal/, edm/, conv/, sfft/, swe/)
 *
 * Exit code 1 when any row is more than 5% slower.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Row = Record<string, unknown>;

export interface FamilySpec {
  family: string;
  /** [new file, old file] under the run folder. */
  files: [string, string][];
  key: (r: Row) => string | null;
  time: (r: Row) => number | undefined;
}

export interface FamilyComparison {
  family: string;
  rows: number;
  median: number;
  min: { ratio: number; key: string };
  max: { ratio: number; key: string };
  slower: { key: string; ratio: number; ms: number; oldMs: number }[];
}

/** Slower than this ratio of times (new / old) is flagged. */
export const FLAG_RATIO = 1.05;

const ours = (r: Row) => r['lib'] === 'butterfly';
const fftKinds = ['c2c', 'r2c', 'dct2', 'dht', 'c2c-2d', 'c2c-odd'];

export const FAMILIES: FamilySpec[] = [
  {
    family: 'fft',
    files: fftKinds.map((k) => [`fft/${k}-new.jsonl`, `fft/${k}-old.jsonl`]),
    key: (r) => (ours(r) ? `${r['kind']} ${r['shape']}` : null),
    time: (r) => r['ms'] as number,
  },
  {
    family: 'tridiagonal',
    files: [['tridiagonal/tri.jsonl', 'tridiagonal/tri-old.jsonl']],
    key: (r) => (ours(r) && r['fn'] !== 'device-copy' ? `${r['fn']} ${r['layout']} ${r['N']} × ${r['batch']}` : null),
    time: (r) => r['ms'] as number,
  },
  {
    family: 'edm',
    files: [['edm/edm.jsonl', 'edm/edm-old.jsonl']],
    key: (r) => (ours(r) ? `case ${r['case']}, ${r['angles']} angles` : null),
    time: (r) => r['ms'] as number,
  },
  {
    family: 'conv',
    files: [['conv/conv.jsonl', 'conv/conv-old.jsonl']],
    key: (r) =>
      ours(r) ? `${r['kind']} ${r['mode']} ${JSON.stringify(r['shape'])} ${JSON.stringify(r['kernel'])}` : null,
    time: (r) => r['ms'] as number,
  },
  {
    family: 'sfft',
    files: [['sfft/sfft.jsonl', 'sfft/sfft-old.jsonl']],
    key: (r) =>
      r['lib'] === 'butterfly-sfft'
        ? `${r['path']} n=${r['n']} k=${r['k']} snr=${r['snrDb'] ?? '∞'} ${r['variant']}`
        : null,
    time: (r) => r['gpuMs'] as number,
  },
  {
    family: 'swe',
    files: [['swe/swe.jsonl', 'swe/swe-old.jsonl']],
    key: (r) => (r['kind'] === 'gpu' ? `${r['n']}² ${r['variant']}` : null),
    time: (r) => r['msPerStep'] as number,
  },
];

function load(path: string): Row[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Row);
}

function timesBy(rows: Row[], spec: FamilySpec): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) {
    const k = spec.key(r);
    const t = spec.time(r);
    if (k !== null && typeof t === 'number' && t > 0) m.set(k, t);
  }
  return m;
}

/** The comparison of one family in the run folders (the first folder holding its files wins), or null. */
export function compareFamily(dirs: string[], spec: FamilySpec): FamilyComparison | null {
  const pairs: { key: string; ratio: number; ms: number; oldMs: number }[] = [];
  for (const [nf, of] of spec.files) {
    const dir = dirs.find((d) => existsSync(join(d, nf)) && existsSync(join(d, of)));
    if (!dir) continue;
    const a = timesBy(load(join(dir, nf)), spec);
    const b = timesBy(load(join(dir, of)), spec);
    for (const [k, ms] of a) {
      const oldMs = b.get(k);
      if (oldMs !== undefined) pairs.push({ key: k, ratio: ms / oldMs, ms, oldMs });
    }
  }
  if (pairs.length === 0) return null;
  const sorted = [...pairs].sort((x, y) => x.ratio - y.ratio);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]!.ratio : (sorted[mid - 1]!.ratio + sorted[mid]!.ratio) / 2;
  return {
    family: spec.family,
    rows: pairs.length,
    median,
    min: { ratio: sorted[0]!.ratio, key: sorted[0]!.key },
    max: { ratio: sorted[sorted.length - 1]!.ratio, key: sorted[sorted.length - 1]!.key },
    slower: sorted.filter((p) => p.ratio > FLAG_RATIO),
  };
}

export function compareRuns(dirs: string[]): FamilyComparison[] {
  return FAMILIES.map((f) => compareFamily(dirs, f)).filter((c): c is FamilyComparison => c !== null);
}

function main(): void {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('usage: node dist/bench/compare.js <run folder>...');
    process.exit(2);
  }
  const all = compareRuns(dirs);
  const f = (x: number) => x.toFixed(3);
  console.log('family       rows  new/old median  fastest            slowest');
  for (const c of all) {
    console.log(
      `${c.family.padEnd(12)} ${String(c.rows).padStart(4)}  ${f(c.median).padStart(14)}  ${f(c.min.ratio)} (${c.min.key})  ${f(c.max.ratio)} (${c.max.key})`,
    );
  }
  const flagged = all.flatMap((c) => c.slower.map((s) => ({ family: c.family, ...s })));
  for (const s of flagged)
    console.log(
      `SLOWER ${s.family}: ${s.key}: ${s.ms.toPrecision(4)} ms against ${s.oldMs.toPrecision(4)} (×${f(s.ratio)})`,
    );
  if (flagged.length) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
