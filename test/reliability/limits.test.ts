/**
 * Device limits are handled, not hit: problems larger than maxStorageBufferBindingSize or
 * maxComputeWorkgroupsPerDimension are split (binding windows, 2-D dispatch grids) with correct results,
 * or rejected up front with a DeviceLimitError that names the limit — never a Dawn validation error at
 * run time. The limits are lowered for the tests (WebGpuFft's `tuning.splitLimits`, or a context whose `limits`
 * say less than the device allows), so small data exercises every path on llvmpipe.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  DeviceLimitError,
  GpuContext,
  WebGpuFft,
  WebGpuFftNd,
  createFftPlan,
  createTridiagonalPlan,
  convolve,
  fftProblem,
  createStorageBuffer,
  readBuffer,
  type DeviceLimits,
  type FftProblemInit,
} from '../../src/index.js';
import * as cpuNd from '../../src/backends/cpu/fft-nd.js';
import { layoutSpan } from '../../src/planner/fft-problem.js';
import { testGpu } from '../helpers/gpu.js';
import { count, expectError, f32Bound, gen, printCounts, relL2 } from './helpers.js';

after(() => printCounts('limits'));

/** A context on the same device whose `limits` report less than the device allows. */
function lowered(ctx: GpuContext, over: Partial<DeviceLimits>): GpuContext {
  const c = new GpuContext(ctx.device, ctx.adapter, false);
  Object.defineProperty(c, 'limits', { value: Object.freeze({ ...ctx.limits, ...over }) });
  return c;
}

/** WebGpuFft with split limits on NaN-poisoned output vs the float64 CPU plan on the same layout. */
async function splitCase(
  ctx: GpuContext,
  init: FftProblemInit,
  split: { maxStorageBufferBindingSize?: number; maxComputeWorkgroupsPerDimension?: number },
  seed: number,
  inPlace = false,
) {
  const p = fftProblem(init);
  const plan = await WebGpuFft.create(ctx, p, { tuning: { splitLimits: split }, inPlace });
  const inLen = 2 * layoutSpan(p.input, p.n, p.batch);
  const outLen = 2 * layoutSpan(p.output, p.n, p.batch);
  const x = Float32Array.from(gen(seed).f64(inLen));
  const src = createStorageBuffer(ctx, x);
  const dst = inPlace ? src : createStorageBuffer(ctx, new Float32Array(outLen).fill(NaN));
  await plan.execute(src, dst);
  const got = new Float32Array(await readBuffer(ctx, dst, 0, outLen * 4));
  const chunks = plan.chunkCount;
  const grids = plan.grids;
  plan.destroy();
  src.destroy();
  if (dst !== src) dst.destroy();
  const ref = await (await createFftPlan({ ...init, backend: 'cpu' })).execute(Float64Array.from(x));
  const a: number[] = [];
  const r: number[] = [];
  for (let b = 0; b < p.batch; b++) {
    for (let e = 0; e < p.n; e++) {
      const at = 2 * (p.output.offset + b * p.output.dist + e * p.output.stride);
      a.push(got[at], got[at + 1]);
      r.push(ref[at], ref[at + 1]);
    }
  }
  const err = relL2(a, r);
  assert.ok(err <= f32Bound(p.n), `n=${p.n} batch=${p.batch} split ${JSON.stringify(split)}: error ${err}`);
  count('split problems checked');
  return { chunks, grids, err };
}

test('FFT: batches beyond one storage binding are split into binding windows', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // 100 problems of 64 complex (512 B each) with 4 KiB bindings: ≥ 13 windows, misaligned starts.
  const a = await splitCase(ctx, { n: 64, batch: 100 }, { maxStorageBufferBindingSize: 4096 }, 1);
  assert.ok(a.chunks >= 13, `chunks ${a.chunks}`);
  // Strided, offset input; distance not a multiple of the alignment; inverse, ortho.
  const b = await splitCase(
    ctx,
    {
      n: 32,
      batch: 37,
      direction: 'inverse',
      norm: 'ortho',
      input: { offset: 3, stride: 2, dist: 67 },
      output: { offset: 1, dist: 33 },
    },
    { maxStorageBufferBindingSize: 2048 },
    2,
  );
  assert.ok(b.chunks > 1, `chunks ${b.chunks}`);
  // In place.
  const c = await splitCase(ctx, { n: 128, batch: 21 }, { maxStorageBufferBindingSize: 3 * 1024 }, 3, true);
  assert.ok(c.chunks > 1);
  // Multi-pass (n beyond one workgroup): every pass is windowed.
  const d = await splitCase(ctx, { n: 16384, batch: 3 }, { maxStorageBufferBindingSize: 160 * 1024 }, 4);
  assert.ok(d.chunks >= 2, `multi-pass chunks ${d.chunks}`);
  console.log(
    `  binding windows: ${a.chunks}, ${b.chunks}, ${c.chunks}, ${d.chunks} (errors ${[a, b, c, d].map((v) => v.err.toExponential(1)).join(', ')})`,
  );
});

test('FFT: workgroup counts beyond maxComputeWorkgroupsPerDimension use a 2-D grid', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const a = await splitCase(ctx, { n: 16, batch: 999 }, { maxComputeWorkgroupsPerDimension: 7 }, 5);
  assert.ok(
    a.grids.every((g) => g[0] <= 7 && g[1] <= 7),
    JSON.stringify(a.grids),
  );
  assert.ok(
    a.grids.some((g) => g[1] > 1),
    `2-D grid expected: ${JSON.stringify(a.grids)}`,
  );
  // Both at once.
  const b = await splitCase(
    ctx,
    { n: 8, batch: 1500 },
    { maxComputeWorkgroupsPerDimension: 5, maxStorageBufferBindingSize: 8192 },
    6,
  );
  assert.ok(b.chunks > 1 && b.grids.every((g) => g[0] <= 5 && g[1] <= 5));
  console.log(`  2-D grids: ${JSON.stringify(a.grids)}; ${b.chunks} windows with grids ≤ 5×5`);
});

test('FFT: what cannot be split is rejected with DeviceLimitError naming the limit', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // One problem larger than a binding.
  const e1 = await expectError(
    () =>
      WebGpuFft.create(ctx, fftProblem({ n: 1024 }), {
        tuning: { splitLimits: { maxStorageBufferBindingSize: 4096 } },
      }),
    DeviceLimitError,
    'maxStorageBufferBindingSize',
  );
  assert.equal((e1 as DeviceLimitError).limit, 'maxStorageBufferBindingSize');
  assert.ok((e1 as DeviceLimitError).needed > 4096);
  // A stride that spreads one problem beyond a binding.
  await expectError(
    () =>
      WebGpuFft.create(ctx, fftProblem({ n: 16, input: { stride: 100 } }), {
        tuning: { splitLimits: { maxStorageBufferBindingSize: 4096 } },
      }),
    DeviceLimitError,
    'maxStorageBufferBindingSize',
  );
  // More workgroups than a 2-D grid holds.
  const e3 = await expectError(
    () =>
      WebGpuFft.create(ctx, fftProblem({ n: 8, batch: 5000 }), {
        tuning: { splitLimits: { maxComputeWorkgroupsPerDimension: 3 } },
      }),
    DeviceLimitError,
    'maxComputeWorkgroupsPerDimension',
  );
  assert.equal((e3 as DeviceLimitError).available, 3);
  // The public API: 'webgpu' reports the limit, 'auto' runs on the CPU and is still correct.
  const low = lowered(ctx, { maxStorageBufferBindingSize: 2048 });
  await expectError(
    () => createFftPlan({ n: 1024, backend: 'webgpu', gpu: low }),
    DeviceLimitError,
    'maxStorageBufferBindingSize',
  );
  const auto = await createFftPlan({ n: 1024, backend: 'auto', gpu: low });
  assert.equal(auto.backend, 'cpu');
  const x = Float32Array.from(gen(7).f64(2048));
  const y = await auto.execute(x);
  const ref = await (await createFftPlan({ n: 1024, backend: 'cpu' })).execute(Float64Array.from(x));
  assert.ok(relL2(y, ref) < f32Bound(1024));
  auto.destroy();
  count('limit rejections', 5);
});

test('Real and N-D FFTs are split too', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const g = gen(8);
  // R2C then C2R over a batch that needs several windows.
  const shape = [40, 64];
  const x = Float32Array.from(g.f64(40 * 64));
  const split = { splitLimits: { maxStorageBufferBindingSize: 2048, maxComputeWorkgroupsPerDimension: 4 } };
  const r2c = await WebGpuFftNd.create(ctx, { shape, axes: [1], kind: 'r2c', tuning: split });
  const X = await r2c.run(x);
  r2c.destroy();
  const Xref = cpuNd.rfftn(x, shape, { axes: [1] }).data;
  assert.ok(relL2(X, Xref) < f32Bound(64), `rfft split: ${relL2(X, Xref)}`);
  const c2r = await WebGpuFftNd.create(ctx, { shape, axes: [1], kind: 'c2r', tuning: split });
  const back = await c2r.run(X);
  c2r.destroy();
  assert.ok(relL2(back, x) < f32Bound(64), `irfft split round trip: ${relL2(back, x)}`);
  // 3-D complex over all axes (middle axis uses the second batch level).
  const s3 = [6, 10, 12];
  const z = Float32Array.from(g.f64(2 * 6 * 10 * 12));
  const nd = await WebGpuFftNd.create(ctx, {
    shape: s3,
    tuning: { splitLimits: { maxStorageBufferBindingSize: 8192, maxComputeWorkgroupsPerDimension: 4 } },
  });
  const Z = await nd.run(z);
  nd.destroy();
  const Zref = cpuNd.fftn(z, s3).data;
  assert.ok(relL2(Z, Zref) < f32Bound(720), `fftn split: ${relL2(Z, Zref)}`);
  count('split problems checked', 3);
});

test('Tridiagonal: arrays beyond one binding and grids beyond one dimension', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const n = 32;
  const batch = 300;
  const g = gen(9);
  const arrays = () => {
    const lower = Float32Array.from(g.f64(n * batch));
    const upper = Float32Array.from(g.f64(n * batch));
    const diag = new Float32Array(n * batch).map((_, i) => 3 + Math.abs(lower[i]) + Math.abs(upper[i]));
    return { lower, diag, upper, rhs: Float32Array.from(g.f64(n * batch)) };
  };
  const data = arrays();
  const ref = await (
    await createTridiagonalPlan({ n, batch, backend: 'cpu', dtype: 'float64' })
  ).solve({
    lower: Float64Array.from(data.lower),
    diag: Float64Array.from(data.diag),
    upper: Float64Array.from(data.upper),
    rhs: Float64Array.from(data.rhs),
  });
  // A 2-D grid: 300 one-system workgroups with at most 20 per dimension.
  const grid = lowered(ctx, { maxComputeWorkgroupsPerDimension: 20 });
  const p = await createTridiagonalPlan({
    n,
    batch,
    backend: 'webgpu',
    gpu: grid,
    tuning: { targetRowsPerWorkgroup: 32 },
  });
  const r = await p.solve(data);
  assert.equal(p.chunkCount, 1);
  p.destroy();
  assert.ok(r.ok && relL2(r.x, ref.x) < 1e-5, `2-D grid tridiagonal: ${relL2(r.x, ref.x)}`);
  // At most 3 per dimension (9 a grid): the batch is split into 34 chunks of whole systems.
  const p3 = await createTridiagonalPlan({
    n,
    batch,
    backend: 'webgpu',
    gpu: lowered(ctx, { maxComputeWorkgroupsPerDimension: 3 }),
    tuning: { targetRowsPerWorkgroup: 32 },
  });
  const r3 = await p3.solve(data);
  assert.equal(p3.chunkCount, 34);
  p3.destroy();
  assert.ok(r3.ok && relL2(r3.x, ref.x) < 1e-5, `grid-split tridiagonal: ${relL2(r3.x, ref.x)}`);
  // Arrays beyond one binding (38400 bytes, 16 KiB a binding): split into binding windows, on 'webgpu'
  // and 'auto' alike.
  const small = lowered(ctx, { maxStorageBufferBindingSize: 16 * 1024 });
  for (const backend of ['webgpu', 'auto'] as const) {
    const ps = await createTridiagonalPlan({ n, batch, backend, gpu: small });
    assert.equal(ps.backend, 'webgpu');
    assert.ok(ps.chunkCount >= 3, `${ps.chunkCount} chunks`);
    const rs = await ps.solve(data);
    ps.destroy();
    assert.ok(rs.ok && relL2(rs.x, ref.x) < 1e-5, `binding-split tridiagonal (${backend}): ${relL2(rs.x, ref.x)}`);
  }
  // A single system beyond one binding: 'webgpu' names the limit at plan time; 'auto' solves on the CPU.
  const tiny = lowered(ctx, { maxStorageBufferBindingSize: 64 });
  await expectError(
    () => createTridiagonalPlan({ n, batch, backend: 'webgpu', gpu: tiny }),
    DeviceLimitError,
    'maxStorageBufferBindingSize',
  );
  const auto = await createTridiagonalPlan({ n, batch, backend: 'auto', gpu: tiny });
  assert.equal(auto.backend, 'cpu');
  const ra = await auto.solve(data);
  assert.ok(ra.ok && relL2(ra.x, ref.x) < 1e-5);
  auto.destroy();
  count('split problems checked', 4);
  count('limit rejections');
});

test('Convolution: dispatch limits split or fall back; webgpu names the limit', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const g = gen(10);
  const a = Float32Array.from(g.f64(3000));
  const b = Float32Array.from(g.f64(9));
  const ref = await convolve(Float64Array.from(a), Float64Array.from(b), { backend: 'cpu' });
  const grid = lowered(ctx, { maxComputeWorkgroupsPerDimension: 8 });
  const r = await convolve(a, b, { backend: 'webgpu', gpu: grid, method: 'direct' });
  assert.equal(r.backend, 'webgpu');
  assert.ok(relL2(r.data, ref.data) < 1e-5, `direct conv 2-D grid: ${relL2(r.data, ref.data)}`);
  const tiny = lowered(ctx, { maxComputeWorkgroupsPerDimension: 2 });
  await expectError(
    () => convolve(a, b, { backend: 'webgpu', gpu: tiny, method: 'direct' }),
    DeviceLimitError,
    'maxComputeWorkgroupsPerDimension',
  );
  const auto = await convolve(a, b, { gpu: tiny, method: 'direct' });
  assert.equal(auto.backend, 'cpu');
  assert.ok(relL2(auto.data, ref.data) < 1e-5);
  count('split problems checked');
  count('limit rejections');
});

test('the real device limit: a batch larger than maxStorageBufferBindingSize runs in several windows', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  if (ctx.limits.maxStorageBufferBindingSize > 256 * 1024 * 1024)
    return t.skip('binding limit too large to exceed cheaply here');
  const n = 16;
  const batch = Math.ceil(ctx.limits.maxStorageBufferBindingSize / (8 * n)) + 1000;
  const plan = await WebGpuFft.create(ctx, fftProblem({ n, batch }));
  assert.ok(plan.chunkCount >= 2, `chunks ${plan.chunkCount}`);
  // Input: impulse at sample 1 of every problem → X[k] = e^{−2πik/16}; checked on a sample of problems.
  const x = new Float32Array(2 * n * batch);
  for (let b = 0; b < batch; b++) x[2 * (b * n + 1)] = 1;
  const y = await plan.run(x);
  plan.destroy();
  let worst = 0;
  for (let b = 0; b < batch; b += 997) {
    for (let k = 0; k < n; k++) {
      const re = Math.cos((-2 * Math.PI * k) / n);
      const im = Math.sin((-2 * Math.PI * k) / n);
      worst = Math.max(worst, Math.abs(y[2 * (b * n + k)] - re), Math.abs(y[2 * (b * n + k) + 1] - im));
    }
  }
  const last = batch - 1;
  worst = Math.max(worst, Math.abs(y[2 * (last * n + 3)] - Math.cos((-2 * Math.PI * 3) / n)));
  assert.ok(worst < 1e-6, `max error ${worst}`);
  console.log(
    `  ${(x.byteLength / 2 ** 20).toFixed(1)} MiB batch over ${plan.chunkCount} binding windows of ≤ ${ctx.limits.maxStorageBufferBindingSize / 2 ** 20} MiB, max error ${worst.toExponential(1)}`,
  );
  count('split problems checked');
});
