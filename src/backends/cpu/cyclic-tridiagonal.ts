/**
 * Periodic (cyclic) tridiagonal systems by Sherman–Morrison: a_0 couples x_{N−1} and c_{N−1} couples
 * x_0. With γ = −b_0 (or, where b_0 is small beside the corners, see gammaOf), the matrix A' = A − u·vᵀ,
 * u = (γ, 0, …, 0, c_{N−1}), v = (1, 0, …, 0, a_0/γ), is plain tridiagonal (b'_0 = b_0 − γ,
 * b'_{N−1} = b_{N−1} − a_0·c_{N−1}/γ). Solve A'y = d and A'z = u (one more right-hand side sharing the matrix, so
 * any batched solver does both in one call), then
 *   x = y − z·(y_0 + a_0·y_{N−1}/γ) / (1 + z_0 + a_0·z_{N−1}/γ).
 * N = 1 and N = 2 have no room for the corner entries: they are folded into an ordinary system.
 *
 * Works on the batched layouts of planner/tridiagonal.ts, in float64 on the host (the corrections are
 * O(N) per right-hand side; the O(N) solve itself runs on whichever backend the caller chose).
 */
import { matIndex, rhsIndex, type TridiagonalLayout } from '../../planner/tridiagonal.js';
import type { Field } from './thomas.js';

type Arr = { [i: number]: number; length: number };

export interface CyclicShape {
  n: number;
  batch: number;
  nrhs: number;
  layout: TridiagonalLayout;
}

/** The non-cyclic problem to solve: modified matrix and nrhs + 1 right-hand sides (the last is u). */
export interface CyclicPrepared {
  lower: Float64Array;
  diag: Float64Array;
  upper: Float64Array;
  rhs: Float64Array;
  nrhs: number;
}

export function cyclicPrepare<T>(
  F: Field<T>,
  s: CyclicShape,
  lower: Arr,
  diag: Arr,
  upper: Arr,
  rhs: Arr,
): CyclicPrepared {
  const { n, batch, nrhs, layout } = s;
  const w = F.complex ? 2 : 1;
  const lo = Float64Array.from(lower as ArrayLike<number>),
    dg = Float64Array.from(diag as ArrayLike<number>);
  const up = Float64Array.from(upper as ArrayLike<number>);
  const extra = n <= 2 ? 0 : 1;
  const out = new Float64Array((nrhs + extra) * n * batch * w);
  out.set(rhs as ArrayLike<number>);
  for (let j = 0; j < batch; j++) {
    const m = (i: number) => matIndex(layout, n, batch, j, i);
    if (n === 1) {
      F.store(dg, m(0), F.add(F.add(F.load(lo, m(0)), F.load(dg, m(0))), F.load(up, m(0))));
      continue;
    }
    if (n === 2) {
      // Row 0: b_0 x_0 + (a_0 + c_0) x_1; row 1: (a_1 + c_1) x_0 + b_1 x_1.
      F.store(up, m(0), F.add(F.load(lo, m(0)), F.load(up, m(0))));
      F.store(lo, m(1), F.add(F.load(lo, m(1)), F.load(up, m(1))));
      continue;
    }
    const b0 = F.load(dg, m(0));
    const alpha = F.load(up, m(n - 1)); // A[N−1][0]
    const beta = F.load(lo, m(0)); // A[0][N−1]
    const gamma = gammaOf(F, b0, alpha, beta);
    F.store(dg, m(0), F.sub(b0, gamma));
    // α·(β/γ), not (α·β)/γ: |γ| = |b_0| bounds the quotient, where α·β alone overflows or underflows from 1e154.
    F.store(dg, m(n - 1), F.sub(F.load(dg, m(n - 1)), F.mul(alpha, F.div(beta, gamma))));
    F.store(out, rhsIndex(layout, n, batch, nrhs, j, 0), gamma);
    F.store(out, rhsIndex(layout, n, batch, nrhs, j, n - 1), alpha);
  }
  return { lower: lo, diag: dg, upper: up, rhs: out, nrhs: nrhs + extra };
}

/**
 * Applies the Sherman–Morrison correction to the solutions `sol` of the prepared problem, into `x`.
 * `lower`, `diag`, `upper` are the ORIGINAL (cyclic) matrix arrays, not the prepared ones. `unit`: the unit roundoff
 * of the solve that produced `sol`. Returns, per matrix, whether it is singular to working precision with a right-hand
 * side outside its range (see below): such an x is about 1/unit, not a solution, and the caller flags it.
 */
export function cyclicCombine<T>(
  F: Field<T>,
  s: CyclicShape,
  lower: Arr,
  diag: Arr,
  upper: Arr,
  sol: Arr,
  x: Arr,
  unit: number,
): Uint8Array {
  const { n, batch, nrhs, layout } = s;
  const singular = new Uint8Array(batch);
  if (n <= 2) {
    for (let k = 0; k < nrhs * n * batch * (F.complex ? 2 : 1); k++) x[k] = sol[k];
    return singular;
  }
  for (let j = 0; j < batch; j++) {
    const m = (i: number) => matIndex(layout, n, batch, j, i);
    const gamma = gammaOf(F, F.load(diag, m(0)), F.load(upper, m(n - 1)), F.load(lower, m(0)));
    // v = (1, 0, …, β/γ), formed first for the same reason as in cyclicPrepare.
    const ratio = F.div(F.load(lower, matIndex(layout, n, batch, j, 0)), gamma);
    const z = (i: number) => F.load(sol, rhsIndex(layout, n, batch, nrhs, j, i));
    const rz = F.mul(ratio, z(n - 1));
    const den = F.add(F.add(F.one(), z(0)), rz);
    // The cyclic matrix is singular exactly where 1 + vᵀz = 0; computed, that sum is then rounding noise, at most a
    // few n·unit of its terms' size (the periodic Laplacian: under 0.1 n·unit; nonsingular matrices: 1e12 and up).
    const flat = F.abs(den) <= SINGULAR_UNITS * n * unit * (1 + F.abs(z(0)) + F.abs(rz));
    for (let r = 0; r < nrhs; r++) {
      const y = (i: number) => F.load(sol, rhsIndex(layout, n, batch, r, j, i));
      const ry = F.mul(ratio, y(n - 1));
      const num = F.add(y(0), ry);
      // A right-hand side in the range of a singular matrix makes vᵀy noise too: then y itself is a solution
      // (A·y = d + u·vᵀy), where noise over noise would add an arbitrary multiple of z, or NaN for 0/0. One outside
      // the range leaves vᵀy of its terms' size (0.06–1 of them for a mean of 0.3 in the periodic Laplacian's d),
      // and x = noise⁻¹. In the range, vᵀy measured at most 6e-14 of its terms in float64 (n ≤ 1000) and 1.7e-3 in
      // float32 (complex, every operation rounded, n = 3000: about 10 n·unit).
      const outside = F.abs(num) > Math.max(Math.sqrt(unit), 64 * n * unit) * (F.abs(y(0)) + F.abs(ry));
      if (flat && outside) singular[j] = 1;
      const fact = flat && !outside ? F.zero() : F.div(num, den);
      for (let i = 0; i < n; i++) F.store(x, rhsIndex(layout, n, batch, r, j, i), F.sub(y(i), F.mul(fact, z(i))));
    }
  }
  return singular;
}

/**
 * The Sherman–Morrison γ: −b_0, so that b'_0 = 2b_0, where |b_0| is at least the corners' size (√|αβ|, or the larger
 * where one is zero); else of that size, in b_0's phase. b_0 = 0 gave γ = 0 and 0/0, and a small b_0 a small pivot
 * b'_0 (and a huge b'_{N−1} = b_{N−1} − αβ/γ) that cost the solve its accuracy.
 */
function gammaOf<T>(F: Field<T>, b0: T, alpha: T, beta: T): T {
  const size = F.abs(b0);
  const corners = Math.sqrt(F.abs(alpha)) * Math.sqrt(F.abs(beta)) || Math.max(F.abs(alpha), F.abs(beta));
  if (size >= corners && size > 0) return F.neg(b0);
  const real = (v: number): T => F.load(Float64Array.of(v, 0), 0);
  // −g times b_0's phase b_0/|b_0| (g/|b_0| overflows for a subnormal b_0), or −g where b_0 = 0.
  const g = real(corners || 1);
  return F.neg(size > 0 ? F.mul(F.div(b0, real(size)), g) : g);
}

/** |1 + vᵀz| under this many n·unit of its terms' size counts as zero (cyclicCombine). */
const SINGULAR_UNITS = 8;

/** Residual ‖Ax − d‖/‖d‖ of one contiguous cyclic system (real or complex), float64. */
export function cyclicResidual<T>(F: Field<T>, a: Arr, b: Arr, c: Arr, d: Arr, x: Arr, n: number): number {
  let num = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    const im = (i + n - 1) % n,
      ip = (i + 1) % n;
    let r = F.mul(F.load(b, i), F.load(x, i));
    r = F.add(r, F.mul(F.load(a, i), F.load(x, im)));
    r = F.add(r, F.mul(F.load(c, i), F.load(x, ip)));
    r = F.sub(r, F.load(d, i));
    num += F.abs(r) ** 2;
    den += F.abs(F.load(d, i)) ** 2;
  }
  return Number.isFinite(num) ? Math.sqrt(num / den) : Infinity;
}
