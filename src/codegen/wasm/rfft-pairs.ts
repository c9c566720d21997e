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
 *   merge2(y, z, pairs, scale) and unpack2(z, x, pairs): the inverse, around the inverse FFT of n (below).
 * Where W does not divide the count, each loop ends with one group overlapping the one before (source and
 * destination differ, so it rewrites equal values); this needs ⌊n/2⌋ ≥ W.
 */
import type { ValType, WasmFunction } from './assembler.js';
import { neg, type Term } from './vector-complex.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type Step, type VectorWriter } from './vector-io.js';

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

/**
 * Twice both rows' spectra at k … k+W−1 from Z_k (re, im vectors) and the mirrored block Z_{n−k−W+1} … Z_{n−k} as
 * loaded: with C = conj Z_{n−k} (lanes reversed), 2A = Z + C and 2B = −i(Z − C), as terms [Re 2A, Im 2A, Re 2B,
 * Im 2B]. Shared with the DCT's dct2split (dct2-makhoul.ts).
 */
export function splitTerms(
  w: VectorWriter,
  [zre, zim]: [number, number],
  [mre, mim]: [number, number],
): [Term, Term, Term, Term] {
  const v = w.v;
  const cr = T(w.reverse(mre));
  const ci = neg(T(w.reverse(mim)));
  // −i(Z − C): Re = Im(Z − C), Im = −Re(Z − C).
  return [v.add(T(zre), cr), v.add(T(zim), ci), v.sub(T(zim), ci), neg(v.sub(T(zre), cr))];
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
    const [ar, ai, br, bi] = splitTerms(w, w.loadComplex(zk, offK), w.loadComplex(zr, offR));
    store(ya, offA, ar, ai);
    store(ya, offA + cb * nc, br, bi);
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

/**
 * The inverse's first step: rows 2p, 2p+1 of y (half spectra A, B of ⌊n/2⌋ + 1 complex each) → complex problem p
 * of z (n complex), Z_k = A_k + i·B_k for k ≤ ⌊n/2⌋ and Z_{n−k} = conj A_k + i·conj B_k for k = 1 … n − ⌊n/2⌋ − 1,
 * times `scale`; its inverse FFT then holds row a in the real parts and row b in the imaginary ones. Needs
 * n − ⌊n/2⌋ − 1 ≥ W (the mirrored half's overlapping tail).
 */
export function merge2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const cb = 2 * e;
  const nc = Math.floor(n / 2) + 1;
  const m = n - nc; // mirrored outputs: k = 1 … m
  const params: ValType[] = ['i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [y, z, pairs, scale] = [0, 1, 2, 3];
  const sc = v.fresh();
  b.inPrologue(() => {
    b.get(scale).splat(e).set(sc);
  });
  const scaled = (t: Term): number => w.materialise(v.mul(t, T(sc)));
  /** Z_k … Z_{k+W−1} from A and B at ya + off (B a row further on). */
  const straight = (ya: number, off: number, zk: number, offZ: number): void => {
    const [ar, ai] = w.loadComplex(ya, off);
    const [br, bi] = w.loadComplex(ya, off + cb * nc);
    w.storeComplex(zk, offZ, scaled(v.sub(T(ar), T(bi))), scaled(v.add(T(ai), T(br))));
  };
  /** Z_{n−k−W+1} … Z_{n−k} (lanes reversed) from A_k … A_{k+W−1} and B at ya + off. */
  const mirrored = (ya: number, off: number, zr: number, offZ: number): void => {
    const [ar, ai] = w.loadComplex(ya, off);
    const [br, bi] = w.loadComplex(ya, off + cb * nc);
    const re = scaled(v.add(T(ar), T(bi)));
    const im = scaled(v.sub(T(br), T(ai)));
    w.storeComplex(zr, offZ, w.reverse(re), w.reverse(im));
  };
  eachProblem(
    b,
    pairs,
    [
      [y, 2 * cb * nc],
      [z, cb * n],
    ],
    () => {
      const ya = pointer(b, y);
      const zk = pointer(b, z);
      repeat(
        b,
        Math.floor(nc / W),
        [
          [ya, cb * W],
          [zk, cb * W],
        ],
        () => straight(ya, 0, zk, 0),
      );
      if (nc % W !== 0) straight(y, cb * (nc - W), z, cb * (nc - W));
      const yb = pointer(b, y, cb);
      const zr = pointer(b, z, cb * (n - W));
      repeat(
        b,
        Math.floor(m / W),
        [
          [yb, cb * W],
          [zr, -cb * W],
        ],
        () => mirrored(yb, 0, zr, 0),
      );
      // Tail: k = m − W + 1 … m, written to Z_{n−m} … Z_{n−m+W−1}.
      if (m % W !== 0) mirrored(y, cb * (m - W + 1), z, cb * (n - m));
    },
  );
  return { params, body: b, export: 'merge2' };
}

/** The inverse's last step: complex problem p of z (n complex) → row 2p (real parts) and 2p+1 (imaginary) of x. */
export function unpack2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [z, x, pairs] = [0, 1, 2];
  const group = (zA: number, zOff: number, xA: number, xOff: number): void => {
    const [re, im] = w.loadComplex(zA, zOff);
    b.get(xA).get(re).v128Store(xOff);
    b.get(xA)
      .get(im)
      .v128Store(xOff + e * n);
  };
  eachProblem(
    b,
    pairs,
    [
      [z, 2 * e * n],
      [x, 2 * e * n],
    ],
    () => {
      const zp = pointer(b, z);
      const xp = pointer(b, x);
      repeat(
        b,
        Math.floor(n / W),
        [
          [zp, 2 * e * W],
          [xp, e * W],
        ],
        () => group(zp, 0, xp, 0),
      );
      if (n % W !== 0) group(z, 2 * e * (n - W), x, e * (n - W));
    },
  );
  return { params, body: b, export: 'unpack2' };
}
