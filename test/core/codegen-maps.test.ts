/**
 * The generated kernels' index maps are the core's Stockham maps. The WGSL generator builds every stage's
 * read, write and twiddle addresses with the expressions of codegen/fft-exchange.ts; here those expressions
 * are evaluated (a small u32 evaluator) for every stage of planned recipes and compared with
 * core/stockham.ts's stockhamStageMaps, whose products are proved against the DFT and the operator algebra
 * in stockham.test.ts. Multi-pass plans are Stockham transforms whose radices are whole passes: each pass's
 * stride is checked against the core's map over the pass lengths.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stockhamStageMaps } from '../../src/core/stockham.js';
import { readIndex, twiddleIndex, writeIndex } from '../../src/codegen/fft-exchange.js';
import { planWorkgroupFft } from '../../src/planner/fft-workgroup.js';
import { planFft } from '../../src/planner/fft-multipass.js';
import { generateWorkgroupFft } from '../../src/codegen/fft-stockham-workgroup.js';
import type { WorkgroupFftRecipe } from '../../src/planner/fft-recipe.js';
import { gen } from '../reliability/helpers.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};

/** Value of a WGSL u32 expression over integer literals (with or without the u suffix), + - * / % and parentheses. */
export function evalU32(expr: string): number {
  const tokens = expr.match(/\d+u?|[-+*/%()]/g) ?? [];
  assert.equal(tokens.join(''), expr.replace(/\s+/g, ''), `unexpected characters in ${expr}`);
  let i = 0;
  const atom = (): number => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      assert.equal(tokens[i++], ')', `unbalanced ${expr}`);
      return v;
    }
    assert.match(t ?? '', /^\d+u?$/, `number expected in ${expr}`);
    return parseInt(t, 10);
  };
  const product = (): number => {
    let v = atom();
    while (tokens[i] === '*' || tokens[i] === '/' || tokens[i] === '%') {
      const op = tokens[i++];
      const w = atom();
      v = op === '*' ? v * w : op === '/' ? Math.floor(v / w) : v % w;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  assert.equal(i, tokens.length, `trailing tokens in ${expr}`);
  return v;
}

test('the u32 evaluator follows WGSL integer arithmetic', () => {
  assert.equal(evalU32('(7u / 2u) * 4u + (7u % 2u) + 3u'), 16);
  assert.equal(evalU32('5 * 3u + 2u'), 17);
  assert.throws(() => evalU32('t + 1u'));
});

/** Every stage: the generator's read, write and twiddle expressions equal the core's maps. */
function checkStages(r: WorkgroupFftRecipe, seed: number): number {
  const radices = r.stages.map((st) => st.radix);
  const g = gen(seed);
  let checked = 0;
  r.stages.forEach((st, s) => {
    const map = stockhamStageMaps(radices, s);
    assert.equal(st.stride, map.stride, `n=${r.n} stage ${s}: stride`);
    const nb = map.butterflies;
    const js =
      nb <= 512 ? Array.from({ length: nb }, (_, j) => j) : Array.from({ length: 512 }, () => g.int(0, nb - 1));
    for (const j of js) {
      for (let k = 0; k < st.radix; k++) {
        const at = `n=${r.n} (${radices.join('·')}) stage ${s} j=${j} k=${k}`;
        assert.equal(evalU32(readIndex(`${j}u`, k, nb)), map.read(j, k), `${at}: read`);
        assert.equal(evalU32(writeIndex(`${j}u`, k, st.stride, st.radix, nb)), map.write(j, k), `${at}: write`);
        // The table holds W_n^e: the core's W_den^num is W_n^(num·n/den).
        const tw = map.twiddleExponent(j, k);
        if (st.stride > 1)
          assert.equal(
            evalU32(twiddleIndex(`${j % st.stride}u`, k, r.n, st.stride, st.radix)),
            (tw.num * r.n) / tw.den,
            `${at}: twiddle`,
          );
        checked++;
      }
    }
  });
  return checked;
}

test('single-workgroup recipes: every stage reads, writes and twiddles by the core Stockham maps', () => {
  let checked = 0;
  const sizes = [2, 8, 12, 16, 60, 64, 100, 128, 243, 256, 360, 500, 625, 1000, 1024, 2187, 3000, 4096, 8192, 16384];
  for (const [i, n] of sizes.entries()) {
    for (const options of [
      {},
      { maxRadix: 32 },
      { exchange: 'split4' as const },
      { exchange: 'split' as const },
      { exchange: 'rounds' as const },
      { maxOddRadix: 0 },
    ]) {
      let r: WorkgroupFftRecipe;
      try {
        r = planWorkgroupFft(n, 64, H200, options);
      } catch {
        continue; // an option this length does not take
      }
      checked += checkStages(r, 10 + i);
    }
  }
  assert.ok(checked > 100_000, `${checked} (stage, j, k) triples checked`);
});

test('multi-pass recipes: each pass is a Stockham stage of the pass lengths, each pass kernel by the core maps', () => {
  for (const n of [1 << 15, 1 << 17, 1 << 20, 1 << 24, 3 ** 10, 100000, 5 ** 8]) {
    const r = planFft(n, 4, H200);
    assert.equal(r.algorithm, 'stockham-multipass', `n=${n}`);
    if (r.algorithm !== 'stockham-multipass') continue;
    const lengths = r.passes.map((p) => p.n);
    assert.equal(
      lengths.reduce((a, b) => a * b, 1),
      n,
    );
    r.passes.forEach((p, q) => {
      const map = stockhamStageMaps(lengths, q);
      assert.equal(p.pass!.stride, map.stride, `n=${n} pass ${q}: stride`);
      assert.equal(p.pass!.total, n);
      // The pass's column j reads j + k·(n/R_q) and writes the core's σ map (checked at a few columns).
      const nb = map.butterflies;
      for (const j of [0, 1, nb - 1, Math.floor(nb / 3)]) {
        for (const k of [0, 1, p.n - 1]) {
          assert.equal(evalU32(readIndex(`${j}u`, k, nb)), map.read(j, k));
          assert.equal(evalU32(writeIndex(`${j}u`, k, map.stride, p.n, nb)), map.write(j, k));
        }
      }
      checkStages(p, q);
    });
  }
});

test('the generated WGSL uses those expressions: every exchange writes at writeIndex of the stage', () => {
  for (const n of [64, 256, 1000, 4096]) {
    const r = planWorkgroupFft(n, 64, H200, { exchange: 'complex', padding: false });
    const k = generateWorkgroupFft(r, { direction: 'forward', scale: 1, inPlace: false });
    r.stages.slice(0, -1).forEach((st, s) => {
      const expected = writeIndex('(t + 0u)', 1, st.stride, st.radix, r.n / st.radix);
      assert.ok(k.wgsl.includes(expected), `n=${n} stage ${s}: ${expected} not in the kernel`);
    });
  }
});
