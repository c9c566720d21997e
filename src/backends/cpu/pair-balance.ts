/**
 * Two real lines transformed as one complex line (z = a + i·b: the real FFT's pairs path, the column module's real
 * recipes) share its rounding, relative to the larger line; a NaN or ±Inf in one reaches every output of the other.
 * What a pair needs, from each line's largest magnitude (NaN for a line holding NaN or ±Inf): nothing where they are
 * within PAIR_BALANCE of each other; else each line scaled by a power of two (exact) to a largest magnitude near 1
 * and its outputs scaled back, a zero line's outputs set to zero, and a non-finite line (or one that power cannot
 * reach) zeroed for the pair and transformed beside a zero line afterwards. The callers (wasm-fft.ts balancePairs, fft-columns-axis.ts
 * balanceColumns) carry it out on their layouts.
 */
import { PAIR_BALANCE } from '../../codegen/wasm/row-max.js';

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

/** The actions a pair with largest magnitudes a and b needs (none where it is balanced and finite). */
export function pairActions(a: number, b: number): PairAction[] {
  if (a <= PAIR_BALANCE * b && b <= PAIR_BALANCE * a) return [];
  if (!Number.isFinite(a) || !Number.isFinite(b)) {
    const alone = (line: 0 | 1): PairAction => ({ line, kind: 'alone', scaleBy: 1, factor: 1 });
    return [...(Number.isFinite(a) ? [] : [alone(0)]), ...(Number.isFinite(b) ? [] : [alone(1)])];
  }
  if (a === 0 || b === 0) return [{ line: a === 0 ? 0 : 1, kind: 'zero', scaleBy: 1, factor: 0 }];
  // Each line to a largest magnitude near 1 (not the smaller up to the larger: near the top of float32's range the
  // pair's transform then overflowed into the other line).
  const actions: PairAction[] = [];
  for (const [line, m] of [
    [0, a],
    [1, b],
  ] as const) {
    const k = -Math.round(Math.log2(m));
    if (Math.abs(k) > PAIR_SCALE_MAX_EXP) actions.push({ line, kind: 'alone', scaleBy: 1, factor: 1 });
    else if (k !== 0) actions.push({ line, kind: 'scale', scaleBy: 2 ** k, factor: 2 ** -k });
  }
  return actions;
}
