/**
 * Inverse real FFT pre-processing on the CPU engine, the mirror of rfft-post.ts: from the half spectrum
 * Y_0 … Y_h of a real signal of length n = 2h,
 *   Z'_k = (Y_k + conj Y_{h−k}) + i·conj(w^k)·(Y_k − conj Y_{h−k}),  w = e^{−2πi/n},  k = 0 … h−1,
 * which is 2·(E_k + i·O_k) for the FFTs E, O of the even and odd samples. The module's unnormalised
 * half-length inverse of Z' is then n·(x_0 + i·x_1, x_2 + i·x_3, …): the real output, interleaved.
 * W outputs a step, the mirrored block read backwards (one lane-reversing shuffle), each group writing Z'_k and
 * Z'_{h−k} from one product (needs h ≥ W + 1). The caller zeroes Im Y_0 and Im Y_h first (numpy ignores them).
 *
 *   c2r(y, z, tw, count): `count` problems, y packed h + 1 apart, z packed h apart (interleaved complex);
 *   tw is rfft-post's table [Re w^0 … Re w^h, Im w^0 … Im w^h].
 */
import type { ValType, WasmFunction } from './assembler.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type Step, type VectorWriter } from './vector-io.js';

/**
 * The pre-step's arithmetic on registers: Y_k … Y_{k+W−1} as (re, im) vectors and the mirrored values (lane l =
 * Y_{h−k−l}), the table at tp+offT. With E = Y_k + conj Y_{h−k}, D = Y_k − conj Y_{h−k} and Q = conj(w^k)·D,
 * returns [Z'_k re, im, Z'_{h−k} re, im]: Z'_k = E + i·Q and Z'_{h−k} = conj(E − i·Q) (conj w^{h−k} = −w^k), the
 * mirror's lanes in the input's order. Shared with dct3c2r (dct3-makhoul.ts).
 */
export function c2rPair(
  w: VectorWriter,
  e: 4 | 8,
  h: number,
  [yre, yim]: [number, number],
  [mre, mim]: [number, number],
  tp: number,
  offT = 0,
): [number, number, number, number] {
  const v = w.v;
  const er = v.add(T(yre), T(mre));
  const ei = v.sub(T(yim), T(mim));
  const dr = v.sub(T(yre), T(mre));
  const di = v.add(T(yim), T(mim));
  const wr = w.load(tp, offT);
  const wi = w.load(tp, offT + e * (h + 1));
  // conj(w^k)·D = (wr·dr + wi·di) + i(wr·di − wi·dr).
  const pr = v.mulAdd2(T(wr), dr, T(wi), di, true);
  const pi = v.mulAdd2(T(wr), di, T(wi), dr, false);
  return [
    w.materialise(v.sub(er, pi)),
    w.materialise(v.add(ei, pr)),
    w.materialise(v.add(er, pi)),
    w.materialise(v.sub(pr, ei)),
  ];
}

export function c2rPreFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [y, z, tw, count] = [0, 1, 2, 3];
  /**
   * Z'_k … Z'_{k+W−1} from Y_k at yk and the mirrored block Y_{h−k−W+1} … Y_{h−k} at yr; with `zm`, also
   * Z'_{h−k} …, stored ascending at zm.
   */
  const group = (
    yk: number,
    offK: number,
    yr: number,
    offR: number,
    tp: number,
    offT: number,
    zp: number,
    offZ: number,
    zm?: number,
  ): void => {
    const [mre, mim] = w.loadComplex(yr, offR);
    const pair = c2rPair(w, e, h, w.loadComplex(yk, offK), [w.reverse(mre), w.reverse(mim)], tp, offT);
    w.storeComplex(zp, offZ, pair[0], pair[1]);
    if (zm !== undefined) w.storeComplex(zm, 0, w.reverse(pair[2]), w.reverse(pair[3]));
  };
  eachProblem(
    b,
    count,
    [
      [y, cb * (h + 1)],
      [z, cb * h],
    ],
    () => {
      // k = 0 … W−1 on their own (Z'_0 has no mirror among the outputs); the pairs from k = 1 rewrite 1 … W−1.
      group(y, 0, y, cb * (h - W + 1), tw, 0, z, 0);
      const yk = pointer(b, y, cb);
      const yr = pointer(b, y, cb * (h - W));
      const tp = pointer(b, tw, e);
      const zp = pointer(b, z, cb);
      const zm = pointer(b, z, cb * (h - W));
      const steps: Step[] = [
        [yk, cb * W],
        [yr, -cb * W],
        [tp, e * W],
        [zp, cb * W],
        [zm, -cb * W],
      ];
      // ⌈(h−1)/2W⌉ pairs of blocks cover k = 1 … h−1; where 2W ∤ h − 1 the last pair's blocks overlap.
      repeat(b, Math.ceil((h - 1) / (2 * W)), steps, () => group(yk, 0, yr, 0, tp, 0, zp, 0, zm));
    },
  );
  return { params, body: b, export: 'c2r' };
}
