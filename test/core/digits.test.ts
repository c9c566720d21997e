import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError } from '../../src/errors.js';
import { digitStrides, fromDigits, layoutSize, toDigits, validateLayout } from '../../src/core/digits.js';
import { randInt, randomGenerator, randomLayout } from './random-layouts.js';

test('toDigits / fromDigits round-trip on random mixed-radix layouts', () => {
  const r = randomGenerator(1);
  for (let trial = 0; trial < 200; trial++) {
    const radices = randomLayout(r);
    const size = layoutSize(radices);
    const t = randInt(r, 0, size - 1);
    const d = toDigits(t, radices);
    assert.equal(d.length, radices.length);
    d.forEach((digit, i) => assert.ok(digit >= 0 && digit < radices[i]));
    assert.equal(fromDigits(d, radices), t);
  }
});

test('digit 1 is least significant and place values are the partial products', () => {
  assert.deepEqual(toDigits(1 + 2 * 3 + 4 * 3 * 5, [3, 5, 7]), [1, 2, 4]);
  assert.deepEqual(digitStrides([3, 5, 7]), [1, 3, 15]);
  assert.equal(layoutSize([]), 1);
  assert.deepEqual(toDigits(0, []), []);
});

test('invalid layouts, indices and digits throw ArgumentError', () => {
  assert.throws(() => validateLayout([2, 1]), ArgumentError);
  assert.throws(() => validateLayout([2, 2.5]), ArgumentError);
  assert.throws(() => validateLayout('24'), ArgumentError);
  assert.throws(() => validateLayout(new Array(31).fill(2)), ArgumentError);
  assert.throws(() => toDigits(12, [3, 4]), ArgumentError);
  assert.throws(() => toDigits(-1, [3, 4]), ArgumentError);
  assert.throws(() => fromDigits([3, 0], [3, 4]), ArgumentError);
  assert.throws(() => fromDigits([0], [3, 4]), ArgumentError);
  assert.throws(() => toDigits(1, [2, 1]), /radices\[1\]: expected an integer radix ≥ 2, got 1/);
});
