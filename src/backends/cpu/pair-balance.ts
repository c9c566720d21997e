/**
 * Two real lines transformed as one complex line (z = a + i·b: the real FFT's pairs paths, the column module's real
 * recipes) share its rounding, relative to the larger line; a NaN or ±Inf in one reaches every output of the other.
 * What a pair needs, from each line's largest magnitude (NaN for a line holding NaN or ±Inf): nothing where they are
 * within PAIR_BALANCE of each other and inside PAIR_RANGE (zero counts as inside); else each line scaled by a power
 * of two (exact) to a largest magnitude near 1 and its outputs scaled back, a zero line's outputs set to zero, and a
 * non-finite line (or one that power cannot reach) zeroed for the pair and transformed beside a zero line afterwards.
 * The callers (wasm-fft.ts balancePairs, fft-columns-axis.ts balanceColumns, wasm-rfft.ts for the pairs it makes in
 * JavaScript) carry it out on their layouts.
 */
import { PAIR_BALANCE, PAIR_RANGE } from '../../codegen/wasm/row-max.js';

/** Beyond 2^this a line is transformed alone instead of scaled (its scale would leave float64's range). */
const PAIR_SCALE_MAX_EXP = 1000;

export interface PairAction {
  /** Which line of the pair: 0 (the first) or 1. */
  line: 0 | 1;
  /**
   * 'scale': multiply the line by `scaleBy` now and its outputs by `factor` after; 'zero': set its outputs to zero;
   * 'alone': zero the line for the pair and transform it beside a zero line after.
   */
  kind: 'scale' | 'zero' | 'alone';
  scaleBy: number;
  factor: number;
}

/**
 * The actions a pair with largest magnitudes a and b needs, for elements of `bytes` (none where it is balanced, finite
 * and inside PAIR_RANGE).
 */
export function pairActions(a: number, b: number, bytes: 4 | 8): PairAction[] {
  const inRange = (m: number): boolean => inPairRange(m, bytes);
  if (a <= PAIR_BALANCE * b && b <= PAIR_BALANCE * a && inRange(a) && inRange(b)) return [];
  if (!Number.isFinite(a) || !Number.isFinite(b)) {
    const alone = (line: 0 | 1): PairAction => ({ line, kind: 'alone', scaleBy: 1, factor: 1 });
    return [...(Number.isFinite(a) ? [] : [alone(0)]), ...(Number.isFinite(b) ? [] : [alone(1)])];
  }
  // Each line to a largest magnitude near 1 (not the smaller up to the larger: near the top of float32's range the
  // pair's transform then overflowed into the other line); a zero line's outputs are zero.
  const actions: PairAction[] = [];
  for (const [line, m] of [
    [0, a],
    [1, b],
  ] as const) {
    if (m === 0) actions.push({ line, kind: 'zero', scaleBy: 1, factor: 0 });
    // Beside a zero line a line needs scaling only out of range.
    if (m === 0 || ((a === 0 || b === 0) && inRange(m))) continue;
    const k = toUnit(m);
    if (Math.abs(k) > PAIR_SCALE_MAX_EXP) actions.push({ line, kind: 'alone', scaleBy: 1, factor: 1 });
    else if (k !== 0) actions.push({ line, kind: 'scale', scaleBy: 2 ** k, factor: 2 ** -k });
  }
  return actions;
}

/**
 * The power of two that brings a line of largest magnitude m to about 1 where m is finite, non-zero and outside
 * PAIR_RANGE (a line transformed beside zeros needs nothing else); else 1.
 */
export function rangeScale(m: number, bytes: 4 | 8): number {
  return m > 0 && m < Infinity && !inPairRange(m, bytes) ? 2 ** toUnit(m) : 1;
}

/** Whether a line of largest magnitude m needs no scaling for its range (zero counts as inside). */
function inPairRange(m: number, bytes: 4 | 8): boolean {
  const [low, high] = PAIR_RANGE[bytes];
  return m === 0 || (m >= low && m <= high);
}

/** The exponent k that brings a largest magnitude m to 2^k·m near 1. */
const toUnit = (m: number): number => -Math.round(Math.log2(m));
