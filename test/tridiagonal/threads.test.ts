/**
 * Threaded CPU Thomas solves (the `threads` option): worker threads solving parts of each block on a shared
 * kernel memory, pipelined with the calling thread's copies on ordinary arrays. Against threads: 1, bit for bit
 * (x, status, backward errors, ok), in both layouts, float64 and float32 data, engine buffers, odd batches,
 * several blocks and one, bad systems with the 'auto' LU re-solve; a worker's failure surfaces as a WorkerError;
 * the parts of a call never overlap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTridiagonalPlan, TRIDIAGONAL_STATUS, WorkerError } from '../../src/index.js';
import { matIndex, rhsIndex, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';
import { injectWorkerFault } from '../../src/backends/cpu/worker-pool.js';
import { thomasParts, thomasPartsWithOwn } from '../../src/backends/cpu/tridiagonal-kernel.js';
import { ACC_VECTORS, THOMAS_GROUP } from '../../src/codegen/wasm/tridiagonal-thomas.js';
import { randomSystems, toLayout } from './helpers.js';

function same(a: ArrayLike<number>, b: ArrayLike<number>, tag: string): void {
  assert.equal(a.length, b.length, `${tag}: length`);
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) assert.fail(`${tag}: [${k}] ${a[k]} vs ${b[k]}`);
}

function systems(n: number, batch: number, layout: TridiagonalLayout, bad: boolean) {
  const sys = toLayout(randomSystems(n, batch, 7 * n + batch, { dominance: 0.8 }), {
    n,
    batch,
    nrhs: 1,
    layout,
    complex: false,
  });
  if (bad) {
    // A zero pivot, an infinite diagonal entry, a NaN right-hand side: flagged, and re-solved under 'auto'.
    sys.b[matIndex(layout, n, batch, 1, 0)] = 0;
    sys.b[matIndex(layout, n, batch, batch >> 1, n - 1)] = Infinity;
    sys.d[rhsIndex(layout, n, batch, 0, batch - 1, n >> 1)] = NaN;
  }
  return sys;
}

test('threaded tridiagonal solves: bit for bit one thread', async () => {
  const cases: [number, number, TridiagonalLayout][] = [
    [16, 14101, 'interleaved'], // several blocks, pipelined; odd batch
    [64, 1025, 'interleaved'], // one block: every thread solves a part of it
    [2, 40001, 'interleaved'],
    [1024, 257, 'interleaved'], // blocks too large to pipeline: one thread
    [16, 14101, 'strided'],
    [300, 701, 'strided'], // systems placed off multiples of 4 KiB, three blocks
    [16384, 9, 'strided'], // two blocks, the last odd
  ];
  for (const [n, batch, layout] of cases) {
    for (const backend of ['cpu', 'auto'] as const) {
      for (const dtype of ['float64', 'float32'] as const) {
        const tag = `n=${n} batch=${batch} ${layout} ${backend} ${dtype}`;
        const sys = systems(n, batch, layout, true);
        const A = dtype === 'float64' ? Float64Array : Float32Array;
        const data = { lower: A.from(sys.a), diag: A.from(sys.b), upper: A.from(sys.c), rhs: A.from(sys.d) };
        const one = await createTridiagonalPlan({ n, batch, layout, dtype, backend: 'cpu', threads: 1 });
        const two = await createTridiagonalPlan({ n, batch, layout, dtype, backend, threads: 2 });
        const ref = await (
          backend === 'cpu' ? one : await createTridiagonalPlan({ n, batch, layout, dtype, backend, threads: 1 })
        ).solve(data);
        const r = await two.solve(data);
        same(r.x, ref.x, `${tag}: x`);
        same(r.status, ref.status, `${tag}: status`);
        same(r.backwardError!, ref.backwardError!, `${tag}: backward errors`);
        assert.equal(r.ok, ref.ok, `${tag}: ok`);
        if (backend === 'cpu') {
          assert.equal(r.ok, false, `${tag}: the bad systems are flagged`);
          assert.ok(r.status[1]! & TRIDIAGONAL_STATUS.ZERO_PIVOT, `${tag}: the zero pivot`);
          assert.equal(r.status[2], 0, `${tag}: a good system`);
        }
        // Twice on the same plan (the kernel memory is reused), and into `out`.
        const out = new A(n * batch);
        const r2 = await two.solve({ ...data, out });
        assert.equal(r2.x, out);
        same(r2.x, ref.x, `${tag}: x again, into out`);
        one.destroy();
        two.destroy();
      }
    }
  }
});

test('threaded tridiagonal solves: concurrent solves of one plan do not share a kernel memory', async () => {
  for (const layout of ['interleaved', 'strided'] as const) {
    const [n, batch] = [16, 14101];
    const sets = [0, 1, 2].map((k) => {
      const s = systems(n, batch, layout, false);
      for (let i = 0; i < s.d.length; i++) s.d[i] = s.d[i]! * (k + 1) + k;
      return { lower: s.a, diag: s.b, upper: s.c, rhs: s.d };
    });
    const plan = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu', threads: 2 });
    const one = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu', threads: 1 });
    const together = await Promise.all(sets.map((d) => plan.solve(d)));
    for (let k = 0; k < sets.length; k++) {
      const ref = await one.solve(sets[k]!);
      same(together[k]!.x, ref.x, `${layout} solve ${k}: x`);
      same(together[k]!.backwardError!, ref.backwardError!, `${layout} solve ${k}: backward errors`);
    }
    plan.destroy();
    one.destroy();
  }
});

test('threaded tridiagonal solves on engine buffers: bit for bit the ordinary path', async () => {
  for (const [n, batch] of [
    [16, 14101],
    [64, 1025],
    [1000, 70],
  ] as [number, number][]) {
    const layout = 'interleaved';
    const sys = systems(n, batch, layout, false);
    const plan = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu', threads: 2 });
    const buf = plan.createBuffers();
    assert.ok(buf.lower.buffer instanceof SharedArrayBuffer, `n=${n}: buffers on a shared memory`);
    buf.lower.set(sys.a);
    buf.diag.set(sys.b);
    buf.upper.set(sys.c);
    buf.rhs.set(sys.d);
    const r = await plan.solve(buf);
    assert.equal(r.x, buf.out);
    const one = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu', threads: 1 });
    const o = await one.solve({ lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d });
    same(r.x, o.x, `n=${n}: x`);
    same(r.backwardError!, o.backwardError!, `n=${n}: backward errors`);
    same(r.status, o.status, `n=${n}: status`);
    plan.destroy();
    one.destroy();
  }
});

test('threaded tridiagonal solves: a failing worker rejects with a WorkerError, and the next solve works', async () => {
  for (const layout of ['interleaved', 'strided'] as const) {
    const [n, batch] = [16, 14101];
    const sys = systems(n, batch, layout, false);
    const data = { lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d };
    const plan = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu', threads: 2 });
    injectWorkerFault('throw');
    await assert.rejects(plan.solve(data), WorkerError, layout);
    const r = await plan.solve(data);
    assert.equal(r.ok, true, `${layout}: solved after the failure`);
    plan.destroy();
  }
});

test('tridiagonal threads option: validated', async () => {
  for (const threads of [0, 1.5, -1, '2']) {
    await assert.rejects(
      createTridiagonalPlan({ n: 4, batch: 2, backend: 'cpu', threads: threads as number }),
      /threads/,
      String(threads),
    );
  }
});

test('thomasParts: disjoint vectors, scratch and accumulators that cover the call', () => {
  const w = { id: 1, memory: new WebAssembly.Memory({ initial: 1 }), round32: false, L: { cap: 1 << 20 } };
  for (const layout of ['interleaved', 'strided'] as const) {
    for (const [P, n, threads, share] of [
      [1000, 16, 2, undefined],
      [1001, 7, 3, undefined],
      [40, 16, 4, undefined],
      [3, 100, 2, undefined],
      [64, 1000, 8, undefined],
      [1000, 16, 2, 0.3],
      [1001, 7, 3, 0.2],
      [585, 64, 2, 0.01],
      [585, 64, 2, 0.99],
      [40, 16, 4, 0.5],
    ] as [number, number, number, number?][]) {
      const inter = layout === 'interleaved';
      const ps = inter ? 16 : 2 * n * 8;
      const call = [P, n, 8, ps, n * 8, 4096, 512, 96] as const;
      const x = { ...w, layout, check: true };
      let runs = thomasParts(x, [...call], threads);
      if (share !== undefined) {
        // The calling thread's part, last, about `share` of the vectors where that is a part's worth.
        const { workers, own } = thomasPartsWithOwn(x, [...call], threads, w.L.cap * 8, share);
        assert.ok(workers.length >= 1 && workers.length <= threads - (own ? 1 : 0), `${layout} P=${P}: workers`);
        if (own) {
          assert.ok(Math.abs(own.args[0] - share * P) <= 1 || own.args[0] < share * P, `${layout} P=${P}: own share`);
          assert.ok(own.args[0] >= (inter ? 32 : 4), `${layout} P=${P}: own part of a part's least`);
        } else assert.ok(share * P < (inter ? 32 : 4) || P < 2 * (inter ? 32 : 4), `${layout} P=${P}: no own part`);
        runs = own ? [...workers, own] : workers;
      }
      assert.ok(runs.length >= 1 && runs.length <= threads, `${layout} P=${P}: ${runs.length} parts`);
      let v = 0;
      let scratchEnd = 512;
      for (const r of runs) {
        const [Pt, nt, rs, pst, ls, base, sb, qb] = r.args;
        assert.deepEqual([nt, rs, pst, ls], [n, 8, ps, n * 8]);
        assert.equal(base, 4096 + v * ps, 'user data of the next vectors');
        assert.equal(qb, 96 + v * ACC_VECTORS * 16, 'accumulators of the next vectors');
        assert.ok(sb >= scratchEnd, 'scratch after the previous part');
        scratchEnd = sb + (inter ? n * 16 * Pt : n * THOMAS_GROUP * 16);
        v += Pt;
      }
      assert.equal(v, P, 'every vector once');
      assert.ok(scratchEnd - 512 <= w.L.cap * 8, 'scratch within the region');
    }
  }
});
