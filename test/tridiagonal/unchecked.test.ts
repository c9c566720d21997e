/**
 * checkResidual: false on the CPU: real Thomas solves run a kernel without the fused residuals. The same x bit for
 * bit as the checked kernel, the same status bits but INACCURATE (zero pivots, non-finite x, dominance), no backward
 * errors; in both layouts, float64 and float32 data, one thread and two, on ordinary arrays and engine buffers; and a
 * checked plan given an unchecked plan's buffers still gets its backward errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTridiagonalPlan, TRIDIAGONAL_STATUS } from '../../src/index.js';
import { matIndex, rhsIndex, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';
import { randomSystems, toLayout } from './helpers.js';

function same(a: ArrayLike<number>, b: ArrayLike<number>, tag: string): void {
  assert.equal(a.length, b.length, `${tag}: length`);
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) assert.fail(`${tag}: [${k}] ${a[k]} vs ${b[k]}`);
}

function systems(n: number, batch: number, layout: TridiagonalLayout) {
  const sys = toLayout(randomSystems(n, batch, 3 * n + batch, { dominance: 0.8 }), {
    n,
    batch,
    nrhs: 1,
    layout,
    complex: false,
  });
  // A zero pivot, an infinite diagonal entry, a NaN right-hand side.
  sys.b[matIndex(layout, n, batch, 1, 0)] = 0;
  sys.b[matIndex(layout, n, batch, batch >> 1, n - 1)] = Infinity;
  sys.d[rhsIndex(layout, n, batch, 0, batch - 1, n >> 1)] = NaN;
  return sys;
}

const NOT_INACCURATE = ~TRIDIAGONAL_STATUS.INACCURATE;

test('checkResidual: false: the checked kernel’s x and status bits, no backward errors', async () => {
  const cases: [number, number, TridiagonalLayout][] = [
    [16, 14101, 'interleaved'],
    [64, 1025, 'interleaved'],
    [2, 3001, 'interleaved'],
    [300, 701, 'strided'],
    [16384, 9, 'strided'],
    [5, 7, 'strided'],
  ];
  for (const [n, batch, layout] of cases) {
    for (const dtype of ['float64', 'float32'] as const) {
      for (const threads of [1, 2]) {
        const tag = `n=${n} batch=${batch} ${layout} ${dtype} threads=${threads}`;
        const sys = systems(n, batch, layout);
        const A = dtype === 'float64' ? Float64Array : Float32Array;
        const data = { lower: A.from(sys.a), diag: A.from(sys.b), upper: A.from(sys.c), rhs: A.from(sys.d) };
        const opts = { n, batch, layout, dtype, backend: 'cpu', threads } as const;
        const checked = await createTridiagonalPlan(opts);
        const unchecked = await createTridiagonalPlan({ ...opts, checkResidual: false });
        const ref = await checked.solve(data);
        const r = await unchecked.solve(data);
        same(r.x, ref.x, `${tag}: x`);
        same(
          r.status.map((s) => s & NOT_INACCURATE),
          ref.status.map((s) => s & NOT_INACCURATE),
          `${tag}: status`,
        );
        assert.equal(r.backwardError, undefined, `${tag}: no backward errors`);
        assert.ok(r.status[1]! & TRIDIAGONAL_STATUS.ZERO_PIVOT, `${tag}: the zero pivot`);
        assert.equal(r.ok, false, `${tag}: the broken systems`);
        checked.destroy();
        unchecked.destroy();
      }
    }
  }
});

test('checkResidual: false on engine buffers, and those buffers in a checked plan', async () => {
  for (const [n, batch, threads] of [
    [16, 14101, 2],
    [64, 1025, 1],
    [1000, 70, 2],
  ] as [number, number, number][]) {
    const layout = 'interleaved';
    const sys = systems(n, batch, layout);
    const opts = { n, batch, layout, dtype: 'float64', backend: 'cpu', threads } as const;
    const unchecked = await createTridiagonalPlan({ ...opts, checkResidual: false });
    const checked = await createTridiagonalPlan(opts);
    const buf = unchecked.createBuffers();
    buf.lower.set(sys.a);
    buf.diag.set(sys.b);
    buf.upper.set(sys.c);
    buf.rhs.set(sys.d);
    const ref = await checked.solve({ lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d });
    const r = await unchecked.solve(buf);
    assert.equal(r.x, buf.out);
    same(r.x, ref.x, `n=${n}: x`);
    assert.equal(r.backwardError, undefined);
    same(
      r.status.map((s) => s & NOT_INACCURATE),
      ref.status.map((s) => s & NOT_INACCURATE),
      `n=${n}: status`,
    );
    // A checked plan given the unchecked plan's buffers copies them through a checked kernel.
    const again = await checked.solve(buf);
    same(again.x, ref.x, `n=${n}: x, checked`);
    same(again.backwardError!, ref.backwardError!, `n=${n}: backward errors, checked`);
    same(again.status, ref.status, `n=${n}: status, checked`);
    unchecked.destroy();
    checked.destroy();
  }
});
