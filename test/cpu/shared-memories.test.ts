/**
 * Memories shared with worker threads are let go of: workers drop their instances on a plan's engine buffers when the
 * plan is destroyed, and on any shared memory once the calling thread has collected it; engine buffers made again and
 * again on worker threads, then dropped (with destroy() or without), are freed without anyone forcing a collection
 * (V8 counts a shared memory's bytes towards no thread's collector, which ballasts make up for:
 * src/backends/cpu/shared-memories.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFftPlan, createTridiagonalPlan } from '../../src/index.js';
import { sharedMemory, workerHeldInstances } from '../../src/backends/cpu/worker-pool.js';

const shared = sharedMemory();

test('destroy() has the workers drop their instances on the plan’s engine buffers', { skip: !shared }, async () => {
  const fftPlan = await createFftPlan({ n: 4096, batch: 64, backend: 'cpu', threads: 2 });
  const f = fftPlan.createBuffers('f32');
  f.input.fill(1);
  await fftPlan.execute(f.input, f.output);
  const n = 4096,
    batch = 64;
  const triPlan = await createTridiagonalPlan({ n, batch, backend: 'cpu', dtype: 'float64', threads: 2 });
  const t = triPlan.createBuffers();
  t.lower.fill(-1);
  t.upper.fill(-1);
  t.diag.fill(4);
  t.rhs.fill(1);
  const r = await triPlan.solve(t);
  assert.ok(r.ok);
  const before = await workerHeldInstances();
  assert.ok(
    before.reduce((a, b) => a + b, 0) >= 2,
    `the workers ran parts on both plans' buffers: ${before.join(', ')} instances`,
  );
  fftPlan.destroy();
  triPlan.destroy();
  // A release job and this census go down the same lane, in order.
  const after = await workerHeldInstances();
  assert.deepEqual(
    after.map(() => 0),
    after,
    `instances left in the workers after destroy(): ${after.join(', ')}`,
  );
  // The arrays stay usable views where they are held.
  assert.equal(f.output.length, 2 * 4096 * 64);
  assert.ok(Number.isFinite(t.out[0]!));
});

for (const destroy of [false, true]) {
  test(
    `engine buffers made on worker threads again and again, then dropped${destroy ? ' with destroy()' : ''}, are freed`,
    { skip: !shared },
    async (t) => {
      // Without destroy(): 64 MiB sets (2^21 f32 complex in and out), which only collection frees, 3.75 GiB if all
      // were held; with it: 16 MiB sets (workers let go at once, and must collect: small memories alone never made
      // them), 2.4 GiB.
      const [n, batch, rounds] = destroy ? [4096, 256, 150] : [1 << 16, 32, 60];
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      for (let i = 0; i < rounds; i++) {
        const plan = await createFftPlan({ n, batch, backend: 'cpu', threads: 2 });
        const b = plan.createBuffers('f32');
        b.input.fill(1);
        await plan.execute(b.input, b.output);
        assert.equal(b.output[0], n);
        if (destroy) plan.destroy();
        await new Promise((r) => setImmediate(r));
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      const grown = (peak - rss0) / 2 ** 20;
      t.diagnostic(`resident memory grew by ${grown.toFixed(0)} MiB at most`);
      assert.ok(grown < 1024, `resident memory grew by ${grown.toFixed(0)} MiB over ${rounds} sets`);
    },
  );
}
