#!/usr/bin/env node
/**
 * Runs every *.test.js under the given folders (default dist/test), several files at once, each in its own
 * `node --test` process, and prints each test as it finishes, prefixed with its file. Node 20's own
 * --test-concurrency holds back the results of all but one running file until that file ends, so a long
 * file made the others look silent; here every file's lines come through as they are written.
 *
 * Files start longest first (durations of the last run, kept in dist/.test-times.json; files not timed yet
 * go first, GPU ones before the others), so the long ones do not end up alone at the tail. The exit status
 * is 1 when any file failed.
 *
 *   node scripts/run-tests.mjs [folder or file ...]
 *   BUTTERFLY_TEST_JOBS=n   files at once (default: 2, or up to 4 on machines with more cores)
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const TIMES = join(ROOT, 'dist', '.test-times.json');
const args = process.argv.slice(2);
const roots = (args.length ? args : ['dist/test']).map((a) => resolve(a));
const jobs = Math.max(1, Number(process.env.BUTTERFLY_TEST_JOBS) || Math.min(4, Math.max(2, availableParallelism())));

function collect(path, out) {
  if (!existsSync(path)) throw new Error(`no such file or folder: ${path}`);
  if (statSync(path).isDirectory()) {
    for (const e of readdirSync(path).sort()) collect(join(path, e), out);
  } else if (/\.test\.m?js$/.test(path)) out.push(path);
  return out;
}

const files = roots.flatMap((r) => collect(r, []));
if (files.length === 0) {
  console.error(`no *.test.js files under ${roots.join(', ')}`);
  process.exit(1);
}
let last = {};
try {
  last = JSON.parse(readFileSync(TIMES, 'utf8'));
} catch {
  // First run: no durations yet.
}
const name = (f) => relative(ROOT, f);
// Without timings (a fresh checkout), files that use the GPU go first, larger ones first: on the software
// adapter their shader compiles dominate.
const guess = (f) => {
  const text = readFileSync(f, 'utf8');
  return 1e9 * Number(/testGpu|acquireGpu|webgpu/i.test(text)) + text.length;
};
const weight = new Map(files.map((f) => [f, last[name(f)] ?? 1e12 + guess(f)]));
const order = [...files].sort((a, b) => weight.get(b) - weight.get(a) || (a < b ? -1 : 1));

// Dawn prints these on every device creation; they say nothing about the tests.
const NOISE = [
  /^Warning: Couldn't load Vulkan/,
  /^\s+at operator\(\) \(.*BackendVk\.cpp/,
  /artificially reduced from \d+ to \d+/,
];
const t0 = Date.now();
const results = [];
const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
const children = new Set();

function runFile(file) {
  const label = name(file)
    .replace(/^dist\/test\//, '')
    .replace(/\.test\.m?js$/, '');
  const start = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const failures = [];
    const onLines = (stream) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const l of lines) emit(l);
      });
      stream.on('end', () => rest && emit(rest));
    };
    const emit = (line) => {
      if (line.trim() === '' || NOISE.some((re) => re.test(line))) return;
      const m = /^ℹ (tests|pass|fail|skipped|todo|cancelled) (\d+)$/.exec(line);
      if (m) {
        counts[m[1]] += Number(m[2]);
        return;
      }
      if (/^ℹ (suites|duration_ms) /.test(line)) return;
      if (/^\s*✖/.test(line)) failures.push(line.trim());
      process.stdout.write(`[${label}] ${line}\n`);
    };
    onLines(child.stdout);
    onLines(child.stderr);
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = (Date.now() - start) / 1000;
      const ok = code === 0;
      process.stdout.write(
        `[${label}] ${ok ? '✔' : '✖'} file finished in ${seconds.toFixed(1)} s${ok ? '' : ` (exit ${code ?? signal})`}\n`,
      );
      results.push({ file: name(file), label, seconds, ok, failures });
      done();
    });
  });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const c of children) c.kill(sig);
    process.exit(130);
  });
}

console.log(`${files.length} test files, ${jobs} at a time`);
const queue = [...order];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    while (queue.length) await runFile(queue.shift());
  }),
);

const wall = (Date.now() - t0) / 1000;
const times = { ...last };
for (const r of results) times[r.file] = Math.round(r.seconds * 10) / 10;
try {
  writeFileSync(TIMES, JSON.stringify(times, null, 1) + '\n');
} catch {
  // A read-only checkout still gets its results.
}
console.log('\nslowest files:');
for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 10))
  console.log(`  ${r.seconds.toFixed(1).padStart(7)} s  ${r.label}`);
const failed = results.filter((r) => !r.ok);
for (const r of failed)
  console.log(
    `\n✖ ${r.label}:\n  ${r.failures.join('\n  ') || '(the file exited with an error; see its lines above)'}`,
  );
console.log(
  `\n${counts.tests} tests in ${files.length} files: ${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped, ` +
    `${counts.todo} todo, ${counts.cancelled} cancelled; ${failed.length} files failed; ${(wall / 60).toFixed(1)} min with ${jobs} at a time`,
);
process.exit(failed.length ? 1 : 0);
