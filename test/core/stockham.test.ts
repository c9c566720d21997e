import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError } from '../../src/errors.js';
import { layoutSize } from '../../src/core/digits.js';
import type { Grouping } from '../../src/core/grouping.js';
import { IndexMap } from '../../src/core/index-map.js';
import { butterfly, composeLayoutMaps, gamma, rho, sigma } from '../../src/core/operators.js';
import { evaluateOperatorString, formatOperatorString } from '../../src/core/operator-string.js';
import {
  idFftOperatorString,
  stockhamLayouts,
  stockhamOperatorString,
  stockhamSeedOperatorString,
  stockhamStageMaps,
} from '../../src/core/stockham.js';
import { randomFloat64 } from '../../src/util/random.js';
import { type Rand, pick, randomGenerator } from './random-layouts.js';

const RADICES = [2, 3, 4, 5, 7, 8, 16] as const;
const MAX_N = 4096;

function randomRadixSequence(r: Rand): number[] {
  const seq: number[] = [];
  let size = 1;
  for (;;) {
    const fits = RADICES.filter((radix) => size * radix <= MAX_N);
    if (fits.length === 0 || (seq.length > 0 && r() < 0.25)) return seq;
    const radix = pick(r, fits);
    seq.push(radix);
    size *= radix;
  }
}

/** Fixed sequences worth always covering, then seeded random ones. */
function radixSequences(count: number, seed: number): number[][] {
  const fixed = [
    [2],
    [16],
    [7],
    [2, 2],
    [3, 5],
    [16, 16, 16],
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    [7, 7, 7, 8],
    [5, 3, 2, 16],
  ];
  const r = randomGenerator(seed);
  return [...fixed, ...Array.from({ length: count }, () => randomRadixSequence(r))];
}

function naiveDft(re: Float64Array, im: Float64Array): [Float64Array, Float64Array] {
  const n = re.length;
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let q = 0; q < n; q++) {
    cos[q] = Math.cos((2 * Math.PI * q) / n);
    sin[q] = -Math.sin((2 * Math.PI * q) / n);
  }
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sr = 0;
    let si = 0;
    for (let t = 0, q = 0; t < n; t++, q = (q + k) % n) {
      sr += re[t] * cos[q] - im[t] * sin[q];
      si += re[t] * sin[q] + im[t] * cos[q];
    }
    outRe[k] = sr;
    outIm[k] = si;
  }
  return [outRe, outIm];
}

/** A float64 Stockham FFT driven only by the stage maps, as generated code would be. */
function stockhamFft(radices: readonly number[], re0: Float64Array, im0: Float64Array): [Float64Array, Float64Array] {
  let re = Float64Array.from(re0);
  let im = Float64Array.from(im0);
  for (let s = 0; s < radices.length; s++) {
    const st = stockhamStageMaps(radices, s);
    const R = st.radix;
    const outRe = new Float64Array(re.length).fill(Number.NaN);
    const outIm = new Float64Array(im.length).fill(Number.NaN);
    const xr = new Float64Array(R);
    const xi = new Float64Array(R);
    for (let j = 0; j < st.butterflies; j++) {
      for (let k = 0; k < R; k++) {
        const { num, den } = st.twiddleExponent(j, k);
        const a = (-2 * Math.PI * num) / den;
        const c = Math.cos(a);
        const d = Math.sin(a);
        const t = st.read(j, k);
        xr[k] = re[t] * c - im[t] * d;
        xi[k] = re[t] * d + im[t] * c;
      }
      for (let k = 0; k < R; k++) {
        let sr = 0;
        let si = 0;
        for (let q = 0; q < R; q++) {
          const a = (-2 * Math.PI * ((q * k) % R)) / R;
          sr += xr[q] * Math.cos(a) - xi[q] * Math.sin(a);
          si += xr[q] * Math.sin(a) + xi[q] * Math.cos(a);
        }
        const w = st.write(j, k);
        outRe[w] = sr;
        outIm[w] = si;
      }
    }
    re = outRe;
    im = outIm;
  }
  return [re, im];
}

function relativeError(aRe: Float64Array, aIm: Float64Array, bRe: Float64Array, bIm: Float64Array): number {
  let num = 0;
  let den = 0;
  for (let q = 0; q < aRe.length; q++) {
    num += (aRe[q] - bRe[q]) ** 2 + (aIm[q] - bIm[q]) ** 2;
    den += bRe[q] ** 2 + bIm[q] ** 2;
  }
  return Math.sqrt(num / den);
}

test('Stockham stage maps compute the DFT for random radix sequences from {2,3,4,5,7,8,16}, N ≤ 4096', () => {
  const sequences = radixSequences(40, 31);
  for (const [q, radices] of sequences.entries()) {
    const n = layoutSize(radices);
    const re = randomFloat64(n, 1000 + q);
    const im = randomFloat64(n, 2000 + q);
    const [fr, fi] = stockhamFft(radices, re, im);
    const [dr, di] = naiveDft(re, im);
    const err = relativeError(fr, fi, dr, di);
    assert.ok(err < 1e-12, `radices ${radices.join('·')} (N=${n}): relative error ${err}`);
  }
});

test('stage read and write maps are bijections onto 0..N-1, twiddles use one denominator per stage', () => {
  for (const radices of radixSequences(30, 32)) {
    const n = layoutSize(radices);
    for (let s = 0; s < radices.length; s++) {
      const st = stockhamStageMaps(radices, s);
      const reads: number[] = [];
      const writes: number[] = [];
      for (let j = 0; j < st.butterflies; j++) {
        for (let k = 0; k < st.radix; k++) {
          reads.push(st.read(j, k));
          writes.push(st.write(j, k));
          const tw = st.twiddleExponent(j, k);
          assert.equal(tw.den, st.stride * st.radix);
          assert.ok(tw.num >= 0 && tw.num < tw.den);
        }
      }
      assert.equal(reads.length, n);
      IndexMap.fromArray(reads); // throws unless a bijection
      IndexMap.fromArray(writes);
    }
  }
});

test('each stage: reads are B_n on L_s, and the write map is σ_{n,s+1} = Γ^{n-s-1}_{n,s+1} = (Γ_{n,s+1})^{n-s-1}', () => {
  for (const radices of radixSequences(30, 33)) {
    const n = radices.length;
    const layouts = stockhamLayouts(radices);
    for (let s = 0; s < n; s++) {
      const st = stockhamStageMaps(radices, s);
      const L = layouts[s];
      assert.deepEqual(st.readLayout, L);
      // Read groups: butterfly j is the group of B_n containing j, element k is the top digit's value.
      const groups = butterfly(L, n);
      for (let j = 0; j < st.butterflies; j++) {
        const g = groups.groupOf(st.read(j, 0));
        for (let k = 0; k < st.radix; k++) assert.equal(g[k], st.read(j, k));
      }
      // Write: the element read as (j, k) lands where σ_{n,s+1} sends it.
      const sig = sigma(L, n, s + 1);
      const gammaPower = gamma(L, n, s + 1, n - s - 1);
      let gammaRepeated = gamma(L, n, s + 1, 0);
      for (let q = 0; q < n - s - 1; q++)
        gammaRepeated = composeLayoutMaps(gammaRepeated, gamma(gammaRepeated.output, n, s + 1));
      assert.ok(sig.map.equals(gammaPower.map) && sig.map.equals(gammaRepeated.map));
      assert.deepEqual(sig.output, st.writeLayout);
      assert.deepEqual(sig.output, layouts[s + 1]);
      for (let j = 0; j < st.butterflies; j++) {
        for (let k = 0; k < st.radix; k++) assert.equal(st.write(j, k), sig.map.apply(st.read(j, k)));
      }
    }
  }
});

test('stockhamOperatorString describes the stages and ends in natural order after ρ_{n,1}', () => {
  for (const radices of radixSequences(30, 34)) {
    const n = radices.length;
    const layouts = stockhamLayouts(radices);
    const ev = evaluateOperatorString(stockhamOperatorString(radices), layouts[0]);
    assert.deepEqual(ev.output, radices);
    assert.ok(ev.permutation.equals(rho(layouts[0], n, 1).map));
    assert.equal(ev.butterflies.length, n);
    ev.butterflies.forEach((b, s) => {
      const st = stockhamStageMaps(radices, s);
      assert.equal(b.radix, st.radix);
      assert.deepEqual(ev.layouts[b.termIndex], layouts[s]);
      for (let j = 0; j < st.butterflies; j++) {
        const g = b.local.groupOf(st.read(j, 0));
        for (let k = 0; k < st.radix; k++) assert.equal(g[k], st.read(j, k));
      }
    });
  }
  assert.equal(formatOperatorString(stockhamOperatorString([4, 8, 2]), 'ascii'), 'B(3) S(3,1) B(3) S(3,2) B(3) S(3,3)');
});

function originals(terms: ReturnType<typeof idFftOperatorString>, n: number) {
  const ev = evaluateOperatorString(terms, new Array<number>(n).fill(2));
  return { permutation: ev.permutation, steps: ev.butterflies.map((b) => b.original) };
}

function joinBlocks(steps: readonly Grouping[], sizes: readonly number[]): Grouping[] {
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

test("radix 2: the generator's Stockham string equals the seeds' eq. 5.15 in normal form", () => {
  for (let n = 1; n <= 10; n++) {
    const mine = originals(stockhamOperatorString(new Array<number>(n).fill(2)), n);
    const seeds = originals(stockhamSeedOperatorString(n), n);
    assert.ok(mine.permutation.equals(seeds.permutation));
    mine.steps.forEach((g, q) => assert.ok(g.equalsOrdered(seeds.steps[q]), `n=${n} step ${q}`));
  }
});

test('ID-FFT (eq. 5.28, mixed step first or last) is Stockham with radix-2 steps grouped', () => {
  for (let n = 1; n <= 10; n++) {
    const stockham = originals(stockhamSeedOperatorString(n), n);
    for (let r = 1; r <= 5; r++) {
      const q = Math.floor(n / r);
      const m = n % r;
      for (const mixedStep of ['first', 'last'] as const) {
        const sizes = new Array<number>(q).fill(r);
        if (m !== 0) {
          if (mixedStep === 'first') sizes.unshift(m);
          else sizes.push(m);
        }
        const id = originals(idFftOperatorString(n, r, { mixedStep }), n);
        const label = `n=${n} r=${r} ${mixedStep}`;
        assert.ok(id.permutation.equals(stockham.permutation), label);
        const expected = joinBlocks(stockham.steps, sizes);
        assert.equal(id.steps.length, expected.length, label);
        id.steps.forEach((g, k) => assert.ok(g.equals(expected[k]), `${label} step ${k}`));
      }
    }
  }
});

test('ID-FFT strings read like the seeds (eqs. 5.19, 5.29, 5.31)', () => {
  assert.equal(
    formatOperatorString(idFftOperatorString(6, 2), 'ascii'),
    'G^2(6,5) R(6,5) B^2(5) G^2(6,3) R(6,5) B^2(5) G^2(6,1) R(6,5) B^2(5)',
  );
  assert.equal(formatOperatorString(idFftOperatorString(3, 4), 'ascii'), 'R(3,1) B^3(1)');
  assert.equal(
    formatOperatorString(idFftOperatorString(7, 3), 'ascii'),
    'R(7,7) B(7) G^3(7,4) R(7,5) B^3(5) G^3(7,1) R(7,5) B^3(5)',
  );
  assert.equal(
    formatOperatorString(idFftOperatorString(7, 3, { mixedStep: 'last' }), 'unicode'),
    'Γ³[7,5] ρ[7,5] B³[5] Γ³[7,2] ρ[7,5] B³[5] Γ[7,1] ρ[7,7] B[7]',
  );
});

test('Stockham helpers validate their arguments', () => {
  assert.throws(() => stockhamStageMaps([4, 4], 2), ArgumentError);
  assert.throws(() => stockhamStageMaps([], 0), ArgumentError);
  assert.throws(() => stockhamStageMaps([4, 1], 0), ArgumentError);
  assert.throws(() => stockhamStageMaps([4, 4], 0).read(4, 0), ArgumentError);
  assert.throws(() => stockhamStageMaps([4, 4], 0).write(0, 4), ArgumentError);
  assert.throws(() => idFftOperatorString(0, 2), ArgumentError);
  assert.throws(() => idFftOperatorString(4, 0), ArgumentError);
});
