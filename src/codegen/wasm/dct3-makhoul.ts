/**
 * DCT-III (the inverse of Makhoul's DCT-II, dct2-makhoul.ts) on the CPU engine, around the fused
 * inverse real FFT of the same module (irfft-pre.ts and the half-length inverse):
 *
 *   dct3pre(x, y, tw, count):  Y_k = e^{+iπk/2n}·(x_k − i·x_{n−k}) for k = 1 … K = ⌊n/2⌋ (Y_0 = x_0 is left
 *                              to the caller), W outputs a step with x_{n−k} read backwards
 *   [c2r + inv, or for odd n the pairs module's merge2 + inv + unpack2]:  v = unnormalised irfft_n(Y)
 *   dct3post(v, out, count):   out_{2k} = v_k, out_{2k+1} = v_{n−1−k} (k < K), W pairs a step (odd n: the
 *                              last output, out_{n−1} = v_K, is left to the caller)
 *
 * Where W ∤ K each loop ends with one group that overlaps the one before (source and destination
 * differ, so it rewrites equal values; needs K ≥ W). tw holds [cos θ_k, sin θ_k] halves, θ_k = πk/2n,
 * k = 1 … K (see dct3Twiddles).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { unitRoot } from '../../core/unit-root.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type Step } from './vector-io.js';
import { c2rPair } from './irfft-pre.js';

/** [cos θ_k (k = 1 … h), sin θ_k (k = 1 … h)], θ_k = πk/2n, h = ⌊n/2⌋. */
export function dct3Twiddles(n: number): Float64Array {
  const h = Math.floor(n / 2);
  const t = new Float64Array(2 * h);
  for (let k = 1; k <= h; k++) {
    const [c, s] = unitRoot(k, 4 * n);
    t[k - 1] = c;
    t[h + k - 1] = s;
  }
  return t;
}

/**
 * `sine`: the DST-III's pre step (dst3pre), the DCT-III's of the reversed line x'_j = x_{n−1−j}: x'_k = x_{n−1−k}
 * read backwards and x'_{n−k} = x_{k−1} forwards (Y_0 = x'_0 = x_{n−1} is the caller's).
 */
export function dct3PreFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const h = Math.floor(n / 2);
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [x, y, tw, count] = [0, 1, 2, 3];
  /** Outputs k … k+W−1: x_k at xk+offK, x_{n−k−W+1} … x_{n−k} at xr+offR. */
  const group = (
    xk: number,
    offK: number,
    xr: number,
    offR: number,
    tp: number,
    offT: number,
    yp: number,
    offY: number,
  ): void => {
    // DCT: a = x_k … forwards, b = x_{n−k} … (lanes reversed); DST: a = x_{n−1−k} … reversed, b = x_{k−1} ….
    const a = sine ? w.reverse(w.load(xk, offK)) : w.load(xk, offK);
    const bb = sine ? w.load(xr, offR) : w.reverse(w.load(xr, offR));
    const c = w.load(tp, offT);
    const s = w.load(tp, offT + e * h);
    // (c + i·s)(a − i·b) = (c·a + s·b) + i(s·a − c·b)
    const re = w.materialise(v.mulAdd2(T(c), T(a), T(s), T(bb), true));
    const im = w.materialise(v.mulAdd2(T(s), T(a), T(c), T(bb), false));
    w.storeComplex(yp, offY, re, im);
  };
  eachProblem(
    b,
    count,
    [
      [x, e * n],
      [y, cb * (h + 1)],
    ],
    () => {
      // For the DST the forward stream is x_{n−1−k} … backwards and the mirrored one x_{k−1} … forwards.
      const xk = pointer(b, x, sine ? e * (n - 1 - W) : e);
      const xr = pointer(b, x, sine ? 0 : e * (n - W));
      const tp = pointer(b, tw);
      const yp = pointer(b, y, cb);
      const steps: Step[] = [
        [xk, sine ? -e * W : e * W],
        [xr, sine ? e * W : -e * W],
        [tp, e * W],
        [yp, cb * W],
      ];
      repeat(b, Math.floor(h / W), steps, () => group(xk, 0, xr, 0, tp, 0, yp, 0));
      // Tail: k = h − W + 1 … h, mirrored block x_{n−h} … x_{n−h+W−1} (DST: x_{n−k−W} … reversed, x_{k−1} …).
      if (h % W !== 0) {
        const k = h - W + 1;
        const [offK, offR] = sine ? [e * (n - k - W), e * (k - 1)] : [e * k, e * (n - h)];
        group(x, offK, x, offR, tw, e * (h - W), y, cb * k);
      }
    },
  );
  return { params, body: b, export: sine ? 'dst3pre' : 'dct3pre' };
}

/** `sine`: the DST-III's post step (dst3post), the odd outputs negated (the alternating signs). */
export function dct3PostFunction(n: number, e: 4 | 8, sine = false): WasmFunction {
  const h = Math.floor(n / 2);
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [vIn, out, count] = [0, 1, 2];
  /** W pairs from k: evens v_k … forwards, odds v_{n−1−k} … backwards, interleaved. */
  const group = (loA: number, loOff: number, hiA: number, hiOff: number, oA: number, oOff: number): void => {
    const odd = w.reverse(w.load(hiA, hiOff));
    if (sine) b.get(odd).fneg(e).set(odd);
    w.storeComplex(oA, oOff, w.load(loA, loOff), odd);
  };
  eachProblem(
    b,
    count,
    [
      [vIn, e * n],
      [out, e * n],
    ],
    () => {
      const lo = pointer(b, vIn);
      const hi = pointer(b, vIn, e * (n - W));
      const op = pointer(b, out);
      repeat(
        b,
        Math.floor(h / W),
        [
          [lo, 16],
          [hi, -16],
          [op, 32],
        ],
        () => group(lo, 0, hi, 0, op, 0),
      );
      if (h % W !== 0) group(vIn, e * (h - W), vIn, e * (n - h), out, 2 * e * (h - W));
    },
  );
  return { params, body: b, export: sine ? 'dst3post' : 'dct3post' };
}

/**
 * dct3c2r(x, z, tw3, twR, count), even N = 2h: dct3pre and the inverse real pre-step (irfft-pre.ts c2r) in one
 * pass, from the N inputs straight to Z' (h complex values a problem) for the module's inverse: a group takes a
 * block k … k+W−1 (k ≥ 1) and its mirror h−k−W+1 … h−k, forms Y there from the inputs (Y_k = e^{iπk/2N}(x_k −
 * i·x_{N−k})) and both blocks of Z' from one product as c2r does, without writing and reading Y. Z'_0 = (x_0 + √2·x_h)
 * + i(x_0 − √2·x_h) (Y_0 = x_0, Y_h = √2·x_h). `sine`: dst3c2r, the same on the reversed line. tw3: dct3Twiddles(N);
 * twR: r2cTwiddles(N). Needs h ≥ W + 1.
 */
export function dct3C2rFunction(N: number, e: 4 | 8, sine = false): WasmFunction {
  const h = N / 2;
  const W = 16 / e;
  const cb = 2 * e;
  if (N % 2 !== 0 || h < W + 1) throw new Error(`dct3c2r: even N with N/2 ≥ ${W + 1}, not ${N}`);
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [x, z, tw3, twR, count] = [0, 1, 2, 3, 4];
  /**
   * An input stream in the DCT's view: the block x_j … x_{j+W−1} at k = 1 moving `step` values a group, its lanes
   * reversed when `rev`. The DST reads the reversed line, x'_j = x_{N−1−j}: the mirrored block, moving the other way,
   * its lanes the other way round.
   */
  const stream = (j: number, step: number, rev: boolean): { p: number; step: number; rev: boolean } =>
    sine
      ? { p: pointer(b, x, e * (N - j - W)), step: -e * step, rev: !rev }
      : { p: pointer(b, x, e * j), step: e * step, rev };
  const read = (s: { p: number; rev: boolean }): number => (s.rev ? w.reverse(w.load(s.p, 0)) : w.load(s.p, 0));
  eachProblem(
    b,
    count,
    [
      [x, e * N],
      [z, cb * h],
    ],
    () => {
      // Z'_0 from x'_0 and x'_h.
      const [i0, ih] = sine ? [N - 1, h - 1] : [0, h];
      b.get(z)
        .get(x)
        .loadSplat(e, e * i0)
        .get(x)
        .loadSplat(e, e * ih)
        .vconst(e, e === 4 ? [Math.SQRT2, -Math.SQRT2, Math.SQRT2, -Math.SQRT2] : [Math.SQRT2, -Math.SQRT2])
        .fmul(e)
        .fadd(e);
      if (e === 4) b.store64Lane(0, 0);
      else b.v128Store(0);
      // Y_k: a = x_k …, b = x_{N−k} … (lanes reversed); Y_{h−k} (lane l = Y_{h−k−l}): a = x_{h−k} … and b = x_{h+k} ….
      const ak = stream(1, W, false);
      const bk = stream(N - W, -W, true);
      const am = stream(h - W, -W, true);
      const bm = stream(h + 1, W, false);
      // Tables: dct3's at k (index k − 1) forwards and at h − k backwards; r2c's at k.
      const t3 = pointer(b, tw3);
      const t3m = pointer(b, tw3, e * (h - 1 - W));
      const tr = pointer(b, twR, e);
      const zk = pointer(b, z, cb);
      const zm = pointer(b, z, cb * (h - W));
      const steps: Step[] = [
        [ak.p, ak.step],
        [bk.p, bk.step],
        [am.p, am.step],
        [bm.p, bm.step],
        [t3, e * W],
        [t3m, -e * W],
        [tr, e * W],
        [zk, cb * W],
        [zm, -cb * W],
      ];
      repeat(b, Math.ceil((h - 1) / (2 * W)), steps, () => {
        // (c + i·s)(a − i·b) = (c·a + s·b) + i(s·a − c·b)
        const rotate = (a: number, bb: number, c: number, s: number): [number, number] => [
          w.materialise(v.mulAdd2(T(c), T(a), T(s), T(bb), true)),
          w.materialise(v.mulAdd2(T(s), T(a), T(c), T(bb), false)),
        ];
        const [yre, yim] = rotate(read(ak), read(bk), w.load(t3, 0), w.load(t3, e * h));
        const [mre, mim] = rotate(read(am), read(bm), w.reverse(w.load(t3m, 0)), w.reverse(w.load(t3m, e * h)));
        const pair = c2rPair(w, e, h, [yre, yim], [mre, mim], tr);
        w.storeComplex(zk, 0, pair[0], pair[1]);
        w.storeComplex(zm, 0, w.reverse(pair[2]), w.reverse(pair[3]));
      });
    },
  );
  return { params, body: b, export: sine ? 'dst3c2r' : 'dct3c2r' };
}
