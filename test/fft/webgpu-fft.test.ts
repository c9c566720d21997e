/**
 * The batched C2C FFT in one workgroup, Bluestein, layouts and the public API, run for real on WebGPU (in CI:
 * Mesa llvmpipe through Dawn's GLES backend), compared with the float64 CPU backend on seeded random inputs
 * (compare.ts: output buffers are poisoned with NaN first, so an element the kernel fails to write cannot
 * pass). The multi-pass kernels are in webgpu-fft-multipass.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createFftPlan, fft, ifft } from '../../src/api/fft.js';
import { WebGpuFft } from '../../src/backends/webgpu/fft.js';
import { createStorageBuffer } from '../../src/backends/webgpu/device.js';
import { fftProblem, type FftNorm } from '../../src/planner/fft-problem.js';
import { largestWorkgroupFft, type WorkgroupPlanOptions } from '../../src/planner/fft-workgroup.js';
import { planFft } from '../../src/planner/fft-multipass.js';
import { pipelineCacheSize } from '../../src/backends/webgpu/pipelines.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../src/errors.js';
import { bound, compare } from './compare.js';

test('every power of two, batches 1, 3 and ≥ 1000, forward and inverse', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const max = largestWorkgroupFft(ctx.limits);
  assert.ok(max >= 4096, `largest single-workgroup FFT ${max}`);
  for (let n = 2, k = 0; n <= max; n *= 2, k++) {
    // Up to 512 the batch sets the problems a workgroup holds, so each batch compiles its own kernels (about a
    // second each, cold, on the software adapter): the three batches rotate over the two directions, so every
    // size runs both directions and two batches, and every batch runs both directions at several sizes.
    const batches = n <= 512 ? [1, 3, 1000 + (n % 7)] : [1, 3];
    const runs =
      n <= 512
        ? ([
            [batches[k % 3], 'forward'],
            [batches[(k + 1) % 3], 'inverse'],
          ] as const)
        : batches.flatMap(
            (b) =>
              [
                [b, 'forward'],
                [b, 'inverse'],
              ] as const,
          );
    await t.test(`n=${n} ${runs.map(([b, d]) => `batch ${b} ${d}`).join(', ')}`, async () => {
      for (const [batch, direction] of runs) {
        const err = await compare(ctx, { n, batch, direction }, n * 31 + batch);
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
      }
    });
  }
});

test('all three norms, both directions', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // 'backward' at every size (mostly compiled above); 'ortho' (2, 128, 8192) and 'forward' (16, 1024) take
  // turns, each with both directions (every norm compiles its own kernels, seconds each at 8192).
  for (const [i, n] of [2, 16, 128, 1024, 8192].entries()) {
    await t.test(`n=${n}`, async () => {
      for (const norm of ['backward', i % 2 === 0 ? 'ortho' : 'forward'] as FftNorm[]) {
        for (const direction of ['forward', 'inverse'] as const) {
          const err = await compare(ctx, { n, batch: 3, direction, norm }, n + 7);
          assert.ok(err <= bound(n), `n=${n} ${norm} ${direction}: ${err}`);
        }
      }
    });
  }
});

test('mixed-radix lengths held by one workgroup', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of [3, 5, 6, 7, 12, 15, 60, 100, 315, 1000, 2187, 3125]) {
    const err = await compare(ctx, { n, batch: 5, direction: 'forward' }, n);
    assert.ok(err <= bound(n), `n=${n}: ${err}`);
  }
});

test("single workgroup with the 'split4' exchange (each part in two half-workgroup rounds), against float64", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const { planWorkgroupFft } = await import('../../src/planner/fft-workgroup.js');
  // 3 and 4 stages, radix-16 and radix-8 first stages, and 16384, which fits no other exchange in this
  // adapter's 32 KiB.
  const cases: [number, number, WorkgroupPlanOptions][] = [
    [512, 5, { exchange: 'split4' }],
    [2048, 3, { exchange: 'split4' }],
    [4096, 4, { exchange: 'split4', maxRadix: 8 }],
    [8192, 3, { exchange: 'split4' }],
    [16384, 3, { exchange: 'split4' }],
  ];
  // One direction a case, alternating (each compiles its own kernel, seconds cold at these lengths).
  for (const [i, [n, batch, plan]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} ${JSON.stringify(plan)}`, async () => {
      const recipe = planWorkgroupFft(n, batch, ctx.limits, plan);
      assert.equal(recipe.exchange, 'split4', `n=${n}: ${recipe.exchange}`);
      assert.ok(recipe.radices.length >= 3, `n=${n}: ${recipe.radices}`);
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, n + batch, { plan });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
      }
    });
  }
  const n = 16384;
  const strided = await compare(
    ctx,
    { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } },
    11,
    { plan: { exchange: 'split4' } },
  );
  assert.ok(strided <= bound(n), `strided: ${strided}`);
});

test("single workgroup with the 'rounds' exchange (fixed positions, one block a round), against float64", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const { planWorkgroupFft } = await import('../../src/planner/fft-workgroup.js');
  // Two to four stages, 2 to 8 rounds an exchange, padded and swizzled blocks, several problems a workgroup,
  // a radix-4 first stage, 16384, whose 32 KiB block fits this adapter exactly, and split rounds.
  const R = 'rounds' as const;
  const cases: [number, number, WorkgroupPlanOptions][] = [
    [64, 5, { exchange: R, registers: 8 }],
    [256, 3, { exchange: R, registers: 16, padding: true }],
    [1024, 4, { exchange: R }],
    [4096, 3, { exchange: R, radices: [4, 8, 8, 16] }],
    [8192, 3, { exchange: R }],
    [16384, 3, { exchange: R }],
    // Real and imaginary parts in separate rounds (an f32 block).
    [512, 5, { exchange: R, roundsSplit: true }],
    [16384, 3, { exchange: R, roundsSplit: true, registers: 16 }],
  ];
  for (const [i, [n, batch, plan]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} ${JSON.stringify(plan)}`, async () => {
      const recipe = planWorkgroupFft(n, batch, ctx.limits, plan);
      assert.equal(recipe.exchange, 'rounds', `n=${n}: ${recipe.exchange}`);
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, 5 * n + batch, { plan });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
      }
    });
  }
  const n = 16384;
  const strided = await compare(
    ctx,
    {
      n,
      batch: 3,
      direction: 'inverse',
      norm: 'ortho',
      input: { offset: 3, stride: 2, dist: 2 * n + 1 },
      output: { offset: 1, stride: 1, dist: n + 5 },
    },
    13,
    { plan: { exchange: R } },
  );
  assert.ok(strided <= bound(n), `strided: ${strided}`);
  // In place (every load of a problem precedes its first barrier), and Bluestein's 8192-point inner transform
  // (4093 = a prime: chirp hooks in the loads and stores of the rounds kernels).
  const inPlace = await compare(ctx, { n, batch: 3 }, 17, { inPlace: true });
  assert.ok(inPlace <= bound(n), `in place: ${inPlace}`);
  const blu = await compare(ctx, { n: 4093, batch: 3, direction: 'inverse' }, 19);
  assert.ok(blu <= bound(4093), `bluestein 4093: ${blu}`);
});

test('single workgroup with XOR-swizzled rows, every exchange, against float64', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const { planWorkgroupFft } = await import('../../src/planner/fft-workgroup.js');
  // The default from 4096 values a row, forced here on shorter rows and on each exchange; 8192 and 4096
  // (split4: rows of n/2) are swizzled by default.
  const cases: [number, number, WorkgroupPlanOptions][] = [
    [64, 5, { swizzle: true, exchange: 'complex' }],
    [256, 3, { swizzle: true }],
    [1024, 4, { swizzle: true, exchange: 'complex' }],
    [2048, 3, { swizzle: true, exchange: 'split4' }],
    [4096, 3, {}],
    [8192, 3, {}],
    [8192, 3, { exchange: 'split4' }],
  ];
  // One direction a case, alternating; 8192 with 'split4' takes the one the test above ran.
  for (const [i, [n, batch, plan]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} ${JSON.stringify(plan)}`, async () => {
      const recipe = planWorkgroupFft(n, batch, ctx.limits, plan);
      assert.equal(recipe.swizzle, true, `n=${n} ${JSON.stringify(plan)}: not swizzled`);
      assert.equal(recipe.padShift, 0);
      for (const direction of [i % 2 === 0 ? 'inverse' : 'forward'] as const) {
        const err = await compare(ctx, { n, batch, direction }, 3 * n + batch, { plan });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
      }
    });
  }
  const n = 4096;
  const strided = await compare(
    ctx,
    {
      n,
      batch: 3,
      input: { offset: 5, stride: 3, dist: 3 * n + 2 },
      output: { offset: 2, stride: 2, dist: 2 * n + 7 },
    },
    13,
  );
  assert.ok(strided <= bound(n), `strided: ${strided}`);
});

test('any length: primes and large prime factors through Bluestein (7, 97, 1009, 4099, 65537, 2·131)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // One direction a length, alternating: Bluestein runs its inner FFT forward and inverse either way, the
  // direction only conjugates the chirp.
  for (const [i, [n, batch]] of (
    [
      [7, 5],
      [67, 3],
      [97, 3],
      [262, 3],
      [1009, 3],
      [4099, 3],
      [65537, 1],
    ] as [number, number][]
  ).entries()) {
    await t.test(`n=${n} batch=${batch}`, async () => {
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction, input: { offset: 2, stride: 1, dist: n + 3 } }, n);
        assert.ok(err <= bound(n), `n=${n} ${direction}: ${err}`);
      }
    });
  }
  const plan = await createFftPlan({ n: 97, backend: 'webgpu', gpu: ctx });
  assert.equal((plan.recipe as { algorithm: string }).algorithm, 'bluestein');
  plan.destroy();
});

test('strided, offset and padded layouts; in place', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of [8, 64, 512, 4096]) {
    const init = {
      n,
      batch: 4,
      input: { offset: 5, stride: 2, dist: 2 * n + 3 },
      output: { offset: 3, stride: 1, dist: n + 2 },
    };
    const err = await compare(ctx, init, n);
    assert.ok(err <= bound(n), `strided n=${n}: ${err}`);
    const ip = await compare(
      ctx,
      { n, batch: 3, input: { offset: 1, dist: n + 1 }, output: { offset: 1, dist: n + 1 } },
      n,
      { inPlace: true },
    );
    assert.ok(ip <= bound(n), `in place n=${n}: ${ip}`);
  }
});

test('round trip ifft(fft(x)) = x through the public API', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of [4, 256, 2048]) {
    const x = randomFloat32(2 * n * 3, n);
    const y = await fft(x, { shape: [3, n], gpu: ctx, backend: 'webgpu' });
    const z = await ifft(y, { shape: [3, n], gpu: ctx, backend: 'webgpu' });
    assert.ok(z instanceof Float32Array);
    assert.ok(relativeL2(z, x) <= bound(n), `n=${n}`);
  }
  // numpy's n: crop and zero-pad the last axis.
  const x = randomFloat32(2 * 10, 3);
  const padded = await fft(x, { n: 16, gpu: ctx, backend: 'webgpu' });
  const ref = await fft(Float64Array.from([...x, ...new Array(12).fill(0)]), { backend: 'cpu' });
  assert.ok(relativeL2(padded, ref) <= bound(16));
});

test('large batches split across bindings and 2-D dispatch grids', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const n = 16;
  const batch = 5000;
  const p = fftProblem({ n, batch });
  const plan = await WebGpuFft.create(ctx, p, {
    tuning: { splitLimits: { maxStorageBufferBindingSize: 64 * 1024, maxComputeWorkgroupsPerDimension: 7 } },
  });
  assert.ok(plan.chunkCount > 1, 'several binding windows');
  assert.ok(
    plan.grids.some((g) => g[1] > 1),
    'a 2-D grid',
  );
  const x = randomFloat32(2 * n * batch, 99);
  const got = await plan.run(x);
  plan.destroy();
  const ref = await (await createFftPlan({ n, batch, backend: 'cpu' })).execute(Float64Array.from(x));
  assert.ok(relativeL2(got, ref) <= bound(n));
});

test('clear errors: lengths, buffers, destroyed plans, unsupported sizes', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const plan = await createFftPlan({ n: 64, batch: 3, backend: 'webgpu', gpu: ctx });
  await assert.rejects(plan.execute(new Float32Array(10)), ArgumentError);
  const small = createStorageBuffer(ctx, 64);
  const big = createStorageBuffer(ctx, 64 * 3 * 8);
  assert.throws(() => plan.encode(ctx.device.createCommandEncoder(), small, big), ArgumentError);
  assert.throws(() => plan.encode(ctx.device.createCommandEncoder(), big, big), ArgumentError);
  small.destroy();
  big.destroy();
  plan.destroy();
  await assert.rejects(plan.execute(new Float32Array(2 * 64 * 3)), DestroyedError);
  await assert.rejects(createFftPlan({ n: 1 << 26, batch: 4, backend: 'webgpu', gpu: ctx }), DeviceLimitError);
  await assert.rejects(createFftPlan({ n: 0, backend: 'webgpu', gpu: ctx }), ArgumentError);
  await assert.rejects(createFftPlan({ n: 8, norm: 'none' as FftNorm, gpu: ctx }), ArgumentError);
  await assert.rejects(fft(new Float32Array(7)), ArgumentError);
  await assert.rejects(fft(new Float32Array(8), { shape: [3, 2] }), ArgumentError);
  // 'auto' falls back to the CPU backend for a problem the device cannot hold.
  const auto = await createFftPlan({ n: 1 << 26, batch: 4, gpu: ctx });
  assert.equal(auto.backend, 'cpu');
  auto.destroy();
});

test('pipelines are cached by what changes the code', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const a = await createFftPlan({ n: 32, batch: 3, backend: 'webgpu', gpu: ctx });
  const before = pipelineCacheSize(ctx);
  const b = await createFftPlan({ n: 32, batch: 3, backend: 'webgpu', gpu: ctx });
  assert.equal(pipelineCacheSize(ctx), before);
  const c = await createFftPlan({ n: 32, batch: 3, norm: 'ortho', direction: 'inverse', backend: 'webgpu', gpu: ctx });
  assert.equal(pipelineCacheSize(ctx), before + 1);
  for (const p of [a, b, c]) p.destroy();
});

test('composite radices: odd ones (maxOddRadix: 9, 15, 25, 27) and twos packed with odd factors (10, 12), single workgroup and multi-pass', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const cases: [number, number, number, string][] = [
    [243, 3, 0, '3·3·3·3·3'],
    [243, 3, 16, '9·9·3'],
    [2187, 3, 27, '27·9·9'],
    [6561, 3, 16, '9·9·9·9'],
    [3000, 3, 16, '8·15·5·5'],
    [625, 4, 27, '25·25'],
    [5 ** 7, 1, 27, '25·25 | 25·5'],
    [3 ** 10, 3, 16, '9·9·3 | 9·9·3'],
    // Twos and odd factors packed into fewer stages (mergedRadices), where the workgroup fills its warps.
    [12, 70, 16, '12'],
    [100, 5, 16, '10·10'],
    [1500, 3, 16, '15·10·10'],
    [1000, 3, 16, '8·5·5·5'],
  ];
  // One direction a case, alternating (the direction changes only the twiddles' sign, each case's radices
  // are what it is here for).
  for (const [i, [n, batch, maxOddRadix, radices]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} radices ${radices}`, async () => {
      const plan = { maxOddRadix };
      // The recipe the plan runs (single workgroup or multi-pass), so the test cannot pass on prime radices.
      const r = planFft(n, batch, ctx.limits, plan);
      const list = r.algorithm === 'stockham-multipass' ? r.passes : r.algorithm === 'bluestein' ? [] : [r];
      assert.equal(list.map((p) => p.radices.join('·')).join(' | '), radices, `n=${n}`);
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, n + 7 * batch, { plan });
        assert.ok(err <= bound(n), `n=${n} maxOddRadix=${maxOddRadix} ${direction}: ${err}`);
      }
    });
  }
});
