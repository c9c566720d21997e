/**
 * O(N²) float64 reference definitions of DCT 1–4, DST 1–4 and the DHT, written straight from scipy's
 * documented formulas (and the cas definition for the DHT), sharing no code with the fast adapters
 * except `unitRoot`. Angles are formed from exact integer phases reduced mod the period, so the
 * references are accurate to ~ε·√N. For tests.
 */
import { unitRoot } from './dft-naive.js';

export type DirectNorm = 'backward' | 'ortho' | 'forward';

export interface DirectOptions {
  norm?: DirectNorm;
  /** scipy's orthogonalize; default norm === 'ortho'. */
  orthogonalize?: boolean;
  /** The inverse transform (scipy's idct/idst: the inverse type with inverse scaling). */
  inverse?: boolean;
}

/** cos (which = 0) or sin (which = 1) of 2π·m/P for m = 0..P−1. */
function table(p: number, which: 0 | 1): Float64Array {
  const t = new Float64Array(p);
  for (let m = 0; m < p; m++) t[m] = unitRoot(m, p)[which];
  return t;
}

/** y_k = Σ_n x_n · T[(a·k + b)(c·n + d) mod P] — all our kernels have this bilinear phase form. */
function bilinear(
  x: ArrayLike<number>,
  p: number,
  t: Float64Array,
  a: number,
  b: number,
  c: number,
  d: number,
): Float64Array {
  const n = x.length;
  const y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const u = (a * k + b) % p;
    let idx = (u * d) % p; // phase for n = 0
    const step = (u * c) % p;
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += x[i]! * t[idx]!;
      idx += step;
      if (idx >= p) idx -= p;
    }
    y[k] = s;
  }
  return y;
}

const INV: Record<number, number> = { 1: 1, 2: 3, 3: 2, 4: 4 };

function scaleOf(norm: DirectNorm, denom: number, inverse: boolean): number {
  if (norm === 'ortho') return 1 / Math.sqrt(denom);
  if (norm === 'backward') return inverse ? 1 / denom : 1;
  return inverse ? 1 : 1 / denom;
}

/** Unnormalised scipy DCT of a type (norm = 'backward', forward direction). */
export function dctDirectRaw(x: ArrayLike<number>, type: number): Float64Array {
  const n = x.length;
  switch (type) {
    case 1: {
      // x_0 + (−1)^k x_{N−1} + 2 Σ_{1..N−2} x_n cos(πkn/(N−1)) = Σ_n w_n x_n cos(2π·kn/(2(N−1))), w = 1 at the ends, 2 inside
      const w = Float64Array.from(x, (v, i) => (i === 0 || i === n - 1 ? v : 2 * v));
      return bilinear(w, 2 * (n - 1), table(2 * (n - 1), 0), 1, 0, 1, 0);
    }
    case 2:
      return bilinear(
        Float64Array.from(x, (v) => 2 * v),
        4 * n,
        table(4 * n, 0),
        1,
        0,
        2,
        1,
      );
    case 3: {
      const w = Float64Array.from(x, (v, i) => (i === 0 ? v : 2 * v));
      return bilinear(w, 4 * n, table(4 * n, 0), 2, 1, 1, 0);
    }
    case 4:
      return bilinear(
        Float64Array.from(x, (v) => 2 * v),
        8 * n,
        table(8 * n, 0),
        2,
        1,
        2,
        1,
      );
    default:
      throw new Error(`dct type ${type}`);
  }
}

/** Unnormalised scipy DST of a type. */
export function dstDirectRaw(x: ArrayLike<number>, type: number): Float64Array {
  const n = x.length;
  switch (type) {
    case 1:
      return bilinear(
        Float64Array.from(x, (v) => 2 * v),
        2 * (n + 1),
        table(2 * (n + 1), 1),
        1,
        1,
        1,
        1,
      );
    case 2:
      return bilinear(
        Float64Array.from(x, (v) => 2 * v),
        4 * n,
        table(4 * n, 1),
        1,
        1,
        2,
        1,
      );
    case 3: {
      // (−1)^k x_{N−1} = x_{N−1}·sin(π(2k+1)N/(2N)), so weight 1 on the last, 2 elsewhere
      const w = Float64Array.from(x, (v, i) => (i === n - 1 ? v : 2 * v));
      return bilinear(w, 4 * n, table(4 * n, 1), 2, 1, 1, 1);
    }
    case 4:
      return bilinear(
        Float64Array.from(x, (v) => 2 * v),
        8 * n,
        table(8 * n, 1),
        2,
        1,
        2,
        1,
      );
    default:
      throw new Error(`dst type ${type}`);
  }
}

/** scipy.fft.dct / idct (inverse: true) by the direct definition. */
export function dctDirect(x: ArrayLike<number>, type: number, o: DirectOptions = {}): Float64Array {
  const n = x.length;
  const norm = o.norm ?? 'backward';
  const orth = o.orthogonalize ?? norm === 'ortho';
  const t = o.inverse ? INV[type]! : type;
  const xin = Float64Array.from(x);
  if (orth && (t === 1 || t === 3)) xin[0]! *= Math.SQRT2;
  if (orth && t === 1) xin[n - 1]! *= Math.SQRT2;
  const y = dctDirectRaw(xin, t);
  if (orth && (t === 1 || t === 2)) y[0]! /= Math.SQRT2;
  if (orth && t === 1) y[n - 1]! /= Math.SQRT2;
  const s = scaleOf(norm, t === 1 ? 2 * (n - 1) : 2 * n, !!o.inverse);
  return y.map((v) => v * s);
}

/** scipy.fft.dst / idst by the direct definition (orthogonalize on the last index, scipy ≥ 1.11). */
export function dstDirect(x: ArrayLike<number>, type: number, o: DirectOptions = {}): Float64Array {
  const n = x.length;
  const norm = o.norm ?? 'backward';
  const orth = o.orthogonalize ?? norm === 'ortho';
  const t = o.inverse ? INV[type]! : type;
  const xin = Float64Array.from(x);
  if (orth && t === 3) xin[n - 1]! *= Math.SQRT2;
  const y = dstDirectRaw(xin, t);
  if (orth && t === 2) y[n - 1]! /= Math.SQRT2;
  const s = scaleOf(norm, t === 1 ? 2 * (n + 1) : 2 * n, !!o.inverse);
  return y.map((v) => v * s);
}

/** Hartley transform by definition: h_k = Σ x_n (cos + sin)(2πnk/N), with numpy-style norm. */
export function dhtDirect(x: ArrayLike<number>, o: { norm?: DirectNorm; inverse?: boolean } = {}): Float64Array {
  const n = x.length;
  const cas = new Float64Array(n);
  for (let m = 0; m < n; m++) {
    const [c, s] = unitRoot(m, n);
    cas[m] = c + s;
  }
  const y = bilinear(x, n, cas, 1, 0, 1, 0);
  const s = scaleOf(o.norm ?? 'backward', n, !!o.inverse);
  return y.map((v) => v * s);
}
