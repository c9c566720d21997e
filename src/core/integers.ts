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

/** Whether n is prime. */
export function isPrime(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 2 && primeFactors(n).length === 1;
}

/** (b^e) mod m for m < 2^26 (every product stays an exact double). */
function powMod(b: number, e: number, m: number): number {
  let r = 1;
  b %= m;
  for (; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) r = (r * b) % m;
    b = (b * b) % m;
  }
  return r;
}

/** The smallest generator of the multiplicative group modulo a prime p < 2^26. */
export function primitiveRoot(p: number): number {
  if (!isPrime(p) || p >= 2 ** 26) throw new RangeError(`primitiveRoot: ${p} is not a prime below 2^26`);
  if (p === 2) return 1;
  const qs = [...new Set(primeFactors(p - 1))];
  for (let g = 2; ; g++) if (qs.every((q) => powMod(g, (p - 1) / q, p) !== 1)) return g;
}
