/**
 * Periodic systems that are singular to working precision (the periodic Laplacian b = −2, a = c = 1, real and
 * complex): a right-hand side in the matrix's range (zero mean: the periodic Poisson problem) gets a bounded x that
 * solves the system and passes; one outside it, where Sherman–Morrison's x is rounding noise over rounding noise,
 * gets ZERO_PIVOT, under 'auto' too (the pivoting LU re-solve's last pivot is noise as well). Nonsingular periodic
 * systems, near-singular ones included, are never flagged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTridiagonalPlan, solveTridiagonal, TRIDIAGONAL_STATUS } from '../../src/index.js';
import { rng } from '../../src/util/random.js';

const ZERO_PIVOT = TRIDIAGONAL_STATUS.ZERO_PIVOT;

test('cyclic: singular systems with a right-hand side outside the range are flagged, inside it solved', async () => {
  const r = rng(77);
  for (const dtype of ['float64', 'float32'] as const) {
    for (const backend of ['cpu', 'auto'] as const) {
      for (const complex of [false, true]) {
        for (const n of [3, 4, 5, 16, 101, 1000]) {
          const tag = `${dtype} ${backend} ${complex ? 'complex' : 'real'} n=${n}`;
          const w = complex ? 2 : 1;
          const batch = 4;
          const A = dtype === 'float64' ? Float64Array : Float32Array;
          const lower = new A(n * batch * w),
            upper = new A(n * batch * w),
            diag = new A(n * batch * w),
            rhs = new A(n * batch * w);
          for (let k = 0; k < n * batch; k++) {
            lower[k * w] = 1;
            upper[k * w] = 1;
            diag[k * w] = -2;
          }
          // Systems 0 and 2: zero-mean right-hand sides; 1 and 3: a mean of 0.3 (outside the range).
          for (let j = 0; j < batch; j++) {
            const mean = new Array<number>(w).fill(0);
            for (let i = 0; i < n; i++)
              for (let q = 0; q < w; q++) {
                const v = r() - 0.5;
                rhs[(j * n + i) * w + q] = v;
                mean[q]! += v / n;
              }
            for (let i = 0; i < n; i++)
              for (let q = 0; q < w; q++) rhs[(j * n + i) * w + q] -= j % 2 ? mean[q]! - 0.3 : mean[q]!;
          }
          const plan = await createTridiagonalPlan({ n, batch, dtype, backend, complex, cyclic: true });
          const res = await plan.solve({ lower, diag, upper, rhs });
          for (const j of [0, 2]) {
            assert.equal(res.status[j]! & ZERO_PIVOT, 0, `${tag}: system ${j} (in the range) not flagged`);
            assert.ok(
              res.backwardError![j]! <= (dtype === 'float64' ? 1e-13 : 1e-4),
              `${tag}: system ${j} solved (${res.backwardError![j]}, status ${res.status[j]})`,
            );
            let mx = 0;
            for (let k = 0; k < n * w; k++) mx = Math.max(mx, Math.abs(res.x[j * n * w + k]!));
            assert.ok(mx < 1e3 * n * n, `${tag}: system ${j} x bounded (${mx})`);
          }
          for (const j of [1, 3]) assert.ok(res.status[j]! & ZERO_PIVOT, `${tag}: system ${j} (outside) flagged`);
          assert.equal(res.ok, false, tag);
          plan.destroy();
        }
      }
    }
  }
});

test('cyclic: nonsingular systems are not flagged, near-singular ones included', async () => {
  const r = rng(78);
  for (const dtype of ['float64', 'float32'] as const) {
    for (const n of [3, 7, 64, 500]) {
      const batch = 40;
      const A = dtype === 'float64' ? Float64Array : Float32Array;
      const lower = new A(n * batch),
        upper = new A(n * batch),
        diag = new A(n * batch),
        rhs = new A(n * batch);
      for (let j = 0; j < batch; j++) {
        for (let i = 0; i < n; i++) {
          const k = j * n + i;
          rhs[k] = r() - 0.5;
          if (j < 10) {
            // The Laplacian shifted by 10^-3 … 10^-6 (float64) or 10^-2 (float32): nonsingular, cond up to ~1e6·n².
            lower[k] = upper[k] = 1;
            diag[k] = -2 - (dtype === 'float64' ? 10 ** -(3 + (j % 4)) : 1e-2);
          } else {
            lower[k] = r() - 0.5;
            upper[k] = r() - 0.5;
            // Dominant for half of them, random diagonals for the rest.
            diag[k] = j < 25 ? (Math.abs(lower[k]!) + Math.abs(upper[k]!) + 0.1) * (r() < 0.5 ? -1 : 1) : 2 * r() - 1;
          }
        }
      }
      const plan = await createTridiagonalPlan({ n, batch, dtype, backend: 'cpu', cyclic: true });
      const res = await plan.solve({ lower, diag, upper, rhs });
      for (let j = 0; j < 25; j++) assert.equal(res.status[j]! & ZERO_PIVOT, 0, `${dtype} n=${n}: system ${j}`);
      plan.destroy();
    }
  }
});

test('cyclic: b_0 zero or tiny beside the corners (Sherman–Morrison γ = −b_0 divided by it) solves accurately', async () => {
  const r = rng(91);
  for (const dtype of ['float64', 'float32'] as const) {
    for (const backend of ['cpu', 'auto'] as const) {
      for (const cpuAlgorithm of ['thomas', 'lu'] as const) {
        for (const complex of [false, true]) {
          for (const n of [3, 4, 9, 100]) {
            const w = complex ? 2 : 1;
            const batch = 4;
            const A = dtype === 'float64' ? Float64Array : Float32Array;
            const [lower, diag, upper, rhs] = [0, 1, 2, 3].map(() => new A(n * batch * w));
            for (let j = 0; j < batch; j++)
              for (let i = 0; i < n; i++)
                for (let q = 0; q < w; q++) {
                  const k = (j * n + i) * w + q;
                  lower[k] = q === 0 ? 1 + r() : 0.3 * r();
                  upper[k] = q === 0 ? 1 + r() : 0.3 * r();
                  diag[k] = q === 0 ? 6 + r() : 0.3 * r();
                  rhs[k] = r() - 0.5;
                }
            // b_0 of the systems: 0, 1e-12 (with the corner A[N−1][0] zero), 0, −1e-30 (float64: 1e-310, subnormal).
            const b0 = [0, 1e-12, 0, dtype === 'float64' ? -1e-310 : -1e-30];
            for (let j = 0; j < batch; j++) for (let q = 0; q < w; q++) diag[j * n * w + q] = q === 0 ? b0[j]! : 0;
            for (let q = 0; q < w; q++) upper[(2 * n - 1) * w + q] = 0;
            const tag = `${dtype} ${backend} ${cpuAlgorithm} ${complex ? 'complex' : 'real'} n=${n}`;
            const res = await solveTridiagonal({
              n,
              batch,
              dtype,
              backend,
              cpuAlgorithm,
              complex,
              cyclic: true,
              lower,
              diag,
              upper,
              rhs,
            });
            assert.ok(res.ok, `${tag}: status ${Array.from(res.status)}`);
            // The residual of each system, in float64.
            for (let j = 0; j < batch; j++) {
              let num = 0;
              let den = 0;
              for (let i = 0; i < n; i++) {
                const at = (arr: ArrayLike<number>, ii: number, q: number) => arr[(j * n + ((ii + n) % n)) * w + q]!;
                const mul = (m: ArrayLike<number>, ii: number, xi: number): [number, number] => {
                  const [ar, ai] = [at(m, ii, 0), complex ? at(m, ii, 1) : 0];
                  const [xr, xj] = [at(res.x, xi, 0), complex ? at(res.x, xi, 1) : 0];
                  return [ar * xr - ai * xj, ar * xj + ai * xr];
                };
                const t = [mul(lower, i, i - 1), mul(diag, i, i), mul(upper, i, i + 1)];
                const er = t[0]![0] + t[1]![0] + t[2]![0] - at(rhs, i, 0);
                const ei = t[0]![1] + t[1]![1] + t[2]![1] - (complex ? at(rhs, i, 1) : 0);
                num += er * er + ei * ei;
                den += at(rhs, i, 0) ** 2 + (complex ? at(rhs, i, 1) ** 2 : 0);
              }
              const tol = dtype === 'float64' ? 1e-12 : 1e-4;
              assert.ok(Math.sqrt(num / den) < tol, `${tag} system ${j}: residual ${Math.sqrt(num / den)}`);
            }
          }
        }
      }
    }
  }
});
