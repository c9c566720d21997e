/**
 * The batched C2C FFT run for real on WebGPU (in CI: Mesa llvmpipe through Dawn's GLES backend),
 * compared with the float64 CPU backend on seeded random inputs. Output buffers are poisoned with NaN
 * first, so an element the kernel fails to write cannot pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createFftPlan, fft, ifft } from '../../src/api/fft.js';
import { WebGpuFft } from '../../src/backends/webgpu/fft.js';
import { createStorageBuffer, readBuffer, type GpuContext } from '../../src/backends/webgpu/device.js';
import { fftProblem, layoutSpan, type FftNorm, type FftProblemInit } from '../../src/planner/fft-problem.js';
import { largestWorkgroupFft, type WorkgroupPlanOptions } from '../../src/planner/fft-workgroup.js';
import { planFft, planMultiPass } from '../../src/planner/fft-multipass.js';
import { pipelineCacheSize } from '../../src/backends/webgpu/pipelines.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../src/errors.js';

const bound = (n: number) => 1e-6 * Math.max(1, Math.log2(n));

/** Runs `init` on the GPU into a NaN-poisoned buffer and on the CPU in float64; returns the error. */
async function compare(ctx: GpuContext, init: FftProblemInit, seed: number, opts: { inPlace?: boolean; plan?: WorkgroupPlanOptions } = {}): Promise<number> {
  const p = fftProblem(init);
  const inLen = 2 * layoutSpan(p.input, p.n, p.batch);
  const outLen = 2 * layoutSpan(p.output, p.n, p.batch);
  const x = randomFloat32(inLen, seed);
  const plan = await WebGpuFft.create(ctx, p, { ...opts.plan, inPlace: opts.inPlace });
  const src = createStorageBuffer(ctx, x);
  const dst = opts.inPlace ? src : createStorageBuffer(ctx, new Float32Array(outLen).fill(NaN));
  await plan.execute(src, dst);
  const got = new Float32Array(await readBuffer(ctx, dst, 0, outLen * 4));
  src.destroy();
  if (dst !== src) dst.destroy();
  plan.destroy();
  const cpu = await createFftPlan({ ...init, backend: 'cpu' });
  const ref = await cpu.execute(Float64Array.from(x));
  // Compare only the elements the output layout covers.
  const a: number[] = [];
  const r: number[] = [];
  for (let b = 0; b < p.batch; b++) {
    for (let e = 0; e < p.n; e++) {
      const at = 2 * (p.output.offset + b * p.output.dist + e * p.output.stride);
      a.push(got[at], got[at + 1]);
      r.push(ref[at], ref[at + 1]);
    }
  }
  return relativeL2(a, r);
}

test('every power of two, batches 1, 3 and ≥ 1000, forward and inverse', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const max = largestWorkgroupFft(ctx.limits);
  assert.ok(max >= 4096, `largest single-workgroup FFT ${max}`);
  for (let n = 2; n <= max; n *= 2) {
    const batches = n <= 512 ? [1, 3, 1000 + (n % 7)] : [1, 3];
    for (const batch of batches) {
      for (const direction of ['forward', 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, n * 31 + batch);
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
      }
    }
  }
});

test('all three norms, both directions', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of [2, 16, 128, 1024, 8192]) {
    for (const norm of ['backward', 'ortho', 'forward'] as FftNorm[]) {
      for (const direction of ['forward', 'inverse'] as const) {
        const err = await compare(ctx, { n, batch: 3, direction, norm }, n + 7);
        assert.ok(err <= bound(n), `n=${n} ${norm} ${direction}: ${err}`);
      }
    }
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

test('multi-pass lengths beyond one workgroup: powers of two to 2^20, smooth sizes', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const max = largestWorkgroupFft(ctx.limits);
  const cases: [number, number][] = [
    [2 * max, 3],
    [4 * max, 3],
    [1 << 16, 3],
    [1 << 18, 1],
    [1 << 20, 1],
    [3 ** 10, 3],
    [5 ** 7, 1],
    [2 ** 12 * 27, 1],
    [7 ** 6, 1],
    [1000000, 1],
  ];
  for (const [n, batch] of cases) {
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction, norm: direction === 'forward' ? 'ortho' : 'backward' }, n + batch);
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
    }
  }
});

test('multi-pass: pass kernels with real and imaginary parts exchanged in separate rounds, and with vec2 rows', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // The split exchange is the default of pass kernels; 1024-point passes with 4 columns need 4·1089·8 B of
  // vec2 rows, more than the software adapter's 32 KiB, so they take it even when vec2 rows are preferred.
  // (Each case checks the exchange, so the test cannot pass on another path.)
  const long: WorkgroupPlanOptions = { maxPassLength: 1024, minColumns: 4 };
  const cases: [number, number, WorkgroupPlanOptions, string[]][] = [
    [1 << 20, 3, { ...long, passExchange: 'complex' }, ['split', 'split']],
    [1 << 19, 3, { ...long, passExchange: 'complex' }, ['split', 'complex']],
    [1000000, 3, long, ['split', 'split']],
    [1 << 16, 3, {}, ['split', 'split']],
    [1 << 16, 3, { passExchange: 'complex', shortLastPass: false }, ['complex', 'complex']], // 256·256 (1024·64 would not fit vec2 rows)
    [3 ** 10, 3, { exchange: 'complex' }, ['complex', 'complex']],
    [1 << 20, 3, { lastPassExchange: 'complex', longFirstRest: 512 }, ['split', 'split', 'complex']],
    // Radix-32 pass kernels (the long first passes of 2^17 … 2^19 on larger devices): 32·16 and 32·32.
    [1 << 18, 3, { ...long, maxRadix: 32 }, ['split', 'split']],
    [1 << 20, 3, { ...long, maxRadix: 32 }, ['split', 'split']],
  ];
  for (const [n, batch, plan, expected] of cases) {
    const recipe = planMultiPass(n, batch, ctx.limits, plan);
    assert.deepEqual(recipe.passes.map((r) => r.exchange), expected, `n=${n} exchange per pass`);
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction }, n + batch + 7, { plan });
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
    }
  }
  const n = 1 << 20;
  const strided = await compare(ctx, { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } }, 9, { plan: long });
  assert.ok(strided <= bound(n), `strided: ${strided}`);
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
  for (const [n, batch, plan] of cases) {
    const recipe = planWorkgroupFft(n, batch, ctx.limits, plan);
    assert.equal(recipe.exchange, 'split4', `n=${n}: ${recipe.exchange}`);
    assert.ok(recipe.radices.length >= 3, `n=${n}: ${recipe.radices}`);
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction }, n + batch, { plan });
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
    }
  }
  const n = 16384;
  const strided = await compare(ctx, { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } }, 11, { plan: { exchange: 'split4' } });
  assert.ok(strided <= bound(n), `strided: ${strided}`);
});

test('multi-pass kernels: swizzled and rotated rows on every load, store and exchange form, and padded rows', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Each case checks the layout of every pass, so the test cannot pass on another path.
  const cases: [number, number, WorkgroupPlanOptions, boolean[]][] = [
    [1 << 16, 3, {}, [true, true]],
    [1 << 16, 3, { passLayout: 'padded' }, [false, false]],
    [1 << 16, 3, { passLoads: 'staged' }, [true, true]], // column-order copies in and out through the rows
    [1 << 17, 3, { passExchange: 'complex', passStore: 'rows', minColumns: 8 }, [true, true]],
    [1 << 20, 3, { maxPassLength: 1024, minColumns: 4, maxRadix: 32 }, [true, true]], // shift 5
    [3 ** 10, 3, {}, [false, false]], // 243-point rows: padded
    [12288, 3, {}, [true, true]], // 128·96: radix-3 stages in swizzled rows
    [62208, 3, {}, [true, false]], // 288 (= 9·32) swizzled, 216 padded
  ];
  for (const [n, batch, plan, swizzled] of cases) {
    const recipe = planMultiPass(n, batch, ctx.limits, plan);
    assert.deepEqual(recipe.passes.map((r) => !!r.swizzle), swizzled, `n=${n} ${JSON.stringify(plan)}: ${recipe.lengths}`);
    for (const r of recipe.passes.filter((p) => p.swizzle)) assert.equal(r.swizzleRotate, 32 / Math.min(r.problemsPerWorkgroup, 32));
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction }, n + batch + 3, { plan });
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
    }
  }
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
  for (const [n, batch, plan] of cases) {
    const recipe = planWorkgroupFft(n, batch, ctx.limits, plan);
    assert.equal(recipe.swizzle, true, `n=${n} ${JSON.stringify(plan)}: not swizzled`);
    assert.equal(recipe.padShift, 0);
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction }, 3 * n + batch, { plan });
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
    }
  }
  const n = 4096;
  const strided = await compare(ctx, { n, batch: 3, input: { offset: 5, stride: 3, dist: 3 * n + 2 }, output: { offset: 2, stride: 2, dist: 2 * n + 7 } }, 13);
  assert.ok(strided <= bound(n), `strided: ${strided}`);
});

test('multi-pass first pass storing along rows through workgroup memory', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Row stores stage vec2 rows: the complex exchange.
  const rows: WorkgroupPlanOptions = { passStore: 'rows', minColumns: 8, passExchange: 'complex', shortLastPass: false };
  for (const [n, batch] of [[1 << 16, 3], [1 << 17, 3], [1000000, 3], [3 ** 10, 3]] as const) {
    const recipe = planMultiPass(n, batch, ctx.limits, rows);
    assert.deepEqual(recipe.passes.map((r) => r.pass!.store), recipe.passes.map((_, i) => (i === 0 ? 'rows' : 'direct')), `n=${n} stores`);
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction, norm: 'ortho' }, n + 11, { plan: rows });
      assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
    }
  }
  const n = 1 << 16;
  const strided = await compare(ctx, { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 3, dist: 3 * n + 5 } }, 12, { plan: rows });
  assert.ok(strided <= bound(n), `strided: ${strided}`);
});

test('multi-pass: strided layouts, in place with odd and even pass counts, round trip at 2^22', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const n = 4 * largestWorkgroupFft(ctx.limits);
  const strided = await compare(ctx, { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } }, 5);
  assert.ok(strided <= bound(n), `strided: ${strided}`);
  for (const m of [1 << 15, 1 << 20]) {
    const ip = await compare(ctx, { n: m, batch: 1 }, 6, { inPlace: true });
    assert.ok(ip <= bound(m), `in place n=${m}: ${ip}`);
  }
  const big = 1 << 22;
  const x = randomFloat32(2 * big, 22);
  const fwd = await createFftPlan({ n: big, backend: 'webgpu', gpu: ctx });
  const inv = await createFftPlan({ n: big, direction: 'inverse', backend: 'webgpu', gpu: ctx });
  const back = await inv.execute(await fwd.execute(x));
  fwd.destroy();
  inv.destroy();
  assert.ok(relativeL2(back, x) <= 2 * bound(big), 'round trip 2^22');
});

test('any length: primes and large prime factors through Bluestein (7, 97, 1009, 4099, 65537, 2·131)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [n, batch] of [[7, 5], [67, 3], [97, 3], [262, 3], [1009, 3], [4099, 3], [65537, 1]] as [number, number][]) {
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction, input: { offset: 2, stride: 1, dist: n + 3 } }, n);
      assert.ok(err <= bound(n), `n=${n} ${direction}: ${err}`);
    }
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
    const ip = await compare(ctx, { n, batch: 3, input: { offset: 1, dist: n + 1 }, output: { offset: 1, dist: n + 1 } }, n, { inPlace: true });
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
  const plan = await WebGpuFft.create(ctx, p, { splitLimits: { maxStorageBufferBindingSize: 64 * 1024, maxComputeWorkgroupsPerDimension: 7 } });
  assert.ok(plan.chunkCount > 1, 'several binding windows');
  assert.ok(plan.grids.some((g) => g[1] > 1), 'a 2-D grid');
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
  for (const [n, batch, maxOddRadix, radices] of cases) {
    const plan = { maxOddRadix };
    // The recipe the plan runs (single workgroup or multi-pass), so the test cannot pass on prime radices.
    const r = planFft(n, batch, ctx.limits, plan);
    const list = r.algorithm === 'stockham-multipass' ? r.passes : r.algorithm === 'bluestein' ? [] : [r];
    assert.equal(list.map((p) => p.radices.join('·')).join(' | '), radices, `n=${n}`);
    for (const direction of ['forward', 'inverse'] as const) {
      const err = await compare(ctx, { n, batch, direction }, n + 7 * batch, { plan });
      assert.ok(err <= bound(n), `n=${n} maxOddRadix=${maxOddRadix} ${direction}: ${err}`);
    }
  }
});
