/**
 * O(N²) float64 DFT: the independent reference every fast transform in this library is tested against.
 * It shares no code with the FFTs except `unitRoot`, which is small enough to check by eye.
 */

import { unitRoot } from '../../core/unit-root.js';

export { unitRoot };

/** Table of e^{sign·2πi·m/n}, m = 0..n−1, interleaved (re, im). */
export function unitRootTable(n: number, sign: 1 | -1): Float64Array {
  const t = new Float64Array(2 * n);
  for (let m = 0; m < n; m++) {
    const [c, s] = unitRoot(m, n);
    t[2 * m] = c;
    t[2 * m + 1] = sign * s;
  }
  return t;
}

/**
 * Naive DFT of one interleaved complex vector of length n = x.length / 2.
 * forward: y_k = Σ x_i e^{−2πi·ik/n}; inverse: e^{+2πi·ik/n} and 1/n (numpy's 'backward' norm).
 * The index i·k is reduced mod n incrementally so no angle is ever large (accurate twiddles) and no
 * product overflows. Accumulation is plain float64 summation (error ~ √n·ε on random data).
 */
export function dftNaive(x: ArrayLike<number>, inverse = false): Float64Array {
  if (x.length % 2 !== 0) throw new Error(`dftNaive: interleaved complex input needs an even length, got ${x.length}`);
  const n = x.length / 2;
  const y = new Float64Array(2 * n);
  if (n === 0) return y;
  const w = unitRootTable(n, inverse ? 1 : -1);
  for (let k = 0; k < n; k++) {
    let re = 0;
    let im = 0;
    let idx = 0; // (i·k) mod n
    for (let i = 0; i < n; i++) {
      const wr = w[2 * idx];
      const wi = w[2 * idx + 1];
      const xr = x[2 * i];
      const xi = x[2 * i + 1];
      re += xr * wr - xi * wi;
      im += xr * wi + xi * wr;
      idx += k;
      if (idx >= n) idx -= n;
    }
    y[2 * k] = re;
    y[2 * k + 1] = im;
  }
  if (inverse) for (let i = 0; i < 2 * n; i++) y[i] /= n;
  return y;
}

/** Naive DFT of real input: the full complex spectrum (length 2n interleaved). */
export function dftNaiveReal(x: ArrayLike<number>, inverse = false): Float64Array {
  const c = new Float64Array(2 * x.length);
  for (let i = 0; i < x.length; i++) c[2 * i] = x[i];
  return dftNaive(c, inverse);
}
