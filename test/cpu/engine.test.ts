/**
 * The CPU engine (WebAssembly SIMD kernels generated from the CPU recipes) against the float64
 * reference (planCpuFft's mixed radix / Bluestein, itself checked against the naive DFT): every length
 * 1…4096 in both precisions, a spread of larger and awkward lengths, batches ≥ 3, strided layouts,
 * both directions and every normalisation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineFft, engineFftOf } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import {
  bluesteinLength,
  CPU_ENGINE_MAX_N,
  lanesFor,
  planBluestein,
  planCpuEngineDct2,
  planCpuEngineFft,
  planCpuEngineRfftForward,
  type CpuPrecision,
} from '../../src/planner/cpu-fft.js';
import * as cpuNd from '../../src/backends/cpu/fft-nd.js';
import * as cpuDct from '../../src/backends/cpu/r2r-dct.js';
import * as cpuDht from '../../src/backends/cpu/r2r-dht.js';
import { onCpuEngine } from '../../src/backends/cpu/engine-scope.js';
import { planCpuRfft } from '../../src/backends/cpu/fft-real.js';
import {
  createFftPlan,
  fft,
  ifft,
  rfft,
  irfft,
  dct,
  idct,
  dht,
  idht,
  fft2,
  fftn,
  ifftn,
  ArgumentError,
} from '../../src/index.js';
import { rng, relErr, bound } from '../helpers/numeric.js';
import { R2R_AND_REFERENCES } from '../helpers/r2r.js';

function check(n: number, precision: CpuPrecision, batch: number, seed: number): void {
  const r = rng(seed);
  const x = new Float64Array(2 * n * batch).map(() => r());
  const Arr = precision === 'f32' ? Float32Array : Float64Array;
  const xin = Arr.from(x);
  const plan = engineFft(n, precision);
  for (const inverse of [false, true]) {
    const ref = new Float64Array(2 * n * batch);
    planCpuFft(n).execute(x, ref, { batch, inverse });
    const out = new Arr(2 * n * batch).fill(NaN);
    plan.execute(xin, out, { batch, inverse });
    const e = relErr(out, ref);
    if (!(e <= bound(n, precision))) {
      assert.fail(
        `n=${n} ${precision} ${inverse ? 'inverse' : 'forward'}: rel L2 ${e} > ${bound(n, precision)} (${JSON.stringify(plan.recipe)})`,
      );
    }
  }
}

test('engine recipes: lane-split, lane-batch, Bluestein, Rader', () => {
  const r = planCpuEngineFft(4096, 'f32');
  assert.equal(r.kind, 'lane-split');
  if (r.kind === 'lane-split') {
    assert.equal(r.laneLength, 1024);
    assert.equal(
      r.passes.reduce((a, p) => a * p.radix, 1),
      1024,
    );
  }
  assert.equal(planCpuEngineFft(2187, 'f32').kind, 'lane-batch');
  assert.equal(planCpuEngineFft(8, 'f32').kind, 'lane-batch');
  assert.equal(planCpuEngineFft(8, 'f64').kind, 'lane-split');
  // Bluestein's own recipe for a prime (the complex engine takes Rader for 1009; the real pairs path Bluestein).
  const b = planBluestein(1009, 'f64');
  assert.equal(b.kind, 'bluestein');
  if (b.kind === 'bluestein') assert.equal(b.inner.n, 2048);
  // Just above a power of two the inner length is 2·3·5-smooth (a multiple of W²), not the next power of two.
  assert.equal(bluesteinLength(1025, 'f32'), 2160);
  assert.equal(bluesteinLength(4097, 'f64'), 8640);
  assert.equal(planCpuEngineFft(4097, 'f64').kind, 'bluestein');
  for (const n of [17, 1009, 1025, 4099, 100003])
    for (const p of ['f32', 'f64'] as const) {
      const m = bluesteinLength(n, p);
      assert.ok(m >= 2 * n - 1 && m % lanesFor(p) ** 2 === 0, `n=${n} ${p}: ${m}`);
    }
  // Primes from 11 run as generic passes (the largest last), as many as beat Bluestein together
  // (Σ p ≤ 6·(m/n)·log2 m: 41·25, 31², 17·59 yes; 4·127, 4097 = 17·241 and 97·101 no); 7 and below as codelets.
  const d = planCpuEngineFft(1023, 'f32');
  assert.equal(d.kind, 'lane-batch');
  if (d.kind === 'lane-batch')
    assert.deepEqual(
      d.passes.map((p) => [p.radix, p.generic ?? false]),
      [
        [3, false],
        [11, true],
        [31, true],
      ],
    );
  assert.equal(planCpuEngineFft(4 * 37, 'f64').kind, 'lane-split');
  const g = planCpuEngineFft(1025, 'f32');
  assert.equal(g.kind, 'lane-batch');
  if (g.kind === 'lane-batch')
    assert.deepEqual(
      g.passes.map((p) => [p.radix, p.generic ?? false]),
      [
        [5, false],
        [5, false],
        [41, true],
      ],
    );
  assert.equal(planCpuEngineFft(4 * 41, 'f32').kind, 'lane-split');
  assert.equal(planCpuEngineFft(4 * 127, 'f32').kind, 'bluestein');
  assert.equal(planCpuEngineFft(17 * 241, 'f32').kind, 'bluestein');
  assert.equal(planCpuEngineFft(41 * 2 ** 19, 'f32').kind, 'bluestein');
  assert.equal(planCpuEngineFft(31 * 31, 'f32').kind, 'lane-batch');
  assert.equal(planCpuEngineFft(17 * 59, 'f64').kind, 'lane-batch');
  assert.equal(planCpuEngineFft(97 * 101, 'f32').kind, 'bluestein');
  // Primes from RADER_FROM whose n − 1 runs as lane passes: Rader; below it a generic pass; 10007 − 1 = 2·5003 no.
  for (const [n, kind] of [
    [41, 'lane-batch'],
    [127, 'rader'],
    [1009, 'rader'],
    [65537, 'rader'],
    [10007, 'bluestein'],
  ] as const)
    for (const p of ['f32', 'f64'] as const) assert.equal(planCpuEngineFft(n, p).kind, kind, `${n} ${p}`);
  // Real rows of those primes two a Rader transform; of other odd lengths past the lanes, two a Bluestein one.
  for (const [n, kind] of [
    [1009, 'rader'],
    [2019, 'bluestein'],
  ] as const) {
    const real = planCpuEngineRfftForward(n, 'f32');
    assert.equal(real?.kind, kind, `real ${n}`);
    assert.equal(real?.realPairs, true, `real ${n}`);
    assert.equal(planCpuEngineDct2(n, 'f64')?.kind, kind, `dct ${n}`);
  }
  const rd = planCpuEngineFft(1009, 'f64');
  if (rd.kind === 'rader') {
    assert.equal(rd.inner.n, 1008);
    assert.equal(rd.root, 11);
  }
  // Four-step phases take codelets only: a 2^21-point f32 transform has no generic pass.
  const f = planCpuEngineFft(2 ** 21, 'f32');
  assert.equal(f.kind, 'four-step');
  assert.throws(() => planCpuEngineFft(0, 'f32'), ArgumentError);
  assert.throws(() => planCpuEngineFft(8, 'f16' as CpuPrecision), ArgumentError);
});

for (const precision of ['f32', 'f64'] as const) {
  test(`engine ${precision}: every length 1…4096 against the float64 reference (batch 3)`, () => {
    for (let n = 1; n <= 4096; n++) check(n, precision, 3, n);
  });
  test(`engine ${precision}: larger and awkward lengths`, () => {
    for (const n of [8192, 10007, 3 ** 9, 5 ** 6, 2 * 3 * 5 * 7 * 11 * 13, 65536, 65537, 1 << 18, 1 << 20])
      check(n, precision, n > 70000 ? 1 : 3, n);
  });
}

test('engine: packed rows over several 1 MiB copy chunks, the last one partial with a short lane group', () => {
  for (const [n, precision, batch] of [
    [16, 'f32', 2 * 8192 + 3], // lane-batch groups of four problems: the last group one short
    [16, 'f64', 2 * 4096 + 5],
    [1000, 'f64', 2 * 64 + 3],
    [256, 'f32', 2 * 1024 + 7],
  ] as const)
    check(n, precision, batch, n + batch);
});

test('engine: strided, offset and in-place layouts, norms, float64 data into a float32 plan', () => {
  const r = rng(7);
  for (const [n, precision] of [
    [1000, 'f32'],
    [64, 'f64'],
    [35, 'f32'],
    [1009, 'f64'],
    [127, 'f32'],
    [10007, 'f32'],
  ] as const) {
    const batch = 4;
    const li = { offset: 3, stride: 2, dist: 2 * n + 5 };
    const lo = { offset: 1, stride: 3, dist: 3 * n + 1 };
    const span = (l: typeof li): number => l.offset + (n - 1) * l.stride + (batch - 1) * l.dist + 1;
    const x = new Float64Array(2 * span(li)).map(() => r());
    for (const norm of ['backward', 'ortho', 'forward'] as const) {
      for (const inverse of [false, true]) {
        const ref = new Float64Array(2 * span(lo));
        const out = new Float64Array(2 * span(lo));
        planCpuFft(n).execute(x, ref, { batch, inverse, norm, input: li, output: lo });
        engineFft(n, precision).execute(x, out, { batch, inverse, norm, input: li, output: lo });
        assert.ok(relErr(out, ref) <= bound(n, precision), `n=${n} ${precision} ${norm} ${inverse}`);
      }
    }
    // In place, packed.
    const y = new Float64Array(2 * n * batch).map(() => r());
    const ref = new Float64Array(y.length);
    planCpuFft(n).execute(y, ref, { batch });
    engineFft(n, precision).execute(y, y, { batch });
    assert.ok(relErr(y, ref) <= bound(n, precision), `in place n=${n}`);
  }
});

test('engine: Rader over several chunks, short lane groups and both directions', () => {
  const r = rng(9);
  for (const [n, precision, batch] of [
    [127, 'f32', 70],
    [1009, 'f64', 41],
    [4001, 'f32', 9],
  ] as const) {
    assert.equal(planCpuEngineFft(n, precision).kind, 'rader');
    const x = new Float64Array(2 * n * batch).map(() => r());
    for (const inverse of [false, true]) {
      const ref = new Float64Array(x.length);
      const out = new Float64Array(x.length);
      planCpuFft(n).execute(x, ref, { batch, inverse });
      engineFft(n, precision).execute(x, out, { batch, inverse });
      assert.ok(relErr(out, ref) <= bound(n, precision), `n=${n} ${precision} inverse ${inverse}`);
    }
  }
});

test('engine: lengths beyond one WebAssembly memory plan the float64 reference instead of refusing', () => {
  // n itself too long, and a Bluestein length too long (16777217 = 97·257·673 needs m ≥ 2n − 1 > 2^25 in f64).
  for (const [n, precision] of [
    [CPU_ENGINE_MAX_N.f64 + 2, 'f64'],
    [CPU_ENGINE_MAX_N.f32 + 2, 'f32'],
    [16777217, 'f64'],
  ] as const)
    assert.deepEqual(planCpuEngineFft(n, precision), { kind: 'reference', n, precision, lanes: lanesFor(precision) });
  assert.equal(planCpuEngineFft(16777217, 'f32').kind, 'bluestein');
  // The reference recipe runs (checked here at a length that fits, through engineFftOf).
  const r = rng(12);
  for (const [n, precision, batch] of [
    [1000, 'f64', 3],
    [97, 'f32', 4],
  ] as const) {
    const plan = engineFftOf({ kind: 'reference', n, precision, lanes: lanesFor(precision) });
    const x = new Float64Array(2 * n * batch).map(() => r());
    const ref = new Float64Array(x.length);
    planCpuFft(n).execute(x, ref, { batch, inverse: true, norm: 'ortho' });
    const out = new Float64Array(x.length);
    plan.execute(x, out, { batch, inverse: true, norm: 'ortho' });
    assert.ok(relErr(out, ref) <= bound(n, 'f64'), `reference n=${n}`);
  }
});

test('engine: bad layouts are argument errors', () => {
  const p = engineFft(16, 'f32');
  assert.throws(() => p.execute(new Float32Array(20), new Float32Array(32)), ArgumentError);
  assert.throws(() => p.execute(new Float32Array(32), new Float32Array(32), { batch: 2 }), ArgumentError);
  assert.throws(() => p.execute(new Float32Array(32), new Float32Array(32), { input: { stride: -1 } }), ArgumentError);
});

test('public API on the CPU engine: precision follows the input, results keep its type', async () => {
  const r = rng(11);
  const n = 1536;
  const batch = 3;
  const x64 = new Float64Array(2 * n * batch).map(() => r());
  const ref = new Float64Array(x64.length);
  planCpuFft(n).execute(x64, ref, { batch });
  const y32 = await fft(Float32Array.from(x64), { shape: [batch, n], backend: 'cpu' });
  assert.ok(y32 instanceof Float32Array);
  assert.ok(relErr(y32, ref) <= bound(n, 'f32'));
  const y64 = await fft(x64, { shape: [batch, n], backend: 'cpu' });
  assert.ok(y64 instanceof Float64Array);
  assert.ok(relErr(y64, ref) <= bound(n, 'f64'));
  const back = await ifft(y64, { shape: [batch, n], backend: 'cpu' });
  assert.ok(relErr(back, x64) <= bound(n, 'f64'));
  const plan = await createFftPlan({ n, batch, backend: 'cpu', precision: 'f32' });
  assert.equal((plan.recipe as { kind: string }).kind, 'lane-split');
  assert.ok(relErr(await plan.execute(x64), ref) <= bound(n, 'f32'));
  await assert.rejects(createFftPlan({ n, backend: 'cpu', precision: 'f16' as 'f32' }), ArgumentError);
  // Real, r2r and 2-D families run on the engine inside the API's scope and match the reference.
  const real = new Float64Array(2 * n).map(() => r());
  for (const Arr of [Float32Array, Float64Array]) {
    const tol = Arr === Float32Array ? 2e-6 : 1e-13;
    const s = await rfft(Arr.from(real), { backend: 'cpu' });
    assert.ok(s instanceof Arr);
    // References: the CPU modules called directly, outside the API's engine scope.
    const sRef = cpuNd.rfft(real).data;
    assert.ok(relErr(s, sRef) <= tol);
    const back = await irfft(s, { n: 2 * n, backend: 'cpu' });
    assert.ok(relErr(back, real) <= tol);
    const c = await dct(Arr.from(real), { type: 2, backend: 'cpu' });
    const cRef = cpuDct.dct(real, { type: 2 }).data;
    assert.ok(relErr(c, cRef) <= tol);
    const img = new Float64Array(2 * 48 * 40).map(() => r());
    const f2 = await fft2(Arr.from(img), { shape: [48, 40], backend: 'cpu' });
    const f2Ref = new Float64Array(img.length);
    // Rows then columns with the reference.
    const tmp = new Float64Array(img.length);
    planCpuFft(40).execute(img, tmp, { batch: 48 });
    planCpuFft(48).execute(tmp, f2Ref, { batch: 40, input: { stride: 40, dist: 1 }, output: { stride: 40, dist: 1 } });
    assert.ok(relErr(f2, f2Ref) <= tol * 2);
    // Crop one axis and pad the other (the N-D driver's resize keeps float32 data in float32).
    const fc = await fftn(Arr.from(img), { shape: [48, 40], s: [50, 32], backend: 'cpu' });
    assert.ok(fc instanceof Arr);
    assert.ok(relErr(fc, cpuNd.fftn(img, [48, 40], { s: [50, 32] }).data) <= tol * 2);
    const ic = await ifftn(Arr.from(img), { shape: [48, 40], s: [32, 41], axes: [0, 1], backend: 'cpu' });
    assert.ok(relErr(ic, cpuNd.ifftn(img, [48, 40], { s: [32, 41], axes: [0, 1] }).data) <= tol * 2);
  }
});

test('DCT and DST types 1–4 and the DHT on the engine (fused modules, scale and orthogonalize inside) match the reference for every norm', async () => {
  const r = rng(23);
  // Even lengths take every fused path, odd ones the pairs module (types 2), the symmetric extension's module
  // (type 1) or the general path (3, 4, DHT); 10, 18, 34 and 1000 leave a tail group where W ∤ n/2 or W ∤ n.
  for (const n of [8, 10, 16, 18, 32, 34, 64, 100, 1000, 4096, 15, 999]) {
    for (const norm of ['backward', 'ortho', 'forward'] as const) {
      for (const orthogonalize of [undefined, true, false]) {
        const batch = 3;
        const x = new Float64Array(n * batch).map(() => r());
        for (const [name, f, reference] of R2R_AND_REFERENCES) {
          for (const type of [1, 2, 3, 4]) {
            const ref = reference(x, { type, norm, orthogonalize }, [batch, n]).data;
            for (const Arr of [Float32Array, Float64Array]) {
              const y = await f(Arr.from(x), { type, norm, orthogonalize, shape: [batch, n], backend: 'cpu' });
              assert.ok(y instanceof Arr);
              const tol = Arr === Float32Array ? 1e-6 : 1e-13;
              const what = `${name} type ${type} n=${n} ${norm} ${orthogonalize} ${Arr.name}`;
              assert.ok(relErr(y, ref) <= tol, `${what}: ${relErr(y, ref)}`);
            }
          }
        }
        if (orthogonalize !== undefined) continue;
        // The DHT: the fused module for even n, the engine rfft then Re − Im for odd n; both directions, every norm.
        for (const [name, f, reference] of [
          ['dht', dht, cpuDht.dht],
          ['idht', idht, cpuDht.idht],
        ] as const) {
          const ref = reference(x, { norm }, [batch, n]).data;
          for (const Arr of [Float32Array, Float64Array]) {
            const y = await f(Arr.from(x), { norm, shape: [batch, n], backend: 'cpu' });
            assert.ok(y instanceof Arr);
            const tol = Arr === Float32Array ? 1e-6 : 1e-13;
            assert.ok(relErr(y, ref) <= tol, `${name} n=${n} ${norm} ${Arr.name}: ${relErr(y, ref)}`);
          }
        }
      }
    }
  }
});

test('real FFT and DCT-II on the engine: every length 1…700 in both precisions (fused lane-split and lane-batch modules, odd and Bluestein lengths), batch 5', async () => {
  const r = rng(29);
  const batch = 5; // not a multiple of the lanes: a lane-batch group is left short
  for (let n = 1; n <= 700; n++) {
    const x = new Float64Array(n * batch).map(() => r());
    const sRef = cpuNd.rfftn(x, [batch, n], { axes: [1] }).data;
    const cRef = cpuDct.dct(x, { type: 2 }, [batch, n]).data;
    const c3Ref = cpuDct.idct(x, { type: 2 }, [batch, n]).data;
    const nc = Math.floor(n / 2) + 1;
    const spec = new Float64Array(2 * nc * batch).map(() => r());
    const iRef = cpuNd.irfftn(spec, [batch, nc], { s: [n], axes: [1] }).data;
    for (const p of ['f32', 'f64'] as const) {
      const Arr = p === 'f32' ? Float32Array : Float64Array;
      const tol = 2 * bound(n, p);
      const s = await rfft(Arr.from(x), { shape: [batch, n], backend: 'cpu' });
      assert.ok(relErr(s, sRef) <= tol, `rfft n=${n} ${p}: ${relErr(s, sRef)}`);
      const back = await irfft(s, { n, shape: [batch, Math.floor(n / 2) + 1], backend: 'cpu' });
      assert.ok(relErr(back, x) <= tol, `irfft n=${n} ${p}: ${relErr(back, x)}`);
      // A spectrum that is not Hermitian at 0 and n/2: their imaginary parts are ignored, as numpy does.
      const back2 = await irfft(Arr.from(spec), { n, shape: [batch, nc], backend: 'cpu' });
      assert.ok(relErr(back2, iRef) <= tol, `irfft (random spectrum) n=${n} ${p}: ${relErr(back2, iRef)}`);
      const c = await dct(Arr.from(x), { type: 2, shape: [batch, n], backend: 'cpu' });
      assert.ok(relErr(c, cRef) <= tol, `dct n=${n} ${p}: ${relErr(c, cRef)}`);
      const c3 = await idct(Arr.from(x), { type: 2, shape: [batch, n], backend: 'cpu' });
      assert.ok(relErr(c3, c3Ref) <= tol, `idct (DCT-III) n=${n} ${p}: ${relErr(c3, c3Ref)}`);
    }
  }
});

test('every DCT/DST type and the DHT on the engine, both directions, lengths 1…300 (batched kernels over blocks of lines)', async () => {
  const r = rng(37);
  const batch = 3;
  for (let n = 1; n <= 300; n += n < 40 ? 1 : 7) {
    const x = new Float64Array(n * batch).map(() => r());
    for (const [name, f, ref] of R2R_AND_REFERENCES) {
      for (const type of [1, 2, 3, 4]) {
        if (name.endsWith('dct') && type === 1 && n < 2) continue;
        const want = ref(x, { type }, [batch, n]).data;
        for (const Arr of [Float32Array, Float64Array]) {
          const got = await f(Arr.from(x), { type, shape: [batch, n], backend: 'cpu' });
          assert.ok(got instanceof Arr);
          const tol = 4 * bound(2 * n + 2, Arr === Float32Array ? 'f32' : 'f64');
          assert.ok(relErr(got, want) <= tol, `${name} type ${type} n=${n} ${Arr.name}: ${relErr(got, want)}`);
        }
      }
    }
    const hRef = cpuDht.dht(x, {}, [batch, n]).data;
    for (const Arr of [Float32Array, Float64Array]) {
      const got = await dht(Arr.from(x), { shape: [batch, n], backend: 'cpu' });
      assert.ok(relErr(got, hRef) <= 4 * bound(n, Arr === Float32Array ? 'f32' : 'f64'), `dht n=${n} ${Arr.name}`);
    }
  }
});

test('engine real FFT: strided and offset layouts on both sides, both directions', () => {
  const r = rng(31);
  // Fused even and odd lengths, short odd ones, 1009 (pairs around Bluestein) and 2·1009 (a Bluestein half, in JS).
  for (const n of [5, 7, 15, 16, 30, 45, 64, 200, 1009, 2018, 2187, 2310, 4096]) {
    for (const p of ['f32', 'f64'] as const) {
      const batch = 3;
      const nc = Math.floor(n / 2) + 1;
      const x = new Float64Array(3 + 2 * n * batch).map(() => r());
      const plan = onCpuEngine(p, () => planCpuRfft(n));
      const Arr = p === 'f32' ? Float32Array : Float64Array;
      const out = new Arr(2 * (2 + 3 * nc * batch)).fill(NaN);
      plan.forward(Arr.from(x), out, {
        batch,
        input: { offset: 3, stride: 2, dist: 2 * n },
        output: { offset: 2, stride: 3, dist: 3 * nc },
      });
      for (let b = 0; b < batch; b++) {
        const line = new Float64Array(n).map((_, i) => x[3 + b * 2 * n + 2 * i]!);
        const ref = cpuNd.rfft(line).data;
        const got = new Float64Array(2 * nc).map((_, i) => out[2 * (2 + b * 3 * nc + 3 * (i >> 1)) + (i & 1)]!);
        assert.ok(relErr(got, ref) <= 2 * bound(n, p), `n=${n} ${p} line ${b}: ${relErr(got, ref)}`);
      }
      // Back from the strided spectra into strided rows: the input lines again (norm 'backward').
      const back = new Arr(1 + 2 * n * batch).fill(NaN);
      plan.inverse(out, back, {
        batch,
        input: { offset: 2, stride: 3, dist: 3 * nc },
        output: { offset: 1, stride: 2, dist: 2 * n },
      });
      for (let b = 0; b < batch; b++) {
        const line = new Float64Array(n).map((_, i) => x[3 + b * 2 * n + 2 * i]!);
        const got = new Float64Array(n).map((_, i) => back[1 + b * 2 * n + 2 * i]!);
        assert.ok(relErr(got, line) <= 2 * bound(n, p), `inverse n=${n} ${p} line ${b}: ${relErr(got, line)}`);
      }
    }
  }
});

test('plan.execute writes into a given output array, and checks it', async () => {
  const n = 256;
  const batch = 3;
  const r = rng(5);
  const x = new Float32Array(2 * n * batch).map(() => r());
  const plan = await createFftPlan({ n, batch, backend: 'cpu' });
  const out = new Float32Array(2 * n * batch).fill(NaN);
  const y = await plan.execute(x, out);
  assert.equal(y, out);
  assert.ok(relErr(out, await plan.execute(x)) === 0);
  await assert.rejects(plan.execute(x, new Float32Array(10)), ArgumentError);
  await assert.rejects(plan.execute(x, new Float64Array(2 * n * batch) as unknown as Float32Array), ArgumentError);
});

test('engine: column layouts (problems adjacent, elements a row apart), in place, as the N-D driver uses them', () => {
  const r = rng(31);
  for (const [rows, cols, precision] of [
    [64, 48, 'f32'],
    [100, 7, 'f64'],
    [1024, 3, 'f32'],
    [16, 1000, 'f64'],
    // Several column groups (512 KiB each) with a short last one, and a last chunk that fills only some lanes.
    [256, 600, 'f32'],
    [256, 300, 'f64'],
    [96, 2051, 'f32'],
  ] as const) {
    const x = new Float64Array(2 * rows * cols).map(() => r());
    const l = { offset: 0, stride: cols, dist: 1 };
    for (const inverse of [false, true]) {
      const ref = new Float64Array(x.length);
      planCpuFft(rows).execute(x, ref, { batch: cols, inverse, input: l, output: l });
      const y = Float64Array.from(x);
      engineFft(rows, precision).execute(y, y, { batch: cols, inverse, input: l, output: l });
      assert.ok(relErr(y, ref) <= bound(rows, precision), `${rows}×${cols} ${precision} ${inverse}`);
    }
  }
});

test('engine: column input into other layouts (packed rows, strided, columns of another array), with offsets', () => {
  const r = rng(37);
  for (const [rows, cols, precision] of [
    [256, 700, 'f32'],
    [128, 333, 'f64'],
    // Odd column lengths run lane-batch: groups whose last lanes are empty.
    [99, 301, 'f32'],
    [45, 1031, 'f64'],
  ] as const) {
    const slabs = 2; // a 3-D [slabs, rows, cols] array, transformed along its middle axis in the second slab
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const x = new Arr(2 * slabs * rows * cols).map(() => r());
    const li = { offset: rows * cols, stride: cols, dist: 1 };
    const outs: [string, { offset: number; stride: number; dist: number }, number][] = [
      ['packed rows', { offset: 0, stride: 1, dist: rows }, cols * rows],
      ['strided rows', { offset: 5, stride: 2, dist: 2 * rows + 1 }, 5 + cols * (2 * rows + 1)],
      ['columns', { offset: 3, stride: cols + 1, dist: 1 }, 3 + rows * (cols + 1)],
    ];
    for (const [name, lo, len] of outs) {
      for (const inverse of [false, true]) {
        const ref = new Float64Array(2 * len);
        planCpuFft(rows).execute(Float64Array.from(x), ref, { batch: cols, inverse, input: li, output: lo });
        const y = new Arr(2 * len);
        engineFft(rows, precision).execute(x, y, { batch: cols, inverse, input: li, output: lo });
        assert.ok(relErr(y, ref) <= bound(rows, precision), `${rows}×${cols} ${precision} ${name} ${inverse}`);
      }
    }
  }
  // The float64 engine on Float32Array columns (no float64 pair view of its heap): f32 rounding only.
  const x = new Float32Array(2 * 64 * 500).map(() => r());
  const l = { offset: 0, stride: 500, dist: 1 };
  const ref = new Float64Array(x.length);
  planCpuFft(64).execute(Float64Array.from(x), ref, { batch: 500, input: l, output: l });
  const y = new Float32Array(x.length);
  engineFft(64, 'f64').execute(x, y, { batch: 500, input: l, output: l });
  assert.ok(relErr(y, ref) <= bound(64, 'f32'), `f64 engine, f32 columns: ${relErr(y, ref)}`);
});

test("DCT-I and DST-I whose extension has no fused module: rows extended, the engine's real FFT, both directions, norms, orthogonalize, threads", async () => {
  const r = rng(53);
  // Extensions 2(n − 1) / 2(n + 1): 508 = 4·127, 2004 = 4·3·167, 88196 = 4·17·1297, 2(n ± 1) for 1000 and 2.
  for (const [n, batch] of [
    [255, 3],
    [1001, 4],
    [44099, 1],
    [1000, 3],
    [2, 5],
    [3, 3],
  ] as const) {
    const x = new Float64Array(n * batch).map(() => r());
    for (const [name, f, ref] of R2R_AND_REFERENCES) {
      for (const [norm, orthogonalize] of [
        ['backward', undefined],
        ['ortho', undefined],
        ['ortho', false],
        ['forward', true],
      ] as const) {
        const want = ref(x, { type: 1, norm, orthogonalize }, [batch, n]).data;
        for (const Arr of [Float32Array, Float64Array]) {
          for (const threads of [1, 2]) {
            const got = await f(Arr.from(x), {
              type: 1,
              norm,
              orthogonalize,
              shape: [batch, n],
              backend: 'cpu',
              threads,
            });
            const tol = 4 * bound(2 * n + 2, Arr === Float32Array ? 'f32' : 'f64');
            const e = relErr(got, want);
            if (!(e <= tol)) assert.fail(`${name} type 1 ${norm} ${orthogonalize} n=${n} × ${batch} ${Arr.name}: ${e}`);
          }
        }
      }
    }
  }
});

test('odd lengths of every DCT/DST type through the pairs module and Bluestein (1009, 2·1009 + 1), both directions, norms and precisions, batches 1, 3 and 4', async () => {
  const r = rng(47);
  for (const n of [301, 333, 999, 1001, 1009, 2019, 2187, 4095]) {
    for (const batch of [1, 3, 4]) {
      const x = new Float64Array(n * batch).map(() => r());
      for (const [name, f, ref] of R2R_AND_REFERENCES) {
        for (const type of [2, 3, 4]) {
          for (const norm of ['backward', 'ortho'] as const) {
            const want = ref(x, { type, norm }, [batch, n]).data;
            for (const Arr of [Float32Array, Float64Array]) {
              const got = await f(Arr.from(x), { type, norm, shape: [batch, n], backend: 'cpu' });
              const tol = 4 * bound(2 * n, Arr === Float32Array ? 'f32' : 'f64');
              const e = relErr(got, want);
              if (!(e <= tol)) assert.fail(`${name} type ${type} ${norm} n=${n} × ${batch} ${Arr.name}: ${e}`);
            }
          }
        }
      }
    }
  }
});
