/**
 * Planner for transforms longer than one workgroup holds (the seeds' MS-ID-FFT): N = R_1·…·R_P, pass p
 * a generalised Stockham stage of radix R_p computed as a whole sub-transform in one workgroup.
 *
 * Premises (seed 004): as few passes as possible — each costs a full read and write of the data — so the
 * pass length is the largest that fits workgroup memory with enough neighbouring columns per workgroup
 * for contiguous loads (4 columns × 8 bytes = one 32-byte memory sector); lengths balanced across passes.
 */
import { ArgumentError, DeviceLimitError, UnsupportedError } from '../errors.js';
import type { FftRecipe, MultiPassFftRecipe, WorkgroupFftRecipe } from './fft-recipe.js';
import { packFactors, planWorkgroupFft, type PlannerLimits, type WorkgroupPlanOptions } from './fft-workgroup.js';
import { isPowerOfTwo, isSmooth, primeFactors } from '../core/integers.js';

/** Largest power-of-two pass length that fits the device with `minColumns` columns per workgroup. */
export function largestPassLength(limits: PlannerLimits, options: WorkgroupPlanOptions = {}): number {
  let best = 0;
  for (let r = 2; r <= 1 << 16; r *= 2) {
    try {
      planWorkgroupFft(r, 1 << 20, limits, { ...options, pass: { total: r * 2, stride: 1 } });
      best = r;
    } catch {
      break;
    }
  }
  return best;
}

/** Single workgroup when it fits, else multi-pass. */
export function planFft(
  n: number,
  batch: number,
  limits: PlannerLimits,
  options: WorkgroupPlanOptions = {},
): FftRecipe {
  try {
    return planWorkgroupFft(n, batch, limits, options);
  } catch (e) {
    if (e instanceof ArgumentError) throw e;
    if (e instanceof UnsupportedError && !isSmooth(n, 64)) throw e;
    return planMultiPass(n, batch, limits, options);
  }
}

/** Splits n into pass lengths, each ≤ rmax, as few and as balanced as possible. */
export function passLengths(n: number, rmax: number): number[] {
  if (n <= rmax) return [n];
  if (isPowerOfTwo(n) && isPowerOfTwo(rmax)) {
    const bits = Math.log2(n);
    const passes = Math.ceil(bits / Math.log2(rmax));
    const base = Math.floor(bits / passes);
    const extra = bits % passes;
    return Array.from({ length: passes }, (_, i) => 2 ** (base + (i < extra ? 1 : 0)));
  }
  const factors = primeFactors(n).reverse(); // largest first
  if (factors[0] > rmax)
    throw new UnsupportedError(`n = ${n} has the prime factor ${factors[0]}, larger than the longest pass (${rmax})`);
  const packed = packFactors(factors, rmax);
  if (packed) return packed;
  throw new UnsupportedError(`n = ${n} cannot be split into passes of at most ${rmax}`);
}

export function planMultiPass(
  n: number,
  batch: number,
  limits: PlannerLimits,
  options: WorkgroupPlanOptions = {},
  batchFastest = false,
): MultiPassFftRecipe {
  if (!Number.isSafeInteger(n) || n < 2) throw new ArgumentError('n', n, 'an integer ≥ 2');
  if (!isSmooth(n, 64)) {
    throw new UnsupportedError(
      `n = ${n} has a prime factor larger than 64; WebGPU handles such lengths by Bluestein in a later version (use the CPU backend)`,
    );
  }
  // Passes of ≤ 256 points in 8 columns stream near copy bandwidth; later 512/1024-point passes do not, so three
  // short passes beat two long ones. N-D non-last axes take 16 columns (docs/DECISIONS.md: maxPassLength, minColumns).
  const opts: WorkgroupPlanOptions = { minColumns: batchFastest ? 16 : 8, ...options };
  const largest = largestPassLength(limits, opts);
  const rmax = Math.min(largest, options.maxPassLength ?? 256);
  if (rmax < 2) throw new UnsupportedError('the device holds no multi-pass FFT column in workgroup memory');
  let lengths = passLengths(n, rmax);
  // A long first pass where it saves a pass: with contiguous row stores it costs little more than a short one.
  // Other lengths: one first pass of up to longFirstMax (default 1024) points where two passes then suffice
  // (5^7 = 625·125 instead of 125·25·25) (docs/DECISIONS.md: longFirstMax, longFirstRest).
  let longFirst = false;
  const maxRest = options.longFirstRest ?? 1024;
  if (options.passLengths) {
    const l = options.passLengths;
    if (l.length < 1 || l.some((r) => !Number.isSafeInteger(r) || r < 2) || l.reduce((a, b) => a * b, 1) !== n) {
      throw new ArgumentError('passLengths', JSON.stringify(l), `integers ≥ 2 whose product is n = ${n}`);
    }
    lengths = [...l];
    longFirst = l.length > 1 && l[0] >= 512 && isPowerOfTwo(n);
  } else if (options.maxPassLength === undefined && lengths.length >= 3 && largest >= 512 && maxRest > 0) {
    if (isPowerOfTwo(n) && largest >= 1024) {
      // One pass fewer: the shortest first pass of 512 or 1024 points after which passes of ≤ 256 points
      // (else, with a 1024-point first pass, one of ≤ maxRest) finish the transform; 2^17 … 2^19 take two passes
      // and 2^25 … 2^27 three (docs/DECISIONS.md: longFirstMax).
      const split = (a: number, rest: number) => (n / a >= 2 ? [a, ...passLengths(n / a, rest)] : []);
      const shorter = (l: number[]) => l.length === lengths.length - 1;
      // longFirstMax 2048 (an experiment, not the default) also lets a 2048-point first pass do it; it measured
      // slower everywhere (docs/DECISIONS.md: longFirstMax = 2048).
      const firsts = (options.longFirstMax ?? 1024) >= 2048 ? [512, 1024, 2048] : [512, 1024];
      // (A later pass no longer than the device's longest.)
      const withLongerRest = split(1024, Math.min(largest, Math.max(256, maxRest)));
      const found =
        firsts.map((a) => split(a, 256)).find(shorter) ?? (shorter(withLongerRest) ? withLongerRest : undefined);
      if (found) {
        lengths = found;
        longFirst = true;
      }
    } else if (lengths.length === 3) {
      // The shortest first pass, of at most longFirstMax points, that leaves one later pass of ≤ 480 points
      // (longFirstRest overrides) and fits the device (its length need not be a power of two, which
      // largestPassLength measures): two passes beat three up to 480 (docs/DECISIONS.md: longFirstRest).
      const oddRest = options.longFirstRest ?? 480;
      const fits = (r: number) => {
        try {
          planWorkgroupFft(r, batch * (n / r), limits, { ...opts, pass: { total: n, stride: 1, batchFastest } });
          return true;
        } catch (e) {
          if (e instanceof DeviceLimitError || e instanceof UnsupportedError) return false;
          throw e;
        }
      };
      for (let a = 512; a <= (options.longFirstMax ?? 1024); a *= 2) {
        const two = passLengths(n, a);
        if (two.length === 2 && two[1] <= oddRest && fits(two[0])) {
          lengths = two;
          break;
        }
      }
    }
  }
  // A short last pass (64 points, else 128): cheaper than a 128 … 256-point one while the longer first pass
  // costs little; asked for (the fused R2C), three passes also end in 64 points (docs/DECISIONS.md: shortLastPass).
  const short =
    !options.passLengths &&
    !batchFastest &&
    isPowerOfTwo(n) &&
    (options.shortLastPass ?? (lengths.length === 2 && lengths[0] === lengths[1]));
  if (short && lengths.length >= 2) {
    const maxFirst = Math.min(largest, 1024);
    const last = [64, 128].find((l) => n / l >= l && n / l <= maxFirst);
    if (last) {
      lengths = [n / last, last];
      longFirst = n / last >= 512;
    } else if (options.shortLastPass && lengths.length === 3 && n / 64 > maxFirst) {
      // The rest's split as a transform of its own (the options about the last pass are this plan's).
      let rest: number[] = [];
      try {
        rest = planMultiPass(n / 64, batch * 64, limits, {
          ...options,
          shortLastPass: false,
          lastPassColumns: undefined,
          lastPassExchange: undefined,
          lastPassLayout: undefined,
        }).lengths;
      } catch (e) {
        if (!(e instanceof DeviceLimitError || e instanceof UnsupportedError)) throw e;
      }
      if (rest.length === 2 && rest[1] <= 256) {
        lengths = [...rest, 64];
        longFirst = rest[0] >= 512;
      }
    }
  }
  // The first pass (Ns = 1) reads its columns n/R apart and writes each as one row: 4 columns a workgroup unless
  // its elements lie 8192 or more apart; long swizzled 512-point ones then take 8 (docs/DECISIONS.md: firstPassColumns).
  const wideFirst = n / lengths[0] >= 8192 && lengths[0] * 4 * 8 <= 16384;
  const firstColumns =
    options.firstPassColumns ??
    (isPowerOfTwo(n) && !batchFastest && ((longFirst && !wideFirst) || n / lengths[0] < 8192) ? 4 : undefined);
  // The last pass (strided stores) with 16 columns a workgroup (128-byte runs) from 2^20 on, where it measured
  // faster (docs/DECISIONS.md: lastPassColumns).
  const wideLast = isPowerOfTwo(n) && n >= 1 << 20 && !batchFastest && lengths.length > 1 ? 16 : undefined;
  // A later pass whose split rows in the default columns would hold more than 16 KiB, a third of the 48 KiB
  // an SM keeps resident, takes 4 columns (docs/DECISIONS.md: minColumns).
  const narrowLater = (r: number): WorkgroupPlanOptions =>
    isPowerOfTwo(n) && !batchFastest && options.minColumns === undefined && r * 4 * (opts.minColumns ?? 4) > 16384
      ? { minColumns: 4 }
      : {};
  const passes: WorkgroupFftRecipe[] = [];
  let stride = 1;
  for (const [i, r] of lengths.entries()) {
    const last = i === lengths.length - 1;
    const lastCols = last ? (options.lastPassColumns ?? wideLast) : undefined;
    const cols = lastCols
      ? { minColumns: lastCols }
      : i === 0 && firstColumns
        ? { minColumns: firstColumns }
        : i > 0
          ? narrowLater(r)
          : {};
    const ex = {
      ...(last && options.lastPassExchange ? { passExchange: options.lastPassExchange } : {}),
      ...(last && options.lastPassLayout ? { passLayout: options.lastPassLayout } : {}),
    };
    // Radix-32 stages for the long first pass only: later 512-point passes were no faster with them, unlike
    // the N-D column passes (see planWebGpuFft; docs/DECISIONS.md: maxRadix).
    const radix = i === 0 && longFirst && options.maxRadix === undefined ? { maxRadix: 32 } : {};
    const plan = (c: WorkgroupPlanOptions) =>
      planWorkgroupFft(r, batch * (n / r), limits, {
        ...opts,
        ...radix,
        ...c,
        ...ex,
        pass: { total: n, stride, batchFastest },
      });
    let recipe: WorkgroupFftRecipe;
    try {
      recipe = plan(cols);
    } catch (e) {
      // The wide default only where it fits the device; an explicit lastPassColumns is the caller's.
      if (!(e instanceof DeviceLimitError) || options.lastPassColumns || !wideLast) throw e;
      recipe = plan(narrowLater(r));
    }
    passes.push(recipe);
    stride *= r;
  }
  return { algorithm: 'stockham-multipass', n, lengths, passes, bytesPerProblem: 16 * n * passes.length };
}

/** A one-line summary of a recipe: pass lengths, radices, mapping and exchange. */
export function describeRecipe(recipe: FftRecipe): {
  passes: number;
  radices: string;
  mapping: string;
  exchange: string;
} {
  if (recipe.algorithm === 'bluestein') {
    const inner = describeRecipe(recipe.inner);
    return {
      passes: 2 * inner.passes,
      radices: `bluestein L=${recipe.L}: ${inner.radices} (fwd+inv)`,
      mapping: inner.mapping,
      exchange: inner.exchange,
    };
  }
  const list = recipe.algorithm === 'stockham-multipass' ? recipe.passes : [recipe];
  return {
    passes: list.length,
    radices: list.map((r) => r.radices.join('·')).join(' | '),
    mapping: list.map((r) => `${r.invocationsPerProblem}×${r.problemsPerWorkgroup}`).join(' | '),
    exchange: list.map((r) => (r.subgroupSize ? `${r.exchange}+shuffle` : r.exchange)).join(' | '),
  };
}
