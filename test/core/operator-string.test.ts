import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError } from '../../src/errors.js';
import type { OperatorTerm } from '../../src/core/operators.js';
import { gamma, rho } from '../../src/core/operators.js';
import {
  evaluateOperatorString,
  formatOperatorString,
  normalizeTerm,
  parseOperatorString,
  simplifyOperatorString,
} from '../../src/core/operator-string.js';
import type { Grouping } from '../../src/core/grouping.js';
import { type Rand, pick, randInt, randomField, randomGenerator, randomLayout } from './random-layouts.js';

function randomTerm(r: Rand, n: number): OperatorTerm {
  const [i, j] = randomField(r, n);
  const m = pick(r, [1, 1, 2, 3, 12]);
  switch (pick(r, ['G', 'S', 'R', 'B', 'G2'] as const)) {
    case 'R':
      return { op: 'R', i, j };
    case 'B':
      return { op: 'B', i: j, r: randInt(r, 1, n - j + 1) };
    case 'G2':
      if (j >= 2) {
        const [k, l] = randomField(r, j - 1);
        return { op: pick(r, ['G', 'S'] as const), i, j, k, l, m };
      }
      return { op: 'G', i, j, m };
    default:
      return { op: pick(r, ['G', 'S'] as const), i, j, m };
  }
}

test('format: Unicode and ASCII forms', () => {
  const s: OperatorTerm[] = [
    { op: 'G', i: 4, j: 1 },
    { op: 'R', i: 4, j: 3 },
    { op: 'B', i: 3, r: 2 },
    { op: 'G', i: 9, j: 4, m: 3 },
    { op: 'S', i: 8, j: 6, k: 2, l: 1, m: 12 },
  ];
  assert.equal(formatOperatorString(s), 'Γ[4,1] ρ[4,3] B²[3] Γ³[9,4] σ¹²[8,6,2,1]');
  assert.equal(formatOperatorString(s, 'ascii'), 'G(4,1) R(4,3) B^2(3) G^3(9,4) S^12(8,6,2,1)');
});

test('parse(format(s)) round-trips random operator strings in both styles', () => {
  const r = randomGenerator(21);
  for (let trial = 0; trial < 300; trial++) {
    const n = randInt(r, 1, 12);
    const terms = Array.from({ length: randInt(r, 0, 8) }, () => randomTerm(r, n));
    const expected = terms.map(normalizeTerm);
    assert.deepEqual(parseOperatorString(formatOperatorString(terms, 'ascii')), expected);
    assert.deepEqual(parseOperatorString(formatOperatorString(terms, 'unicode')), expected);
    assert.deepEqual(JSON.parse(JSON.stringify(expected)), expected);
  }
});

test('parse tolerates whitespace and rejects malformed terms', () => {
  assert.deepEqual(parseOperatorString('  G^2 ( 6 , 3 )R(6,5)  B^2(5) '), [
    { op: 'G', i: 6, j: 3, m: 2 },
    { op: 'R', i: 6, j: 5 },
    { op: 'B', i: 5, r: 2 },
  ]);
  assert.deepEqual(parseOperatorString(''), []);
  for (const bad of ['X(1,2)', 'G(4)', 'G(4,3,2)', 'R^2(4,3)', 'B(3,2)', 'G(4,1', 'B^0(1)', 'G(0,1)', 'G(4,1)x']) {
    assert.throws(() => parseOperatorString(bad), ArgumentError, bad);
  }
});

test('simplify removes identity permutations (Lemma 3) and nothing else', () => {
  const terms = parseOperatorString('G^2(6,5) R(6,5) B^2(5) G(6,6) R(3,3) G^3(6,4) G^3(6,1) S^4(4,1)');
  assert.equal(formatOperatorString(simplifyOperatorString(terms, 6), 'ascii'), 'R(6,5) B^2(5) G^3(6,1)');
});

test('evaluate: net permutation is the composition of the permutation terms', () => {
  const layout = [2, 3, 5, 7];
  const ev = evaluateOperatorString(parseOperatorString('G(4,1) B(4) R(4,3) B^2(3)'), layout);
  const g = gamma(layout, 4, 1);
  const expected = g.map.compose(rho(g.output, 4, 3).map);
  assert.ok(ev.permutation.equals(expected));
  assert.deepEqual(ev.output, rho(g.output, 4, 3).output);
  assert.equal(ev.butterflies.length, 2);
  assert.deepEqual(
    ev.butterflies.map((b) => b.radix),
    [2, 2 * 7],
  );
  assert.equal(ev.layouts.length, 5);
  assert.deepEqual(ev.output, [3, 5, 2, 7]);
});

/** Joins consecutive butterfly steps in blocks of the given sizes (Lemma 1). */
function joinSteps(steps: readonly Grouping[], sizes: readonly number[]): Grouping[] {
  const out: Grouping[] = [];
  let at = 0;
  for (const size of sizes) {
    let g = steps[at];
    for (let q = 1; q < size; q++) g = g.join(steps[at + q]);
    out.push(g);
    at += size;
  }
  assert.equal(at, steps.length);
  return out;
}

test("the seeds' derivation 5.16 → 5.20 (Stockham n=6 to radix-4 blocks) preserves the algorithm", () => {
  const layout = new Array<number>(6).fill(2);
  const stockham = evaluateOperatorString(
    parseOperatorString('G(6,6) B(6) G(6,5) B(6) G(6,4) B(6) G(6,3) B(6) G(6,2) B(6) G(6,1) B(6)'),
    layout,
  );
  const steps = [
    'G(6,6) G(6,5) B(5) B(6) G(6,4) G(6,3) B(5) B(6) G(6,2) G(6,1) B(5) B(6)', // 5.17
    'G(6,6) G(6,5) B^2(5) G(6,4) G(6,3) B^2(5) G(6,2) G(6,1) B^2(5)', // 5.18
    'G^2(6,5) R(6,5) B^2(5) G^2(6,3) R(6,5) B^2(5) G^2(6,1) R(6,5) B^2(5)', // 5.19
    'R(6,5) B^2(5) G^2(6,3) R(6,5) B^2(5) G^2(6,1) R(6,5) B^2(5)', // 5.20
  ];
  const reference = joinSteps(
    stockham.butterflies.map((b) => b.original),
    [2, 2, 2],
  );
  for (const text of steps) {
    const ev = evaluateOperatorString(parseOperatorString(text), layout);
    assert.ok(ev.permutation.equals(stockham.permutation), text);
    const mine = ev.butterflies.map((b) => b.original);
    const grouped = mine.length === 6 ? joinSteps(mine, [2, 2, 2]) : mine;
    assert.equal(grouped.length, 3);
    grouped.forEach((g, q) => assert.ok(g.equals(reference[q]), `${text}: step ${q}`));
  }
  // Net permutation of Stockham is the bit reversal ρ_{6,1}.
  assert.ok(stockham.permutation.equals(rho(layout, 6, 1).map));
});

test('evaluate rejects terms that do not fit the layout', () => {
  assert.throws(
    () => evaluateOperatorString(parseOperatorString('G(5,1)'), randomLayout(randomGenerator(1), 2, 4)),
    ArgumentError,
  );
});
