import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomSystems } from './helpers.js';
import {
  complexField,
  realField,
  thomasComplex,
  thomasReal,
  tridiagonalResidual,
} from '../../src/backends/cpu/thomas.js';
import { gtsvLu } from '../../src/backends/cpu/gtsv-lu.js';
import { wangMouSolve } from '../../src/backends/cpu/wang-mou.js';
import { planTridiagonal, TRIDIAGONAL_STATUS as S } from '../../src/planner/tridiagonal.js';
import { relativeL2 } from '../../src/util/metrics.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupsPerDimension: 65535,
};
const LLVMPIPE = { ...H200, maxComputeWorkgroupStorageSize: 32768 };

test('Thomas float64: residual near machine precision, N = 1 … 300', () => {
  for (let n = 1; n <= 300; n++) {
    const s = randomSystems(n, 1, 1000 + n);
    const x = new Float64Array(n);
    assert.equal(thomasReal(s.a, s.b, s.c, s.d, x, n), 0);
    assert.ok(tridiagonalResidual(s.a, s.b, s.c, s.d, x, n) < 1e-14, `n=${n}`);
  }
});

test('Wang & Mou CPU (recipe structure) agrees with Thomas for every N from 1 to 4096', () => {
  const F = realField();
  let worst = 0;
  for (let n = 1; n <= 4096; n++) {
    const s = randomSystems(n, 1, n);
    const ref = new Float64Array(n),
      x = new Float64Array(n);
    thomasReal(s.a, s.b, s.c, s.d, ref, n);
    // Alternate radix and cut the workgroup size so partitioned (multi-level) runs are covered densely.
    const opts = n % 3 === 0 ? { radix: 2 as const } : n % 3 === 1 ? {} : { maxRowsPerWorkgroup: 64 };
    const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: false, layout: 'strided' }, LLVMPIPE, opts);
    const st = wangMouSolve(F, recipe, s.a, s.b, s.c, s.d, x, n);
    assert.equal(st, 0, `n=${n} status`);
    const e = relativeL2(x, ref);
    worst = Math.max(worst, e);
    assert.ok(e < 1e-13, `n=${n}: rel err ${e}`);
    assert.ok(tridiagonalResidual(s.a, s.b, s.c, s.d, x, n) < 1e-14, `n=${n} residual`);
  }
  assert.ok(worst < 1e-13);
});

test("'thomas' interior (boundary rows through the stages, Thomas inside an invocation) agrees with Thomas, N = 1 … 4096", () => {
  const F = realField();
  for (let n = 1; n <= 4096; n++) {
    const s = randomSystems(n, 1, 5 * n + 1);
    const ref = new Float64Array(n),
      x = new Float64Array(n);
    thomasReal(s.a, s.b, s.c, s.d, ref, n);
    const rowsPerThread = [2, 4, 8, 16][n % 4];
    const opts = {
      interior: 'thomas' as const,
      rowsPerThread,
      radix: (n % 3 === 0 ? 2 : 4) as 2 | 4,
      ...(n % 5 === 0 ? { maxRowsPerWorkgroup: 64, partitionRowsPerWorkgroup: 64 } : {}),
    };
    const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: false, layout: 'strided' }, LLVMPIPE, opts);
    assert.equal(wangMouSolve(F, recipe, s.a, s.b, s.c, s.d, x, n), 0, `n=${n} status`);
    const e = relativeL2(x, ref);
    assert.ok(e < 1e-13, `n=${n} (${JSON.stringify(opts)}): rel err ${e}`);
  }
  const C = complexField();
  for (const n of [1, 2, 3, 17, 255, 1025, 3000]) {
    const s = randomSystems(n, 1, 13 * n, { complex: true });
    const ref = new Float64Array(2 * n),
      x = ref.slice();
    thomasComplex(s.a, s.b, s.c, s.d, ref, n);
    const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: true, layout: 'strided' }, LLVMPIPE, {
      interior: 'thomas',
      rowsPerThread: 8,
      maxRowsPerWorkgroup: 256,
    });
    assert.equal(wangMouSolve(C, recipe, s.a, s.b, s.c, s.d, x, n), 0);
    assert.ok(relativeL2(x, ref) < 1e-13, `complex n=${n}`);
  }
});

test('Wang & Mou CPU in float32 rounding stays within 1e-5 of float64 Thomas (dominant systems)', () => {
  const F = realField(Math.fround);
  for (const n of [1, 2, 3, 7, 64, 100, 1000, 2048, 2049, 5000]) {
    const s = randomSystems(n, 1, 7 * n);
    const a = Float64Array.from(s.a, Math.fround),
      b = Float64Array.from(s.b, Math.fround),
      c = Float64Array.from(s.c, Math.fround),
      d = Float64Array.from(s.d, Math.fround);
    const ref = new Float64Array(n),
      x = new Float64Array(n);
    thomasReal(a, b, c, d, ref, n);
    const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: false, layout: 'strided' }, H200);
    assert.equal(wangMouSolve(F, recipe, a, b, c, d, x, n), 0);
    assert.ok(relativeL2(x, ref) < 1e-5, `n=${n}: ${relativeL2(x, ref)}`);
  }
});

test('complex systems: Thomas, LU and Wang & Mou agree', () => {
  const F = complexField();
  for (const n of [1, 2, 3, 5, 16, 31, 100, 1025, 3000]) {
    const s = randomSystems(n, 1, 31 * n, { complex: true });
    const ref = new Float64Array(2 * n),
      x = ref.slice(),
      y = ref.slice();
    assert.equal(thomasComplex(s.a, s.b, s.c, s.d, ref, n), 0);
    assert.ok(tridiagonalResidual(s.a, s.b, s.c, s.d, ref, n, true) < 1e-14);
    const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: true, layout: 'strided' }, LLVMPIPE, {
      maxRowsPerWorkgroup: 256,
    });
    assert.equal(wangMouSolve(F, recipe, s.a, s.b, s.c, s.d, x, n), 0);
    assert.ok(relativeL2(x, ref) < 1e-13, `wm n=${n}`);
    assert.equal(gtsvLu(F, s.a, s.b, s.c, s.d, y, n), 0);
    assert.ok(relativeL2(y, ref) < 1e-13, `lu n=${n}`);
  }
});

test('LU with partial pivoting solves systems that need pivoting; Thomas flags them', () => {
  const F = realField();
  for (const n of [2, 3, 10, 257, 1000]) {
    const s = randomSystems(n, 1, 77 * n, { dominance: 0 });
    // Weak diagonal (|b| ≤ 0.05, off-diagonals up to 1) and b_0 = 0: Thomas hits a zero pivot at row 0,
    // LU must pivot. Generic such matrices are non-singular.
    for (let i = 0; i < n; i++) s.b[i] = i === 0 ? 0 : 0.05 * Math.sin(i * 12.9898);
    const x = new Float64Array(n),
      y = new Float64Array(n);
    const st = gtsvLu(F, s.a, s.b, s.c, s.d, x, n);
    assert.equal(st & (S.ZERO_PIVOT | S.NON_FINITE), 0, `n=${n}`);
    assert.ok(
      tridiagonalResidual(s.a, s.b, s.c, s.d, x, n) < 1e-10,
      `lu residual n=${n}: ${tridiagonalResidual(s.a, s.b, s.c, s.d, x, n)}`,
    );
    // Reported by the pivoting solver too, which does not need dominance.
    assert.ok(st & S.NOT_DIAGONALLY_DOMINANT, `lu status n=${n}`);
    const t = thomasReal(s.a, s.b, s.c, s.d, y, n);
    assert.ok(t & S.ZERO_PIVOT, `thomas status n=${n}`);
    assert.ok(t & S.NOT_DIAGONALLY_DOMINANT);
  }
});

test('singular systems: documented status from every CPU solver, never silence', () => {
  const n = 6;
  const a = new Float64Array(n).fill(1),
    b = new Float64Array(n).fill(0),
    c = new Float64Array(n).fill(0),
    d = new Float64Array(n).fill(1);
  // b = c = 0: columns 5 is zero → singular.
  const x = new Float64Array(n);
  assert.ok(gtsvLu(realField(), a, b, c, d, x, n) & S.ZERO_PIVOT);
  assert.ok(gtsvLu(realField(), a, b, c, d, x, n) & S.NOT_DIAGONALLY_DOMINANT);
  assert.ok(x.every(Number.isNaN));
  // A dominant matrix: no dominance bit from LU (complex too).
  const dom = gtsvLu(complexField(), [0, 0, 1, 1], [4, 0, 4, 1], [1, -1, 0, 0], [1, 0, 1, 0], new Float64Array(4), 2);
  assert.equal(dom, 0);
  assert.ok(
    gtsvLu(complexField(), [0, 0, 3, 4], [4, 0, 4, 1], [1, -1, 0, 0], [1, 0, 1, 0], x, 2) & S.NOT_DIAGONALLY_DOMINANT,
  );
  assert.ok(thomasReal(a, b, c, d, x, n) & S.ZERO_PIVOT);
  const recipe = planTridiagonal({ n, batch: 1, nrhs: 1, complex: false, layout: 'strided' }, H200);
  const st = wangMouSolve(realField(), recipe, a, b, c, d, x, n);
  assert.ok(st & S.ZERO_PIVOT, `wm status ${st}`);
  assert.ok(st & S.NOT_DIAGONALLY_DOMINANT);
});
