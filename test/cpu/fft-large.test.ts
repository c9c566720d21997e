/**
 * Large N without a naive DFT: Ergün-style randomized checks (as FFTW's verifier) plus round trips.
 * - linearity: F(αx + βy) = αF(x) + βF(y)
 * - impulse: F(δ_0) = 1 everywhere (checks every output is written and scaled right)
 * - time shift: F(x shifted by 1)_k = e^{−2πik/N}·F(x)_k
 * Together these pin down the DFT (Ergün 1995); run on random inputs they catch wrong twiddles, lost
 * stages and permutation bugs at sizes where O(N²) is impossible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { unitRoot } from '../../src/backends/cpu/dft-naive.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';

function fft(n: number, x: Float64Array, inverse = false): Float64Array {
  const y = new Float64Array(2 * n);
  planCpuFft(n).execute(x, y, { inverse });
  return y;
}

function checkErgun(n: number, seed: number): void {
  const tol = 1e-12 * Math.log2(n + 1);
  const x = randomFloat64(2 * n, seed);
  const y = randomFloat64(2 * n, seed + 1);
  const fx = fft(n, x);
  // linearity with a complex α = (0.3, −1.7), real β = 2.5
  const ar = 0.3,
    ai = -1.7,
    be = 2.5;
  const z = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    z[2 * i] = ar * x[2 * i]! - ai * x[2 * i + 1]! + be * y[2 * i]!;
    z[2 * i + 1] = ar * x[2 * i + 1]! + ai * x[2 * i]! + be * y[2 * i + 1]!;
  }
  const fy = fft(n, y);
  const fz = fft(n, z);
  const lin = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    lin[2 * i] = ar * fx[2 * i]! - ai * fx[2 * i + 1]! + be * fy[2 * i]!;
    lin[2 * i + 1] = ar * fx[2 * i + 1]! + ai * fx[2 * i]! + be * fy[2 * i + 1]!;
  }
  assert.ok(relativeL2(fz, lin) < tol, `linearity n=${n}`);
  // impulse at 0 → all ones; impulse at 1 → e^{−2πik/N}
  const d = new Float64Array(2 * n);
  d[2] = 1;
  const fd = fft(n, d);
  const ramp = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const [c, s] = unitRoot(k, n);
    ramp[2 * k] = c;
    ramp[2 * k + 1] = -s;
  }
  assert.ok(relativeL2(fd, ramp) < tol, `impulse n=${n}`);
  // time shift: x_{i−1} ↔ e^{−2πik/N}·X_k
  const xs = new Float64Array(2 * n);
  xs.set(x.subarray(0, 2 * n - 2), 2);
  xs[0] = x[2 * n - 2]!;
  xs[1] = x[2 * n - 1]!;
  const fxs = fft(n, xs);
  const ph = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const wr = ramp[2 * k]!,
      wi = ramp[2 * k + 1]!;
    ph[2 * k] = fx[2 * k]! * wr - fx[2 * k + 1]! * wi;
    ph[2 * k + 1] = fx[2 * k]! * wi + fx[2 * k + 1]! * wr;
  }
  assert.ok(relativeL2(fxs, ph) < tol, `shift n=${n}`);
  // round trip
  assert.ok(relativeL2(fft(n, fx, true), x) < tol, `round trip n=${n}`);
  // Parseval: ‖X‖² = N‖x‖²
  let ex = 0,
    eX = 0;
  for (let i = 0; i < 2 * n; i++) {
    ex += x[i]! * x[i]!;
    eX += fx[i]! * fx[i]!;
  }
  assert.ok(Math.abs(eX / (n * ex) - 1) < tol, `Parseval n=${n}`);
}

for (const n of [1 << 16, 3 ** 10, 5 ** 7, 1 << 18, 1 << 20, 1 << 22, 1_000_003]) {
  test(`Ergün checks and round trip, N = ${n} (${JSON.stringify(planCpuFft(n).recipe).slice(0, 80)})`, () => {
    checkErgun(n, n % 1000);
  });
}
