/**
 * Sparse FFT on WebGPU (f32): the same recipes as the CPU backend. Skipped without an adapter (outside CI).
 * On the software adapter (llvmpipe) sizes stay at n ≤ 2^22.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSfftPlan, sfft, sparseSignal } from '../../src/api/sfft.js';
import { createStorageBuffer } from '../../src/backends/webgpu/device.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { planSfft } from '../../src/planner/sfft.js';
import { testGpu } from '../helpers/gpu.js';
import { assertSorted, bucketNoise, score } from './helpers.js';

test('WebGPU exactly sparse, n = 2^14 … 2^20: all k found within 1e-4 relative', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  for (const [n, k, seed] of [
    [2 ** 14, 1, 1],
    [2 ** 14, 16, 2],
    [2 ** 16, 100, 3],
    [2 ** 18, 500, 4],
    [2 ** 20, 1000, 5],
  ]) {
    const s = sparseSignal({ n, k, seed });
    const r = await sfft(Float32Array.from(s.x), k, { backend: 'webgpu', gpu, seed });
    assertSorted(r);
    assert.equal(r.backend, 'webgpu');
    assert.equal(r.status, 'ok', r.message);
    assert.equal(r.algorithm, 'exact');
    const sc = score(r, s);
    assert.equal(sc.found, k, `n=${n} k=${k}: found ${sc.found}`);
    assert.ok(sc.maxRel <= 1e-4, `n=${n} k=${k}: max relative error ${sc.maxRel}`);
    assert.ok(r.diagnostics.residualFraction < 1e-6);
  }
});

test('WebGPU n = 2^22, k = 1000 (exact) from a device-resident buffer, plan reused', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const n = 2 ** 22;
  const k = 1000;
  const s = sparseSignal({ n, k, seed: 6 });
  const buf = createStorageBuffer(gpu, Float32Array.from(s.x));
  const plan = await createSfftPlan({ n, k, backend: 'webgpu', gpu, mode: 'exact' });
  try {
    for (let i = 0; i < 2; i++) {
      const r = await plan.executeGpu(buf);
      const sc = score(r, s);
      assert.equal(r.status, 'ok', r.message);
      assert.equal(sc.found, k);
      assert.ok(sc.maxRel <= 1e-4, String(sc.maxRel));
    }
  } finally {
    plan.destroy();
    buf.destroy();
  }
});

test('WebGPU noisy signals (SNR 10–40 dB): ≥ 95% found, L1 within the bucket noise, same as the CPU', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  for (const [n, k, snr, seed] of [
    [2 ** 16, 50, 10, 21],
    [2 ** 18, 100, 20, 22],
    [2 ** 18, 300, 10, 23],
    [2 ** 20, 100, 40, 24],
  ]) {
    const s = sparseSignal({ n, k, seed, snrDb: snr });
    const r = await sfft(Float32Array.from(s.x), k, { backend: 'webgpu', gpu, seed });
    assertSorted(r);
    assert.equal(r.algorithm, 'robust');
    assert.equal(r.status, 'ok', r.message);
    const sc = score(r, s);
    assert.ok(sc.found >= 0.95 * k, `n=${n} k=${k} snr=${snr}: found ${sc.found}`);
    assert.ok(sc.l1 <= bucketNoise(s, r), `L1 ${sc.l1} > ${bucketNoise(s, r)}`);
    const c = await sfft(s.x, k, { backend: 'cpu', seed });
    const cpuSet = new Set(c.frequencies);
    const common = [...r.frequencies].filter((f) => cpuSet.has(f)).length;
    assert.ok(common >= 0.98 * k, `GPU and CPU agree on ${common} of ${k}`);
  }
});

test('WebGPU real input', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const s = sparseSignal({ n: 2 ** 18, k: 40, seed: 31, real: true });
  const r = await sfft(Float32Array.from(s.x), 40, { backend: 'webgpu', gpu, real: true });
  assert.equal(r.status, 'ok', r.message);
  const sc = score(r, s);
  assert.equal(sc.found, 40);
  assert.ok(sc.maxRel <= 1e-4);
  assert.ok(r.frequencies.every((f) => f <= 2 ** 17));
  const noisy = sparseSignal({ n: 2 ** 16, k: 20, seed: 32, real: true, snrDb: 15 });
  const rn = await sfft(Float32Array.from(noisy.x), 20, { backend: 'webgpu', gpu, real: true });
  assert.equal(rn.algorithm, 'robust');
  assert.ok(score(rn, noisy).found >= 19);
});

test('WebGPU failure reporting: k too large, not sparse', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const s = sparseSignal({ n: 2 ** 12, k: 300, seed: 51 });
  const r = await sfft(Float32Array.from(s.x), 300, { backend: 'webgpu', gpu });
  assert.equal(r.status, 'k-too-large');
  assert.equal(r.algorithm, 'dense');
  assert.equal(score(r, s).found, 300);
  const noise = sparseSignal({ n: 2 ** 16, k: 1, seed: 61, snrDb: -30 });
  const rn = await sfft(Float32Array.from(noise.x), 20, { backend: 'webgpu', gpu });
  assert.equal(rn.status, 'not-sparse');
  assert.ok(rn.diagnostics.residualFraction > 0.5);
});

test('WebGPU exact stages: same misses and recoveries as the CPU, one entry per frequency and stage', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const n = 2 ** 18;
  const k = 1000;
  const s = sparseSignal({ n, k, seed: 81 });
  const x = Float32Array.from(s.x);
  const g0 = await sfft(x, k, { backend: 'webgpu', gpu, mode: 'exact', stages: 0, seed: 82 });
  const c0 = await sfft(s.x, k, { backend: 'cpu', mode: 'exact', stages: 0, seed: 82 });
  const f0 = score(g0, s).found;
  assert.ok(f0 < k, `stage 0 alone found ${f0}`);
  assert.ok(Math.abs(f0 - score(c0, s).found) <= 2, `GPU ${f0} vs CPU ${score(c0, s).found}`);
  assert.equal(g0.status, 'not-sparse');
  // Each plan runs twice: the hashing zeroes the counters and bin counts of the previous call (stages: 3
  // has more of those words than the hashing has invocations).
  for (const o of [
    { stages: 1 },
    { rounds: 3, stages: 2 },
    { rounds: 3, stages: 1, bExactConst: 8 },
    { stages: 3 },
    { stages: 3, gather: 'sorted' as const },
  ]) {
    const plan = await createSfftPlan({ n, k, backend: 'webgpu', gpu, mode: 'exact', seed: 82, ...o });
    try {
      for (let call = 0; call < 2; call++) {
        const r = await plan.execute(x);
        const sc = score(r, s);
        const what = `${JSON.stringify(o)}, call ${call}`;
        assert.equal(r.status, 'ok', `${what}: ${r.message}`);
        assert.equal(sc.found, k, what);
        assert.ok(sc.maxRel <= 1e-4, `${what}: ${sc.maxRel}`);
        assert.ok(r.diagnostics.candidates < 1.05 * k, `${what}: candidates ${r.diagnostics.candidates}`);
      }
    } finally {
      plan.destroy();
    }
  }
});

test('WebGPU exact path against the dense FFT of the same f32 signal', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const n = 2 ** 16;
  const k = 200;
  const s = sparseSignal({ n, k, seed: 91, magnitude: [1, 100] });
  const x = Float32Array.from(s.x);
  const dense = new Float64Array(2 * n);
  planCpuFft(n).execute(Float64Array.from(x), dense);
  const mags = Array.from({ length: n }, (_, f) => Math.hypot(dense[2 * f], dense[2 * f + 1]));
  const largest = new Set([...mags.keys()].sort((a, b) => mags[b] - mags[a]).slice(0, k));
  const r = await sfft(x, k, { backend: 'webgpu', gpu, mode: 'exact' });
  assert.equal(r.status, 'ok', r.message);
  assert.equal(r.frequencies.length, k);
  r.frequencies.forEach((f, i) => {
    assert.ok(largest.has(f), `frequency ${f} is not among the ${k} largest of the dense FFT`);
    const e = Math.hypot(r.values[2 * i] - dense[2 * f], r.values[2 * i + 1] - dense[2 * f + 1]);
    assert.ok(e <= 1e-4 * mags[f], `f=${f}: |error| ${e} vs |X| ${mags[f]}`);
  });
});

test('WebGPU robust plan reused on two different signals (the hashing zeroes the previous call’s kept buckets)', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const n = 2 ** 16;
  const k = 50;
  const plan = await createSfftPlan({ n, k, backend: 'webgpu', gpu, mode: 'robust' });
  try {
    for (const seed of [101, 102]) {
      const s = sparseSignal({ n, k, seed, snrDb: 20 });
      const r = await plan.execute(Float32Array.from(s.x));
      assert.equal(r.status, 'ok', r.message);
      assert.ok(score(r, s).found >= 0.95 * k, `seed ${seed}: found ${score(r, s).found}`);
      // Stale kept buckets from the first call would add votes: more located frequencies than the CPU's.
      const c = await sfft(s.x, k, { backend: 'cpu', mode: 'robust' });
      const dc = Math.abs(r.diagnostics.candidates - c.diagnostics.candidates);
      assert.ok(
        dc <= 0.05 * c.diagnostics.candidates,
        `seed ${seed}: ${r.diagnostics.candidates} located, CPU ${c.diagnostics.candidates}`,
      );
    }
  } finally {
    plan.destroy();
  }
});

test('WebGPU exact path, gather sorted: same result as the direct hashing (complex and real input)', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  for (const [n, k, real] of [
    [2 ** 18, 1000, false],
    [2 ** 16, 40, true],
  ] as const) {
    const s = sparseSignal({ n, k, seed: 111, real });
    const x = Float32Array.from(s.x);
    const direct = await sfft(x, k, { backend: 'webgpu', gpu, mode: 'exact', real });
    const sorted = await sfft(x, k, { backend: 'webgpu', gpu, mode: 'exact', real, gather: 'sorted' });
    assert.equal(sorted.status, 'ok', sorted.message);
    const sc = score(sorted, s);
    assert.equal(sc.found, k, `n=${n} real=${real}: found ${sc.found}`);
    assert.ok(sc.maxRel <= 1e-4, String(sc.maxRel));
    assert.deepEqual([...sorted.frequencies], [...direct.frequencies]);
    sorted.values.forEach((v, i) =>
      assert.ok(Math.abs(v - direct.values[i]) <= 1e-5 * (1 + Math.abs(v)), `value ${i}: ${v} vs ${direct.values[i]}`),
    );
  }
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, gather: 'random' as never }), /gather/);
});
