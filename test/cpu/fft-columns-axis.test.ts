/**
 * Complex transforms along a non-last axis by the column module (src/backends/cpu/fft-columns-axis.ts): against the
 * float64 reference N-D driver, every norm, both directions, outer batches ≥ 3, f32 and f64, for shapes the module
 * takes and shapes it leaves to the engine's plans (the result must not depend on which ran).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fft, ifft, fftn, ifftn, disposeCpuWorkers } from '../../src/index.js';
import { c2cN } from '../../src/backends/cpu/fft-nd.js';
import { planCpuEngineColumns } from '../../src/planner/cpu-fft.js';
import { rng } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';

const bound = (n: number, precision: 'f32' | 'f64') => (precision === 'f32' ? 2e-6 : 1e-14) * (4 + Math.log2(n));

test('fft / ifft along a non-last axis: the column module where it applies, against the float64 reference', async () => {
  let seed = 7;
  let taken = 0;
  // [shape, axis]: the lines are the axis, `inner` complex values apart.
  for (const [shape, axis] of [
    [[3, 64, 8], 1],
    [[1000, 12], 0],
    [[4, 3, 96, 4], 2],
    [[5, 2187, 2], 1],
    [[2310, 4], 0],
    [[3, 97, 8], 1],
    [[3, 16, 6], 1],
    [[6, 7, 3], 1],
    [[16384, 4], 0],
    // Widths that are not a whole number of lanes, padded with zero columns in the module's matrix.
    [[64, 129], 0],
    [[3, 32, 25], 1],
    [[5, 16, 3, 7], 1],
    [[4, 1000, 3, 5], 1],
  ] as [number[], number][]) {
    const n = shape[axis]!;
    const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    for (const precision of ['f32', 'f64'] as const) {
      if (planCpuEngineColumns(n, inner, precision)) taken++;
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const x = new Arr(2 * shape.reduce((a, b) => a * b, 1)).map(rng(seed++));
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        for (const inverse of [false, true]) {
          const got = await (inverse ? ifft : fft)(x, { shape, axis, norm, backend: 'cpu', threads: 1 });
          const want = c2cN(Float64Array.from(x), shape, { axes: [axis], norm }, inverse).data;
          const err = relativeL2(got, want);
          assert.ok(err <= bound(n, precision), `[${shape}] axis ${axis} ${precision} ${norm} ${inverse}: ${err}`);
        }
      }
      // Every axis at once, and the result written into `out` and in place.
      const want = c2cN(Float64Array.from(x), shape, {}, false).data;
      assert.ok(relativeL2(await fftn(x, { shape, backend: 'cpu' }), want) <= 2 * bound(x.length, precision));
      const inPlace = x.slice();
      await fft(inPlace, { shape, axis, backend: 'cpu', out: inPlace });
      assert.deepEqual(inPlace, await fft(x, { shape, axis, backend: 'cpu' }));
    }
  }
  // The shapes above include ones the module takes in both precisions (and, 97 and 6 × 7 × 3, ones it leaves).
  assert.ok(taken >= 10, `column module taken ${taken} times`);
});

test('column recipes pad widths that are not a whole number of lanes, within a bound on the added work', () => {
  // [cols, precision, padded width or null]: whole 128-byte blocks, else whole lanes, else no recipe.
  for (const [cols, precision, width] of [
    [129, 'f32', 144],
    [129, 'f64', 136],
    [25, 'f32', 28],
    [25, 'f64', 26],
    [21, 'f32', null],
    [21, 'f64', 22],
    [5, 'f32', null],
    [128, 'f32', 128],
  ] as [number, 'f32' | 'f64', number | null][]) {
    const r = planCpuEngineColumns(64, cols, precision);
    assert.equal(r?.cols ?? null, width, `${cols} ${precision}`);
    assert.equal(r?.dataCols, width === null || width === cols ? undefined : cols, `${cols} ${precision}`);
  }
});

test('fft / ifft along a non-last axis with threads: the column blocks shared, the same results as one thread', async () => {
  let seed = 61;
  for (const [precision, shape] of [
    ['f32', [3, 256, 2048]],
    ['f64', [3, 256, 2048]],
    ['f32', [3, 256, 2047]],
    ['f64', [3, 256, 2047]],
  ] as ['f32' | 'f64', number[]][]) {
    assert.equal(planCpuEngineColumns(256, shape[2]!, precision, 2)?.threads, 2);
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const x = new Arr(2 * shape.reduce((a, b) => a * b, 1)).map(rng(seed++));
    for (const inverse of [false, true]) {
      const call = (threads: number) =>
        (inverse ? ifft : fft)(x, { shape, axis: 1, norm: 'ortho', backend: 'cpu', threads });
      const one = await call(1);
      assert.deepEqual(await call(2), one, `${precision} ${inverse}`);
      const want = c2cN(Float64Array.from(x), shape, { axes: [1], norm: 'ortho' }, inverse).data;
      assert.ok(relativeL2(one, want) <= bound(256, precision));
    }
  }
  await disposeCpuWorkers();
});

test('fftn over several axes of odd widths with threads: each axis on threads, the same results as one thread', async () => {
  let seed = 91;
  // [shape, axes]: over 4 MiB, so that both the rows and the column blocks are shared.
  for (const [precision, shape, axes] of [
    ['f32', [1000, 1001], [0, 1]],
    ['f64', [513, 1001], [0, 1]],
    ['f32', [3, 700, 511], [0, 2]],
    ['f64', [5, 300, 301], [2, 1, 0]],
  ] as ['f32' | 'f64', number[], number[]][]) {
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const x = new Arr(2 * shape.reduce((a, b) => a * b, 1)).map(rng(seed++));
    for (const inverse of [false, true]) {
      const call = (threads: number) =>
        (inverse ? ifftn : fftn)(x, { shape, axes, norm: 'ortho', backend: 'cpu', threads });
      const one = await call(1);
      assert.deepEqual(await call(2), one, `[${shape}] ${precision} ${inverse}`);
      const want = c2cN(Float64Array.from(x), shape, { axes, norm: 'ortho' }, inverse).data;
      const n = axes.reduce((p, a) => p * shape[a]!, 1);
      assert.ok(relativeL2(one, want) <= 2 * bound(n, precision), `[${shape}] ${precision}`);
    }
  }
  await disposeCpuWorkers();
});
