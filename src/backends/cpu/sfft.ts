/**
 * Float64 executor of sparse FFT recipes (src/planner/sfft.ts): the reference the WebGPU kernels are
 * checked against, and the fallback where no adapter exists. Step for step the same algorithm as the GPU
 * (same loops, same σ/τ, same filters, same selection rules), so results agree up to f32 rounding.
 */
import { planCpuFft } from './fft-plan.js';
import { refineLargest, REFINE } from './sfft-refine.js';
import {
  bucketOffset,
  homeBucket,
  mulMod,
  type SfftExactRecipe,
  type SfftFilter,
  type SfftLoop,
  type SfftRecipe,
  type SfftRobustRecipe,
} from '../../planner/sfft.js';
import { buildSfftFilter } from './sfft-filter.js';

export type SignalArray = Float32Array | Float64Array;

/** Coefficients found by a path: frequencies (unsorted) and interleaved complex values. */
export interface SfftCoefficients {
  frequencies: Uint32Array;
  values: Float64Array;
}

export interface SfftPathResult extends SfftCoefficients {
  /** Robust: located frequencies before the top-k cut; exact: decoded entries, duplicates included. */
  candidates: number;
  /** A fixed-size list filled up (GPU capacities; never on the CPU): the result may be incomplete. */
  overflow: boolean;
}

const TWO_PI = 2 * Math.PI;

/** e^{2πi·(a·b mod n)/n} as [cos, sin], with the product reduced exactly. */
function phase(a: number, b: number, n: number): [number, number] {
  const ang = (TWO_PI * mulMod(a, b, n - 1)) / n;
  return [Math.cos(ang), Math.sin(ang)];
}

/**
 * Permutation + filter + aliasing + B-point FFT of one loop: returns U (interleaved, length 2B).
 * `x` is interleaved complex, or real samples when `real`.
 */
export function hashToBins(
  x: SignalArray,
  real: boolean,
  n: number,
  loop: SfftLoop,
  filter: SfftFilter,
  tau = loop.tau,
): Float64Array {
  const B = loop.B;
  const u = new Float64Array(2 * B);
  const { W, time } = filter;
  const half = W / 2;
  const mask = n - 1;
  const sigma = loop.sigma | 0;
  for (let i = 0; i < W; i++) {
    const g = time[i];
    if (g === 0) continue;
    const idx = (Math.imul(sigma, i - half) + tau) & mask;
    const j = i & (B - 1);
    if (real) u[2 * j] += x[idx] * g;
    else {
      u[2 * j] += x[2 * idx] * g;
      u[2 * j + 1] += x[2 * idx + 1] * g;
    }
  }
  planCpuFft(B).transformInPlace(u, 0, false);
  return u;
}

/** The `count`-th largest value of `a` (count ≥ 1), by sorting a copy. */
export function nthLargest(a: Float64Array, count: number): number {
  const s = Float64Array.from(a).sort();
  return s[Math.max(0, s.length - Math.min(count, s.length))];
}

/**
 * Robust sparse FFT (sFFT 1.0): location loops keep their `kept` largest buckets; a frequency is located
 * when its home bucket is kept in at least `votes` location loops (enumerated once: from the first loop
 * keeping it, so no n-sized score array is needed); each located frequency is estimated by the median,
 * real and imaginary parts separately, over all loops of U_h·e^{−2πi f τ/n}/H(d); the k largest are kept.
 */
export function robustSfftCpu(x: SignalArray, recipe: SfftRecipe): SfftPathResult {
  const r = recipe.robust as SfftRobustRecipe;
  const { n } = recipe;
  const fLoc = buildSfftFilter(r.filterLoc);
  const fEst = buildSfftFilter(r.filterEst);
  const U = r.loops.map((l) => hashToBins(x, recipe.real, n, l, l.filter === 'loc' ? fLoc : fEst));
  const B = r.bLoc;
  const kept: Uint8Array[] = [];
  const lists: number[][] = [];
  for (let l = 0; l < r.locLoops; l++) {
    const mag = new Float64Array(B);
    for (let h = 0; h < B; h++) mag[h] = U[l][2 * h] ** 2 + U[l][2 * h + 1] ** 2;
    const cutoff = nthLargest(mag, r.kept);
    const flags = new Uint8Array(B);
    const list: number[] = [];
    // Ties at the cutoff could keep more than `kept`; the GPU keeps the first ones too.
    for (let h = 0; h < B && list.length < r.kept; h++) {
      if (mag[h] >= cutoff && mag[h] > 0) {
        flags[h] = 1;
        list.push(h);
      }
    }
    kept.push(flags);
    lists.push(list);
  }
  const hits: number[] = [];
  const width = n / B;
  const halfWidth = width / 2;
  for (let l = 0; l < r.locLoops; l++) {
    const loop = r.loops[l];
    for (const h of lists[l]) {
      for (let c = 0; c < width; c++) {
        const g = (h * width - halfWidth + c) & (n - 1);
        const f = mulMod(loop.sigmaInv, g, n - 1);
        let votes = 0;
        let first = -1;
        for (let q = 0; q < r.locLoops; q++) {
          if (kept[q][homeBucket(mulMod(r.loops[q].sigma, f, n - 1), n, B)]) {
            votes++;
            if (first < 0) first = q;
          }
        }
        if (first === l && votes >= r.votes) hits.push(f);
      }
    }
  }
  const L = r.loops.length;
  const re = new Float64Array(L);
  const im = new Float64Array(L);
  const values = new Float64Array(2 * hits.length);
  hits.forEach((f, i) => {
    for (let l = 0; l < L; l++) {
      const loop = r.loops[l];
      const filt = loop.filter === 'loc' ? fLoc : fEst;
      const [ur, ui] = estimateFromBucket(U[l], f, loop, filt, n, loop.tau);
      re[l] = ur;
      im[l] = ui;
    }
    values[2 * i] = median(re);
    values[2 * i + 1] = median(im);
  });
  const filters = r.loops.map((l) => (l.filter === 'loc' ? fLoc : fEst));
  const refined = refineLargest({
    n,
    U,
    loops: r.loops,
    filters,
    frequencies: Uint32Array.from(hits),
    values,
    ...REFINE(recipe.k),
  });
  const top = topK(refined.frequencies, refined.values, recipe.k);
  return { ...top, candidates: hits.length, overflow: false };
}

/** X_f as seen by one loop: U_h·e^{−2πi f τ/n}/H(d) with h the home bucket of σ f. */
function estimateFromBucket(
  U: Float64Array,
  f: number,
  loop: SfftLoop,
  filt: SfftFilter,
  n: number,
  tau: number,
): [number, number] {
  const g = mulMod(loop.sigma, f, n - 1);
  const h = homeBucket(g, n, loop.B);
  const d = bucketOffset(h, g, n, loop.B);
  const hv = filt.freq[d + filt.D];
  const [c, s] = phase(f, tau, n);
  const ur = U[2 * h];
  const ui = U[2 * h + 1];
  // (ur + i ui)(c − i s)/H
  return [(ur * c + ui * s) / hv, (ui * c - ur * s) / hv];
}

export function median(a: Float64Array): number {
  const s = Float64Array.from(a).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** The `k` entries of largest magnitude (ties: lower index first). */
export function topK(freqs: Uint32Array, values: Float64Array, k: number): SfftCoefficients {
  const order = Array.from(freqs.keys());
  const mag = (i: number) => values[2 * i] ** 2 + values[2 * i + 1] ** 2;
  order.sort((a, b) => mag(b) - mag(a) || a - b);
  const keep = order.slice(0, k);
  const out = { frequencies: new Uint32Array(keep.length), values: new Float64Array(2 * keep.length) };
  keep.forEach((i, j) => {
    out.frequencies[j] = freqs[i];
    out.values[2 * j] = values[2 * i];
    out.values[2 * j + 1] = values[2 * i + 1];
  });
  return out;
}

/**
 * Subtracts the contributions of known coefficients from one loop's buckets (sFFT 3.0's "subtract found
 * coefficients from the bucket values"): coefficient f adds X_f e^{2πi f τ/n} H(h n/B − σ f) to every
 * bucket h within the filter's reach D of σ f.
 */
export function subtractKnown(
  U: Float64Array,
  coeffs: SfftCoefficients,
  loop: SfftLoop,
  filt: SfftFilter,
  n: number,
  tau: number,
): void {
  const B = loop.B;
  const width = n / B;
  const reach = Math.ceil(filt.D / width);
  for (let i = 0; i < coeffs.frequencies.length; i++) {
    const f = coeffs.frequencies[i];
    const xr = coeffs.values[2 * i];
    const xi = coeffs.values[2 * i + 1];
    const g = mulMod(loop.sigma, f, n - 1);
    const h0 = homeBucket(g, n, B);
    const [c, s] = phase(f, tau, n);
    const pr = xr * c - xi * s;
    const pi = xr * s + xi * c;
    for (let j = -reach; j <= reach; j++) {
      const h = (h0 + j + B) & (B - 1);
      const d = bucketOffset(h, g, n, B);
      if (d < -filt.D || d > filt.D) continue;
      const hv = filt.freq[d + filt.D];
      U[2 * h] -= pr * hv;
      U[2 * h + 1] -= pi * hv;
    }
  }
}

function energy(U: Float64Array): number {
  let e = 0;
  for (let i = 0; i < U.length; i++) e += U[i] * U[i];
  return e;
}

/**
 * Exact-sparse path (sFFT 3.0 style), staged so that the GPU runs it as a short chain of dispatches.
 * Every round hashes twice, with offsets τ and τ + σ·Δ (Δ = B/4 in permuted time); all rounds are
 * hashed up front (independent permutations). A bucket holding one frequency is decoded from the ratio
 * of its two hashings, e^{2πi g Δ/n} = e^{2πi (h/4 − d B/(4n))}, which gives the offset d of g = σ f inside
 * bucket h unambiguously for |d| < 2n/B. (sFFT 3.0 uses offsets 0 and 1, whose phase must resolve 2π/n —
 * 5e-8 rad at n = 2^27, beyond f32; Δ = B/4 needs only 2π·B/(4n).) A bucket counts as a singleton when
 * both hashings have equal magnitude, the phase gives an integer offset, g's home bucket is h, and the
 * second hashing matches the decoded coefficient within `singletonTolerance` (see exactDecode).
 *
 * Stage 0 decodes the singleton buckets of ALL rounds at once. A frequency decoded in several rounds is
 * kept once, from its lowest round (the "representative"). Each further stage subtracts the previous
 * stage's representatives from every round's buckets (peeling) and decodes all rounds again: frequencies
 * that collided in every round of stage 0 are alone now, a decode accepted with interference just under
 * the tolerance comes back as a small correction, and a wrong decode (a collision passing the tests)
 * comes back with the opposite sign; entries of one frequency are summed when merged. Finally the last
 * stage's representatives are subtracted too and each entry is corrected by the median (real and
 * imaginary parts separately) of its residual over both hashings of all rounds.
 */
export function exactSfftCpu(x: SignalArray, recipe: SfftRecipe): SfftPathResult {
  const e = recipe.exact as SfftExactRecipe;
  const { n } = recipe;
  const filt = buildSfftFilter(e.filter);
  const B = e.B;
  const R = e.rounds;
  const tau2 = e.loops.map((l) => exactTau2(l, e.delta, n));
  const U = e.loops.map((l) => hashToBins(x, recipe.real, n, l, filt));
  const V = e.loops.map((l, r) => hashToBins(x, recipe.real, n, l, filt, tau2[r]));
  const thr2 = (e.threshold * e.threshold * energy(U[0])) / B;
  const F: number[] = [];
  const Vals: number[] = [];
  let previous: SfftCoefficients = { frequencies: new Uint32Array(0), values: new Float64Array(0) };
  const subtractAll = (c: SfftCoefficients) => {
    for (let r = 0; r < R; r++) {
      subtractKnown(U[r], c, e.loops[r], filt, n, e.loops[r].tau);
      subtractKnown(V[r], c, e.loops[r], filt, n, tau2[r]);
    }
  };
  for (let stage = 0; stage <= e.stages; stage++) {
    subtractAll(previous);
    // Stage 0 decodes without the threshold: nothing has been subtracted yet, so no bucket holds the f32
    // remainder of a subtraction, and the GPU knows the signal's bucket energy only after this stage.
    const floor2 = stage === 0 ? 0 : thr2;
    const seen = new Set<number>();
    const sf: number[] = [];
    const sv: number[] = [];
    for (let r = 0; r < R; r++) {
      for (let h = 0; h < B; h++) {
        const dec = exactDecode(U[r], V[r], h, e.loops[r], filt, n, B, tau2[r], floor2, e.singletonTolerance);
        if (!dec || seen.has(dec[0])) continue;
        seen.add(dec[0]);
        sf.push(dec[0]);
        sv.push(dec[1], dec[2]);
      }
    }
    F.push(...sf);
    Vals.push(...sv);
    previous = { frequencies: Uint32Array.from(sf), values: Float64Array.from(sv) };
  }
  subtractAll(previous);
  const corr = new Float64Array(2 * F.length);
  const re = new Float64Array(2 * R);
  const im = new Float64Array(2 * R);
  for (let i = 0; i < F.length; i++) {
    for (let r = 0; r < R; r++) {
      [re[2 * r], im[2 * r]] = estimateFromBucket(U[r], F[i], e.loops[r], filt, n, e.loops[r].tau);
      [re[2 * r + 1], im[2 * r + 1]] = estimateFromBucket(V[r], F[i], e.loops[r], filt, n, tau2[r]);
    }
    corr[2 * i] = median(re);
    corr[2 * i + 1] = median(im);
  }
  const merged = mergeCoefficients(Uint32Array.from(F), Float64Array.from(Vals), thr2, corr);
  return { ...topK(merged.frequencies, merged.values, recipe.k), candidates: F.length, overflow: false };
}

/** Offset of the exact path's second hashing: τ + σ·Δ. */
export function exactTau2(loop: SfftLoop, delta: number, n: number): number {
  return (loop.tau + mulMod(loop.sigma, delta, n - 1)) & (n - 1);
}

/** The decoding rule of one bucket (shared with the WGSL kernel, see codegen/sfft-kernels.ts). */
export function exactDecode(
  U: Float64Array,
  V: Float64Array,
  h: number,
  loop: SfftLoop,
  filt: SfftFilter,
  n: number,
  B: number,
  tau2: number,
  thr2: number,
  tol: number,
): [number, number, number] | null {
  const ar = U[2 * h];
  const ai = U[2 * h + 1];
  const br = V[2 * h];
  const bi = V[2 * h + 1];
  const a2 = ar * ar + ai * ai;
  if (!(a2 > thr2)) return null;
  const b2 = br * br + bi * bi;
  if (Math.abs(b2 - a2) > 2 * tol * a2) return null;
  // b·conj(a) = |a|² e^{iθ}
  const theta = Math.atan2(bi * ar - br * ai, br * ar + bi * ai);
  let q = (h & 3) / 4 - theta / TWO_PI;
  q -= Math.round(q);
  const dReal = (q * 4 * n) / B;
  const d = Math.round(dReal);
  if (Math.abs(dReal - d) > 0.25) return null;
  const g = (h * (n / B) - d) & (n - 1);
  if (homeBucket(g, n, B) !== h) return null;
  const f = mulMod(loop.sigmaInv, g, n - 1);
  const hv = filt.freq[d + filt.D];
  const [c, s] = phase(f, loop.tau, n);
  const xr = (ar * c + ai * s) / hv;
  const xi = (ai * c - ar * s) / hv;
  const [c2, s2] = phase(f, tau2, n);
  const pr = (xr * c2 - xi * s2) * hv - br;
  const pi = (xr * s2 + xi * c2) * hv - bi;
  if (pr * pr + pi * pi > tol * tol * a2) return null;
  return [f, xr, xi];
}

/** Sums duplicate entries per frequency (adding the first entry's correction once) and drops those whose magnitude² is at most `floor2`. */
export function mergeCoefficients(
  freqs: Uint32Array,
  values: Float64Array,
  floor2: number,
  corrections?: Float64Array,
): SfftCoefficients {
  const acc = new Map<number, [number, number]>();
  for (let i = 0; i < freqs.length; i++) {
    const v = acc.get(freqs[i]);
    if (v) {
      v[0] += values[2 * i];
      v[1] += values[2 * i + 1];
    } else {
      const c = corrections ? [corrections[2 * i], corrections[2 * i + 1]] : [0, 0];
      acc.set(freqs[i], [values[2 * i] + c[0], values[2 * i + 1] + c[1]]);
    }
  }
  const keep = [...acc].filter(([, v]) => v[0] * v[0] + v[1] * v[1] > floor2);
  return {
    frequencies: Uint32Array.from(keep.map(([f]) => f)),
    values: Float64Array.from(keep.flatMap(([, v]) => v)),
  };
}

/** What the verification hashing measured: bucket energies before and after subtracting the result. */
export interface SfftResidual {
  before: number;
  after: number;
  /** Largest residual bucket energy. */
  peak: number;
  /** Median residual bucket energy (the noise floor: for complex Gaussian noise, ln 2 times its mean). */
  median: number;
}

/** Peak and median of the residual bucket energies (interleaved complex buckets). */
export function residualStats(R: ArrayLike<number>, B: number): { peak: number; median: number } {
  const e = new Float64Array(B);
  for (let h = 0; h < B; h++) e[h] = R[2 * h] ** 2 + R[2 * h + 1] ** 2;
  e.sort();
  return { peak: e[B - 1], median: B % 2 ? e[B >> 1] : 0.5 * (e[B / 2 - 1] + e[B / 2]) };
}

/**
 * Verification: hash with a fresh permutation, subtract the result, and compare bucket energies. The
 * ratio estimates the fraction of the signal's energy that the returned coefficients do not explain
 * (noise, or frequencies beyond the k returned): ~1e-12 for exactly sparse signals, 1/(1 + SNR) for
 * noisy ones, near 1 for signals that are not sparse. The largest residual bucket against the median one
 * shows a single missed or misestimated frequency far below that total (see the status rules in api/sfft.ts).
 */
export function residualCpu(
  x: SignalArray,
  recipe: SfftRecipe,
  path: 'exact' | 'robust',
  coeffs: SfftCoefficients,
): SfftResidual {
  const loop = path === 'exact' ? recipe.exact!.verify : recipe.robust!.verify;
  const filt = buildSfftFilter(path === 'exact' ? recipe.exact!.filter : recipe.robust!.filterEst);
  const U = hashToBins(x, recipe.real, recipe.n, loop, filt);
  const before = energy(U);
  subtractKnown(U, coeffs, loop, filt, recipe.n, loop.tau);
  return { before, after: energy(U), ...residualStats(U, loop.B) };
}
