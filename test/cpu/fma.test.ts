/**
 * Fused multiply-adds (relaxed SIMD) in the engine's modules: the planner records them in the recipes where the
 * runtime has them, the generated modules then use them, and both forms of every pass kind (radix-4 and radix-8
 * twiddle products, odd codelets, generic passes, the lane-split combine, the four-step, Rader, Bluestein, the 2-D
 * column passes) match the float64 reference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuFma } from '../../src/planner/cpu-features.js';
import {
  planBluestein,
  planCpuEngineFft,
  planCpuEngineFft2,
  type CpuEngineFft2Recipe,
  type CpuEngineFftRecipe,
  type CpuPrecision,
} from '../../src/planner/cpu-fft.js';
import { generateEngineFft } from '../../src/codegen/wasm/fft-engine.js';
import { generateColumnsModule } from '../../src/codegen/wasm/fft-columns.js';
import { engineFftOf } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { fft2Engine } from '../../src/backends/cpu/fft-2d.js';
import * as nd from '../../src/backends/cpu/fft-nd.js';
import { bound, relErr, rng } from '../helpers/numeric.js';

/** The recipe with every `fma` removed (inner recipes included): plain multiplies and adds. */
function unfused<T>(recipe: T): T {
  return JSON.parse(JSON.stringify(recipe, (k, v: unknown) => (k === 'fma' ? undefined : v))) as T;
}

/** Whether module bytes hold a relaxed madd or nmadd (0xfd prefix, opcodes 0x105–0x108 as LEB128). */
function hasRelaxedMadd(bytes: Uint8Array): boolean {
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 0xfd && bytes[i + 1]! >= 0x85 && bytes[i + 1]! <= 0x88 && bytes[i + 2] === 0x02) return true;
  return false;
}

test('the planner records fused multiply-adds where the runtime has relaxed SIMD', () => {
  // Node 20 and 21 get them by the flag cpu-features.ts sets; BUTTERFLY_RELAXED_SIMD=0 turns them off.
  assert.equal(cpuFma(), process.env['BUTTERFLY_RELAXED_SIMD'] !== '0');
  const r = planCpuEngineFft(1024, 'f32');
  assert.ok(r.kind === 'lane-split');
  assert.equal(r.fma, cpuFma() ? true : undefined);
  assert.equal(planCpuEngineFft2(64, 64, 'f64')!.fma, cpuFma() ? true : undefined);
  if (!cpuFma()) return;
  assert.ok(hasRelaxedMadd(generateEngineFft(r).bytes));
  assert.ok(!hasRelaxedMadd(generateEngineFft(unfused(r)).bytes));
  const r2 = planCpuEngineFft2(48, 64, 'f32')!;
  assert.ok(hasRelaxedMadd(generateColumnsModule(r2).bytes));
  assert.ok(!hasRelaxedMadd(generateColumnsModule(unfused(r2)).bytes));
});

function check(recipe: CpuEngineFftRecipe, batch: number, seed: number, what: string): void {
  const { n, precision } = recipe;
  const r = rng(seed);
  const x = new Float64Array(2 * n * batch).map(() => r());
  const Arr = precision === 'f32' ? Float32Array : Float64Array;
  const plan = engineFftOf(recipe);
  for (const inverse of [false, true]) {
    const ref = new Float64Array(2 * n * batch);
    planCpuFft(n).execute(x, ref, { batch, inverse });
    const out = new Arr(2 * n * batch).fill(NaN);
    plan.execute(Arr.from(x), out, { batch, inverse });
    const e = relErr(out, ref);
    assert.ok(e <= bound(n, precision), `${what} n=${n} ${precision} inverse ${inverse}: ${e}`);
  }
}

test('fused and plain modules of every pass kind match the float64 reference', () => {
  let seed = 1;
  // 64, 1024: radix 4; 512: radix 8; 3^5, 5^4, 7^3: odd codelets; 11·13·4, 17·19: generic passes; 1000 (lane-split
  // with odd radices); 999 (lane-batch); 1009: Rader; 2 · 1031: Bluestein; 2^21: four-step (f32); 7 · 11 · 2^10
  // in f32 from 32768 points: the partial four-step.
  const lengths = [64, 1024, 512, 243, 625, 343, 572, 323, 1000, 999, 1009, 2062, 7 * 11 * 1024];
  for (const precision of ['f32', 'f64'] as CpuPrecision[]) {
    for (const n of lengths) {
      const planned = planCpuEngineFft(n, precision);
      for (const recipe of [planned, unfused(planned)])
        check(recipe, 3, seed++, recipe === planned ? 'planned' : 'plain');
    }
    const blue = planBluestein(97, precision);
    check(blue, 3, seed++, 'Bluestein');
    check(unfused(blue), 3, seed++, 'plain Bluestein');
  }
  const large = planCpuEngineFft(1 << 21, 'f32');
  assert.equal(large.kind, 'four-step');
  check(large, 1, seed++, 'four-step');
  check(unfused(large), 1, seed++, 'plain four-step');
});

test('2-D column passes, fused and plain, match the float64 N-D driver', async () => {
  let seed = 100;
  for (const [R, C] of [
    [48, 64],
    [7 * 11, 32],
    [3 * 41, 12],
  ] as const) {
    for (const precision of ['f32', 'f64'] as const) {
      const planned = planCpuEngineFft2(R, C, precision);
      assert.ok(planned, `${R}×${C} ${precision} has a 2-D recipe`);
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const B = 3;
      const x = new Arr(2 * B * R * C).map(rng(seed++));
      for (const recipe of [planned, unfused<CpuEngineFft2Recipe>(planned)]) {
        for (const inverse of [false, true]) {
          const got = new Arr(x.length);
          await fft2Engine(recipe).execute(x, got, B, inverse, 1);
          const ref = (inverse ? nd.ifftn : nd.fftn)(Float64Array.from(x), [B, R, C], {
            axes: [1, 2],
            norm: inverse ? 'forward' : 'backward',
          }).data;
          const e = relErr(got, ref);
          assert.ok(e <= bound(R * C, precision), `${R}×${C} ${precision} fma ${recipe.fma} inverse ${inverse}: ${e}`);
        }
      }
    }
  }
});
