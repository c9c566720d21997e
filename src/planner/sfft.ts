/**
 * Sparse FFT planner: turns (n, k, options) into a plain-data recipe — bucket counts, loop counts, the
 * random spectral permutations and the flat-window filters — shared by the CPU and WebGPU executors, so
 * both run exactly the same algorithm with the same random choices.
 *
 * Notation (as in Hassanieh, Indyk, Katabi, Price, SODA 2012). X = fft(x) (unnormalised). A loop picks an
 * odd σ and an offset τ and reads y_t = x[(σ t + τ) mod n] for t in the filter's support; then frequency f
 * moves to g = σ f mod n with phase e^{2πi f τ/n}. Multiplying by the window G_t and aliasing t mod B gives
 * B samples whose B-point FFT is
 *     U_h = Σ_f X_f e^{2πi f τ/n} H(h·n/B − σ f),
 * H being the window's (real, normalised H(0) = 1) frequency response. Bucket h is the "home" of the
 * permuted frequencies g ∈ [h·n/B − n/2B, h·n/B + n/2B).
 *
 * Because n = 2^m, σ t + τ can be computed with wrapping 32-bit integer arithmetic (the GPU has no 64-bit
 * integers) and σ^{-1} mod 2^m exists for every odd σ.
 */
import { ArgumentError } from '../errors.js';
import { rng } from '../util/random.js';

export type SfftMode = 'exact' | 'robust';

/** Parameters a caller may override; every one has a documented default rule (see `planSfft`). */
export interface SfftParamOverrides {
  /** Robust path: buckets of the location loops (power of two). */
  bLoc?: number;
  /** Robust path: buckets of the estimation loops (power of two). */
  bEst?: number;
  /** Robust path: constants C in B = floorPow2(C·√(n k / log2 n)) (defaults 2 and 1). */
  bLocConst?: number;
  bEstConst?: number;
  /** Robust path: buckets kept per location loop (default 2k, the reference's B_thresh). */
  kept?: number;
  /** Robust path: location loops (default 5), votes needed (default 4), estimation loops (default 12). */
  locLoops?: number;
  votes?: number;
  estLoops?: number;
  /** Robust path: filter tolerances (defaults 1e-6 location, 1e-8 estimation). */
  tolLoc?: number;
  tolEst?: number;
  /** Exact path: buckets (power of two; default pow2ceil(bExactConst·k), bExactConst default 4). */
  bExact?: number;
  bExactConst?: number;
  /** Exact path: rounds hashed at once (default 4), peeling stages after the first decode (default 1), filter tolerance (1e-8). */
  rounds?: number;
  stages?: number;
  tolExact?: number;
  /**
   * Exact path: a bucket is decoded when its amplitude exceeds this fraction of the RMS bucket amplitude
   * of the signal (default 1e-5): smaller coefficients are at the level of f32 rounding of the others.
   */
  exactThreshold?: number;
  /** Exact path: largest relative mismatch between the two offsets' buckets for a singleton (default 1e-4). */
  singletonTolerance?: number;
  /**
   * Exact path, WebGPU: how the hashing reads the signal. 'direct' (default): one invocation per bucket
   * reads its W/B taps at scattered addresses. 'sorted': the plan lists every non-zero tap's address in
   * ascending order, one dispatch reads them in that order (neighbouring invocations, neighbouring
   * addresses) and a second one applies the filter and aliases; the same sums in another order. For
   * signals whose scattered reads cost more than the extra dispatch (memory pages, caches).
   */
  gather?: 'direct' | 'sorted';
}

/** A flat window: Dolph–Chebyshev window × Dirichlet kernel (= Chebyshev convolved with a boxcar in frequency). */
export interface SfftFilterSpec {
  n: number;
  B: number;
  /** Chebyshev side-lobe level (the filter's l∞ error outside its pass and transition bands). */
  tolerance: number;
  /** Width of the boxcar in frequency bins (odd). */
  boxcar: number;
}

export interface SfftFilter extends SfftFilterSpec {
  /** Length of the Chebyshev window (odd). */
  chebLength: number;
  /** Time support (a multiple of 2B, so t mod B = i mod B): G at t = i − W/2, i ∈ [0, W). */
  W: number;
  time: Float64Array;
  /** H(d) for |d| ≤ D at index d + D (real; beyond D it is below `tolerance`). */
  D: number;
  freq: Float64Array;
}

/** One hashing: permutation (σ, σ^{-1}, τ), bucket count and which filter it uses. */
export interface SfftLoop {
  sigma: number;
  sigmaInv: number;
  tau: number;
  filter: 'loc' | 'est' | 'exact';
  B: number;
}

export interface SfftRobustRecipe {
  bLoc: number;
  bEst: number;
  kept: number;
  locLoops: number;
  votes: number;
  estLoops: number;
  filterLoc: SfftFilterSpec;
  filterEst: SfftFilterSpec;
  /** Location loops first, then estimation loops (all of them are used for estimation). */
  loops: SfftLoop[];
  /** Capacity of the GPU's list of located frequencies. */
  hitCapacity: number;
  /** A fresh hashing that measures how much energy the result leaves unexplained. */
  verify: SfftLoop;
}

export interface SfftExactRecipe {
  B: number;
  /** Independent hashings (each with two offsets), all decoded in parallel. */
  rounds: number;
  /** Peeling stages after stage 0 (see exactSfftCpu). */
  stages: number;
  /** Offset of the second hashing, in permuted time (σ·delta in x's index): B/4 (see exactDecode). */
  delta: number;
  filter: SfftFilterSpec;
  /** One loop per round; the second hashing of round r uses τ + σ·delta. */
  loops: SfftLoop[];
  threshold: number;
  singletonTolerance: number;
  /** Capacity of the GPU's list of decoded (frequency, value) pairs: every round of every stage may decode each frequency once. */
  foundCapacity: number;
  /** Slots per bucket for the subtraction of found coefficients on the GPU. */
  slots: number;
  verify: SfftLoop;
  gather: 'direct' | 'sorted';
}

export interface SfftRecipe {
  n: number;
  log2n: number;
  /** Frequencies sought (for real input: 2·k, both halves of the spectrum). */
  k: number;
  real: boolean;
  seed: number;
  /** false when k is too large for n: the sparse algorithm cannot separate k frequencies (see reason). */
  feasible: boolean;
  reason: string;
  robust: SfftRobustRecipe | null;
  exact: SfftExactRecipe | null;
}

export interface SfftPlanInit extends SfftParamOverrides {
  n: number;
  k: number;
  real?: boolean;
  /** Which paths to prepare: 'auto' prepares both (exact first, robust when the exact one fails). */
  mode?: 'auto' | SfftMode;
  seed?: number;
}

export const floorPow2 = (x: number): number => (x < 1 ? 1 : 2 ** Math.floor(Math.log2(x)));
export const ceilPow2 = (x: number): number => (x <= 1 ? 1 : 2 ** Math.ceil(Math.log2(x)));
const isPow2 = (x: number) => Number.isInteger(x) && x >= 1 && (x & (x - 1)) === 0;

/** σ^{-1} mod 2^32 for odd σ by Newton's iteration (each step doubles the correct low bits). */
export function inverseMod2k(sigma: number): number {
  let inv = sigma >>> 0;
  for (let i = 0; i < 5; i++) inv = Math.imul(inv, (2 - Math.imul(sigma, inv)) >>> 0) >>> 0;
  return inv;
}

/** (a·b) mod n for n = 2^m ≤ 2^31, exactly (the low 32 bits of the product are exact under wrapping). */
export const mulMod = (a: number, b: number, mask: number): number => (Math.imul(a, b) & mask) >>> 0;

function makeLoops(count: number, n: number, B: number, filter: SfftLoop['filter'], next: () => number): SfftLoop[] {
  const loops: SfftLoop[] = [];
  for (let i = 0; i < count; i++) {
    const sigma = (Math.floor(next() * (n / 2)) * 2 + 1) % n || 1;
    const tau = Math.floor(next() * n) % n;
    loops.push({ sigma, sigmaInv: (inverseMod2k(sigma) & (n - 1)) >>> 0, tau, filter, B });
  }
  return loops;
}

const oddAtLeast = (x: number) => {
  const r = Math.max(1, Math.round(x));
  return r % 2 === 1 ? r : r + 1;
};

/**
 * Parameter rules (overridable through SfftParamOverrides):
 *  robust (sFFT 1.0): B_loc = floorPow2(2·√(n k / log2 n)), B_est = floorPow2(1·√(n k / log2 n)) — the
 *    reference implementation's rule with its constants for k = 1000 at n = 2^22 — raised to at least
 *    pow2ceil(4k) so the 2k kept buckets are at most half of all buckets; 5 location loops of which 4 must
 *    vote for a frequency; 12 estimation loops; filter tolerances 1e-6 (location) and 1e-8 (estimation);
 *    boxcars of 1.32·n/B (location) and 1.54·n/B (estimation) bins (the reference's 1.2·1.1 and 1.4·1.1).
 *  exact (sFFT 3.0 style): B = pow2ceil(4k), 4 rounds decoded at once, then 1 peeling stage; boxcar n/B,
 *    tolerance 1e-8. Why: a frequency decodes in a round when no other one lies within about one bucket
 *    width of it (its bucket and the filter's transition bands), probability p ≈ e^{−1.7 k/B} ≈ 0.65 at
 *    k/B = 1/4 (1.7 fitted: stage 0 alone misses (1 − p)^R, measured 1.6% of frequencies for R = 4 and
 *    4.4% for R = 3 with the float64 executor at k = 1000). The peeling stage sees only those ~k(1 − p)^R
 *    ≈ 16 frequencies left in an almost empty spectrum, each alone in a round with probability
 *    > e^{−1.7·16/4096} ≈ 0.993, so it misses one in all R rounds with probability ~16·(0.007)^4 ≈ 4e-8 per
 *    signal, before rarer events (wrong decodes, f32 rounding). Measured: 0 misses in 200 signals
 *    (2·10^5 frequencies) at n = 2^18, k = 1000 (R = 3 with one stage: 25 misses; R = 3 with two stages:
 *    0). Fewer rounds hash less but need more stages: each stage is one more dependent dispatch on the GPU,
 *    each round two hashings of W ≈ 14B samples. A missed frequency is never hidden: the verification
 *    hashing reports the unexplained energy (mode 'exact': status 'not-sparse'; 'auto': robust path).
 *  Feasibility ("k too large for n"): each path needs n/B ≥ 8 (a bucket spans at least 8 frequencies;
 *    below that the filter cannot be flat and hashing is no cheaper than the dense FFT): k ≤ n/32.
 */
export function planSfft(init: SfftPlanInit): SfftRecipe {
  const { n } = init;
  if (!isPow2(n) || n < 64 || n > 2 ** 31) throw new ArgumentError('n', n, 'a power of two between 2^6 and 2^31');
  const real = init.real ?? false;
  // At most as many frequencies as the spectrum has (real input: 0 … n/2); between n/32 and that, the
  // result is a dense FFT's with status 'k-too-large' (see feasibility below).
  const kMax = real ? n / 2 + 1 : n;
  if (!Number.isSafeInteger(init.k) || init.k < 1 || init.k > kMax) {
    throw new ArgumentError(
      'k',
      init.k,
      `an integer in [1, ${kMax}] (the ${real ? 'real' : 'complex'} signal's ${kMax} frequencies)`,
    );
  }
  const k = real ? 2 * init.k : init.k;
  const mode = init.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'exact' && mode !== 'robust')
    throw new ArgumentError('mode', mode, "'auto', 'exact' or 'robust'");
  const seed = init.seed ?? 1;
  const log2n = Math.log2(n);
  const next = rng(seed);
  const checkB = (name: string, v: number | undefined) => {
    if (v !== undefined && (!isPow2(v) || v < 4 || v > n / 2))
      throw new ArgumentError(name, v, `a power of two in [4, n/2 = ${n / 2}]`);
  };
  checkB('bLoc', init.bLoc);
  checkB('bEst', init.bEst);
  checkB('bExact', init.bExact);
  const positiveInt = (name: string, v: number | undefined, d: number) => {
    if (v === undefined) return d;
    if (!Number.isSafeInteger(v) || v < 1) throw new ArgumentError(name, v, 'a positive integer');
    return v;
  };
  const reasons: string[] = [];
  const base = Math.sqrt((n * k) / log2n);
  const minB = ceilPow2(4 * k);

  let robust: SfftRobustRecipe | null = null;
  if (mode !== 'exact') {
    const bLoc = init.bLoc ?? Math.max(floorPow2((init.bLocConst ?? 2) * base), minB);
    const bEst = init.bEst ?? Math.max(floorPow2((init.bEstConst ?? 1) * base), minB);
    const kept = positiveInt('kept', init.kept, 2 * k);
    const locLoops = positiveInt('locLoops', init.locLoops, 5);
    const votes = positiveInt('votes', init.votes, Math.max(1, locLoops - 1));
    const estLoops = init.estLoops === 0 ? 0 : positiveInt('estLoops', init.estLoops, 12);
    if (votes > locLoops) throw new ArgumentError('votes', votes, `at most locLoops = ${locLoops}`);
    if (locLoops + estLoops > 64) throw new ArgumentError('locLoops + estLoops', locLoops + estLoops, 'at most 64');
    if (n / bLoc < 8 || n / bEst < 8)
      reasons.push(`robust path: needs n/B ≥ 8, but k = ${init.k} gives B_loc = ${bLoc}, B_est = ${bEst} for n = ${n}`);
    if (kept > bLoc / 2) reasons.push(`robust path: ${kept} kept buckets exceed half of B_loc = ${bLoc}`);
    const filterLoc = { n, B: bLoc, tolerance: init.tolLoc ?? 1e-6, boxcar: oddAtLeast((1.2 * 1.1 * n) / bLoc) };
    const filterEst = { n, B: bEst, tolerance: init.tolEst ?? 1e-8, boxcar: oddAtLeast((1.4 * 1.1 * n) / bEst) };
    const loops = [...makeLoops(locLoops, n, bLoc, 'loc', next), ...makeLoops(estLoops, n, bEst, 'est', next)];
    const verify = makeLoops(1, n, bEst, 'est', next)[0];
    // Every kept bucket of a location loop names n/B_loc candidate frequencies: size the hit list for all of
    // them, so it cannot overflow (an overflow is reported as an incomplete result).
    const hitCapacity = Math.max(1024, 32 * k, kept * Math.ceil(n / bLoc));
    robust = { bLoc, bEst, kept, locLoops, votes, estLoops, filterLoc, filterEst, loops, hitCapacity, verify };
  }

  let exact: SfftExactRecipe | null = null;
  if (mode !== 'robust') {
    const bConst = init.bExactConst ?? 4;
    if (!(bConst > 0)) throw new ArgumentError('bExactConst', bConst, 'a positive number');
    const B = init.bExact ?? ceilPow2(bConst * k);
    const rounds = positiveInt('rounds', init.rounds, 4);
    const stages = init.stages === 0 ? 0 : positiveInt('stages', init.stages, 1);
    if (rounds > 32) throw new ArgumentError('rounds', rounds, 'at most 32');
    const gather = init.gather ?? 'direct';
    if (gather !== 'direct' && gather !== 'sorted') throw new ArgumentError('gather', gather, "'direct' or 'sorted'");
    if (stages > 8) throw new ArgumentError('stages', stages, 'at most 8');
    if (n / B < 8) reasons.push(`exact path: needs n/B ≥ 8, but k = ${init.k} gives B = ${B} for n = ${n}`);
    const filter = { n, B, tolerance: init.tolExact ?? 1e-8, boxcar: oddAtLeast(n / B) };
    const loops = makeLoops(rounds, n, B, 'exact', next);
    const verify = makeLoops(1, n, B, 'exact', next)[0];
    exact = {
      B,
      rounds,
      stages,
      delta: Math.max(1, B / 4),
      filter,
      loops,
      threshold: init.exactThreshold ?? 1e-5,
      singletonTolerance: init.singletonTolerance ?? 1e-4,
      // Stage 0 decodes each frequency at most once per round; later stages decode only what earlier
      // stages missed or got slightly wrong (a few per cent of k for exactly sparse signals).
      foundCapacity: Math.max(256, (rounds + stages) * Math.min(k, B) + 64),
      slots: 8,
      verify,
      gather,
    };
  }
  return { n, log2n, k, real, seed, feasible: reasons.length === 0, reason: reasons.join('; '), robust, exact };
}

/** Chebyshev window length and filter width W (a multiple of 2B) of a filter spec (see buildSfftFilter). */
export function sfftFilterLengths(spec: SfftFilterSpec): { chebLength: number; W: number } {
  const chebLength = oddAtLeast(Math.ceil(((2 * spec.B) / Math.PI) * Math.acosh(1 / spec.tolerance)));
  return { chebLength, W: Math.ceil(chebLength / (2 * spec.B)) * 2 * spec.B };
}

/** Home bucket of permuted frequency g: round(g·B/n) mod B. */
export function homeBucket(g: number, n: number, B: number): number {
  const shift = Math.log2(n / B);
  return ((((g + n / (2 * B)) & (n - 1)) >>> shift) & (B - 1)) >>> 0;
}

/** Signed offset d = h·n/B − g, wrapped to [−n/2, n/2). */
export function bucketOffset(h: number, g: number, n: number, B: number): number {
  const d = (h * (n / B) - g) & (n - 1);
  return d >= n / 2 ? d - n : d;
}

/** A rough operation count of the sparse path, to compare with the dense FFT's 5 n log2 n (diagnostics). */
export function sfftSamples(recipe: SfftRecipe, path: SfftMode): number {
  if (path === 'robust' && recipe.robust) {
    const r = recipe.robust;
    const wl = sfftFilterLengths(r.filterLoc).W;
    const we = sfftFilterLengths(r.filterEst).W;
    return r.locLoops * wl + (r.estLoops + 1) * we;
  }
  if (path === 'exact' && recipe.exact) return (2 * recipe.exact.rounds + 1) * sfftFilterLengths(recipe.exact.filter).W;
  return 0;
}
