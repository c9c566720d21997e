/** Seeded inputs and error measures shared by the CPU engine's tests. */
import assert from 'node:assert/strict';
import type { CpuPrecision } from '../../src/planner/cpu-fft.js';

/** A seeded LCG in [−0.5, 0.5). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** Relative L2 error of a against b. */
export function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < b.length; i++) {
    const d = a[i]! - b[i]!;
    num += d * d;
    den += b[i]! * b[i]!;
  }
  return Math.sqrt(num / (den || 1));
}

/** Honest bounds: f32 rounding grows like log2 n; f64 likewise at 2^-52. */
export const bound = (n: number, p: CpuPrecision): number =>
  (p === 'f32' ? 1.2e-7 : 2.5e-16) * (4 + 2 * Math.log2(Math.max(n, 2)));

/** Bitwise equality of two results, naming the first difference. */
export function assertSame(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${what}: [${i}] = ${a[i]} vs ${b[i]}`);
}
