/**
 * Single-workgroup FFTs longer than workgroup memory holds: every invocation keeps P = n/L values in registers
 * at fixed positions t + L·σ (σ < P, its slots), and each exchange goes through one block of workgroup memory
 * in rounds.
 *
 * Why the positions are fixed: stage s's butterfly m of invocation t is j = t + m·L with P/R butterflies an
 * invocation, so it reads j + k·n/R = t + L·(m + k·P/R), slot m + k·P/R, whatever the stage. Where Ns | L its
 * write map ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns is m·L·R plus an index below L·R that t and k alone give: butterfly
 * group m fills block m of L·R values, and block m holds exactly the next stage's slots m·R … m·R + R − 1 of every
 * invocation. So after stage s, round m writes group m, waits, and reads those R slots of the next stage; the
 * registers of groups not yet written are untouched (the kernel reads into fresh values and renames them after
 * the last round). Workgroup memory holds L·R values instead of n: 16384 points in 32 KiB with 512 invocations
 * × 32 registers and radix-8 exchanges (the form VkFFT uses on the same hardware).
 *
 * Conditions: n = L·P, every radix divides P, and every stage that writes an exchange has Ns | L (for the stage
 * before the last: R_{k−2}·R_{k−1} a multiple of P).
 */
import { ArgumentError, DeviceLimitError } from '../errors.js';
import { isPowerOfTwo, nextPow2 } from '../core/integers.js';
import { stockhamOperatorString } from '../core/stockham.js';
import { formatOperatorString } from '../core/operator-string.js';
import type { FftStage, WorkgroupFftRecipe } from './fft-recipe.js';
import type { PlannerLimits, WorkgroupPlanOptions } from './fft-workgroup.js';

/** Registers an invocation holds by default (VkFFT's 32: 64 floats, 128 registers a thread on an H100). */
export const ROUNDS_REGISTERS = 32;
/** The lengths (powers of two) planned with rounds by default, where they measured faster (docs/DECISIONS.md). */
export const ROUNDS_FROM = 8192;
export const ROUNDS_UP_TO = 16384;
/** Largest radix of a stage that writes an exchange (its block is L·R values). */
export const ROUNDS_EXCHANGE_RADIX = 8;

/**
 * Default radices for a power of two n with P registers: stages of radix 8 while they exchange (the blocks stay
 * L·8 values), the last stage the remaining bits, at most P and 32 points (8192 = 8·8·8·16, 16384 = 8·8·8·32).
 * Null when no such split exists.
 */
export function roundsRadices(n: number, P: number): number[] | null {
  if (!isPowerOfTwo(n) || !isPowerOfTwo(P) || P < 2 || n <= P) return null;
  const bits = Math.log2(n);
  const maxLast = Math.log2(Math.min(P, 32));
  const xb = Math.log2(ROUNDS_EXCHANGE_RADIX);
  const early = Math.max(1, Math.ceil((bits - maxLast) / xb));
  const lastBits = bits - early * xb;
  const radices: number[] = [];
  if (lastBits >= 1) {
    for (let i = 0; i < early; i++) radices.push(ROUNDS_EXCHANGE_RADIX);
    radices.push(2 ** lastBits);
  } else {
    // Fewer bits than early radix-8 stages take: balance them over the early stages, the last taking maxLast.
    const rest = bits - maxLast;
    const base = Math.floor(rest / early);
    for (let i = 0; i < early; i++) radices.push(2 ** (base + (i < rest % early ? 1 : 0)));
    radices.push(2 ** maxLast);
  }
  return roundsProblem(n, P, radices) ? null : radices;
}

/** Why radices cannot run the rounds exchange with P registers (null when they can). */
export function roundsProblem(n: number, P: number, radices: readonly number[]): string | null {
  if (n % P !== 0) return `n = ${n} is not a multiple of the ${P} registers`;
  const L = n / P;
  let stride = 1;
  for (let s = 0; s < radices.length; s++) {
    const R = radices[s];
    if (P % R !== 0) return `radix ${R} does not divide the ${P} registers`;
    if (s < radices.length - 1 && L % stride !== 0)
      return `stage ${s} (stride ${stride}) writes an exchange with a stride that does not divide ${L} invocations`;
    stride *= R;
  }
  if (stride !== n) return `the radices' product is ${stride}, not n = ${n}`;
  return null;
}

/** Values one round's block holds: L·R of the widest stage that writes an exchange. */
export function roundBlockValues(recipe: Pick<WorkgroupFftRecipe, 'stages' | 'invocationsPerProblem'>): number {
  const writers = recipe.stages.slice(0, -1);
  return recipe.invocationsPerProblem * Math.max(...writers.map((st) => st.radix));
}

/** The 'rounds' recipe for n (see the file comment); options.registers and options.radices override the defaults. */
export function planRoundsFft(
  n: number,
  batch: number,
  limits: PlannerLimits,
  options: WorkgroupPlanOptions = {},
): WorkgroupFftRecipe {
  const P = options.registers ?? ROUNDS_REGISTERS;
  if (!Number.isInteger(P) || P < 2 || n % P !== 0 || n / P < 2)
    throw new ArgumentError('registers', P, `a divisor of n = ${n} that leaves at least 2 invocations`);
  const radices = options.radices ? [...options.radices] : roundsRadices(n, P);
  if (!radices || radices.length < 2) {
    throw new ArgumentError(
      'exchange',
      'rounds',
      `a length with a split into ≥ 2 stages for ${P} registers (n = ${n})`,
    );
  }
  const problem = roundsProblem(n, P, radices);
  if (problem) throw new ArgumentError('radices', radices, `radices the rounds exchange can run: ${problem}`);
  const L = n / P;
  const maxInv = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  if (L > maxInv)
    throw new DeviceLimitError('maxComputeInvocationsPerWorkgroup', L, maxInv, `a ${n}-point FFT in ${P} registers`);
  const stages: FftStage[] = [];
  let stride = 1;
  for (const r of radices) {
    stages.push({ radix: r, stride, butterfliesPerInvocation: P / r });
    stride *= r;
  }
  const block = roundBlockValues({ stages, invocationsPerProblem: L });
  // The XOR swizzle where the block is whole 32-value groups (no extra bytes), else one pad a 16 values.
  const swizzle = options.swizzle ?? (options.padding !== true && block % 32 === 0);
  const padShift = !swizzle && options.padding !== false ? 4 : 0;
  const rowStride = padShift ? block + (block >> padShift) + 1 : block;
  const storage = limits.maxComputeWorkgroupStorageSize;
  // Real and imaginary parts in separate rounds: an f32 block, half the bytes, twice the barriers.
  const split = options.roundsSplit ?? false;
  const elem = split ? 4 : 8;
  if (rowStride * elem > storage) {
    throw new DeviceLimitError(
      'maxComputeWorkgroupStorageSize',
      rowStride * elem,
      storage,
      `a ${n}-point FFT exchanging in rounds of ${block} values`,
    );
  }
  // Several problems a workgroup only for short ones (L < 32), as the other single-workgroup recipes.
  let b = Math.max(1, Math.floor((options.targetWorkgroupSize ?? 32) / L));
  b = Math.min(b, Math.floor(storage / (rowStride * elem)), Math.floor(maxInv / L));
  if (options.maxProblemsPerWorkgroup) b = Math.min(b, options.maxProblemsPerWorkgroup);
  b = 2 ** Math.floor(Math.log2(Math.max(1, Math.min(b, nextPow2(batch)))));
  return {
    algorithm: 'stockham-workgroup',
    n,
    radices,
    stages,
    operators: formatOperatorString(stockhamOperatorString(radices), 'ascii'),
    registers: P,
    invocationsPerProblem: L,
    problemsPerWorkgroup: b,
    workgroupSize: L * b,
    exchange: 'rounds',
    padShift,
    ...(swizzle ? { swizzle: true } : {}),
    roundBlock: block,
    ...(split ? { roundsSplit: true } : {}),
    workgroupBytes: elem * b * rowStride,
    twiddles: options.twiddles ?? 'two-level',
    staging: false,
    bytesPerProblem: 16 * n,
  };
}
