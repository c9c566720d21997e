import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { runHeatAdi } from '../../src/apps/heat-adi.js';

test('ADI heat (CPU float64) matches the analytic solution and converges at second order', async () => {
  const coarse = await runHeatAdi({ gridSize: 16, steps: 20, tEnd: 0.05, backend: 'cpu', dtype: 'float64' });
  const fine = await runHeatAdi({ gridSize: 33, steps: 40, tEnd: 0.05, backend: 'cpu', dtype: 'float64' });
  assert.equal(coarse.status, 0);
  assert.ok(fine.l2RelError < 2e-3, `fine error ${fine.l2RelError}`);
  // h and Δt halve: error drops by ≈ 4.
  const ratio = coarse.l2RelError / fine.l2RelError;
  assert.ok(ratio > 3 && ratio < 5, `convergence ratio ${ratio}`);
});

test('ADI heat on WebGPU (float32) matches the analytic solution', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const r = await runHeatAdi({ gridSize: 48, steps: 30, tEnd: 0.05, backend: 'webgpu', gpu: ctx, modes: [2, 1] });
  const ref = await runHeatAdi({
    gridSize: 48,
    steps: 30,
    tEnd: 0.05,
    backend: 'cpu',
    dtype: 'float64',
    modes: [2, 1],
  });
  assert.equal(r.backend, 'webgpu');
  assert.equal(r.status, 0);
  assert.ok(r.l2RelError < 5e-3, `error ${r.l2RelError}`);
  // float32 adds little to the discretisation error.
  assert.ok(Math.abs(r.l2RelError - ref.l2RelError) < 1e-4, `${r.l2RelError} vs ${ref.l2RelError}`);
});
