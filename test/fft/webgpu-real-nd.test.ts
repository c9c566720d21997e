/**
 * Real and N-D FFTs on WebGPU against the float64 CPU backend: R2C/C2R (packed even lengths with fused
 * pre/post-processing, odd lengths, multi-pass with the post kernel), 2-D and 3-D over chosen axes, and
 * numpy's n / s crop-and-pad rules. Relative L2 bound 1e-6·log2(N) for f32.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import * as api from '../../src/api/fft.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';
import { WebGpuFft } from '../../src/backends/webgpu/fft.js';
import { createStorageBuffer, readBuffer } from '../../src/backends/webgpu/device.js';
import { fftProblem } from '../../src/planner/fft-problem.js';

const bound = (n: number) => 1e-6 * Math.max(1, Math.log2(n));
type Fn = 'rfft' | 'irfft' | 'fftn' | 'ifftn' | 'rfftn' | 'irfftn' | 'fft2' | 'rfft2' | 'irfft2' | 'fft' | 'ifft';

async function check(
  fn: Fn,
  shape: number[],
  opts: Record<string, unknown>,
  complexIn: boolean,
  seed: number,
  n: number,
) {
  const ctx = await testGpu();
  if (!ctx) return;
  const x = randomFloat32(shape.reduce((a, b) => a * b, 1) * (complexIn ? 2 : 1), seed);
  const f = api[fn] as (
    x: Float32Array | Float64Array,
    o: Record<string, unknown>,
  ) => Promise<Float32Array | Float64Array>;
  const gpu = await f(x, { ...opts, shape, gpu: ctx, backend: 'webgpu' });
  const cpu = await f(Float64Array.from(x), { ...opts, shape, backend: 'cpu' });
  assert.ok(gpu instanceof Float32Array);
  assert.equal(gpu.length, cpu.length, `${fn} ${JSON.stringify(shape)} length`);
  const err = relativeL2(gpu, cpu);
  assert.ok(err <= bound(n), `${fn} ${JSON.stringify(shape)} ${JSON.stringify(opts)}: ${err}`);
}

test('rfft / irfft: even and odd lengths, batches, all norms, single-workgroup and multi-pass', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  // Odd primes through Bluestein: 97 (1009 is the same path in a longer, seconds-long kernel; the complex tests
  // run it), and 194 packed onto a half-length of 97.
  const sizes = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    15,
    16,
    30,
    64,
    97,
    100,
    126,
    194,
    256,
    1000,
    1001,
    4096,
    8192,
    16384,
    32768, // half-length 16384: one workgroup, the rounds exchange
    3 ** 9,
    1 << 17,
  ];
  for (const [i, n] of sizes.entries()) {
    const batch = n > 10000 ? 1 : 3;
    const norm = (['backward', 'ortho', 'forward'] as const)[i % 3];
    await t.test(`n=${n} batch=${batch} ${norm}`, async () => {
      await check('rfft', [batch, n], { norm }, false, n, n);
      const m = Math.floor(n / 2) + 1;
      if (n > 1) await check('irfft', [batch, m], { n, norm }, true, n + 1, n);
    });
  }
});

test('rfft with n (crop / pad) and along a non-last axis; irfft default length', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  await check('rfft', [3, 100], { n: 64 }, false, 1, 64);
  await check('rfft', [3, 50], { n: 81 }, false, 2, 81);
  await check('rfft', [12, 5], { axis: 0 }, false, 3, 12);
  await check('irfft', [4, 33], {}, true, 4, 64);
  await check('irfft', [9, 4], { axis: 0 }, true, 5, 16);
});

test('2-D and 3-D transforms over chosen axes, odd sizes, batches', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  await check('fft2', [3, 64, 48], {}, true, 6, 64 * 48);
  await check('fftn', [5, 7, 9], {}, true, 7, 315);
  await check('ifftn', [8, 16, 32], { axes: [0, 2] }, true, 8, 256);
  await check('fftn', [4, 6, 10], { axes: [1] }, true, 9, 6);
  await check('fftn', [32, 32, 32], { norm: 'ortho' }, true, 10, 32768);
  await check('fftn', [6, 10], { s: [8, 12] }, true, 11, 96);
  await check('rfft2', [3, 64, 48], { norm: 'ortho' }, false, 12, 64 * 48);
  await check('rfftn', [5, 7, 9], {}, false, 13, 315);
  await check('rfftn', [8, 16, 32], { axes: [0, 1] }, false, 14, 128);
  await check('irfft2', [4, 32, 33], {}, true, 15, 32 * 64);
  await check('irfftn', [5, 7, 5], { s: [5, 7, 9] }, true, 16, 315);
  await check('irfftn', [16, 9, 3], { axes: [0, 1] }, true, 17, 256);
  // Column passes of 512 and 1024 points (radix-32 stages) and 2048 (radix 16).
  await check('fft2', [3, 512, 32], {}, true, 18, 512 * 32);
  await check('ifftn', [3, 1024, 12], { axes: [1] }, true, 19, 1024);
  await check('fftn', [3, 2048, 4], { axes: [1] }, true, 20, 2048);
});

test('long non-last axes: multi-pass over the strided batch, batch-fastest (interleaved intermediates)', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  await check('fftn', [2048, 16], { axes: [0] }, true, 21, 2048);
  await check('ifftn', [3, 1024, 40], { axes: [1] }, true, 22, 1024);
  await check('fftn', [5, 3000, 7], { axes: [1], norm: 'ortho' }, true, 23, 3000);
  await check('fftn', [2, 2187, 3], { axes: [1] }, true, 24, 2187);
  await check('rfftn', [2048, 10], {}, false, 25, 2048 * 10);
  await check('irfftn', [4096, 5], { axes: [0, 1] }, true, 26, 4096 * 8);
});

test('N-D argument errors', async () => {
  await assert.rejects(api.fftn(new Float32Array(8), { shape: [2, 3] }), ArgumentError);
  await assert.rejects(api.fftn(new Float32Array(8), { shape: [2, 2], axes: [2] }), ArgumentError);
  await assert.rejects(api.rfftn(new Float32Array(0)), ArgumentError);
  await assert.rejects(api.irfft(new Float32Array(2), { backend: 'cpu' }), ArgumentError);
  await assert.rejects(api.fft2(new Float32Array(8), { shape: [4], backend: 'cpu' }), ArgumentError);
  await assert.rejects(api.fftn(new Float32Array(8), { s: [0], backend: 'cpu' }), ArgumentError);
});

test('createFftNdPlan: device-resident N-D real plan on GPUBuffers', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const plan = await api.createFftNdPlan({ shape: [3, 32, 30], axes: [1, 2], kind: 'r2c', gpu });
  const x = randomFloat32(3 * 32 * 30, 9);
  assert.equal(plan.inputBytes, x.byteLength);
  const { createStorageBuffer, readBuffer } = await import('../../src/backends/webgpu/device.js');
  const src = createStorageBuffer(gpu, x);
  const dst = createStorageBuffer(gpu, new Float32Array(plan.outputBytes / 4).fill(NaN));
  await plan.execute(src, dst);
  const got = new Float32Array(await readBuffer(gpu, dst, 0, plan.outputBytes));
  const ref = await api.rfftn(Float64Array.from(x), { shape: [3, 32, 30], axes: [1, 2], backend: 'cpu' });
  assert.ok(relativeL2(got, ref) <= bound(960));
  // The one-shot call with numpy's `out` writes the same transform into the caller's array.
  const out = new Float32Array(plan.outputBytes / 4).fill(NaN);
  assert.equal(await api.rfftn(x, { shape: [3, 32, 30], axes: [1, 2], backend: 'webgpu', gpu, out }), out);
  assert.ok(relativeL2(out, ref) <= bound(960));
  src.destroy();
  dst.destroy();
  plan.destroy();
  assert.throws(() => plan.encode(gpu.device.createCommandEncoder(), src, dst));
});

/**
 * Runs an R2C plan on x (into a NaN-poisoned output, so an unwritten element fails) and returns the M + 1
 * outputs of each of the batch rows, interleaved complex, read from the output layout; destroys the plan.
 */
/** Runs an R2C plan into a NaN-filled destination; with checkGaps, asserts nothing was written outside the rows. */
async function runR2c(
  plan: WebGpuFft,
  x: Float32Array,
  output: { offset: number; dist: number },
  batch: number,
  M: number,
  checkGaps = false,
): Promise<Float32Array> {
  const ctx = plan.ctx;
  const outFloats = 2 * (output.offset + batch * output.dist);
  const src = createStorageBuffer(ctx, x);
  const dst = createStorageBuffer(ctx, new Float32Array(outFloats).fill(NaN));
  try {
    await plan.execute(src, dst);
    const got = new Float32Array(await readBuffer(ctx, dst, 0, outFloats * 4));
    if (checkGaps) {
      for (let i = 0; i < outFloats / 2; i++) {
        const row = Math.floor((i - output.offset) / output.dist);
        const inRow = i >= output.offset && row < batch && i - output.offset - row * output.dist <= M;
        if (!inRow)
          assert.ok(
            Number.isNaN(got[2 * i]) && Number.isNaN(got[2 * i + 1]),
            `element ${i} outside the output rows was written`,
          );
      }
    }
    const a = new Float32Array(2 * batch * (M + 1));
    for (let b = 0; b < batch; b++) {
      for (let k = 0; k <= M; k++) {
        const at = 2 * (output.offset + b * output.dist + k);
        a[2 * (b * (M + 1) + k)] = got[at];
        a[2 * (b * (M + 1) + k) + 1] = got[at + 1];
      }
    }
    return a;
  } finally {
    src.destroy();
    dst.destroy();
    plan.destroy();
  }
}

test('multi-pass R2C: post-processing fused into the last pass (mirror column pairs) and as its own kernel', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // The forms below: fused (split rows), fused asking for vec2 rows, the separate post kernel. Each length's
  // passes compile cold for seconds, so the lengths other than the offset one run two forms in rotation (each
  // form at three lengths; vec2 rows asked for where the 256-point last pass falls back, and at 2^16 and 2^18).
  const forms = [
    [false, undefined],
    [false, 'complex'],
    [true, undefined],
  ] as const;
  const cases: [number, number, boolean, number[]][] = [
    [1 << 19, 3, false, [0, 1]],
    [1 << 16, 3, true, [0, 1, 2]],
    [1 << 18, 3, false, [1, 2]],
    [1 << 21, 1, false, [0, 2]],
  ];
  let vec2Rows = 0;
  for (const [N, batch, offsets, run] of cases)
    await t.test(`N=${N} batch=${batch}`, async () => {
      const M = N / 2;
      const input = offsets ? { offset: 2, stride: 1, dist: N + 4 } : { offset: 0, stride: 1, dist: N };
      const output = offsets ? { offset: 1, stride: 1, dist: M + 3 } : { offset: 0, stride: 1, dist: M + 1 };
      const x = randomFloat32(input.offset + batch * input.dist, N + batch);
      const rows = new Float64Array(batch * N);
      for (let b = 0; b < batch; b++)
        for (let i = 0; i < N; i++) rows[b * N + i] = x[input.offset + b * input.dist + i];
      const ref = await api.rfft(rows, { shape: [batch, N], backend: 'cpu' });
      // The fused last pass exchanges real and imaginary parts in two rounds by default, vec2 rows with
      // lastPassExchange 'complex' where 16 vec2 columns fit this adapter (a 256-point last pass falls back to
      // f32 rows; counted below so that both forms run).
      for (const [r2cPostKernel, lastPassExchange] of forms.filter((_, f) => run.includes(f))) {
        const wide = lastPassExchange ? { lastPassColumns: 16 } : {};
        const plan = await WebGpuFft.create(ctx, fftProblem({ n: N, batch, direction: 'forward', input, output }), {
          real: 'r2c',
          tuning: { r2cPostKernel, lastPassExchange, ...wide },
        });
        assert.equal(plan.recipe.algorithm, 'stockham-multipass', `N=${N}: multi-pass recipe`);
        if (plan.recipe.algorithm === 'stockham-multipass' && !r2cPostKernel) {
          const ex = plan.recipe.passes[plan.recipe.passes.length - 1].exchange;
          if (!lastPassExchange) assert.equal(ex, 'split', `N=${N} last pass exchange`);
          else if (ex === 'complex') vec2Rows++;
        }
        // The fused form has one kernel per pass; the unfused one adds the post-processing kernel.
        const fused = !r2cPostKernel;
        assert.equal(
          plan.kernelNames.some((k) => k.startsWith('r2c-post')),
          !fused,
          `N=${N} kernels ${plan.kernelNames}`,
        );
        const err = relativeL2(await runR2c(plan, x, output, batch, M), ref);
        assert.ok(err <= bound(N), `N=${N} batch=${batch} postKernel=${r2cPostKernel}: ${err}`);
      }
    });
  assert.ok(vec2Rows >= 2, `fused last pass with vec2 rows in ${vec2Rows} cases`);
});

test('single-workgroup R2C: paired last stage (no post-processing exchange) and the exchange form, against float64', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // 32768: a half-length of 16384, in one workgroup only with the 'split4' exchange (always paired; asked
  // for below), else in two passes.
  const sizes = [6, 12, 24, 48, 64, 96, 128, 200, 256, 486, 512, 1000, 1024, 2048, 4096, 8192, 16384, 32768];
  const paired = [0, 0]; // default plans, plans with r2cPairAll
  const staged = [0, 0]; // staged outputs generated: paired form, exchange form
  for (const [i, N] of sizes.entries())
    await t.test(`N=${N}`, async () => {
      const batch = 3;
      const M = N / 2;
      // Odd offsets and padded distances on the output side (the numpy layout's rows are M + 1 long).
      const input = { offset: 2 * (i % 2), stride: 1, dist: N + 2 * (i % 3) };
      const output = { offset: i % 2, stride: 1, dist: M + 1 + (i % 3) };
      const x = randomFloat32(input.offset + batch * input.dist, 100 + i);
      const rows = new Float64Array(batch * N);
      for (let b = 0; b < batch; b++)
        for (let k = 0; k < N; k++) rows[b * N + k] = x[input.offset + b * input.dist + k];
      const ref = await api.rfft(rows, { shape: [batch, N], backend: 'cpu' });
      // maxRadix 32: the default from a half-length of 8192, beyond this adapter's single workgroup.
      // r2cStagedOut: the outputs leave through workgroup memory by a coalesced copy (paired and exchange forms).
      const variants: {
        r2cPaired?: boolean;
        r2cPairAll?: boolean;
        maxRadix?: number;
        r2cStagedOut?: boolean;
        exchange?: 'split4' | 'rounds';
        roundsSplit?: boolean;
      }[] = [
        { r2cPaired: true },
        { r2cPaired: false },
        { r2cPairAll: true },
        { r2cStagedOut: true },
        { r2cPaired: false, r2cStagedOut: true },
        { r2cStagedOut: false },
      ];
      if (N >= 2048) variants.push({ maxRadix: 32 });
      // 'split4' at half-lengths 2048 and 16384 (which only it holds in one workgroup); those between compile
      // kernels of the same form, seconds each on the software adapter.
      if (N === 4096 || N === 32768) variants.push({ exchange: 'split4' });
      // The 'rounds' exchange, whose post-processing gathers mirror pairs through its block (r2cPostRounds):
      // powers of two from a half-length of 64 (2 invocations × 32 registers) to 16384.
      if (N >= 128 && (N & (N - 1)) === 0) variants.push({ exchange: 'rounds' });
      if (N === 256 || N === 32768) variants.push({ exchange: 'rounds', roundsSplit: true });
      for (const variant of variants) {
        const plan = await WebGpuFft.create(ctx, fftProblem({ n: N, batch, direction: 'forward', input, output }), {
          real: 'r2c',
          tuning: variant,
        });
        // The planner's decisions for the one kernel, as the generator carried them out (its cache key).
        const k0 = plan.planned.passes[0].kernel!;
        if (plan.recipe.algorithm === 'stockham-workgroup') {
          assert.equal(plan.kernelKeys[0].includes('"paired":true'), k0.pairedR2c, `N=${N} paired key`);
          assert.equal(plan.kernelKeys[0].includes('"stagedOut":true'), k0.stagedR2cOut, `N=${N} staged key`);
        }
        if ((variant.r2cPaired || variant.r2cPairAll) && k0.pairedR2c) paired[variant.r2cPairAll ? 1 : 0]++;
        if (variant.r2cStagedOut && k0.stagedR2cOut) staged[variant.r2cPaired === false ? 1 : 0]++;
        if (variant.exchange)
          assert.equal(
            plan.recipe.algorithm === 'stockham-workgroup' && plan.recipe.exchange,
            variant.exchange,
            `N=${N} ${variant.exchange}`,
          );
        // Half-lengths 256 … 512 exchange real and imaginary parts in two rounds (the R2C default from 256).
        if ((N === 512 || N === 1024) && variant.r2cPaired)
          assert.equal(
            plan.recipe.algorithm === 'stockham-workgroup' && plan.recipe.exchange,
            'split',
            `N=${N} exchange`,
          );
        const err = relativeL2(await runR2c(plan, x, output, batch, M, variant.r2cStagedOut), ref);
        assert.ok(err <= bound(N), `N=${N} ${JSON.stringify(variant)}: ${err}`);
      }
    });
  // The sizes whose last stage holds an even number of butterflies per invocation take the paired form;
  // r2cPairAll plans the others (powers of two) that way too.
  assert.ok(paired[0] >= 4, `paired last stage generated for ${paired[0]} sizes`);
  assert.ok(paired[1] > paired[0], `r2cPairAll: paired for ${paired[1]} sizes against ${paired[0]}`);
  assert.ok(staged[0] >= 4 && staged[1] >= 4, `staged outputs generated for ${staged} sizes (paired, exchange form)`);
});
