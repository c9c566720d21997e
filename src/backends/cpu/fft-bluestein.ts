/**
 * Bluestein (chirp-z) FFT: a length-N DFT as a circular convolution of length M ≥ 2N−1, so lengths with
 * a large prime factor cost O(M log M) instead of O(N·p).
 *
 * With i·k = (i² + k² − (k−i)²)/2 and c_m = e^{iπ·m²/N}:
 *   X_k = conj(c_k) · Σ_i (x_i·conj(c_i)) · c_{k−i}   (forward),
 * i.e. pre-multiply by conj(c), convolve with c (wrapped into length M), post-multiply by conj(c).
 * The inverse is conj(forward(conj(x))), which we use instead of a second chirp table.
 *
 * Accuracy: m² is reduced mod 2N exactly (incrementally, m² − (m−1)² = 2m − 1) before the angle is formed,
 * so the chirp is as accurate for N = 10^6 as for N = 10; otherwise π·m²/N loses ~log10(N²) digits.
 */
import { ArgumentError } from '../../errors.js';
import { unitRoot } from './dft-naive.js';
import {
  checkLength,
  executeBatched,
  planMixedRadix,
  type CpuFftExecOptions,
  type CpuFftPlan,
  type CpuFftRecipe,
} from './fft-mixed-radix.js';

/**
 * Inner length for Bluestein: the smallest 2^a·3^b ≥ 2N − 1. Radix 2/4/8 and 3 are our cheapest
 * butterflies; allowing 5 would sometimes save ~10% of length but costs more per point.
 */
export function bluesteinInnerLength(n: number): number {
  const need = 2 * n - 1;
  let best = Infinity;
  for (let p3 = 1; p3 < 2 * need; p3 *= 3) {
    let v = p3;
    while (v < need) v *= 2;
    if (v < best) best = v;
  }
  return best;
}

export class BluesteinFft implements CpuFftPlan {
  readonly recipe: CpuFftRecipe;
  readonly innerN: number;
  /** conj(c_m) = e^{−iπm²/N}, m = 0..N−1. */
  private readonly chirp: Float64Array;
  /** FFT_M of the wrapped chirp c, pre-scaled by 1/M so the inverse inner FFT needs no extra pass. */
  private readonly kernel: Float64Array;
  private readonly work: Float64Array;
  private readonly inner: CpuFftPlan;

  constructor(
    readonly n: number,
    inner?: CpuFftPlan,
  ) {
    checkLength(n);
    const m = inner?.n ?? bluesteinInnerLength(n);
    if (m < 2 * n - 1) throw new ArgumentError('inner', m, `an inner FFT of length ≥ 2N − 1 = ${2 * n - 1}`);
    this.innerN = m;
    this.inner = inner ?? planMixedRadix(m);
    // The reference's Bluestein always wraps a reference plan.
    this.recipe = { kind: 'bluestein', n, innerN: m, inner: this.inner.recipe as CpuFftRecipe };
    const chirp = new Float64Array(2 * n);
    let sq = 0; // m² mod 2N
    for (let i = 0; i < n; i++) {
      if (i > 0) sq = (sq + 2 * i - 1) % (2 * n);
      const [c, s] = unitRoot(sq, 2 * n);
      chirp[2 * i] = c;
      chirp[2 * i + 1] = -s;
    }
    this.chirp = chirp;
    const k = new Float64Array(2 * m);
    // b_j = c_j for j = 0..N−1 and b_{M−j} = c_j: the convolution index k − i runs over −(N−1)..N−1.
    for (let i = 0; i < n; i++) {
      const re = chirp[2 * i],
        im = -chirp[2 * i + 1];
      k[2 * i] = re;
      k[2 * i + 1] = im;
      if (i > 0) {
        k[2 * (m - i)] = re;
        k[2 * (m - i) + 1] = im;
      }
    }
    this.inner.transformInPlace(k, 0, false, 1 / m);
    this.kernel = k;
    this.work = new Float64Array(2 * m);
  }

  transformInPlace(data: Float64Array, offset: number, inverse: boolean, scale = 1): void {
    const n = this.n,
      m = this.innerN;
    const w = this.work,
      ch = this.chirp,
      kk = this.kernel;
    const base = 2 * offset;
    // Inverse via conjugation: conj(F(conj x)). `cs` flips the sign of the input's imaginary part.
    const cs = inverse ? -1 : 1;
    for (let i = 0; i < n; i++) {
      const xr = data[base + 2 * i]!,
        xi = cs * data[base + 2 * i + 1]!;
      const cr = ch[2 * i]!,
        ci = ch[2 * i + 1]!;
      w[2 * i] = xr * cr - xi * ci;
      w[2 * i + 1] = xr * ci + xi * cr;
    }
    w.fill(0, 2 * n);
    this.inner.transformInPlace(w, 0, false);
    for (let j = 0; j < m; j++) {
      const ar = w[2 * j]!,
        ai = w[2 * j + 1]!,
        br = kk[2 * j]!,
        bi = kk[2 * j + 1]!;
      w[2 * j] = ar * br - ai * bi;
      w[2 * j + 1] = ar * bi + ai * br;
    }
    this.inner.transformInPlace(w, 0, true);
    for (let i = 0; i < n; i++) {
      const yr = w[2 * i]!,
        yi = w[2 * i + 1]!;
      const cr = ch[2 * i]!,
        ci = ch[2 * i + 1]!;
      data[base + 2 * i] = scale * (yr * cr - yi * ci);
      data[base + 2 * i + 1] = cs * scale * (yr * ci + yi * cr);
    }
  }

  execute(
    input: Float64Array | Float32Array,
    output: Float64Array | Float32Array,
    options: CpuFftExecOptions = {},
  ): void {
    executeBatched(this, input, output, options);
  }
}
