/**
 * `butterfly plan`: the CLI prints the WebGPU planner's recipes for lengths and N-D shapes as plain data,
 * rejects bad arguments with one-line errors, and plans exactly what WebGpuFftNd.create runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chooseStepPlan } from '../../src/cli/plan.js';
import { WebGpuFftNd } from '../../src/backends/webgpu/fft-nd.js';
import { planFftNd, type FftNdDescriptor } from '../../src/planner/fft-nd.js';
import type { WebGpuFft } from '../../src/backends/webgpu/fft.js';
import { testGpu } from '../helpers/gpu.js';

/**
 * Runs `node dist/src/cli/main.js plan … --default-limits` from the repository root (the tests run from
 * dist/test/cli): the fixed desktop device model, whatever adapter this machine has.
 */
function plan(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return planRaw(...args, '--default-limits');
}

function planRaw(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', 'plan', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const totalBytes = (stdout: string) => Number(/total global-memory bytes moved: (\d+)/.exec(stdout)?.[1]);

test('16384 in one workgroup: the rounds exchange, its block and its stages', () => {
  const r = plan('16384');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /passes over global memory: 1;/);
  assert.match(r.stdout, /mapping \[b \| l \| p\] = \[1 \| 512 \| 32\], workgroup size 512/);
  assert.match(r.stdout, /exchange: rounds \(fixed positions t \+ 512·σ; one block of 4096 values a round\)/);
  assert.match(r.stdout, /workgroup memory 32768 B/);
  assert.match(r.stdout, /stage 3: radix 32, stride 512, 1 butterfly per invocation/);
});

test('1-D length: the passes, their operator strings and the bytes moved', () => {
  const r = plan('4096');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^limits of the default device model .*\nn = 4096, batch = 1 \(workgroup storage 49152 B, 1024 invocations\)/,
  );
  assert.match(r.stdout, /\nnotation \(digit positions 1-based.*\n {2}B\(i\) .*\n {2}S\(i,j\) /s);
  assert.match(r.stdout, /passes over global memory: 1; bytes moved per problem: 65536/);
  assert.match(r.stdout, /pass 0: 4096-point sub-transform over whole problem/);
  assert.match(r.stdout, /operator string: /);
  assert.match(r.stdout, /mapping \[b \| l \| p\] = /);
  assert.match(r.stdout, /stage 2: radix 16, stride 256/);
  assert.equal(totalBytes(r.stdout), 65536);

  // Beyond one workgroup: several passes, each named, bytes per pass for the whole batch.
  const long = plan('1048576', '--batch', '2');
  assert.equal(long.status, 0, long.stderr);
  const passes = Number(/passes over global memory: (\d+)/.exec(long.stdout)?.[1]);
  assert.ok(passes >= 2, long.stdout);
  for (let i = 0; i < passes; i++)
    assert.match(long.stdout, new RegExp(`pass ${i}: \\d+-point sub-transform over columns`));
  assert.equal(totalBytes(long.stdout), 2 * 16 * 1048576 * passes);

  // A smaller device model gives a different recipe.
  const small = plan('4096', '--storage', '16384', '--invocations', '256');
  assert.equal(small.status, 0, small.stderr);
  assert.match(small.stdout, /workgroup storage 16384 B, 256 invocations/);
});

test('2-D shape: one recipe per axis in the order the driver runs them, and a bytes total', () => {
  const r = plan('1024x1024');
  assert.equal(r.status, 0, r.stderr);
  const steps = [...r.stdout.matchAll(/^step (\d+): axis (\d+) \(length (\d+), c2c\)/gm)].map((m) => [
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
  ]);
  // Complex axes run last axis first.
  assert.deepEqual(steps, [
    [1, 1, 1024],
    [2, 0, 1024],
  ]);
  assert.match(r.stdout, /layout: rows: batch 1024, stride 1, distance 1024/);
  assert.match(r.stdout, /layout: column blocks: 1 block .* of 1024 neighbouring columns/);
  assert.equal(
    (
      r.stdout.match(
        /^ {2}\d+ pass(es)?(?: \+ post-processing kernel)?; radices [\d·| ]+; mapping \[b\|l\|p\] .*; workgroup memory [\d| ]+ B; bytes moved \d+$/gm,
      ) ?? []
    ).length,
    2,
  );
  // Two single-pass axes: each reads and writes the 8 MiB array once.
  assert.equal(totalBytes(r.stdout), 2 * 2 * 1024 * 1024 * 8);

  // --axes picks (and orders) the axes; --batch adds an untransformed leading dimension.
  const one = plan('64x512', '--axes', '0', '--batch', '3');
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /batch 3 \(leading dimension\)/);
  assert.equal([...one.stdout.matchAll(/^step \d+: axis 0 \(length 64, c2c\)/gm)].length, 1);
  assert.doesNotMatch(one.stdout, /^step 2/m);
  assert.equal(totalBytes(one.stdout), 2 * 3 * 64 * 512 * 8);
});

test('r2c: the half-length packed recipe along the real axis, first; c2r last', () => {
  const r = plan('4096', '--kind', 'r2c');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /step 1: axis 0 \(length 4096, r2c, 4096 reals → 2049 complex\)/);
  assert.match(r.stdout, /real: 4096 reals packed as 2048 complex values/);
  assert.match(r.stdout, /pass 0: 2048-point sub-transform/);
  assert.match(r.stdout, /input 4096 f32 \(16384 B\) → output 2049 complex64 \(16392 B\)/);
  assert.equal(totalBytes(r.stdout), 4096 * 4 + 2049 * 8);

  const nd = plan('64x512x512', '--axes', '1,2', '--kind', 'r2c');
  assert.equal(nd.status, 0, nd.stderr);
  assert.match(nd.stdout, /step 1: axis 2 \(length 512, r2c, 512 reals → 257 complex\); 64x512x512 → 64x512x257/);
  assert.match(nd.stdout, /step 2: axis 1 \(length 512, c2c\); 64x512x257 → 64x512x257/);

  const inv = plan('256x1000', '--kind', 'c2r');
  assert.equal(inv.status, 0, inv.stderr);
  assert.match(inv.stdout, /step 1: axis 0 \(length 256, c2c\); 256x501/);
  assert.match(inv.stdout, /step 2: axis 1 \(length 1000, c2r, 501 complex → 1000 reals\)/);
  assert.match(inv.stdout, /real: 1000 reals packed as 500 complex values/);
});

test('bad arguments: one line naming the argument, no stack trace; --help prints the usage', () => {
  const bad: [string[], RegExp][] = [
    [['0'], /^ArgumentError: shape: expected .*got "0"/],
    [['12xq'], /^ArgumentError: shape: expected .*got "12xq"/],
    [['64x64', '--axes', '5'], /^ArgumentError: --axes: expected comma-separated axis indices in \[-2, 2\).*got "5"/],
    [['64', '--kind', 'foo'], /^ArgumentError: --kind: expected c2c, r2c or c2r, got "foo"/],
    [['64', '--batch', '0'], /^ArgumentError: --batch: expected an integer ≥ 1, got "0"/],
    [['64', '--batch', 'abc'], /^ArgumentError: --batch: expected an integer ≥ 1, got "abc"/],
    [['64', '--frobnicate'], /^ArgumentError: option: expected one of --axes, .*--batch, .*got "--frobnicate"/],
    [['64', '128'], /^ArgumentError: argument: expected at most 1 <n \| shape>/],
    [['64', '--storage'], /^ArgumentError: --storage: expected a value after it/],
    [['64x64', '--kind', 'r2c', '--axes', '1,1'], /^ArgumentError: --axes: expected distinct axes/],
    [['64x64', '--cpu'], /^ArgumentError: --cpu: expected a 1-D complex length/],
  ];
  for (const [args, message] of bad) {
    const r = plan(...args);
    const what = `plan ${args.join(' ')}`;
    assert.equal(r.status, 1, `${what}: exit status`);
    assert.ok(!r.stderr.includes('    at '), `${what}: stack trace in stderr:\n${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${what}: one line, got\n${r.stderr}`);
    assert.match(lines[0], message, what);
  }
  // Without a length or shape: the usage on stdout, exit status 2.
  const none = planRaw();
  assert.equal(none.status, 2);
  assert.match(none.stdout, /^usage: butterfly plan <n \| shape>/);
  for (const h of ['--help', '-h']) {
    const r = plan(h);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^usage: butterfly plan <n \| shape>/);
    assert.match(r.stdout, /--axes/);
    assert.match(r.stdout, /--kind c2c\|r2c\|c2r/);
    assert.match(r.stdout, /--default-limits/);
  }
});

test("without --default-limits: this machine's adapter's limits, with its binding size", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const r = planRaw('4096');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'Dawn start-up warnings must not reach the user');
  assert.match(r.stdout, /^limits of this machine's WebGPU adapter \(/);
  const l = ctx.limits;
  assert.ok(
    r.stdout.includes(
      `(workgroup storage ${l.maxComputeWorkgroupStorageSize} B, ${l.maxComputeInvocationsPerWorkgroup} invocations, storage binding ${l.maxStorageBufferBindingSize} B)`,
    ),
    r.stdout,
  );
  // --storage overrides one limit of the adapter's.
  const s = planRaw('4096', '--storage', '16384');
  assert.equal(s.status, 0, s.stderr);
  assert.match(
    s.stdout,
    new RegExp(
      `workgroup storage 16384 B, ${l.maxComputeInvocationsPerWorkgroup} invocations, storage binding ${l.maxStorageBufferBindingSize} B`,
    ),
  );
});

test("the CLI plans what WebGpuFftNd.create runs (on this adapter's limits)", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const cases: FftNdDescriptor[] = [
    { shape: [64, 128] },
    { shape: [12, 1009], axes: [0, 1] },
    { shape: [8192, 4], axes: [0] },
    { shape: [3, 1009, 4], axes: [1] },
    { shape: [2, 1 << 17], kind: 'r2c' },
    { shape: [4, 16, 30], kind: 'r2c' },
    { shape: [8, 4096], axes: [1], kind: 'r2c' },
    { shape: [6, 64, 2048], axes: [0, 2], kind: 'r2c' },
    { shape: [16, 999], kind: 'c2r' },
  ];
  const modes = new Set<string>();
  for (const d of cases) {
    const nd = await WebGpuFftNd.create(ctx, d);
    try {
      const gpuPlans = (nd as unknown as { chain: { plans: WebGpuFft[] } }).chain.plans;
      const steps = planFftNd(d).steps;
      assert.equal(steps.length, gpuPlans.length, JSON.stringify(d));
      steps.forEach((step, k) => {
        const chosen = chooseStepPlan(step, ctx.limits);
        assert.ok(
          !('error' in chosen),
          `${JSON.stringify(d)} step ${k}: ${'error' in chosen ? String(chosen.error) : ''}`,
        );
        if ('error' in chosen) return;
        modes.add(chosen.mode);
        assert.deepEqual(chosen.plan.planning.recipe, gpuPlans[k].recipe, `${JSON.stringify(d)} step ${k}`);
        assert.deepEqual(chosen.plan.problem, gpuPlans[k].problem, `${JSON.stringify(d)} step ${k} problem`);
        // One kernel a program: passes (twice for Bluestein), then any post-processing kernel.
        assert.equal(
          chosen.plan.programs.length,
          gpuPlans[k].kernelNames.length,
          `${JSON.stringify(d)} step ${k} kernels`,
        );
      });
    } finally {
      nd.destroy();
    }
  }
  // Every kind of step the driver has was compared.
  assert.deepEqual([...modes].sort(), ['columns', 'interleaved', 'rows', 'strided']);
});
