/**
 * Engine buffers (FftPlan.createBuffers): the kernel transforms them where they lie. Checked against the
 * same plan on ordinary arrays (bit for bit: the same kernel, the same scale) and against the float64
 * reference, for lane-split and lane-batch recipes, read in place and staged, partial lane groups, both precisions, both directions
 * and every norm; the input survives; every other use of the arrays takes the ordinary path and is right.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createFftPlan,
  disposeCpuWorkers,
  ArgumentError,
  DestroyedError,
  WorkerError,
  type FftPlan,
} from '../../src/index.js';
import { injectWorkerFault } from '../../src/backends/cpu/worker-pool.js';
import { forgetEnginePlans, isEngineBuffer } from '../../src/backends/cpu/wasm-fft.js';
import { FOUR_STEP_EARLY_BYTES, FOUR_STEP_LATE_BYTES, setFourStepFromBytes } from '../../src/planner/cpu-features.js';
import {
  planCpuEngineBatchFft,
  planCpuEngineFft,
  stagesEngineBuffers,
  type CpuLaneRecipe,
  type CpuPrecision,
} from '../../src/planner/cpu-fft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';

function fill(a: Float32Array | Float64Array, seed: number): void {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 32 - 0.5;
  }
}

function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0,
    den = 0;
  for (let i = 0; i < b.length; i++) {
    num += (a[i]! - b[i]!) ** 2;
    den += b[i]! ** 2;
  }
  return Math.sqrt(num / (den || 1));
}

function assertSame(a: ArrayLike<number>, b: ArrayLike<number>, tag: string): void {
  assert.equal(a.length, b.length, `${tag}: length`);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${tag}: [${i}] ${a[i]} vs ${b[i]}`);
}

async function plan(n: number, batch: number, precision: CpuPrecision, extra: object = {}): Promise<FftPlan> {
  return createFftPlan({ n, batch, backend: 'cpu', precision, threads: 1, ...extra });
}

test('engine buffers: staged by first-pass stream length, and through an output stage after a generic last pass', () => {
  const staging = (n: number, p: CpuPrecision) => stagesEngineBuffers(planCpuEngineBatchFft(n, p) as CpuLaneRecipe);
  assert.equal(staging(1155, 'f32'), 'both');
  assert.equal(staging(2310, 'f32'), 'both');
  assert.equal(staging(256, 'f32'), 'input'); // 512-byte first-pass streams
  assert.equal(staging(625, 'f32'), 'input'); // lane-batch, radix-5 first pass: 1000-byte streams
  assert.equal(staging(2187, 'f32'), 'none'); // 5832-byte streams
  assert.equal(staging(4096, 'f32'), 'none');
  assert.equal(staging(128, 'f32'), 'none'); // 1 KiB slots: one contiguous run
  assert.equal(staging(2310, 'f64'), 'none');
});

test('engine buffers: bit for bit the ordinary path, and the float64 reference', async () => {
  const cases: [number, number, CpuPrecision][] = [
    [16, 3, 'f32'], // lane-split
    [64, 5, 'f64'],
    [1000, 3, 'f32'],
    [4096, 4, 'f64'],
    [1 << 17, 3, 'f32'], // several passes a lane
    [256, 70, 'f32'], // staged a chunk at a time (2 KiB slots), the last chunk partial
    [128, 5, 'f64'],
    [3, 5, 'f32'], // lane-batch, a partial group of four
    [2187, 3, 'f32'],
    [1155, 9, 'f32'], // a generic last pass: input and output staged
    [2310, 2, 'f32'],
    [27, 3, 'f64'], // lane-batch, a partial group of two
    [35, 7, 'f64'],
    [1025, 5, 'f32'], // a generic pass (41), lane-batch
    [4100, 3, 'f64'], // a generic pass, lane-split
    [41 * 2 ** 15, 1, 'f32'], // a generic pass in a long transform
  ];
  for (const [n, batch, precision] of cases) {
    const kind = planCpuEngineFft(n, precision).kind;
    for (const direction of ['forward', 'inverse'] as const) {
      for (const norm of ['backward', 'ortho', 'forward'] as const) {
        const tag = `n=${n} batch=${batch} ${precision} ${kind} ${direction} ${norm}`;
        const p = await plan(n, batch, precision, { direction, norm });
        const buf = p.createBuffers(precision);
        assert.ok(isEngineBuffer(buf.input) && isEngineBuffer(buf.output), `${tag}: engine buffers`);
        assert.equal(buf.input.length, 2 * n * batch);
        fill(buf.input, n + batch);
        const x = buf.input.slice();
        buf.output.fill(NaN);
        const r = await p.execute(buf.input, buf.output);
        assert.equal(r, buf.output, `${tag}: the result is the output buffer`);
        assertSame(buf.input, x, `${tag}: input kept`);
        assertSame(buf.output, await p.execute(x), `${tag}: ordinary path`);
        const ref = new Float64Array(2 * n * batch);
        planCpuFft(n).execute(Float64Array.from(x), ref, { batch, inverse: direction === 'inverse', norm });
        const bound = (precision === 'f32' ? 1.2e-7 : 2.5e-16) * (4 + 2 * Math.log2(n));
        assert.ok(relErr(buf.output, ref) <= bound, `${tag}: rel L2 ${relErr(buf.output, ref)} > ${bound}`);
        // A second call on the same buffers (the kernel's scratch is its own, never the input).
        fill(buf.input, 3 * n + batch);
        const x2 = buf.input.slice();
        assertSame(await p.execute(buf.input, buf.output), await p.execute(x2), `${tag}: second call`);
      }
    }
  }
});

test('engine buffers: every other use takes the ordinary path', async () => {
  const n = 256,
    batch = 3;
  const p = await plan(n, batch, 'f32');
  const buf = p.createBuffers();
  assert.ok(buf.input instanceof Float32Array);
  fill(buf.input, 1);
  fill(buf.output, 2);
  const a = buf.input.slice(),
    b = buf.output.slice();
  // Swapped roles, and in place on either buffer.
  assertSame(await p.execute(buf.output, buf.input), await p.execute(b), 'swapped');
  assertSame(buf.output, b, 'swapped: input kept');
  buf.input.set(a);
  const want = await p.execute(a);
  assertSame(await p.execute(buf.input, buf.input), want, 'in place');
  // Another plan of the same length and batch uses them too; one of another batch takes the ordinary path.
  buf.input.set(a);
  const q = await plan(n, batch, 'f32', { norm: 'ortho' });
  assertSame(await q.execute(buf.input, buf.output), await q.execute(a), 'other plan, same module');
  const q2 = await plan(n, 2, 'f32');
  assertSame(
    (await q2.execute(buf.input, buf.output)).subarray(0, 4 * n),
    await q2.execute(a.subarray(0, 4 * n)),
    'other batch',
  );
  // Threads: engine buffers run on the calling thread, and right.
  const t = await createFftPlan({ n, batch, backend: 'cpu', precision: 'f32', threads: 2 });
  buf.input.set(a);
  assertSame(await t.execute(buf.input, buf.output), want, 'threads 2');
  // An ordinary output array with an engine input.
  assertSame(await p.execute(buf.input, new Float32Array(2 * n * batch)), want, 'ordinary output');
});

test('engine buffers: lengths and layouts without the direct path get ordinary arrays', async () => {
  for (const [n, extra] of [
    [1009, {}], // Bluestein
    [1, {}], // trivial
    [64, { input: { stride: 2 } }],
    [64, { output: { offset: 4 } }],
  ] as const) {
    const p = await plan(n, 3, 'f64', extra);
    const buf = p.createBuffers();
    assert.ok(buf.input instanceof Float64Array && !isEngineBuffer(buf.input), `n=${n} ${JSON.stringify(extra)}`);
    fill(buf.input, n);
    const x = buf.input.slice();
    assertSame(await p.execute(buf.input, buf.output), await p.execute(x), `n=${n}: ordinary path`);
  }
});

test('engine buffers: bad precision and destroyed plans are refused', async () => {
  const p = await plan(64, 3, 'f32');
  assert.throws(() => p.createBuffers('f64'), ArgumentError);
  assert.throws(() => p.createBuffers('f16' as CpuPrecision), ArgumentError);
  const free = await createFftPlan({ n: 64, batch: 3, backend: 'cpu' });
  assert.ok(free.createBuffers('f64').input instanceof Float64Array);
  assert.ok(free.createBuffers().input instanceof Float32Array);
  p.destroy();
  assert.throws(() => p.createBuffers(), DestroyedError);
});

test('engine buffers with threads: shared memory, every thread its slots in place, bit for bit one thread', async () => {
  const cases: [number, number, CpuPrecision][] = [
    [64, 2048, 'f32'],
    [256, 1030, 'f32'], // staged, each thread its own stage
    [27, 5001, 'f64'], // lane-batch: a partial group at the end of the last share
    [4096, 33, 'f64'],
  ];
  for (const [n, batch, precision] of cases) {
    for (const direction of ['forward', 'inverse'] as const) {
      const tag = `n=${n} batch=${batch} ${precision} ${direction}`;
      const p = await createFftPlan({ n, batch, backend: 'cpu', precision, threads: 3, direction, norm: 'ortho' });
      const one = await plan(n, batch, precision, { direction, norm: 'ortho' });
      const buf = p.createBuffers();
      assert.ok(buf.input.buffer instanceof SharedArrayBuffer && isEngineBuffer(buf.input), `${tag}: shared`);
      fill(buf.input, n * batch);
      const x = buf.input.slice();
      buf.output.fill(NaN);
      await p.execute(buf.input, buf.output);
      assertSame(buf.input, x, `${tag}: input kept`);
      assertSame(buf.output, await one.execute(x), `${tag}: one thread`);
    }
  }
  // A worker's failure rejects the call with a WorkerError; the next call is right again.
  const n = 1024,
    batch = 256;
  const p = await createFftPlan({ n, batch, backend: 'cpu', precision: 'f32', threads: 2 });
  const buf = p.createBuffers();
  fill(buf.input, 5);
  const want = (await p.execute(buf.input, buf.output)).slice();
  injectWorkerFault('throw');
  await assert.rejects(p.execute(buf.input, buf.output), WorkerError);
  buf.output.fill(0);
  assertSame(await p.execute(buf.input, buf.output), want, 'after a worker failure');
  await disposeCpuWorkers();
});

test("engine buffers with threads between the four-step bounds: workers plan the calling thread's recipe", async () => {
  // 196608 f32 points (1.5 MiB): lane passes under the late bound, the four-step under the early one. A worker plans
  // the length again for its slots; a recipe other than the calling thread's would be refused by the buffers' key.
  const n = 196608,
    batch = 4;
  const x = new Float32Array(2 * n * batch);
  fill(x, 11);
  const ref = new Float64Array(2 * n * batch);
  planCpuFft(n).execute(Float64Array.from(x), ref, { batch });
  const results: Float32Array[] = [];
  for (const [bytes, kind] of [
    [FOUR_STEP_LATE_BYTES, 'lane-split'],
    [FOUR_STEP_EARLY_BYTES, 'four-step'],
  ] as const) {
    setFourStepFromBytes(bytes);
    forgetEnginePlans();
    assert.equal(planCpuEngineFft(n, 'f32').kind, kind);
    const p = await createFftPlan({ n, batch, backend: 'cpu', precision: 'f32', threads: 2 });
    const buf = p.createBuffers();
    buf.input.set(x);
    const got = (await p.execute(buf.input, buf.output)) as Float32Array;
    assertSame(got, await (await plan(n, batch, 'f32')).execute(x), `${kind}: one thread`);
    assert.ok(relErr(got, ref) < 1e-6, `${kind}: reference ${relErr(got, ref)}`);
    results.push(got.slice());
  }
  assert.ok(relErr(results[0]!, results[1]!) < 1e-6);
  await disposeCpuWorkers();
});
