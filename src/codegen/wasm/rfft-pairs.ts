/**
 * Real FFTs of length n on the CPU engine, two per complex transform: z = a + i·b for real rows a, b,
 * Z = FFT_n(z), then
 *   A_k = ½(Z_k + conj Z_{n−k}),  B_k = −(i/2)(Z_k − conj Z_{n−k}),  k = 0 … ⌊n/2⌋
 * (for even n, k = n/2 is its own mirror and the same formula gives Re Z and Im Z). Odd lengths, and even ones whose
 * half does not split across the lanes; other even lengths take the half-length path of rfft-post.ts, which does
 * less work.
 *
 *   pack2(x, z, pairs): rows 2p and 2p+1 of x (n reals each, packed) → complex problem p of z.
 *   split2(z, y, pairs, scale): Z (n complex a problem) → rows 2p, 2p+1 of y (⌊n/2⌋ + 1 complex each),
 *     k = 1 … ⌊n/2⌋, W a step with the mirrored block read backwards; times `scale`. k = 0 (A_0 = Re Z_0,
 *     B_0 = Im Z_0) is left to the caller.
 * Where W does not divide the count, each loop ends with one group overlapping the one before (source and
 * destination differ, so it rewrites equal values); this needs ⌊n/2⌋ ≥ W.
 */
import type { ValType, WasmFunction } from './assembler.js';
import { neg, type Term } from './vector-complex.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type Step } from './vector-io.js';

export function pack2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [x, z, pairs] = [0, 1, 2];
  // Row a in the real lanes, row b in the imaginary lanes.
  const group = (xA: number, xOff: number, zA: number, zOff: number): void =>
    w.storeComplex(zA, zOff, w.load(xA, xOff), w.load(xA, xOff + e * n));
  eachProblem(
    b,
    pairs,
    [
      [x, 2 * e * n],
      [z, 2 * e * n],
    ],
    () => {
      const xp = pointer(b, x);
      const zp = pointer(b, z);
      repeat(
        b,
        Math.floor(n / W),
        [
          [xp, 16],
          [zp, 32],
        ],
        () => group(xp, 0, zp, 0),
      );
      if (n % W !== 0) group(x, e * (n - W), z, 2 * e * (n - W));
    },
  );
  return { params, body: b, export: 'pack2' };
}

export function split2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const cb = 2 * e;
  const nc = Math.floor(n / 2) + 1;
  const params: ValType[] = ['i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, y, pairs, scale] = [0, 1, 2, 3];
  const half = v.fresh();
  b.inPrologue(() => {
    b.get(scale).splat(e).vconst(e, new Array(W).fill(0.5)).fmul(e).set(half);
  });
  const store = (addr: number, off: number, re: Term, im: Term): void =>
    w.storeComplex(addr, off, w.materialise(v.mul(re, T(half))), w.materialise(v.mul(im, T(half))));
  /** Outputs k … k+W−1 of both rows: Z_k at zk+offK, Z_{n−k−W+1} … Z_{n−k} at zr+offR. */
  const group = (zk: number, offK: number, zr: number, offR: number, ya: number, offA: number): void => {
    const [zre, zim] = w.loadComplex(zk, offK);
    const [mre, mim] = w.loadComplex(zr, offR);
    // C = conj Z_{n−k}, lanes reversed.
    const cr = T(w.reverse(mre));
    const ci = neg(T(w.reverse(mim)));
    store(ya, offA, v.add(T(zre), cr), v.add(T(zim), ci));
    // B = −(i/2)(Z − C): Re B = ½ Im(Z − C), Im B = −½ Re(Z − C).
    store(ya, offA + cb * nc, v.sub(T(zim), ci), neg(v.sub(T(zre), cr)));
  };
  eachProblem(
    b,
    pairs,
    [
      [z, cb * n],
      [y, 2 * cb * nc],
    ],
    () => {
      const zk = pointer(b, z, cb);
      const zr = pointer(b, z, cb * (n - W));
      const ya = pointer(b, y, cb);
      const steps: Step[] = [
        [zk, cb * W],
        [zr, -cb * W],
        [ya, cb * W],
      ];
      repeat(b, Math.floor((nc - 1) / W), steps, () => group(zk, 0, zr, 0, ya, 0));
      // Tail: k = nc − W … nc − 1, mirrored block Z_{n−nc+1} … Z_{n−nc+W} (odd n: from Z_{nc}; even: Z_{n/2}).
      if ((nc - 1) % W !== 0) group(z, cb * (nc - W), z, cb * (n - nc + 1), y, cb * (nc - W));
    },
  );
  return { params, body: b, export: 'split2' };
}
