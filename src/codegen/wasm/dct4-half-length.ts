/**
 * DCT-IV of even length n on the CPU engine through one complex FFT of h = n/2 points, in the module of the
 * fused real FFT of length n (whose complex FFT is that one):
 *
 *   dct2pre (dct2-makhoul.ts):  v_p = x_{2p}, v_{h+p} = x_{n−1−2p}     (its reorder, read differently)
 *   dct4pre(v, z, tw, count):   z_p = (v_p + i·v_{h+p})·e^{−iπp/n}
 *   [fwd]:                      Z = FFT_h(z)
 *   dct4post(Z, v, tw, count):  u_p = Z_p·e^{−iπ(4p+1)/4n};  v_p = 2·Re u_p, v_{h+p} = −2·Im u_p
 *   dct3post (dct3-makhoul.ts): out_{2p} = v_p, out_{n−1−2p} = v_{h+p}
 *
 * so that out_k = 2 Σ x_j cos(π(2j+1)(2k+1)/4n), scipy's unnormalised DCT-IV. Both new steps walk v in two
 * contiguous halves, W values a step; where W ∤ h the last group overlaps the one before (source and
 * destination differ, so it rewrites equal values).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { unitRoot } from '../../core/unit-root.js';
import { neg } from './vector-complex.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type VectorWriter } from './vector-io.js';

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

/**
 * The W-a-step walk both steps share: for each problem, `group` at p = 0, W, … (and h − W when W ∤ h), with the
 * real-row pointer `r`, the complex-row pointer `c` and the table pointer `t` at that p.
 */
function walk(
  w: VectorWriter,
  e: 4 | 8,
  h: number,
  [real, cplx, tw, count]: readonly number[],
  group: (r: number, rOff: number, c: number, cOff: number, t: number, tOff: number) => void,
): void {
  const { b } = w;
  const W = 16 / e;
  const cb = 2 * e;
  eachProblem(
    b,
    count!,
    [
      [real!, 2 * e * h],
      [cplx!, cb * h],
    ],
    () => {
      const rp = pointer(b, real!);
      const cp = pointer(b, cplx!);
      const tp = pointer(b, tw!);
      repeat(
        b,
        Math.floor(h / W),
        [
          [rp, e * W],
          [cp, cb * W],
          [tp, e * W],
        ],
        () => group(rp, 0, cp, 0, tp, 0),
      );
      if (h % W !== 0) group(real!, e * (h - W), cplx!, cb * (h - W), tw!, e * (h - W));
    },
  );
}

export function dct4PreFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { v } = w;
  walk(w, e, h, [0, 1, 2, 3], (r, rOff, c, cOff, t, tOff) => {
    const a = T(w.load(r, rOff));
    const bb = T(w.load(r, rOff + e * h));
    const co = T(w.load(t, tOff));
    const si = T(w.load(t, tOff + e * h));
    // (a + i·b)(c + i·s) = (a·c − b·s) + i(a·s + b·c)
    const re = w.materialise(v.sub(v.mul(a, co), v.mul(bb, si)));
    const im = w.materialise(v.add(v.mul(a, si), v.mul(bb, co)));
    w.storeComplex(c, cOff, re, im);
  });
  return { params, body: w.b, export: 'dct4pre' };
}

export function dct4PostFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  // Parameters: Z (complex), v (real), tw (dct4post's table), count; walk takes [real, complex, tw, count].
  walk(w, e, h, [1, 0, 2, 3], (r, rOff, c, cOff, t, tOff) => {
    const [zr, zi] = w.loadComplex(c, cOff);
    const co = T(w.load(t, tOff + 2 * e * h));
    const si = T(w.load(t, tOff + 3 * e * h));
    // 2u = Z·(2c + i·2s): v_p = Re 2u, v_{h+p} = −Im 2u.
    const lo = w.materialise(v.sub(v.mul(T(zr), co), v.mul(T(zi), si)));
    const hi = w.materialise(neg(v.add(v.mul(T(zr), si), v.mul(T(zi), co))));
    b.get(r).get(lo).v128Store(rOff);
    b.get(r)
      .get(hi)
      .v128Store(rOff + e * h);
  });
  return { params, body: b, export: 'dct4post' };
}
