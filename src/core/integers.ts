/** Integer helpers shared by the planners, code generators and backends (one definition each). */

/** True for 1, 2, 4, … (safe integers only). */
export function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

/** The smallest power of two ≥ n (1 for n ≤ 1). */
export function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** Prime factorisation in ascending order (empty for n ≤ 1). */
export function primeFactors(n: number): number[] {
  const f: number[] = [];
  let m = n;
  while (m % 2 === 0 && m > 1) {
    f.push(2);
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      f.push(p);
      m /= p;
    }
  }
  if (m > 1) f.push(m);
  return f;
}

/** True when every prime factor of the positive integer n is at most `bound`. */
export function isSmooth(n: number, bound: number): boolean {
  if (!Number.isSafeInteger(n) || n < 1) return false;
  let m = n;
  for (let p = 2; p <= bound && m > 1; p++) while (m % p === 0) m /= p;
  return m === 1;
}

/** Smallest 2^a·3^b ≥ 2m − 1: the cyclic convolution length of Bluestein's algorithm. */
export function bluesteinLength(m: number): number {
  const need = 2 * m - 1;
  let best = Infinity;
  for (let p3 = 1; p3 < 2 * need; p3 *= 3) {
    let v = p3;
    while (v < need) v *= 2;
    best = Math.min(best, v);
  }
  return best;
}
