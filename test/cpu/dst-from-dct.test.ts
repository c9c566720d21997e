/**
 * The engine's row passes that turn its DCTs into DSTs (src/codegen/wasm/dst-from-dct.ts), driven directly on a
 * fused DCT module: reverse and alternate against their definitions, exactly (they only move values and flip
 * signs), for every length the module takes (full groups and the overlapping tail, even and odd tail starts),
 * both precisions and batches ≥ 3; and the rows they do not own are left alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fusedRealFft } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuEngineDct2, type CpuPrecision } from '../../src/planner/cpu-fft.js';

interface Internals {
  heap: Float32Array | Float64Array;
  inP: number;
  outP: number;
  chunkSlots: number;
  info: { problemsPerSlot: number };
  reverse(src: number, dst: number, count: number): void;
  alternate(src: number, dst: number, count: number): void;
}

test('reverse and alternate row passes: exact, every length 8…300, both precisions', () => {
  let checked = 0;
  for (const precision of ['f32', 'f64'] as CpuPrecision[]) {
    for (let n = 8; n <= 300; n++) {
      const recipe = planCpuEngineDct2(n, precision);
      if (!recipe) continue;
      const p = fusedRealFft(recipe) as unknown as Internals;
      const e = p.heap.BYTES_PER_ELEMENT;
      const count = 3;
      const x = Array.from({ length: count * n }, (_, i) => ((i * 0.37) % 1.9) - 0.95);
      const src = p.inP / e;
      const dst = p.outP / e;
      for (const pass of ['reverse', 'alternate'] as const) {
        p.heap.set(x, src);
        // A sentinel after the last row: the passes must not write past count rows.
        p.heap.fill(7, dst, dst + count * n + 8);
        p[pass](p.inP, p.outP, count);
        for (let q = 0; q < count; q++) {
          for (let j = 0; j < n; j++) {
            const want = pass === 'reverse' ? x[q * n + n - 1 - j]! : (j % 2 ? -1 : 1) * x[q * n + j]!;
            const got = p.heap[dst + q * n + j]!;
            if (!Object.is(got, precision === 'f32' ? Math.fround(want) : want))
              assert.fail(`${pass} n=${n} ${precision} row ${q} [${j}]: ${got} vs ${want}`);
          }
        }
        for (let i = count * n; i < count * n + 8; i++)
          assert.equal(p.heap[dst + i], 7, `${pass} n=${n}: wrote past the rows`);
      }
      checked++;
    }
  }
  assert.ok(checked > 200, `only ${checked} lengths had a fused DCT module`);
});
