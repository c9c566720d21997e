/**
 * CPU engine planner: complex FFT length + precision → a plain-data recipe that the WebAssembly SIMD
 * generator (src/codegen/wasm/fft-engine.ts) turns into a module.
 *
 * A 128-bit vector holds W lanes (4 × f32 or 2 × f64). Two ways of filling the lanes, both of which
 * leave every butterfly a pure lane-wise vector operation (no shuffles inside the passes):
 *
 * - lane-split (W² | … : n = W·n2 with n2 ≥ W): the four-step split n = W × n2 with the W-point digit
 *   in the lanes. Loading 4 consecutive complex values of one problem gives lane l the element
 *   x[W·i2 + l], i.e. W decimated sub-problems of length n2 side by side. Stockham passes transform them
 *   all at once; a final "combine" pass applies w_n^{l·k2}, transposes W×W blocks and does the W-point
 *   DFT across the lanes (Γ between the lane digit and the low output digit).
 * - lane-batch: W different problems of the batch in the lanes (gathered on load, scattered on store),
 *   for lengths that do not split (odd n, n < W²); a short batch wastes the empty lanes.
 *
 * Lengths that are not codeletFactored (a prime factor above MAX_CODELET_PRIME, or two above
 * SMALL_CODELET_PRIME) go through Bluestein with a smooth inner length, planned the same way, unless generic
 * passes for their large primes cost less (genericBeatsBluestein) or, for primes, Rader applies (raderOf).
 */
import { ArgumentError, UnsupportedError } from '../errors.js';
import { isPrime, nextPow2, primeFactors, primitiveRoot } from '../core/integers.js';
import { lruSet } from '../util/lru.js';
import {
  cpuFma,
  FOUR_STEP_EARLY_BYTES,
  FOUR_STEP_LATE_BYTES,
  fourStepFromBytes,
  knownFourStepFrom,
} from './cpu-features.js';

export type CpuPrecision = 'f32' | 'f64';

/** One Stockham DIF pass: l1 finished digits, radix r, ido points per remaining sub-problem. */
export interface CpuFftPass {
  radix: number;
  l1: number;
  ido: number;
  /**
   * A prime radix from GENERIC_FROM_PRIME in a lane recipe, run as loops (stockham-pass.ts genericPassFunction)
   * instead of a straight-line codelet.
   */
  generic?: true;
}

export type CpuEngineFftRecipe =
  | {
      kind: 'lane-split' | 'lane-batch';
      n: number;
      precision: CpuPrecision;
      /** Vector lanes: 4 for f32, 2 for f64. */
      lanes: number;
      /** Length of the transform done inside the lanes: n / lanes (lane-split) or n (lane-batch). */
      laneLength: number;
      passes: CpuFftPass[];
      /** Twiddle products and odd butterflies as fused multiply-adds (relaxed SIMD, src/planner/cpu-features.ts). */
      fma?: true;
      /** Real forward transform of length 2n fused after this one (src/codegen/wasm/rfft-post.ts). */
      realPost?: boolean;
      /**
       * Real forward transforms of length n, two a complex problem (src/codegen/wasm/rfft-pairs.ts): odd n, and even n
       * whose half does not split across the lanes (planCpuEngineRfftForward).
       */
      realPairs?: boolean;
      /** Elementwise complex product exported beside the transform (Bluestein's inner plans). */
      pointwise?: boolean;
      /**
       * lane-batch only: calls of fewer than singleRowsBelow(lanes) problems (which would leave lanes empty) run this
       * recipe instead, one problem at a time (src/backends/cpu/single-rows.ts): the four-step with partial lane
       * groups, or for planCpuEngineBatchFft's lengths the lane-split recipe. Not read by the code generator.
       */
      single?: CpuLaneRecipe;
      /**
       * With realPost: DCT-II of length 2n by Makhoul's reorder and post-rotation, and its inverse, the
       * DCT-III (src/codegen/wasm/dct2-makhoul.ts, dct3-makhoul.ts).
       */
      dct2?: boolean;
      /**
       * With realPost: DCT-I of length n + 1 and DST-I of length n − 1 by the symmetric extension of length 2n
       * (src/codegen/wasm/dct1-extension.ts).
       */
      dct1?: boolean;
    }
  | {
      /**
       * Large n as n1 × n2 (the multi-pass recipe on a CPU): n2 column transforms of length n1, W adjacent
       * columns in the lanes, read where they lie and written twiddled and transposed to a scratch matrix
       * whose rows are padded by `pitchPad` bytes; then n1 transforms of length n2, W adjacent ones in the
       * lanes, written straight to the output in natural order. Every pass then works on a block that stays
       * in cache, and the data crosses memory twice instead of once a Stockham pass.
       */
      kind: 'four-step';
      n: number;
      precision: CpuPrecision;
      lanes: number;
      n1: number;
      n2: number;
      passes1: CpuFftPass[];
      passes2: CpuFftPass[];
      pitchPad: number;
      /** As the lane recipes' fma. */
      fma?: true;
      /**
       * Groups of W columns moved together through a stage: blockGroups · W values make 128 bytes (two cache
       * lines) of each row where n1 and n2 allow, so the strided side of either phase moves whole lines.
       */
      blockGroups: number;
      /**
       * n1 or n2 not a multiple of the lanes (odd lengths): each phase's last group of W columns is partial (its
       * spare lanes compute nothing that is kept); blockGroups is then 1.
       */
      partial?: true;
      realPost?: boolean;
      /** Partial recipes only (odd n): real rows two a complex problem, as the lane recipes' realPairs. */
      realPairs?: boolean;
      pointwise?: boolean;
      dct2?: boolean;
      dct1?: boolean;
    }
  | {
      kind: 'bluestein';
      n: number;
      precision: CpuPrecision;
      lanes: number;
      inner: CpuEngineFftRecipe;
      /**
       * Odd n: real rows two a complex transform (the pairs path's row steps in a module of their own,
       * src/codegen/wasm/fft-engine.ts generatePairsRows), this Bluestein transform between them.
       */
      realPairs?: true;
      /** With realPairs: the DCT and DST rows of the pairs path too. */
      dct2?: true;
      realPost?: undefined;
    }
  | {
      /**
       * Prime n as a cyclic convolution of length n − 1 (Rader): the inputs permuted by powers of a primitive root,
       * the inner FFT, a pointwise product with the transformed kernel ω^(g^−q), the inner inverse, and the outputs
       * permuted back; where n − 1 runs as lane passes, half the work of Bluestein's 2n.
       */
      kind: 'rader';
      n: number;
      precision: CpuPrecision;
      lanes: number;
      /** The primitive root modulo n that orders the permutations. */
      root: number;
      inner: Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' }>;
      /** Real rows two a complex transform, as the Bluestein pairs recipe (this transform between the row steps). */
      realPairs?: true;
      /** With realPairs: the DCT and DST rows of the pairs path too. */
      dct2?: true;
      realPost?: undefined;
    }
  | { kind: 'trivial'; n: 1; precision: CpuPrecision; lanes: number }
  | {
      /**
       * Beyond one WebAssembly memory (n, or Bluestein's inner length, above CPU_ENGINE_MAX_N): the float64 reference
       * (src/backends/cpu/fft-plan.ts) computes it, in JavaScript, rather than refusing a length numpy takes.
       */
      kind: 'reference';
      n: number;
      precision: CpuPrecision;
      lanes: number;
    };

/** A recipe whose transform runs in the lanes directly (what the generator takes). */
export type CpuLaneRecipe = Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' | 'four-step' }>;

/** Odd real rows two a Bluestein transform (planCpuEngineRfftForward). */
export type CpuBluesteinPairsRecipe = Extract<CpuEngineFftRecipe, { kind: 'bluestein' }> & { realPairs: true };
/** Real rows of a prime length two a Rader transform. */
export type CpuRaderPairsRecipe = Extract<CpuEngineFftRecipe, { kind: 'rader' }> & { realPairs: true };
/** Real rows two a complex transform that is not a lane module: the pairs row steps in a module of their own. */
export type CpuPairsRecipe = CpuBluesteinPairsRecipe | CpuRaderPairsRecipe;

/** A fused real or DCT module's recipe: in the lanes, or pairs around Bluestein or Rader. */
export type CpuRealRecipe = CpuLaneRecipe | CpuPairsRecipe;

/**
 * Largest prime with a straight-line codelet (four-step phases and 2-D column passes; lane recipes take primes
 * from GENERIC_FROM_PRIME as generic passes). The odd ones above SMALL_CODELET_PRIME spill registers, but one such
 * pass still costs less than Bluestein's FFTs of ≥ 2n points; above 37, or with two of them, it does not
 * (docs/DECISIONS.md: codeletFactored).
 */
export const MAX_CODELET_PRIME = 37;
/** Primes up to this have codelets that fit the registers; a length takes at most one prime factor above it. */
export const SMALL_CODELET_PRIME = 13;

/** Whether a length runs as codelet passes: every prime factor ≤ MAX_CODELET_PRIME, at most one above SMALL_CODELET_PRIME. */
export function codeletFactored(n: number): boolean {
  const large = primeFactors(n).filter((p) => p > SMALL_CODELET_PRIME);
  return large.length === 0 || (large.length === 1 && large[0]! <= MAX_CODELET_PRIME);
}

/**
 * Primes from this one run as generic passes in lane recipes, not as codelets: from 11 up a codelet's straight-line
 * butterfly spills, and the loops ran in 0.31–0.91 of its time (docs/DECISIONS.md: generic passes from 11).
 */
export const GENERIC_FROM_PRIME = 11;

/**
 * Largest prime a lane recipe may take as a generic pass (loops over a coefficient table, stockham-pass.ts
 * genericPassFunction) where the length would otherwise run whole through Bluestein: its table holds ((p − 1)/2)²
 * pairs. Only below GENERIC_LANE_BELOW_BYTES, and where genericBeatsBluestein.
 */
export const MAX_GENERIC_PRIME = 199;

/**
 * Generic passes of primes p cost about Σ p/6 a point (in units of one radix-4 pass), Bluestein about
 * (m/n)·log2 m (two FFTs of its inner length m ≥ 2n − 1); the factor 6 is fitted (docs/DECISIONS.md: generic
 * passes).
 */
export function genericBeatsBluestein(primes: readonly number[], n: number, m: number): boolean {
  return primes.reduce((a, p) => a + p, 0) <= 6 * (m / n) * Math.log2(m);
}

/** The prime factors of n (with repeats) that a lane recipe runs as generic passes. */
export function genericPrimes(n: number): number[] {
  return primeFactors(n).filter((p) => p >= GENERIC_FROM_PRIME);
}

/** Whether a lane length runs as passes, generic ones included: every prime factor up to MAX_GENERIC_PRIME. */
export function laneFactored(n: number): boolean {
  return primeFactors(n).every((p) => p <= MAX_GENERIC_PRIME);
}

/** The recipes' `fma` field: present (true) where relaxed SIMD's fused multiply-add is available. */
function fused(): { fma?: true } {
  return cpuFma() ? { fma: true } : {};
}

export function lanesFor(precision: CpuPrecision): number {
  return precision === 'f32' ? 4 : 2;
}

/**
 * Radices for a length, in pass order: radix 4 (its 8 vectors of a butterfly stay in the 16 SIMD
 * registers of x86-64, where radix 8 and 16 spill), an odd power of two ending in one radix 8 (as a
 * last pass it has no twiddles) or a radix 2, then the odd primes, smallest first.
 * (docs/DECISIONS.md: chooseCpuRadices)
 */
export function chooseCpuRadices(n: number): number[] {
  const factors = primeFactors(n);
  let twos = factors.filter((p) => p === 2).length;
  const odd = factors.filter((p) => p !== 2);
  const r: number[] = [];
  const eight = twos % 2 === 1 && twos >= 3;
  if (eight) twos -= 3;
  while (twos >= 2) {
    r.push(4);
    twos -= 2;
  }
  if (eight) r.push(8);
  if (twos === 1) r.push(2);
  return r.concat(odd);
}

/**
 * The passes of a length's radices. `generic`: whether the recipe's generator takes generic passes (the lane
 * recipes'); four-step phases and 2-D column passes run every radix as a codelet.
 */
export function passesFor(radices: number[], n: number, generic: boolean): CpuFftPass[] {
  let l1 = 1;
  return radices.map((radix) => {
    const p: CpuFftPass = { radix, l1, ido: n / (l1 * radix) };
    if (generic && radix >= GENERIC_FROM_PRIME) p.generic = true;
    else if (radix > MAX_CODELET_PRIME) throw new Error(`internal: radix ${radix} has no codelet`);
    l1 *= radix;
    return p;
  });
}

/**
 * Largest complex length per transform: its three buffers and tables must fit one 4 GiB WebAssembly
 * memory (about 40 bytes a point in f32, 80 in f64, counting Bluestein's inner length).
 */
export const CPU_ENGINE_MAX_N: Record<CpuPrecision, number> = { f32: 2 ** 26, f64: 2 ** 25 };

/**
 * Prime lengths from this one take Rader over a generic pass of the whole length, whose cost grows with p
 * (docs/DECISIONS.md: Rader for prime lengths).
 */
export const RADER_FROM = 100;

/** Rader's recipe for prime n whose n − 1 runs as lane passes (no Bluestein or four-step inside); else null. */
function raderOf(n: number, precision: CpuPrecision): Extract<CpuEngineFftRecipe, { kind: 'rader' }> | null {
  if (!isPrime(n) || n < 5) return null;
  const inner = planCpuEngineFft(n - 1, precision);
  if (inner.kind !== 'lane-split' && inner.kind !== 'lane-batch') return null;
  return {
    kind: 'rader',
    n,
    precision,
    lanes: lanesFor(precision),
    root: primitiveRoot(n),
    inner: { ...inner, pointwise: true },
  };
}

/** Bluestein's recipe for n: two FFTs of its inner length m ≥ 2n − 1 (bluesteinLength). */
export function planBluestein(
  n: number,
  precision: CpuPrecision,
  m = bluesteinLength(n, precision),
): Extract<CpuEngineFftRecipe, { kind: 'bluestein' }> {
  if (m > CPU_ENGINE_MAX_N[precision]) {
    throw new UnsupportedError(
      `n = ${n}: its Bluestein length ${m} exceeds the CPU engine's ${CPU_ENGINE_MAX_N[precision]} points in ${precision}`,
    );
  }
  const inner = planCpuEngineFft(m, precision);
  return {
    kind: 'bluestein',
    n,
    precision,
    lanes: lanesFor(precision),
    inner: inner.kind === 'lane-split' || inner.kind === 'four-step' ? { ...inner, pointwise: true } : inner,
  };
}

export function planCpuEngineFft(n: number, precision: CpuPrecision): CpuEngineFftRecipe {
  if (!Number.isSafeInteger(n) || n < 1) throw new ArgumentError('n', n, 'a positive integer');
  if (precision !== 'f32' && precision !== 'f64') throw new ArgumentError('precision', precision, "'f32' or 'f64'");
  const lanes = lanesFor(precision);
  if (n > CPU_ENGINE_MAX_N[precision]) return { kind: 'reference', n, precision, lanes };
  if (n === 1) return { kind: 'trivial', n: 1, precision, lanes };
  const split = n % lanes === 0 && n / lanes >= lanes;
  const laneLength = split ? n / lanes : n;
  const cb = precision === 'f32' ? 8 : 16;
  const m = codeletFactored(laneLength) ? 0 : bluesteinLength(n, precision);
  const generic =
    m > 0 &&
    laneFactored(laneLength) &&
    n * cb < GENERIC_LANE_BELOW_BYTES &&
    genericBeatsBluestein(genericPrimes(laneLength), n, m);
  if (m > 0 && (!generic || n >= RADER_FROM)) {
    const rader = raderOf(n, precision);
    if (rader) return rader;
  }
  if (m > CPU_ENGINE_MAX_N[precision]) return { kind: 'reference', n, precision, lanes };
  if (m > 0 && !generic) return planBluestein(n, precision, m);
  const smooth = primeFactors(n).every((p) => p <= 5);
  const blocked = fourStepOf(n, precision, smooth ? smoothFourStepFrom(n, precision) : FOUR_STEP_ODD_FROM_BYTES);
  if (blocked) return blocked;
  const lane = lanePasses(n, precision);
  if (lane.kind !== 'lane-batch' || !lane.single || n < PARTIAL_FOUR_STEP_FROM.all[precision]) return lane;
  // f64 batches of lengths with a prime above 13 keep the lane-batch module: two problems fill its lanes, and the
  // four-step's large generic passes cost more (999999 × 4: 1.15–1.27× the time).
  if (precision === 'f64' && primeFactors(n).some((p) => p > SMALL_CODELET_PRIME)) return lane;
  return lane.single;
}

/**
 * Engine buffers (createBuffers) of a lane recipe are staged a chunk at a time (one copy inside the memory) before
 * the kernel reads them where its first pass's streams are short: W problems' (lane-batch) or W lanes' (lane-split)
 * elements r0 apart read as r0 streams of (laneLength / r0) elements, and streams under STAGE_BELOW_STREAM_BYTES are
 * over before the prefetcher has learnt them (read in place, 0.75–0.95 of the copying path's rate; staged f32 625
 * ran 0.77 of the in-place time). Slots up to STAGE_ABOVE_SLOT_BYTES are one contiguous run and read in place;
 * longer streams (f32 2048 and up, 2187, 2310) ran 0.86–0.96 of the staged time in place (docs/DECISIONS.md: staged
 * engine buffers by stream length).
 */
export const STAGE_BELOW_STREAM_BYTES = 4096;
export const STAGE_ABOVE_SLOT_BYTES = 1024;

/** How engine buffers of `recipe` are read and written: 'input' staged, 'both' input and output staged, or in place. */
export function stagesEngineBuffers(recipe: CpuLaneRecipe, shared = false): 'none' | 'input' | 'both' {
  if (recipe.kind === 'four-step') return 'none';
  const e = recipe.precision === 'f32' ? 4 : 8;
  const W = recipe.lanes;
  const split = recipe.kind === 'lane-split';
  const slot = (split ? recipe.n : W * recipe.n) * 2 * e;
  // f32 lane-batch lengths whose last pass is generic (a prime from 11 in loops) write their outputs through a cached
  // stage: straight into the buffer they ran at 0.71–0.85 of that rate (1001, 1155, 2310, 3003; 1430 1.02); codelet
  // last passes (2187, 1875, 625) and f64 ran 0.79–0.95 of it or gained under 5%. Not in a memory shared with workers,
  // where V8 copies with relaxed atomic stores (1.6× slower) and the two stages lost (1.18× the time in place).
  if (!split && e === 4 && slot > STAGE_ABOVE_SLOT_BYTES && recipe.passes.at(-1)!.generic)
    return shared ? 'none' : 'both';
  // Lane-split: W consecutive complex values are one 16·2-byte element; lane-batch: each lane's values 2e apart.
  const stream = (recipe.laneLength / recipe.passes[0]!.radix) * (split ? 32 : 2 * e);
  return slot > STAGE_ABOVE_SLOT_BYTES && stream < STAGE_BELOW_STREAM_BYTES ? 'input' : 'none';
}

/**
 * Short complex lengths batch W problems in the lanes (lane-batch) rather than split across them: every length whose
 * group of W problems takes at most SHORT_BATCH_SLOT_BYTES. Their lane-split recipe spends a large share of its work
 * in the combine pass (f32 16 = 4 × 4: one radix-4 pass, then the combine); lane-batch measured 0.69–1.0 of its time
 * on ordinary arrays and 0.49–1.07 on engine buffers (f64 4 … 32, f32 16 … 32), where larger groups lose (engine
 * buffers stage their slots from 1 KiB, and the staged gathers ran 1.4–2.2× the time) (docs/DECISIONS.md: short
 * lengths in the lanes).
 */
export const SHORT_BATCH_SLOT_BYTES = STAGE_ABOVE_SLOT_BYTES;

/**
 * f64 powers of 4 beyond SHORT_BATCH_SLOT_BYTES that batch in the lanes: their lane-batch passes are all radix 4 and
 * skip the lane-split recipe's radix-2 combine pass, which moves every value for one butterfly; 64 and 1024 measured
 * no gain or lost on engine buffers (docs/DECISIONS.md: f64 lane-batch for batches of powers of 4).
 */
export const F64_BATCH_LANES: ReadonlySet<number> = new Set([256, 4096]);

/** Whether batches of length n run lane-batch (planCpuEngineBatchFft). */
export function batchesInLanes(n: number, precision: CpuPrecision): boolean {
  const W = lanesFor(precision);
  const bytes = W * n * 2 * (precision === 'f32' ? 4 : 8);
  return bytes <= SHORT_BATCH_SLOT_BYTES || (precision === 'f64' && F64_BATCH_LANES.has(n));
}

/**
 * The complex engine's recipe for batched calls (engineFft): planCpuEngineFft's, except that lane-split lengths that
 * batchesInLanes run lane-batch, with their lane-split recipe as `single` for a lone problem. Real, DCT, 2-D and
 * Bluestein recipes keep planCpuEngineFft's (their lane-split halves measured as fast or faster).
 */
export function planCpuEngineBatchFft(n: number, precision: CpuPrecision): CpuEngineFftRecipe {
  const r = planCpuEngineFft(n, precision);
  if (r.kind !== 'lane-split' || !batchesInLanes(n, precision)) return r;
  const { laneLength: _, passes: __, ...rest } = r;
  return { ...rest, kind: 'lane-batch', laneLength: n, passes: passesFor(chooseCpuRadices(n), n, true), single: r };
}

/**
 * The recipes that fourStepFromBytes weighs against each other, for the backend's measurement: the four-step and the
 * lane passes of one problem of n points (a 2·3·5-smooth n whose bytes lie between the two bounds).
 */
export function fourStepRivals(
  n: number,
  precision: CpuPrecision,
): { fourStep: CpuEngineFftRecipe; lanes: CpuEngineFftRecipe } {
  const fourStep = fourStepOf(n, precision, 0);
  if (!fourStep) throw new Error(`n = ${n} has no four-step split`);
  return { fourStep, lanes: lanePasses(n, precision) };
}

/** The lane recipe of n as passes (generic ones for primes from GENERIC_FROM_PRIME), without weighing Bluestein. */
function lanePasses(
  n: number,
  precision: CpuPrecision,
): Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' }> {
  const lanes = lanesFor(precision);
  const split = n % lanes === 0 && n / lanes >= lanes;
  const laneLength = split ? n / lanes : n;
  const single = split || n < PARTIAL_FOUR_STEP_FROM.single ? null : fourStepPartialOf(n, precision);
  return {
    kind: split ? 'lane-split' : 'lane-batch',
    n,
    precision,
    lanes,
    laneLength,
    passes: passesFor(chooseCpuRadices(laneLength), laneLength, true),
    ...fused(),
    ...(single ? { single } : {}),
  };
}

/**
 * Lane-batch lengths from which the four-step recipe with partial lane groups takes over: for single problems
 * (fewer than singleRowsBelow(W) a call), and from `all` for every batch, where W problems of the length in the lanes
 * no longer stay in cache (docs/DECISIONS.md: partial four-step).
 */
export const PARTIAL_FOUR_STEP_FROM = { single: 6000, all: { f32: 32768, f64: 65536 } as Record<CpuPrecision, number> };

/** Calls with fewer problems than this (about half the lanes) run a lane-batch recipe's `single` recipe. */
export const singleRowsBelow = (lanes: number): number => lanes / 2 + 1;

/**
 * The module a fused real or DCT recipe's rows take in calls of fewer than singleRowsBelow(W) problems: the same row
 * steps around the recipe's `single` four-step; null where it has none.
 */
export function singleRealOf(r: CpuRealRecipe): CpuLaneRecipe | null {
  if (r.kind !== 'lane-batch' || !r.single) return null;
  const { realPost, realPairs, dct2, dct1 } = r;
  return {
    ...r.single,
    ...(realPost ? { realPost } : {}),
    ...(realPairs ? { realPairs } : {}),
    ...(dct2 ? { dct2 } : {}),
    ...(dct1 ? { dct1 } : {}),
  };
}

/**
 * Bluestein's inner length: the cheapest m ≥ 2n − 1 by m·log2 m among the next power of two and the 2·3·5-smooth
 * multiples of W² (which run lane-split), the latter weighted 1.25 (their radix-3 and radix-5 passes run at
 * about 0.8 of radix 4's rate). For n just above a power of two this nearly halves the work (n = 1025: 2160, not
 * 4096).
 */
export function bluesteinLength(n: number, precision: CpuPrecision): number {
  const need = 2 * n - 1;
  const step = lanesFor(precision) ** 2;
  let best = nextPow2(need);
  let bestCost = best * Math.log2(best);
  for (let a = 1; a < best; a *= 2)
    for (let b = a; b < best; b *= 3)
      for (let m = b; m < best; m *= 5) {
        if (m < need || m % step !== 0 || (m & (m - 1)) === 0) continue;
        const cost = 1.25 * m * Math.log2(m);
        if (cost < bestCost) [best, bestCost] = [m, cost];
      }
  return best;
}

/**
 * Bytes of one 2·3·5-smooth complex problem from which the four-step recipe replaces Stockham passes over the whole
 * problem: below FOUR_STEP_EARLY_BYTES a pass's sweep stays in a core's L2, from FOUR_STEP_LATE_BYTES the four-step
 * wins on every machine measured, and between them the machine decides (cpu-features.ts: fourStepFromBytes), asked
 * only for problems in that range so that nothing is measured for others.
 */
function smoothFourStepFrom(n: number, precision: CpuPrecision): number {
  const bytes = n * (precision === 'f32' ? 8 : 16);
  return bytes < FOUR_STEP_EARLY_BYTES || bytes >= FOUR_STEP_LATE_BYTES ? FOUR_STEP_EARLY_BYTES : fourStepFromBytes();
}

/**
 * The four-step bound of lengths with a prime factor from 7: their four-step phases lost at 8 MiB in f64 (526848 = 2⁹·3·7³:
 * 1.35× the lane-split time), so they keep the bound measured on the EPYC host.
 */
export const FOUR_STEP_ODD_FROM_BYTES = 1 << 24;
/**
 * Bytes of one complex problem below which lane recipes take generic passes for a large prime factor (measured
 * there, against Bluestein; the four-step runs codelets only).
 */
export const GENERIC_LANE_BELOW_BYTES = 1 << 24;
/** Padding of the four-step scratch rows: one cache line, so a column of it does not fall into one cache set. */
const FOUR_STEP_PITCH_PAD = 64;

/**
 * n = n1 · n2 with both factors multiples of the lane count, as near √n as n allows (n1 ≤ n2, n1 ≥ 16), for
 * problems of at least `fromBytes`; else null.
 */
export function fourStepOf(
  n: number,
  precision: CpuPrecision,
  fromBytes: number,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> | null {
  const lanes = lanesFor(precision);
  const cb = precision === 'f32' ? 8 : 16;
  if (n * cb < fromBytes || n % (lanes * lanes) !== 0 || !codeletFactored(n)) return null;
  let n1 = 0;
  for (let d = lanes; d * d <= n; d += lanes) if (n % d === 0 && (n / d) % lanes === 0) n1 = d;
  if (n1 < 16) return null;
  const n2 = n / n1;
  const whole = 128 / (lanes * cb);
  let blockGroups = whole;
  while ((n1 / lanes) % blockGroups !== 0 || (n2 / lanes) % blockGroups !== 0) blockGroups /= 2;
  return fourStep(n1, n2, precision, blockGroups);
}

/** The four-step recipe of n1 × n2: codelet passes in each phase, or with `generic` generic ones from GENERIC_FROM_PRIME. */
function fourStep(
  n1: number,
  n2: number,
  precision: CpuPrecision,
  blockGroups: number,
  generic = false,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> {
  return {
    kind: 'four-step',
    n: n1 * n2,
    precision,
    lanes: lanesFor(precision),
    n1,
    n2,
    passes1: passesFor(chooseCpuRadices(n1), n1, generic),
    passes2: passesFor(chooseCpuRadices(n2), n2, generic),
    pitchPad: FOUR_STEP_PITCH_PAD,
    blockGroups,
    ...fused(),
  };
}

/**
 * The four-step recipe with partial lane groups, for lengths a lane-batch module would run W problems at a time
 * (odd n, or n not a multiple of W²): n1 the largest divisor up to √n with both factors at least 16, lane passes
 * (generic ones from GENERIC_FROM_PRIME) in each phase; null where no such split exists.
 */
export function fourStepPartialOf(
  n: number,
  precision: CpuPrecision,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> | null {
  if (!laneFactored(n)) return null;
  let n1 = 0;
  for (let d = Math.floor(Math.sqrt(n)); d >= 16 && !n1; d--) if (n % d === 0) n1 = d;
  if (!n1 || n / n1 < 16) return null;
  // Primes from GENERIC_FROM_PRIME as generic passes, as in the lane recipes: with codelets, 999999 = 3³·7·11·13·37 ran
  // in 1.9× the time (f32) and lost to the lane-batch module in f64 (docs/DECISIONS.md: partial four-step).
  return { ...fourStep(n1, n / n1, precision, 1, true), partial: true };
}

/**
 * A 2-D transform of rows × cols complex values on the CPU engine: the rows by the engine's recipe for `cols`,
 * then the columns W adjacent ones in the lanes (src/codegen/wasm/fft-columns.ts), read and written where they
 * lie through staged blocks of blockGroups · W columns, all in one WebAssembly memory.
 */
export interface CpuEngineFft2Recipe {
  kind: 'fft2';
  rows: number;
  cols: number;
  precision: CpuPrecision;
  lanes: number;
  row: CpuLaneRecipe;
  colPasses: CpuFftPass[];
  blockGroups: number;
  /** The column passes as fused multiply-adds (as the lane recipes' fma). */
  fma?: true;
  /** Threads that share each step (the rows, then the column blocks) of one array: 1 below FFT2_SPLIT_FROM_BYTES. */
  threads: number;
  /**
   * Real 2-D (rfft2 / irfft2): rows of `n` reals through the fused real module (`row` has realPost), whose
   * n/2 + 1 outputs a row are held `cols` complex values apart (cols padded to whole column blocks, the padding
   * zero), so the column module runs unchanged.
   */
  real?: { n: number };
  /**
   * Volumes (fftn over the last three axes): `n` planes of rows × cols, whose third step transforms the columns
   * of the n × (rows · cols) matrix with the same column module (its passes and block width here).
   */
  depth?: { n: number; colPasses: CpuFftPass[]; blockGroups: number };
}

/**
 * Recipes by their arguments (`key` names the planner and every argument): one-shot calls plan on every call, and
 * planning an 8 × 8 transform took a fifth of its call, a 64-point DCT's recipes more than its transform. Kept with
 * the four-step threshold they were planned under (the one other thing the planner reads that can change:
 * cpu-features.ts setFourStepFromBytes). Recipes are plain data, never changed.
 */
export function memoPlan<T>(key: string, plan: () => T): T {
  const known = memoPlans.get(key);
  if (known && known.fourStep === knownFourStepFrom().bytes) return known.recipe as T;
  const recipe = plan();
  lruSet(memoPlans, key, { recipe, fourStep: knownFourStepFrom().bytes }, MAX_MEMO_PLANS);
  return recipe;
}
const memoPlans = new Map<string, { recipe: unknown; fourStep: number | undefined }>();
const MAX_MEMO_PLANS = 320;

/** Fewest bytes of a 2-D array whose steps threads share (docs/DECISIONS.md: 2-D C2C). */
export const FFT2_SPLIT_FROM_BYTES = 1 << 21;

/** Largest 2-D array (bytes) the engine's 2-D path takes: two copies of it in one WebAssembly memory. */
const FFT2_MAX_BYTES = 2 ** 30;

/**
 * The 2-D recipe, or null where the general N-D path must run: cols not a multiple of the lanes, a row length
 * through Bluestein, a column length with a prime factor above the codelets, or an array over FFT2_MAX_BYTES.
 */
export function planCpuEngineFft2(
  rows: number,
  cols: number,
  precision: CpuPrecision,
  threads = 1,
): CpuEngineFft2Recipe | null {
  return memoPlan(`fft2/${rows}/${cols}/${precision}/${threads}`, () => {
    const columns = columnsOf(rows, cols, precision, threads);
    const row = columns ? planCpuEngineFft(cols, precision) : null;
    if (
      !columns ||
      !row ||
      row.kind === 'bluestein' ||
      row.kind === 'rader' ||
      row.kind === 'trivial' ||
      row.kind === 'reference'
    )
      return null;
    return { kind: 'fft2', rows, cols, precision, lanes: lanesFor(precision), row, ...columns };
  });
}

/** The column side of a 2-D recipe, or null (cols not a multiple of the lanes, rows not codelet-factored, too large). */
function columnsOf(
  rows: number,
  cols: number,
  precision: CpuPrecision,
  threads: number,
): Pick<CpuEngineFft2Recipe, 'colPasses' | 'blockGroups' | 'threads' | 'fma'> | null {
  const lanes = lanesFor(precision);
  const cb = precision === 'f32' ? 8 : 16;
  if (!Number.isSafeInteger(rows) || !Number.isSafeInteger(cols) || rows < 2 || cols < lanes) return null;
  if (cols % lanes !== 0 || Math.ceil(rows / lanes) * lanes * cols * cb > FFT2_MAX_BYTES) return null;
  // Column lengths the lane recipes run as passes (generic ones included where they beat Bluestein).
  if (
    !codeletFactored(rows) &&
    !(laneFactored(rows) && genericBeatsBluestein(genericPrimes(rows), rows, bluesteinLength(rows, precision)))
  )
    return null;
  let blockGroups = 128 / (lanes * cb);
  while ((cols / lanes) % blockGroups !== 0) blockGroups /= 2;
  return {
    colPasses: passesFor(chooseCpuRadices(rows), rows, true),
    blockGroups,
    threads: threads > 1 && rows * cols * cb >= FFT2_SPLIT_FROM_BYTES ? threads : 1,
    ...fused(),
  };
}

/**
 * Complex transforms of length `rows` along a non-last axis, `cols` complex values apart (the product of the axes
 * after it), by the 2-D engine's column module on the data where it lies: W adjacent columns in the lanes, no
 * transposes (src/backends/cpu/fft-columns-axis.ts). Where cols is not a multiple of the lanes the module's matrix
 * is padded with zero columns (`dataCols`: the data's own), to whole 128-byte blocks or else to whole lanes, when
 * that adds at most COLUMNS_MAX_PADDING of the work. Null where the column module does not apply (padding over that,
 * a length through Bluestein, an array over the 2-D engine's limit).
 */
export function planCpuEngineColumns(
  rows: number,
  cols: number,
  precision: CpuPrecision,
  threads = 1,
): CpuColumnsRecipe | null {
  const width = paddedColumns(cols, precision);
  const r = width === null ? null : unpaddedColumns(rows, width, precision, threads);
  return r && width !== cols ? { ...r, dataCols: cols } : r;
}

/** Most zero columns planCpuEngineColumns adds, as a fraction of the data's: the transposes it saves cost more. */
const COLUMNS_MAX_PADDING = 1 / 8;

/** The column module's width for `cols` complex columns: cols, or padded as planCpuEngineColumns says; else null. */
function paddedColumns(cols: number, precision: CpuPrecision): number | null {
  const lanes = lanesFor(precision);
  if (!Number.isSafeInteger(cols) || cols < lanes || cols % lanes === 0) return cols;
  for (const unit of [128 / (precision === 'f32' ? 8 : 16), lanes]) {
    const width = Math.ceil(cols / unit) * unit;
    if (width - cols <= cols * COLUMNS_MAX_PADDING) return width;
  }
  return null;
}

/** planCpuEngineColumns for a width the module takes as it is (a multiple of the lanes). */
function unpaddedColumns(
  rows: number,
  cols: number,
  precision: CpuPrecision,
  threads: number,
): CpuColumnsRecipe | null {
  const c = columnsOf(rows, cols, precision, 1);
  if (!c) return null;
  const { colPasses, blockGroups, fma } = c;
  const lanes = lanesFor(precision);
  // Threads share a block's column blocks from COLUMNS_SPLIT_FROM_BYTES, each taking at least one.
  const t = Math.min(threads, cols / (lanes * blockGroups));
  const split = t > 1 && rows * cols * (precision === 'f32' ? 8 : 16) >= COLUMNS_SPLIT_FROM_BYTES;
  return {
    rows,
    cols,
    precision,
    lanes,
    colPasses,
    blockGroups,
    ...(fma ? { fma } : {}),
    ...(split ? { threads: t } : {}),
  };
}

/**
 * Smallest block (bytes) whose column blocks threads share: below it the calling thread's copies in and out, which
 * stay serial, outweigh the halved kernel (512² f64 real, 2 MiB, took 1.12–1.17× one thread's time; docs/DECISIONS.md).
 */
const COLUMNS_SPLIT_FROM_BYTES = 4 * 2 ** 20;

/**
 * Real transforms of length `rows` along a non-last axis whose lines lie `inner` reals apart: pairs of adjacent
 * real columns as the complex columns of a rows × inner/2 matrix, the halves split in the column module's output
 * stage (and joined in its input stage for the inverse; src/codegen/wasm/real-columns-pairs.ts), so the data is
 * neither transposed nor run through the row kernels. Null where inner is odd or the column module does not apply.
 */
export function planCpuEngineRealColumns(
  rows: number,
  inner: number,
  precision: CpuPrecision,
  threads = 1,
): CpuColumnsRecipe | null {
  if (inner % 2 !== 0) return null;
  // Real pairs fill every column of the matrix: no padding.
  const c = unpaddedColumns(rows, inner / 2, precision, threads);
  // Long columns whose stage (a block's rows) outgrows L2 lose to the transposes and the row kernels.
  const stage = c ? rows * c.blockGroups * c.lanes * (precision === 'f32' ? 8 : 16) : Infinity;
  return c && stage <= REAL_COLUMNS_MAX_STAGE ? { ...c, realPairs: true } : null;
}

/**
 * The DCT-II (cF) and DCT-III (cI) of length `rows` along a non-last axis, lines `inner` reals apart: Makhoul's
 * reordering in the column module's copies and the real FFT of pairs of columns, the rotations in its stages
 * (src/codegen/wasm/real-columns-pairs.ts dctPost, dctPre); with `dst`, the DST-II and -III through the same (odd
 * input rows negated, output rows reversed). Null where planCpuEngineRealColumns is.
 */
export function planCpuEngineDctColumns(
  rows: number,
  inner: number,
  precision: CpuPrecision,
  dst = false,
  threads = 1,
): CpuColumnsRecipe | null {
  const r = planCpuEngineRealColumns(rows, inner, precision, threads);
  return r && { ...r, dct: true, ...(dst ? { dst } : {}) };
}

/** Largest column stage (rows × a block's bytes a row) of planCpuEngineRealColumns (docs/DECISIONS.md). */
const REAL_COLUMNS_MAX_STAGE = 2 ** 20;

/**
 * What the column module's generator reads (src/codegen/wasm/fft-columns.ts): a 2-D recipe's column side, and
 * `realPairs` where its columns are pairs of real ones (planCpuEngineRealColumns), `dct` for the DCT-II and -III of
 * those and `dst` for the DST-II and -III (planCpuEngineDctColumns). `threads`: a call splits each block's column
 * blocks between threads (the generator does not read it; shared memory is the compile's own flag). `dataCols`: the
 * data's columns where `cols` (the module's matrix) is padded with zero columns past them (complex recipes only; the
 * engine's copies read it, the generator does not).
 */
export type CpuColumnsRecipe = Pick<
  CpuEngineFft2Recipe,
  'rows' | 'cols' | 'precision' | 'lanes' | 'colPasses' | 'blockGroups' | 'fma'
> & { realPairs?: true; dct?: true; dst?: true; threads?: number; dataCols?: number };

/** The 3-D recipe (fftn of depth × rows × cols complex values), or null where the N-D driver must run. */
export function planCpuEngineFft3(
  depth: number,
  rows: number,
  cols: number,
  precision: CpuPrecision,
  threads = 1,
): CpuEngineFft2Recipe | null {
  return memoPlan(`fft3/${depth}/${rows}/${cols}/${precision}/${threads}`, () => {
    return volumeOf(planCpuEngineFft2(rows, cols, precision, threads), depth, precision, threads);
  });
}

/** A plane recipe with the third step: columns of the depth × (rows · cols) matrix of its planes; or null. */
function volumeOf(
  plane: CpuEngineFft2Recipe | null,
  depth: number,
  precision: CpuPrecision,
  threads: number,
): CpuEngineFft2Recipe | null {
  const d = plane ? columnsOf(depth, plane.rows * plane.cols, precision, threads) : null;
  if (!plane || !d) return null;
  return { ...plane, threads: d.threads, depth: { n: depth, colPasses: d.colPasses, blockGroups: d.blockGroups } };
}

/**
 * The real 3-D recipe (rfftn of depth × rows × n reals over the last three axes): the real 2-D recipe of each plane
 * and the third step over the depth × (rows · padded width) matrix of the planes' half spectra; null where the
 * N-D driver must run.
 */
export function planCpuEngineRfft3(
  depth: number,
  rows: number,
  n: number,
  precision: CpuPrecision,
  threads = 1,
): CpuEngineFft2Recipe | null {
  return memoPlan(`rfft3/${depth}/${rows}/${n}/${precision}/${threads}`, () => {
    return volumeOf(planCpuEngineRfft2(rows, n, precision, threads), depth, precision, threads);
  });
}

/**
 * The real 2-D recipe (rfft2 over the last two axes of rows × n reals, and its inverse), or null where the N-D
 * driver must run: odd n, a half length without the fused real module, a column length with a prime factor
 * above the codelets.
 */
export function planCpuEngineRfft2(
  rows: number,
  n: number,
  precision: CpuPrecision,
  threads = 1,
): CpuEngineFft2Recipe | null {
  return memoPlan(`rfft2/${rows}/${n}/${precision}/${threads}`, () => {
    const lanes = lanesFor(precision);
    const cb = precision === 'f32' ? 8 : 16;
    if (!Number.isSafeInteger(n) || n % 2 !== 0) return null;
    const row = planCpuEngineRfft(n, precision);
    if (!row || !row.realPost) return null;
    const block = (128 / (lanes * cb)) * lanes;
    const cols = Math.ceil((n / 2 + 1) / block) * block;
    // The complex column pass over the padded width.
    const columns = columnsOf(rows, cols, precision, threads);
    return columns ? { kind: 'fft2', rows, cols, precision, lanes, row, ...columns, real: { n } } : null;
  });
}

/** Fewest bytes of a single transform that threads split between them (docs/DECISIONS.md: split). */
export const SPLIT_FROM_BYTES = 1 << 22;
/**
 * The same for the split's own engine buffers (createBuffers), where the calling thread copies nothing in or out:
 * two threads paid from 1 MiB there (f32 2^17 1.2x, f64 2^16 1.3x; f64 2^15 lost).
 */
export const SPLIT_IN_PLACE_FROM_BYTES = 1 << 20;

/**
 * A single transform split across `threads` threads: the four-step recipe whatever the problem's size (each
 * phase's blocks are shared out between two barriers), for one problem of at least SPLIT_FROM_BYTES, or
 * SPLIT_IN_PLACE_FROM_BYTES for the split's own engine buffers (`inPlace`); else null (batches split by whole
 * problems instead).
 */
export function planCpuSplit(
  n: number,
  precision: CpuPrecision,
  batch: number,
  threads: number,
  inPlace = false,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> | null {
  const from = inPlace ? SPLIT_IN_PLACE_FROM_BYTES : SPLIT_FROM_BYTES;
  if (threads < 2 || batch !== 1 || n * (precision === 'f32' ? 8 : 16) < from) return null;
  return fourStepOf(n, precision, 0);
}

/** rfft of one row of n reals split across threads: the complex split of n/2 points with the real post step. */
export function planCpuSplitReal(
  n: number,
  precision: CpuPrecision,
  rows: number,
  threads: number,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> | null {
  const r = n % 2 === 0 ? planCpuSplit(n / 2, precision, rows, threads) : null;
  return r ? { ...r, realPost: true } : null;
}

/** DCT-II / DCT-III of one row of n reals split across threads: planCpuSplitReal with the DCT steps. */
export function planCpuSplitDct(
  n: number,
  precision: CpuPrecision,
  rows: number,
  threads: number,
): Extract<CpuEngineFftRecipe, { kind: 'four-step' }> | null {
  const r = planCpuSplitReal(n, precision, rows, threads);
  return r ? { ...r, dct2: true } : null;
}

/** Half-lengths from which plain real FFTs take generic passes where the complex planner chose Bluestein. */
export const GENERIC_HALF_RFFT_FROM = 16384;

/**
 * Real FFT in one module. Even n: the complex FFT of h = n/2 (the real input read as interleaved
 * complex) with the post-processing fused into the same module. The post-processing walks W outputs a step from
 * both ends, so it needs h ≥ W + 1; h must also run in the lanes directly (lane-split or lane-batch, not
 * Bluestein). Otherwise null, and the caller post-processes a plain complex plan. `r2r`: the module carries DCT,
 * DST or DHT rows (planCpuEngineDct2, planCpuEngineType1).
 */
export function planCpuEngineRfft(n: number, precision: CpuPrecision, r2r = false): CpuLaneRecipe | null {
  if (!Number.isSafeInteger(n) || n < 2) return null;
  if (n % 2 === 1) {
    // Odd n: two real problems a complex transform of length n; the split walks (n−1)/2 outputs W a step.
    const inner = planCpuEngineFft(n, precision);
    if (inner.kind === 'four-step' && inner.partial)
      return (n - 1) / 2 >= inner.lanes ? { ...inner, realPairs: true } : null;
    if (inner.kind !== 'lane-split' && inner.kind !== 'lane-batch') return null;
    return (n - 1) / 2 >= inner.lanes ? { ...inner, realPairs: true } : null;
  }
  let inner = planCpuEngineFft(n / 2, precision);
  // A half-length that the complex planner sends to Bluestein but could run as generic passes may take them here: the
  // fused module needs a lane recipe, and without one the rows take the general path around a Bluestein transform.
  // DCT/DST/DHT rows (`r2r`) always do: their general path is slow (0.35–0.6 of its time). Plain real FFTs only where
  // the half splits across the lanes and is long (rfft of 142544 = 2⁴·59·151: 0.51); shorter or lane-batch halves
  // lost to Bluestein's path (508 × 2048 1.16×, one row of 4844 5.8×; docs/DECISIONS.md: real modules for halves).
  if (
    inner.kind === 'bluestein' &&
    laneFactored(inner.n) &&
    (n / 2) * (precision === 'f32' ? 8 : 16) < GENERIC_LANE_BELOW_BYTES
  ) {
    const lane = lanePasses(n / 2, precision);
    if (r2r || (lane.kind === 'lane-split' && n / 2 >= GENERIC_HALF_RFFT_FROM)) inner = lane;
  }
  if (inner.kind === 'bluestein' || inner.kind === 'rader' || inner.kind === 'trivial' || inner.kind === 'reference')
    return null;
  return n / 2 >= inner.lanes + 1 ? { ...inner, realPost: true } : null;
}

/**
 * Shortest even length planCpuEngineRfftForward sends to the pairs path. Shorter rows come in batches, where the
 * half-length lane-batch fills its lanes with rows and does half the work (36 … 68 points in batches of 15000 and
 * more: the pairs path took 1.06–1.17× as long); a single short row costs the call's overhead either way.
 */
export const PAIRS_FROM = 1024;

/**
 * The forward real FFT's module: planCpuEngineRfft's, except where an even n's half-length transform runs
 * lane-batch (W rows in the lanes, so a single row leaves W − 1 of them idle) and the full length splits across the
 * lanes: then rows go two a complex transform of n (the pairs path). f32 44100: 22050 is not a multiple of 4, 44100
 * is; one row took 529 µs on the half length against 116 for 48000. The module carries the inverse too.
 */
export function planCpuEngineRfftForward(n: number, precision: CpuPrecision): CpuRealRecipe | null {
  const r = planCpuEngineRfft(n, precision);
  // Real FFTs only: even n whose half is Bluestein too (the DCT rows of the pairs path take odd n).
  if (!r) return bluesteinPairs(n, precision, true);
  if (n % 2 === 1 || r.kind !== 'lane-batch' || n < PAIRS_FROM) return r;
  const full = planCpuEngineFft(n, precision);
  return full.kind === 'lane-split' && n / 2 - 1 >= full.lanes ? { ...full, realPairs: true } : r;
}

/**
 * Odd n (and with `even`, even n whose half has no fused module) whose complex FFT is Bluestein: rows two a complex
 * transform around it, where the pairs row steps can walk W outputs a step and Bluestein's inner plan has the
 * pointwise product. Before, these rows were packed and
 * split in JavaScript, and their DCTs ran the float64 general path.
 */
/** Largest inner Bluestein length (bytes of complex values) for which even real rows pair around the full length. */
export const EVEN_BLUESTEIN_PAIRS_MAX_BYTES = 1 << 19;

function bluesteinPairs(n: number, precision: CpuPrecision, even = false): CpuPairsRecipe | null {
  if (!Number.isSafeInteger(n) || n < 3 || (n % 2 === 0 && !even)) return null;
  const b = planCpuEngineFft(n, precision);
  // Primes: rows two a Rader transform.
  if (b.kind === 'rader') return (n - 1) / 2 >= b.lanes ? { ...b, realPairs: true } : null;
  if (b.kind !== 'bluestein' || (n % 2 === 1 ? (n - 1) / 2 : n / 2 - 1) < b.lanes) return null;
  // Even n replaces two Bluesteins of the half by one of the full length: a win only while its inner length stays
  // in cache (docs/DECISIONS.md: odd Bluestein lengths).
  if (n % 2 === 0 && b.inner.n * (precision === 'f32' ? 8 : 16) > EVEN_BLUESTEIN_PAIRS_MAX_BYTES) return null;
  if ((b.inner.kind !== 'lane-split' && b.inner.kind !== 'four-step') || !b.inner.pointwise) return null;
  return { ...b, realPairs: true };
}

/**
 * The DCT/DST module around the fused real FFT, where that exists (else null: the generic adapter): even n through
 * the half-length path; odd n through the pairs path, whose forward transform carries types II and IV and its
 * inverse type III.
 */
export function planCpuEngineDct2(n: number, precision: CpuPrecision): CpuRealRecipe | null {
  const r = planCpuEngineRfft(n, precision, true) ?? bluesteinPairs(n, precision);
  return r ? { ...r, dct2: true } : null;
}

/**
 * DCT-I (sine false) or DST-I (sine true) of n reals around the fused real FFT of the symmetric extension's
 * length, 2(n − 1) or 2(n + 1), where that exists and n leaves the extension's runs a whole vector (DCT-I:
 * n − 2 ≥ W; DST-I: n ≥ W); else null (the generic adapter).
 */
export function planCpuEngineType1(n: number, precision: CpuPrecision, sine: boolean): CpuLaneRecipe | null {
  if (!Number.isSafeInteger(n) || n - (sine ? 0 : 2) < lanesFor(precision)) return null;
  const r = planCpuEngineRfft(2 * (sine ? n + 1 : n - 1), precision, true);
  return r?.realPost ? { ...r, dct1: true } : null;
}
