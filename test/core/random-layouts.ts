/** Seeded generators shared by the core property tests. */
import { rng } from '../../src/util/random.js';

export type Rand = () => number;

export function randomGenerator(seed: number): Rand {
  return rng(seed);
}

/** Integer in [lo, hi]. */
export function randInt(r: Rand, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

export function pick<T>(r: Rand, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)];
}

/** A mixed-radix layout of minDigits..maxDigits digits with N ≤ maxSize (radices 2..5, some 2 heavy). */
export function randomLayout(r: Rand, minDigits = 1, maxDigits = 7, maxSize = 4096): number[] {
  const n = randInt(r, minDigits, maxDigits);
  const radices: number[] = [];
  let size = 1;
  for (let p = 0; p < n; p++) {
    let radix = pick(r, [2, 2, 3, 4, 5]);
    while (radix > 2 && size * radix > maxSize) radix--;
    radices.push(radix);
    size *= radix;
  }
  return radices;
}

/** Ordered pair of 1-based digit positions i ≥ j in [1, n]. */
export function randomField(r: Rand, n: number): [number, number] {
  const a = randInt(r, 1, n);
  const b = randInt(r, 1, n);
  return [Math.max(a, b), Math.min(a, b)];
}
