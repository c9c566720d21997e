/**
 * The maps that turn the engine's DCTs into DSTs (scipy's definitions, r2r-dst.ts):
 *   DST-II(x)_k  = DCT-II(a)_{n−1−k},           a_j = (−1)^j x_j
 *   DST-III(x)_k = (−1)^k DCT-III(x reversed)_k
 *   DST-IV(x)_k  = (−1)^k DCT-IV(x reversed)_k
 * as two row passes over the module's chunk buffers, W values a step:
 *   reverse(src, dst, count):    dst_j = src_{n−1−j}
 *   alternate(src, dst, count):  dst_j = (−1)^j src_j
 * Rows are n reals, packed. Out of place, so where W ∤ n the last group may overlap the one before (n ≥ W).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { eachProblem, pointer, repeat, vectorWriter } from './vector-io.js';

function rowPass(n: number, e: 4 | 8, name: 'reverse' | 'alternate'): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [src, dst, count] = [0, 1, 2];
  const signs = e === 4 ? [1, -1, 1, -1] : [1, -1];
  // W values of dst at dOff from src at sOff: reversed, or times the signs (flipped for a block at an odd j).
  const group = (s: number, sOff: number, d: number, dOff: number, oddStart = false): void => {
    const x = w.load(s, sOff);
    if (name === 'reverse') b.get(d).get(w.reverse(x)).v128Store(dOff);
    else
      b.get(d)
        .get(x)
        .vconst(
          e,
          signs.map((v) => (oddStart ? -v : v)),
        )
        .fmul(e)
        .v128Store(dOff);
  };
  eachProblem(
    b,
    count,
    [
      [src, e * n],
      [dst, e * n],
    ],
    () => {
      const sp = pointer(b, src, name === 'reverse' ? e * (n - W) : 0);
      const dp = pointer(b, dst);
      repeat(
        b,
        Math.floor(n / W),
        [
          [sp, name === 'reverse' ? -16 : 16],
          [dp, 16],
        ],
        () => group(sp, 0, dp, 0),
      );
      // The last W values, j = n − W … n − 1 (reverse: from src_{W−1} … src_0).
      if (n % W !== 0) {
        if (name === 'reverse') group(src, 0, dst, e * (n - W));
        else group(src, e * (n - W), dst, e * (n - W), (n - W) % 2 === 1);
      }
    },
  );
  return { params, body: b, export: name };
}

export const reverseFunction = (n: number, e: 4 | 8): WasmFunction => rowPass(n, e, 'reverse');
export const alternateFunction = (n: number, e: 4 | 8): WasmFunction => rowPass(n, e, 'alternate');
