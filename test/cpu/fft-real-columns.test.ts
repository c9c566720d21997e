/**
 * Real transforms along a non-last axis as pairs of real columns in the column module (planCpuEngineRealColumns,
 * src/codegen/wasm/real-columns-pairs.ts): rfft / irfft / rfftn / irfftn against the float64 reference N-D driver,
 * every norm, odd and even lengths (the rows that pair with themselves: 0, and n/2 for even n), outer batches ≥ 3,
 * f32 and f64, for shapes the module takes and shapes it leaves to the transposes (the result must not depend on
 * which ran); and the DCT-II / -III and DST-II / -III of such pairs (planCpuEngineDctColumns).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rfft, irfft, rfftn, irfftn, dctn, idctn, dstn, idstn, disposeCpuWorkers } from '../../src/index.js';
import * as dst from '../../src/backends/cpu/r2r-dst.js';
import * as dct from '../../src/backends/cpu/r2r-dct.js';
import * as nd from '../../src/backends/cpu/fft-nd.js';
import { planCpuEngineDctColumns, planCpuEngineRealColumns } from '../../src/planner/cpu-fft.js';
import { rng } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';

const bound = (n: number, precision: 'f32' | 'f64') => (precision === 'f32' ? 2e-6 : 1e-14) * (4 + Math.log2(n));
const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

test('rfft / irfft along a non-last axis: pairs of real columns where they apply, against the float64 reference', async () => {
  let seed = 31;
  let taken = 0;
  // [shape, axis]: the lines are the axis, `inner` reals apart.
  for (const [shape, axis] of [
    [[3, 64, 16], 1],
    [[1000, 24], 0],
    [[2, 3, 1, 8], 0],
    [[4, 3, 96, 8], 2],
    [[3, 81, 8], 1],
    [[3, 2, 40], 1],
    [[5, 33, 16], 1],
    [[3, 97, 16], 1],
    [[4, 16, 6], 1],
    [[3, 16, 10], 1],
    [[8192, 8], 0],
  ] as [number[], number][]) {
    const n = shape[axis]!;
    const inner = prod(shape.slice(axis + 1));
    const half = [...shape];
    half[axis] = Math.floor(n / 2) + 1;
    for (const precision of ['f32', 'f64'] as const) {
      if (planCpuEngineRealColumns(n, inner, precision)) taken++;
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const x = new Arr(prod(shape)).map(rng(seed++));
      // Half spectra whose rows 0 and n/2 have imaginary parts, which a C2R drops (numpy, scipy).
      const y = new Arr(2 * prod(half)).map(rng(seed++));
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        const got = await rfft(x, { shape, axis, norm, backend: 'cpu', threads: 1 });
        const want = nd.rfft(Float64Array.from(x), { axis, norm }, shape).data;
        const err = relativeL2(got, want);
        assert.ok(err <= bound(n, precision), `rfft [${shape}] axis ${axis} ${precision} ${norm}: ${err}`);
        const back = await irfft(y, { shape: half, axis, n, norm, backend: 'cpu', threads: 1 });
        const wantBack = nd.irfft(Float64Array.from(y), { axis, n, norm }, half).data;
        const errBack = relativeL2(back, wantBack);
        assert.ok(errBack <= bound(n, precision), `irfft [${shape}] axis ${axis} ${precision} ${norm}: ${errBack}`);
      }
      // The real axis first of several (rfftn's last axis listed first), and its inverse, into `out`.
      const axes = [...shape.keys()].filter((a) => a !== axis).concat(axis);
      const wantN = nd.rfftn(Float64Array.from(x), shape, { axes }).data;
      const out = new Arr(wantN.length);
      await rfftn(x, { shape, axes, backend: 'cpu', out });
      assert.ok(relativeL2(out, wantN) <= 2 * bound(x.length, precision), `rfftn [${shape}] axes ${axes}`);
      const wantI = nd.irfftn(Float64Array.from(y), half, { axes, s: axes.map((a) => shape[a]!) }).data;
      const gotI = await irfftn(y, { shape: half, axes, s: axes.map((a) => shape[a]!), backend: 'cpu' });
      assert.ok(relativeL2(gotI, wantI) <= 2 * bound(x.length, precision), `irfftn [${shape}] axes ${axes}`);
    }
  }
  // The shapes above include ones the module takes in both precisions and ones it leaves (odd or narrow rows).
  assert.ok(taken >= 12, `real column pairs taken ${taken} times`);
});

test('DCT-II / -III and DST-II / -III along a non-last axis in the column module, against the float64 reference', async () => {
  let seed = 71;
  let taken = 0;
  for (const [shape, axis] of [
    [[64, 16], 0],
    [[3, 33, 8], 1],
    [[2, 3, 1, 8], 0],
    [[4, 100, 24], 1],
    [[3, 2, 40], 1],
    [[3, 97, 16], 1],
    [[4, 16, 6], 1],
  ] as [number[], number][]) {
    const n = shape[axis]!;
    const inner = prod(shape.slice(axis + 1));
    for (const precision of ['f32', 'f64'] as const) {
      if (planCpuEngineDctColumns(n, inner, precision)) taken++;
      if (planCpuEngineDctColumns(n, inner, precision, true)) taken++;
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const x = new Arr(prod(shape)).map(rng(seed++));
      for (const [family, type] of [
        ['dct', 2],
        ['dct', 3],
        ['dst', 2],
        ['dst', 3],
      ] as const) {
        for (const norm of ['backward', 'ortho', 'forward'] as const) {
          for (const orthogonalize of [undefined, false]) {
            for (const inverse of [false, true]) {
              const o = { shape, axes: [axis], type, norm, orthogonalize };
              const api = family === 'dct' ? (inverse ? idctn : dctn) : inverse ? idstn : dstn;
              const ref = family === 'dct' ? (inverse ? dct.idctn : dct.dctn) : inverse ? dst.idstn : dst.dstn;
              const got = await api(x, { ...o, backend: 'cpu', threads: 1 });
              const want = ref(Float64Array.from(x), shape, o).data;
              const err = relativeL2(got, want);
              const what = `${family} [${shape}] axis ${axis} ${precision} type ${type} ${norm} ${orthogonalize} ${inverse}`;
              assert.ok(err <= bound(n, precision), `${what}: ${err}`);
            }
          }
        }
      }
      // Every axis (the last one first, in rows): the column step then sees the axes after it already transformed.
      const want = dct.dctn(Float64Array.from(x), shape, {}).data;
      assert.ok(relativeL2(await dctn(x, { shape, backend: 'cpu' }), want) <= 2 * bound(x.length, precision));
    }
  }
  assert.ok(taken >= 16, `DCT / DST columns taken ${taken} times`);
});

test('threads split the column blocks: the same results as one thread, bit for bit', async () => {
  let seed = 101;
  for (const precision of ['f32', 'f64'] as const) {
    const shape = [256, 4096];
    // From 4 MiB a block the plan shares its column blocks (the calls below have one block each).
    assert.equal(planCpuEngineRealColumns(256, 4096, precision, 2)?.threads, 2);
    assert.equal(planCpuEngineRealColumns(16, 64, precision, 2)?.threads, undefined);
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const x = new Arr(prod(shape)).map(rng(seed++));
    const half = [129, 4096];
    const y = new Arr(2 * prod(half)).map(rng(seed++));
    let one: (Float32Array | Float64Array)[] = [];
    for (const threads of [1, 2]) {
      const o = { shape, axis: 0, backend: 'cpu', threads } as const;
      const got = [
        await rfft(x, o),
        await irfft(y, { ...o, shape: half, n: 256 }),
        await dctn(x, { shape, axes: [0], backend: 'cpu', threads }),
        await idstn(x, { shape, axes: [0], backend: 'cpu', threads }),
      ];
      if (threads === 1) {
        const want = nd.rfft(Float64Array.from(x), { axis: 0 }, shape).data;
        assert.ok(relativeL2(got[0]!, want) <= bound(256, precision));
        one = got;
      } else {
        got.forEach((g, i) => assert.deepEqual(g, one[i], `${precision} call ${i}`));
      }
    }
  }
});

test.after(() => disposeCpuWorkers());
