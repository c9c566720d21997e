/**
 * The `butterfly` commands share one argument parser: every command has --help (and does nothing else with
 * it), undeclared options and bad values are one-line ArgumentErrors naming the flag and the text given,
 * progress goes to stderr only on a terminal, and Dawn's harmless start-up warnings are filtered out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, parseArgs, type CommandSpec } from '../../src/cli/args.js';
import { dawnNoiseFilter } from '../../src/cli/main.js';
import { parseNpy } from '../../src/util/npy.js';
import { DAM_BREAK_POLLUTANT, scenario } from '../../src/apps/shallow-water/scenarios.js';
import { renderField } from '../../src/apps/shallow-water/render.js';
import { testGpu } from '../helpers/gpu.js';
import { cpuFma } from '../../src/planner/cpu-features.js';

function cli(
  args: string[],
  env: Record<string, string> = {},
  timeout = 60_000,
): { status: number | null; stdout: string; stderr: string; ms: number } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], {
    encoding: 'utf8',
    timeout,
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
}

const COMMANDS = ['info', 'demo', 'plan', 'heat', 'edm', 'swe', 'sfft'];

const SPEC: CommandSpec = {
  name: 'x',
  summary: 'test',
  positionals: { synopsis: '<n>', max: 1 },
  options: {
    '--grid': { value: 'M', help: 'grid' },
    '--t': { value: 'T', help: 'time' },
    '--axes': { value: 'list', help: 'axes' },
    '--mode': { value: 'a|b', help: 'mode' },
    '--json': { help: 'flag' },
  },
};

function argError(f: () => unknown, message: RegExp): void {
  assert.throws(f, (e: Error) => e.name === 'ArgumentError' && message.test(e.message), message.source);
}

test('parser: values, forms, bounds, and errors that name the flag and the text', () => {
  const p = parseArgs(SPEC, ['64', '--grid', '12', '--t=0.5', '--json', '--axes', '-1']);
  assert.equal(p.help, false);
  assert.deepEqual(p.positionals, ['64']);
  assert.equal(p.int('--grid', 1, { min: 1 }), 12);
  assert.equal(p.number('--t', 1, { above: 0 }), 0.5);
  assert.equal(p.flag('--json'), true);
  assert.equal(p.string('--axes'), '-1', 'a negative number is a value, not an option');
  assert.equal(p.choice('--mode', ['a', 'b'] as const, 'b'), 'b');
  assert.throws(() => p.int('--nope', 1), /undeclared/, 'reading an undeclared option is a programming error');

  argError(
    () => parseArgs(SPEC, ['--grid', 'abc']).int('--grid', 1, { min: 1 }),
    /^--grid: expected an integer ≥ 1, got "abc"$/,
  );
  argError(() => parseArgs(SPEC, ['--grid', '1.5']).int('--grid', 1), /^--grid: expected an integer, got "1.5"$/);
  argError(() => parseArgs(SPEC, ['--t', '0']).number('--t', 1, { above: 0 }), /^--t: expected a number > 0, got "0"$/);
  argError(() => parseArgs(SPEC, ['--t', '1e400']).number('--t', 1), /^--t: expected a number, got "1e400"$/);
  argError(
    () => parseArgs(SPEC, ['--mode', 'c']).choice('--mode', ['a', 'b'] as const, 'a'),
    /^--mode: expected a or b, got "c"$/,
  );
  argError(
    () => parseArgs(SPEC, ['--gird', '3']),
    /^option: expected one of --grid, --t, --axes, --mode, --json, --help .*got "--gird"$/,
  );
  argError(() => parseArgs(SPEC, ['--grid']), /^--grid: expected a value after it \(M\), got undefined$/);
  argError(() => parseArgs(SPEC, ['--grid', '--json']), /^--grid: expected a value after it/);
  argError(() => parseArgs(SPEC, ['--json=yes']), /^--json: expected no value \(it is a flag\), got "yes"$/);
  argError(
    () => parseArgs(SPEC, ['--grid', '1', '--grid', '2']),
    /^--grid: expected at most one value \(given twice\), got "2"$/,
  );
  argError(() => parseArgs(SPEC, ['1', '2']), /^argument: expected at most 1 <n>/);
  argError(
    () => parseArgs({ ...SPEC, positionals: undefined }, ['1']),
    /^argument: expected options of the form --name value/,
  );

  // --help wins over everything else on the line, even options that would be errors.
  assert.equal(parseArgs(SPEC, ['--bogus', '-h']).help, true);

  assert.deepEqual(parseArgs(SPEC, ['--axes', '1-3,7']).intList('--axes', { min: 1, max: 7 }), [1, 2, 3, 7]);
  argError(
    () => parseArgs(SPEC, ['--axes', '1-9']).intList('--axes', { min: 1, max: 7 }),
    /^--axes: expected integers ≥ 1 and ≤ 7, .*got "1-9"$/,
  );
  argError(() => parseArgs(SPEC, ['--axes', '3-1']).intList('--axes'), /^--axes: .*got "3-1"$/);
  argError(() => parseArgs(SPEC, ['--axes', '1,,2']).intList('--axes'), /^--axes: .*got "1,,2"$/);
});

test('numbers for people: integers as they are, others to 4 significant digits', () => {
  assert.equal(fmt(128), '128');
  assert.equal(fmt(0.005000000000000001), '0.005');
  assert.equal(fmt(2900.123456), '2900');
  assert.equal(fmt(1 / 3), '0.3333');
  assert.equal(fmt(0.000546123, 3), '5.46e-4');
  assert.equal(fmt(1.5e-7), '1.5e-7');
  assert.equal(fmt(NaN), 'NaN');
});

test("Dawn's start-up warnings are dropped, everything else passes, progress redraws pass at once", () => {
  const dawn =
    "Warning: Couldn't load Vulkan: libvulkan.so.1: cannot open shared object file: No such file or directory\n" +
    '    at operator() (/home/runner/work/node-webgpu/node-webgpu/third_party/dawn/src/dawn/native/vulkan/BackendVk.cpp:368)\n' +
    '\n' +
    'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 90 to 16 to fit dynamic offset allocation limit.\n' +
    'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 80 to 16 to fit dynamic offset allocation limit.\n';
  const other = 'ArgumentError: --grid: expected an integer, got "x"\n\nWarning: something else\n';
  const text = dawn + '\r[###...]  10% t = 0.1 s' + '\r[######.]  90% t = 0.9 s' + '\n' + other;
  // Every way of cutting the stream into chunks gives the same output.
  for (const size of [1, 7, 64, text.length]) {
    let out = '';
    const f = dawnNoiseFilter((s) => (out += s));
    const redraws: number[] = [];
    for (let i = 0; i < text.length; i += size) {
      f.push(text.slice(i, i + size));
      if (out.includes('90%') && !redraws.length) redraws.push(i);
    }
    f.end();
    assert.equal(out, '\r[###...]  10% t = 0.1 s\r[######.]  90% t = 0.9 s\n' + other, `chunks of ${size}`);
    // The 90% redraw came out before the newline that ends it arrived.
    assert.ok(redraws[0] < text.indexOf('90%') + 20 + size, `chunks of ${size}: progress held back`);
  }
});

test('every command: --help prints its options at once and runs nothing; unknown options are rejected', () => {
  const main = cli(['--help']);
  assert.equal(main.status, 0);
  for (const c of COMMANDS) assert.match(main.stdout, new RegExp(`^ {2}${c} +\\S`, 'm'), `${c} listed`);
  for (const c of COMMANDS) {
    for (const args of c === 'edm'
      ? [
          [c, '--help'],
          [c, '-h'],
          ['help', c],
        ]
      : [[c, '--help']]) {
      const r = cli(args, {}, 20_000);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, '', `${args.join(' ')}: stderr`);
      assert.match(r.stdout, new RegExp(`^usage: butterfly ${c}`), args.join(' '));
      assert.match(r.stdout, /--help, -h +this text/);
      // The help of `edm` once ran the whole benchmark: it must come back as fast as Node starts.
      assert.ok(r.ms < 10_000, `${args.join(' ')} took ${r.ms} ms`);
    }
    const bad = cli([c, '--frobnicate', '3'], {}, 20_000);
    assert.equal(bad.status, 1, `${c} --frobnicate: ${bad.stdout}`);
    assert.match(
      bad.stderr.trim(),
      new RegExp(`^ArgumentError: option: expected one of .*\\(butterfly ${c} --help\\), got "--frobnicate"$`),
    );
  }
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^unknown command "frobnicate"/);
});

test('bad values: one line naming the flag and the text, before any work', () => {
  const cases: [string[], RegExp][] = [
    [['heat', '--grid', 'abc'], /^ArgumentError: --grid: expected an integer ≥ 3 and ≤ 8192, got "abc"$/],
    [['heat', '--backend', 'gpu'], /^ArgumentError: --backend: expected auto, webgpu or cpu, got "gpu"$/],
    [['heat', '--t-end', '-1'], /^ArgumentError: --t-end: expected a number > 0, got "-1"$/],
    [['edm', '--cases', '0-9'], /^ArgumentError: --cases: expected integers ≥ 1 and ≤ 7, .*got "0-9"$/],
    [['edm', '--check', 'most'], /^ArgumentError: --check: expected all, some or none, got "most"$/],
    [['swe', '--n', 'big'], /^ArgumentError: --n: expected an integer ≥ 8 and ≤ 16384, got "big"$/],
    [
      ['swe', '--scenario', 'flood'],
      /^ArgumentError: --scenario: expected dam-break, estuary, lake or beach, got "flood"$/,
    ],
    [
      ['swe', '--fields', 'depth,colour'],
      /^ArgumentError: --fields: expected names from depth,surface,speed,concentration, got "depth,colour"$/,
    ],
    [['swe', '--dx', '5'], /^ArgumentError: --dx: expected to be used with --bathymetry/],
    [
      ['swe', '--bathymetry', 'H.npy', '--dx', '5'],
      /^ArgumentError: --t-end: expected a number > 0 \(required here\), got undefined$/,
    ],
    [
      ['swe', '--bathymetry', 'H.npy', '--dx', '5', '--t-end', '9'],
      /^ArgumentError: --bathymetry: expected a readable file \(ENOENT\), got "H.npy"$/,
    ],
    [['sfft', '--k', '1.5'], /^ArgumentError: --k: expected an integer ≥ 1, got "1.5"$/],
    [['sfft', '--mode', 'fast'], /^ArgumentError: --mode: expected auto, exact or robust, got "fast"$/],
    [
      ['sfft', '--input', 'nowhere.npy', '--backend', 'cpu'],
      /^ArgumentError: --input: expected a readable file \(ENOENT\), got "nowhere.npy"$/,
    ],
    [['demo', '--sizes', '8,x'], /^ArgumentError: --sizes: expected integers ≥ 1 .*got "8,x"$/],
  ];
  for (const [args, message] of cases) {
    const r = cli(args, {}, 30_000);
    assert.equal(r.status, 1, `${args.join(' ')}: status (stdout ${r.stdout})`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${args.join(' ')}: one line, got\n${r.stderr}`);
    assert.match(lines[0], message, args.join(' '));
  }
  // swe without any argument: its usage (it would otherwise write files with every default).
  const swe = cli(['swe']);
  assert.equal(swe.status, 0);
  assert.match(swe.stdout, /^usage: butterfly swe/);
});

test('dam-break: the concentration images show the pollutant, and it is carried by the flow', () => {
  // The rendering path: the initial concentration image is not blank, both the dam's water and the patch.
  const p = scenario('dam-break', 40);
  const state = { nx: p.nx, ny: p.ny, time: 0, steps: 0, h: p.h, qx: p.qx, qy: p.qy, hc: p.hc };
  const img = renderField(p, state, 'concentration', { min: 0, max: 1 });
  const clean = img.rgb.slice(0, 3).join();
  let coloured = 0;
  for (let i = 0; i < img.width * img.height; i++) if (img.rgb.slice(3 * i, 3 * i + 3).join() !== clean) coloured++;
  const polluted = Array.from(p.hc).filter((v) => v > 0).length;
  assert.equal(coloured, polluted, 'one coloured pixel per polluted cell');
  assert.ok(polluted > 20, `${polluted} polluted cells`);

  // The CLI run on the CPU: pollutant conserved, the patch pushed outward and spread.
  const out = mkdtempSync(join(tmpdir(), 'butterfly-swe-'));
  try {
    const r = cli([
      'swe',
      '--n',
      '40',
      '--t-end',
      '0.5',
      '--backend',
      'cpu',
      '--snapshots',
      '2',
      '--fields',
      'concentration',
      '--out',
      out,
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'no progress bar when stderr is not a terminal');
    const read = (k: number, f: string) =>
      parseNpy(new Uint8Array(readFileSync(join(out, `state_00${k}_${f}.npy`)))).data;
    const n = 40;
    const { x: px, y: py, radius } = DAM_BREAK_POLLUTANT.patch;
    const patchStats = (k: number) => {
      const hc = read(k, 'hc');
      const h = read(k, 'h');
      let mass = 0,
        r1 = 0,
        cells = 0,
        total = 0;
      for (let i = 0; i < n * n; i++) {
        total += hc[i];
        const x = -5 + ((i % n) + 0.5) * (10 / n),
          y = -5 + (Math.floor(i / n) + 0.5) * (10 / n);
        // The patch's neighbourhood, away from the dam's own pollutant.
        if (Math.hypot(x - px, y - py) > 2 * radius || Math.hypot(x, y) < 1.2) continue;
        mass += hc[i];
        r1 += Math.hypot(x, y) * hc[i];
        if (hc[i] / h[i] > 0.02) cells++;
      }
      return { total, radius: r1 / mass, cells };
    };
    const a = patchStats(0);
    const b = patchStats(1);
    assert.ok(Math.abs(b.total - a.total) <= 1e-9 * a.total, `pollutant ${a.total} → ${b.total}`);
    assert.ok(b.radius > a.radius + 0.1, `patch centre of mass moved outward: ${a.radius} → ${b.radius}`);
    assert.ok(b.cells > a.cells, `patch spread: ${a.cells} → ${b.cells} cells`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('progress on a terminal only; no Dawn warnings on stderr', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'butterfly-swe-'));
  try {
    const args = [
      'swe',
      '--n',
      '24',
      '--t-end',
      '0.2',
      '--backend',
      'cpu',
      '--snapshots',
      '2',
      '--no-npy',
      '--fields',
      'depth',
      '--out',
      out,
    ];
    const tty = cli(args, { BUTTERFLY_STDERR_TTY: '1' });
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stderr, /\rswe \[[#.]+\] +\d+% t = /);
    const pipe = cli(args);
    assert.equal(pipe.stderr, '');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  if (!(await testGpu())) return t.skip('no WebGPU adapter: Dawn not started');
  const info = cli(['info']);
  assert.equal(info.status, 0, info.stderr);
  assert.match(info.stdout, /^auto: (CPU engine|WebGPU) — /);
  assert.match(info.stdout, /^CPU engine: WebAssembly /m);
  // The child process has relaxed SIMD where this one has (cpu-features.ts turns it on from Node 20.16).
  assert.match(
    info.stdout,
    cpuFma() ? /^CPU engine: .*, fused multiply-add \(relaxed SIMD\),/m : /no fused multiply-add/,
  );
  assert.match(info.stdout, /^backend: webgpu/m);
  assert.equal(info.stderr, '', 'Dawn start-up warnings reached stderr');
  const shown = cli(['info'], { BUTTERFLY_DAWN_WARNINGS: '1' });
  assert.equal(shown.status, 0);
  assert.match(shown.stdout, /^backend: webgpu/m);
});
