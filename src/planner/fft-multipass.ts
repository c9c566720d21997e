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
import { isPowerOfTwo, packFactors, planWorkgroupFft, primeFactors, type PlannerLimits, type WorkgroupPlanOptions } from './fft-workgroup.js';

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
export function planFft(n: number, batch: number, limits: PlannerLimits, options: WorkgroupPlanOptions = {}): FftRecipe {
  try {
    return planWorkgroupFft(n, batch, limits, options);
  } catch (e) {
    if (e instanceof ArgumentError) throw e;
    if (e instanceof UnsupportedError && !isSmooth(n)) throw e;
    return planMultiPass(n, batch, limits, options);
  }
}

function isSmooth(n: number): boolean {
  return primeFactors(n).every((p) => p <= 64);
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
  const factors = primeFactors(n);
  if (factors[0] > rmax) throw new UnsupportedError(`n = ${n} has the prime factor ${factors[0]}, larger than the longest pass (${rmax})`);
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
  if (!isSmooth(n)) {
    throw new UnsupportedError(`n = ${n} has a prime factor larger than 64; WebGPU handles such lengths by Bluestein in a later version (use the CPU backend)`);
  }
  // Measured on an H200 (bench/results/2026-11-22-h200-sweep3): with interleaved direct loads a pass of
  // ≤ 256-point columns, 8 columns per workgroup (64-byte runs), streams at ~0.8–0.9 of copy bandwidth,
  // while 512- and 1024-point passes fall to ~0.5: three short passes beat two long ones, except for the
  // long first pass below.
  // Batch-fastest passes (non-last axes of N-D arrays) with 16 columns: 4096² 2.01 → 1.88 ms on an H200
  // with f32 rows (bench/results/2026-11-22-h200-sweep36).
  const opts: WorkgroupPlanOptions = { minColumns: batchFastest ? 16 : 8, ...options };
  const largest = largestPassLength(limits, opts);
  const rmax = Math.min(largest, options.maxPassLength ?? 256);
  if (rmax < 2) throw new UnsupportedError('the device holds no multi-pass FFT column in workgroup memory');
  let lengths = passLengths(n, rmax);
  // A long first pass where it saves a third pass. With radix-32 stages a first pass (contiguous row
  // stores) of 512 points took 0.64 ms and one of 1024 points 0.75, against ~0.6 for passes of ≤ 256 points,
  // while a later 512-point pass took 0.93 (H200, f32 rows, bench/results/2026-11-22-h200-sweep33, -sweep37):
  // 2^17 = 512·256 1.42 → 1.23 ms, 2^18 = 1024·256 and 2^19 = 1024·512 (1.82 → 1.68) in two passes. 2^20
  // = 1024·1024 lost to three with padded rows and wins with swizzled ones (1.76 → 1.62 ms, two alternating
  // rounds, bench/results/2026-11-24-h200-sweep57), hence a later pass of up to 1024. Other lengths: one first pass of up to longFirstMax (default 1024) points
  // where two passes then suffice (5^7 = 625·125 instead of 125·25·25).
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
      // (else, with a 1024-point first pass, one of ≤ maxRest) finish the transform. Three passes become
      // two (2^17 … 2^19, above) and four become three (2^25 = 512·256·256, 2^26 = 1024·256·256, 2^27 =
      // 1024·512·256). Four → three on an H200: 2^25 2.52–2.61 → 2.15 ms, 2^26 2.49 → 2.23, 2^27 2.55 → 2.51
      // (bench/results/2026-11-24-h200-sweep44).
      const split = (a: number, rest: number) => (n / a >= 2 ? [a, ...passLengths(n / a, rest)] : []);
      const shorter = (l: number[]) => l.length === lengths.length - 1;
      // longFirstMax 2048 (an experiment, not the default) also lets a 2048-point first pass (16·16·8) do it;
      // on an H200 it lost everywhere: C2C 2^19 = 2048·256 1.64 → 1.72 ms against 1024·512, 2^27 2.45 → 2.49,
      // R2C 2^20 in two passes 0.98 → 1.03 against three (bench/results/2026-11-24-h200-sweep46).
      const firsts = (options.longFirstMax ?? 1024) >= 2048 ? [512, 1024, 2048] : [512, 1024];
      // (A later pass no longer than the device's longest.)
      const withLongerRest = split(1024, Math.min(largest, Math.max(256, maxRest)));
      const found = firsts.map((a) => split(a, 256)).find(shorter) ?? (shorter(withLongerRest) ? withLongerRest : undefined);
      if (found) {
        lengths = found;
        longFirst = true;
      }
    } else if (lengths.length === 3) {
      // The shortest first pass, of at most longFirstMax points, that leaves one later pass of ≤ 480 points
      // (longFirstRest overrides) and fits the device (its length need not be a power of two, which
      // largestPassLength measures). On an H200 two such passes beat three for later passes of 270 … 480
      // points (300·300 2.14 → 1.76 ms, 343·343 2.73 → 1.70, 480·480 2.61 → 1.77) and lost for 500 and 512
      // (500·500 2.22 → 2.56, 768·512 1.91 → 1.96; bench/results/2026-11-24-h200-sweep41).
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
  // A short last pass. On an H200 (two alternating rounds, bench/results/2026-11-24-h200-sweep63) a 64-point
  // last pass ran 0.57–0.58 ms against 0.60–0.66 for 128 … 256 points, and the fused R2C last pass (whose
  // 32 columns hold 8.6 KiB at 64 points, 17 KiB at 128, 34 KiB at 256: one workgroup an SM) 0.36–0.38 /
  // 0.39–0.43 / 0.47–0.50, while a first pass of 1024 points costs 0.02–0.04 ms more than one of 256:
  // C2C 2^14 = 256·64 1.19 → 1.16 ms, 2^16 = 1024·64 1.24 → 1.20 (2^15 = 512·64 lost 1% against 256·128 and
  // keeps it); R2C 2^15 … 2^18 (half-lengths 256·64, 512·64, 1024·64, 1024·128) 0.685 / 0.709 / 0.766 /
  // 0.799 → 0.658 / 0.674 / 0.683 / 0.724, DHT and DCT-II alike. A 2048-point first pass lost (R2C 2^19
  // 0.80 → 0.87, C2C 2^18 1.27 → 1.53).
  // Asked for (the fused R2C), three passes also end in 64 points where the rest takes two passes whose later
  // one is ≤ 256 points: R2C / DHT / DCT-II 2^22 … 2^25 (half-lengths 256·128·64, 256·256·64, 512·256·64,
  // 1024·256·64) DHT 1.06 / 1.08 / 1.09 / 1.18 → 1.02 / 1.03 / 1.07 / 1.15 ms, R2C 1.04 → 1.00 at 2^22 and
  // within 1.5% from 2^23; with a later 512- or 1024-point pass (2^26, 2^27) it lost up to 7% (H200,
  // bench/results/2026-11-24-h200-sweep64).
  const short = !options.passLengths && !batchFastest && isPowerOfTwo(n) && (options.shortLastPass ?? (lengths.length === 2 && lengths[0] === lengths[1]));
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
        rest = planMultiPass(n / 64, batch * 64, limits, { ...options, shortLastPass: false, lastPassColumns: undefined, lastPassExchange: undefined, lastPassLayout: undefined }).lengths;
      } catch (e) {
        if (!(e instanceof DeviceLimitError || e instanceof UnsupportedError)) throw e;
      }
      if (rest.length === 2 && rest[1] <= 256) {
        lengths = [...rest, 64];
        longFirst = rest[0] >= 512;
      }
    }
  }
  // The first pass (Ns = 1) reads its columns' elements n/R apart and writes each column as one row: with
  // 4 columns a workgroup instead of 8 it ran faster on an H200 for powers of two (C2C 2^15 first pass
  // 0.83 → 0.67 ms, 2^16 256-point 0.64 → 0.59 with f32 rows), except where its elements lie 8192 or more
  // apart: 128-point first passes from 2^20 (0.67 → 0.69–0.73 with 4) and 256-point ones from 2^22 (0.71–0.75
  // → 0.64 with 8; bench/results/2026-11-22-h200-sweep18, -sweep36). Later passes lost with 4 (…-sweep17).
  // Long (512- or 1024-point, radix-32) first passes kept 4 wherever they lay with padded rows (2^25 2.15 →
  // 2.12 ms, 2^26 2.23 → 2.15, …-sweep44); with swizzled ones a 512-point first pass whose elements lie 8192
  // or more apart takes 8 (16 KiB, 3 workgroups an SM): C2C 2^25 2.04 → 1.93 ms, R2C 2^26 1.26 → 1.20, DHT
  // 2^26 1.27 → 1.23 (two alternating rounds, bench/results/2026-11-24-h200-sweep60). A 1024-point one would
  // hold 32 KiB in 8, one workgroup an SM, and keeps 4.
  const wideFirst = n / lengths[0] >= 8192 && lengths[0] * 4 * 8 <= 16384;
  const firstColumns = options.firstPassColumns ?? (isPowerOfTwo(n) && !batchFastest && ((longFirst && !wideFirst) || n / lengths[0] < 8192) ? 4 : undefined);
  // The last pass (strided stores) with 16 columns a workgroup (128-byte runs) from 2^20 on: with split
  // exchanges its workgroup memory stays small, and on an H200 it ran 0.64–0.77 → 0.57–0.67 ms for 2^20 …
  // 2^24 (C2C 2^21: 1.86 → 1.74 ms); below 2^20 it was no better (bench/results/2026-11-22-h200-sweep35).
  const wideLast = isPowerOfTwo(n) && n >= 1 << 20 && !batchFastest && lengths.length > 1 ? 16 : undefined;
  // A later pass whose split rows in the default columns would hold more than 16 KiB, a third of the 48 KiB
  // an SM keeps resident (bench/occupancy-probe.ts), takes 4 columns: the 1024-point second pass of 2^20
  // (32 KiB in 8 columns: one workgroup an SM) ran 1.61 → 1.50 ms in 4 (H200, two alternating rounds,
  // bench/results/2026-11-24-h200-final41-extra).
  const narrowLater = (r: number): WorkgroupPlanOptions =>
    isPowerOfTwo(n) && !batchFastest && options.minColumns === undefined && r * 4 * (opts.minColumns ?? 4) > 16384 ? { minColumns: 4 } : {};
  const passes: WorkgroupFftRecipe[] = [];
  let stride = 1;
  for (const [i, r] of lengths.entries()) {
    const last = i === lengths.length - 1;
    const lastCols = last ? options.lastPassColumns ?? wideLast : undefined;
    const cols = lastCols ? { minColumns: lastCols } : i === 0 && firstColumns ? { minColumns: firstColumns } : i > 0 ? narrowLater(r) : {};
    const ex = {
      ...(last && options.lastPassExchange ? { passExchange: options.lastPassExchange } : {}),
      ...(last && options.lastPassLayout ? { passLayout: options.lastPassLayout } : {}),
    };
    // Radix-32 stages for the long first pass only: a later 512-point pass in 32·16 instead of 8·8·8 made C2C
    // 2^19 = 1024·512 slower (1.64 → 1.67 ms) and 2^27 no faster (2.44 → 2.43; H200, three alternating rounds,
    // bench/results/2026-11-24-h200-sweep48), unlike the N-D column passes (see planWebGpuFft).
    const radix = i === 0 && longFirst && options.maxRadix === undefined ? { maxRadix: 32 } : {};
    const plan = (c: WorkgroupPlanOptions) => planWorkgroupFft(r, batch * (n / r), limits, { ...opts, ...radix, ...c, ...ex, pass: { total: n, stride, batchFastest } });
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
export function describeRecipe(recipe: FftRecipe): { passes: number; radices: string; mapping: string; exchange: string } {
  if (recipe.algorithm === 'bluestein') {
    const inner = describeRecipe(recipe.inner);
    return { passes: 2 * inner.passes, radices: `bluestein L=${recipe.L}: ${inner.radices} (fwd+inv)`, mapping: inner.mapping, exchange: inner.exchange };
  }
  const list = recipe.algorithm === 'stockham-multipass' ? recipe.passes : [recipe];
  return {
    passes: list.length,
    radices: list.map((r) => r.radices.join('·')).join(' | '),
    mapping: list.map((r) => `${r.invocationsPerProblem}×${r.problemsPerWorkgroup}`).join(' | '),
    exchange: list.map((r) => r.exchange).join(' | '),
  };
}
