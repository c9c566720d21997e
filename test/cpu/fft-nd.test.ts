import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fft,
  fft2,
  fftn,
  ifft,
  ifftn,
  irfft,
  irfft2,
  irfftn,
  rfft,
  rfft2,
  rfftn,
} from '../../src/backends/cpu/fft-nd.js';
import { dftNaive } from '../../src/backends/cpu/dft-naive.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';
import * as api from '../../src/index.js';

/**
 * Independent reference: transform one axis by explicit multi-index loops and a naive DFT per line,
 * with numpy's crop/pad to `len`. Complex in, complex out.
 */
function naiveAxis(
  data: Float64Array,
  shape: number[],
  axis: number,
  len: number,
  inverse: boolean,
): { data: Float64Array; shape: number[] } {
  const outShape = [...shape];
  outShape[axis] = len;
  const strides = (sh: number[]) => sh.map((_, i) => sh.slice(i + 1).reduce((a, b) => a * b, 1));
  const si = strides(shape),
    so = strides(outShape);
  const total = outShape.reduce((a, b) => a * b, 1) / len;
  const out = new Float64Array(2 * total * len);
  const others = shape.map((_, i) => i).filter((i) => i !== axis);
  for (let t = 0; t < total; t++) {
    // decode t into the other indices
    let r = t;
    const idx = new Array<number>(shape.length).fill(0);
    for (let j = others.length - 1; j >= 0; j--) {
      const d = others[j]!;
      idx[d] = r % outShape[d]!;
      r = Math.floor(r / outShape[d]!);
    }
    const line = new Float64Array(2 * len);
    for (let e = 0; e < Math.min(len, shape[axis]!); e++) {
      idx[axis] = e;
      const p = idx.reduce((a, v, i) => a + v * si[i]!, 0);
      line[2 * e] = data[2 * p]!;
      line[2 * e + 1] = data[2 * p + 1]!;
    }
    const y = dftNaive(line, inverse);
    for (let e = 0; e < len; e++) {
      idx[axis] = e;
      const p = idx.reduce((a, v, i) => a + v * so[i]!, 0);
      out[2 * p] = y[2 * e]!;
      out[2 * p + 1] = y[2 * e + 1]!;
    }
  }
  return { data: out, shape: outShape };
}

const toComplex = (x: Float64Array) => {
  const c = new Float64Array(2 * x.length);
  for (let i = 0; i < x.length; i++) c[2 * i] = x[i]!;
  return c;
};

/** Keep the first m entries along `axis` (complex data). */
function cropAxis(d: { data: Float64Array; shape: number[] }, axis: number, m: number) {
  const sh = d.shape;
  const outer = sh.slice(0, axis).reduce((a, b) => a * b, 1),
    inner = sh.slice(axis + 1).reduce((a, b) => a * b, 1);
  const out = new Float64Array(2 * outer * m * inner);
  for (let o = 0; o < outer; o++)
    out.set(d.data.subarray(2 * o * sh[axis]! * inner, 2 * (o * sh[axis]! + m) * inner), 2 * o * m * inner);
  const s2 = [...sh];
  s2[axis] = m;
  return { data: out, shape: s2 };
}

const TOL = 1e-12;

test('fftn / ifftn vs per-axis naive DFTs (2-D, 3-D, odd sizes, chosen axes, s, norms)', () => {
  const cases: { shape: number[]; axes?: number[]; s?: number[] }[] = [
    { shape: [4, 6] },
    { shape: [5, 7] },
    { shape: [3, 5, 7] },
    { shape: [2, 3, 4, 5], axes: [1, 3] },
    { shape: [6, 9, 4], axes: [-1, 0] },
    { shape: [5, 8], s: [7, 3] },
    { shape: [3, 4, 5], axes: [0, 2], s: [4, 9] },
    { shape: [4, 5, 6], s: [3, 10] }, // s without axes → last two axes
    { shape: [17, 1] },
  ];
  let seed = 1;
  for (const c of cases) {
    const n = c.shape.reduce((a, b) => a * b, 1);
    const x = randomFloat64(2 * n, seed++);
    const axes = (c.axes ?? (c.s ? c.s.map((_, i) => c.shape.length - c.s!.length + i) : c.shape.map((_, i) => i))).map(
      (a) => (a < 0 ? a + c.shape.length : a),
    );
    const s = c.s ?? axes.map((a) => c.shape[a]!);
    for (const inverse of [false, true]) {
      let ref: { data: Float64Array; shape: number[] } = { data: x, shape: c.shape };
      for (let i = axes.length - 1; i >= 0; i--) ref = naiveAxis(ref.data, ref.shape, axes[i]!, s[i]!, inverse);
      const got = (inverse ? ifftn : fftn)(x, c.shape, { axes: c.axes, s: c.s });
      assert.deepEqual(got.shape, ref.shape);
      assert.ok(relativeL2(got.data, ref.data) < TOL, `${JSON.stringify(c)} inverse=${inverse}`);
      const tot = s.reduce((a, b) => a * b, 1);
      const ortho = (inverse ? ifftn : fftn)(x, c.shape, { axes: c.axes, s: c.s, norm: 'ortho' });
      const scale = inverse ? Math.sqrt(tot) : 1 / Math.sqrt(tot);
      assert.ok(
        relativeL2(
          ortho.data,
          Array.from(ref.data, (v) => v * scale),
        ) < TOL,
      );
    }
  }
  // fft2 default axes are the last two
  const x = randomFloat64(2 * 60, 99);
  const a = fft2(x, [3, 4, 5]);
  const b = fftn(x, [3, 4, 5], { axes: [1, 2] });
  assert.deepEqual(a, b);
  // round trip
  const r = ifftn(fftn(x, [3, 4, 5]).data, [3, 4, 5]);
  assert.ok(relativeL2(r.data, x) < TOL);
});

test('1-D fft/ifft along an axis, with n', () => {
  const x = randomFloat64(2 * 12, 5);
  const y = fft(x, { axis: 0, n: 5 }, [3, 4]);
  const ref = naiveAxis(x, [3, 4], 0, 5, false);
  assert.deepEqual(y.shape, [5, 4]);
  assert.ok(relativeL2(y.data, ref.data) < TOL);
  const z = ifft(x);
  assert.ok(relativeL2(z.data, dftNaive(x, true)) < TOL);
  assert.deepEqual(z.shape, [12]);
});

test('rfftn / irfftn vs complex transforms (odd sizes, chosen axes, s)', () => {
  const cases: { shape: number[]; axes?: number[]; s?: number[] }[] = [
    { shape: [4, 6] },
    { shape: [5, 7] },
    { shape: [3, 5, 8] },
    { shape: [3, 4, 5], axes: [2, 0] },
    { shape: [6, 5, 4], axes: [0, 1] },
    { shape: [4, 6], s: [5, 9] },
    { shape: [1, 1] },
  ];
  let seed = 100;
  for (const c of cases) {
    const n = c.shape.reduce((a, b) => a * b, 1);
    const x = randomFloat64(n, seed++);
    const nd = c.shape.length;
    const axes = (c.axes ?? c.shape.map((_, i) => i)).map((a) => (a < 0 ? a + nd : a));
    const s = c.s ?? axes.map((a) => c.shape[a]!);
    const lastAx = axes.at(-1)!;
    // reference: full complex fftn then keep the first s[-1]/2+1 along the last axis
    let ref: { data: Float64Array; shape: number[] } = { data: toComplex(x), shape: c.shape };
    for (let i = axes.length - 1; i >= 0; i--) ref = naiveAxis(ref.data, ref.shape, axes[i]!, s[i]!, false);
    const m = Math.floor(s.at(-1)! / 2) + 1;
    const half = cropAxis(ref, lastAx, m);
    const got = rfftn(x, c.shape, { axes: c.axes, s: c.s });
    assert.deepEqual(got.shape, half.shape);
    assert.ok(relativeL2(got.data, half.data) < TOL, `rfftn ${JSON.stringify(c)}`);
    // irfftn back with the original lengths recovers the (cropped/padded) input
    const back = irfftn(got.data, got.shape, { axes: c.axes, s });
    let padded: { data: Float64Array; shape: number[] } = { data: toComplex(x), shape: c.shape };
    for (let i = 0; i < axes.length; i++) {
      // naive forward (with crop/pad) then naive inverse = the input cropped/zero-padded to s
      const f = naiveAxis(padded.data, padded.shape, axes[i]!, s[i]!, false);
      padded = naiveAxis(f.data, f.shape, axes[i]!, s[i]!, true);
    }
    const re = new Float64Array(padded.data.length / 2);
    for (let i = 0; i < re.length; i++) re[i] = padded.data[2 * i]!;
    assert.deepEqual(back.shape, padded.shape);
    assert.ok(relativeL2(back.data, re) < TOL, `irfftn ${JSON.stringify(c)}`);
  }
  const x = randomFloat64(30, 3);
  assert.deepEqual(rfft2(x, [2, 3, 5]), rfftn(x, [2, 3, 5], { axes: [1, 2] }));
  const y = rfft2(x, [2, 3, 5]);
  assert.ok(relativeL2(irfft2(y.data, y.shape, { s: [3, 5] }).data, x) < TOL);
});

test('1-D rfft/irfft with n and axis; irfft default length 2(m−1)', () => {
  const x = randomFloat64(10, 8);
  const y = rfft(x);
  assert.deepEqual(y.shape, [6]);
  assert.ok(relativeL2(irfft(y.data).data, x) < TOL);
  assert.deepEqual(irfft(y.data, { n: 11 }).shape, [11]);
  const odd = rfft(x, { n: 9 });
  assert.deepEqual(odd.shape, [5]);
  assert.ok(relativeL2(irfft(odd.data, { n: 9 }).data, x.subarray(0, 9)) < TOL);
  // along axis 0 of a 5×2 array
  const z = rfft(x, { axis: 0 }, [5, 2]);
  assert.deepEqual(z.shape, [3, 2]);
  const ref = naiveAxis(toComplex(x), [5, 2], 0, 5, false);
  assert.ok(relativeL2(z.data, cropAxis(ref, 0, 3).data) < TOL);
});

test('N-D bad input', () => {
  assert.throws(() => fftn(new Float64Array(10), [2, 3]), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { axes: [2] }), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { axes: [-3] }), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { axes: [0], s: [2, 3] }), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { s: [0, 3] }), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { s: [2.5, 3] }), ArgumentError);
  assert.throws(() => fft(new Float64Array(3)), ArgumentError);
  assert.throws(() => fft(new Float64Array(0)), ArgumentError);
  assert.throws(() => irfft(new Float64Array(2)), ArgumentError); // m = 1 → n = 0
  assert.throws(() => rfftn(new Float64Array(5), [2, 3]), ArgumentError);
  assert.throws(() => fftn(new Float64Array(12), [2, 3], { axes: [0.5] }), ArgumentError);
});

test("irfftn / irfft2 whose last axis holds one value: length 1 there by default (scipy.fft's result), the values' real parts along it", async () => {
  // x[r] = (2r + 1) + (2r + 2)i; a length-1 c2r keeps the real part, then the other axes transform as usual.
  for (const [shape, axes] of [
    [[1], undefined],
    [[3, 1], undefined],
    [[4, 1], [1]],
  ] as [number[], number[] | undefined][]) {
    const rows = shape[0]!;
    const x = Float64Array.from({ length: 2 * rows }, (_, i) => i + 1);
    const y = await api.irfftn(x, { shape, axes, backend: 'cpu' });
    assert.equal(y.length, rows, `${shape} ${axes}`);
    const re = Float64Array.from({ length: rows }, (_, r) => 2 * r + 1);
    // Over both axes: the real parts of the inverse complex transform along the first (irfftn runs the complex axes
    // first, then the length-1 c2r keeps the real part).
    const full = await api.ifft(x, { backend: 'cpu' });
    const want = axes ? re : full.filter((_, i) => i % 2 === 0);
    assert.ok(relativeL2(Float64Array.from(y), want) < TOL, `${shape} ${axes}: ${Array.from(y)}`);
  }
  assert.equal((await api.irfft2(new Float64Array(6), { shape: [3, 1], backend: 'cpu' })).length, 3);
  // 1-D irfft of one value has no default length (2(m − 1) = 0), as numpy and scipy.fft say.
  await assert.rejects(api.irfft(new Float64Array(2), { backend: 'cpu' }), ArgumentError);
});

test('empty input as numpy: zeros where s / n zero-pads an empty axis, an empty result for an empty batch axis', async () => {
  const E = new Float64Array(0);
  const zeros = async (
    p: Promise<Float32Array | Float64Array>,
    length: number,
    Arr: typeof Float32Array | typeof Float64Array = Float64Array,
  ) => {
    const r = await p;
    assert.ok(r instanceof Arr && r.length === length && r.every((v) => v === 0), `${r.constructor.name}(${r.length})`);
  };
  await zeros(api.fft(E, { n: 2 }), 4);
  await zeros(api.fft(new Float32Array(0), { n: 2, backend: 'cpu' }), 4, Float32Array);
  await zeros(api.fft(E, { shape: [3, 0], n: 3 }), 18);
  await zeros(api.fft(E, { shape: [0, 4] }), 0); // the batch axis is empty
  await zeros(api.rfft(E, { n: 4 }), 6);
  await zeros(api.irfft(E, { n: 4 }), 4);
  await zeros(api.fftn(E, { shape: [2, 0], s: [2, 3] }), 12);
  await zeros(api.rfftn(E, { shape: [2, 0], s: [2, 4] }), 12);
  await zeros(api.hfft(E, { n: 4 }), 4);
  await zeros(api.dct(E, { n: 3 }), 3);
  await zeros(api.dst(new Float32Array(0), { n: 3, type: 4 }), 3, Float32Array);
  await zeros(api.dht(E, { n: 3 }), 3);
  await zeros(api.dctn(E, { shape: [0, 3], axes: [1] }), 0);
  // An empty axis transformed at its own length has no transform (scipy: "invalid number of data points").
  for (const p of [
    api.fft(E),
    api.irfft(E),
    api.fft2(E, { shape: [0, 4] }),
    api.dct(E),
    api.dctn(E, { shape: [0, 3] }),
  ])
    await assert.rejects(p, /^ArgumentError: x: /);
});
