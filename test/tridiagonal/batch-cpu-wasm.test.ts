/**
 * The WebAssembly SIMD kernel of solveTridiagonalBatchCpu (one right-hand side, n ≥ 2) against the
 * JavaScript kernel, which the other tests check against float64 Thomas: the same operations in the
 * same order, so solutions, status words and backward errors must agree exactly. Random systems, odd
 * and even batches (a half-empty last vector), both layouts, sizes that take several blocks and chunks,
 * and bad systems (breakdown, singular, infinite and NaN coefficients, non-dominant, overflow).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  solveTridiagonalBatchCpu,
  solveTridiagonalBatchCpu32,
  tridiagonalBackwardErrors,
} from '../../src/backends/cpu/tridiagonal-batch.js';
import { thomasReal } from '../../src/backends/cpu/thomas.js';
import { TRIDIAGONAL_STATUS as S, matIndex, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';
import { randomSystems, toLayout } from './helpers.js';

function both(
  n: number,
  batch: number,
  layout: TridiagonalLayout,
  sys: { a: Float64Array; b: Float64Array; c: Float64Array; d: Float64Array },
) {
  const base = { n, batch, layout, lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d };
  const ew = new Float64Array(batch),
    ej = new Float64Array(batch);
  const w = solveTridiagonalBatchCpu({ ...base }, undefined, ew);
  const j = solveTridiagonalBatchCpu({ ...base, kernel: 'js' }, undefined, ej);
  return { w: { ...w, eta: ew }, j: { ...j, eta: ej } };
}

function assertSame(tag: string, r: ReturnType<typeof both>): void {
  for (let k = 0; k < r.w.x.length; k++) {
    if (!Object.is(r.w.x[k], r.j.x[k]) && !(Number.isNaN(r.w.x[k]) && Number.isNaN(r.j.x[k]))) {
      assert.fail(`${tag}: x[${k}] ${r.w.x[k]} (wasm) vs ${r.j.x[k]} (js)`);
    }
  }
  assert.deepEqual([...r.w.status], [...r.j.status], `${tag}: status`);
  for (let k = 0; k < r.w.eta.length; k++)
    assert.ok(Object.is(r.w.eta[k], r.j.eta[k]), `${tag}: η[${k}] ${r.w.eta[k]} vs ${r.j.eta[k]}`);
}

test('WebAssembly Thomas kernel equals the JavaScript kernel: random systems, both layouts, odd batches', () => {
  const cases: [number, number][] = [
    [2, 1],
    [2, 3],
    [3, 5],
    [5, 7],
    [16, 33],
    [17, 64],
    [40, 3],
    [64, 101],
    [300, 9],
    [1000, 5],
    [7, 1201],
  ];
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const [n, batch] of cases) {
      const sh = { n, batch, nrhs: 1, layout, complex: false };
      const sys = toLayout(randomSystems(n, batch, 7 * n + batch, { dominance: batch % 2 ? 1 : 0.6 }), sh);
      const r = both(n, batch, layout, sys);
      assertSame(`${layout} n=${n} batch=${batch}`, r);
      // And against float64 Thomas (the JavaScript kernel's own test does this too): first and last system.
      const ref = new Float64Array(n),
        a = ref.slice(),
        b = ref.slice(),
        c = ref.slice(),
        d = ref.slice();
      for (const j of [0, batch - 1]) {
        for (let i = 0; i < n; i++) {
          const e = matIndex(layout, n, batch, j, i);
          a[i] = sys.a[e];
          b[i] = sys.b[e];
          c[i] = sys.c[e];
          d[i] = sys.d[e];
        }
        thomasReal(a, b, c, d, ref, n);
        let err = 0,
          den = 0;
        for (let i = 0; i < n; i++) {
          err = Math.max(err, Math.abs(r.w.x[matIndex(layout, n, batch, j, i)] - ref[i]));
          den = Math.max(den, Math.abs(ref[i]));
        }
        assert.ok(err <= 1e-13 * den, `${layout} n=${n} batch=${batch} j=${j}: ${err / den}`);
      }
    }
  }
});

test('WebAssembly Thomas kernel: many blocks and chunks (n = 3, batch 400001; n = 2048, batch 513), both layouts', () => {
  for (const [n, batch] of [
    [3, 400001],
    [2048, 513],
  ] as const) {
    for (const layout of ['strided', 'interleaved'] as const) {
      const sys = toLayout(randomSystems(n, batch, n + batch), { n, batch, nrhs: 1, layout, complex: false });
      assertSame(`${layout} n=${n} batch=${batch}`, both(n, batch, layout, sys));
    }
  }
});

test('WebAssembly Thomas kernel: status bits and backward errors of bad systems equal the JavaScript kernel', () => {
  const n = 9,
    batch = 13;
  for (const layout of ['strided', 'interleaved'] as const) {
    const s = randomSystems(n, batch, 5);
    const at = (j: number, i: number) => j * n + i;
    for (let i = 0; i < n; i++) s.b[at(1, i)] *= 0.3; // not dominant
    for (let i = 0; i < n; i++) {
      s.b[at(2, i)] = 0;
      s.c[at(2, i)] = 0;
    } // singular
    s.b[at(3, 5)] = Infinity;
    s.b[at(4, 0)] = 1e-12;
    s.c[at(4, 0)] = 1;
    s.a[at(4, 1)] = 1;
    s.b[at(4, 1)] = 1; // tiny first pivot
    s.a[at(5, 3)] = NaN;
    s.d[at(6, 8)] = NaN;
    s.b[at(7, 4)] = 1e-310;
    s.a[at(7, 4)] = 0;
    s.c[at(7, 3)] = 0; // sub-normal pivot
    s.d[at(8, 2)] = 1e308;
    s.b[at(8, 2)] = 1e-300; // overflow
    s.b[at(9, 8)] = 0;
    s.a[at(9, 8)] = 0; // zero last pivot
    s.c[at(10, 8)] = NaN; // c_{n−1} is not read
    s.a[at(11, 0)] = Infinity; // neither is a_0
    s.b[at(12, 0)] = -0;
    const sys = toLayout(s, { n, batch, nrhs: 1, layout, complex: false });
    const r = both(n, batch, layout, sys);
    assertSame(layout, r);
    assert.equal(r.w.status[0], 0);
    assert.ok(r.w.status[1] & S.NOT_DIAGONALLY_DOMINANT);
    for (const j of [2, 3, 5, 7, 9, 12])
      assert.ok(r.w.status[j] & S.ZERO_PIVOT, `${layout} system ${j}: ${r.w.status[j]}`);
    assert.ok(r.w.eta[4] > 1e-8);
    assert.ok(r.w.status[6] & S.NON_FINITE);
    assert.equal(r.w.status[10] & (S.ZERO_PIVOT | S.NON_FINITE), 0);
    assert.equal(r.w.status[11] & (S.ZERO_PIVOT | S.NON_FINITE), 0);
  }
});

test('float32 WebAssembly Thomas: x is the float64 solution rounded once, status and backward errors those of the rounded x', () => {
  const cases: [number, number][] = [
    [2, 3],
    [5, 7],
    [64, 101],
    [1000, 5],
    [3, 40001],
  ];
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const [n, batch] of [...cases, [9, 13] as [number, number]]) {
      const shape = { n, batch, nrhs: 1, layout, complex: false };
      const s = randomSystems(n, batch, 11 * n + batch, { dominance: batch % 2 ? 1 : 0.6 });
      if (n === 9) {
        // Bad systems as float32 sees them: singular, infinite, NaN, overflow of the rounded x.
        const at = (j: number, i: number) => j * n + i;
        for (let i = 0; i < n; i++) s.b[at(2, i)] = s.c[at(2, i)] = 0;
        s.b[at(3, 5)] = Infinity;
        s.a[at(5, 3)] = NaN;
        s.d[at(6, 8)] = NaN;
        s.d[at(8, 2)] = 1e30;
        s.b[at(8, 2)] = 1e-30;
        s.a[at(8, 2)] = s.c[at(8, 2)] = 0; // x_2 = 1e60 overflows float32, not float64
      }
      const sys = toLayout(s, shape);
      const f32 = [sys.a, sys.b, sys.c, sys.d].map((v) => Float32Array.from(v));
      const [lower, diag, upper, rhs] = f32 as [Float32Array, Float32Array, Float32Array, Float32Array];
      const eta = new Float64Array(batch);
      const r = solveTridiagonalBatchCpu32({ n, batch, layout, lower, diag, upper, rhs }, undefined, eta);
      assert.ok(r, 'the float32 kernel applies');
      const wide = [lower, diag, upper, rhs].map((v) => Float64Array.from(v));
      const ej = new Float64Array(batch);
      const j = solveTridiagonalBatchCpu(
        { n, batch, layout, lower: wide[0]!, diag: wide[1]!, upper: wide[2]!, rhs: wide[3]!, kernel: 'js' },
        undefined,
        ej,
      );
      const want = Float32Array.from(j.x);
      const tag = `${layout} n=${n} batch=${batch}`;
      for (let k = 0; k < want.length; k++)
        assert.ok(Object.is(r.x[k], want[k]), `${tag}: x[${k}] ${r.x[k]} vs ${want[k]}`);
      const etaWant = tridiagonalBackwardErrors(shape, lower, diag, upper, rhs, want);
      for (let q = 0; q < batch; q++) {
        const notFinite = want.some((v, k) => !Number.isFinite(v) && matIndexOf(layout, n, batch, k) === q);
        assert.equal(r.status[q], j.status[q] | (notFinite ? S.NON_FINITE : 0), `${tag}: status[${q}]`);
        const [g, w] = [eta[q]!, etaWant[q]!];
        assert.ok(
          // Same residual, other operation order: float64 rounding of a residual of float32 size.
          (Number.isNaN(g) && Number.isNaN(w)) || Math.abs(g - w) <= 1e-15,
          `${tag}: η[${q}] ${g} vs ${w}`,
        );
      }
      if (n === 9) {
        assert.ok(r.status[8]! & S.NON_FINITE, 'float32 overflow of x is flagged');
        assert.ok(Number.isNaN(eta[8]!));
      }
    }
  }
});

/** The system an element index of the layout belongs to. */
function matIndexOf(layout: TridiagonalLayout, n: number, batch: number, k: number): number {
  return layout === 'strided' ? Math.floor(k / n) : k % batch;
}
