/**
 * DCT-III (the inverse of Makhoul's DCT-II, dct2-makhoul.ts) on the CPU engine, around the fused
 * inverse real FFT of the same module (irfft-pre.ts and the half-length inverse):
 *
 *   dct3pre(x, y, tw, count):  Y_k = e^{+iπk/2n}·(x_k − i·x_{n−k}) for k = 1 … n/2 (Y_0 = x_0 is left
 *                              to the caller), W outputs a step with x_{n−k} read backwards
 *   [c2r + inv]:               v = unnormalised irfft_n(Y)
 *   dct3post(v, out, count):   out_{2k} = v_k, out_{2k+1} = v_{n−1−k} (k < n/2), W pairs a step
 *
 * Where W ∤ n/2 each loop ends with one group that overlaps the one before (source and destination
 * differ, so it rewrites equal values; needs n/2 ≥ W). tw holds [cos θ_k, sin θ_k] halves, θ_k = πk/2n,
 * k = 1 … n/2 (see dct3Twiddles).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { unitRoot } from '../../core/unit-root.js';
import { term as T, vectorWriter } from './vector-io.js';

/** [cos θ_k (k = 1 … h), sin θ_k (k = 1 … h)], θ_k = πk/2n. */
export function dct3Twiddles(n: number): Float64Array {
  const h = n / 2;
  const t = new Float64Array(2 * h);
  for (let k = 1; k <= h; k++) {
    const [c, s] = unitRoot(k, 4 * n);
    t[k - 1] = c;
    t[h + k - 1] = s;
  }
  return t;
}

export function dct3PreFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
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
    const a = w.load(xk, offK);
    const bb = w.reverse(w.load(xr, offR));
    const c = w.load(tp, offT);
    const s = w.load(tp, offT + e * h);
    // (c + i·s)(a − i·b) = (c·a + s·b) + i(s·a − c·b)
    const re = w.materialise(v.add(v.mul(T(c), T(a)), v.mul(T(s), T(bb))));
    const im = w.materialise(v.sub(v.mul(T(s), T(a)), v.mul(T(c), T(bb))));
    w.storeComplex(yp, offY, re, im);
  };
  const xk = b.local('i32');
  const xr = b.local('i32');
  const tp = b.local('i32');
  const yp = b.local('i32');
  const g = b.local('i32');
  b.loop();
  b.get(x).i32(e).add().set(xk);
  b.get(x)
    .i32(e * (n - W))
    .add()
    .set(xr);
  b.get(tw).set(tp);
  b.get(y).i32(cb).add().set(yp);
  b.i32(Math.floor(h / W)).set(g);
  b.loop();
  group(xk, 0, xr, 0, tp, 0, yp, 0);
  b.get(xk)
    .i32(e * W)
    .add()
    .set(xk);
  b.get(xr)
    .i32(e * W)
    .sub()
    .set(xr);
  b.get(tp)
    .i32(e * W)
    .add()
    .set(tp);
  b.get(yp)
    .i32(cb * W)
    .add()
    .set(yp);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  // Tail: k = h − W + 1 … h, mirrored block x_h … x_{h+W−1}.
  if (h % W !== 0) group(x, e * (h - W + 1), x, e * h, tw, e * (h - W), y, cb * (h - W + 1));
  b.get(x)
    .i32(e * n)
    .add()
    .set(x);
  b.get(y)
    .i32(cb * (h + 1))
    .add()
    .set(y);
  b.get(count).i32(1).sub().tee(count).brIf(0);
  b.end();
  return { params, body: b, export: 'dct3pre' };
}

export function dct3PostFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [vIn, out, count] = [0, 1, 2];
  /** W pairs from k: evens v_k … forwards, odds v_{n−1−k} … backwards, interleaved. */
  const group = (loA: number, loOff: number, hiA: number, hiOff: number, oA: number, oOff: number): void =>
    w.storeComplex(oA, oOff, w.load(loA, loOff), w.reverse(w.load(hiA, hiOff)));
  const lo = b.local('i32');
  const hi = b.local('i32');
  const op = b.local('i32');
  const g = b.local('i32');
  b.loop();
  b.get(vIn).set(lo);
  b.get(vIn)
    .i32(e * (n - W))
    .add()
    .set(hi);
  b.get(out).set(op);
  b.i32(Math.floor(h / W)).set(g);
  b.loop();
  group(lo, 0, hi, 0, op, 0);
  b.get(lo).i32(16).add().set(lo);
  b.get(hi).i32(16).sub().set(hi);
  b.get(op).i32(32).add().set(op);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  if (h % W !== 0) group(vIn, e * (h - W), vIn, e * h, out, 2 * e * (h - W));
  b.get(vIn)
    .i32(e * n)
    .add()
    .set(vIn);
  b.get(out)
    .i32(e * n)
    .add()
    .set(out);
  b.get(count).i32(1).sub().tee(count).brIf(0);
  b.end();
  return { params, body: b, export: 'dct3post' };
}
