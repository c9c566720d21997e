/**
 * The published package, as a user gets it: `npm pack`, install the tarball into an empty project, compile a
 * consumer under `tsc --strict` (no skipLibCheck: our .d.ts files must bring their own WebGPU types), run
 * it on the CPU backend against a direct DFT, and require() it from CommonJS. Needs the build in dist/ and
 * npm (the registry or its cache, for webgpu, @webgpu/types, typescript and @types/node).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve('.');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

const CONSUMER = `import { fft, ifft, rfft, dct, convolve, createFftPlan, ArgumentError, type GpuContext, type FftPlan } from 'butterfly-fft';

// The results have the input's array type.
const n = 16;
const x = new Float32Array(2 * n).map((_, i) => Math.sin(1.3 * i) + 0.25 * Math.cos(0.7 * i * i));
const X: Float32Array = await fft(x, { backend: 'cpu' });
const y: Float32Array = await ifft(X, { backend: 'cpu' });
const X64: Float64Array = await fft(Float64Array.from(x), { backend: 'cpu' });
const R: Float32Array = await rfft(new Float32Array(n).fill(1), { backend: 'cpu' });
const C: Float64Array = await dct(new Float64Array(n).fill(1), { backend: 'cpu' });
const conv: Float32Array = (await convolve(new Float32Array([1, 2, 3]), new Float32Array([1, 1]), { backend: 'cpu' })).data;
const plan: FftPlan = await createFftPlan({ n, backend: 'cpu' });
const P: Float32Array = await plan.execute(x);
plan.destroy();

// WebGPU types come with the package's declarations.
function describe(ctx: GpuContext | null): string {
  const device: GPUDevice | undefined = ctx?.device;
  const buffer: GPUBuffer | undefined = device?.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
  buffer?.destroy();
  return device ? 'gpu' : 'none';
}

let error = '';
try {
  await fft(new Float32Array(3), { backend: 'cpu' });
} catch (e) {
  if (e instanceof ArgumentError) error = e.name;
}

console.log(JSON.stringify({ x: Array.from(x), X: Array.from(X), y: Array.from(y), X64: Array.from(X64), R: Array.from(R), C: Array.from(C),
  conv: Array.from(conv), P: Array.from(P), gpu: describe(null), error }));
`;

test('npm pack → install → tsc --strict → run on the CPU, and require() from CommonJS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'butterfly-pack-'));
  try {
    execFileSync(npm, ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote no tarball');
    const listing = execFileSync('tar', ['tzf', join(dir, tarball)], { encoding: 'utf8' }).split('\n');
    for (const f of [
      'package/LICENSE',
      'package/cjs/index.cjs',
      'package/dist/src/index.js',
      'package/dist/src/index.d.ts',
      'package/dist/src/index.js.map',
    ]) {
      assert.ok(listing.includes(f), `${f} missing from the tarball`);
    }
    assert.ok(
      !listing.some((f) => f.startsWith('package/dist/test/') || f.startsWith('package/src/')),
      'tests or sources packed',
    );

    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync(
      npm,
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        join(dir, tarball),
        `typescript@${version('typescript')}`,
        `@types/node@${version('@types/node')}`,
      ],
      { cwd: app, encoding: 'utf8', timeout: 120_000 },
    );
    // Source maps carry their sources (the .ts files are not in the package).
    const map = JSON.parse(readFileSync(join(app, 'node_modules/butterfly-fft/dist/src/api/fft.js.map'), 'utf8')) as {
      sourcesContent?: string[];
    };
    assert.match(map.sourcesContent?.[0] ?? '', /export function fft\(/);

    writeFileSync(join(app, 'main.ts'), CONSUMER);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], {
      cwd: app,
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, `tsc --strict in the consumer:\n${tsc.stdout}${tsc.stderr}`);

    const run = spawnSync(process.execPath, [join(app, 'out/main.js')], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const r = JSON.parse(run.stdout) as Record<string, number[]> & { gpu: string; error: string };
    const n = 16;
    // Against a direct DFT in float64.
    let num = 0,
      den = 0;
    for (let k = 0; k < n; k++) {
      let re = 0,
        im = 0;
      for (let t = 0; t < n; t++) {
        const a = (-2 * Math.PI * k * t) / n;
        re += r.x[2 * t] * Math.cos(a) - r.x[2 * t + 1] * Math.sin(a);
        im += r.x[2 * t] * Math.sin(a) + r.x[2 * t + 1] * Math.cos(a);
      }
      num += (r.X[2 * k] - re) ** 2 + (r.X[2 * k + 1] - im) ** 2 + (r.P[2 * k] - re) ** 2 + (r.P[2 * k + 1] - im) ** 2;
      den += 2 * (re * re + im * im);
    }
    assert.ok(Math.sqrt(num / den) < 1e-6, `fft rel. error ${Math.sqrt(num / den)}`);
    const back = Math.max(...r.y.map((v, i) => Math.abs(v - r.x[i])));
    assert.ok(back < 1e-5, `ifft(fft(x)) − x: ${back}`);
    assert.ok(Math.max(...r.X64.map((v, i) => Math.abs(v - r.X[i]))) < 1e-5);
    assert.deepEqual(r.R.slice(0, 4), [n, 0, 0, 0]);
    assert.ok(
      Math.abs(r.C[0] - 2 * n) < 1e-12 && r.C.slice(1).every((v) => Math.abs(v) < 1e-12),
      `dct of ones: ${r.C}`,
    );
    assert.deepEqual(r.conv, [1, 3, 5, 3]);
    assert.equal(r.gpu, 'none');
    assert.equal(r.error, 'ArgumentError');

    // CommonJS: require() works where Node can load ES modules that way (Node ≥ 20.19), and otherwise fails
    // with a message that says to import the package.
    writeFileSync(
      join(app, 'req.cjs'),
      "const b = require('butterfly-fft'); console.log(typeof b.fft, typeof b.createFftPlan);",
    );
    const req = spawnSync(process.execPath, ['req.cjs'], { cwd: app, encoding: 'utf8' });
    const [major, minor] = process.versions.node.split('.').map(Number);
    if ((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23) {
      assert.equal(req.status, 0, req.stderr);
      assert.equal(req.stdout.trim(), 'function function');
    }
    const old = spawnSync(process.execPath, ['--no-experimental-require-module', 'req.cjs'], {
      cwd: app,
      encoding: 'utf8',
    });
    assert.notEqual(old.status, 0);
    assert.match(old.stderr, /butterfly-fft is an ES module package, and this Node cannot require\(\) ES modules/);
    assert.match(old.stderr, /await import\('butterfly-fft'\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
