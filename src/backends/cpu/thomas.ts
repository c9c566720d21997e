/**
 * Thomas algorithm (Gaussian elimination without pivoting, specialised to tridiagonal matrices): the
 * float64 reference every other tridiagonal solver of the library is compared against, and the fastest
 * CPU path (O(N), one forward sweep and one back substitution).
 *
 * Equation i of a system: a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i. a_0 and c_{N-1} are ignored
 * (x_{-1} = x_N = 0), as in LAPACK and cuSPARSE.
 *
 * Stability: like Wang & Mou, Thomas does not pivot. It is stable for diagonally dominant matrices
 * (|b_i| ≥ |a_i| + |c_i|) and for symmetric positive definite ones; otherwise use the LU solver with
 * partial pivoting in gtsv-lu.ts. Zero pivots and non-finite results are reported through the status
 * bits of planner/tridiagonal.ts, never silently.
 *
 * `round` lets the same code run in float32: pass Math.fround and every intermediate is rounded to
 * single precision, as on the GPU.
 */
import { TRIDIAGONAL_STATUS as S } from '../../planner/tridiagonal.js';

type Arr = { [i: number]: number; length: number };
const id = (v: number): number => v;

/** Smallest pivot magnitude treated as non-zero: the smallest normal number of the working precision. */
export function tinyPivot(round?: (v: number) => number): number {
  return round === Math.fround ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
}

/**
 * Solves one real system stored contiguously (a, b, c, d each of length ≥ n at the given offsets) into
 * x. `scratch` (length ≥ n) holds the modified upper diagonal. Returns status bits.
 */
export function thomasReal(
  a: Arr,
  b: Arr,
  c: Arr,
  d: Arr,
  x: Arr,
  n: number,
  round: (v: number) => number = id,
  scratch: Float64Array = new Float64Array(n),
): number {
  const tiny = tinyPivot(round);
  let status = 0;
  if (n === 0) return 0;
  let piv = b[0];
  if (!(Math.abs(piv) >= tiny && Math.abs(piv) < Infinity)) status |= S.ZERO_PIVOT; // an infinite pivot zeroes x silently
  for (let i = 0; i < n; i++) {
    const ai = i > 0 ? a[i] : 0;
    const ci = i < n - 1 ? c[i] : 0;
    if (Math.abs(b[i]) < Math.abs(ai) + Math.abs(ci)) status |= S.NOT_DIAGONALLY_DOMINANT;
  }
  scratch[0] = round((n > 1 ? c[0] : 0) / piv);
  x[0] = round(d[0] / piv);
  for (let i = 1; i < n; i++) {
    piv = round(b[i] - round(a[i] * scratch[i - 1]));
    if (!(Math.abs(piv) >= tiny && Math.abs(piv) < Infinity)) status |= S.ZERO_PIVOT; // an infinite pivot zeroes x silently
    scratch[i] = i < n - 1 ? round(c[i] / piv) : 0;
    x[i] = round(round(d[i] - round(a[i] * x[i - 1])) / piv);
  }
  for (let i = n - 2; i >= 0; i--) x[i] = round(x[i] - round(scratch[i] * x[i + 1]));
  for (let i = 0; i < n; i++)
    if (!Number.isFinite(x[i])) {
      status |= S.NON_FINITE;
      break;
    }
  return status;
}

/**
 * Complex version: every array holds interleaved (re, im) pairs, element i at [2i, 2i+1]. `scratch`
 * needs length ≥ 2n.
 */
export function thomasComplex(
  a: Arr,
  b: Arr,
  c: Arr,
  d: Arr,
  x: Arr,
  n: number,
  round: (v: number) => number = id,
  scratch: Float64Array = new Float64Array(2 * n),
): number {
  const tiny = tinyPivot(round);
  let status = 0;
  if (n === 0) return 0;
  const abs = (re: number, im: number) => Math.hypot(re, im);
  for (let i = 0; i < n; i++) {
    const aa = i > 0 ? abs(a[2 * i], a[2 * i + 1]) : 0;
    const cc = i < n - 1 ? abs(c[2 * i], c[2 * i + 1]) : 0;
    if (abs(b[2 * i], b[2 * i + 1]) < aa + cc) status |= S.NOT_DIAGONALLY_DOMINANT;
  }
  // pr, pi: current pivot; u/p = u·conj(p/s) / (s·|p/s|²) with s = max(|Re p|, |Im p|), so |p|² never over- or
  // underflows (it did from |p| ≈ 1.3e154 and below 1e-162).
  let pr = b[0],
    pi = b[1];
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      // p = b_i − a_i · c'_{i−1}
      const ar = a[2 * i],
        ai = a[2 * i + 1];
      const sr = scratch[2 * i - 2],
        si = scratch[2 * i - 1];
      pr = round(b[2 * i] - round(ar * sr - ai * si));
      pi = round(b[2 * i + 1] - round(ar * si + ai * sr));
    }
    const sc = Math.max(Math.abs(pr), Math.abs(pi));
    const qr = pr / sc,
      qi = pi / sc;
    const q2 = qr * qr + qi * qi;
    const den = sc * q2;
    if (!(sc * Math.sqrt(q2) >= tiny && sc < Infinity)) status |= S.ZERO_PIVOT;
    if (i < n - 1) {
      const cr = c[2 * i],
        ci = c[2 * i + 1];
      scratch[2 * i] = round((cr * qr + ci * qi) / den);
      scratch[2 * i + 1] = round((ci * qr - cr * qi) / den);
    } else {
      scratch[2 * i] = 0;
      scratch[2 * i + 1] = 0;
    }
    let ur = d[2 * i],
      ui = d[2 * i + 1];
    if (i > 0) {
      const ar = a[2 * i],
        ai = a[2 * i + 1];
      const xr = x[2 * i - 2],
        xi = x[2 * i - 1];
      ur = round(ur - round(ar * xr - ai * xi));
      ui = round(ui - round(ar * xi + ai * xr));
    }
    x[2 * i] = round((ur * qr + ui * qi) / den);
    x[2 * i + 1] = round((ui * qr - ur * qi) / den);
  }
  for (let i = n - 2; i >= 0; i--) {
    const sr = scratch[2 * i],
      si = scratch[2 * i + 1];
    const xr = x[2 * i + 2],
      xi = x[2 * i + 3];
    x[2 * i] = round(x[2 * i] - round(sr * xr - si * xi));
    x[2 * i + 1] = round(x[2 * i + 1] - round(sr * xi + si * xr));
  }
  for (let i = 0; i < 2 * n; i++)
    if (!Number.isFinite(x[i])) {
      status |= S.NON_FINITE;
      break;
    }
  return status;
}

/** Residual ‖Ax − d‖ / ‖d‖ of one contiguous system (real, or complex when `complex`), in float64. */
export function tridiagonalResidual(a: Arr, b: Arr, c: Arr, d: Arr, x: Arr, n: number, complex = false): number {
  let num = 0,
    den = 0;
  if (!complex) {
    for (let i = 0; i < n; i++) {
      let r = b[i] * x[i] - d[i];
      if (i > 0) r += a[i] * x[i - 1];
      if (i < n - 1) r += c[i] * x[i + 1];
      num += r * r;
      den += d[i] * d[i];
    }
  } else {
    for (let i = 0; i < n; i++) {
      let rr = b[2 * i] * x[2 * i] - b[2 * i + 1] * x[2 * i + 1] - d[2 * i];
      let ri = b[2 * i] * x[2 * i + 1] + b[2 * i + 1] * x[2 * i] - d[2 * i + 1];
      if (i > 0) {
        rr += a[2 * i] * x[2 * i - 2] - a[2 * i + 1] * x[2 * i - 1];
        ri += a[2 * i] * x[2 * i - 1] + a[2 * i + 1] * x[2 * i - 2];
      }
      if (i < n - 1) {
        rr += c[2 * i] * x[2 * i + 2] - c[2 * i + 1] * x[2 * i + 3];
        ri += c[2 * i] * x[2 * i + 3] + c[2 * i + 1] * x[2 * i + 2];
      }
      num += rr * rr + ri * ri;
      den += d[2 * i] ** 2 + d[2 * i + 1] ** 2;
    }
  }
  if (!Number.isFinite(num)) return Infinity;
  return den === 0 ? (num === 0 ? 0 : Infinity) : Math.sqrt(num / den);
}

/**
 * The scalar arithmetic the generic CPU solvers (Wang & Mou, LU with pivoting) are written against, so
 * that one implementation serves float64, float32 (every operation rounded with Math.fround, as on the
 * GPU) and complex numbers of either.
 */
export interface Field<T> {
  readonly complex: boolean;
  zero(): T;
  one(): T;
  add(x: T, y: T): T;
  sub(x: T, y: T): T;
  mul(x: T, y: T): T;
  div(x: T, y: T): T;
  neg(x: T): T;
  /** |x| (for complex the modulus); used for pivot tests and dominance checks. */
  abs(x: T): number;
  /** |re| + |im| for complex (LAPACK's CABS1, used to choose pivots); |x| for real. */
  abs1(x: T): number;
  isFinite(x: T): boolean;
  /** Element i of an array in this field's storage (complex: interleaved pairs). */
  load(arr: Arr, i: number): T;
  store(arr: Arr, i: number, v: T): void;
  /** Smallest pivot magnitude treated as non-zero. */
  tiny: number;
}

export type Complex = readonly [number, number];

export function realField(round: (v: number) => number = id): Field<number> {
  return {
    complex: false,
    zero: () => 0,
    one: () => 1,
    add: (x, y) => round(x + y),
    sub: (x, y) => round(x - y),
    mul: (x, y) => round(x * y),
    div: (x, y) => round(x / y),
    neg: (x) => -x,
    abs: Math.abs,
    abs1: Math.abs,
    isFinite: Number.isFinite,
    load: (arr, i) => arr[i],
    store: (arr, i, v) => {
      arr[i] = v;
    },
    tiny: tinyPivot(round),
  };
}

export function complexField(round: (v: number) => number = id): Field<Complex> {
  return {
    complex: true,
    zero: () => [0, 0],
    one: () => [1, 0],
    add: (x, y) => [round(x[0] + y[0]), round(x[1] + y[1])],
    sub: (x, y) => [round(x[0] - y[0]), round(x[1] - y[1])],
    mul: (x, y) => [round(x[0] * y[0] - x[1] * y[1]), round(x[0] * y[1] + x[1] * y[0])],
    div: (x, y) => {
      // Scaled by the larger part of y, as thomasComplex: |y|² alone over- or underflows for |y| from 1.3e154.
      const sc = Math.max(Math.abs(y[0]), Math.abs(y[1]));
      const yr = y[0] / sc,
        yi = y[1] / sc;
      const den = sc * (yr * yr + yi * yi);
      return [round((x[0] * yr + x[1] * yi) / den), round((x[1] * yr - x[0] * yi) / den)];
    },
    neg: (x) => [-x[0], -x[1]],
    abs: (x) => Math.hypot(x[0], x[1]),
    abs1: (x) => Math.abs(x[0]) + Math.abs(x[1]),
    isFinite: (x) => Number.isFinite(x[0]) && Number.isFinite(x[1]),
    load: (arr, i) => [arr[2 * i], arr[2 * i + 1]],
    store: (arr, i, v) => {
      arr[2 * i] = v[0];
      arr[2 * i + 1] = v[1];
    },
    tiny: tinyPivot(round),
  };
}
