/**
 * Device loss and WebGPU errors surface as library errors, never as hangs, raw DOMExceptions or
 * uncaptured errors: a device is destroyed (ctx.device.destroy() on a second context from acquireGpu())
 * before, during and after work; plans then fail with DeviceError (lost device) or DestroyedError
 * (destroyed context/plan); a new context works afterwards; Dawn validation errors become DeviceError.
 * Every await is bounded by a timeout so a hang fails the test instead of stalling CI.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  DestroyedError,
  DeviceError,
  ArgumentError,
  acquireGpu,
  defaultGpuContext,
  createFftPlan,
  fft,
  rfft,
  fftn,
  createTridiagonalPlan,
  convolve,
  WebGpuFftNd,
  createStorageBuffer,
  readBuffer,
  type GpuContext,
} from '../../src/index.js';
import { testGpu } from '../helpers/gpu.js';
import { count, expectError, f32Bound, gen, printCounts, relL2, withTimeout } from './helpers.js';

after(() => printCounts('device-loss'));

const T = 30_000; // generous: llvmpipe compiles a kernel in well under a second

/** Records uncaptured WebGPU errors of a device: the library must catch every one in its error scopes. */
function watchUncaptured(ctx: GpuContext): string[] {
  const seen: string[] = [];
  ctx.device.addEventListener('uncapturederror', (e) => seen.push((e as GPUUncapturedErrorEvent).error.message));
  return seen;
}

async function waitLost(ctx: GpuContext): Promise<void> {
  await withTimeout(ctx.device.lost, 10_000, 'device.lost');
  // GpuContext's own lost handler runs in a later microtask.
  for (let i = 0; i < 100 && !ctx.isLost; i++) await new Promise((r) => setTimeout(r, 1));
  assert.equal(ctx.isLost, true, 'ctx.isLost after device.lost settled');
}

async function fftOk(ctx: GpuContext, seed: number): Promise<void> {
  const x = Float32Array.from(gen(seed).f64(2 * 256 * 3));
  const y = await withTimeout(fft(x, { shape: [3, 256], gpu: ctx, backend: 'webgpu' }), T, 'fft on a fresh context');
  const ref = await fft(Float64Array.from(x), { shape: [3, 256], backend: 'cpu' });
  assert.ok(relL2(y, ref) < f32Bound(256), `fresh context fft error ${relL2(y, ref)}`);
}

test('after device.destroy(): every entry point fails with DeviceError naming the loss, without hanging', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const uncaptured = watchUncaptured(ctx);
  let reason = '';
  ctx.onLost((r) => (reason = r));
  const x = Float32Array.from(gen(1).f64(2 * 64 * 4));
  const plan = await createFftPlan({ n: 64, batch: 4, backend: 'webgpu', gpu: ctx });
  const nd = await WebGpuFftNd.create(ctx, { shape: [8, 8], kind: 'r2c' });
  const tri = await createTridiagonalPlan({ n: 32, batch: 2, backend: 'webgpu', gpu: ctx });
  const triData = () => ({
    lower: new Float32Array(64).fill(-1),
    diag: new Float32Array(64).fill(4),
    upper: new Float32Array(64).fill(-1),
    rhs: new Float32Array(64).fill(1),
  });
  const buf = createStorageBuffer(ctx, x);
  const out = createStorageBuffer(ctx, x.byteLength);
  await plan.execute(x);
  assert.equal((await tri.solve(triData())).ok, true);

  ctx.device.destroy();
  // Immediately (device.lost has not settled yet): the calls still end in DeviceError.
  await expectError(() => withTimeout(plan.execute(x), T, 'execute right after destroy'), DeviceError, /lost|destroy/i);
  await expectError(
    () => withTimeout(tri.solve(triData()), T, 'tridiagonal right after destroy'),
    DeviceError,
    /lost|destroy/i,
  );
  await waitLost(ctx);
  assert.equal(reason, 'destroyed');
  const rows: [string, () => Promise<unknown>][] = [
    ['plan.execute', () => plan.execute(x)],
    ['plan.executeGpu', () => plan.executeGpu(buf, out)],
    ['plan.encode', async () => plan.encode(ctx.device.createCommandEncoder(), buf, out)],
    ['N-D run', () => nd.run(new Float32Array(64))],
    ['tridiagonal solve', () => tri.solve(triData())],
    ['createFftPlan webgpu', () => createFftPlan({ n: 32, backend: 'webgpu', gpu: ctx })],
    ['fft webgpu', () => fft(x, { gpu: ctx, backend: 'webgpu' })],
    ['rfft webgpu', () => rfft(new Float32Array(64), { gpu: ctx, backend: 'webgpu' })],
    ['fftn webgpu', () => fftn(x, { shape: [16, 16], gpu: ctx, backend: 'webgpu' })],
    ['createTridiagonalPlan webgpu', () => createTridiagonalPlan({ n: 16, backend: 'webgpu', gpu: ctx })],
    ['convolve webgpu', () => convolve(new Float32Array(50), new Float32Array(5), { gpu: ctx, backend: 'webgpu' })],
    ['readBuffer', () => readBuffer(ctx, buf, 0, 16)],
    ['ctx.checked', () => ctx.checked('probe', () => 1)],
  ];
  for (const [label, fn] of rows) {
    const e = await expectError(() => withTimeout(fn(), T, label), DeviceError, /lost/, label);
    assert.match(e.message, /acquireGpu/, `${label}: the message says how to recover`);
    count('lost-device calls rejected');
  }
  // 'auto' keeps working on a lost context by running on the CPU, with correct results.
  const auto = await withTimeout(fft(x, { shape: [4, 64], gpu: ctx }), T, 'auto fft on a lost context');
  const ref = await fft(Float64Array.from(x), { shape: [4, 64], backend: 'cpu' });
  assert.ok(relL2(auto, ref) < 1e-6);
  // destroy() after loss is harmless and idempotent.
  plan.destroy();
  plan.destroy();
  nd.destroy();
  tri.destroy();
  ctx.destroy();
  assert.deepEqual(uncaptured, [], 'no uncaptured WebGPU errors');
  // A new context works.
  await fftOk(await acquireGpu(), 2);
});

test('device destroyed while work is in flight: the pending call settles with DeviceError (no hang, no DOMException)', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  for (const delay of [0, 1, 5, 20]) {
    const ctx = await acquireGpu();
    const plan = await createFftPlan({ n: 1024, batch: 256, backend: 'webgpu', gpu: ctx });
    const x = Float32Array.from(gen(delay).f64(2 * 1024 * 256));
    const pending = [plan.execute(x), plan.execute(x), fft(x, { shape: [256, 1024], gpu: ctx, backend: 'webgpu' })];
    setTimeout(() => ctx.device.destroy(), delay);
    const settled = await withTimeout(Promise.allSettled(pending), T, `in-flight calls (destroy after ${delay} ms)`);
    for (const s of settled) {
      if (s.status === 'rejected') {
        assert.ok(
          s.reason instanceof DeviceError,
          `delay ${delay}: ${(s.reason as Error)?.name}: ${(s.reason as Error)?.message}`,
        );
        count('in-flight calls rejected with DeviceError');
      } else count('in-flight calls finished before the loss');
    }
    plan.destroy();
  }
  await fftOk(await acquireGpu(), 3);
});

test('GpuContext.destroy(): plans report DestroyedError; the shared default context is replaced when lost', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const plan = await createFftPlan({ n: 16, backend: 'webgpu', gpu: ctx });
  ctx.destroy();
  ctx.destroy();
  assert.equal(ctx.isDestroyed, true);
  await expectError(
    () => withTimeout(plan.execute(new Float32Array(32)), T, 'execute on destroyed ctx'),
    DestroyedError,
    'destroyed',
  );
  await expectError(() => createFftPlan({ n: 16, backend: 'webgpu', gpu: ctx }), DestroyedError, 'destroyed');
  await expectError(() => createTridiagonalPlan({ n: 16, backend: 'webgpu', gpu: ctx }), DestroyedError, 'destroyed');
  count('destroyed-context calls rejected', 3);

  // The process-wide default: lose it, and the next call gets a new, working context.
  const d1 = await defaultGpuContext();
  d1.device.destroy();
  await waitLost(d1);
  const d2 = await defaultGpuContext();
  assert.notEqual(d2, d1, 'a lost default context is replaced');
  assert.equal(d2.isLost, false);
  await fftOk(d2, 4);
  // Calls without an explicit context use the replacement.
  const y = await withTimeout(
    fft(Float32Array.from(gen(5).f64(64)), { backend: 'webgpu' }),
    T,
    'fft on the replaced default',
  );
  assert.equal(y.length, 64);
});

test('Dawn validation errors surface as DeviceError (error scopes), never as uncaptured errors', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const uncaptured = watchUncaptured(ctx);
  try {
    // Invalid buffer usage (MAP_READ with MAP_WRITE) inside checked().
    await expectError(
      () =>
        ctx.checked('bad buffer', () =>
          ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.MAP_WRITE }),
        ),
      DeviceError,
      /validation/,
    );
    // A buffer larger than maxBufferSize.
    await expectError(
      () =>
        ctx.checked('huge buffer', () =>
          ctx.device.createBuffer({ size: ctx.limits.maxBufferSize + 4096, usage: GPUBufferUsage.STORAGE }),
        ),
      DeviceError,
      /validation|memory/,
    );
    // A plan handed a buffer without STORAGE usage, and a destroyed buffer.
    const plan = await createFftPlan({ n: 32, batch: 2, backend: 'webgpu', gpu: ctx });
    const src = createStorageBuffer(ctx, new Float32Array(128));
    const noStorage = ctx.device.createBuffer({ size: 512, usage: GPUBufferUsage.COPY_DST });
    // (refused before encoding, so no validation error reaches Dawn)
    await expectError(
      () => withTimeout(plan.executeGpu(src, noStorage), T, 'executeGpu bad usage'),
      ArgumentError,
      'dst',
    );
    const dead = createStorageBuffer(ctx, 512);
    dead.destroy();
    await expectError(
      () => withTimeout(plan.executeGpu(dead, createStorageBuffer(ctx, 512)), T, 'executeGpu destroyed src'),
      DeviceError,
      /validation|destroy/,
    );
    // A WGSL compile error is a DeviceError naming the kernel.
    const { getPipeline } = await import('../../src/backends/webgpu/pipelines.js');
    await expectError(
      () =>
        getPipeline(ctx, {
          name: 'broken-kernel',
          key: 'broken-kernel-1',
          wgsl: '@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }',
          entryPoint: 'main',
        }),
      DeviceError,
      'broken-kernel',
    );
    count('validation errors surfaced', 5);
    // After all that the context and the plan still work.
    const y = await plan.execute(new Float32Array(128).fill(1));
    assert.ok(Math.abs(y[0] - 32) < 1e-5);
    plan.destroy();
    assert.deepEqual(uncaptured, [], 'no uncaptured WebGPU errors');
  } finally {
    ctx.destroy();
  }
});
