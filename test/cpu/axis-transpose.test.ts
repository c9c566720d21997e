/**
 * Transforms along axes other than the last (src/backends/cpu/axis-transpose.ts): the engine's rows between
 * WebAssembly transposes, against the float64 reference on seeded inputs: DCTs, DSTs, the DHT and real FFTs. Shapes whose transposed sides are not
 * multiples of the transposes' tiles or row blocks, batches of ≥ 3 planes, every type, inverses, both norms, both
 * precisions; `out`, two threads, and axes mixed with ones the rows do not take (a crop).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dct, dctn, dht, dstn, idctn, idht, idstn, irfftn, rfftn } from '../../src/index.js';
import * as refFft from '../../src/backends/cpu/fft-nd.js';
import * as refDct from '../../src/backends/cpu/r2r-dct.js';
import * as refDst from '../../src/backends/cpu/r2r-dst.js';
import * as refDht from '../../src/backends/cpu/r2r-dht.js';
import { transformAlongAxes } from '../../src/backends/cpu/axis-transpose.js';
import { executeEngineRows } from '../../src/backends/cpu/worker-pool.js';

function seeded(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
}

function relMax(got: ArrayLike<number>, ref: ArrayLike<number>): number {
  assert.equal(got.length, ref.length, 'result length');
  let e = 0,
    m = 0;
  for (let i = 0; i < ref.length; i++) {
    e = Math.max(e, Math.abs(got[i]! - ref[i]!));
    m = Math.max(m, Math.abs(ref[i]!));
  }
  return e / (m || 1);
}

const TOL = { f32: 2e-6, f64: 1e-13 };
const fns = { dct: [dctn, idctn], dst: [dstn, idstn] } as const;
const refs = { dct: [refDct.dctn, refDct.idctn], dst: [refDst.dstn, refDst.idstn] } as const;

test('dctn / dstn along any axes: every type, inverses, norms, f32 and f64, against the float64 reference', async () => {
  const shapes: { shape: number[]; axes: number[][] }[] = [
    { shape: [3, 70, 5], axes: [[1], [0, 1], [0, 1, 2], [-2, -1]] },
    { shape: [67, 40], axes: [[0], [0, 1], [1, 0]] },
    { shape: [4, 130, 9], axes: [[1], [0, 2]] },
    { shape: [12, 3, 33], axes: [[0], [1, 2]] },
  ];
  let checked = 0;
  for (const { shape, axes: axesList } of shapes) {
    const len = shape.reduce((a, b) => a * b, 1);
    const x = seeded(len, len);
    for (const axes of axesList) {
      for (const family of ['dct', 'dst'] as const) {
        for (const type of [1, 2, 3, 4]) {
          for (const inverse of [0, 1] as const) {
            const norm = (type + inverse) % 2 ? 'ortho' : 'backward';
            const ref = refs[family][inverse](x, shape, { type, norm, axes }).data;
            for (const [T, tol] of [
              [Float64Array, TOL.f64],
              [Float32Array, TOL.f32],
            ] as const) {
              const got = await fns[family][inverse](T.from(x), { shape, axes, type, norm, backend: 'cpu' });
              assert.ok(got instanceof T);
              const e = relMax(got, ref);
              const what = `${inverse ? 'i' : ''}${family}n type ${type} ${norm} ${T.name} [${shape}] axes [${axes}]`;
              assert.ok(e < tol, `${what}: ${e}`);
              checked++;
            }
          }
        }
      }
    }
  }
  assert.equal(checked, 352);
});

test('DHT along a middle axis, `out`, two threads, and axes mixed with a cropped one', async () => {
  const shape = [5, 36, 7];
  const x = seeded(5 * 36 * 7, 9);
  for (const inverse of [false, true]) {
    const ref = (inverse ? refDht.idht : refDht.dht)(x, { axis: 1 }, shape).data;
    const got = await (inverse ? idht : dht)(Float64Array.from(x), { shape, axis: 1, backend: 'cpu', threads: 2 });
    assert.ok(relMax(got, ref) < TOL.f64, `${inverse ? 'i' : ''}dht axis 1`);
  }
  // `out` receives the result; the input is left as it was.
  const x32 = Float32Array.from(x);
  const out = new Float32Array(x.length).fill(NaN);
  const r = await dct(x32, { shape, axis: 0, type: 2, backend: 'cpu', out });
  assert.equal(r, out);
  assert.ok(relMax(out, refDct.dctn(x, shape, { axes: [0] }).data) < TOL.f32);
  assert.deepEqual([...x32], [...Float32Array.from(x)]);
  // Axis 0 cropped to 4 (the reference alone), axis 1 whole (rows between transposes), axis 2 last (rows).
  const s = [4, 36, 7];
  const mixed = await dctn(Float64Array.from(x), { shape, s, type: 3, norm: 'ortho', backend: 'cpu', threads: 2 });
  assert.ok(relMax(mixed, refDct.dctn(x, shape, { s, type: 3, norm: 'ortho' }).data) < TOL.f64);
});

test('transformAlongAxes runs every engine step as rows, transposed where the axis is not innermost', async () => {
  const shape = [12, 130, 9, 20];
  const x = seeded(12 * 130 * 9 * 20, 5);
  const axes = [0, 1, 2, 3];
  const ref = refDct.dctn(x, shape, { axes }).data;
  for (const [T, precision, tol] of [
    [Float64Array, 'f64', TOL.f64],
    [Float32Array, 'f32', TOL.f32],
  ] as const) {
    const counts: number[] = [];
    const steps = [...axes].reverse().map((axis) => {
      const n = shape[axis]!;
      const op = { kind: 'dct2', n, precision, scale: 1, orthogonalize: false } as const;
      return {
        axis,
        nIn: n,
        nOut: n,
        inPer: 1,
        outPer: 1,
        rows: (i: Float32Array | Float64Array, o: Float32Array | Float64Array, count: number) => (
          counts.push(count),
          executeEngineRows(op, i, o, count, 1)
        ),
      } as const;
    });
    const got = await transformAlongAxes(T.from(x), shape, steps, undefined);
    assert.deepEqual(
      counts,
      [...axes].reverse().map((a) => x.length / shape[a]!),
    );
    assert.ok(got instanceof T);
    assert.ok(relMax(got, ref) < tol, `${precision}: ${relMax(got, ref)}`);
  }
});

test('real FFT steps along a middle axis: real → complex and back through every transpose width', async () => {
  const shape = [3, 50, 7];
  const x = seeded(3 * 50 * 7, 11);
  const ref = refFft.rfftn(x, shape, { axes: [1] });
  for (const [T, precision, tol] of [
    [Float64Array, 'f64', TOL.f64],
    [Float32Array, 'f32', TOL.f32],
  ] as const) {
    const step = (inverse: boolean) =>
      ({
        axis: 1,
        nIn: inverse ? 26 : 50,
        nOut: inverse ? 50 : 26,
        inPer: inverse ? 2 : 1,
        outPer: inverse ? 1 : 2,
        rows: (i: Float32Array | Float64Array, o: Float32Array | Float64Array, count: number) =>
          executeEngineRows({ kind: inverse ? 'irfft' : 'rfft', n: 50, precision }, i, o, count, 1),
      }) as const;
    const spec = await transformAlongAxes(T.from(x), shape, [step(false)], undefined);
    assert.ok(relMax(spec, ref.data) < tol, `${precision} rfft: ${relMax(spec, ref.data)}`);
    const back = await transformAlongAxes(T.from(ref.data), ref.shape, [step(true)], undefined);
    assert.ok(relMax(back, x) < tol, `${precision} irfft: ${relMax(back, x)}`);
  }
});

test('rfftn / irfftn with the real axis anywhere, f32 and f64, every norm, against the float64 driver', async () => {
  let checked = 0;
  for (const shape of [
    [33, 20],
    [5, 16, 6],
    [7, 9, 10],
  ]) {
    const x = seeded(
      shape.reduce((a, b) => a * b, 1),
      shape.length,
    );
    for (const axes of [[0], [1], [shape.length - 1, 0], [...shape.keys()].reverse()]) {
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        const ref = refFft.rfftn(x, shape, { axes, norm });
        const sOut = axes.map((a) => shape[a]!);
        for (const [T, tol] of [
          [Float64Array, TOL.f64],
          [Float32Array, 4 * TOL.f32],
        ] as const) {
          const y = await rfftn(T.from(x), { shape, axes, norm, backend: 'cpu' });
          assert.ok(relMax(y, ref.data) < tol, `rfftn ${T.name} [${shape}] axes [${axes}] ${norm}`);
          const z = await irfftn(T.from(ref.data), {
            shape: ref.shape,
            axes,
            s: sOut,
            norm,
            backend: 'cpu',
            threads: 2,
          });
          assert.ok(relMax(z, x) < tol, `irfftn ${T.name} [${shape}] axes [${axes}] ${norm}`);
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 72);
});

test('calls in flight at once each get their own staging (results equal the same calls one at a time)', async () => {
  const shape = [64, 512, 8];
  const inputs = [1, 2, 3, 4].map((seed) => Float32Array.from(seeded(64 * 512 * 8, seed)));
  const run = (x: Float32Array, i: number) =>
    i % 2
      ? dctn(x, { shape, axes: [0, 1], type: 2, backend: 'cpu', threads: 2 })
      : rfftn(x, { shape, axes: [2, 0, 1], backend: 'cpu', threads: 2 });
  const together = await Promise.all(inputs.map(run));
  for (let i = 0; i < inputs.length; i++) assert.deepEqual([...together[i]!], [...(await run(inputs[i]!, i))]);
});

test('a reference step that pads an axis before engine steps: the staging fits the padded shape', async () => {
  // Axes run last first: axis 2 padded 2 → 6 (reference), axis 1 whole (rows between transposes, 6 inner), axis 0
  // cropped 5 → 4 (reference).
  const shape = [5, 36, 2];
  const s = [4, 36, 6];
  const x = seeded(5 * 36 * 2, 17);
  for (const [T, tol] of [
    [Float64Array, TOL.f64],
    [Float32Array, TOL.f32],
  ] as const) {
    for (const type of [2, 3]) {
      const got = await idstn(T.from(x), { shape, s, type, backend: 'cpu', threads: 2 });
      const want = refDst.idstn(x, shape, { s, type }).data;
      assert.ok(relMax(got, want) < tol, `${T.name} type ${type}: ${relMax(got, want)}`);
    }
  }
});
