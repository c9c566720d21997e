/**
 * The batched float64 CPU kernel (solveTridiagonalBatchCpu) against float64 Thomas system by system:
 * every n from 1 to 40 and some larger, odd and even batches (strided pairs and the lone last system),
 * several right-hand sides, both layouts; its status bits and its fused backward errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solveTridiagonalBatchCpu, tridiagonalBackwardErrors } from '../../src/backends/cpu/tridiagonal-batch.js';
import { thomasReal } from '../../src/backends/cpu/thomas.js';
import { TRIDIAGONAL_STATUS as S, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';
import { randomSystems, toLayout } from './helpers.js';

function run(n: number, batch: number, nrhs: number, layout: TridiagonalLayout, sys: ReturnType<typeof randomSystems>) {
  const eta = new Float64Array(batch);
  const r = solveTridiagonalBatchCpu(
    { n, batch, nrhs, layout, lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d },
    undefined,
    eta,
  );
  return { ...r, eta };
}

test('batched CPU kernel agrees with float64 Thomas: n = 1 … 40, 257, 1000; batch 1, 2, 5; nrhs 1, 3; both layouts', () => {
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const n of [...Array.from({ length: 40 }, (_, i) => i + 1), 257, 1000]) {
      for (const [batch, nrhs] of [
        [1, 1],
        [2, 3],
        [5, 1],
        [5, 3],
      ] as const) {
        const sh = { n, batch, nrhs, layout, complex: false };
        const contiguous = randomSystems(n, batch, 31 * n + batch + nrhs, { rhsCount: nrhs });
        const sys = toLayout(contiguous, sh);
        const r = run(n, batch, nrhs, layout, sys);
        const ref = new Float64Array(n);
        for (let j = 0; j < batch; j++) {
          const a = contiguous.a.subarray(j * n, j * n + n),
            b = contiguous.b.subarray(j * n, j * n + n),
            c = contiguous.c.subarray(j * n, j * n + n);
          for (let q = 0; q < nrhs; q++) {
            const d = contiguous.d.subarray((q * batch + j) * n, (q * batch + j) * n + n);
            assert.equal(thomasReal(a, b, c, d, ref, n), 0);
            let err = 0,
              den = 0;
            for (let i = 0; i < n; i++) {
              const e = layout === 'strided' ? (q * batch + j) * n + i : (q * n + i) * batch + j;
              err = Math.max(err, Math.abs(r.x[e] - ref[i]));
              den = Math.max(den, Math.abs(ref[i]));
            }
            assert.ok(err <= 1e-14 * den, `${layout} n=${n} batch=${batch} j=${j} rhs=${q}: ${err / den}`);
          }
          assert.equal(r.status[j], 0, `${layout} n=${n} status[${j}]`);
        }
        const eta2 = tridiagonalBackwardErrors(sh, sys.a, sys.b, sys.c, sys.d, r.x);
        for (let j = 0; j < batch; j++) {
          assert.ok(r.eta[j] < 8 * 2 ** -53 && eta2[j] < 8 * 2 ** -53, `${layout} n=${n}: η ${r.eta[j]} / ${eta2[j]}`);
        }
      }
    }
  }
});

test('batched CPU kernel: status bits and backward errors of bad systems, system by system', () => {
  for (const layout of ['strided', 'interleaved'] as const) {
    const n = 12,
      batch = 5,
      sh = { n, batch, nrhs: 1, layout, complex: false };
    const s = randomSystems(n, batch, 77);
    // 1: not dominant but fine; 2: singular (b = c = 0); 3: an infinite coefficient; 4: tiny first pivot.
    for (let i = 0; i < n; i++) s.b[n + i] *= 0.3;
    for (let i = 0; i < n; i++) {
      s.b[2 * n + i] = 0;
      s.c[2 * n + i] = 0;
    }
    s.b[3 * n + 5] = Infinity;
    s.b[4 * n] = 1e-12;
    s.c[4 * n] = 1;
    s.a[4 * n + 1] = 1;
    s.b[4 * n + 1] = 1;
    const sys = toLayout(s, sh);
    const r = run(n, batch, 1, layout, sys);
    assert.equal(r.status[0], 0, layout);
    assert.ok(r.eta[0] < 8 * 2 ** -53);
    assert.ok(r.status[1] & S.NOT_DIAGONALLY_DOMINANT, `${layout} ${r.status[1]}`);
    assert.equal(r.status[1] & (S.ZERO_PIVOT | S.NON_FINITE), 0);
    assert.ok(r.status[2] & S.ZERO_PIVOT, `${layout} singular ${r.status[2]}`);
    assert.ok(r.status[3] & S.ZERO_PIVOT, `${layout} infinite ${r.status[3]}`);
    assert.ok(!(r.eta[3] <= 1e-13), `${layout} infinite: η ${r.eta[3]}`);
    assert.ok(r.eta[4] > 1e-8, `${layout} tiny pivot: η ${r.eta[4]}`);
    const eta2 = tridiagonalBackwardErrors(sh, sys.a, sys.b, sys.c, sys.d, r.x);
    assert.ok(Math.abs(eta2[4] - r.eta[4]) <= 1e-3 * r.eta[4], `${eta2[4]} ${r.eta[4]}`);
  }
});
