/**
 * Real transforms along a non-last axis as complex ones of half the width: a row of 2c reals read as c complex
 * values z_j = x_2j + i·x_(2j+1) makes every column of Z = FFT(z) (down the rows) the spectra of two real columns:
 *
 *   X_2j[k]   = (Z_j[k] + conj Z_j[n − k]) / 2
 *   X_2j+1[k] = (Z_j[k] − conj Z_j[n − k]) / 2i        (k = 0 … ⌊n/2⌋, n − k taken modulo n)
 *
 * and the inverse builds Z_j[k] = X_2j[k] + i·X_2j+1[k] from the half spectra (conjugates of rows n − k above n/2,
 * the imaginary parts of rows 0 and n/2 dropped, as a C2R does), whose inverse column FFT is the real rows again.
 * The column module (fft-columns.ts) calls these on one block's stage, `sp` bytes of a row:
 *
 *   post(zk, zm, out, count, zkStride, zmStride, outStride, h)  rows zk and zm of Z → row of X (2·sp bytes), times h
 *   preDirect / preConj / preEdge(x, z, count, xStride, zStride)  a row of X (2·sp bytes) → a row of Z
 *
 * each over `count` rows, the pointers stepping by their strides (negative where rows are walked backwards).
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';

/** i8x16.shuffle masks from lanes of a‖b: f32 lanes (4 bytes) or f64 lanes (8 bytes), b's from index W. */
const lanes = (e: 4 | 8, picks: readonly number[]): number[] =>
  picks.flatMap((p) => Array.from({ length: e }, (_, i) => p * e + i));

export function columnsPostFunction(e: 4 | 8, sp: number): WasmFunction {
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const b = new Body(params);
  const [zk, zm, out, count, zkS, zmS, outS, h] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [hv, hn, a, c, s, d] = [0, 1, 2, 3, 4, 5].map(() => b.local('v128'));
  // S = A + B, D = A − B; f64: X_2j = (S0, D1)·h, X_2j+1 = (S1, −D0)·h; f32 the same for both values of A.
  const [m0, m1, k0, k1] =
    e === 8 ? [lanes(8, [0, 3]), lanes(8, [1, 2]), hv, hn] : [lanes(4, [0, 5, 1, 4]), lanes(4, [2, 7, 3, 6]), hn, hn];
  b.get(h).splat(e).set(hv!);
  b.get(hv!)
    .vconst(e, e === 8 ? [1, -1] : [1, 1, 1, -1])
    .fmul(e)
    .set(hn!);
  rowLoop(b, count, () => {
    for (let j = 0; j < sp / 16; j++) {
      sumDiff(b, e, zk, zm, 16 * j, a!, c!, s!, d!);
      b.get(out)
        .get(s!)
        .get(d!)
        .shuffle(m0)
        .get(k0!)
        .fmul(e)
        .v128Store(32 * j);
      b.get(out)
        .get(s!)
        .get(d!)
        .shuffle(m1)
        .get(k1!)
        .fmul(e)
        .v128Store(32 * j + 16);
    }
    advance(b, [
      [zk, zkS],
      [zm, zmS],
      [out, outS],
    ]);
  });
  return { params, body: b, export: 'post' };
}

export type PreRow = 'direct' | 'conj' | 'edge';

export function columnsPreFunction(e: 4 | 8, sp: number, kind: PreRow): WasmFunction {
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const [x, z, count, xS, zS] = [0, 1, 2, 3, 4];
  const [v, u, p, q, sign] = [0, 1, 2, 3, 4].map(() => b.local('v128'));
  // f64: v = X_2j[k] = (er, ei), u = X_2j+1[k] = (or, oi); direct Z = (er − oi, ei + or), conj (er + oi, or − ei),
  // edge (er, or). f32 takes two values of j a vector: P = (er, ei, er', ei'), Q = (oi, or, oi', or').
  const swap = e === 8 ? lanes(8, [1, 0]) : lanes(4, [3, 2, 7, 6]);
  const front = e === 8 ? lanes(8, [0, 1]) : lanes(4, [0, 1, 4, 5]);
  const edge = e === 8 ? lanes(8, [0, 2]) : lanes(4, [0, 2, 4, 6]);
  if (kind !== 'edge') b.vconst(e, alternating(e, kind === 'direct' ? -1 : 1)).set(sign!);
  rowLoop(b, count, () => {
    for (let j = 0; j < sp / 16; j++) {
      b.get(x)
        .v128Load(32 * j)
        .set(v!);
      b.get(x)
        .v128Load(32 * j + 16)
        .set(u!);
      b.get(z);
      if (kind === 'edge') b.get(v!).get(u!).shuffle(edge);
      else {
        // P: the even column's value(s), Q: the odd column's, parts swapped.
        if (e === 8) b.get(v!).set(p!);
        else b.get(v!).get(u!).shuffle(front).set(p!);
        b.get(e === 8 ? u! : v!)
          .get(u!)
          .shuffle(swap)
          .set(q!);
        // direct: P + Q·(−1, 1); conj: P·(1, −1) + Q.
        if (kind === 'direct') b.get(q!).get(sign!).fmul(e).get(p!).fadd(e);
        else b.get(p!).get(sign!).fmul(e).get(q!).fadd(e);
      }
      b.v128Store(16 * j);
    }
    advance(b, [
      [x, xS],
      [z, zS],
    ]);
  });
  const name = { direct: 'preDirect', conj: 'preConj', edge: 'preEdge' }[kind];
  return { params, body: b, export: name };
}

/**
 * The DCT-II by Makhoul's reordering on pairs of real columns: the column module's input stage holds the rows
 * v_m = x_2m, v_(n−1−m) = x_(2m+1), and from rows k and n − k of Z = FFT(v) (as pairs, above), with θ = πk/2n,
 *
 *   y_k = 2·Re(e^(−iθ)·V_k) = cos θ·S + sin θ·(D_1, −D_0),   y_(n−k) = sin θ·S − cos θ·(D_1, −D_0)
 *
 * per pair of columns, S = Z_k + Z_(n−k) and D = Z_k − Z_(n−k) (the halves' 1/2 and the 2 cancel), times f:
 *
 *   dctPost(zk, zm, yk, ym, count, zkStride, zmStride, ykStride, ymStride, tw, f)   tw: (cos θ, sin θ) a row
 *
 * y_(n−k) is stored before y_k, so row 0 (zm = zk, ym = yk) and row n/2 keep y_k.
 */
export function dctPostFunction(e: 4 | 8, sp: number): WasmFunction {
  const params: ValType[] = [...Array<ValType>(10).fill('i32'), e === 4 ? 'f32' : 'f64'];
  const b = new Body(params);
  const [zk, zm, yk, ym, count, zkS, zmS, ykS, ymS, tw, f] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const [fv, c, s, sn, cn, a, z, sum, d] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map(() => b.local('v128'));
  b.get(f).splat(e).set(fv!);
  rowLoop(b, count, () => {
    rotation(b, e, tw, fv!, c!, s!);
    b.get(s!).vconst(e, alternating(e, 1)).fmul(e).set(sn!);
    b.get(c!).vconst(e, alternating(e, -1)).fmul(e).set(cn!);
    for (let j = 0; j < sp / 16; j++) {
      sumDiff(b, e, zk, zm, 16 * j, a!, z!, sum!, d!);
      b.get(d!).get(d!).shuffle(swapPairs(e)).set(d!);
      b.get(ym)
        .get(s!)
        .get(sum!)
        .fmul(e)
        .get(cn!)
        .get(d!)
        .fmul(e)
        .fadd(e)
        .v128Store(16 * j);
      b.get(yk)
        .get(c!)
        .get(sum!)
        .fmul(e)
        .get(sn!)
        .get(d!)
        .fmul(e)
        .fadd(e)
        .v128Store(16 * j);
    }
    advance(b, [
      [zk, zkS],
      [zm, zmS],
      [yk, ykS],
      [ym, ymS],
      [tw, { bytes: 2 * e }],
    ]);
  });
  return { params, body: b, export: 'dctPost' };
}

/**
 * The DCT-III (the DCT-II's inverse up to 2n) the same way back: from rows k and n − k of y (y_n = 0: row 0 reads a
 * zero row), V_k = e^(iθ)·(y_k − i·y_(n−k)) per column, Re = cos θ·P + sin θ·Q and Im = sin θ·P − cos θ·Q with P, Q the
 * two rows, and the pairs' rows Z_k = Re + (−Im_1, Im_0), Z_(n−k) = Re + (Im_1, −Im_0), times f; Z's inverse FFT is v.
 *
 *   dctPre(yk, ym, zk, zm, count, ykStride, ymStride, zkStride, zmStride, tw, f)
 */
export function dctPreFunction(e: 4 | 8, sp: number): WasmFunction {
  const params: ValType[] = [...Array<ValType>(10).fill('i32'), e === 4 ? 'f32' : 'f64'];
  const b = new Body(params);
  const [yk, ym, zk, zm, count, ykS, ymS, zkS, zmS, tw, f] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const [fv, c, s, p, q, re, im, plus, minus] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map(() => b.local('v128'));
  b.get(f).splat(e).set(fv!);
  b.vconst(e, alternating(e, 1)).set(plus!);
  b.vconst(e, alternating(e, -1)).set(minus!);
  rowLoop(b, count, () => {
    rotation(b, e, tw, fv!, c!, s!);
    for (let j = 0; j < sp / 16; j++) {
      b.get(yk)
        .v128Load(16 * j)
        .set(p!);
      b.get(ym)
        .v128Load(16 * j)
        .set(q!);
      b.get(c!).get(p!).fmul(e).get(s!).get(q!).fmul(e).fadd(e).set(re!);
      b.get(s!).get(p!).fmul(e).get(c!).get(q!).fmul(e).fsub(e).set(im!);
      b.get(im!).get(im!).shuffle(swapPairs(e)).set(im!);
      b.get(zm)
        .get(im!)
        .get(plus!)
        .fmul(e)
        .get(re!)
        .fadd(e)
        .v128Store(16 * j);
      b.get(zk)
        .get(im!)
        .get(minus!)
        .fmul(e)
        .get(re!)
        .fadd(e)
        .v128Store(16 * j);
    }
    advance(b, [
      [yk, ykS],
      [ym, ymS],
      [zk, zkS],
      [zm, zmS],
      [tw, { bytes: 2 * e }],
    ]);
  });
  return { params, body: b, export: 'dctPre' };
}

/** The two parts of each complex value swapped (a vector of one f64 or two f32 values). */
/** The split's two rows: a = [zk + off], c = [zm + off], then S = a + c and D = a − c into the locals s and d. */
function sumDiff(
  b: Body,
  e: 4 | 8,
  zk: number,
  zm: number,
  off: number,
  a: number,
  c: number,
  s: number,
  d: number,
): void {
  b.get(zk).v128Load(off).set(a);
  b.get(zm).v128Load(off).set(c);
  b.get(a).get(c).fadd(e).set(s);
  b.get(a).get(c).fsub(e).set(d);
}

const swapPairs = (e: 4 | 8): number[] => (e === 8 ? lanes(8, [1, 0]) : lanes(4, [1, 0, 3, 2]));

/** The next row: each pointer by its stride, a local or `{ bytes }`, a constant (the rotation table's pair). */
function advance(b: Body, pointers: readonly (readonly [number, number | { bytes: number }])[]): void {
  for (const [p, stride] of pointers) {
    b.get(p);
    if (typeof stride === 'number') b.get(stride);
    else b.i32(stride.bytes);
    b.add().set(p);
  }
}

/** This row's cos θ and sin θ from the table at tw, splat and times fv. */
function rotation(b: Body, e: 4 | 8, tw: number, fv: number, c: number, s: number): void {
  b.get(tw).loadSplat(e, 0).get(fv).fmul(e).set(c);
  b.get(tw).loadSplat(e, e).get(fv).fmul(e).set(s);
}

/** (first, −first) in each complex value's lanes. */
const alternating = (e: 4 | 8, first: number): number[] => (e === 8 ? [first, -first] : [first, -first, first, -first]);

/** `body` `count` times (none for 0). */
function rowLoop(b: Body, count: number, body: () => void): void {
  b.block();
  b.get(count).op(0x45 /* i32.eqz */).brIf(0);
  b.loop();
  body();
  b.get(count).i32(1).sub().tee(count).brIf(0);
  b.end();
  b.end();
}
