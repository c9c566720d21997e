import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bluesteinLength, isPowerOfTwo, isSmooth, nextPow2, primeFactors } from '../../src/core/integers.js';

// Brute-force references over every n up to a few thousand.
const largestPrime = (n: number) => {
  let m = n;
  let last = 1;
  for (let p = 2; m > 1; p++)
    while (m % p === 0) {
      m /= p;
      last = p;
    }
  return last;
};

test('primeFactors: ascending primes whose product is n', () => {
  for (let n = 1; n <= 5000; n++) {
    const f = primeFactors(n);
    assert.equal(
      f.reduce((a, b) => a * b, 1),
      n,
      `n = ${n}`,
    );
    for (let i = 0; i < f.length; i++) {
      assert.ok(f[i] >= 2 && largestPrime(f[i]) === f[i], `n = ${n}: ${f[i]} is not prime`);
      if (i > 0) assert.ok(f[i] >= f[i - 1], `n = ${n}: not ascending`);
    }
  }
  assert.deepEqual(primeFactors(2 ** 20 * 3 * 1_000_003), [...new Array(20).fill(2), 3, 1_000_003]);
});

test('isSmooth, isPowerOfTwo and nextPow2 against brute force', () => {
  for (let n = 1; n <= 5000; n++) {
    assert.equal(isSmooth(n, 64), largestPrime(n) <= 64, `isSmooth(${n}, 64)`);
    assert.equal(isSmooth(n, 7), largestPrime(n) <= 7, `isSmooth(${n}, 7)`);
    const p = nextPow2(n);
    assert.ok(p >= n && p / 2 < n && isPowerOfTwo(p), `nextPow2(${n}) = ${p}`);
    assert.equal(isPowerOfTwo(n), Number.isInteger(Math.log2(n)), `isPowerOfTwo(${n})`);
  }
  assert.equal(isSmooth(0, 64), false);
  assert.equal(isPowerOfTwo(0), false);
  assert.equal(isPowerOfTwo(2.5), false);
  assert.equal(nextPow2(0), 1);
});

test('bluesteinLength: the smallest 2^a·3^b ≥ 2m − 1', () => {
  for (let m = 1; m <= 3000; m++) {
    const L = bluesteinLength(m);
    let best = Infinity;
    for (let v = 2 * m - 1; v < best; v++) if (isSmooth(v, 3)) best = v;
    assert.equal(L, best, `m = ${m}`);
  }
});
