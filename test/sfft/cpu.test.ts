/** Sparse FFT on the float64 CPU backend: recovery, accuracy, noise, real input, failure reporting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSfftPlan, sfft, sparseSignal } from '../../src/api/sfft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { ArgumentError } from '../../src/errors.js';
import { assertSorted, bucketNoise, score } from './helpers.js';

test('exactly sparse: all k found, values within 1e-6 relative (float64), exact path', async () => {
  for (const [n, k, seed] of [
    [2 ** 14, 1, 1],
    [2 ** 14, 10, 2],
    [2 ** 16, 100, 3],
    [2 ** 18, 300, 4],
    [2 ** 20, 50, 5],
  ]) {
    const s = sparseSignal({ n, k, seed });
    const r = await sfft(s.x, k, { backend: 'cpu', seed: seed + 100 });
    assertSorted(r);
    const sc = score(r, s);
    assert.equal(r.backend, 'cpu');
    assert.equal(r.status, 'ok', r.message);
    assert.equal(r.algorithm, 'exact');
    assert.equal(sc.found, k, `n=${n} k=${k}: found ${sc.found}`);
    assert.equal(r.frequencies.length, k);
    assert.ok(sc.maxRel < 1e-6, `n=${n} k=${k}: max relative error ${sc.maxRel}`);
    assert.ok(r.diagnostics.residualFraction < 1e-10);
  }
});

test('fewer frequencies than k: returns the true ones, status ok', async () => {
  const s = sparseSignal({ n: 2 ** 16, k: 20, seed: 8 });
  const r = await sfft(s.x, 40, { backend: 'cpu' });
  assert.equal(r.status, 'ok');
  assert.equal(score(r, s).found, 20);
  assert.equal(r.frequencies.length, 20);
});

test('robust path on exactly sparse signals agrees too', async () => {
  const s = sparseSignal({ n: 2 ** 16, k: 64, seed: 11 });
  const r = await sfft(s.x, 64, { backend: 'cpu', mode: 'robust' });
  assert.equal(r.algorithm, 'robust');
  assert.equal(r.status, 'ok');
  const sc = score(r, s);
  assert.equal(sc.found, 64);
  assert.ok(sc.maxRel < 1e-5, String(sc.maxRel));
});

test('noisy signals (SNR 10–40 dB): ≥ 95% found, L1 error per coefficient within the bucket noise', async () => {
  for (const [n, k, snr, seed] of [
    [2 ** 16, 50, 10, 21],
    [2 ** 18, 100, 20, 22],
    [2 ** 18, 200, 10, 23],
    [2 ** 20, 100, 40, 24],
    [2 ** 17, 30, 30, 25],
  ]) {
    const s = sparseSignal({ n, k, seed, snrDb: snr });
    const r = await sfft(s.x, k, { backend: 'cpu', seed });
    assertSorted(r);
    const sc = score(r, s);
    assert.equal(r.algorithm, 'robust', 'auto mode must leave the exact path on noisy data');
    assert.ok(r.diagnostics.exactResidualFraction! > 1e-6);
    assert.equal(r.status, 'ok', r.message);
    assert.ok(sc.found >= 0.95 * k, `n=${n} k=${k} snr=${snr}: found ${sc.found}`);
    const bound = bucketNoise(s, r);
    assert.ok(sc.l1 <= bound, `n=${n} k=${k} snr=${snr}: L1 ${sc.l1} > bucket noise ${bound}`);
    // The residual fraction measures the noise: 1/(1 + SNR) within a factor 2.
    const expect = 1 / (1 + 10 ** (snr / 10));
    assert.ok(
      r.diagnostics.residualFraction > expect / 2 && r.diagnostics.residualFraction < expect * 2,
      `residual ${r.diagnostics.residualFraction} vs ${expect}`,
    );
  }
});

test('real input: frequencies in [0, n/2], conjugate halves merged', async () => {
  const s = sparseSignal({ n: 2 ** 16, k: 30, seed: 31, real: true });
  const r = await sfft(s.x, 30, { backend: 'cpu', real: true });
  assert.equal(r.status, 'ok');
  assert.equal(r.frequencies.length, 30);
  assert.ok(r.frequencies.every((f) => f <= 2 ** 15));
  const sc = score(r, s);
  assert.equal(sc.found, 30);
  assert.ok(sc.maxRel < 1e-6);
  const noisy = sparseSignal({ n: 2 ** 16, k: 30, seed: 32, real: true, snrDb: 20 });
  const rn = await sfft(noisy.x, 30, { backend: 'cpu', real: true });
  assert.equal(rn.algorithm, 'robust');
  assert.ok(score(rn, noisy).found >= 29);
});

test('same scaling as the dense FFT', async () => {
  const n = 2 ** 14;
  const s = sparseSignal({ n, k: 5, seed: 41, magnitude: [10, 20] });
  const dense = new Float64Array(2 * n);
  planCpuFft(n).execute(s.x, dense);
  const r = await sfft(s.x, 5, { backend: 'cpu' });
  r.frequencies.forEach((f, i) => {
    assert.ok(Math.abs(r.values[2 * i] - dense[2 * f]) < 1e-7 * 20);
    assert.ok(Math.abs(r.values[2 * i + 1] - dense[2 * f + 1]) < 1e-7 * 20);
  });
});

test('failure: k too large for n → status k-too-large (dense fallback, or nothing)', async () => {
  const n = 2 ** 12;
  const s = sparseSignal({ n, k: 400, seed: 51 });
  const r = await sfft(s.x, 400, { backend: 'cpu' });
  assert.equal(r.status, 'k-too-large');
  assert.equal(r.algorithm, 'dense');
  assert.match(r.message, /too large/);
  const sc = score(r, s);
  assert.equal(sc.found, 400);
  assert.ok(sc.maxRel < 1e-9);
  const none = await sfft(s.x, 400, { backend: 'cpu', fallback: 'none' });
  assert.equal(none.status, 'k-too-large');
  assert.equal(none.frequencies.length, 0);
});

test('failure: a signal that is not sparse (white noise) is reported as not-sparse', async () => {
  const n = 2 ** 16;
  const s = sparseSignal({ n, k: 1, seed: 61, snrDb: -30 });
  const r = await sfft(s.x, 20, { backend: 'cpu' });
  assert.equal(r.status, 'not-sparse');
  assert.ok(r.diagnostics.residualFraction > 0.5);
  assert.match(r.message, /not 20-sparse/);
});

test('failure: more frequencies than k → not-sparse (most energy unexplained)', async () => {
  const s = sparseSignal({ n: 2 ** 16, k: 1000, seed: 62 });
  const r = await sfft(s.x, 10, { backend: 'cpu' });
  assert.equal(r.status, 'not-sparse');
  assert.ok(r.diagnostics.residualFraction > 0.9);
});

test('failure: mode exact on a noisy signal says it is not exactly sparse', async () => {
  const s = sparseSignal({ n: 2 ** 16, k: 20, seed: 63, snrDb: 30 });
  const r = await sfft(s.x, 20, { backend: 'cpu', mode: 'exact' });
  assert.equal(r.algorithm, 'exact');
  assert.equal(r.status, 'not-sparse');
  assert.match(r.message, /not exactly 20-sparse/);
});

test('plans: reusable, argument errors', async () => {
  const plan = await createSfftPlan({ n: 2 ** 14, k: 8, backend: 'cpu' });
  for (const seed of [71, 72]) {
    const s = sparseSignal({ n: 2 ** 14, k: 8, seed });
    assert.equal(score(await plan.execute(s.x), s).found, 8);
  }
  await assert.rejects(plan.execute(new Float64Array(10)), ArgumentError);
  await assert.rejects(sfft(new Float64Array(2 * 1000), 3), ArgumentError);
  await assert.rejects(sfft(new Float64Array(2 ** 10), 3, { backend: 'cpu', maxResidual: 2 }), ArgumentError);
});

test('exact path stages: stage 0 alone misses colliding frequencies and says so; one peeling stage finds all', async () => {
  const n = 2 ** 18;
  const k = 1000;
  const s = sparseSignal({ n, k, seed: 81 });
  // Four rounds decoded at once leave ~1.6% of the frequencies colliding in every round.
  const r0 = await sfft(s.x, k, { backend: 'cpu', mode: 'exact', stages: 0, seed: 82 });
  const sc0 = score(r0, s);
  assert.ok(sc0.found < k && sc0.found > 0.9 * k, `stage 0 alone found ${sc0.found}`);
  assert.equal(r0.status, 'not-sparse', 'the verification hashing must see the missing energy');
  const r1 = await sfft(s.x, k, { backend: 'cpu', mode: 'exact', stages: 1, seed: 82 });
  const sc1 = score(r1, s);
  assert.equal(r1.status, 'ok', r1.message);
  assert.equal(sc1.found, k);
  assert.ok(sc1.maxRel < 1e-6, String(sc1.maxRel));
  // One entry per frequency and stage: duplicates across rounds are dropped (~2.6 decodes per frequency).
  assert.ok(r1.diagnostics.candidates < 1.05 * k, `candidates ${r1.diagnostics.candidates}`);
  // Other parameter sets of the same rule: fewer rounds with more stages, larger B.
  for (const o of [
    { rounds: 3, stages: 2 },
    { rounds: 3, stages: 1, bExactConst: 8 },
  ]) {
    const r = await sfft(s.x, k, { backend: 'cpu', mode: 'exact', seed: 83, ...o });
    assert.equal(score(r, s).found, k, JSON.stringify(o));
    assert.equal(r.status, 'ok');
  }
});
