/**
 * DCT-IV of even length n on the CPU engine through one complex FFT of h = n/2 points, in the module of the
 * fused real FFT of length n (whose complex FFT is that one):
 *
 *   dct4pre(x, z, tw, count):   z_p = (x_{2p} + i·x_{n−1−2p})·e^{−iπp/n}
 *   [fwd]:                      Z = FFT_h(z)
 *   dct4post(Z, out, tw, count): u_p = Z_p·e^{−iπ(4p+1)/4n};  out_{2p} = 2·Re u_p, out_{n−1−2p} = −2·Im u_p
 *
 * so that out_k = 2 Σ x_j cos(π(2j+1)(2k+1)/4n), scipy's unnormalised DCT-IV. dct4pre reads the evens forwards and
 * the odds backwards (one deinterleaving load each, one lane reversal), W values of p a step; where W ∤ h the last
 * group overlaps the one before (source and destination differ, so it rewrites equal values). dct4post takes a
 * block of p and its mirror h−W−p … h−1−p together, because out_{2p+1} = −2·Im u_{h−1−p}: each block's outputs
 * interleave its real parts with the mirror's imaginary parts reversed. With `sine` (dst4pre, dst4post) the same
 * steps give the DST-IV, the DCT-IV of the reversed line with alternating output signs: the evens and odds swap
 * roles in the reorder, and the odd outputs change sign.
 */
import type { ValType, WasmFunction } from './assembler.js';
import { unitRoot } from '../../core/unit-root.js';
import { neg } from './vector-complex.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter } from './vector-io.js';

/** [cos, sin of −πp/n (p < h)], then [2·cos, 2·sin of −π(4p+1)/4n (p < h)]: dct4pre's table, then dct4post's. */
export function dct4Twiddles(n: number): Float64Array {
  const h = n / 2;
  const t = new Float64Array(4 * h);
  for (let p = 0; p < h; p++) {
    const [c, s] = unitRoot(-p, 2 * n);
    t[p] = c;
    t[h + p] = s;
    const [c2, s2] = unitRoot(-(4 * p + 1), 8 * n);
    t[2 * h + p] = 2 * c2;
    t[3 * h + p] = 2 * s2;
  }
  return t;
}

export function dct4PreFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [x, z, tw, count] = [0, 1, 2, 3];
  /** z_p … z_{p+W−1}: evens x_{2p} … at xf, odds x_{n−2p−2W+1} … x_{n−1−2p} at xr (reversed), table at t. */
  const group = (
    xf: number,
    fOff: number,
    xr: number,
    rOff: number,
    t: number,
    tOff: number,
    zp: number,
    zOff: number,
  ) => {
    const [even] = w.loadComplex(xf, fOff);
    const [, odd] = w.loadComplex(xr, rOff);
    const back = w.reverse(odd);
    const [a, bb] = sine ? [T(back), T(even)] : [T(even), T(back)];
    const co = T(w.load(t, tOff));
    const si = T(w.load(t, tOff + e * h));
    // (a + i·b)(c + i·s) = (a·c − b·s) + i(a·s + b·c)
    const re = w.materialise(v.mulAdd2(a, co, bb, si, false));
    const im = w.materialise(v.mulAdd2(a, si, bb, co, true));
    w.storeComplex(zp, zOff, re, im);
  };
  eachProblem(
    b,
    count,
    [
      [x, e * n],
      [z, cb * h],
    ],
    () => {
      const xf = pointer(b, x);
      const xr = pointer(b, x, e * (n - 2 * W));
      const tp = pointer(b, tw);
      const zp = pointer(b, z);
      repeat(
        b,
        Math.floor(h / W),
        [
          [xf, 2 * e * W],
          [xr, -2 * e * W],
          [tp, e * W],
          [zp, cb * W],
        ],
        () => group(xf, 0, xr, 0, tp, 0, zp, 0),
      );
      if (h % W !== 0) {
        const p = h - W;
        group(x, 2 * e * p, x, e * (n - 2 * p - 2 * W), tw, e * p, z, cb * p);
      }
    },
  );
  return { params, body: b, export: sine ? 'dst4pre' : 'dct4pre' };
}

export function dct4PostFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, out, tw, count] = [0, 1, 2, 3];
  /** 2u for the block at Z zp+zOff, table at t+tOff: [2·Re u, −2·Im u] (negated again for the DST's odd outputs). */
  const rotate = (zp: number, zOff: number, t: number, tOff: number): [number, number] => {
    const [zr, zi] = w.loadComplex(zp, zOff);
    const co = T(w.load(t, tOff + 2 * e * h));
    const si = T(w.load(t, tOff + 3 * e * h));
    const lo = w.materialise(v.mulAdd2(T(zr), co, T(zi), si, false));
    const hi = v.mulAdd2(T(zr), si, T(zi), co, true);
    return [lo, w.materialise(sine ? hi : neg(hi))];
  };
  /** Blocks p and q = h−W−p (the mirror): out_{2p+2l} = lo_p[l], out_{2p+2l+1} = hi_q[W−1−l], and the same for q. */
  const pair = (
    zp: number,
    zq: number,
    tp: number,
    tq: number,
    op: number,
    oq: number,
    off: [number, number, number, number, number, number],
  ) => {
    const [lp, hp] = rotate(zp, off[0], tp, off[2]);
    const [lq, hq] = rotate(zq, off[1], tq, off[3]);
    w.storeComplex(op, off[4], lp, w.reverse(hq));
    w.storeComplex(oq, off[5], lq, w.reverse(hp));
  };
  eachProblem(
    b,
    count,
    [
      [z, cb * h],
      [out, e * n],
    ],
    () => {
      const zp = pointer(b, z);
      const zq = pointer(b, z, cb * (h - W));
      const tp = pointer(b, tw);
      const tq = pointer(b, tw, e * (h - W));
      const op = pointer(b, out);
      const oq = pointer(b, out, 2 * e * (h - W));
      // ⌈h/2W⌉ pairs of blocks cover p = 0 … h−1; where 2W ∤ h the last pair's blocks overlap (equal values).
      repeat(
        b,
        Math.ceil(h / (2 * W)),
        [
          [zp, cb * W],
          [zq, -cb * W],
          [tp, e * W],
          [tq, -e * W],
          [op, 2 * e * W],
          [oq, -2 * e * W],
        ],
        () => pair(zp, zq, tp, tq, op, oq, [0, 0, 0, 0, 0, 0]),
      );
    },
  );
  return { params, body: b, export: sine ? 'dst4post' : 'dct4post' };
}
