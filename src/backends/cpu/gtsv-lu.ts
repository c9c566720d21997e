/**
 * LU factorisation with partial pivoting for one tridiagonal system, following LAPACK's xGTSV: at each
 * step the larger of the diagonal and the sub-diagonal entry becomes the pivot, and a row interchange
 * fills one extra super-diagonal (du2). Unlike Thomas and Wang & Mou it is stable for any non-singular
 * tridiagonal matrix, so it is the CPU solver to use for systems that are not diagonally dominant.
 *
 * Same conventions as thomas.ts: a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i, a_0 and c_{N-1} ignored,
 * contiguous storage (complex: interleaved pairs). Inputs are not modified.
 * Returns status bits: ZERO_PIVOT when the matrix is exactly singular (LAPACK's INFO > 0; x is then
 * left filled with NaN), NON_FINITE when the result overflowed, NOT_DIAGONALLY_DOMINANT as thomas.ts.
 */
import { TRIDIAGONAL_STATUS as S } from '../../planner/tridiagonal.js';
import type { Field } from './thomas.js';

type Arr = { [i: number]: number; length: number };

export function gtsvLu<T>(F: Field<T>, a: Arr, b: Arr, c: Arr, d: Arr, x: Arr, n: number): number {
  if (n === 0) return 0;
  // Reported as by the solvers that do not pivot, although the factorisation does not need dominance.
  let dominance = 0;
  for (let i = 0; i < n; i++) {
    const off = (i > 0 ? F.abs(F.load(a, i)) : 0) + (i < n - 1 ? F.abs(F.load(c, i)) : 0);
    if (F.abs(F.load(b, i)) < off) dominance = S.NOT_DIAGONALLY_DOMINANT;
  }
  // dl[i] = A(i+1, i) = a_{i+1}; dg = diagonal; du = super-diagonal; rhs = right-hand side (copies).
  const dl: T[] = [],
    dg: T[] = [],
    du: T[] = [],
    rhs: T[] = [];
  for (let i = 0; i < n; i++) {
    dg.push(F.load(b, i));
    rhs.push(F.load(d, i));
    if (i < n - 1) {
      dl.push(F.load(a, i + 1));
      du.push(F.load(c, i));
    }
  }
  const du2: T[] = new Array(Math.max(0, n - 2)).fill(F.zero());
  const singular = (): number => {
    if (!F.complex) for (let i = 0; i < n; i++) x[i] = NaN;
    else for (let i = 0; i < 2 * n; i++) x[i] = NaN;
    return S.ZERO_PIVOT | S.NON_FINITE | dominance;
  };
  for (let i = 0; i < n - 1; i++) {
    if (F.abs1(dg[i]) >= F.abs1(dl[i])) {
      // No interchange: eliminate dl[i] with row i.
      if (F.abs1(dg[i]) === 0) return singular();
      const fact = F.div(dl[i], dg[i]);
      dg[i + 1] = F.sub(dg[i + 1], F.mul(fact, du[i]));
      rhs[i + 1] = F.sub(rhs[i + 1], F.mul(fact, rhs[i]));
      if (i < n - 2) du2[i] = F.zero();
    } else {
      // Interchange rows i and i+1; row i+1 becomes the pivot row and fills du2[i].
      const fact = F.div(dg[i], dl[i]);
      dg[i] = dl[i];
      const temp = dg[i + 1];
      dg[i + 1] = F.sub(du[i], F.mul(fact, temp));
      if (i < n - 2) {
        du2[i] = du[i + 1];
        du[i + 1] = F.neg(F.mul(fact, du2[i]));
      }
      du[i] = temp;
      const tb = rhs[i];
      rhs[i] = rhs[i + 1];
      rhs[i + 1] = F.sub(tb, F.mul(fact, rhs[i + 1]));
    }
  }
  if (F.abs1(dg[n - 1]) === 0) return singular();
  // Back substitution with U (diagonal dg, super-diagonals du and du2).
  const sol: T[] = new Array(n);
  sol[n - 1] = F.div(rhs[n - 1], dg[n - 1]);
  if (n > 1) sol[n - 2] = F.div(F.sub(rhs[n - 2], F.mul(du[n - 2], sol[n - 1])), dg[n - 2]);
  for (let i = n - 3; i >= 0; i--) {
    sol[i] = F.div(F.sub(F.sub(rhs[i], F.mul(du[i], sol[i + 1])), F.mul(du2[i], sol[i + 2])), dg[i]);
  }
  let status = dominance;
  for (let i = 0; i < n; i++) {
    F.store(x, i, sol[i]);
    if (!F.isFinite(sol[i])) status |= S.NON_FINITE;
  }
  return status;
}
