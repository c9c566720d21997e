/**
 * Twiddle tables W_N^e = e^{−2πi·e/N}, e < N, computed in float64 (angles reduced by symmetry so every
 * entry is correctly rounded to f32) — more accurate than f32 sin/cos on GPUs, whose fast paths lose
 * bits for large arguments.
 */
export function twiddleTable64(n: number): Float64Array {
  const t = new Float64Array(2 * n);
  for (let e = 0; e < n; e++) {
    const [c, s] = unitRoot(e, n);
    t[2 * e] = c;
    t[2 * e + 1] = s;
  }
  return t;
}

export function twiddleTable32(n: number): Float32Array {
  return Float32Array.from(twiddleTable64(n));
}

/** cos and sin of −2π·e/n, evaluated on an argument in [0, π/4] for accuracy. */
export function unitRoot(e: number, n: number): [number, number] {
  e %= n;
  if (e < 0) e += n;
  // Work in eighths of the circle: 8e = q·n + r.
  const e8 = 8 * e;
  const q = Math.floor(e8 / n);
  const rem = e8 - q * n; // in [0, n)
  // angle = 2π e/n = (π/4)(q + rem/n)
  let c: number;
  let s: number;
  if (q % 2 === 0) {
    const a = (Math.PI / 4) * (rem / n);
    c = Math.cos(a);
    s = Math.sin(a);
  } else {
    const a = (Math.PI / 4) * ((n - rem) / n);
    c = Math.sin(a);
    s = Math.cos(a);
  }
  // Rotate (c, s) by (q >> 1) quarter turns: octant pairs map by (c, s) → (−s, c).
  let x = c;
  let y = s;
  for (let k = 0; k < q >> 1; k++) [x, y] = [-y, x];
  return [x, -y];
}

/**
 * Bluestein's chirp w_j = e^{∓iπ j²/m}, j < m (upper sign forward), interleaved, float64. j² is reduced
 * mod 2m incrementally so no angle is ever large, whatever m is.
 */
export function bluesteinChirp(m: number, direction: 'forward' | 'inverse'): Float64Array {
  const sgn = direction === 'forward' ? 1 : -1; // unitRoot gives e^{−2πi·e/n}
  const w = new Float64Array(2 * m);
  let sq = 0; // j² mod 2m
  for (let j = 0; j < m; j++) {
    const [c, s] = unitRoot(sq, 2 * m);
    w[2 * j] = c;
    w[2 * j + 1] = sgn * s;
    sq = (sq + 2 * j + 1) % (2 * m);
  }
  return w;
}

/** The chirp filter b_j = w̄_j at j and L − j (wrapped for a cyclic convolution of length L). */
export function bluesteinFilter(w: Float64Array, m: number, L: number): Float64Array {
  const b = new Float64Array(2 * L);
  for (let j = 0; j < m; j++) {
    b[2 * j] = w[2 * j];
    b[2 * j + 1] = -w[2 * j + 1];
    if (j > 0) {
      b[2 * (L - j)] = w[2 * j];
      b[2 * (L - j) + 1] = -w[2 * j + 1];
    }
  }
  return b;
}
