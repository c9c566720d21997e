/**
 * Resource hygiene under load: thousands of plans created and destroyed, many concurrent executes on one
 * device. GPU memory is measured by counting the live buffers (and their bytes) the device hands out —
 * WebGPU has no memory query, but every byte the library holds on the device is a GPUBuffer — and host
 * memory by process.memoryUsage() after a forced GC. Every result is checked against float64.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  acquireGpu,
  createFftPlan,
  fft,
  rfft,
  fftn,
  createTridiagonalPlan,
  convolve,
  WebGpuFftNd,
  WebGpuFft,
  GpuContext,
  fftProblem,
  type FftPlan,
} from '../../src/index.js';
import { pipelineCacheSize } from '../../src/backends/webgpu/pipelines.js';
import { testGpu } from '../helpers/gpu.js';
import { count, f32Bound, gen, printCounts, relL2, withTimeout } from './helpers.js';

after(() => printCounts('stress'));

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
function heapMiB(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external + m.arrayBuffers) / 2 ** 20;
}

/** Counts live GPUBuffers (and bytes) of a device by wrapping createBuffer / destroy. */
function trackBuffers(ctx: GpuContext): { live: () => number; bytes: () => number; created: () => number } {
  const d = ctx.device;
  const create = d.createBuffer.bind(d);
  let live = 0;
  let bytes = 0;
  let created = 0;
  d.createBuffer = (desc: GPUBufferDescriptor): GPUBuffer => {
    const b = create(desc);
    live++;
    created++;
    bytes += desc.size;
    const destroy = b.destroy.bind(b);
    let gone = false;
    Object.defineProperty(b, 'destroy', {
      value: () => {
        if (!gone) {
          gone = true;
          live--;
          bytes -= desc.size;
        }
        destroy();
      },
    });
    return b;
  };
  return { live: () => live, bytes: () => bytes, created: () => created };
}

const TIME_BUDGET_MS = 25_000;

test('thousands of FFT / N-D / tridiagonal plans created and destroyed: GPU buffers return to zero, host memory bounded', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const track = trackBuffers(ctx);
  const g = gen(11);
  const sizes = [2, 4, 8, 16, 32, 64, 12, 100];
  const t0 = performance.now();
  let plans = 0;
  let executed = 0;
  let heap0 = 0;
  const heaps: number[] = [];
  try {
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 300; i++) {
        const n = sizes[i % sizes.length];
        const batch = 1 + (i % 5);
        const plan = await createFftPlan({
          n,
          batch,
          backend: 'webgpu',
          gpu: ctx,
          direction: i % 2 ? 'inverse' : 'forward',
          norm: (['backward', 'ortho', 'forward'] as const)[i % 3],
        });
        plans++;
        if (i % 25 === 0) {
          const x = Float32Array.from(g.f64(2 * n * batch));
          const y = await plan.execute(x);
          const ref = await (await createFftPlan({ ...plan.problem, backend: 'cpu' })).execute(Float64Array.from(x));
          assert.ok(relL2(y, ref) < f32Bound(n), `n=${n}: ${relL2(y, ref)}`);
          executed++;
        }
        plan.destroy();
      }
      // N-D and tridiagonal plans in the same device.
      for (let i = 0; i < 20; i++) {
        const nd = await WebGpuFftNd.create(ctx, { shape: [4, 2 + (i % 6), 8], kind: i % 2 ? 'r2c' : 'c2c' });
        nd.destroy();
        const tri = await createTridiagonalPlan({ n: 8 << i % 4, batch: 1 + (i % 3), backend: 'webgpu', gpu: ctx });
        tri.destroy();
        plans += 2;
      }
      assert.equal(
        track.live(),
        0,
        `round ${round}: ${track.live()} GPU buffers (${track.bytes()} bytes) still alive after destroy()`,
      );
      const h = heapMiB();
      if (round === 1) heap0 = h;
      heaps.push(h);
      if (performance.now() - t0 > TIME_BUDGET_MS) break;
    }
  } finally {
    ctx.destroy();
  }
  const growth = heaps[heaps.length - 1] - heap0;
  console.log(
    `  ${plans} plans created and destroyed (${executed} executed and checked), ${track.created()} GPU buffers created, 0 alive; ` +
      `pipelines cached ${pipelineCacheSize(ctx)}; host memory ${heaps.map((h) => h.toFixed(1)).join(' → ')} MiB; ${Math.round(performance.now() - t0)} ms`,
  );
  count('plans created and destroyed', plans);
  // Host memory: flat after the warm-up round (compiled pipelines and caches), not growing with plans.
  assert.ok(growth < 16, `host memory grew by ${growth.toFixed(1)} MiB over ${plans} plans`);
  // The pipeline cache is keyed by what changes the code: bounded by the distinct kernels, not the plans.
  assert.ok(pipelineCacheSize(ctx) < 200, `pipelines cached: ${pipelineCacheSize(ctx)}`);
});

test('one-shot calls (fft, rfft, fftn, solve, convolve) leave no GPU buffers behind, also when they throw', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const track = trackBuffers(ctx);
  const g = gen(12);
  let calls = 0;
  try {
    for (let i = 0; i < 60; i++) {
      const x = Float32Array.from(g.f64(2 * 48));
      await fft(x, { gpu: ctx, backend: 'webgpu' });
      await rfft(Float32Array.from(g.f64(64)), { gpu: ctx, backend: 'webgpu' });
      await fftn(x, { shape: [6, 8], gpu: ctx, backend: 'webgpu' });
      const tri = await createTridiagonalPlan({ n: 16, batch: 3, backend: 'webgpu', gpu: ctx });
      await tri.solve({
        lower: new Float32Array(48).fill(-1),
        diag: new Float32Array(48).fill(3),
        upper: new Float32Array(48).fill(-1),
        rhs: Float32Array.from(g.f64(48)),
      });
      tri.destroy();
      await convolve(Float32Array.from(g.f64(40)), Float32Array.from(g.f64(7)), {
        gpu: ctx,
        backend: 'webgpu',
        method: i % 2 ? 'fft' : 'direct',
      });
      // Failing calls: argument errors after planning, and a run-time validation error.
      const plan = await createFftPlan({ n: 16, backend: 'webgpu', gpu: ctx });
      await plan.execute(new Float32Array(8)).catch(() => undefined);
      await plan
        .executeGpu(
          ctx.device.createBuffer({ size: 8, usage: GPUBufferUsage.STORAGE }),
          ctx.device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE }),
        )
        .catch(() => undefined);
      plan.destroy();
      calls += 8;
    }
  } finally {
    // The two raw buffers of the failing executeGpu calls are the test's own (2 per iteration).
    const own = 2 * 60;
    console.log(
      `  ${calls} one-shot calls; GPU buffers alive afterwards: ${track.live() - own} (created ${track.created()})`,
    );
    assert.equal(track.live() - own, 0, 'GPU buffers leaked by one-shot calls');
    ctx.destroy();
  }
  count('one-shot calls', calls);
});

test('many concurrent executes on one device return correct, independent results', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const g = gen(13);
  const ns = [16, 64, 256, 1000, 1024];
  const plans: FftPlan[] = [];
  for (const n of ns) {
    plans.push(await createFftPlan({ n, batch: 3, backend: 'webgpu', gpu: ctx }));
    plans.push(await createFftPlan({ n, batch: 3, backend: 'webgpu', gpu: ctx, direction: 'inverse', norm: 'ortho' }));
  }
  const cpu = new Map<FftPlan, FftPlan>();
  for (const p of plans) cpu.set(p, await createFftPlan({ ...p.problem, backend: 'cpu' }));
  const t0 = performance.now();
  let total = 0;
  let worst = 0;
  for (let wave = 0; wave < 6; wave++) {
    const jobs = Array.from({ length: 100 }, (_, i) => {
      const p = plans[(i * 7 + wave) % plans.length];
      const x = Float32Array.from(g.f64(2 * p.problem.n * p.problem.batch));
      return { p, x, y: p.execute(x) };
    });
    // Mixed in: one-shot calls of other kinds on the same device.
    const extra = [
      rfft(Float32Array.from(g.f64(128)), { gpu: ctx, backend: 'webgpu' }),
      fftn(Float32Array.from(g.f64(2 * 64)), { shape: [8, 8], gpu: ctx, backend: 'webgpu' }),
    ];
    const ys = await withTimeout(Promise.all(jobs.map((j) => j.y)), 60_000, `wave ${wave} of 100 concurrent executes`);
    await withTimeout(Promise.all(extra), 60_000, 'concurrent one-shot calls');
    for (const [i, j] of jobs.entries()) {
      const ref = await cpu.get(j.p)!.execute(Float64Array.from(j.x));
      const err = relL2(ys[i], ref);
      worst = Math.max(worst, err);
      assert.ok(err < f32Bound(j.p.problem.n), `wave ${wave} job ${i} n=${j.p.problem.n}: ${err}`);
    }
    total += jobs.length + extra.length;
  }
  for (const p of plans) p.destroy();
  console.log(
    `  ${total} concurrent executes in waves of 102 on one device, worst relative error ${worst.toExponential(2)}, ${Math.round(performance.now() - t0)} ms`,
  );
  count('concurrent executes', total);
});

/** A context on the same device whose `limits` report less than the device allows. */
function lowered(ctx: GpuContext, over: Partial<GpuContext['limits']>): GpuContext {
  const c = new GpuContext(ctx.device, ctx.adapter, false);
  Object.defineProperty(c, 'limits', { value: Object.freeze({ ...ctx.limits, ...over }) });
  return c;
}

async function leakAfter(ctx: GpuContext, fn: () => Promise<unknown>): Promise<number> {
  const track = trackBuffers(ctx);
  await fn().catch(() => undefined);
  return track.live();
}

test('a WebGPU FFT plan whose creation fails on a device limit releases what it allocated', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  try {
    // One problem larger than a binding (fails in the first pass's chunk planning), a dispatch too large for
    // a 2-D grid, and the public 'auto' fallback to the CPU after such a failure.
    const cases: [string, () => Promise<unknown>][] = [
      [
        'binding',
        () =>
          WebGpuFft.create(ctx, fftProblem({ n: 1024 }), {
            tuning: { splitLimits: { maxStorageBufferBindingSize: 4096 } },
          }),
      ],
      [
        'grid',
        () =>
          WebGpuFft.create(ctx, fftProblem({ n: 16, batch: 4000 }), {
            tuning: { splitLimits: { maxComputeWorkgroupsPerDimension: 3 } },
          }),
      ],
      [
        'multi-pass grid',
        () =>
          WebGpuFft.create(ctx, fftProblem({ n: 16384, batch: 40 }), {
            tuning: { splitLimits: { maxComputeWorkgroupsPerDimension: 3 } },
          }),
      ],
      [
        'auto fallback',
        () =>
          createFftPlan({ n: 1024, gpu: lowered(ctx, { maxStorageBufferBindingSize: 2048 }) }).then((p) => p.destroy()),
      ],
    ];
    const leaks: string[] = [];
    for (const [label, fn] of cases) {
      const live = await leakAfter(ctx, fn);
      if (live) leaks.push(`${label}: ${live}`);
    }
    console.log(
      `  failed FFT plan creations: ${leaks.length ? leaks.join(', ') + ' GPU buffers leaked' : 'no GPU buffers leaked'}`,
    );
    assert.deepEqual(leaks, [], 'a failed plan creation released every buffer it made');
  } finally {
    ctx.destroy();
  }
});

test('a failed GPU convolution plan releases its buffers before the CPU fallback', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  try {
    // The spectra plan fits, the batched convolution's dispatch does not → CPU fallback.
    const low = lowered(ctx, { maxComputeWorkgroupsPerDimension: 3 });
    const g = gen(14);
    const a = { data: Float32Array.from(g.f64(400 * 30)), shape: [400, 30] };
    const b = { data: Float32Array.from(g.f64(5)), shape: [1, 5] };
    let backend = '';
    const live = await leakAfter(
      ctx,
      async () => (backend = (await convolve(a, b, { gpu: low, method: 'fft', axes: [1] })).backend),
    );
    assert.equal(backend, 'cpu');
    assert.equal(live, 0, `${live} GPU buffer(s) leaked by the failed GPU convolution plan`);
  } finally {
    ctx.destroy();
  }
});
