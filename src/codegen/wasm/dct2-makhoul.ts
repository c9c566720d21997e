/**
 * DCT-II by Makhoul's algorithm on the CPU engine, around the fused real FFT of the same module:
 *
 *   dct2pre(x, v, count):  v_k = x_{2k}, v_{n−1−k} = x_{2k+1}  (k < ⌊n/2⌋), W outputs of each a step
 *   dct2post(y, out, tw, count):  out_k = 2·Re(e^{−iπk/2n}·Y_k) for k < m = ⌈n/2⌉,
 *                                 out_{n−j} = 2·Re(e^{−iπ(n−j)/2n}·conj Y_j) for 0 < j < m
 *
 * where Y is the real FFT of v: n/2 + 1 interleaved complex values a problem for even n, (n+1)/2 for odd n
 * (the odd lengths' pairs module writes rows of that length), and for even n out_{n/2} = √2·Re Y_{n/2}. Left to
 * the caller: for odd n v_{(n−1)/2} = x_{n−1}, the one even-indexed input without an odd partner. The second half is
 * computed for W consecutive j and stored lane-reversed; where W does not divide a count each loop ends with
 * one group that overlaps the one before (needs ⌊n/2⌋ ≥ W and m − 1 ≥ W). tw holds [2·cos, 2·sin] halves
 * for k < m then for n − j, j < m (see dct2Twiddles).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { unitRoot } from '../../core/unit-root.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter } from './vector-io.js';
import { halfScale, r2cEdges, r2cGroups, type R2cStream } from './rfft-post.js';
import { splitTerms } from './rfft-pairs.js';

/** [2cos θ_k (k < m), 2sin θ_k (k < m), 2cos θ_{n−j} (j < m), 2sin θ_{n−j} (j < m)], θ_k = −πk/2n, m = ⌈n/2⌉. */
export function dct2Twiddles(n: number): Float64Array {
  const h = Math.ceil(n / 2);
  const t = new Float64Array(4 * h);
  for (let k = 0; k < h; k++) {
    const [c, s] = unitRoot(-k, 4 * n);
    t[k] = 2 * c;
    t[h + k] = 2 * s;
    const [c2, s2] = unitRoot(-(n - k), 4 * n);
    t[2 * h + k] = 2 * c2;
    t[3 * h + k] = 2 * s2;
  }
  return t;
}

/** `sine`: the DST-II's reorder (dst2pre), the odd-indexed inputs negated (the DCT-II of the alternated line). */
export function dct2PreFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  // Pairs (x_2k, x_2k+1): n/2 for even n, (n−1)/2 for odd n (x_{n−1} is the caller's).
  const h = Math.floor(n / 2);
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [x, out, count] = [0, 1, 2];
  // W pairs (x_2k, x_2k+1) a step: the evens forwards, the odds lane-reversed from the end.
  const pairs = (xA: number, xOff: number, loA: number, loOff: number, hiA: number, hiOff: number): void => {
    const [even, odd] = w.loadComplex(xA, xOff);
    b.get(loA).get(even).v128Store(loOff);
    b.get(hiA).get(w.reverse(odd));
    if (sine) b.fneg(e);
    b.v128Store(hiOff);
  };
  eachProblem(
    b,
    count,
    [
      [x, e * n],
      [out, e * n],
    ],
    () => {
      const xp = pointer(b, x);
      const lo = pointer(b, out);
      const hi = pointer(b, out, e * (n - W));
      repeat(
        b,
        Math.floor(h / W),
        [
          [xp, 32],
          [lo, 16],
          [hi, -16],
        ],
        () => pairs(xp, 0, lo, 0, hi, 0),
      );
      // W ∤ h: the last W pairs again (x and v are different buffers, so rewriting equal values is harmless).
      if (h % W !== 0) pairs(x, 2 * e * (h - W), out, e * (h - W), out, e * (n - h));
    },
  );
  return { params, body: b, export: sine ? 'dst2pre' : 'dct2pre' };
}

export function dct2PostFunction(n: number, e: 4 | 8): WasmFunction {
  // h: outputs of the first half (m above); Y holds n/2 + 1 values a problem for even n, h for odd n.
  const h = Math.ceil(n / 2);
  const yLength = n % 2 === 0 ? h + 1 : h;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [y, out, tw, count] = [0, 1, 2, 3];
  // First half: out_k = tc_k·Re Y_k − ts_k·Im Y_k (the factor 2 is in the table), k < h.
  const first = (yA: number, yOff: number, tA: number, tOff: number, oA: number, oOff: number): void => {
    const [re, im] = w.loadComplex(yA, yOff);
    const r = v.mulAdd2(T(re), T(w.load(tA, tOff)), T(im), T(w.load(tA, tOff + e * h)), false);
    b.get(oA).get(w.materialise(r)).v128Store(oOff);
  };
  // Second half, j = n − k: out_{n−j} = tc'_j·Re Y_j + ts'_j·Im Y_j, lanes reversed on the store.
  const second = (yA: number, yOff: number, tA: number, tOff: number, oA: number, oOff: number): void => {
    const [re, im] = w.loadComplex(yA, yOff);
    const r = w.materialise(
      v.mulAdd2(T(re), T(w.load(tA, tOff + 2 * e * h)), T(im), T(w.load(tA, tOff + 3 * e * h)), true),
    );
    b.get(oA).get(w.reverse(r)).v128Store(oOff);
  };
  eachProblem(
    b,
    count,
    [
      [y, cb * yLength],
      [out, e * n],
    ],
    () => {
      if (n % 2 === 0) {
        // out_h = √2·Re Y_h, stored as a 64-bit lane before the second half (which rewrites out_{h+1} for f32).
        b.get(out)
          .get(y)
          .loadSplat(e, cb * h)
          .vconst(e, new Array(W).fill(Math.SQRT2))
          .fmul(e)
          .store64Lane(e * h, 0);
      }
      const yp = pointer(b, y);
      const tp = pointer(b, tw);
      const op = pointer(b, out);
      repeat(
        b,
        Math.floor(h / W),
        [
          [yp, cb * W],
          [tp, e * W],
          [op, e * W],
        ],
        () => first(yp, 0, tp, 0, op, 0),
      );
      if (h % W !== 0) first(y, cb * (h - W), tw, e * (h - W), out, e * (h - W));
      // j = 1 … h−1 in groups of W (the last one overlapping when W ∤ h − 1): out_{n−j−W+1 … n−j}.
      const yq = pointer(b, y, cb);
      const tq = pointer(b, tw, e);
      const oq = pointer(b, out, e * (n - W));
      repeat(
        b,
        Math.floor((h - 1) / W),
        [
          [yq, cb * W],
          [tq, e * W],
          [oq, -e * W],
        ],
        () => second(yq, 0, tq, 0, oq, 0),
      );
      if ((h - 1) % W !== 0) {
        const j = h - W;
        second(y, cb * j, tw, e * j, out, e * (n - j - W + 1));
      }
    },
  );
  return { params, body: b, export: 'dct2post' };
}

/**
 * dct2r2c(z, out, twR, twD, count, scale), even n: the real FFT's post step (rfft-post.ts) and dct2post in one
 * pass, from Z = FFT_{n/2} of the reordered line straight to the n DCT outputs, with the same operations in the
 * same order as r2c then dct2post (so the same values), without writing and reading Y in between.
 * twR: r2cTwiddles(n); twD: dct2Twiddles(n); Z packed n/2 apart, out n apart; `scale` as r2c's.
 */
export function dct2FusedPostFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, out, twR, twD, count, scale] = [0, 1, 2, 3, 4, 5];
  const half = halfScale(w, e, scale);
  const s = v.fresh();
  eachProblem(
    b,
    count,
    [
      [z, cb * h],
      [out, e * n],
    ],
    () => {
      // out_0 = 2·Y_0 and out_h = √2·Y_h (Y_0, Y_h real), as 64-bit lanes before the groups, which rewrite
      // out_1 and out_{h+1} (f32).
      r2cEdges(w, e, z, scale);
      b.vconst(e, e === 4 ? [2, 0, Math.SQRT2, 0] : [2, Math.SQRT2])
        .fmul(e)
        .set(s);
      // DCT: out_0 and out_h. The DST-II is the DCT-II of the alternated line reversed: out_0 lands last, out_h at
      // h − 1, one lane each (a 64-bit f32 store at n − 1 would cross into the next row).
      const edge = (at: number, lane: number): void => {
        b.get(out).get(s);
        if (sine && e === 4) b.store32Lane(at, lane);
        else b.store64Lane(at, lane);
      };
      edge(e * (sine ? n - 1 : 0), 0);
      edge(e * (sine ? h - 1 : h), 1 + Number(sine && e === 4));
      // Streams: the DCT table, out_k forwards, out_{n−k} backwards (its W lanes stored reversed); for the DST,
      // at n − 1 − k: out_k backwards from n − 1 − W at k = 1, out_{n−k} forwards from 0.
      const streams: R2cStream[] = [
        [twD, e, e],
        sine ? [out, e * (n - 1 - W), -e] : [out, e, e],
        sine ? [out, 0, e] : [out, e * (n - W), -e],
      ];
      r2cGroups(w, e, h, half, z, twR, streams, (re, im, [[td, offD], [ok, offF], [or, offO]]) => {
        const f = w.materialise(v.mulAdd2(T(re), T(w.load(td!, offD!)), T(im), T(w.load(td!, offD! + e * h)), false));
        b.get(ok!)
          .get(sine ? w.reverse(f) : f)
          .v128Store(offF!);
        const r = w.materialise(
          v.mulAdd2(T(re), T(w.load(td!, offD! + 2 * e * h)), T(im), T(w.load(td!, offD! + 3 * e * h)), true),
        );
        b.get(or!)
          .get(sine ? r : w.reverse(r))
          .v128Store(offO!);
      });
    },
  );
  return { params, body: b, export: sine ? 'dst2r2c' : 'dct2r2c' };
}

/**
 * dct2split(z, out, tw, pairs, scale), odd n: the pairs path's split (rfft-pairs.ts split2) and dct2post in one
 * pass, from Z = FFT_n of two reordered lines a + i·b straight to both lines' n DCT outputs: A_k = ½(Z_k + conj
 * Z_{n−k}) and B_k = −(i/2)(Z_k − conj Z_{n−k}) stay in registers, without writing and reading the half spectra.
 * k = 1 … m − 1 (m = (n+1)/2), W a step, the last group overlapping the one before where W ∤ m − 1 (needs
 * m − 1 ≥ W); out_0 = 2·scale·Re Z_0 and 2·scale·Im Z_0 are the caller's. `sine`: dst2split, each output at
 * n − 1 − k. tw: dct2Twiddles(n); lines a, b of pair p at out + 2pn and out + (2p+1)n.
 */
export function dct2SplitFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const m = (n + 1) / 2;
  const W = 16 / e;
  const cb = 2 * e;
  if (n % 2 !== 1 || m - 1 < W) throw new Error(`dct2split: odd n with (n − 1)/2 ≥ ${W}, not ${n}`);
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, out, tw, pairs, scale] = [0, 1, 2, 3, 4];
  const half = halfScale(w, e, scale);
  // Byte offsets of the first-half block at k (out_k …) and of the second-half block out_{n−k−W+1} … out_{n−k}.
  const firstAt = (k: number): number => e * (sine ? n - k - W : k);
  const secondAt = (k: number): number => e * (sine ? k - 1 : n - k - W + 1);
  const group = (zk: number, zr: number, tp: number, of: number, offF: number, os: number, offS: number): void => {
    // Both lines' spectra (halved here), in registers.
    const [ar, ai, br, bi] = splitTerms(w, w.loadComplex(zk, 0), w.loadComplex(zr, 0));
    const lines = [
      [ar, ai],
      [br, bi],
    ].map(([re, im]) => [w.materialise(v.mul(re!, T(half))), w.materialise(v.mul(im!, T(half)))] as const);
    const tc = T(w.load(tp, 0));
    const ts = T(w.load(tp, e * m));
    const tc2 = T(w.load(tp, 2 * e * m));
    const ts2 = T(w.load(tp, 3 * e * m));
    lines.forEach(([re, im], line) => {
      const f = w.materialise(v.mulAdd2(T(re), tc, T(im), ts, false));
      b.get(of)
        .get(sine ? w.reverse(f) : f)
        .v128Store(offF + e * n * line);
      const s = w.materialise(v.mulAdd2(T(re), tc2, T(im), ts2, true));
      b.get(os)
        .get(sine ? s : w.reverse(s))
        .v128Store(offS + e * n * line);
    });
  };
  eachProblem(
    b,
    pairs,
    [
      [z, cb * n],
      [out, 2 * e * n],
    ],
    () => {
      const zk = pointer(b, z, cb);
      const zr = pointer(b, z, cb * (n - W));
      const tp = pointer(b, tw, e);
      const of = pointer(b, out, firstAt(1));
      const os = pointer(b, out, secondAt(1));
      repeat(
        b,
        Math.floor((m - 1) / W),
        [
          [zk, cb * W],
          [zr, -cb * W],
          [tp, e * W],
          [of, sine ? -e * W : e * W],
          [os, sine ? e * W : -e * W],
        ],
        () => group(zk, zr, tp, of, 0, os, 0),
      );
      if ((m - 1) % W !== 0) {
        // Tail: k = m − W …, mirrored block Z_{n−m+1} … Z_{n−m+W} (= Z_m …), from the problem's own pointers.
        const k = m - W;
        const zk2 = pointer(b, z, cb * k);
        const zr2 = pointer(b, z, cb * (n - k - W + 1));
        const tp2 = pointer(b, tw, e * k);
        group(zk2, zr2, tp2, out, firstAt(k), out, secondAt(k));
      }
    },
  );
  return { params, body: b, export: sine ? 'dst2split' : 'dct2split' };
}
