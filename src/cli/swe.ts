/**
 * `butterfly swe`: runs a shallow-water scenario (or a problem read from .npy / raw files) to an end
 * time and writes PNG snapshots, .npy state arrays, the mass time series (CSV) and a summary (JSON).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from './commands.js';
import { ArgumentError } from '../errors.js';
import { SCENARIOS, SCENARIO_T_END, scenario } from '../apps/shallow-water/scenarios.js';
import { defineSweProblem, type BoundaryKind, type SweBoundaries, type SweProblem } from '../apps/shallow-water/problem.js';
import { createSweSimulation, runSwe, type SweBackend } from '../apps/shallow-water/simulation.js';
import { renderField, SWE_FIELDS, type SweField } from '../apps/shallow-water/render.js';
import { encodePng } from '../util/png.js';
import { encodeNpy, parseNpy, parseRaw } from '../util/npy.js';

const USAGE = `butterfly swe — shallow water with pollutant transport (first-order path-conservative Roe scheme)

  butterfly swe --scenario dam-break|estuary|lake|beach [--n 400] [--t-end T] [--out DIR]
                [--backend auto|webgpu|cpu] [--snapshots 5] [--series 50] [--fields depth,speed,concentration,surface]
                [--no-npy] [--cfl 0.9] [--manning n]
  butterfly swe --bathymetry H.npy --dx 25 (--surface 0 | --h h.npy) [--qx qx.npy --qy qy.npy]
                [--concentration C.npy] [--boundaries wall | xmin=tide,xmax=open,...]
                [--tide 1.5:44714[:phase],0.5:43200] [--raw NX,NY,float32|float64] ...

Files: .npy (little-endian float32/float64, C order, shape (ny, nx)) or, with --raw, headerless
little-endian arrays of ny·nx values, row-major (x fastest). H is the depth of the bottom below the
reference level (positive down); land has H < 0. Times in seconds.
Writes to DIR (default out/swe): <field>_<k>.png, state_<k>_{h,qx,qy,hc}.npy, series.csv, summary.json.`;

function parse(argv: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new ArgumentError('arguments', a, 'options of the form --name value');
    const eq = a.indexOf('=');
    if (eq > 0) m.set(a.slice(2, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) m.set(a.slice(2), argv[++i]);
    else m.set(a.slice(2), 'true');
  }
  return m;
}

function num(args: Map<string, string>, name: string, fallback?: number): number {
  const v = args.get(name);
  if (v === undefined) {
    if (fallback === undefined) throw new ArgumentError(`--${name}`, undefined, 'a number');
    return fallback;
  }
  const x = Number(v);
  if (!Number.isFinite(x)) throw new ArgumentError(`--${name}`, v, 'a number');
  return x;
}

function readField(path: string, raw: { nx: number; ny: number; dtype: 'float32' | 'float64' } | null, name: string): { nx: number; ny: number; data: Float64Array } {
  const bytes = new Uint8Array(readFileSync(path));
  if (raw) return { nx: raw.nx, ny: raw.ny, data: parseRaw(bytes, raw.nx, raw.ny, raw.dtype, path) };
  const a = parseNpy(bytes, path);
  if (a.shape.length !== 2) throw new ArgumentError(`--${name} ${path}`, `shape (${a.shape.join(', ')})`, 'a 2-D array of shape (ny, nx)');
  return { ny: a.shape[0], nx: a.shape[1], data: a.data };
}

function problemFromFiles(args: Map<string, string>): SweProblem {
  let raw: { nx: number; ny: number; dtype: 'float32' | 'float64' } | null = null;
  const rawSpec = args.get('raw');
  if (rawSpec) {
    const [nx, ny, dtype = 'float32'] = rawSpec.split(',');
    if (dtype !== 'float32' && dtype !== 'float64') throw new ArgumentError('--raw', rawSpec, 'NX,NY,float32|float64');
    raw = { nx: Number(nx), ny: Number(ny), dtype };
  }
  const H = readField(args.get('bathymetry')!, raw, 'bathymetry');
  const field = (name: string) => {
    const path = args.get(name);
    if (!path) return undefined;
    const f = readField(path, raw, name);
    if (f.nx !== H.nx || f.ny !== H.ny) throw new ArgumentError(`--${name} ${path}`, `shape (${f.ny}, ${f.nx})`, `the bathymetry's shape (${H.ny}, ${H.nx})`);
    return f.data;
  };
  const bspec = args.get('boundaries') ?? 'wall';
  let boundaries: Partial<SweBoundaries> | BoundaryKind;
  if (bspec.includes('=')) {
    boundaries = {};
    for (const part of bspec.split(',')) {
      const [side, kind] = part.split('=');
      (boundaries as Record<string, string>)[side] = kind;
    }
  } else boundaries = bspec as BoundaryKind;
  const tideSpec = args.get('tide');
  const tide = tideSpec
    ? {
        constituents: tideSpec.split(',').map((c) => {
          const [amplitude, period, phase] = c.split(':').map(Number);
          return { amplitude, period, phase: phase ?? 0 };
        }),
      }
    : undefined;
  const surface = args.get('surface');
  return defineSweProblem({
    nx: H.nx, ny: H.ny, dx: num(args, 'dx'), dy: args.has('dy') ? num(args, 'dy') : undefined,
    bathymetry: H.data, h: field('h'), surface: surface !== undefined ? Number(surface) : undefined,
    qx: field('qx'), qy: field('qy'), concentration: field('concentration'), boundaries, tide,
    params: { cfl: num(args, 'cfl', 0.9), manning: num(args, 'manning', 0) },
  });
}

function bar(fraction: number, label: string): void {
  const w = 30;
  const f = Math.max(0, Math.min(w, Math.round(fraction * w)));
  const line = `\r[${'#'.repeat(f)}${'.'.repeat(w - f)}] ${(100 * fraction).toFixed(0).padStart(3)}% ${label}`;
  process.stderr.write(process.stderr.isTTY ? line.padEnd(78) : '');
}

async function run(argv: string[]): Promise<void> {
  const args = parse(argv);
  if (args.has('help') || argv.length === 0) {
    console.log(USAGE);
    return;
  }
  let problem: SweProblem;
  let name: string;
  let tEnd: number;
  if (args.has('bathymetry')) {
    problem = problemFromFiles(args);
    name = 'custom';
    tEnd = num(args, 't-end');
  } else {
    name = args.get('scenario') ?? 'dam-break';
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new ArgumentError('--scenario', name, SCENARIOS.join(' | '));
    problem = scenario(name, num(args, 'n', 400));
    if (args.has('cfl') || args.has('manning')) {
      problem.params.cfl = num(args, 'cfl', problem.params.cfl);
      problem.params.manning = num(args, 'manning', problem.params.manning);
    }
    tEnd = num(args, 't-end', SCENARIO_T_END[name as keyof typeof SCENARIO_T_END]);
  }
  if (!(tEnd > 0)) throw new ArgumentError('--t-end', tEnd, 'a time > 0 (seconds)');
  const out = args.get('out') ?? join('out', 'swe');
  const fields = (args.get('fields') ?? 'depth,speed,concentration').split(',') as SweField[];
  for (const f of fields) if (!SWE_FIELDS.includes(f)) throw new ArgumentError('--fields', f, SWE_FIELDS.join(','));
  const backend = (args.get('backend') ?? 'auto') as SweBackend;
  const writeNpy = !args.has('no-npy');
  mkdirSync(out, { recursive: true });

  const sim = await createSweSimulation(problem, { backend });
  console.log(`swe: ${name} ${problem.nx}×${problem.ny}, dx ${problem.dx}, t ∈ [0, ${tEnd}] s on ${sim.backend} (${sim.precision}) → ${out}`);
  try {
    const tag = (k: number) => String(k).padStart(3, '0');
    const result = await runSwe(sim, {
      tEnd,
      snapshots: num(args, 'snapshots', 5),
      seriesPoints: num(args, 'series', 50),
      onSnapshot: (state, k) => {
        for (const f of fields) {
          const img = renderField(problem, state, f, f === 'concentration' ? { min: 0, max: 1 } : {});
          writeFileSync(join(out, `${f}_${tag(k)}.png`), encodePng(img.width, img.height, img.rgb));
        }
        if (writeNpy) {
          for (const key of ['h', 'qx', 'qy', 'hc'] as const) writeFileSync(join(out, `state_${tag(k)}_${key}.npy`), encodeNpy([problem.ny, problem.nx], state[key]));
        }
      },
      onProgress: (fr, t, steps) => bar(fr, `t = ${t.toPrecision(5)} s, ${steps} steps`),
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    const s = result.series;
    writeFileSync(join(out, 'series.csv'), 'time,steps,water,pollutant\n' + s.map((p) => `${p.time},${p.steps},${p.water},${p.pollutant}`).join('\n') + '\n');
    const cells = problem.nx * problem.ny;
    const summary = {
      scenario: name, nx: problem.nx, ny: problem.ny, dx: problem.dx, tEnd, backend: sim.backend, precision: sim.precision,
      steps: result.final.steps, wallSeconds: result.wallSeconds,
      cellUpdatesPerSecond: (cells * result.final.steps) / result.wallSeconds,
      water: { initial: s[0].water, final: s[s.length - 1].water },
      pollutant: { initial: s[0].pollutant, final: s[s.length - 1].pollutant },
    };
    writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    console.log(`done: ${result.final.steps} steps in ${result.wallSeconds.toFixed(2)} s (${(summary.cellUpdatesPerSecond / 1e6).toFixed(1)} M cell updates/s incl. snapshots)`);
    console.log(`water ${s[0].water.toPrecision(8)} → ${s[s.length - 1].water.toPrecision(8)}; pollutant ${s[0].pollutant.toPrecision(8)} → ${s[s.length - 1].pollutant.toPrecision(8)}`);
  } finally {
    sim.destroy();
  }
}

export const sweCommand: CliCommand = {
  name: 'swe',
  usage: 'swe [--scenario S]',
  summary: 'shallow water + pollutant: dam-break | estuary | lake | beach, or your .npy bathymetry (see swe --help)',
  run,
};
