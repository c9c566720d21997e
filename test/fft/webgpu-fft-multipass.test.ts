/**
 * The multi-pass C2C FFT (lengths beyond one workgroup) run for real on WebGPU (in CI: Mesa llvmpipe through
 * Dawn's GLES backend), compared with the float64 CPU backend on seeded random inputs. Each case is a
 * subtest, so progress shows case by case. Cases of 2^19 points and more run one problem (batch 1), a third
 * of the time on the software adapter: they plan the same kernels as batch 3 (the first test checks), and
 * batch offsets are covered by the 2^16 … 2^18, 3^10 and strided cases with batch 3, which use the same
 * load and store code. Each pass kernel compiles cold in about a second there, and the direction changes only
 * the twiddles' sign (and the scale), so the cases alternate directions rather than running both: every
 * length, exchange, layout and store form runs once, and each test runs both directions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createFftPlan } from '../../src/api/fft.js';
import { largestWorkgroupFft, type WorkgroupPlanOptions } from '../../src/planner/fft-workgroup.js';
import { planMultiPass } from '../../src/planner/fft-multipass.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { bound, compare } from './compare.js';

test('the batch-1 cases below plan the same kernels as batch 3 (only batch-dependent counts differ)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const long: WorkgroupPlanOptions = { maxPassLength: 1024, minColumns: 4 };
  const rows: WorkgroupPlanOptions = {
    passStore: 'rows',
    minColumns: 8,
    passExchange: 'complex',
    shortLastPass: false,
  };
  const cases: [number, WorkgroupPlanOptions][] = [
    [1 << 18, {}],
    [1 << 20, {}],
    [1000000, {}],
    [1 << 20, { ...long, passExchange: 'complex' }],
    [1 << 19, { ...long, passExchange: 'complex' }],
    [1000000, long],
    [1 << 20, { lastPassExchange: 'complex', longFirstRest: 512 }],
    [1 << 20, { ...long, maxRadix: 32 }],
    [1000000, rows],
  ];
  const code = (n: number, batch: number, plan: WorkgroupPlanOptions) =>
    JSON.stringify(planMultiPass(n, batch, ctx.limits, plan), (k, v) =>
      /batch|workgroups|dispatch|count|grid/i.test(k) ? undefined : v,
    );
  for (const [n, plan] of cases) assert.equal(code(n, 1, plan), code(n, 3, plan), `n=${n} ${JSON.stringify(plan)}`);
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
  for (const [i, [n, batch]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch}`, async () => {
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(
          ctx,
          { n, batch, direction, norm: direction === 'forward' ? 'ortho' : 'backward' },
          n + batch,
        );
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
      }
    });
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
    [1 << 20, 1, { ...long, passExchange: 'complex' }, ['split', 'split']],
    [1 << 19, 1, { ...long, passExchange: 'complex' }, ['split', 'complex']],
    [1000000, 1, long, ['split', 'split']],
    [1 << 16, 3, {}, ['split', 'split']],
    [1 << 16, 3, { passExchange: 'complex', shortLastPass: false }, ['complex', 'complex']], // 256·256 (1024·64 would not fit vec2 rows)
    [3 ** 10, 3, { exchange: 'complex' }, ['complex', 'complex']],
    [1 << 20, 1, { lastPassExchange: 'complex', longFirstRest: 512 }, ['split', 'split', 'complex']],
    // Radix-32 pass kernels (the long first passes of 2^17 … 2^19 on larger devices): 32·16 and 32·32.
    [1 << 18, 3, { ...long, maxRadix: 32 }, ['split', 'split']],
    [1 << 20, 1, { ...long, maxRadix: 32 }, ['split', 'split']],
  ];
  for (const [i, [n, batch, plan, expected]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} ${JSON.stringify(plan)}`, async () => {
      const recipe = planMultiPass(n, batch, ctx.limits, plan);
      assert.deepEqual(
        recipe.passes.map((r) => r.exchange),
        expected,
        `n=${n} exchange per pass`,
      );
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, n + batch + 7, { plan });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
      }
    });
  }
  await t.test('strided 2^20, batch 3', async () => {
    const n = 1 << 20;
    const strided = await compare(
      ctx,
      { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } },
      9,
      { plan: long },
    );
    assert.ok(strided <= bound(n), `strided: ${strided}`);
  });
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
    [1 << 20, 1, { maxPassLength: 1024, minColumns: 4, maxRadix: 32 }, [true, true]], // shift 5
    [3 ** 10, 3, {}, [false, false]], // 243-point rows: padded
    [12288, 3, {}, [true, true]], // 128·96: radix-3 stages in swizzled rows
    [62208, 3, {}, [true, false]], // 288 (= 9·32) swizzled, 216 padded
  ];
  for (const [i, [n, batch, plan, swizzled]] of cases.entries()) {
    await t.test(`n=${n} batch=${batch} ${JSON.stringify(plan)}`, async () => {
      const recipe = planMultiPass(n, batch, ctx.limits, plan);
      assert.deepEqual(
        recipe.passes.map((r) => !!r.swizzle),
        swizzled,
        `n=${n} ${JSON.stringify(plan)}: ${recipe.lengths}`,
      );
      for (const r of recipe.passes.filter((p) => p.swizzle))
        assert.equal(r.swizzleRotate, 32 / Math.min(r.problemsPerWorkgroup, 32));
      for (const direction of [i % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction }, n + batch + 3, { plan });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction} ${JSON.stringify(plan)}: ${err}`);
      }
    });
  }
});

test('multi-pass first pass storing along rows through workgroup memory', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Row stores stage vec2 rows: the complex exchange.
  const rows: WorkgroupPlanOptions = {
    passStore: 'rows',
    minColumns: 8,
    passExchange: 'complex',
    shortLastPass: false,
  };
  for (const [k, [n, batch]] of (
    [
      [1 << 16, 3],
      [1 << 17, 3],
      [1000000, 1],
      [3 ** 10, 3],
    ] as const
  ).entries()) {
    await t.test(`n=${n} batch=${batch}`, async () => {
      const recipe = planMultiPass(n, batch, ctx.limits, rows);
      assert.deepEqual(
        recipe.passes.map((r) => r.pass!.store),
        recipe.passes.map((_, i) => (i === 0 ? 'rows' : 'direct')),
        `n=${n} stores`,
      );
      for (const direction of [k % 2 === 0 ? 'forward' : 'inverse'] as const) {
        const err = await compare(ctx, { n, batch, direction, norm: 'ortho' }, n + 11, { plan: rows });
        assert.ok(err <= bound(n), `n=${n} batch=${batch} ${direction}: ${err}`);
      }
    });
  }
  await t.test('strided 2^16, batch 3', async () => {
    const n = 1 << 16;
    const strided = await compare(
      ctx,
      {
        n,
        batch: 3,
        input: { offset: 3, stride: 2, dist: 2 * n + 1 },
        output: { offset: 1, stride: 3, dist: 3 * n + 5 },
      },
      12,
      { plan: rows },
    );
    assert.ok(strided <= bound(n), `strided: ${strided}`);
  });
});

test('multi-pass: strided layouts, in place with odd and even pass counts, round trip at 2^22', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  await t.test('strided, batch 3', async () => {
    const n = 4 * largestWorkgroupFft(ctx.limits);
    const strided = await compare(
      ctx,
      { n, batch: 3, input: { offset: 3, stride: 2, dist: 2 * n + 1 }, output: { offset: 1, stride: 1, dist: n + 5 } },
      5,
    );
    assert.ok(strided <= bound(n), `strided: ${strided}`);
  });
  for (const m of [1 << 15, 1 << 20]) {
    await t.test(`in place n=${m}`, async () => {
      const ip = await compare(ctx, { n: m, batch: 1 }, 6, { inPlace: true });
      assert.ok(ip <= bound(m), `in place n=${m}: ${ip}`);
    });
  }
  await t.test('round trip 2^22', async () => {
    const big = 1 << 22;
    const x = randomFloat32(2 * big, 22);
    const fwd = await createFftPlan({ n: big, backend: 'webgpu', gpu: ctx });
    const inv = await createFftPlan({ n: big, direction: 'inverse', backend: 'webgpu', gpu: ctx });
    const back = await inv.execute(await fwd.execute(x));
    fwd.destroy();
    inv.destroy();
    assert.ok(relativeL2(back, x) <= 2 * bound(big), 'round trip 2^22');
  });
});
