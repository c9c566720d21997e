/**
 * The CPU engine's fused DCT-II post step (dct2r2c: the real FFT's post-processing and the DCT rotation in
 * one pass) against the two steps it replaces, r2c then dct2post, run on the same module: the same operations
 * in the same order, so the outputs must agree bit for bit, for every even length the fused path takes
 * (edges, full groups and the overlapping tail group), both precisions, scales other than 1 and batches ≥ 3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fusedRealFft } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuEngineDct2, type CpuPrecision } from '../../src/planner/cpu-fft.js';

/** The module internals the comparison drives directly. */
interface Internals {
  heap: Float32Array | Float64Array;
  inP: number;
  outP: number;
  yP: number;
  workP: number;
  twP: number;
  info: { r2cTwiddleOffset: number; dct2TwiddleOffset: number; problemsPerSlot: number };
  chunkSlots: number;
  slotsFor(count: number): number;
  dct2pre(x: number, v: number, count: number): void;
  fwd(inP: number, outP: number, work: number, tw: number, count: number, scale: number): void;
  r2c(z: number, y: number, tw: number, count: number, scale: number): void;
  dct2post(y: number, out: number, tw: number, count: number): void;
  dct2r2c(z: number, out: number, twR: number, twD: number, count: number, scale: number): void;
}

test('fused DCT-II post step: bit for bit r2c then dct2post', () => {
  let checked = 0;
  for (const precision of ['f32', 'f64'] as CpuPrecision[]) {
    for (let N = 8; N <= 600; N += 2) {
      const recipe = planCpuEngineDct2(N, precision);
      if (!recipe || (recipe.kind !== 'lane-split' && recipe.kind !== 'lane-batch')) continue;
      if (!recipe.realPost) continue;
      const p = fusedRealFft(recipe) as unknown as Internals;
      const e = p.heap.BYTES_PER_ELEMENT;
      const count = Math.min(3, p.chunkSlots * p.info.problemsPerSlot);
      let s = N * 7919;
      const x = Array.from(
        { length: count * N },
        () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32 - 0.5),
      );
      const run = (fused: boolean, scale: number): number[] => {
        p.heap.set(x, p.outP / e);
        p.dct2pre(p.outP, p.inP, count);
        p.fwd(p.inP, p.outP, p.workP, p.twP, p.slotsFor(count), 1);
        const twR = p.twP + p.info.r2cTwiddleOffset,
          twD = p.twP + p.info.dct2TwiddleOffset;
        if (fused) {
          p.dct2r2c(p.outP, p.yP, twR, twD, count, scale);
          return Array.from(p.heap.subarray(p.yP / e, p.yP / e + count * N));
        }
        p.r2c(p.outP, p.yP, twR, count, scale);
        p.dct2post(p.yP, p.outP, twD, count);
        return Array.from(p.heap.subarray(p.outP / e, p.outP / e + count * N));
      };
      for (const scale of [1, 0.375]) {
        const a = run(false, scale),
          b = run(true, scale);
        for (let i = 0; i < a.length; i++)
          if (!Object.is(a[i], b[i])) assert.fail(`N=${N} ${precision} scale ${scale}: [${i}] ${a[i]} vs ${b[i]}`);
      }
      checked++;
    }
  }
  assert.ok(checked > 100, `only ${checked} lengths took the fused path`);
});
