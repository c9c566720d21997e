/**
 * The sparse FFT's flat-window filters, built at plan time on the CPU (the window's coefficients come from
 * an inverse DFT of its response samples, run by the float64 CPU FFT). Shared by the CPU and WebGPU paths.
 */
import { planCpuFft } from './fft-plan.js';
import { sfftFilterLengths, type SfftFilter, type SfftFilterSpec } from '../../planner/sfft.js';

/** Chebyshev polynomial T_m(x) for any real x (m even or odd). */
function chebT(m: number, x: number): number {
  if (Math.abs(x) <= 1) return Math.cos(m * Math.acos(x));
  const v = Math.cosh(m * Math.acosh(Math.abs(x)));
  return x > 0 || m % 2 === 0 ? v : -v;
}

const filterCache = new Map<string, SfftFilter>();

/**
 * Builds the flat window. The Dolph–Chebyshev window of odd length w = m + 1 is defined by its frequency
 * response Ŵ(ω) = tol·T_m(x0 cos(ω/2)), x0 = cosh(acosh(1/tol)/m): a trigonometric polynomial of degree
 * m/2, so its w time coefficients are exactly the w-point inverse DFT of w samples, and its response at
 * ANY frequency is known in closed form — which spares the reference implementation's n-point FFT of the
 * filter (O(n log n) at plan time, too much for n = 2^27). Multiplying by the Dirichlet kernel
 * S_t = sin(π b t/n)/sin(π t/n) convolves the response with a boxcar of b bins:
 *     Ĝ(d) = Σ_{|e| ≤ (b−1)/2} Ŵ(2π(d − e)/n),
 * computed from prefix sums of Ŵ on the integer grid. Main-lobe half-width: n·acos(1/x0)/π ≈ n/(2B) bins
 * for w = (2B/π)·acosh(1/tol) (the reference's lobefrac = 0.5/B).
 */
export function buildSfftFilter(spec: SfftFilterSpec): SfftFilter {
  const key = `${spec.n}/${spec.B}/${spec.tolerance}/${spec.boxcar}`;
  const hit = filterCache.get(key);
  if (hit) return hit;
  const { n, tolerance: tol, boxcar: b } = spec;
  const acoshInv = Math.acosh(1 / tol);
  const { chebLength, W } = sfftFilterLengths(spec);
  const m = chebLength - 1;
  const x0 = Math.cosh(acoshInv / m);
  const resp = (omega: number) => tol * chebT(m, x0 * Math.cos(omega / 2));
  // Time coefficients of the Chebyshev window: w-point inverse DFT of its response samples.
  const w = chebLength;
  const samples = new Float64Array(2 * w);
  for (let j = 0; j < w; j++) samples[2 * j] = resp((2 * Math.PI * j) / w);
  planCpuFft(w).transformInPlace(samples, 0, true, 1 / w);
  const half = W / 2;
  // Response of the product at integer offsets, from prefix sums of Ŵ.
  const lobe = Math.ceil((n * Math.acos(1 / x0)) / Math.PI);
  const hb = (b - 1) / 2;
  const D = Math.min(n / 2, hb + lobe + 1);
  const E = D + hb + 1;
  const prefix = new Float64Array(2 * E + 2);
  for (let e = -E; e <= E; e++) prefix[e + E + 1] = prefix[e + E] + resp((2 * Math.PI * e) / n);
  const G = (d: number) => prefix[d + hb + E + 1] - prefix[d - hb + E];
  const g0 = G(0);
  const freq = new Float64Array(2 * D + 1);
  for (let d = -D; d <= D; d++) freq[d + D] = G(d) / g0;
  // G'_t = W_t·S_t·n/Ĝ(0), so that U_h = Σ_f X_f e^{2πi f τ/n} H(h n/B − σ f) with H(0) = 1.
  const time = new Float64Array(W);
  const scale = n / g0;
  for (let t = -m / 2; t <= m / 2; t++) {
    const wt = samples[2 * (((t % w) + w) % w)];
    const st = t === 0 ? b : Math.sin((Math.PI * b * t) / n) / Math.sin((Math.PI * t) / n);
    time[t + half] = wt * st * scale;
  }
  const f: SfftFilter = { ...spec, chebLength, W, time, D, freq };
  filterCache.set(key, f);
  return f;
}
