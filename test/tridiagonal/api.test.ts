import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createTridiagonalPlan, solveTridiagonal, TRIDIAGONAL_STATUS as S } from '../../src/api/tridiagonal.js';
import { cyclicResidual } from '../../src/backends/cpu/cyclic-tridiagonal.js';
import { checkAgainstThomas, complexField, randomSystems, realField, toLayout, type Shape } from './helpers.js';
import { ArgumentError, DestroyedError, UnsupportedError } from '../../src/errors.js';
import { matIndex, rhsIndex } from '../../src/planner/tridiagonal.js';

test('CPU backend float64: every algorithm, both layouts, several right-hand sides, complex', async () => {
  for (const complex of [false, true]) {
    for (const layout of ['strided', 'interleaved'] as const) {
      for (const cpuAlgorithm of ['thomas', 'wang-mou', 'lu'] as const) {
        const sh: Shape = { n: 37, batch: 4, nrhs: 3, layout, complex };
        const sys = toLayout(randomSystems(sh.n, sh.batch, 5, { complex, rhsCount: sh.nrhs }), sh);
        const r = await solveTridiagonal({
          ...sh,
          dtype: 'float64',
          backend: 'cpu',
          cpuAlgorithm,
          lower: sys.a,
          diag: sys.b,
          upper: sys.c,
          rhs: sys.d,
        });
        assert.ok(r.x instanceof Float64Array);
        const { err, res } = checkAgainstThomas(sys, r.x, sh, false);
        assert.ok(err < 1e-13 && res < 1e-14, `${cpuAlgorithm} ${layout} complex=${complex}: ${err} ${res}`);
        assert.ok(r.ok);
      }
    }
  }
});

test('CPU backend float32 rounds like the GPU and stays within 1e-5', async () => {
  const sh: Shape = { n: 500, batch: 3, nrhs: 1, layout: 'strided', complex: false };
  const sys = randomSystems(sh.n, sh.batch, 8);
  const r = await solveTridiagonal({
    ...sh,
    dtype: 'float32',
    backend: 'cpu',
    cpuAlgorithm: 'wang-mou',
    lower: sys.a,
    diag: sys.b,
    upper: sys.c,
    rhs: sys.d,
  });
  assert.ok(r.x instanceof Float32Array);
  assert.ok(checkAgainstThomas(sys, r.x, sh, true).err < 1e-5);
});

function cyclicCheck(
  sh: Shape,
  s: { a: Float64Array; b: Float64Array; c: Float64Array; d: Float64Array },
  x: ArrayLike<number>,
  bound: number,
) {
  const F = (sh.complex ? complexField() : realField()) as ReturnType<typeof realField>;
  const w = sh.complex ? 2 : 1;
  for (let j = 0; j < sh.batch; j++) {
    for (let r = 0; r < sh.nrhs; r++) {
      const g = (arr: ArrayLike<number>, idx: (i: number) => number) => {
        const o = new Float64Array(sh.n * w);
        for (let i = 0; i < sh.n; i++) for (let q = 0; q < w; q++) o[i * w + q] = arr[idx(i) * w + q];
        return o;
      };
      const m = (i: number) => matIndex(sh.layout, sh.n, sh.batch, j, i);
      const v = (i: number) => rhsIndex(sh.layout, sh.n, sh.batch, r, j, i);
      const res = cyclicResidual(F, g(s.a, m), g(s.b, m), g(s.c, m), g(s.d, v), g(x, v), sh.n);
      assert.ok(res < bound, `cyclic n=${sh.n} j=${j} r=${r}: residual ${res}`);
    }
  }
}

test('cyclic systems (Sherman–Morrison) on the CPU: real and complex, N = 1 … 40 and 1000', async () => {
  for (const complex of [false, true]) {
    for (const n of [...Array.from({ length: 40 }, (_, i) => i + 1), 1000]) {
      const sh: Shape = { n, batch: 3, nrhs: 2, layout: n % 2 ? 'strided' : 'interleaved', complex };
      const s = toLayout(randomSystems(n, 3, 100 + n, { complex, rhsCount: 2, dominance: 1.5 }), sh);
      const r = await solveTridiagonal({
        ...sh,
        cyclic: true,
        dtype: 'float64',
        backend: 'cpu',
        lower: s.a,
        diag: s.b,
        upper: s.c,
        rhs: s.d,
      });
      cyclicCheck(sh, s, r.x, 1e-13);
      // The backward-error check takes the same matrix (n = 1: both corners are the one entry, A = [a + b + c]).
      assert.ok(r.ok && r.status.every((v) => v === 0), `cyclic n=${n}: status [${r.status}]`);
    }
  }
});

test('cyclic systems on WebGPU (float32)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [n, complex] of [
    [1, false],
    [2, false],
    [3, false],
    [100, false],
    [3000, false],
    [64, true],
  ] as const) {
    const sh: Shape = { n, batch: 3, nrhs: 1, layout: 'strided', complex };
    const s = randomSystems(n, 3, 200 + n, { complex, dominance: 1.5 });
    const r: { x: ArrayLike<number>; backend: string } = await solveTridiagonal({
      ...sh,
      cyclic: true,
      backend: 'webgpu',
      gpu: ctx,
      lower: s.a,
      diag: s.b,
      upper: s.c,
      rhs: s.d,
    });
    assert.equal(r.backend, 'webgpu');
    const s32 = {
      a: Float64Array.from(s.a, Math.fround),
      b: Float64Array.from(s.b, Math.fround),
      c: Float64Array.from(s.c, Math.fround),
      d: Float64Array.from(s.d, Math.fround),
    };
    cyclicCheck(sh, s32, r.x, 1e-5);
  }
});

test('plans are reusable and refuse use after destroy()', async () => {
  const plan = await createTridiagonalPlan({ n: 10, batch: 2, backend: 'cpu', dtype: 'float64' });
  const s = randomSystems(10, 2, 1);
  const r1 = await plan.solve({ lower: s.a, diag: s.b, upper: s.c, rhs: s.d });
  const r2 = await plan.solve({ lower: s.a, diag: s.b, upper: s.c, rhs: s.d });
  assert.deepEqual(r1.x, r2.x);
  plan.destroy();
  await assert.rejects(plan.solve({ lower: s.a, diag: s.b, upper: s.c, rhs: s.d }), DestroyedError);
});

test('bad input gives errors naming the argument', async () => {
  const s = randomSystems(8, 1, 1);
  const base = {
    n: 8,
    backend: 'cpu' as const,
    dtype: 'float64' as const,
    lower: s.a,
    diag: s.b,
    upper: s.c,
    rhs: s.d,
  };
  const arg = (name: string) => (e: unknown) => e instanceof ArgumentError && e.argument === name;
  await assert.rejects(solveTridiagonal({ ...base, n: 0 }), arg('n'));
  await assert.rejects(solveTridiagonal({ ...base, n: 2.5 }), arg('n'));
  await assert.rejects(solveTridiagonal({ ...base, batch: -1 }), arg('batch'));
  await assert.rejects(solveTridiagonal({ ...base, nrhs: 0 }), arg('nrhs'));
  await assert.rejects(solveTridiagonal({ ...base, diag: new Float64Array(7) }), arg('diag.length'));
  await assert.rejects(solveTridiagonal({ ...base, rhs: [1, 2] as unknown as Float64Array }), arg('rhs'));
  await assert.rejects(solveTridiagonal({ ...base, layout: 'columns' as 'strided' }), arg('layout'));
  await assert.rejects(solveTridiagonal({ ...base, dtype: 'float16' as 'float32' }), arg('dtype'));
  await assert.rejects(solveTridiagonal({ ...base, backend: 'cuda' as 'cpu' }), arg('backend'));
  await assert.rejects(solveTridiagonal({ ...base, out: new Float32Array(8) as unknown as Float64Array }), arg('out'));
  await assert.rejects(solveTridiagonal({ ...base, backend: 'webgpu' }), UnsupportedError);
});

test('singular and non-dominant systems through the API: documented status, throw on request', async () => {
  const n = 20;
  const s = randomSystems(n, 2, 3);
  for (let i = 0; i < n; i++) {
    s.b[n + i] = 0;
    s.c[n + i] = 0;
  }
  for (const cpuAlgorithm of ['thomas', 'wang-mou', 'lu'] as const) {
    const r = await solveTridiagonal({
      n,
      batch: 2,
      backend: 'cpu',
      dtype: 'float64',
      cpuAlgorithm,
      lower: s.a,
      diag: s.b,
      upper: s.c,
      rhs: s.d,
    });
    assert.equal(r.status[0], 0, cpuAlgorithm);
    assert.ok(r.status[1] & S.ZERO_PIVOT, `${cpuAlgorithm}: ${r.status[1]}`);
    assert.equal(r.ok, false);
  }
  await assert.rejects(
    solveTridiagonal({
      n,
      batch: 2,
      backend: 'cpu',
      dtype: 'float64',
      onFailure: 'throw',
      lower: s.a,
      diag: s.b,
      upper: s.c,
      rhs: s.d,
    }),
    (e: unknown) =>
      e instanceof Error &&
      e.name === 'TridiagonalBreakdownError' &&
      (e as unknown as { failed: number[] }).failed[0] === 1,
  );
});

test('solveTridiagonal: dtype follows the data; one-shot solves of other sizes in turn reuse spare scratches', async () => {
  // Sizes alternate so that a spare scratch (and its WebAssembly memory) from a larger solve serves a smaller one
  // and the reverse; every result must match the float64 Thomas solve.
  for (const [n, batch, layout] of [
    [64, 1, 'strided'],
    [1000, 3, 'strided'],
    [5, 8, 'interleaved'],
    [64, 1, 'strided'],
    [300, 4, 'interleaved'],
    [1000, 3, 'strided'],
  ] as const) {
    const sh: Shape = { n, batch, nrhs: 1, layout, complex: false };
    const sys = toLayout(randomSystems(n, batch, 40 + n + batch), sh);
    const r = await solveTridiagonal({ ...sh, lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d });
    assert.ok(r.x instanceof Float64Array, 'Float64Array data is solved in float64');
    assert.equal(r.backend, 'cpu');
    const { err } = checkAgainstThomas(sys, r.x, sh, false);
    assert.ok(err < 1e-13, `n=${n} batch=${batch} ${layout}: ${err}`);
    const f = await solveTridiagonal({
      ...sh,
      backend: 'cpu',
      lower: Float32Array.from(sys.a),
      diag: Float32Array.from(sys.b),
      upper: Float32Array.from(sys.c),
      rhs: Float32Array.from(sys.d),
    });
    assert.ok(f.x instanceof Float32Array, 'Float32Array data is solved in float32');
  }
});
