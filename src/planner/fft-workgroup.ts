/**
 * Planner for FFTs that fit one workgroup: problem size + device limits → WorkgroupFftRecipe.
 *
 * Resource analysis in the spirit of the seeds' ID-FFT V1–V3:
 * - Few stages: every stage but the last costs a round trip through workgroup memory and barriers, so
 *   we use the largest register radix (16 by default) and spread the digits evenly over
 *   ⌈log₂N / 4⌉ stages (e.g. 8192 = 16·8·8·8 rather than 16·16·16·2: equal work per stage).
 * - Small N lives entirely in one invocation's registers (no exchange, no barrier).
 * - Enough invocations per workgroup to hide latency: several problems share a workgroup when one
 *   problem needs few invocations.
 * - Workgroup memory decides the largest N: a complex exchange needs 8 bytes an element; when that does
 *   not fit we exchange real and imaginary parts in separate rounds (4 bytes an element), which doubles the
 *   largest N (8192 with 32–48 KiB); padding is added only where it fits.
 */
import type { DeviceLimits } from './device-limits.js';
import { isPowerOfTwo, nextPow2, primeFactors } from '../core/integers.js';
import { ArgumentError, DeviceLimitError, UnsupportedError } from '../errors.js';
import type { FftStage, WorkgroupFftRecipe } from './fft-recipe.js';
import { stockhamOperatorString } from '../core/stockham.js';
import { formatOperatorString } from '../core/operator-string.js';
import { exchangeConflicts, passRowStride } from './row-layout.js';
import { split4RoundBits, subgroupBitMaps } from './fft-subgroup.js';
import { planRoundsFft, ROUNDS_FROM, ROUNDS_UP_TO } from './fft-rounds.js';

export interface WorkgroupPlanOptions {
  /** Largest radix done in registers (power of two, 2..64). */
  maxRadix?: number;
  /**
   * Single-workgroup lengths with both twos and odd factors up to this n (default: all; 0 turns it off) get
   * radices that pack twos and odd factors together (mergedRadices: 100 = 10·10) where that saves a stage
   * and the workgroup fills no less of its warps.
   */
  mergedRadixUpTo?: number;
  /** The stages' radices, in order (product n, each 2..64), instead of the planner's; for experiments. */
  radices?: number[];
  /**
   * Odd prime factors grouped into composite odd radices of at most this many points (e.g. 9, 15, 25),
   * fewer stages and exchanges (default 16); 0 keeps one stage a prime factor.
   */
  maxOddRadix?: number;
  /** Largest N done entirely by one invocation (no workgroup exchange). */
  maxSingleInvocation?: number;
  /** Target invocations per workgroup when several problems share one. */
  targetWorkgroupSize?: number;
  /**
   * Force an exchange mode (tests use it to cover each). 'rounds' plans a fixed-position recipe whose exchanges
   * go through one block of workgroup memory at a time (planner/fft-rounds.ts).
   */
  exchange?: 'complex' | 'split' | 'split4' | 'rounds';
  /** 'rounds': complex values an invocation holds in registers (default ROUNDS_REGISTERS). */
  registers?: number;
  /** 'rounds': real and imaginary parts in separate rounds through an f32 block (default off). */
  roundsSplit?: boolean;
  /** Smallest n that prefers the split exchange to the complex one where both fit (default 128). */
  splitExchangeFrom?: number;
  /** Force padding on/off. */
  padding?: boolean;
  /**
   * Single-workgroup transforms with an exchange: unpadded rows with XOR-swizzled indices (i ^ ((i >> 4) & 31))
   * instead of padded ones, where rows are a multiple of 32 values: the same spread over the banks in 1/16 less
   * workgroup memory, so more workgroups stay resident (docs/DECISIONS.md: swizzle).
   */
  swizzle?: boolean;
  /**
   * Multi-pass kernels' rows: 'swizzled' (default where the pass length is a multiple of 32: unpadded rows,
   * each 32-value block XOR-swizzled and rotated by 32/B banks for column r, see row-layout.ts) or 'padded'
   * (odd-length padded rows, the earlier layout; always for other lengths).
   */
  passLayout?: 'padded' | 'swizzled';
  /**
   * Single-stage transforms (one invocation per problem) read and write global memory through workgroup
   * memory so that neighbouring invocations touch neighbouring addresses (default: on).
   */
  staging?: boolean;
  /** 'table': every twiddle read from the table; 'recurrence': one read, powers by multiplication. */
  twiddles?: 'table' | 'recurrence' | 'two-level';
  /** Cap problems per workgroup (e.g. by the batch, to avoid idle invocations). */
  maxProblemsPerWorkgroup?: number;
  /** Plan one pass of a multi-pass transform (see PassInfo): column-staged loads, outer twiddles. */
  pass?: { total: number; stride: number; outerTwiddle?: boolean; batchFastest?: boolean };
  /** Multi-pass kernels: 'direct' (interleaved columns, no staging) or 'staged' loads and stores. */
  passLoads?: 'direct' | 'staged';
  /** Multi-pass: fewest columns per workgroup (neighbouring columns make the loads contiguous). */
  minColumns?: number;
  /** Multi-pass: longest sub-transform per pass (default 256, see planMultiPass). */
  maxPassLength?: number;
  /** Multi-pass: fewest columns per workgroup of the last pass (default minColumns). */
  lastPassColumns?: number;
  /**
   * Multi-pass kernels with more than one stage: 'split' (default) exchanges real and imaginary parts in two
   * rounds, 'complex' in one vec2 round where the columns fit. `exchange` ('complex' / 'split') overrides it.
   */
  passExchange?: 'complex' | 'split';
  /**
   * Multi-pass: the largest later pass the long-first-pass rule of planMultiPass may leave (default 1024;
   * 0 turns the rule off). The fused R2C uses 256: its 512-point fused last pass was slower.
   */
  longFirstRest?: number;
  /**
   * Multi-pass: the longest first pass the long-first-pass rule may choose (default 1024; 512 was the rule
   * before for lengths that are not powers of two). For powers of two only 2048 changes anything, an
   * experiment that measured slower (see planMultiPass).
   */
  longFirstMax?: number;
  /**
   * Multi-pass: the pass lengths, first to last (their product is n), instead of the planner's split.
   * A first pass of 512 points or more is planned as the long first pass (radix-32 stages, its columns).
   */
  passLengths?: readonly number[];
  /**
   * Multi-pass powers of two: two passes whose last is 64 points (else 128) and whose first then holds the
   * rest, up to 1024 points (see planMultiPass). Default: on where the balanced split has two equal passes;
   * the fused R2C asks for it wherever it applies, and then three passes also end in 64 points where the
   * rest splits into two passes whose later one is ≤ 256 points.
   */
  shortLastPass?: boolean;
  /** Multi-pass: the last pass's passExchange (the fused R2C post-processing needs vec2 rows). */
  lastPassExchange?: 'complex' | 'split';
  /** Multi-pass: the last pass's passLayout. */
  lastPassLayout?: 'padded' | 'swizzled';
  /** Multi-pass: fewest columns per workgroup of the first pass (default minColumns; lastPassColumns wins for a single pass). */
  firstPassColumns?: number;
  /** Multi-pass, first pass (Ns = 1) with direct loads: store straight from registers or along rows. */
  passStore?: 'direct' | 'rows';
  /**
   * Powers of two whose last stage would give each invocation an odd number of butterflies get the
   * radices of pairedLastRadices instead, so that an R2C's last stage can pair mirror butterflies in one
   * invocation (see r2cPostPaired in the codegen).
   */
  evenLastButterflies?: boolean;
  /**
   * The device's subgroup size where it has the 'subgroups' feature and a fixed size (min = max); absent, the
   * planner never uses subgroup operations.
   */
  subgroupSize?: number;
  /**
   * Single-workgroup powers of two with a subgroupSize: exchanges whose moved bits fit one subgroup go through
   * subgroupShuffleXor instead of workgroup memory (see planner/fft-subgroup.ts). Default off: slower wherever it
   * was timed (docs/DECISIONS.md: subgroupShuffle).
   */
  subgroupShuffle?: boolean;
}

/**
 * Radices of a power of two n > maxRadix whose last radix is smaller than the first (the largest), so
 * that each invocation holds an even number of last-stage butterflies: as many maxRadix stages as fit,
 * the remainder's bits in a last stage of their own, or, with no remainder, one maxRadix stage split in
 * two (maxRadix 16: 64 = 16·4, 256 = 16·8·2, 512 = 16·16·2, 4096 = 16·16·8·2).
 */
export function pairedLastRadices(n: number, maxRadix: number): number[] {
  const bits = Math.log2(n);
  const rb = Math.log2(maxRadix);
  const q = Math.floor(bits / rb);
  const rem = bits - q * rb;
  const full = (k: number) => Array.from({ length: k }, () => maxRadix);
  if (rem > 0 && q >= 1) return [...full(q), 1 << rem].sort((a, b) => b - a);
  // rem = 0: one maxRadix stage becomes maxRadix/2 and 2.
  return [...full(q - 1), maxRadix / 2, 2];
}

/** The limits the planner reads; a subset of DeviceLimits so tests can pass literals. */
export type PlannerLimits = Pick<
  DeviceLimits,
  'maxComputeWorkgroupStorageSize' | 'maxComputeInvocationsPerWorkgroup' | 'maxComputeWorkgroupSizeX'
>;

export const RADICES_IN_REGISTERS = [2, 3, 4, 5, 7, 8, 16] as const;

export { isPowerOfTwo };

/**
 * Factors packed into as few products of at most `max` as possible, largest factors first into the
 * emptiest product that can take them (which keeps the products balanced); sorted largest first. Null
 * when no packing exists (a factor above max). Shared by the radix choices below and the multi-pass
 * planner's pass lengths.
 */
export function packFactors(factors: readonly number[], max: number): number[] | null {
  const sorted = [...factors].sort((a, b) => b - a);
  for (let bins = 1; bins <= sorted.length; bins++) {
    const prod = new Array<number>(bins).fill(1);
    let ok = true;
    for (const f of sorted) {
      let best = -1;
      for (let i = 0; i < bins; i++) if (prod[i] * f <= max && (best < 0 || prod[i] < prod[best])) best = i;
      if (best < 0) {
        ok = false;
        break;
      }
      prod[best] *= f;
    }
    if (ok) return prod.sort((a, b) => b - a);
  }
  return null;
}

/**
 * Odd prime factors grouped into composite radices of at most `max` (as few stages as possible, the
 * products balanced): 3^5 with max 16 → 9·9·3. Each is one odd-radix butterfly in registers, split into
 * its prime factors by the code generator, so a stage fewer means one workgroup exchange fewer.
 */
export function groupOddFactors(primes: readonly number[], max: number): number[] {
  const sorted = [...primes].sort((a, b) => b - a);
  return max <= 2 || sorted.length < 2 ? sorted : (packFactors(sorted, max) ?? sorted);
}

/**
 * All prime factors of n (twos included) packed into as few radices of at most `max` as possible, the
 * products balanced, largest first: 100 → 10·10, 500 → 10·10·5, 360 → 10·6·6. Null when n has a prime
 * factor above max.
 */
export function mergedRadices(n: number, max = 16): number[] | null {
  return packFactors(primeFactors(n), max);
}

/**
 * Splits n into stage radices. Powers of two: balanced powers of two ≤ maxRadix. Other n: the power-of-two
 * part is split as above, and the odd prime factors stay one radix each (maxOddRadix 0) or are grouped
 * into composite odd radices of at most maxOddRadix points (groupOddFactors).
 */
export function factorRadices(n: number, maxRadix = 16, maxOddRadix = 0): number[] {
  if (n === 1) return [1];
  let m = n;
  let twos = 0;
  while (m % 2 === 0) {
    m /= 2;
    twos++;
  }
  const odd: number[] = [];
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      odd.push(p);
      m /= p;
    }
  }
  if (m > 1) odd.push(m);
  const maxBits = Math.log2(maxRadix);
  const pow2: number[] = [];
  if (twos > 0) {
    const stages = Math.ceil(twos / maxBits);
    const base = Math.floor(twos / stages);
    const extra = twos % stages;
    for (let s = 0; s < stages; s++) pow2.push(2 ** (base + (s < extra ? 1 : 0)));
  }
  // Largest radices first: the first stage reads global memory directly, where big butterflies help most.
  return [...pow2, ...(maxOddRadix > 0 ? groupOddFactors(odd, maxOddRadix) : odd.sort((a, b) => b - a))];
}

export function largestWorkgroupFft(limits: PlannerLimits, options: WorkgroupPlanOptions = {}): number {
  let best = 1;
  for (let n = 2; n <= 1 << 16; n *= 2) {
    try {
      planWorkgroupFft(n, 1, limits, options);
      best = n;
    } catch {
      break;
    }
  }
  return best;
}

/** Transform length from which the two-level twiddles are the default for powers of two. */
export const TWO_LEVEL_TWIDDLES_FROM = 4096;

/**
 * Radices whose twiddles 'two-level' reads twice: 16 and up, and odd radices from 5. Radices 2, 4, 8 and 3
 * keep the one-read recurrence, whose powers reach at most W^7 there (docs/DECISIONS.md: twiddles = 'two-level').
 */
export function twoLevelRadix(r: number): boolean {
  return r >= 16 || (r % 2 === 1 && r >= 5);
}

function defaultTwiddles(total: number): 'recurrence' | 'two-level' {
  return total >= TWO_LEVEL_TWIDDLES_FROM || (total & (total - 1)) !== 0 ? 'two-level' : 'recurrence';
}

export function planWorkgroupFft(
  n: number,
  batch: number,
  limits: PlannerLimits,
  options: WorkgroupPlanOptions = {},
): WorkgroupFftRecipe {
  if (!Number.isSafeInteger(n) || n < 1) throw new ArgumentError('n', n, 'a positive integer');
  if (options.exchange === 'rounds') {
    if (options.pass) throw new ArgumentError('exchange', 'rounds', 'a single-workgroup transform (not a pass)');
    return planRoundsFft(n, batch, limits, options);
  }
  // Powers of two from 8192 to 16384 exchange in rounds where the device holds the block: C2C 8192 0.78 → 0.73
  // ms and 16384 (two passes before) 1.16 → 0.92 on an H200, the real transforms of twice those lengths 3–35%
  // faster (docs/DECISIONS.md: exchange 'rounds'). Explicit exchanges, radices and subgroup shuffles keep theirs.
  if (
    !options.exchange &&
    !options.pass &&
    !options.radices &&
    !(options.subgroupShuffle && options.subgroupSize) &&
    isPowerOfTwo(n) &&
    n >= ROUNDS_FROM &&
    n <= ROUNDS_UP_TO
  ) {
    try {
      return planRoundsFft(n, batch, limits, options);
    } catch (e) {
      if (!(e instanceof DeviceLimitError)) throw e;
    }
  }
  // Radix 32 for the largest single-workgroup lengths: 8192 in three stages of 256 invocations instead of
  // four stages of 512 (docs/DECISIONS.md: maxRadix).
  const maxRadix = options.maxRadix ?? (n >= 8192 && !options.pass ? 32 : 16);
  if (!isPowerOfTwo(maxRadix) || maxRadix < 2 || maxRadix > 64)
    throw new ArgumentError('maxRadix', maxRadix, 'a power of two in 2..64');
  const maxSingle = options.maxSingleInvocation ?? 16;
  // Small workgroups keep more of them resident per SM; only the tiniest transforms (a few bytes per
  // invocation) want more invocations per workgroup (docs/DECISIONS.md: targetWorkgroupSize).
  const target = options.targetWorkgroupSize ?? (n <= 4 ? 128 : 32);
  const maxInv = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);

  // The default radix-32 lengths (powers of two) take as many 32-point stages as fit and the remainder last,
  // not balanced stages (8192 = 32·32·8). pairedLastRadices gives that split wherever 32 does not divide evenly
  // (docs/DECISIONS.md: pairedLastRadices).
  const fullFirst = options.maxRadix === undefined && maxRadix === 32 && isPowerOfTwo(n) && Math.log2(n) % 5 !== 0;
  // Odd factors grouped into radices of up to 16 points: fewer stages, faster than 27 nearly everywhere
  // (docs/DECISIONS.md: maxOddRadix).
  const balanced =
    n <= maxSingle && isPowerOfTwo(n)
      ? [n]
      : fullFirst
        ? pairedLastRadices(n, 32)
        : factorRadices(n, maxRadix, options.maxOddRadix ?? 16);
  // Single-workgroup lengths with both twos and odd factors: twos and odd factors packed together where
  // that saves a stage (100 = 10·10 instead of 4·5·5), unless the workgroup then fills less of its warps.
  // The rule keeps out cases whose workgroup would fill less of its warps, like 1000 = 10·10·10
  // (docs/DECISIONS.md: packFactors).
  if (
    !options.radices &&
    !options.pass &&
    !isPowerOfTwo(n) &&
    n % 2 === 0 &&
    n <= (options.mergedRadixUpTo ?? Infinity)
  ) {
    const merged = mergedRadices(n, 16);
    if (merged && merged.length < balanced.length) {
      const lanes = (r: WorkgroupFftRecipe) => r.workgroupSize / (32 * Math.ceil(r.workgroupSize / 32));
      try {
        const alt = planWorkgroupFft(n, batch, limits, { ...options, radices: merged });
        const base = planWorkgroupFft(n, batch, limits, { ...options, mergedRadixUpTo: 0 });
        return lanes(alt) >= lanes(base) ? alt : base;
      } catch (e) {
        if (!(e instanceof DeviceLimitError)) throw e;
      }
    }
  }
  if (balanced.some((r) => r > 64)) {
    throw new UnsupportedError(
      `n = ${n} has the prime factor ${Math.max(...balanced)}, larger than the register radices (≤ 64) of the workgroup FFT`,
    );
  }
  // An odd number of last-stage butterflies per invocation (the last radix is the largest): re-split a
  // power of two so that the last radix is smaller than the first (see pairedLastRadices).
  const oddLast = Math.ceil(n / balanced[balanced.length - 1] / Math.ceil(n / Math.max(...balanced))) % 2 === 1;
  let radices =
    options.evenLastButterflies && balanced.length > 1 && isPowerOfTwo(n) && oddLast
      ? pairedLastRadices(n, maxRadix)
      : balanced;
  if (options.radices) {
    const prod = options.radices.reduce((a, b) => a * b, 1);
    if (prod !== n || options.radices.some((r) => !Number.isInteger(r) || r < 2 || r > 64)) {
      throw new ArgumentError('radices', options.radices, `integers in 2..64 whose product is n = ${n}`);
    }
    radices = [...options.radices];
  }
  const l = Math.ceil(n / Math.max(...radices));
  const stages: FftStage[] = [];
  let stride = 1;
  for (const r of radices) {
    stages.push({ radix: r, stride, butterfliesPerInvocation: Math.ceil(n / r / l) });
    stride *= r;
  }
  // With mixed radices a stage may need more than one butterfly's worth of registers per invocation.
  const registers = Math.max(...stages.map((s) => s.radix * s.butterfliesPerInvocation));
  if (l > maxInv) {
    throw new DeviceLimitError('maxComputeInvocationsPerWorkgroup', l, maxInv, `a single-workgroup FFT of n = ${n}`);
  }

  const storage = limits.maxComputeWorkgroupStorageSize;
  const padShift = 4;
  const padded = (count: number, pad: boolean) => (pad ? count + (count >> padShift) + 1 : count);
  let exchange: WorkgroupFftRecipe['exchange'] = 'none';
  let pad = false;
  let elemBytes = 0;
  // 'split4' partitions every exchange by one bit of the butterfly index that the writing and the reading
  // invocations both hold in t (see exchangeCode): powers of two with ≥ 3 stages, an even number of
  // invocations, and the first radix's bits below the invocation bits.
  // The first stage's butterfly index has bits 0 and log2 R0 swapped (exchangeCode), within a warp's 32
  // invocations only when R0 ≤ 16, so that its global loads stay the same contiguous runs.
  const split4Ok = isPowerOfTwo(n) && stages.length >= 3 && l % 2 === 0 && radices[0] < l && radices[0] <= 16;
  if (stages.length > 1) {
    const candidates: ['complex' | 'split' | 'split4', boolean][] = [];
    // From n = 128 the split exchange (half the workgroup memory, so more workgroups stay resident) beats one
    // round of vec2 exchanges. 'split4' only when asked for: 16384 points in one workgroup leave one workgroup
    // an SM and lost to two passes (docs/DECISIONS.md: exchange).
    const order =
      n >= (options.splitExchangeFrom ?? 128) ? (['split', 'complex'] as const) : (['complex', 'split'] as const);
    if (options.exchange === 'split4' && !split4Ok) {
      // Radix-32 first stages (the default from n = 8192): plan with radix ≤ 16 instead.
      if (isPowerOfTwo(n) && maxRadix > 16 && !options.pass)
        return planWorkgroupFft(n, batch, limits, { ...options, maxRadix: 16 });
      throw new ArgumentError(
        'exchange',
        'split4',
        `a power-of-two n in ≥ 3 stages with an even number of invocations (n = ${n}: radices ${radices.join('·')}, ${l} invocations)`,
      );
    }
    for (const ex of options.exchange ? [options.exchange] : order) {
      for (const p of options.padding === undefined ? [true, false] : [options.padding]) candidates.push([ex, p]);
    }
    const bytes = (ex: string, p: boolean) =>
      ex === 'split4' ? padded(n / 2, p) * 4 : padded(n, p) * (ex === 'complex' ? 8 : 4);
    const fit = candidates.find(([ex, p]) => bytes(ex, p) <= storage);
    if (!fit) {
      const needed = padded(n, false) * 4;
      throw new DeviceLimitError(
        'maxComputeWorkgroupStorageSize',
        needed,
        storage,
        `a single-workgroup FFT of n = ${n}`,
      );
    }
    [exchange, pad] = fit;
    elemBytes = exchange === 'complex' ? 8 : 4;
  }

  const pass = options.pass;
  if (pass) {
    // Rows padded to an odd length so that a warp's neighbouring columns fall in different banks. Column
    // staging ('staged' loads) and single-stage passes keep whole vec2 rows; direct-load kernels touch
    // workgroup memory only in the exchanges between stages, and by default exchange real and imaginary
    // parts in two rounds: half the workgroup memory, so more workgroups stay resident, and a 1024-point
    // pass keeps 8 neighbouring columns (64-byte runs) in 48 KiB (docs/DECISIONS.md: passExchange).
    const direct = (options.passLoads ?? 'direct') === 'direct';
    const cols = options.minColumns ?? 4;
    const complexFits = cols * passRowStride(n) * 8 <= storage;
    const splitOk = direct && stages.length > 1;
    // A forced 'split' applies where it can (the option is a tuning knob; the transform is the same).
    const prefer =
      options.exchange === 'complex' || options.exchange === 'split'
        ? options.exchange
        : (options.passExchange ?? 'split');
    exchange = splitOk && (prefer === 'split' || !complexFits) ? 'split' : 'complex';
    pad = true;
    elemBytes = exchange === 'complex' ? 8 : 4;
  }
  const staging = !pass && stages.length === 1 && n > 1 && (options.staging ?? true);
  if (staging) {
    exchange = 'complex';
    pad = true;
    elemBytes = 8;
  }
  // Subgroup shuffles for the exchanges whose moved bits fit one subgroup, latest first (the last stage's lanes
  // then take the lowest output bits: contiguous stores); stages around one keep the bit maps it chose.
  const sub = options.subgroupSize;
  const shuffleOk =
    !!sub &&
    isPowerOfTwo(sub) &&
    (options.subgroupShuffle ?? false) &&
    !pass &&
    !staging &&
    stages.length > 1 &&
    isPowerOfTwo(n) &&
    l % sub === 0 &&
    exchange !== 'none' &&
    stages.every((st) => st.butterfliesPerInvocation * l * st.radix === n && isPowerOfTwo(st.butterfliesPerInvocation));
  let shuffles = 0;
  if (shuffleOk) {
    for (let s = stages.length - 2; s >= 0; s--) {
      if (stages[s + 1].butterflyBits || stages[s].exchange === 'shuffle') continue;
      const maps = subgroupBitMaps(n, l, stages, s, sub!);
      if (!maps) continue;
      stages[s] = { ...stages[s], exchange: 'shuffle', butterflyBits: maps.src };
      stages[s + 1] = { ...stages[s + 1], butterflyBits: maps.dst };
      shuffles++;
    }
    if (shuffles)
      stages.forEach(
        (st, s) => s < stages.length - 1 && !st.exchange && (stages[s] = { ...st, exchange: 'workgroup' }),
      );
    // 'split4' rounds need the round's bit in t on both sides of each workgroup exchange (see split4RoundBits).
    if (shuffles && exchange === 'split4' && !split4RoundBits(stages).ok) {
      stages.forEach(
        (st, s) =>
          (stages[s] = { radix: st.radix, stride: st.stride, butterfliesPerInvocation: st.butterfliesPerInvocation }),
      );
      shuffles = 0;
    }
    if (shuffles === stages.length - 1) {
      // Every exchange in registers: no workgroup memory at all.
      exchange = 'none';
      pad = false;
      elemBytes = 0;
    }
  }
  const rowN = exchange === 'split4' ? n / 2 : n;
  // Swizzled rows by default from 4096 values a row, where they measured faster; from 64 to 2048 values no
  // better and at 32 slower (docs/DECISIONS.md: swizzle).
  const swizzle =
    (options.swizzle ?? (options.padding === undefined && rowN >= 4096)) &&
    !pass &&
    !staging &&
    exchange !== 'none' &&
    rowN % 32 === 0;
  // Pass kernels: swizzled rows rotated a column (see row-layout.ts) where rows are a multiple of 32 values;
  // the model put the padded rows' exchanges at 2–3.5 wavefronts an access, these at 1–1.5.
  const passSwizzle = !!pass && (options.passLayout ?? 'swizzled') === 'swizzled' && n % 32 === 0;
  if (swizzle || passSwizzle) pad = false;
  const rowStride = passSwizzle ? n : pass ? passRowStride(n) : padded(rowN, pad);
  let b = Math.max(pass ? (options.minColumns ?? 4) : 1, Math.floor(target / l));
  if (elemBytes > 0) b = Math.min(b, Math.floor(storage / (rowStride * elemBytes)));
  if (pass && b < (options.minColumns ?? 4)) {
    throw new DeviceLimitError(
      'maxComputeWorkgroupStorageSize',
      (options.minColumns ?? 4) * rowStride * elemBytes,
      storage,
      `a ${n}-point pass with ${options.minColumns ?? 4} columns`,
    );
  }
  b = Math.min(b, Math.floor(maxInv / l));
  if (options.maxProblemsPerWorkgroup) b = Math.min(b, options.maxProblemsPerWorkgroup);
  // Keep b a power of two so the pipeline cache sees few variants across batches.
  b = 2 ** Math.floor(Math.log2(Math.max(1, Math.min(b, nextPow2(batch)))));
  if (pass && pass.total % n !== 0)
    throw new ArgumentError('pass.total', pass.total, `a multiple of the pass length ${n}`);

  const recipe: WorkgroupFftRecipe = {
    algorithm: 'stockham-workgroup',
    n,
    radices,
    stages,
    operators:
      radices.length === 1 && radices[0] === 1 ? '' : formatOperatorString(stockhamOperatorString(radices), 'ascii'),
    registers,
    invocationsPerProblem: l,
    problemsPerWorkgroup: b,
    workgroupSize: l * b,
    exchange,
    padShift: pad ? padShift : 0,
    ...(swizzle ? { swizzle: true } : {}),
    ...(shuffles ? { subgroupSize: sub } : {}),
    workgroupBytes: staging ? 8 * b * (n + 1) : elemBytes * b * rowStride,
    // Two table reads a butterfly from 4096 points and for other lengths (error at or below cuFFT's), one
    // below (its error is already there) (docs/DECISIONS.md: twiddles = 'two-level').
    twiddles: options.twiddles ?? defaultTwiddles(options.pass?.total ?? n),
    staging,
    ...(pass
      ? {
          pass: {
            total: pass.total,
            stride: pass.stride,
            store: passStore(pass, options, exchange),
            outerTwiddle: pass.outerTwiddle ?? true,
            loads: options.passLoads ?? 'direct',
            batchFastest: pass.batchFastest ?? false,
          },
        }
      : {}),
    bytesPerProblem: 16 * n,
  };
  if (passSwizzle) {
    // Column r's 32-value blocks rotate by 32/B banks, so a warp's B columns take disjoint bank ranges; the
    // XOR's shift is the one the model rates best for this recipe's exchanges.
    const rotate = 32 / Math.min(b, 32);
    // 4 unless another is strictly better: the stage writes j·R + k step R values a butterfly, which the XOR
    // spreads best from bit log2 R (radix-8 first stages: 3). Each candidate is modelled once.
    const rated = [4, 5, 3].map((shift) => ({
      shift,
      cost: exchangeConflicts(recipe, { kind: 'swizzled', rowStride: n, shift, rotate }),
    }));
    const { shift } = rated.reduce((best, c) => (c.cost < best.cost - 1e-9 ? c : best));
    Object.assign(recipe, { swizzle: true, swizzleShift: shift, swizzleRotate: rotate });
  }
  return recipe;
}

function passStore(
  pass: { stride: number; batchFastest?: boolean },
  options: WorkgroupPlanOptions,
  exchange: string,
): 'direct' | 'column' | 'rows' {
  const direct = (options.passLoads ?? 'direct') === 'direct';
  if (pass.stride > 1) return direct ? 'direct' : 'column';
  // Row stores stage vec2 rows and need plain contiguous output rows (not the batch-fastest N-D layout).
  const rowsOk = direct && exchange === 'complex' && !pass.batchFastest;
  return options.passStore === 'rows' && rowsOk ? 'rows' : 'direct';
}
