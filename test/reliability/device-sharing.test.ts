/**
 * One device shared between the library and the caller: plans refuse buffers and encoders of another
 * device before encoding anything, WebGPU errors in work the caller submits surface as DeviceError at the
 * library's next call, and problems or results larger than one typed array are refused up front with a
 * named error (never a RangeError half-way).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ArgumentError,
  DeviceError,
  DeviceLimitError,
  acquireGpu,
  createFftPlan,
  createFftNdPlan,
  createEdmPlan,
  createStorageBuffer,
  fftProblem,
  readBuffer,
} from '../../src/index.js';
import { fftn as cpuFftn } from '../../src/backends/cpu/fft-nd.js';
import { PlanChain } from '../../src/backends/webgpu/plan-chain.js';
import { planFftNd } from '../../src/planner/fft-nd.js';
import { resolveEdm } from '../../src/apps/edm/edm.js';
import { testGpu } from '../helpers/gpu.js';
import { count, expectError, gen, printCounts, relL2 } from './helpers.js';

after(() => printCounts('device-sharing'));

test('sizes beyond one typed array: ArgumentError naming n, batch or shape, before any allocation', async () => {
  for (const backend of ['cpu', 'auto'] as const) {
    await expectError(() => createFftPlan({ n: 2 ** 40, backend }), ArgumentError, 'n', `n = 2^40 (${backend})`);
    await expectError(
      () => createFftPlan({ n: 2 ** 31 + 2, backend }),
      ArgumentError,
      'n',
      `n = 2^31 + 2 (${backend})`,
    );
    await expectError(
      () => createFftPlan({ n: 2 ** 20, batch: 2 ** 40, backend }),
      ArgumentError,
      'n, batch',
      `batch 2^40 (${backend})`,
    );
    await expectError(
      () => createFftPlan({ n: 2 ** 16, batch: 2 ** 16, backend }),
      ArgumentError,
      'n, batch',
      `2^16 × 2^16 (${backend})`,
    );
    count('rejections checked', 4);
  }
  // Layouts whose span alone is too long, with small n and batch.
  assert.throws(() => fftProblem({ n: 4, batch: 2, input: { dist: 2 ** 40 } }), ArgumentError);
  assert.throws(() => fftProblem({ n: 8, output: { stride: 2 ** 33 } }), ArgumentError);
  // The largest problem that fits is accepted (validation only, nothing allocated).
  assert.equal(fftProblem({ n: 2 ** 31 }).n, 2 ** 31);
  assert.equal(fftProblem({ n: 2 ** 15, batch: 2 ** 16 }).batch, 2 ** 16);
  for (const shape of [
    [2 ** 20, 2 ** 20],
    [2 ** 53, 2],
    [65536, 65536],
    [4096, 4096, 4096],
  ]) {
    assert.throws(
      () => planFftNd({ shape }),
      (e: unknown) => e instanceof ArgumentError && e.argument === 'shape',
      `shape [${shape}]`,
    );
    count('rejections checked');
  }
  // 8 GiB of complex64 plans (a GPU can hold it) but cannot be read back into one host array.
  assert.equal(planFftNd({ shape: [262144, 4096] }).steps.length, 2);
});

test('a result larger than one host array is refused by run() before anything is uploaded', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  // The chain of an fftn of shape [262144, 4096] (8 GiB of complex64): its steps are stand-ins that
  // record whether anything was encoded; only the sizes matter to run().
  let encoded = 0;
  const step = {
    plan: { encode: () => void encoded++, destroy: () => {} },
    inBytes: 8 * 262144 * 4096,
    outBytes: 8 * 262144 * 4096,
  };
  const chain = new PlanChain(gpu, [step, { ...step }], 'fftn');
  const e = await expectError(
    () => chain.run(new Float32Array(4), 'shape [262144, 4096], complex, interleaved'),
    DeviceLimitError,
    /262144, 4096/,
  );
  assert.match(e.message, /8589934592/);
  assert.equal(encoded, 0);
  chain.destroy();
  // The 1-D plans check the same before looking at their input.
  await expectError(
    () => readBuffer(gpu, createStorageBuffer(gpu, 16), 0, 2 ** 32 + 16),
    DeviceLimitError,
    /host array/,
  );
  count('rejections checked', 2);
});

test('plans reject encoders and buffers of another device with ArgumentError, before encoding', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const other = await acquireGpu();
  const g = gen(2501);
  const shape = [8, 12];
  const x = Float32Array.from(g.f64(2 * 96));
  const plan = await createFftPlan({ n: 12, batch: 8, backend: 'webgpu', gpu });
  const nd = await createFftNdPlan({ shape, gpu });
  const edm = await createEdmPlan(resolveEdm({ M: 3, mfft: 8, shapes: 2, components: 1 }), { gpu });
  const src = createStorageBuffer(gpu, x);
  const dst = createStorageBuffer(gpu, x.byteLength);
  const foreign = createStorageBuffer(other, x.byteLength);
  const foreignEnc = other.device.createCommandEncoder();
  try {
    for (const [name, encode] of [
      ['1-D plan', (e: GPUCommandEncoder, s: GPUBuffer, d: GPUBuffer) => plan.encode(e, s, d)],
      ['N-D plan', (e: GPUCommandEncoder, s: GPUBuffer, d: GPUBuffer) => nd.encode(e, s, d)],
    ] as const) {
      await expectError(
        () => encode(foreignEnc, src, dst),
        ArgumentError,
        'encoder',
        `${name}: encoder of another device`,
      );
      await expectError(
        () => encode(gpu.device.createCommandEncoder(), foreign, dst),
        ArgumentError,
        'src',
        `${name}: src of another device`,
      );
      await expectError(
        () => encode(gpu.device.createCommandEncoder(), src, foreign),
        ArgumentError,
        'dst',
        `${name}: dst of another device`,
      );
      const noStorage = gpu.device.createBuffer({ size: x.byteLength, usage: GPUBufferUsage.COPY_DST });
      await expectError(
        () => encode(gpu.device.createCommandEncoder(), src, noStorage),
        ArgumentError,
        'dst',
        `${name}: dst without STORAGE`,
      );
      await expectError(
        () => encode(gpu.device.createCommandEncoder(), src, createStorageBuffer(gpu, 64)),
        ArgumentError,
        'dst',
        `${name}: dst too small`,
      );
      noStorage.destroy();
      count('rejections checked', 5);
    }
    await expectError(() => plan.executeGpu(foreign, dst), ArgumentError, 'src', 'executeGpu: src of another device');
    const eb = createStorageBuffer(gpu, 8 * 2 * 9);
    const sb = createStorageBuffer(gpu, 8 * 2 * 64);
    await expectError(
      () => edm.encode(foreignEnc, eb, sb, createStorageBuffer(gpu, 8 * 2 * 9)),
      ArgumentError,
      'encoder',
      'EDM: encoder of another device',
    );
    await expectError(
      () =>
        edm.encode(
          gpu.device.createCommandEncoder(),
          eb,
          createStorageBuffer(other, 8 * 2 * 64),
          createStorageBuffer(gpu, 8 * 2 * 9),
        ),
      ArgumentError,
      'shapes',
      'EDM: shapes of another device',
    );
    count('rejections checked', 3);

    // The supported way: the plan's context for encoders and buffers, including buffers the caller makes
    // with ctx.device.createBuffer directly. The result matches the float64 reference.
    const own = gpu.device.createBuffer({
      size: x.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const enc = gpu.device.createCommandEncoder();
    nd.encode(enc, src, own);
    gpu.device.queue.submit([enc.finish()]);
    const y = new Float32Array(await readBuffer(gpu, own, 0, x.byteLength));
    const ref = cpuFftn(Float64Array.from(x), shape).data;
    assert.ok(relL2(y, ref) < 1e-5, `shared-device fftn: ${relL2(y, ref)}`);
    own.destroy();
  } finally {
    for (const b of [src, dst, foreign]) b.destroy();
    plan.destroy();
    nd.destroy();
    edm.destroy();
    other.destroy();
  }
});

test('an error in work the caller submits surfaces as DeviceError at the next call, once', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const g = gen(2502);
  const x = Float32Array.from(g.f64(2 * 64));
  const nd = await createFftNdPlan({ shape: [4, 16], gpu });
  const src = createStorageBuffer(gpu, x);
  const dst = createStorageBuffer(gpu, x.byteLength);
  try {
    // Recorded by the plan, then the destination is destroyed before the caller submits: Dawn's
    // validation error reaches no scope of the library.
    const gone = createStorageBuffer(gpu, x.byteLength);
    const enc = gpu.device.createCommandEncoder();
    nd.encode(enc, src, gone);
    gone.destroy();
    gpu.device.queue.submit([enc.finish()]);
    await gpu.device.queue.onSubmittedWorkDone();
    await expectError(() => nd.execute(src, dst), DeviceError, /destroyed/i, 'next call after a failed submit');
    // Reported once: the context goes on working, and the result is right.
    await nd.execute(src, dst);
    const y = new Float32Array(await readBuffer(gpu, dst, 0, x.byteLength));
    assert.ok(relL2(y, cpuFftn(Float64Array.from(x), [4, 16]).data) < 1e-5);
    count('rejections checked');
  } finally {
    src.destroy();
    dst.destroy();
    nd.destroy();
  }
});
