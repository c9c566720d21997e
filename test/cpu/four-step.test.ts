/**
 * The CPU engine's four-step recipe (src/codegen/wasm/fft-four-step.ts) against the float64 reference. The
 * planner keeps it for problems of 16 MiB and more; here the same generator runs at small lengths through
 * recipes planned with a lower threshold, so every block width (blockGroups 1, 2, 4), both precisions, both
 * directions, norms, batches, strides, engine buffers, the fused real FFT and DCT-II and a Bluestein inner
 * transform are checked without multi-megabyte references.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineFft, engineFftOf, fusedRealFft } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { planCpuRfft } from '../../src/backends/cpu/fft-real.js';
import {
  FOUR_STEP_ODD_FROM_BYTES,
  fourStepOf,
  fourStepRivals,
  planCpuEngineFft,
  type CpuEngineFftRecipe,
  type CpuPrecision,
} from '../../src/planner/cpu-fft.js';
import { rng, relErr, bound } from '../helpers/numeric.js';
import {
  FOUR_STEP_EARLY_BYTES,
  FOUR_STEP_LATE_BYTES,
  knownFourStepFrom,
  setFourStepFromBytes,
} from '../../src/planner/cpu-features.js';

/** scipy.fft.dct type II, norm 'backward': y_k = 2 Σ_j x_j cos(πk(2j + 1) / 2n), in float64 (angles reduced exactly). */
function dctReference(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += x[j]! * Math.cos((Math.PI * ((k * (2 * j + 1)) % (4 * n))) / (2 * n));
    y[k] = 2 * s;
  }
  return y;
}

function small(n: number, precision: CpuPrecision): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> {
  const r = fourStepOf(n, precision, 0);
  assert.ok(r, `n = ${n} ${precision} has a four-step split`);
  return r;
}

test('four-step planning: large problems only, factors multiples of the lanes, whole-line blocks where they fit', () => {
  // Without the measurement registered (src/index.ts registers it) the planner takes the early bound.
  assert.equal(planCpuEngineFft(FOUR_STEP_EARLY_BYTES / 8, 'f32').kind, 'four-step');
  if (process.env['BUTTERFLY_FOUR_STEP_FROM'] === undefined) {
    assert.deepEqual(knownFourStepFrom(), { bytes: FOUR_STEP_EARLY_BYTES, source: 'default' });
  }
  assert.equal(planCpuEngineFft(FOUR_STEP_EARLY_BYTES / 16, 'f64').kind, 'four-step');
  assert.notEqual(planCpuEngineFft(FOUR_STEP_EARLY_BYTES / 16, 'f32').kind, 'four-step');
  // A machine whose last-level cache serves the sweeps: lane passes up to the late bound, the four-step from it.
  setFourStepFromBytes(FOUR_STEP_LATE_BYTES);
  try {
    assert.equal(planCpuEngineFft(FOUR_STEP_EARLY_BYTES / 8, 'f32').kind, 'lane-split');
    assert.equal(planCpuEngineFft(FOUR_STEP_LATE_BYTES / 16, 'f32').kind, 'lane-split');
    assert.equal(planCpuEngineFft(FOUR_STEP_LATE_BYTES / 16, 'f64').kind, 'four-step');
    assert.equal(planCpuEngineFft(FOUR_STEP_LATE_BYTES / 8, 'f32').kind, 'four-step');
  } finally {
    setFourStepFromBytes(FOUR_STEP_EARLY_BYTES);
  }
  // Lengths with a prime factor from 7 take it from FOUR_STEP_ODD_FROM_BYTES (526848 = 2⁹·3·7³ f64: 8 MiB).
  assert.equal(planCpuEngineFft(526848, 'f64').kind, 'lane-split');
  assert.ok(7 * 2 ** 18 * 16 >= FOUR_STEP_ODD_FROM_BYTES);
  assert.equal(planCpuEngineFft(7 * 2 ** 18, 'f64').kind, 'four-step');
  const r = planCpuEngineFft(1 << 22, 'f32');
  assert.ok(r.kind === 'four-step' && r.n1 === 2048 && r.n2 === 2048 && r.blockGroups === 4);
  const odd = small(400, 'f32'); // 20 × 20: 5 groups a side, blocks of one group
  assert.deepEqual([odd.n1, odd.n2, odd.blockGroups], [20, 20, 1]);
  assert.equal(small(3072, 'f32').blockGroups, 4);
  assert.equal(fourStepOf(4099 * 16, 'f32', 0), null); // a factor above the codelets
  assert.equal(fourStepOf(24, 'f32', 0), null); // too short to split
});

test('four-step bound measured: the probe runs both recipes here and names one of the two bounds', async () => {
  const { measureFourStepFrom } = await import('../../src/backends/cpu/four-step-choice.js');
  const r = fourStepRivals(1 << 19, 'f32');
  assert.deepEqual([r.fourStep.kind, r.lanes.kind], ['four-step', 'lane-split']);
  // undefined would mean the probe failed here, where it must run.
  assert.ok([FOUR_STEP_EARLY_BYTES, FOUR_STEP_LATE_BYTES].includes(measureFourStepFrom()!));
});

const cases: [number, CpuPrecision][] = [
  [256, 'f32'],
  [400, 'f32'],
  [3072, 'f32'],
  [6000, 'f32'],
  [1 << 14, 'f32'],
  [8 * 1000, 'f32'],
  [256, 'f64'],
  [800, 'f64'],
  [2048, 'f64'],
  [3 ** 4 * 16, 'f64'],
  [1 << 14, 'f64'],
];

test('four-step: both directions and batches against the float64 reference', () => {
  let seed = 1;
  for (const [n, precision] of cases) {
    const plan = engineFftOf(small(n, precision));
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    for (const batch of [1, 3]) {
      const r = rng(seed++);
      const x = new Float64Array(2 * n * batch).map(() => r());
      for (const inverse of [false, true]) {
        const ref = new Float64Array(2 * n * batch);
        planCpuFft(n).execute(x, ref, { batch, inverse, norm: inverse ? 'backward' : 'ortho' });
        const out = new Arr(2 * n * batch).fill(NaN);
        plan.execute(Arr.from(x), out, { batch, inverse, norm: inverse ? 'backward' : 'ortho' });
        const e = relErr(out, ref);
        assert.ok(e <= bound(n, precision), `n=${n} ${precision} batch ${batch} inverse ${inverse}: ${e}`);
      }
    }
  }
});

test('four-step: strided layouts and engine buffers give the packed results', () => {
  for (const [n, precision] of [
    [3072, 'f32'],
    [800, 'f64'],
  ] as const) {
    const plan = engineFftOf(small(n, precision));
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const batch = 3;
    const r = rng(7);
    const x = new Arr(2 * n * batch).map(() => r());
    const packed = new Arr(2 * n * batch);
    plan.execute(x, packed, { batch });
    // Columns: element i of problem b at i·batch + b.
    const cols = new Arr(2 * n * batch);
    for (let b = 0; b < batch; b++)
      for (let i = 0; i < n; i++) {
        cols[2 * (i * batch + b)] = x[2 * (b * n + i)]!;
        cols[2 * (i * batch + b) + 1] = x[2 * (b * n + i) + 1]!;
      }
    const out = new Arr(2 * n * batch);
    const l = { offset: 0, stride: batch, dist: 1 };
    plan.execute(cols, out, { batch, input: l, output: l });
    for (let b = 0; b < batch; b++)
      for (let i = 0; i < n; i++) {
        assert.equal(out[2 * (i * batch + b)], packed[2 * (b * n + i)]);
        assert.equal(out[2 * (i * batch + b) + 1], packed[2 * (b * n + i) + 1]);
      }
    const bufs = plan.createBuffers!(batch);
    bufs.input.set(x);
    plan.execute(bufs.input, bufs.output, { batch });
    assert.deepEqual(Array.from(bufs.output), Array.from(packed));
    assert.deepEqual(Array.from(bufs.input), Array.from(x), 'the input is kept');
  }
});

test('four-step: fused real FFT, DCT-II / III and a Bluestein inner transform', () => {
  for (const [h, precision] of [
    [400, 'f32'],
    [256, 'f64'],
  ] as const) {
    const n = 2 * h;
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const r = rng(11);
    const batch = 3;
    const x = new Float64Array(n * batch).map(() => r());
    const real = fusedRealFft({ ...small(h, precision), realPost: true });
    const ref = new Float64Array(2 * (h + 1) * batch);
    planCpuRfft(n).forward(x, ref, { batch });
    const out = new Arr(2 * (h + 1) * batch);
    const lay = (len: number) => ({ offset: 0, stride: 1, dist: len });
    real.forwardReal(Arr.from(x), lay(n), out, lay(h + 1), batch, 1);
    assert.ok(relErr(out, ref) <= bound(n, precision), `rfft ${n} ${precision}: ${relErr(out, ref)}`);
    const back = new Arr(n * batch);
    real.inverseReal(out, lay(h + 1), back, lay(n), batch, 1 / n);
    assert.ok(relErr(back, x) <= 2 * bound(n, precision), `irfft ${n} ${precision}`);
    const d = fusedRealFft({ ...small(h, precision), realPost: true, dct2: true });
    const y = new Arr(n * batch);
    d.forwardDct2(Arr.from(x), y, batch);
    const yRef = new Float64Array(n * batch);
    for (let b = 0; b < batch; b++) yRef.set(dctReference(x.subarray(b * n, (b + 1) * n)), b * n);
    assert.ok(relErr(y, yRef) <= 2 * bound(n, precision), `dct2 ${n} ${precision}: ${relErr(y, yRef)}`);
    // DCT-III undoes DCT-II up to 2n (scipy's idct, norm 'backward').
    const z = new Arr(n * batch);
    d.inverseDct2(y, z, batch, 1 / (2 * n));
    assert.ok(relErr(z, x) <= 4 * bound(n, precision), `dct3 ${n} ${precision}: ${relErr(z, x)}`);
  }
  // Bluestein of 1009 points around a four-step inner transform of 2048.
  for (const precision of ['f32', 'f64'] as const) {
    const inner = { ...small(2048, precision), pointwise: true };
    const plan = engineFftOf({ kind: 'bluestein', n: 1009, precision, lanes: inner.lanes, inner });
    const r = rng(3);
    const x = new Float64Array(2 * 1009 * 3).map(() => r());
    const ref = new Float64Array(x.length);
    planCpuFft(1009).execute(x, ref, { batch: 3 });
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const out = new Arr(x.length);
    plan.execute(Arr.from(x), out, { batch: 3 });
    assert.ok(relErr(out, ref) <= 4 * bound(2048, precision), `Bluestein ${precision}: ${relErr(out, ref)}`);
  }
});

test('four-step as planned: 2^20 points in float64 (16 MiB) through engineFft', () => {
  const n = 1 << 20;
  const plan = engineFft(n, 'f64');
  assert.equal(plan.recipe.kind, 'four-step');
  const r = rng(5);
  const x = new Float64Array(2 * n).map(() => r());
  for (const inverse of [false, true]) {
    const ref = new Float64Array(2 * n);
    planCpuFft(n).execute(x, ref, { inverse });
    const out = new Float64Array(2 * n);
    plan.execute(x, out, { inverse });
    assert.ok(relErr(out, ref) <= bound(n, 'f64'), `inverse ${inverse}: ${relErr(out, ref)}`);
  }
});
