/**
 * Worker threads start whatever flags the process was started with: process-wide V8 flags (which a worker's explicit
 * execArgv may not hold), string input (node -e, --input-type, stdin), both together. Each case is a child Node process
 * (of the built package, dist/) running a threaded FFT and comparing it with one thread, bit for bit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const entry = pathToFileURL(resolve('dist/src/index.js')).href;
const script = `
import * as b from ${JSON.stringify(entry)};
const n = 4096, batch = 64;
const x = Float32Array.from({ length: 2 * n * batch }, (_, i) => Math.sin(i));
const many = await b.fft(x, { shape: [batch, n], backend: 'cpu', threads: 2 });
const one = await b.fft(x, { shape: [batch, n], backend: 'cpu', threads: 1 });
await b.disposeCpuWorkers();
console.log(one.every((v, i) => Object.is(v, many[i])) ? 'same' : 'different');
`;

test('worker threads start under process-wide flags and string input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bf-flags-'));
  const file = join(dir, 'threads.mjs');
  writeFileSync(file, script);
  const cases: [string, string[]][] = [
    ['--max-old-space-size, a file', ['--max-old-space-size=1024', '--stack-size=1500', file]],
    ['--max-old-space-size, stdin', ['--max-old-space-size=1024', '--stack-size=1500', '--input-type=module', '-']],
    [
      '--max-old-space-size, -e',
      ['--max-old-space-size=1024', '--stack-size=1500', '--input-type=module', '-e', script],
    ],
    ['-e only', ['--input-type=module', '-e', script]],
  ];
  for (const [what, args] of cases) {
    const r = spawnSync(process.execPath, args, {
      encoding: 'utf8',
      timeout: 60_000,
      input: args.at(-1) === '-' ? script : undefined,
    });
    assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stderr}`);
    assert.equal(r.stdout.trim(), 'same', `${what}: ${r.stdout}\n${r.stderr}`);
  }
  rmSync(dir, { recursive: true, force: true });
});
