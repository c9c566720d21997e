import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dct, dctn, idct, idctn } from '../../src/backends/cpu/r2r-dct.js';
import { dst, dstn, idst, idstn } from '../../src/backends/cpu/r2r-dst.js';
import { dht, idht } from '../../src/backends/cpu/r2r-dht.js';
import { dctDirect, dhtDirect, dstDirect } from '../../src/backends/cpu/r2r-direct.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';

const bound = (n: number) => 1e-12 * Math.log2(n + 1) + 1e-15;
const NORMS = ['backward', 'ortho', 'forward'] as const;
const TYPES = [1, 2, 3, 4] as const;

function close(a: ArrayLike<number>, b: number[], tol = 1e-8) {
  assert.equal(a.length, b.length);
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) < tol, `[${i}] ${a[i]} vs ${b[i]}`);
}

test('hand-computed values from scipy documentation', () => {
  // scipy.fft docs: dct([4, 3, 5, 10], 1) = [30, −8, 6, −2] (= fft of the even extension, real part)
  close(dct([4, 3, 5, 10], { type: 1 }).data, [30, -8, 6, -2]);
  // scipy.fft.dst docstring: dst([1, 2, 3, 4], type=2) = [13.06562965, −5.65685425, 5.411961, −4]
  close(dst([1, 2, 3, 4], { type: 2 }).data, [13.06562965, -5.65685425, 5.411961, -4]);
  close(dst([1, -1, 1, -1], { type: 2 }).data, [0, 0, 0, 8], 1e-12);
  // DCT-II of a constant: only y_0 = 2N·c; ortho: √N·c
  close(dct([1, 1, 1, 1]).data, [8, 0, 0, 0], 1e-12);
  close(dct([1, 1, 1, 1], { norm: 'ortho' }).data, [2, 0, 0, 0], 1e-12);
  // DCT-III backward: y_k = x_0 + …; of e_0 is all ones
  close(dct([1, 0, 0], { type: 3 }).data, [1, 1, 1], 1e-12);
  // DST-I of one point: 2·x_0·sin(π/2)
  close(dst([3], { type: 1 }).data, [6], 1e-12);
  // DHT of [1, 2, 3, 4]: Y = [10, −2+2i, −2, −2−2i] → h = Re Y − Im Y = [10, −4, −2, 0]
  close(dht([1, 2, 3, 4]).data, [10, -4, -2, 0], 1e-12);
});

test('DCT/DST 1–4 and DHT vs direct definitions, every N = 1..1024 (N ≥ 2 for DCT-I)', () => {
  for (let n = 1; n <= 1024; n++) {
    const x = randomFloat64(n, 5000 + n);
    const b = bound(n);
    for (const t of TYPES) {
      if (n >= 2 || t !== 1) {
        const e = relativeL2(dct(x, { type: t }).data, dctDirect(x, t));
        if (!(e < b)) assert.fail(`dct type ${t} n=${n}: ${e}`);
      }
      const e = relativeL2(dst(x, { type: t }).data, dstDirect(x, t));
      if (!(e < b)) assert.fail(`dst type ${t} n=${n}: ${e}`);
    }
    const e = relativeL2(dht(x).data, dhtDirect(x));
    if (!(e < b)) assert.fail(`dht n=${n}: ${e}`);
  }
});

test('all norms × orthogonalize × direction vs direct definitions', () => {
  for (const n of [1, 2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 127, 128, 255, 1000]) {
    const x = randomFloat64(n, n + 1);
    for (const norm of NORMS) {
      for (const orthogonalize of [undefined, true, false]) {
        for (const inverse of [false, true]) {
          for (const type of TYPES) {
            const o = { type, norm, orthogonalize };
            if (n >= 2 || type !== 1) {
              const got = (inverse ? idct : dct)(x, o).data;
              assert.ok(
                relativeL2(got, dctDirect(x, type, { norm, orthogonalize, inverse })) < bound(n),
                `dct ${JSON.stringify(o)} inv=${inverse} n=${n}`,
              );
            }
            const got = (inverse ? idst : dst)(x, o).data;
            assert.ok(
              relativeL2(got, dstDirect(x, type, { norm, orthogonalize, inverse })) < bound(n),
              `dst ${JSON.stringify(o)} inv=${inverse} n=${n}`,
            );
          }
        }
        const h = (orthogonalize === undefined ? [false, true] : []).map((inverse) =>
          relativeL2((inverse ? idht : dht)(x, { norm }).data, dhtDirect(x, { norm, inverse })),
        );
        for (const e of h) assert.ok(e < bound(n), `dht ${norm} n=${n}`);
      }
    }
  }
});

test('round trips for every type and norm (with and without orthogonalize)', () => {
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 33, 64, 97, 1000, 1024, 4096, 4099, 65536]) {
    const x = randomFloat64(n, 3 * n);
    for (const norm of NORMS) {
      for (const orthogonalize of [undefined, true, false]) {
        for (const type of TYPES) {
          const o = { type, norm, orthogonalize };
          if (n >= 2 || type !== 1)
            assert.ok(relativeL2(idct(dct(x, o).data, o).data, x) < bound(n), `dct ${JSON.stringify(o)} n=${n}`);
          assert.ok(relativeL2(idst(dst(x, o).data, o).data, x) < bound(n), `dst ${JSON.stringify(o)} n=${n}`);
        }
      }
      assert.ok(relativeL2(idht(dht(x, { norm }).data, { norm }).data, x) < bound(n), `dht ${norm} n=${n}`);
    }
  }
});

test("norm='ortho' (orthogonalized) matrices are orthonormal; DHT ortho is an involution", () => {
  for (const n of [2, 3, 4, 5, 8, 13]) {
    for (const [name, f] of [
      ['dct', dct],
      ['dst', dst],
    ] as const) {
      for (const type of TYPES) {
        const cols: Float64Array[] = [];
        for (let j = 0; j < n; j++) {
          const e = new Float64Array(n);
          e[j] = 1;
          cols.push(f(e, { type, norm: 'ortho' }).data);
        }
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            let dot = 0;
            for (let k = 0; k < n; k++) dot += cols[i]![k]! * cols[j]![k]!;
            assert.ok(Math.abs(dot - (i === j ? 1 : 0)) < 1e-13, `${name}${type} n=${n} (${i},${j}) = ${dot}`);
          }
        }
      }
    }
    const x = randomFloat64(n, n);
    assert.ok(relativeL2(dht(dht(x, { norm: 'ortho' }).data, { norm: 'ortho' }).data, x) < 1e-14);
  }
});

test('axis, n (crop/pad) and N-D variants vs 1-D transforms by hand', () => {
  const shape = [3, 4, 5];
  const x = randomFloat64(60, 42);
  // along axis 1 with n = 6 (zero-padded)
  const y = dct(x, { type: 2, axis: 1, n: 6 }, shape);
  assert.deepEqual(y.shape, [3, 6, 5]);
  for (let a = 0; a < 3; a++) {
    for (let c = 0; c < 5; c++) {
      const line = [0, 1, 2, 3, 4, 5].map((j) => (j < 4 ? x[a * 20 + j * 5 + c]! : 0));
      const got = [0, 1, 2, 3, 4, 5].map((j) => y.data[a * 30 + j * 5 + c]!);
      assert.ok(relativeL2(got, dctDirect(line, 2)) < 1e-13);
    }
  }
  // crop
  assert.ok(relativeL2(dst(x, { n: 40, type: 4 }).data, dstDirect(x.subarray(0, 40), 4)) < 1e-13);
  // dctn over all axes = dct along each axis in turn; idctn inverts it
  for (const type of TYPES) {
    for (const norm of NORMS) {
      const o = { type, norm };
      let ref = { data: x, shape };
      for (const ax of [2, 1, 0]) ref = dct(ref.data, { ...o, axis: ax }, ref.shape);
      const got = dctn(x, shape, o);
      assert.ok(relativeL2(got.data, ref.data) < 1e-13, `dctn ${type} ${norm}`);
      assert.ok(relativeL2(idctn(got.data, shape, o).data, x) < 1e-13);
      let refs = { data: x, shape };
      for (const ax of [0, 2]) refs = dst(refs.data, { ...o, axis: ax }, refs.shape);
      const gs = dstn(x, shape, { ...o, axes: [0, 2] });
      assert.ok(relativeL2(gs.data, refs.data) < 1e-13, `dstn ${type} ${norm}`);
      assert.ok(relativeL2(idstn(gs.data, shape, { ...o, axes: [0, 2] }).data, x) < 1e-13);
    }
  }
  // s with padding in dctn
  const p = dctn(x, shape, { s: [6, 7], type: 1 });
  assert.deepEqual(p.shape, [3, 6, 7]);
});

test('r2r bad input', () => {
  assert.throws(
    () => dct([1], { type: 1 }),
    (e: unknown) => e instanceof ArgumentError && /≥ 2 for DCT type 1/.test(e.message),
  );
  assert.throws(() => dct([1, 2], { type: 5 }), ArgumentError);
  assert.throws(() => dst([1, 2], { type: 0 }), ArgumentError);
  assert.throws(() => dct([1, 2], { type: 2.5 }), ArgumentError);
  assert.throws(() => dct([], {}), ArgumentError);
  assert.throws(() => dct([1, 2, 3], { n: 2.5 }), ArgumentError);
  assert.throws(() => dct([1, 2, 3], {}, [2, 2]), ArgumentError);
  assert.throws(() => dct([1, 2, 3, 4], { axis: 2 }, [2, 2]), ArgumentError);
  assert.throws(() => dct([1, 2, 3], { norm: 'none' as never }), ArgumentError);
  assert.throws(() => dht([1, 2, 3], { n: 0 }), ArgumentError);
  assert.throws(() => dctn([1, 2, 3, 4], [2, 2], { s: [2], axes: [0, 1] }), ArgumentError);
});
