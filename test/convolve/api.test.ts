import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  convolve,
  correlate,
  fftconvolve,
  oaconvolve,
  chooseConvMethod,
  nextFastLen,
  type ConvMode,
} from '../../src/api/convolve.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { rng } from '../../src/util/random.js';
import { ArgumentError, UnsupportedError } from '../../src/errors.js';
import { testGpu } from '../helpers/gpu.js';
import { naiveFull, naiveMode, randomComplex, realPart } from './helpers.js';
import { nextFastCpuLen } from '../../src/planner/convolve.js';
import { planCpuEngineRfft2 } from '../../src/planner/cpu-fft.js';

const MODES: ConvMode[] = ['full', 'same', 'valid'];
const n = (s: number[]) => s.reduce((x, y) => x * y, 1);

/** float64 reference for a batch of pairs (b broadcast when it has one item). */
function reference(
  a: Float64Array,
  sa: number[],
  b: Float64Array,
  sb: number[],
  batchA: number,
  batchB: number,
  mode: ConvMode,
) {
  const parts: Float64Array[] = [];
  let shape: number[] = [];
  const batch = Math.max(batchA, batchB);
  for (let i = 0; i < batch; i++) {
    const ai = a.subarray(2 * (batchA === 1 ? 0 : i) * n(sa), 2 * ((batchA === 1 ? 0 : i) + 1) * n(sa));
    const bi = b.subarray(2 * (batchB === 1 ? 0 : i) * n(sb), 2 * ((batchB === 1 ? 0 : i) + 1) * n(sb));
    const r = naiveMode(naiveFull(Float64Array.from(ai), sa, Float64Array.from(bi), sb), sa, sb, mode);
    parts.push(r.data);
    shape = r.shape;
  }
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { data: out, shape };
}

function validOk(sa: number[], sb: number[]) {
  return sa.every((v, i) => v >= sb[i]) || sb.every((v, i) => v >= sa[i]);
}

async function sweep(
  t: { skip(msg?: string): void },
  backend: 'webgpu' | 'cpu',
  methods: ('fft' | 'direct' | 'oa')[],
  tol: number,
) {
  const gpu = backend === 'webgpu' ? await testGpu() : null;
  if (backend === 'webgpu' && !gpu) return t.skip('no WebGPU adapter');
  const r = rng(11);
  let checked = 0;
  for (let trial = 0; trial < 16; trial++) {
    const nd = 1 + (trial % 2);
    const max = nd === 1 ? 70 : 19;
    const sa = Array.from({ length: nd }, () => 1 + Math.floor(r() * max));
    const sb = Array.from({ length: nd }, () => 1 + Math.floor(r() * (trial % 4 < 2 ? max : 6)));
    const complex = trial % 4 === 0 || trial % 4 === 3;
    const batchA = trial % 3 === 0 ? 3 : 1;
    const batchB = trial % 5 === 0 ? batchA : 1;
    const a64 = randomComplex(batchA * n(sa), 300 + trial, complex);
    const b64 = randomComplex(batchB * n(sb), 400 + trial, complex);
    const mk = (x: Float64Array, s: number[], batch: number) => {
      const shape = batch > 1 ? [batch, ...s] : s;
      const data = Float32Array.from(complex ? x : realPart(x));
      return { data, shape, complex };
    };
    for (const mode of MODES) {
      if (mode === 'valid' && !validOk(sa, sb)) continue;
      const ref = reference(a64, sa, b64, sb, batchA, batchB, mode);
      const want = complex ? ref.data : realPart(ref.data);
      const wantShape = batchA > 1 || batchB > 1 ? [Math.max(batchA, batchB), ...ref.shape] : ref.shape;
      for (const method of methods) {
        const A = mk(a64, sa, batchA);
        const B = mk(b64, sb, batchB);
        if (batchA !== batchB) {
          // broadcast: give both the same rank
          if (batchA === 1 && B.shape.length > A.shape.length) A.shape = [1, ...A.shape];
          if (batchB === 1 && A.shape.length > B.shape.length) B.shape = [1, ...B.shape];
        }
        const y = await convolve(A, B, {
          mode,
          method,
          backend,
          gpu: gpu ?? undefined,
          axes: nd === 1 ? [-1] : [-2, -1],
        });
        assert.equal(y.backend, backend);
        assert.deepEqual(y.shape, wantShape, `${method} ${mode} sa=${sa} sb=${sb}`);
        assert.equal(y.complex, complex);
        assert.ok(y.data instanceof Float32Array);
        const err = relativeL2(y.data, want);
        assert.ok(
          err <= tol,
          `${backend} ${method} ${mode} sa=${sa} sb=${sb} complex=${complex} batch=${batchA}/${batchB}: rel err ${err}`,
        );
        checked++;
      }
    }
  }
  assert.ok(checked > 40, `checked ${checked}`);
}

test('WebGPU fftconvolve matches float64 direct convolution (1-D, 2-D, odd/even, real/complex, batched, all modes)', async (t) => {
  await sweep(t, 'webgpu', ['fft'], 1e-5);
});

test('WebGPU direct and overlap-add match float64 direct convolution', async (t) => {
  await sweep(t, 'webgpu', ['direct', 'oa'], 1e-5);
});

test('CPU backend (float64 inside) matches the naive definition for f32 inputs', async (t) => {
  await sweep(t, 'cpu', ['direct', 'fft', 'oa'], 1e-6);
});

test('CPU 2-D real FFT convolution in the 2-D engine (fft-2d.ts convolve): f32 and f64, every mode, batches with broadcasting, default threads', async () => {
  let checked = 0;
  for (const [sa, sb, batchA, batchB] of [
    [[70, 75], [9, 13], 1, 1],
    [[9, 13], [70, 75], 1, 1],
    [[40, 33], [40, 33], 3, 3],
    [[50, 61], [5, 7], 3, 1],
    [[21, 60], [21, 60], 1, 2],
  ] as [number[], number[], number, number][]) {
    const full = sa.map((v, i) => v + sb[i]! - 1);
    // The padded lengths are ones the 2-D engine takes (a real FFT recipe of the padded size).
    for (const precision of ['f32', 'f64'] as const) {
      const P = full.map((v) => nextFastCpuLen(v, precision));
      assert.ok(planCpuEngineRfft2(P[0]!, P[1]!, precision), `engine recipe for ${P}`);
    }
    // Interleaved with zero imaginary parts for the reference, the real parts for the call.
    const a64c = randomComplex(batchA * n(sa), 500 + checked, false);
    const b64c = randomComplex(batchB * n(sb), 600 + checked, false);
    const [a64, b64] = [realPart(a64c), realPart(b64c)];
    for (const mode of MODES) {
      if (mode === 'valid' && !validOk(sa, sb)) continue;
      // 'same' keeps in1's shape, batch axis included (scipy): a single in1 meets only in2's centre element.
      const centre = mode === 'same' && batchA === 1 && batchB > 1 ? (batchB - 1) >> 1 : -1;
      const bRef = centre < 0 ? b64c : b64c.subarray(2 * centre * n(sb), 2 * (centre + 1) * n(sb));
      const ref = reference(a64c, sa, bRef, sb, batchA, centre < 0 ? batchB : 1, mode);
      const want = realPart(ref.data);
      const batch = centre < 0 ? Math.max(batchA, batchB) : 1;
      const batched = batchA > 1 || batchB > 1;
      for (const [T, tol] of [
        [Float32Array, 2e-6],
        [Float64Array, 1e-13],
      ] as const) {
        const y = await fftconvolve(
          { data: T.from(a64), shape: batched ? [batchA, ...sa] : sa },
          { data: T.from(b64), shape: batched ? [batchB, ...sb] : sb },
          { mode, backend: 'cpu', axes: [-2, -1] },
        );
        assert.ok(y.data instanceof T);
        assert.deepEqual(y.shape, batched ? [batch, ...ref.shape] : ref.shape);
        const err = relativeL2(y.data, want);
        assert.ok(err <= tol, `${T.name} ${mode} ${sa}×${sb} batch ${batchA}/${batchB}: ${err}`);
        checked++;
      }
    }
  }
  assert.equal(checked, 30);
});

test('WebGPU overlap-add of a long 1-D signal and a 2-D image', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const a = randomComplex(20000, 5, true);
  const b = randomComplex(41, 6, true);
  const ref = naiveMode(naiveFull(a, [20000], b, [41]), [20000], [41], 'same');
  const y = await oaconvolve(
    { data: Float32Array.from(a), complex: true },
    { data: Float32Array.from(b), complex: true },
    { mode: 'same', backend: 'webgpu', gpu },
  );
  assert.equal(y.method, 'oa');
  assert.ok(relativeL2(y.data, ref.data) < 1e-5);
  // long enough that one padded row does not fit the workgroup memory: 'fft' turns into overlap-add
  const big = Math.floor(gpu.limits.maxComputeWorkgroupStorageSize / 8) + 100;
  const a2 = randomComplex(big, 7, false);
  const b2 = randomComplex(17, 8, false);
  const ref2 = realPart(naiveMode(naiveFull(a2, [big], b2, [17]), [big], [17], 'valid').data);
  const y2 = await fftconvolve(Float32Array.from(realPart(a2)), Float32Array.from(realPart(b2)), {
    mode: 'valid',
    backend: 'webgpu',
    gpu,
  });
  assert.equal(y2.method, 'oa');
  assert.ok(relativeL2(y2.data, ref2) < 1e-5);
});

test('correlate = convolve with the reversed conjugate (scipy.signal.correlate), CPU and WebGPU', async () => {
  const gpu = await testGpu();
  const a = randomComplex(6 * 5, 9, true);
  const b = randomComplex(3 * 4, 10, true);
  // direct definition: z[k] = Σ_l a[l + k − (nb − 1)]·conj(b[l])
  const sa = [6, 5];
  const sb = [3, 4];
  const zf = new Float64Array(2 * 8 * 8);
  for (let k0 = 0; k0 < 8; k0++) {
    for (let k1 = 0; k1 < 8; k1++) {
      let re = 0;
      let im = 0;
      for (let l0 = 0; l0 < 3; l0++) {
        for (let l1 = 0; l1 < 4; l1++) {
          const i0 = l0 + k0 - 2;
          const i1 = l1 + k1 - 3;
          if (i0 < 0 || i0 >= 6 || i1 < 0 || i1 >= 5) continue;
          const ar = a[2 * (i0 * 5 + i1)];
          const ai = a[2 * (i0 * 5 + i1) + 1];
          const br = b[2 * (l0 * 4 + l1)];
          const bi = -b[2 * (l0 * 4 + l1) + 1];
          re += ar * br - ai * bi;
          im += ar * bi + ai * br;
        }
      }
      zf[2 * (k0 * 8 + k1)] = re;
      zf[2 * (k0 * 8 + k1) + 1] = im;
    }
  }
  for (const mode of ['full', 'same'] as const) {
    const want = naiveMode({ data: zf, shape: [8, 8] }, sa, sb, mode);
    const c = await correlate(
      { data: a, shape: sa, complex: true },
      { data: b, shape: sb, complex: true },
      { mode, backend: 'cpu' },
    );
    assert.ok(relativeL2(c.data, want.data) < 1e-12, `cpu ${mode}`);
    if (gpu) {
      const g = await correlate(
        { data: Float32Array.from(a), shape: sa, complex: true },
        { data: Float32Array.from(b), shape: sb, complex: true },
        { mode, backend: 'webgpu', gpu },
      );
      assert.ok(relativeL2(g.data, want.data) < 1e-5, `webgpu ${mode}`);
    }
  }
});

test('nextFastLen and chooseConvMethod check their arguments as scipy does', () => {
  assert.equal(nextFastLen(0), 0);
  assert.equal(nextFastLen(1), 1);
  assert.equal(nextFastLen(1009), 1024);
  for (const bad of [-5, 1.5, NaN, Infinity, '8' as unknown as number])
    assert.throws(
      () => nextFastLen(bad),
      (e: unknown) => e instanceof ArgumentError && e.argument === 'target',
    );
  for (const [a, b, name] of [
    [[], [], 'a'],
    [[0], [3], 'a'],
    [[-1], [3], 'a'],
    [[5], [3.5], 'b'],
    [[5], [3, 3], 'b'],
  ] as [number[], number[], string][])
    assert.throws(
      () => chooseConvMethod(a, b),
      (e: unknown) => e instanceof ArgumentError && e.argument === name,
      `[${a}] [${b}]`,
    );
  assert.throws(() => chooseConvMethod([5], [3], 'wide' as 'full'), /mode/);
});

test('method auto follows the cost model', async () => {
  assert.equal(chooseConvMethod([50], [3], 'full', 'webgpu'), 'direct');
  assert.equal(chooseConvMethod([4096, 4096], [63, 63], 'same', 'webgpu'), 'fft');
  const y = await convolve(new Float64Array([1, 2, 3]), new Float64Array([0, 1, 0.5]));
  assert.equal(y.method, 'direct');
  assert.equal(y.backend, 'cpu');
  assert.deepEqual(Array.from(y.data), [0, 1, 2.5, 4, 1.5]);
});

test('clear errors for bad shapes, modes, methods and axes', async () => {
  const a = new Float64Array(10);
  await assert.rejects(
    () => convolve(a, a, { mode: 'middle' as ConvMode }),
    (e: unknown) => e instanceof ArgumentError && /mode/.test(e.message) && /'full', 'same' or 'valid'/.test(e.message),
  );
  await assert.rejects(() => convolve(a, a, { method: 'magic' as 'fft' }), ArgumentError);
  await assert.rejects(
    () => convolve({ data: a, shape: [2, 5] }, { data: new Float64Array(6), shape: [3, 2] }, { mode: 'valid' }),
    (e: unknown) => e instanceof ArgumentError && /valid/.test(e.message),
  );
  await assert.rejects(
    () => convolve({ data: a, shape: [3, 3] }, a),
    (e: unknown) => e instanceof ArgumentError && /in1\.data/.test(e.message),
  );
  await assert.rejects(
    () => convolve({ data: a, shape: [2, 5] }, a),
    (e: unknown) => e instanceof ArgumentError && /dimensions/.test(e.message),
  );
  await assert.rejects(
    () => convolve({ data: a, shape: [5], complex: true }, { data: new Float64Array(3), complex: true }),
    ArgumentError,
  );
  await assert.rejects(
    () => convolve({ data: a, shape: [2, 5] }, { data: a, shape: [2, 5] }, { axes: [0] }),
    UnsupportedError,
  );
  await assert.rejects(
    () =>
      convolve(
        { data: new Float64Array(6), shape: [2, 3] },
        { data: new Float64Array(9), shape: [3, 3] },
        { axes: [-1] },
      ),
    (e: unknown) => e instanceof ArgumentError && /broadcast/.test(e.message),
  );
  await assert.rejects(
    () =>
      convolve(
        { data: new Float32Array(8), shape: [2, 2, 2] },
        { data: new Float32Array(8), shape: [2, 2, 2] },
        { backend: 'webgpu' },
      ),
    UnsupportedError,
  );
  await assert.rejects(() => convolve(new Float64Array(0), a), ArgumentError);
  await assert.rejects(() => convolve([1, 2, 3] as unknown as Float64Array, a), ArgumentError);
});

test("'valid' with a length-1 axis: fftconvolve and oaconvolve broadcast it (scipy.signal), convolve refuses", async () => {
  const a = { data: Float64Array.from({ length: 10 }, (_, i) => Math.sin(i)), shape: [1, 10] };
  const b = { data: Float64Array.from({ length: 18 }, (_, i) => Math.cos(i)), shape: [6, 3] };
  // The window of the full convolution: all 6 rows (a broadcast along axis 0), columns 2 … 9.
  const full = await convolve(a, b, { mode: 'full', backend: 'cpu' });
  const want = Array.from({ length: 6 * 8 }, (_, i) => full.data[Math.floor(i / 8) * 12 + 2 + (i % 8)]!);
  for (const f of [fftconvolve, oaconvolve]) {
    const y = await f(a, b, { mode: 'valid', backend: 'cpu' });
    assert.deepEqual(y.shape, [6, 8]);
    assert.ok(relativeL2(y.data, Float64Array.from(want)) < 1e-12);
  }
  await assert.rejects(() => convolve(a, b, { mode: 'valid', backend: 'cpu' }), ArgumentError);
});

test("'same' is in1's shape on batch axes too (scipy.signal crops the broadcast to in1): in2's centre element", async () => {
  // in1 [2, 1, 5] against in2 [1, 4, 3] along the last axis: the broadcast batch [2, 4] is cropped to [2, 1], keeping
  // in2's batch element (4 − 1) >> 1 = 1.
  const a = { data: Float64Array.from({ length: 10 }, (_, i) => Math.sin(i + 1)), shape: [2, 1, 5] };
  const b = { data: Float64Array.from({ length: 12 }, (_, i) => Math.cos(3 * i)), shape: [1, 4, 3] };
  const centre = { data: b.data.slice(3, 6), shape: [1, 1, 3] };
  for (const f of [convolve, fftconvolve, oaconvolve, correlate]) {
    for (const data of [a.data, Float32Array.from(a.data)]) {
      const x = { data, shape: a.shape };
      const y = await f(x, b, { mode: 'same', axes: [-1], backend: 'cpu' });
      assert.deepEqual(y.shape, [2, 1, 5], f.name);
      const want = await f(x, centre, { mode: 'same', axes: [-1], backend: 'cpu' });
      assert.ok(relativeL2(y.data, want.data) < 1e-6, f.name);
      // 'full' keeps the whole broadcast.
      assert.deepEqual((await f(x, b, { mode: 'full', axes: [-1], backend: 'cpu' })).shape, [2, 4, 7], f.name);
    }
  }
});
