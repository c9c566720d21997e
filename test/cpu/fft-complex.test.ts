import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dftNaive, unitRoot } from '../../src/backends/cpu/dft-naive.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { bluesteinInnerLength, BluesteinFft } from '../../src/backends/cpu/fft-bluestein.js';
import { chooseRadices, planMixedRadix } from '../../src/backends/cpu/fft-mixed-radix.js';
import { randomFloat64, randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';

const bound = (n: number) => 1e-12 * Math.log2(n + 1) + 1e-15;

test('unitRoot is exact at quarter points and accurate elsewhere', () => {
  assert.deepEqual(unitRoot(0, 4), [1, 0]);
  assert.deepEqual(unitRoot(1, 4), [0, 1]);
  assert.deepEqual(unitRoot(2, 4), [-1, 0]);
  assert.deepEqual(unitRoot(6, 8), [0, -1]);
  assert.deepEqual(unitRoot(3, 4), [0, -1]);
  assert.deepEqual(unitRoot(-1, 4), [0, -1]);
  for (const [m, n] of [
    [1, 7],
    [5, 12],
    [999_999, 1_000_003],
    [12345, 65536],
  ] as const) {
    const [c, s] = unitRoot(m, n);
    assert.ok(Math.abs(c - Math.cos((2 * Math.PI * m) / n)) < 1e-9);
    assert.ok(Math.abs(s - Math.sin((2 * Math.PI * m) / n)) < 1e-9);
    assert.ok(Math.abs(c * c + s * s - 1) < 4e-16);
  }
});

test('naive DFT matches hand-computed values', () => {
  // DFT of [1, 2, 3, 4] = [10, −2+2i, −2, −2−2i]
  const y = dftNaive([1, 0, 2, 0, 3, 0, 4, 0]);
  const ref = [10, 0, -2, 2, -2, 0, -2, -2];
  for (let i = 0; i < 8; i++) assert.ok(Math.abs(y[i]! - ref[i]!) < 1e-14);
  const x = dftNaive(y, true);
  assert.ok(relativeL2(x, [1, 0, 2, 0, 3, 0, 4, 0]) < 1e-15);
});

test('planner recipes', () => {
  assert.deepEqual(planCpuFft(7).recipe, { kind: 'mixed-radix', n: 7, stages: [{ radix: 7, butterfly: 'radix-7' }] });
  assert.deepEqual(planCpuFft(1).recipe, { kind: 'mixed-radix', n: 1, stages: [] });
  assert.deepEqual(chooseRadices(1024), [8, 8, 8, 2]);
  assert.deepEqual(chooseRadices(4096), [8, 8, 8, 8]);
  assert.deepEqual(chooseRadices(48), [8, 2, 3]);
  assert.deepEqual(chooseRadices(2 * 3 * 5 * 7 * 11 * 13), [2, 3, 5, 7, 11, 13]);
  const r13 = planCpuFft(13).recipe;
  assert.equal(r13.kind === 'mixed-radix' && r13.stages[0]!.butterfly, 'generic-odd-13');
  const r = planCpuFft(1009).recipe;
  assert.equal(r.kind, 'bluestein');
  assert.equal(r.kind === 'bluestein' && 'innerN' in r && r.innerN, 2048);
  assert.equal(r.kind === 'bluestein' && r.inner.kind, 'mixed-radix');
  assert.equal(planCpuFft(17).recipe.kind, 'bluestein');
  assert.equal(planCpuFft(17, { bluesteinThreshold: 17 }).recipe.kind, 'mixed-radix');
  assert.equal(planCpuFft(2 * 17).recipe.kind, 'bluestein');
  assert.equal(bluesteinInnerLength(17), 36);
  assert.equal(bluesteinInnerLength(1_000_003), 2_097_152); // 2^21 ≥ 2_000_005
  assert.equal(planCpuFft(1000), planCpuFft(1000), 'plans are cached');
  assert.ok(JSON.parse(JSON.stringify(planCpuFft(1009).recipe)).inner.stages.length > 0);
});

test('complex FFT vs naive DFT, every N = 1..2048, forward and inverse', () => {
  // One naive DFT per N (it dominates the run time): the forward FFT of x is compared with naive(x),
  // and the inverse FFT of naive(x) with x — both directions against the independent reference.
  for (let n = 1; n <= 2048; n++) {
    const x = randomFloat64(2 * n, 1000 + n);
    const plan = planCpuFft(n);
    const ref = dftNaive(x);
    const y = new Float64Array(2 * n);
    plan.execute(x, y);
    const e = relativeL2(y, ref);
    if (!(e <= bound(n))) assert.fail(`n=${n} forward: rel L2 ${e} > ${bound(n)} (${JSON.stringify(plan.recipe)})`);
    plan.execute(ref, y, { inverse: true });
    const ei = relativeL2(y, x);
    if (!(ei <= bound(n))) assert.fail(`n=${n} inverse: rel L2 ${ei} > ${bound(n)} (${JSON.stringify(plan.recipe)})`);
  }
  // The inverse also against naive inverse for a few N (the sweep above only checks it as a round trip
  // through the naive spectrum).
  for (const n of [1, 2, 3, 7, 16, 17, 60, 127, 1009]) {
    const x = randomFloat64(2 * n, n);
    const y = new Float64Array(2 * n);
    planCpuFft(n).execute(x, y, { inverse: true });
    assert.ok(relativeL2(y, dftNaive(x, true)) < bound(n), `inverse n=${n}`);
  }
});

test('mixed radix forced for large primes agrees with Bluestein', () => {
  for (const n of [17, 19, 23, 97, 101, 251]) {
    const x = randomFloat64(2 * n, n);
    const a = new Float64Array(2 * n),
      b = new Float64Array(2 * n);
    planMixedRadix(n).execute(x, a);
    new BluesteinFft(n).execute(x, b);
    assert.ok(relativeL2(a, b) < bound(n) * 4, `n=${n}`);
    assert.ok(relativeL2(a, dftNaive(x)) < bound(n), `n=${n}`);
  }
});

test('batched strided layouts (batch ≥ 3, offsets, strides, dist), norms, in place, float32', () => {
  for (const n of [1, 2, 3, 5, 8, 12, 16, 17, 30, 64, 97, 128, 210, 1009]) {
    const batch = 3;
    const stride = 3,
      dist = n * stride + 5,
      offset = 7;
    const len = 2 * (offset + (batch - 1) * dist + (n - 1) * stride + 1) + 4;
    const inp = randomFloat64(len, n);
    const plan = planCpuFft(n);
    for (const norm of ['backward', 'ortho', 'forward'] as const) {
      for (const inverse of [false, true]) {
        const out = new Float64Array(2 * (2 + batch * n * 2)).fill(NaN);
        plan.execute(inp, out, {
          batch,
          inverse,
          norm,
          input: { offset, stride, dist },
          output: { offset: 2, stride: 1, dist: 2 * n },
        });
        const s = norm === 'ortho' ? 1 / Math.sqrt(n) : (norm === 'backward') === inverse ? 1 / n : 1;
        for (let b = 0; b < batch; b++) {
          const x = new Float64Array(2 * n);
          for (let e = 0; e < n; e++) {
            const p = 2 * (offset + b * dist + e * stride);
            x[2 * e] = inp[p]!;
            x[2 * e + 1] = inp[p + 1]!;
          }
          const ref = dftNaive(x, false);
          if (inverse) {
            const r2 = dftNaive(x, true);
            for (let i = 0; i < 2 * n; i++) ref[i] = r2[i]! * n;
          }
          for (let i = 0; i < 2 * n; i++) ref[i]! *= s;
          const got = out.subarray(2 * (2 + b * 2 * n), 2 * (2 + b * 2 * n + n));
          assert.ok(relativeL2(got, ref) < bound(n), `n=${n} b=${b} ${norm} ${inverse}`);
        }
        // The gaps between output problems were never written.
        assert.ok(Number.isNaN(out[2 * (2 + n)]!) || n === 0);
      }
    }
    // In place with a strided layout.
    const data = Float64Array.from(inp);
    const expect = new Float64Array(len);
    expect.set(inp);
    plan.execute(inp, expect, { batch, input: { offset, stride, dist }, output: { offset, stride, dist } });
    plan.execute(data, data, { batch, input: { offset, stride, dist }, output: { offset, stride, dist } });
    assert.deepEqual(data, expect);
    // float32 in and out
    const x32 = randomFloat32(2 * n * batch, n + 1);
    const y32 = new Float32Array(2 * n * batch);
    plan.execute(x32, y32, { batch });
    const ref = new Float64Array(2 * n * batch);
    plan.execute(Float64Array.from(x32), ref, { batch });
    assert.ok(relativeL2(y32, ref) < 1e-7);
  }
});

test('bad input is rejected with ArgumentError', () => {
  assert.throws(() => planCpuFft(0), ArgumentError);
  assert.throws(() => planCpuFft(2.5), ArgumentError);
  assert.throws(() => planCpuFft(-4), ArgumentError);
  const p = planCpuFft(8);
  assert.throws(() => p.execute(new Float64Array(15), new Float64Array(16)), ArgumentError);
  assert.throws(() => p.execute(new Float64Array(16), new Float64Array(16), { batch: 2 }), ArgumentError);
  assert.throws(() => p.execute(new Float64Array(16), new Float64Array(16), { input: { stride: -1 } }), ArgumentError);
  assert.throws(() => p.execute(new Float64Array(16), new Float64Array(16), { norm: 'none' as never }), ArgumentError);
  assert.throws(() => p.execute(new Float64Array(16), new Float64Array(16), { batch: 1.5 }), ArgumentError);
  assert.throws(() => new BluesteinFft(100, planMixedRadix(128)), ArgumentError);
});
