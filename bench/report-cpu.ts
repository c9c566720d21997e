/**
 * GFLOPS against N from a bench/cpu.ts results file, as a plain SVG (one panel per family: C2C, R2C, DCT-II;
 * log-log axes; powers of two joined by lines, other lengths as unjoined markers).
 *
 *   node dist/bench/report-cpu.js [bench/results/cpu/<file>.json] [--out docs/cpu-gflops.svg]
 * Without a file it takes the newest JSON in bench/results/cpu/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Col {
  gflops?: number;
  error?: string;
}
interface Row {
  family: string;
  n: number;
  rows?: number;
  batch: number;
  cols: Record<string, Col>;
}
interface Doc {
  date?: string;
  host?: string;
  cpu?: string;
  cores?: number;
  results: Row[];
  versions?: Record<string, string | undefined>;
}

const SERIES: [string, string, string, boolean][] = [
  // key, label, colour, ours (drawn heavier)
  ['ours32_1', 'ours f32, 1 thread', '#d62728', true],
  ['ours32_all', 'ours f32, all threads', '#ff7f0e', true],
  ['ours32_all_shared', 'ours f32, all threads, SharedArrayBuffer (C2C)', '#bcbd22', true],
  ['ours32_1_buf', 'ours f32, 1 thread, engine buffers (C2C)', '#aa0000', true],
  ['ours32_all_buf', 'ours f32, all threads, engine buffers (C2C)', '#ff9896', true],
  ['ours64_1', 'ours f64, 1 thread', '#8c564b', true],
  ['fftjs', 'fft.js (f64)', '#7f7f7f', false],
  ['pffft', 'pffft-wasm SIMD (f32)', '#1f77b4', false],
  ['kissfft', 'kissfft-wasm (f32)', '#17becf', false],
  ['numpy64', 'numpy c128 (DCT: scipy f64)', '#2ca02c', false],
  ['scipy32_w1', 'scipy c64, workers=1', '#9467bd', false],
  ['scipy32_all', 'scipy c64, all workers', '#e377c2', false],
];
const PANELS: [string, string][] = [
  ['c2c', 'C2C'],
  ['r2c', 'R2C'],
  ['dct2', 'DCT-II'],
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderCpuSvg(doc: Doc): string {
  const W = 980,
    panelH = 300,
    top = 70,
    left = 60,
    right = 230,
    gap = 50;
  const pw = W - left - right;
  const panels = PANELS.filter(([f]) => doc.results.some((r) => r.family === f && !r.rows));
  const H = top + panels.length * (panelH + gap) + 20;
  const pts = doc.results.filter((r) => !r.rows && PANELS.some(([f]) => f === r.family));
  const all = pts
    .flatMap((r) => Object.values(r.cols).map((c) => (c.error ? undefined : c.gflops)))
    .filter((v): v is number => v !== undefined && v > 0);
  const yMin = all.length ? 10 ** Math.floor(Math.log10(Math.min(...all))) : 0.1;
  const yMax = all.length ? 10 ** Math.ceil(Math.log10(Math.max(...all))) : 100;
  const ns = pts.map((r) => Math.log2(r.n));
  const xMin = ns.length ? Math.floor(Math.min(...ns)) : 4,
    xMax = ns.length ? Math.ceil(Math.max(...ns)) : 20;
  const o: string[] = [];
  o.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  );
  o.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  const title = `CPU FFT GFLOPS (best round) — ${doc.cpu ?? 'unknown CPU'}, ${doc.cores ?? '?'} cores, ${doc.date?.slice(0, 10) ?? ''}`;
  o.push(`<text x="${left}" y="24" font-size="15" font-weight="bold">${esc(title)}</text>`);
  o.push(
    `<text x="${left}" y="44" fill="#555">GFLOPS = 5·N·log2N·batch/t (complex), 2.5·N·log2N·batch/t (R2C, DCT-II); lines: powers of two; ` +
      `markers alone: other N</text>`,
  );
  panels.forEach(([fam, name], pi) => {
    const y0 = top + pi * (panelH + gap);
    const X = (lg: number) => left + ((lg - xMin) / Math.max(1, xMax - xMin)) * pw;
    const Y = (g: number) =>
      y0 + panelH - ((Math.log10(g) - Math.log10(yMin)) / Math.max(1e-9, Math.log10(yMax) - Math.log10(yMin))) * panelH;
    o.push(`<text x="${left}" y="${y0 - 8}" font-weight="bold">${name}</text>`);
    o.push(`<rect x="${left}" y="${y0}" width="${pw}" height="${panelH}" fill="none" stroke="#999"/>`);
    for (let d = Math.log10(yMin); d <= Math.log10(yMax) + 1e-9; d++) {
      for (const m of [1, 2, 5]) {
        const g = m * 10 ** d;
        if (g > yMax * 1.0001) continue;
        const y = Y(g).toFixed(1);
        o.push(`<line x1="${left}" x2="${left + pw}" y1="${y}" y2="${y}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`);
        o.push(
          `<text x="${left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#444">${+g.toPrecision(3)}</text>`,
        );
      }
    }
    for (let k = xMin; k <= xMax; k++) {
      const x = X(k).toFixed(1);
      o.push(`<line x1="${x}" x2="${x}" y1="${y0}" y2="${y0 + panelH}" stroke="#eee"/>`);
      o.push(`<text x="${x}" y="${y0 + panelH + 15}" text-anchor="middle" fill="#444">2^${k}</text>`);
    }
    const rows = pts.filter((r) => r.family === fam).sort((a, b) => a.n - b.n);
    for (const [key, , colour, ours] of SERIES) {
      const at = (r: Row) => {
        const c = r.cols[key];
        return c && !c.error && c.gflops ? c.gflops : undefined;
      };
      const line = rows
        .filter((r) => (r.n & (r.n - 1)) === 0 && at(r) !== undefined)
        .map((r) => `${X(Math.log2(r.n)).toFixed(1)},${Y(at(r)!).toFixed(1)}`);
      if (line.length > 1) {
        o.push(
          `<polyline points="${line.join(' ')}" fill="none" stroke="${colour}" stroke-width="${ours ? 2.5 : 1.5}"` +
            `${ours ? '' : ' stroke-dasharray="5,3"'}/>`,
        );
      }
      for (const r of rows) {
        const g = at(r);
        if (g === undefined) continue;
        const x = X(Math.log2(r.n)).toFixed(1),
          y = Y(g).toFixed(1);
        const shape =
          (r.n & (r.n - 1)) === 0
            ? `<circle cx="${x}" cy="${y}" r="${ours ? 3 : 2.2}" fill="${colour}">`
            : `<rect x="${+x - 3.5}" y="${+y - 3.5}" width="7" height="7" fill="none" stroke="${colour}" stroke-width="1.5">`;
        o.push(
          `${shape}<title>${esc(`${key} N=${r.n}: ${g.toFixed(2)} GFLOPS`)}</title>${shape.startsWith('<circle') ? '</circle>' : '</rect>'}`,
        );
      }
    }
    // Legend beside the panel.
    SERIES.filter(([key]) => rows.some((r) => r.cols[key] && !r.cols[key].error)).forEach(
      ([, label, colour, ours], i) => {
        const ly = y0 + 10 + i * 18,
          lx = left + pw + 15;
        o.push(
          `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="${ours ? 2.5 : 1.5}"` +
            `${ours ? '' : ' stroke-dasharray="5,3"'}/>`,
        );
        o.push(`<text x="${lx + 30}" y="${ly}" dominant-baseline="middle">${esc(label)}</text>`);
      },
    );
  });
  o.push('</svg>');
  return o.join('\n') + '\n';
}

function main(): void {
  const argv = process.argv.slice(2);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = existsSync(path.join(here, '..', 'package.json')) ? path.join(here, '..') : path.join(here, '..', '..');
  let file: string | undefined;
  let out = path.join(root, 'docs', 'cpu-gflops.svg');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i].startsWith('--'))
      throw new Error(`unknown flag ${argv[i]} (usage: report-cpu [results.json] [--out file.svg])`);
    else file = argv[i];
  }
  if (!file) {
    const dir = path.join(root, 'bench', 'results', 'cpu');
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(dir, f))
      : [];
    if (files.length === 0) throw new Error(`no results in ${dir}: run npm run bench:cpu first, or name a file`);
    file = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  }
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Doc;
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, renderCpuSvg(doc));
  console.log(`${path.relative(process.cwd(), file)} → ${path.relative(process.cwd(), out)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
