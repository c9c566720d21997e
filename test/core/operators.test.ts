import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError } from '../../src/errors.js';
import { layoutSize, sameLayout } from '../../src/core/digits.js';
import { IndexMap } from '../../src/core/index-map.js';
import {
  type LayoutMap,
  type PermutationTerm,
  applyOperator,
  butterfly,
  composeLayoutMaps,
  digitSource,
  gamma,
  gamma2,
  rho,
  sigma,
  sigma2,
} from '../../src/core/operators.js';
import { type Rand, pick, randInt, randomField, randomGenerator, randomLayout } from './random-layouts.js';

const TRIALS = 150;

/** The seeds' notation: digits after the operator, most significant first, e.g. "t8 t3 t2 t7 …". */
function seedsNotation(src: readonly number[]): string {
  return [...src]
    .reverse()
    .map((p) => `t${p + 1}`)
    .join(' ');
}

function assertIdentity(m: LayoutMap): void {
  assert.ok(sameLayout(m.input, m.output), `layout ${m.input} → ${m.output}`);
  assert.ok(m.map.isIdentity());
}

function randomPermutationTerm(r: Rand, n: number): PermutationTerm {
  const [i, j] = randomField(r, n);
  const kind = pick(r, ['G', 'S', 'R', 'G2', 'S2'] as const);
  const m = randInt(r, 0, 4);
  if ((kind === 'G2' || kind === 'S2') && j >= 2) {
    const [k, l] = randomField(r, j - 1);
    return { op: kind === 'G2' ? 'G' : 'S', i, j, k, l, m };
  }
  if (kind === 'R') return { op: 'R', i, j };
  return { op: kind === 'S' || kind === 'S2' ? 'S' : 'G', i, j, m };
}

test('IndexMap: compose is left-to-right, inverse and power', () => {
  const a = IndexMap.fromArray([1, 2, 0, 3]);
  const b = IndexMap.fromArray([0, 1, 3, 2]);
  const ab = a.compose(b);
  for (let t = 0; t < 4; t++) assert.equal(ab.apply(t), b.apply(a.apply(t)));
  assert.ok(a.compose(a.inverse()).isIdentity());
  assert.ok(a.power(3).isIdentity());
  assert.ok(a.power(-1).equals(a.inverse()));
  assert.ok(a.power(2).equals(a.compose(a)));
  assert.throws(() => IndexMap.fromArray([0, 0, 1]), ArgumentError);
  assert.throws(() => IndexMap.fromArray([0, 3]), ArgumentError);
  assert.throws(() => a.apply(4), ArgumentError);
  assert.throws(() => a.compose(IndexMap.identity(3)), ArgumentError);
});

test("operators reproduce the seeds' worked examples (000 §5.1.2)", () => {
  // Γ²_{7,2}[t8 … t1] = [t8 t3 t2 t7 t6 t5 t4 t1]
  assert.equal(seedsNotation(digitSource({ op: 'G', i: 7, j: 2, m: 2 }, 8)), 't8 t3 t2 t7 t6 t5 t4 t1');
  // Γ_{8,6,2,1}[t8 … t1] = [t1 t8 t7 t5 t4 t3 t6 t2]
  assert.equal(seedsNotation(digitSource({ op: 'G', i: 8, j: 6, k: 2, l: 1 }, 8)), 't1 t8 t7 t5 t4 t3 t6 t2');
  // ρ_{7,2}[t8 … t1] = [t8 t2 t3 t4 t5 t6 t7 t1]
  assert.equal(seedsNotation(digitSource({ op: 'R', i: 7, j: 2 }, 8)), 't8 t2 t3 t4 t5 t6 t7 t1');
  // Γ_{i,j}: cyclic shift right, t_j wraps to the top of the field.
  assert.equal(seedsNotation(digitSource({ op: 'G', i: 4, j: 1 }, 4)), 't1 t4 t3 t2');
  assert.equal(seedsNotation(digitSource({ op: 'S', i: 4, j: 1 }, 4)), 't3 t2 t1 t4');
});

test('a mixed-radix digit permutation carries each radix with its digit', () => {
  // Γ_{2,1} on [R_1=2, R_2=3]: the element at t = d1 + 2·d2 moves to d2 + 3·d1 in layout [3, 2].
  const g = gamma([2, 3], 2, 1);
  assert.deepEqual(g.output, [3, 2]);
  for (let d1 = 0; d1 < 2; d1++) for (let d2 = 0; d2 < 3; d2++) assert.equal(g.map.apply(d1 + 2 * d2), d2 + 3 * d1);
  assert.deepEqual(gamma([2, 3, 5, 7], 4, 2).output, [2, 5, 7, 3]);
  assert.deepEqual(rho([2, 3, 5, 7], 4, 1).output, [7, 5, 3, 2]);
});

test('Lemma 3: Γ^m over m digits is the identity (random mixed layouts)', () => {
  const r = randomGenerator(11);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r);
    const [i, j] = randomField(r, layout.length);
    const w = i - j + 1;
    assertIdentity(gamma(layout, i, j, w));
    assertIdentity(sigma(layout, i, j, w));
    assertIdentity(gamma(layout, i, j, 0));
    assertIdentity(gamma(layout, i, i));
    if (j >= 2) {
      const [k, l] = randomField(r, j - 1);
      assertIdentity(gamma2(layout, i, j, k, l, w + k - l + 1));
    }
  }
});

test('Lemma 4: σ^m Γ^m = Γ^m σ^m = 1, Γ then σ = 1, and Γ^m = Γ composed m times', () => {
  const r = randomGenerator(12);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r);
    const [i, j] = randomField(r, layout.length);
    const m = randInt(r, 1, 5);
    const g = gamma(layout, i, j, m);
    assertIdentity(composeLayoutMaps(sigma(layout, i, j, m), gamma(sigma(layout, i, j, m).output, i, j, m)));
    assertIdentity(composeLayoutMaps(g, sigma(g.output, i, j, m)));
    const g1 = gamma(layout, i, j);
    assertIdentity(composeLayoutMaps(g1, sigma(g1.output, i, j)));
    let repeated = gamma(layout, i, j);
    for (let q = 1; q < m; q++) repeated = composeLayoutMaps(repeated, gamma(repeated.output, i, j));
    assert.ok(repeated.map.equals(g.map));
    assert.deepEqual(repeated.output, g.output);
    assert.ok(sigma(g.output, i, j, m).map.equals(g.map.inverse()));
    if (j >= 2) {
      const [k, l] = randomField(r, j - 1);
      const g2 = gamma2(layout, i, j, k, l, m);
      assertIdentity(composeLayoutMaps(g2, sigma2(g2.output, i, j, k, l, m)));
    }
  }
});

test('ρ is an involution; σ is the inverse of Γ as a map between layouts', () => {
  const r = randomGenerator(13);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r);
    const [i, j] = randomField(r, layout.length);
    const p = rho(layout, i, j);
    assertIdentity(composeLayoutMaps(p, rho(p.output, i, j)));
    const m = randInt(r, 1, 4);
    const g = gamma(layout, i, j, m);
    const s = sigma(g.output, i, j, m);
    assert.ok(s.map.equals(g.map.inverse()));
    assert.deepEqual(s.output, layout);
  }
});

test('Lemma 5: ∏_{k=0}^{m-1} Γ_{i,j-k} = Γ^m_{i,j-m+1} ρ_{i,i-m+1}', () => {
  const r = randomGenerator(14);
  let checked = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r, 2, 8);
    const n = layout.length;
    const i = randInt(r, 1, n);
    const j = randInt(r, 1, i);
    const m = randInt(r, 1, j);
    if (i - m + 1 < 1) continue;
    let product = gamma(layout, i, j);
    for (let k = 1; k < m; k++) product = composeLayoutMaps(product, gamma(product.output, i, j - k));
    const g = gamma(layout, i, j - m + 1, m);
    const rhs = composeLayoutMaps(g, rho(g.output, i, i - m + 1));
    assert.ok(product.map.equals(rhs.map), `i=${i} j=${j} m=${m} layout=${layout}`);
    assert.deepEqual(product.output, rhs.output);
    checked++;
  }
  assert.ok(checked > 100);
});

test('B^r_i groups the indices that differ only in digits i..i+r-1', () => {
  const r = randomGenerator(15);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r);
    const n = layout.length;
    const i = randInt(r, 1, n);
    const w = randInt(r, 1, n - i + 1);
    const g = butterfly(layout, i, w);
    const radix = layout.slice(i - 1, i - 1 + w).reduce((a, b) => a * b, 1);
    assert.equal(g.groupSize(), radix);
    assert.equal(g.groups.length, layoutSize(layout) / radix);
    const stride = layout.slice(0, i - 1).reduce((a, b) => a * b, 1);
    for (const group of g.groups) group.forEach((t, k) => assert.equal(t, group[0] + k * stride));
  }
});

test('Lemma 1: grouping butterflies raises the radix, B^a_i ∨ B^b_{i+a} = B^{a+b}_i', () => {
  const r = randomGenerator(16);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r, 2, 7);
    const n = layout.length;
    const i = randInt(r, 1, n - 1);
    const a = randInt(r, 1, n - i);
    const b = randInt(r, 1, n - i - a + 1);
    const joined = butterfly(layout, i, a).join(butterfly(layout, i + a, b));
    assert.ok(joined.equals(butterfly(layout, i, a + b)));
    assert.equal(joined.groupSize(), butterfly(layout, i, a + b).groupSize());
  }
});

/**
 * "φ B_i = B_{i'} φ" as data flow: running B_i on the layout φ produces, seen back in φ's input
 * coordinates, is B_{i'} on the input layout (same groups, same element order).
 */
function butterflyAfter(op: LayoutMap, i: number): ReturnType<typeof butterfly> {
  return butterfly(op.output, i).mapThrough(op.map.inverse());
}

test('Lemma 2: B_i commutes with any operator that leaves digit i alone, and follows a moved digit', () => {
  const r = randomGenerator(17);
  let commuting = 0;
  for (let trial = 0; trial < 3 * TRIALS; trial++) {
    const layout = randomLayout(r, 1, 7);
    const n = layout.length;
    const term = randomPermutationTerm(r, n);
    const op = applyOperator(term, layout);
    const src = digitSource(term, n);
    const i = randInt(r, 1, n);
    assert.ok(butterflyAfter(op, i).equalsOrdered(butterfly(layout, src[i - 1] + 1)));
    if (src[i - 1] === i - 1) {
      assert.ok(butterflyAfter(op, i).equalsOrdered(butterfly(layout, i)));
      commuting++;
    }
  }
  assert.ok(commuting > 50);
});

test('Lemma 2 (eq. 5.11): Γ_{k,j} B_i = B_{i+1} Γ_{k,j} for j ≤ i < k, = B_j Γ_{k,j} for i = k', () => {
  const r = randomGenerator(18);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r, 2, 7);
    const [k, j] = randomField(r, layout.length);
    const g = gamma(layout, k, j);
    for (let i = j; i < k; i++) assert.ok(butterflyAfter(g, i).equalsOrdered(butterfly(layout, i + 1)));
    assert.ok(butterflyAfter(g, k).equalsOrdered(butterfly(layout, j)));
  }
});

test('Lemma 2 (eq. 5.10): σ_{k,j} B_i = B_{i-1} σ_{k,j} for j < i ≤ k, = B_k σ_{k,j} for i = j', () => {
  const r = randomGenerator(19);
  for (let trial = 0; trial < TRIALS; trial++) {
    const layout = randomLayout(r, 2, 7);
    const [k, j] = randomField(r, layout.length);
    const s = sigma(layout, k, j);
    for (let i = j + 1; i <= k; i++) assert.ok(butterflyAfter(s, i).equalsOrdered(butterfly(layout, i - 1)));
    assert.ok(butterflyAfter(s, j).equalsOrdered(butterfly(layout, k)));
  }
});

test('operators reject bad digit positions with ArgumentError', () => {
  assert.throws(() => gamma([2, 2, 2], 4, 1), ArgumentError);
  assert.throws(() => gamma([2, 2, 2], 1, 2), ArgumentError);
  assert.throws(() => gamma([2, 2, 2], 3, 1, -1), ArgumentError);
  assert.throws(() => gamma2([2, 2, 2, 2], 4, 2, 2, 1), ArgumentError);
  assert.throws(() => rho([2, 2], 2, 0), ArgumentError);
  assert.throws(() => butterfly([2, 2, 2], 3, 2), ArgumentError);
  assert.throws(() => composeLayoutMaps(gamma([2, 3], 2, 1), gamma([2, 3], 2, 1)), ArgumentError);
});
