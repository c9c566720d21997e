/**
 * `butterfly swe`: runs a shallow-water scenario (or a problem read from .npy / raw files) to an end
 * time and writes PNG snapshots, .npy state arrays, the mass time series (CSV) and a summary (JSON).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from './commands.js';
import { ArgumentError } from '../errors.js';
import { fmt, type CommandSpec, type ParsedArgs } from './args.js';
import { progress } from './progress.js';
import { SCENARIOS, SCENARIO_T_END, scenario } from '../apps/shallow-water/scenarios.js';
import {
  defineSweProblem,
  type BoundaryKind,
  type SweBoundaries,
  type SweProblem,
} from '../apps/shallow-water/problem.js';
import { createSweSimulation, runSwe, type SweBackend } from '../apps/shallow-water/simulation.js';
import { renderField, SWE_FIELDS, type SweField } from '../apps/shallow-water/render.js';
import { encodePng } from '../util/png.js';
import { encodeNpy, parseNpy, parseRaw } from '../util/npy.js';

const NOTES = `Without --bathymetry, runs a built-in scenario; with it, the problem is read from files:
  butterfly swe --scenario dam-break|estuary|lake|beach [--n 400] [--t-end T] [--out DIR]
  butterfly swe --bathymetry H.npy --dx 25 (--surface 0 | --h h.npy) [--qx qx.npy --qy qy.npy] ...

Files: .npy (little-endian float32/float64, C order, shape (ny, nx)) or, with --raw, headerless
little-endian arrays of ny·nx values, row-major (x fastest). H is the depth of the bottom below the
reference level (positive down); land has H < 0. Times in seconds.
Writes to DIR (default out/swe): <field>_<k>.png, state_<k>_{h,qx,qy,hc}.npy, series.csv, summary.json.`;

const SPEC: CommandSpec = {
  name: 'swe',
  summary: 'shallow water with pollutant transport (first-order path-conservative Roe scheme), PNG snapshots',
  options: {
    '--scenario': { value: SCENARIOS.join('|'), help: 'built-in scenario (default dam-break)' },
    '--n': { value: 'N', help: 'scenario grid cells along its longer side (default 400)' },
    '--t-end': { value: 'T', help: "end time in seconds (default: the scenario's; required with --bathymetry)" },
    '--out': { value: 'DIR', help: 'output folder (default out/swe)' },
    '--backend': { value: 'auto|webgpu|cpu', help: 'where the solver runs (default auto)' },
    '--snapshots': { value: 'K', help: 'PNG/.npy snapshots after t = 0 (default 5)' },
    '--series': { value: 'P', help: 'points of the mass time series (default 50)' },
    '--fields': {
      value: 'list',
      help: `images to write, from ${SWE_FIELDS.join(',')} (default depth,speed,concentration)`,
    },
    '--no-npy': { help: 'do not write the state arrays' },
    '--cfl': { value: 'C', help: 'CFL number in (0, 1] (default 0.9)' },
    '--manning': { value: 'n', help: "Manning friction coefficient (default 0, or the scenario's)" },
    '--bathymetry': { value: 'H.npy', help: 'bottom depth below the reference level (positive down)' },
    '--dx': { value: 'metres', help: 'cell size in x (required with --bathymetry)' },
    '--dy': { value: 'metres', help: 'cell size in y (default dx)' },
    '--surface': { value: 'level', help: 'initial still-water surface level (or give --h)' },
    '--h': { value: 'h.npy', help: 'initial water depth' },
    '--qx': { value: 'qx.npy', help: 'initial discharge in x' },
    '--qy': { value: 'qy.npy', help: 'initial discharge in y' },
    '--concentration': { value: 'C.npy', help: 'initial pollutant concentration' },
    '--boundaries': { value: 'spec', help: 'wall | open | ..., or per side: xmin=tide,xmax=open,ymin=wall,ymax=wall' },
    '--tide': { value: 'spec', help: 'tidal constituents amplitude:period[:phase], comma-separated' },
    '--raw': { value: 'NX,NY,dtype', help: 'read headerless float32|float64 files of NX·NY values' },
  },
  notes: NOTES,
};

function readField(
  path: string,
  raw: { nx: number; ny: number; dtype: 'float32' | 'float64' } | null,
  name: string,
): { nx: number; ny: number; data: Float64Array } {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new ArgumentError(
      `--${name}`,
      path,
      `a readable file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (raw) return { nx: raw.nx, ny: raw.ny, data: parseRaw(bytes, raw.nx, raw.ny, raw.dtype, path) };
  const a = parseNpy(bytes, path);
  if (a.shape.length !== 2)
    throw new ArgumentError(`--${name} ${path}`, `shape (${a.shape.join(', ')})`, 'a 2-D array of shape (ny, nx)');
  return { ny: a.shape[0], nx: a.shape[1], data: a.data };
}

function problemFromFiles(args: ParsedArgs): SweProblem {
  let raw: { nx: number; ny: number; dtype: 'float32' | 'float64' } | null = null;
  const rawSpec = args.string('--raw');
  if (rawSpec) {
    const [nx, ny, dtype = 'float32'] = rawSpec.split(',');
    if (dtype !== 'float32' && dtype !== 'float64') throw new ArgumentError('--raw', rawSpec, 'NX,NY,float32|float64');
    if (!/^\d+$/.test(nx ?? '') || !/^\d+$/.test(ny ?? '') || Number(nx) < 1 || Number(ny) < 1)
      throw new ArgumentError('--raw', rawSpec, 'NX,NY,float32|float64');
    raw = { nx: Number(nx), ny: Number(ny), dtype };
  }
  const H = readField(args.string('--bathymetry')!, raw, 'bathymetry');
  const field = (name: string) => {
    const path = args.string(`--${name}`);
    if (!path) return undefined;
    const f = readField(path, raw, name);
    if (f.nx !== H.nx || f.ny !== H.ny)
      throw new ArgumentError(
        `--${name} ${path}`,
        `shape (${f.ny}, ${f.nx})`,
        `the bathymetry's shape (${H.ny}, ${H.nx})`,
      );
    return f.data;
  };
  const bspec = args.string('--boundaries', 'wall');
  let boundaries: Partial<SweBoundaries> | BoundaryKind;
  if (bspec.includes('=')) {
    boundaries = {};
    for (const part of bspec.split(',')) {
      const [side, kind] = part.split('=');
      (boundaries as Record<string, string>)[side] = kind;
    }
  } else boundaries = bspec as BoundaryKind;
  const tideSpec = args.string('--tide');
  const tide = tideSpec
    ? {
        constituents: tideSpec.split(',').map((c) => {
          const [amplitude, period, phase = 0] = c.split(':').map((t) => (t.trim() === '' ? NaN : Number(t)));
          if (![amplitude, period, phase].every(Number.isFinite) || !(period > 0))
            throw new ArgumentError(
              '--tide',
              tideSpec,
              'amplitude:period[:phase] terms (numbers, period > 0 s), comma-separated',
            );
          return { amplitude, period, phase };
        }),
      }
    : undefined;
  const surface = args.number('--surface');
  return defineSweProblem({
    nx: H.nx,
    ny: H.ny,
    dx: args.requiredNumber('--dx', { above: 0 }),
    dy: args.number('--dy'),
    bathymetry: H.data,
    h: field('h'),
    surface,
    qx: field('qx'),
    qy: field('qy'),
    concentration: field('concentration'),
    boundaries,
    tide,
    params: { cfl: args.number('--cfl', 0.9, { above: 0, max: 1 }), manning: args.number('--manning', 0, { min: 0 }) },
  });
}

async function run(args: ParsedArgs): Promise<void> {
  let problem: SweProblem;
  let name: string;
  let tEnd: number;
  if (args.has('--bathymetry')) {
    for (const o of ['--scenario', '--n'] as const)
      if (args.has(o))
        throw new ArgumentError(o, args.string(o), 'no value with --bathymetry (the problem comes from the files)');
    tEnd = args.requiredNumber('--t-end', { above: 0 });
    problem = problemFromFiles(args);
    name = 'custom';
  } else {
    for (const o of [
      '--dx',
      '--dy',
      '--surface',
      '--h',
      '--qx',
      '--qy',
      '--concentration',
      '--boundaries',
      '--tide',
      '--raw',
    ] as const) {
      if (args.has(o))
        throw new ArgumentError(
          o,
          args.string(o),
          'to be used with --bathymetry (it describes a problem read from files)',
        );
    }
    const which = args.choice('--scenario', SCENARIOS, 'dam-break');
    name = which;
    problem = scenario(which, args.int('--n', 400, { min: 8, max: 16384 }));
    problem.params.cfl = args.number('--cfl', problem.params.cfl, { above: 0, max: 1 });
    problem.params.manning = args.number('--manning', problem.params.manning, { min: 0 });
    tEnd = args.number('--t-end', SCENARIO_T_END[which], { above: 0 });
  }
  const out = args.string('--out', join('out', 'swe'));
  const fieldsText = args.string('--fields', 'depth,speed,concentration');
  const fields = fieldsText.split(',') as SweField[];
  for (const f of fields)
    if (!SWE_FIELDS.includes(f)) throw new ArgumentError('--fields', fieldsText, `names from ${SWE_FIELDS.join(',')}`);
  const backend = args.choice('--backend', ['auto', 'webgpu', 'cpu'] as const, 'auto') as SweBackend;
  const writeNpy = !args.flag('--no-npy');
  const snapshots = args.int('--snapshots', 5, { min: 0 });
  const seriesPoints = args.int('--series', 50, { min: 2 });
  mkdirSync(out, { recursive: true });

  const sim = await createSweSimulation(problem, { backend });
  console.log(
    `swe: ${name} ${problem.nx}×${problem.ny}, dx ${problem.dx}, t ∈ [0, ${tEnd}] s on ${sim.backend} (${sim.precision}) → ${out}`,
  );
  const bar = progress('swe');
  try {
    const tag = (k: number) => String(k).padStart(3, '0');
    const result = await runSwe(sim, {
      tEnd,
      snapshots,
      seriesPoints,
      onSnapshot: (state, k) => {
        for (const f of fields) {
          const img = renderField(problem, state, f, f === 'concentration' ? { min: 0, max: 1 } : {});
          writeFileSync(join(out, `${f}_${tag(k)}.png`), encodePng(img.width, img.height, img.rgb));
        }
        if (writeNpy) {
          for (const key of ['h', 'qx', 'qy', 'hc'] as const)
            writeFileSync(join(out, `state_${tag(k)}_${key}.npy`), encodeNpy([problem.ny, problem.nx], state[key]));
        }
      },
      onProgress: (fr, t, steps) => bar.update(fr, `t = ${fmt(t, 4)} s, ${steps} steps`),
    });
    bar.done();
    const s = result.series;
    writeFileSync(
      join(out, 'series.csv'),
      'time,steps,water,pollutant\n' + s.map((p) => `${p.time},${p.steps},${p.water},${p.pollutant}`).join('\n') + '\n',
    );
    const cells = problem.nx * problem.ny;
    const summary = {
      scenario: name,
      nx: problem.nx,
      ny: problem.ny,
      dx: problem.dx,
      tEnd,
      backend: sim.backend,
      precision: sim.precision,
      steps: result.final.steps,
      wallSeconds: result.wallSeconds,
      cellUpdatesPerSecond: (cells * result.final.steps) / result.wallSeconds,
      water: { initial: s[0].water, final: s[s.length - 1].water },
      pollutant: { initial: s[0].pollutant, final: s[s.length - 1].pollutant },
    };
    writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    console.log(
      `done: ${result.final.steps} steps in ${result.wallSeconds.toFixed(2)} s (${(summary.cellUpdatesPerSecond / 1e6).toFixed(1)} M cell updates/s incl. snapshots)`,
    );
    console.log(
      `water ${s[0].water.toPrecision(8)} → ${s[s.length - 1].water.toPrecision(8)}; pollutant ${s[0].pollutant.toPrecision(8)} → ${s[s.length - 1].pollutant.toPrecision(8)}`,
    );
  } finally {
    bar.done();
    sim.destroy();
  }
}

export const sweCommand: CliCommand = {
  spec: SPEC,
  usageWithoutArgs: true,
  usesGpu: (a) => a.string('--backend') !== 'cpu',
  run,
};
