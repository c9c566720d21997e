/**
 * The CPU engine's 2-D path (src/backends/cpu/fft-2d.ts: rows by the engine's row module, columns by the
 * column module, in one WebAssembly memory) through fft2 / ifft2 / fftn over the last two axes, against the
 * N-D driver in float64 (itself checked against the naive DFT): lane-split and lane-batch rows, row counts that
 * are not multiples of the lanes, column lengths of every radix, blocks of 1, 2 and 4 groups, stacks of arrays,
 * both directions, every norm, `out` and in place; shapes without a 2-D recipe still take the N-D driver.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nd from '../../src/backends/cpu/fft-nd.js';
import {
  planCpuEngineFft2,
  planCpuEngineFft3,
  planCpuEngineRfft2,
  planCpuEngineRfft3,
} from '../../src/planner/cpu-fft.js';
import {
  disposeCpuWorkers,
  fft2,
  fftn,
  ifft2,
  ifftn,
  irfft2,
  irfftn,
  rfft2,
  rfftn,
  WorkerError,
} from '../../src/index.js';
import { injectWorkerFault } from '../../src/backends/cpu/worker-pool.js';
import { assertSame, bound, relErr, rng } from '../helpers/numeric.js';

test.after(() => disposeCpuWorkers());

test('2-D recipes: where the engine path applies', () => {
  const r = planCpuEngineFft2(1024, 1024, 'f32')!;
  assert.equal(r.row.kind, 'lane-split');
  assert.equal(r.blockGroups, 4);
  assert.equal(planCpuEngineFft2(7, 12, 'f32')!.row.kind, 'lane-batch');
  assert.equal(planCpuEngineFft2(30, 20, 'f32')!.blockGroups, 1); // 5 groups of 4 columns
  assert.equal(planCpuEngineFft2(8, 6, 'f64')!.blockGroups, 1); // 3 groups of 2
  assert.equal(planCpuEngineFft2(8, 10, 'f32'), null, 'columns not a multiple of the lanes');
  // Column lengths as the lane recipes take them: primes from 11 as generic passes, where those beat Bluestein.
  const generic = (rows: number): string[] | undefined =>
    planCpuEngineFft2(rows, 16, 'f32')?.colPasses.map((p) => `${p.radix}${p.generic ? 'g' : ''}`);
  assert.deepEqual(generic(41), ['41g']);
  assert.deepEqual(generic(17 * 19), ['17g', '19g']);
  assert.deepEqual(generic(4 * 37), ['4', '37g']);
  assert.deepEqual(generic(7 * 11), ['7', '11g']);
  assert.equal(planCpuEngineFft2(1009, 16, 'f32'), null, 'a column length through Bluestein');
  assert.equal(planCpuEngineFft2(16, 1009, 'f64'), null, 'rows through Bluestein');
});

test('fft2 / ifft2 on the engine: every shape kind against the float64 N-D driver', async () => {
  let seed = 1;
  for (const [R, C] of [
    [16, 16],
    [48, 64],
    [7, 12],
    [30, 20],
    [5, 8],
    [2, 4],
    [128, 1000],
    [11 * 13, 32],
    [8, 6],
    [4 * 37, 8],
    [3 * 41, 12],
    // Rows staged in chunks of several slots, a last slot partly filled.
    [2001, 12],
  ] as const) {
    for (const precision of ['f32', 'f64'] as const) {
      if (!planCpuEngineFft2(R, C, precision)) continue;
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const B = 3;
      const x = new Arr(2 * B * R * C).map(rng(seed++));
      for (const inverse of [false, true]) {
        for (const norm of ['backward', 'ortho', 'forward'] as const) {
          const got = await (inverse ? ifft2 : fft2)(x, { shape: [B, R, C], backend: 'cpu', norm });
          assert.equal(got.constructor, Arr);
          const ref = (inverse ? nd.ifftn : nd.fftn)(Float64Array.from(x), [B, R, C], { axes: [1, 2], norm }).data;
          const e = relErr(got, ref);
          assert.ok(e <= bound(R * C, precision), `${R}×${C} ${precision} inverse ${inverse} ${norm}: ${e}`);
        }
      }
    }
  }
});

test('2-D engine: out, in place, axes in either order, and shapes it leaves to the N-D driver', async () => {
  const R = 48,
    C = 64;
  const x = new Float32Array(2 * R * C).map(rng(9));
  const want = await fft2(x, { shape: [R, C], backend: 'cpu' });
  const out = new Float32Array(x.length);
  assert.equal(await fft2(x, { shape: [R, C], backend: 'cpu', out }), out);
  assert.deepEqual(out, want);
  const inPlace = x.slice();
  await fft2(inPlace, { shape: [R, C], backend: 'cpu', out: inPlace });
  assert.deepEqual(inPlace, want);
  assert.deepEqual(await fftn(x, { shape: [R, C], axes: [1, 0], backend: 'cpu' }), want);
  // 10 columns (not a multiple of the f32 lanes): the N-D driver, same results to rounding.
  const y = new Float32Array(2 * 6 * 10).map(rng(10));
  const ref = nd.fftn(Float64Array.from(y), [6, 10], {}).data;
  assert.ok(relErr(await fft2(y, { shape: [6, 10], backend: 'cpu' }), ref) <= bound(60, 'f32'));
});

test('2-D engine with threads: rows and column blocks shared out, bit for bit one thread', async () => {
  for (const [R, C, precision] of [
    [512, 512, 'f32'],
    [256, 512, 'f64'],
    [384, 1000, 'f32'],
  ] as const) {
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    assert.ok(planCpuEngineFft2(R, C, precision, 2)!.threads === 2, 'large enough to share');
    const x = new Arr(2 * 2 * R * C).map(rng(R + C));
    for (const inverse of [false, true]) {
      const f = inverse ? ifft2 : fft2;
      const one = await f(x, { shape: [2, R, C], backend: 'cpu', threads: 1, norm: 'ortho' });
      for (const threads of [2, 3]) {
        const got = await f(x, { shape: [2, R, C], backend: 'cpu', threads, norm: 'ortho' });
        assert.equal(got.length, one.length);
        for (let i = 0; i < got.length; i++)
          if (!Object.is(got[i], one[i])) assert.fail(`${R}×${C} ${precision} threads ${threads}: [${i}]`);
      }
    }
  }
  // A failing worker rejects the call with WorkerError; the next call is right.
  const x = new Float32Array(2 * 512 * 512).map(rng(3));
  const good = await fft2(x, { shape: [512, 512], backend: 'cpu', threads: 2 });
  injectWorkerFault('throw');
  await assert.rejects(
    fft2(x, { shape: [512, 512], backend: 'cpu', threads: 2 }),
    (e: unknown) => e instanceof WorkerError,
  );
  assert.deepEqual(await fft2(x, { shape: [512, 512], backend: 'cpu', threads: 2 }), good);
});

test('real 2-D on the engine: rfft2 / irfft2 against the float64 N-D driver, threads bit for bit one thread', async () => {
  let seed = 40;
  for (const [R, N] of [
    [16, 16],
    [48, 64],
    [7, 12],
    [30, 20],
    [5, 8],
    [128, 1000],
    [1024, 512],
    [7 * 11 * 13, 64],
    [1501, 20],
  ] as const) {
    for (const precision of ['f32', 'f64'] as const) {
      const recipe = planCpuEngineRfft2(R, N, precision);
      // 8 reals in f32: a half length of 4 has no fused real module (the N-D driver runs it).
      if (!recipe && N === 8 && precision === 'f32') continue;
      assert.ok(recipe && recipe.cols % (recipe.lanes * recipe.blockGroups) === 0, `${R}×${N} ${precision}`);
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const B = 2;
      const x = new Arr(B * R * N).map(rng(seed++));
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        const y = await rfft2(x, { shape: [B, R, N], backend: 'cpu', norm, threads: 1 });
        assert.equal(y.constructor, Arr);
        const ref = nd.rfftn(Float64Array.from(x), [B, R, N], { axes: [1, 2], norm }).data;
        assert.ok(relErr(y, ref) <= bound(R * N, precision), `rfft2 ${R}×${N} ${precision} ${norm}`);
        // irfft2 transforms the columns first, then the rows (numpy's order).
        const z = await irfft2(y, { shape: [B, R, N / 2 + 1], backend: 'cpu', norm, threads: 1 });
        const zRef = nd.irfftn(Float64Array.from(y), [B, R, N / 2 + 1], { axes: [1, 2], norm }).data;
        assert.ok(relErr(z, zRef) <= 2 * bound(R * N, precision), `irfft2 ${R}×${N} ${precision} ${norm}`);
        assert.ok(relErr(z, x) <= 4 * bound(R * N, precision), `round trip ${R}×${N} ${precision} ${norm}`);
        if (planCpuEngineRfft2(R, N, precision, 2)!.threads === 2) {
          const y2 = await rfft2(x, { shape: [B, R, N], backend: 'cpu', norm, threads: 2 });
          const z2 = await irfft2(y, { shape: [B, R, N / 2 + 1], backend: 'cpu', norm, threads: 3 });
          for (const [a, b] of [
            [y2, y],
            [z2, z],
          ] as const)
            for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`threads: [${i}]`);
        }
      }
    }
  }
  assert.equal(planCpuEngineRfft2(16, 15, 'f32'), null, 'odd real lengths take the N-D driver');
});

test('fftn of volumes: the last two axes on the 2-D path, the others by the N-D driver, against float64', async () => {
  let seed = 70;
  for (const [shape, axes] of [
    [[6, 16, 12], undefined],
    [
      [5, 32, 8],
      [2, 0, 1],
    ],
    [
      [3, 4, 8, 16],
      [1, 2, 3],
    ],
    [[2, 64, 64], undefined],
    [[41, 11, 8], undefined],
  ] as [number[], number[] | undefined][]) {
    for (const precision of ['f32', 'f64'] as const) {
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const n = shape.reduce((a, b) => a * b, 1);
      const x = new Arr(2 * n).map(rng(seed++));
      for (const inverse of [false, true]) {
        for (const norm of ['backward', 'ortho'] as const) {
          const out = new Arr(2 * n);
          const got = await (inverse ? ifftn : fftn)(x, { shape, axes, backend: 'cpu', norm, out });
          assert.equal(got, out);
          const ref = (inverse ? nd.ifftn : nd.fftn)(Float64Array.from(x), shape, { axes, norm }).data;
          const e = relErr(got, ref);
          assert.ok(e <= bound(n, precision), `[${shape}] axes ${axes} ${precision} ${inverse} ${norm}: ${e}`);
        }
      }
    }
  }
});

test('real 3-D on the engine: rfftn / irfftn over the last three axes against the float64 N-D driver, threads bit for bit one thread', async () => {
  let seed = 90;
  let checked = 0;
  let threaded = 0;
  for (const [shape, axes] of [
    [[16, 32, 64], undefined],
    [
      [3, 12, 16, 40],
      [1, 2, 3],
    ],
    [
      [24, 64, 16],
      [1, 0, 2],
    ],
    [[41, 11, 24], undefined],
    // Large enough (2 MiB) for threads to share the steps.
    [[64, 64, 128], undefined],
  ] as [number[], number[] | undefined][]) {
    const [D, R, N] = shape.slice(-3) as [number, number, number];
    for (const precision of ['f32', 'f64'] as const) {
      // The shapes are ones the volume recipe takes (else the N-D driver runs, which other tests cover).
      assert.ok(planCpuEngineRfft3(D, R, N, precision)?.depth, `[${shape}] ${precision}`);
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const size = shape.reduce((a, b) => a * b, 1);
      const x = new Arr(size).map(rng(seed++));
      const hShape = [...shape.slice(0, -1), N / 2 + 1];
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        const y = await rfftn(x, { shape, axes, backend: 'cpu', norm, threads: 1 });
        assert.equal(y.constructor, Arr);
        const ref = nd.rfftn(Float64Array.from(x), shape, { axes: axes ?? [0, 1, 2], norm }).data;
        assert.ok(relErr(y, ref) <= bound(D * R * N, precision), `rfftn [${shape}] ${precision} ${norm}`);
        const s = (axes ?? [0, 1, 2]).map((a) => shape[a]!);
        const z = await irfftn(y, { shape: hShape, axes, s, backend: 'cpu', norm, threads: 1 });
        const zRef = nd.irfftn(Float64Array.from(y), hShape, { axes: axes ?? [0, 1, 2], s, norm }).data;
        assert.ok(relErr(z, zRef) <= 2 * bound(D * R * N, precision), `irfftn [${shape}] ${precision} ${norm}`);
        assert.ok(relErr(z, x) <= 4 * bound(D * R * N, precision), `round trip [${shape}] ${precision} ${norm}`);
        if (planCpuEngineRfft3(D, R, N, precision, 2)!.threads === 2) {
          threaded++;
          assertSame(await rfftn(x, { shape, axes, backend: 'cpu', norm, threads: 2 }), y, `threads [${shape}]`);
          assertSame(await irfftn(y, { shape: hShape, axes, s, backend: 'cpu', norm, threads: 2 }), z, 'threads');
        }
        checked++;
      }
    }
  }
  assert.equal(checked, 30);
  assert.equal(threaded, 6, 'the large shape shares its steps');
});

test('3-D engine: recipes, and threads bit for bit one thread', async () => {
  assert.ok(planCpuEngineFft3(64, 64, 64, 'f32')?.depth, 'a volume recipe');
  assert.equal(planCpuEngineFft3(1009, 64, 64, 'f32'), null, 'a depth through Bluestein');
  assert.equal(planCpuEngineFft3(41, 64, 64, 'f32')?.depth?.colPasses[0]?.generic, true, 'a generic depth pass');
  assert.equal(planCpuEngineFft3(64, 64, 64, 'f32', 2)!.threads, 2);
  for (const precision of ['f32', 'f64'] as const) {
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const shape = [24, 64, 64];
    const x = new Arr(2 * 24 * 64 * 64).map(rng(precision === 'f32' ? 1 : 2));
    for (const inverse of [false, true]) {
      const f = inverse ? ifftn : fftn;
      const one = await f(x, { shape, backend: 'cpu', threads: 1 });
      const two = await f(x, { shape, backend: 'cpu', threads: 2 });
      assertSame(two, one, `${precision} inverse ${inverse}`);
    }
  }
});
