/** Scoring of a sparse FFT result against the planted coefficients of a test signal. */
import type { SfftResult, SparseSignal } from '../../src/api/sfft.js';

export interface Score {
  /** Planted frequencies that were returned. */
  found: number;
  /** Largest |X̂ − X|/|X| over the found ones. */
  maxRel: number;
  /** Mean |X̂ − X| over the found ones (the field's "L1 error per large coefficient"). */
  l1: number;
}

export function score(r: SfftResult, s: SparseSignal): Score {
  const truth = new Map<number, [number, number]>();
  s.frequencies.forEach((f, i) => truth.set(f, [s.values[2 * i], s.values[2 * i + 1]]));
  let found = 0;
  let maxRel = 0;
  let l1 = 0;
  r.frequencies.forEach((f, i) => {
    const v = truth.get(f);
    if (!v) return;
    found++;
    const e = Math.hypot(r.values[2 * i] - v[0], r.values[2 * i + 1] - v[1]);
    if (!Number.isFinite(e)) {
      maxRel = Infinity;
      return;
    }
    l1 += e;
    maxRel = Math.max(maxRel, e / Math.hypot(v[0], v[1]));
  });
  return { found, maxRel, l1: found ? l1 / found : Infinity };
}

export function assertSorted(r: SfftResult): void {
  for (let i = 1; i < r.frequencies.length; i++) {
    if (!(r.frequencies[i] > r.frequencies[i - 1])) throw new Error(`frequencies not strictly ascending at ${i}`);
  }
  if (r.values.length !== 2 * r.frequencies.length) throw new Error('values length mismatch');
}

/**
 * Noise amplitude in one estimation bucket: the bucket gathers ~n/B_est bins of white noise, each of
 * energy noisePerBin. The median over loops brings the error below it; tests bound the L1 error by it.
 */
export function bucketNoise(s: SparseSignal, r: SfftResult): number {
  const bEst = r.recipe.robust?.bEst ?? r.recipe.exact!.B;
  return Math.sqrt((s.noisePerBin * s.n) / bEst);
}
