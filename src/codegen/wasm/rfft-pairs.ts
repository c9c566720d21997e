/**
 * Real FFTs of odd length n on the CPU engine, two per complex transform: z = a + i·b for real rows a, b,
 * Z = FFT_n(z), then
 *   A_k = ½(Z_k + conj Z_{n−k}),  B_k = −(i/2)(Z_k − conj Z_{n−k}),  k = 0 … (n−1)/2.
 * (Even lengths take the half-length path of rfft-post.ts, which does less work.)
 *
 *   pack2(x, z, pairs): rows 2p and 2p+1 of x (n reals each, packed) → complex problem p of z.
 *   split2(z, y, pairs, scale): Z (n complex a problem) → rows 2p, 2p+1 of y ((n+1)/2 complex each),
 *     k = 1 … (n−1)/2, W a step with the mirrored block read backwards; times `scale`. k = 0 (A_0 = Re Z_0,
 *     B_0 = Im Z_0) is left to the caller.
 * Where W does not divide the count, each loop ends with one group overlapping the one before (source and
 * destination differ, so it rewrites equal values); this needs (n−1)/2 ≥ W.
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';
import { VecEmitter, neg, type Term } from './vector-complex.js';
import { EVEN_F32, ODD_F32, LO_F32, HI_F32, LO_64, HI_64, REV_F32, REV_64 } from './lane-shuffles.js';

function writer(e: 4 | 8, params: ValType[]) {
  const b = new Body(params);
  const v = new VecEmitter(b, e);
  const shuffle = (x: number, y: number, m: readonly number[]): number => {
    const t = v.fresh();
    b.get(x).get(y).shuffle(m).set(t);
    return t;
  };
  return { b, v, shuffle };
}

export function pack2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const { b, v, shuffle } = writer(e, params);
  const [x, z, pairs] = [0, 1, 2];
  const xp = b.local('i32');
  const zp = b.local('i32');
  const g = b.local('i32');
  const group = (xA: number, xOff: number, zA: number, zOff: number): void => {
    const ra = v.fresh();
    const rb = v.fresh();
    b.get(xA).v128Load(xOff).set(ra);
    b.get(xA).v128Load(xOff + e * n).set(rb);
    b.get(zA).get(shuffle(ra, rb, e === 4 ? LO_F32 : LO_64)).v128Store(zOff);
    b.get(zA).get(shuffle(ra, rb, e === 4 ? HI_F32 : HI_64)).v128Store(zOff + 16);
  };
  b.loop();
  b.get(x).set(xp);
  b.get(z).set(zp);
  b.i32(Math.floor(n / W)).set(g);
  b.loop();
  group(xp, 0, zp, 0);
  b.get(xp).i32(16).add().set(xp);
  b.get(zp).i32(32).add().set(zp);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  if (n % W !== 0) group(x, e * (n - W), z, 2 * e * (n - W));
  b.get(x).i32(2 * e * n).add().set(x);
  b.get(z).i32(2 * e * n).add().set(z);
  b.get(pairs).i32(1).sub().tee(pairs).brIf(0);
  b.end();
  return { params, body: b, export: 'pack2' };
}

export function split2Function(n: number, e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const cb = 2 * e;
  const nc = (n + 1) / 2;
  const params: ValType[] = ['i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const { b, v, shuffle } = writer(e, params);
  const [z, y, pairs, scale] = [0, 1, 2, 3];
  const half = v.fresh();
  b.inPrologue(() => {
    b.get(scale).splat(e).vconst(e, new Array(W).fill(0.5)).fmul(e).set(half);
  });
  const T = (l: number): Term => ({ l, neg: false });
  const loadPair = (addr: number, off: number): [number, number] => {
    const a = v.fresh();
    const c = v.fresh();
    b.get(addr).v128Load(off).set(a);
    b.get(addr).v128Load(off + 16).set(c);
    return e === 4 ? [shuffle(a, c, EVEN_F32), shuffle(a, c, ODD_F32)] : [shuffle(a, c, LO_64), shuffle(a, c, HI_64)];
  };
  const store = (addr: number, off: number, re: Term, im: Term): void => {
    const r = v.fresh();
    const i = v.fresh();
    v.push(v.mul(re, T(half)));
    b.set(r);
    v.push(v.mul(im, T(half)));
    b.set(i);
    b.get(addr).get(shuffle(r, i, e === 4 ? LO_F32 : LO_64)).v128Store(off);
    b.get(addr).get(shuffle(r, i, e === 4 ? HI_F32 : HI_64)).v128Store(off + 16);
  };
  /** Outputs k … k+W−1 of both rows: Z_k at zk+offK, Z_{n−k−W+1} … Z_{n−k} at zr+offR. */
  const group = (zk: number, offK: number, zr: number, offR: number, ya: number, offA: number): void => {
    const [zre, zim] = loadPair(zk, offK);
    const [mre, mim] = loadPair(zr, offR);
    const rev = e === 4 ? REV_F32 : REV_64;
    // C = conj Z_{n−k}, lanes reversed.
    const cr = T(shuffle(mre, mre, rev));
    const ci = neg(T(shuffle(mim, mim, rev)));
    store(ya, offA, v.add(T(zre), cr), v.add(T(zim), ci));
    // B = −(i/2)(Z − C): Re B = ½ Im(Z − C), Im B = −½ Re(Z − C).
    store(ya, offA + cb * nc, v.sub(T(zim), ci), neg(v.sub(T(zre), cr)));
  };
  const zk = b.local('i32');
  const zr = b.local('i32');
  const ya = b.local('i32');
  const g = b.local('i32');
  b.loop();
  b.get(z).i32(cb).add().set(zk);
  b.get(z).i32(cb * (n - W)).add().set(zr);
  b.get(y).i32(cb).add().set(ya);
  b.i32(Math.floor((nc - 1) / W)).set(g);
  b.loop();
  group(zk, 0, zr, 0, ya, 0);
  b.get(zk).i32(cb * W).add().set(zk);
  b.get(zr).i32(cb * W).sub().set(zr);
  b.get(ya).i32(cb * W).add().set(ya);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  // Tail: k = nc − W … nc − 1, mirrored block Z_{nc} … Z_{nc+W−1}.
  if ((nc - 1) % W !== 0) group(z, cb * (nc - W), z, cb * nc, y, cb * (nc - W));
  b.get(z).i32(cb * n).add().set(z);
  b.get(y).i32(2 * cb * nc).add().set(y);
  b.get(pairs).i32(1).sub().tee(pairs).brIf(0);
  b.end();
  return { params, body: b, export: 'split2' };
}
