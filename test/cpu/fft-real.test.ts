import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCpuRfft } from '../../src/backends/cpu/fft-real.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { dftNaiveReal } from '../../src/backends/cpu/dft-naive.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';
import { rfft } from '../../src/index.js';
import { PAIRS_FROM, planCpuEngineRfftForward } from '../../src/planner/cpu-fft.js';

const bound = (n: number) => 1e-12 * Math.log2(n + 1) + 1e-15;

function complexOfReal(x: ArrayLike<number>): Float64Array {
  const c = new Float64Array(2 * x.length);
  for (let i = 0; i < x.length; i++) c[2 * i] = x[i]!;
  return c;
}

test('rfft/irfft vs complex FFT, every N = 1..512 (odd and even), all norms', () => {
  for (let n = 1; n <= 512; n++) {
    const plan = planCpuRfft(n);
    const nc = Math.floor(n / 2) + 1;
    assert.equal(plan.nComplex, nc);
    const x = randomFloat64(n, 7 * n);
    const full = new Float64Array(2 * n);
    planCpuFft(n).execute(complexOfReal(x), full);
    const ref = full.subarray(0, 2 * nc);
    const y = new Float64Array(2 * nc).fill(NaN);
    plan.forward(x, y);
    assert.ok(relativeL2(y, ref) < bound(n), `rfft n=${n}: ${relativeL2(y, ref)}`);
    const back = new Float64Array(n).fill(NaN);
    plan.inverse(y, back);
    assert.ok(relativeL2(back, x) < bound(n), `irfft n=${n}`);
    // irfft vs complex inverse of the Hermitian extension of a random half spectrum (not a real FFT's
    // output), with garbage in the imaginary parts of Y_0 and Y_{N/2}, which must be ignored.
    const h = randomFloat64(2 * nc, 3 * n + 1);
    const herm = new Float64Array(2 * n);
    herm[0] = h[0]!;
    for (let k = 1; k < nc; k++) {
      herm[2 * k] = h[2 * k]!;
      herm[2 * k + 1] = h[2 * k + 1]!;
      herm[2 * (n - k)] = h[2 * k]!;
      herm[2 * (n - k) + 1] = -h[2 * k + 1]!;
    }
    if (n % 2 === 0) herm[n + 1] = 0;
    const inv = new Float64Array(2 * n);
    planCpuFft(n).execute(herm, inv, { inverse: true });
    const invRe = new Float64Array(n);
    for (let i = 0; i < n; i++) invRe[i] = inv[2 * i]!;
    plan.inverse(h, back);
    assert.ok(relativeL2(back, invRe) < bound(n), `irfft(hermitian) n=${n}: ${relativeL2(back, invRe)}`);
    for (const norm of ['ortho', 'forward'] as const) {
      plan.forward(x, y, { norm });
      const s = norm === 'ortho' ? 1 / Math.sqrt(n) : 1 / n;
      assert.ok(
        relativeL2(
          y,
          Array.from(ref, (v) => v * s),
        ) < bound(n),
        `rfft ${norm} n=${n}`,
      );
      plan.inverse(y, back, { norm });
      assert.ok(relativeL2(back, x) < bound(n), `irfft ${norm} n=${n}`);
    }
  }
});

test('rfft vs naive DFT for a few N', () => {
  for (const n of [1, 2, 3, 4, 6, 9, 34, 100, 257, 1000]) {
    const x = randomFloat64(n, n);
    const y = new Float64Array(2 * planCpuRfft(n).nComplex);
    planCpuRfft(n).forward(x, y);
    assert.ok(relativeL2(y, dftNaiveReal(x).subarray(0, y.length)) < bound(n));
  }
});

test('batched, strided real transforms (batch 4, offsets, strides, dist), float32 output', () => {
  for (const n of [1, 2, 5, 8, 15, 16, 34, 97, 128]) {
    const plan = planCpuRfft(n);
    const nc = plan.nComplex,
      batch = 4;
    const li = { offset: 3, stride: 2, dist: 2 * n + 1 };
    const lo = { offset: 1, stride: 3, dist: 3 * nc + 2 };
    const inp = randomFloat64(li.offset + (batch - 1) * li.dist + (n - 1) * li.stride + 1, n);
    const out = new Float64Array(2 * (lo.offset + (batch - 1) * lo.dist + (nc - 1) * lo.stride + 1));
    plan.forward(inp, out, { batch, input: li, output: lo });
    for (let b = 0; b < batch; b++) {
      const x = new Float64Array(n);
      for (let e = 0; e < n; e++) x[e] = inp[li.offset + b * li.dist + e * li.stride]!;
      const ref = new Float64Array(2 * nc);
      plan.forward(x, ref);
      const got = new Float64Array(2 * nc);
      for (let e = 0; e < nc; e++) {
        got[2 * e] = out[2 * (lo.offset + b * lo.dist + e * lo.stride)]!;
        got[2 * e + 1] = out[2 * (lo.offset + b * lo.dist + e * lo.stride) + 1]!;
      }
      assert.deepEqual(got, ref);
    }
    // and back, strided the other way, into float32
    const back = new Float32Array(li.offset + (batch - 1) * li.dist + (n - 1) * li.stride + 1);
    plan.inverse(out, back, { batch, input: lo, output: li });
    for (let b = 0; b < batch; b++) {
      for (let e = 0; e < n; e++) {
        const p = li.offset + b * li.dist + e * li.stride;
        assert.ok(Math.abs(back[p]! - inp[p]!) < 1e-6);
      }
    }
  }
});

test('real FFT recipes and errors', () => {
  assert.equal(planCpuRfft(1024).recipe.kind, 'real-even-via-half-complex');
  assert.equal(planCpuRfft(1024).recipe.inner.n, 512);
  assert.equal(planCpuRfft(1023).recipe.kind, 'real-via-full-complex');
  assert.throws(() => planCpuRfft(0), ArgumentError);
  assert.throws(() => planCpuRfft(3.5), ArgumentError);
  assert.throws(() => planCpuRfft(8).forward(new Float64Array(7), new Float64Array(10)), ArgumentError);
  assert.throws(() => planCpuRfft(8).forward(new Float64Array(8), new Float64Array(9)), ArgumentError);
  assert.throws(() => planCpuRfft(8).inverse(new Float64Array(9), new Float64Array(8)), ArgumentError);
});

test('engine rfft of even lengths whose half does not split: rows two a full-length transform (pairs), against the DFT', async () => {
  let checked = 0;
  for (const precision of ['f32', 'f64'] as const) {
    for (let n = PAIRS_FROM; n <= PAIRS_FROM + 800; n += 2) {
      const r = planCpuEngineRfftForward(n, precision);
      if (!r?.realPairs) continue;
      for (const batch of [1, 2, 3]) {
        const x = randomFloat64(n * batch, n + batch);
        const T = precision === 'f32' ? Float32Array : Float64Array;
        const y = await rfft(T.from(x), { shape: [batch, n], backend: 'cpu', threads: 1 });
        for (let q = 0; q < batch; q++) {
          const want = dftNaiveReal(x.subarray(q * n, (q + 1) * n)).subarray(0, n + 2);
          const got = y.subarray(q * (n + 2), (q + 1) * (n + 2));
          const err = relativeL2(Float64Array.from(got), want);
          assert.ok(err < (precision === 'f32' ? 2e-6 : 1e-12), `${precision} n=${n} batch ${batch} row ${q}: ${err}`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} cases took the pairs path`);
});
