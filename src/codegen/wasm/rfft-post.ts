/**
 * Real-FFT post-processing on the CPU engine: from Z = FFT_h(z), z_k = x_{2k} + i·x_{2k+1} (h = n/2),
 *   y_k = ½·(Z_k + conj Z_{h−k}) − (i/2)·w^k·(Z_k − conj Z_{h−k}),  w = e^{−2πi/n},
 * for k = 1 … h−1: a block Z_k … Z_{k+W−1} read forwards and its mirror Z_{h−k−W+1} … Z_{h−k} backwards (one
 * lane-reversing shuffle) give y for both blocks from one product (r2cPair); the last pair of blocks overlaps where
 * 2W ∤ h − 1. y_0 = Re Z_0 + Im Z_0 and y_h = Re Z_0 − Im Z_0 (purely real) are written in the kernel too:
 * per-problem scalar fix-ups in JavaScript cost more than the short rows' FFTs. r2cs does the same from Z in split
 * layout (below).
 *
 *   r2c(z, y, tw, count, scale): `count` problems, Z packed h apart, y packed h + 1 apart (interleaved
 *   complex), tw = [Re w^0 … Re w^h, Im w^0 … Im w^h]; the result is multiplied by `scale`.
 */
import type { ValType, WasmFunction } from './assembler.js';
import { neg } from './vector-complex.js';
import { unitRoot } from '../../core/unit-root.js';
import { eachProblem, pointer, repeat, term as T, vectorWriter, type Step, type VectorWriter } from './vector-io.js';

/** Split table of w^k = e^{−2πik/n}, k = 0 … h. */
export function r2cTwiddles(n: number): Float64Array {
  const h = n / 2;
  const out = new Float64Array(2 * (h + 1));
  for (let k = 0; k <= h; k++) {
    const [c, s] = unitRoot(k, n);
    out[k] = c;
    out[h + 1 + k] = -s;
  }
  return out;
}

/**
 * A block of W outputs and its mirror from one product: Z_k … Z_{k+W−1} (re, im vectors) and the mirrored
 * values, lane l = Z_{h−k−l}, with E = Z_k + conj Z_{h−k} and P = w^k·(Z_k − conj Z_{h−k}) give
 * y_k = ½E − (i/2)P and y_{h−k} = conj(½E + (i/2)P) (w^{h−k} = −conj w^k), times `half` = scale/2. Returns
 * [y_k re, y_k im, y_{h−k} re, y_{h−k} im], the mirror's lanes in the input's order (lane l = y_{h−k−l}).
 */
function r2cPair(
  w: VectorWriter,
  e: 4 | 8,
  h: number,
  half: number,
  [zre, zim]: [number, number],
  [mre, mim]: [number, number],
  tp: number,
): [number, number, number, number] {
  const v = w.v;
  const er = v.add(T(zre), T(mre));
  const ei = v.sub(T(zim), T(mim));
  const dr = v.sub(T(zre), T(mre));
  const di = v.add(T(zim), T(mim));
  const wr = w.load(tp, 0);
  const wi = w.load(tp, e * (h + 1));
  const pr = v.mulAdd2(T(wr), dr, T(wi), di, false);
  const pi = v.mulAdd2(T(wr), di, T(wi), dr, true);
  return [
    w.materialise(v.mul(v.add(er, pi), T(half))),
    w.materialise(v.mul(v.sub(ei, pr), T(half))),
    w.materialise(v.mul(v.sub(er, pi), T(half))),
    w.materialise(v.mul(v.add(ei, pr), neg(T(half)))),
  ];
}

/** A pointer stream beside Z's in r2cGroups: its parameter, its byte offset at k = 1, and bytes per step of k. */
export type R2cStream = [param: number, first: number, perK: number];

/**
 * One problem's outputs k = 1 … h − 1 of the real post step, a block k … k+W−1 and its mirror h−k−W+1 … h−k a
 * group (r2cPair; ⌈(h−1)/2W⌉ groups, the last one's blocks overlapping where 2W ∤ h − 1, rewriting values computed
 * twice). `emit` gets each block as re, im vectors in ascending k, with every stream's pointer and byte offset
 * at the block's first k. Needs h ≥ W + 1.
 */
export function r2cGroups(
  w: VectorWriter,
  e: 4 | 8,
  h: number,
  half: number,
  z: number,
  tw: number,
  streams: readonly R2cStream[],
  emit: (re: number, im: number, at: [number, number][]) => void,
): void {
  const { b } = w;
  const W = 16 / e;
  const cb = 2 * e;
  const zk = pointer(b, z, cb);
  const zr = pointer(b, z, cb * (h - W));
  const tp = pointer(b, tw, e);
  const ps = streams.map(([p, first]) => pointer(b, p, first));
  // The mirror block of k = 1 starts at h − W.
  const qs = streams.map(([p, first, perK]) => pointer(b, p, first + (h - W - 1) * perK));
  const steps: Step[] = [
    [zk, cb * W],
    [zr, -cb * W],
    [tp, e * W],
    ...streams.map(([, , perK], i): Step => [ps[i]!, perK * W]),
    ...streams.map(([, , perK], i): Step => [qs[i]!, -perK * W]),
  ];
  repeat(b, Math.ceil((h - 1) / (2 * W)), steps, () => {
    const [mre, mim] = w.loadComplex(zr, 0);
    const z0 = w.loadComplex(zk, 0);
    const [re, im, rre, rim] = r2cPair(w, e, h, half, z0, [w.reverse(mre), w.reverse(mim)], tp);
    emit(
      re,
      im,
      ps.map((p) => [p, 0]),
    );
    emit(
      w.reverse(rre),
      w.reverse(rim),
      qs.map((q) => [q, 0]),
    );
  });
}

/** A local holding scale/2 in every lane, set in the prologue. */
export function halfScale(w: VectorWriter, e: 4 | 8, scale: number): number {
  const half = w.v.fresh();
  w.b.inPrologue(() => {
    w.b
      .get(scale)
      .splat(e)
      .vconst(e, new Array(16 / e).fill(0.5))
      .fmul(e)
      .set(half);
  });
  return half;
}

/**
 * Pushes, from Z_0 = (re, im) at `z`, the vector (re + im, 0, re − im, 0)·scale (f32) or (re + im, re − im)·scale
 * (f64): y_0 and y_h, both real. `split`: Z in split layout (Re Z_0 lane 0 of the block at z, Im Z_0 lane 0 of the
 * next 16 bytes).
 */
export function r2cEdges(w: VectorWriter, e: 4 | 8, z: number, scale: number, split = false): void {
  const { b, v } = w;
  // Operands and lanes of p = (re, 0, re, 0) and q = (im, 0, im, 0) (f32), or (re, re) and (im, im) (f64).
  let p: [number, number, number[]];
  let q: [number, number, number[]];
  if (!split) {
    const zv = v.fresh();
    // f32: (re, im, 0, 0), its zeros lanes 2 and 3; f64: (re, im).
    b.get(z);
    (e === 4 ? b.load64Zero(0) : b.v128Load(0)).set(zv);
    p = [zv, zv, e === 4 ? [0, 2, 0, 2] : [0, 0]];
    q = [zv, zv, e === 4 ? [1, 2, 1, 2] : [1, 1]];
  } else {
    const re = w.load(z, 0);
    const im = w.load(z, 16);
    if (e === 4) {
      const zero = v.fresh();
      b.vconst(4, [0, 0, 0, 0]).set(zero);
      [p, q] = [
        [re, zero, [0, 4, 0, 4]],
        [im, zero, [0, 4, 0, 4]],
      ];
    } else
      [p, q] = [
        [re, re, [0, 0]],
        [im, im, [0, 0]],
      ];
  }
  b.get(p[0]).get(p[1]).shuffle(laneBytes(e, p[2]));
  b.get(q[0])
    .get(q[1])
    .shuffle(laneBytes(e, q[2]))
    .vconst(e, e === 4 ? [1, 0, -1, 0] : [1, -1])
    .fmul(e);
  b.fadd(e).get(scale).splat(e).fmul(e);
}

/** Stores y_0 and y_h (with +0 imaginary parts) from the local `s` that r2cEdges filled, y at the local `y`. */
function storeEdges(w: VectorWriter, e: 4 | 8, y: number, h: number, s: number): void {
  const { b } = w;
  const cb = 2 * e;
  if (e === 4) {
    b.get(y).get(s).store64Lane(0, 0);
    b.get(y)
      .get(s)
      .store64Lane(cb * h, 1);
  } else {
    b.get(y)
      .get(s)
      .vconst(8, [0, 0])
      .shuffle(laneBytes(8, [0, 2]))
      .v128Store(0);
    b.get(y)
      .get(s)
      .vconst(8, [0, 0])
      .shuffle(laneBytes(8, [1, 2]))
      .v128Store(cb * h);
  }
}

export function r2cPostFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, y, tw, count, scale] = [0, 1, 2, 3, 4];
  const half = halfScale(w, e, scale);
  // y_0 and y_h from Z_0 = (re, im): (re + im, 0) and (re − im, 0), times scale; +0 imaginary parts.
  const s = v.fresh();
  const edges = (): void => {
    r2cEdges(w, e, z, scale);
    b.set(s);
    storeEdges(w, e, y, h, s);
  };
  eachProblem(
    b,
    count,
    [
      [z, cb * h],
      [y, cb * (h + 1)],
    ],
    () => {
      edges();
      r2cGroups(w, e, h, half, z, tw, [[y, cb, cb]], (re, im, [[yp, off]]) => w.storeComplex(yp!, off!, re, im));
    },
  );
  return { params, body: b, export: 'r2c' };
}

/**
 * The real post step from Z in split layout (32-byte blocks of W real lanes then W imaginary lanes, k in order;
 * the lane-split module's `fwds` writes it, which needs W | h/W, so h/W is even): each group takes an aligned
 * block k = jW … jW+W−1 and its mirror Z_{h−k}, lane 0 of block (h/W − j) mod h/W and lanes W−1 … 1 of block
 * h/W − j − 1 (one two-operand shuffle per part), and writes both y_k and y_{h−k}: with E = Z_k + conj Z_{h−k},
 * P = w^k·(Z_k − conj Z_{h−k}), y_k = ½E − (i/2)P and y_{h−k} = conj(½E + (i/2)P) (w^{h−k} = −conj w^k), so the
 * mirror costs no second product. y_{h/2} = conj Z_{h/2} is left to a fix-up, and y_0, y_h are written last by the
 * edge step, so an infinite Z_0 gives y_0 = ±∞ as r2c does.
 *
 *   r2cs(z, y, tw, count, scale): as r2c, Z packed h apart in split layout.
 */
export function r2cSplitPostFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const blocks = h / W;
  if (!Number.isInteger(blocks) || blocks % 2 !== 0) throw new Error(`r2cs: h = ${h} must be an even multiple of ${W}`);
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, y, tw, count, scale] = [0, 1, 2, 3, 4];
  const half = halfScale(w, e, scale);
  // Result lane 0 from the second operand's lane 0, lanes 1 … W−1 from the first operand's lanes W−1 … 1.
  const mirrorMask = laneBytes(e, [W, ...Array.from({ length: W - 1 }, (_, l) => W - 1 - l)]);
  // Interleaving (re, im) with the lanes reversed: the mirrored outputs stored in ascending k.
  const revLo = laneBytes(e, e === 4 ? [3, 7, 2, 6] : [1, 3]);
  const revHi = laneBytes(e, e === 4 ? [1, 5, 0, 4] : [0, 2]);
  const group = (first: boolean, fp: number, ap: number, yk: number, ym: number, tp: number): void => {
    const fre = w.load(fp, 0);
    const fim = w.load(fp, 16);
    const are = w.load(ap, 0);
    const aim = w.load(ap, 16);
    // The first group's wrapped block is block 0, already loaded.
    const [bre, bim] = first ? [fre, fim] : [w.load(ap, 32), w.load(ap, 48)];
    const mre = w.shuffle(are, bre, mirrorMask);
    const mim = w.shuffle(aim, bim, mirrorMask);
    const [re, im, rre, rim] = r2cPair(w, e, h, half, [fre, fim], [mre, mim], tp);
    w.storeComplex(yk, 0, re, im);
    b.get(ym)
      .get(w.shuffle(rre, rim, revLo))
      .v128Store(0);
    b.get(ym)
      .get(w.shuffle(rre, rim, revHi))
      .v128Store(16);
  };
  eachProblem(
    b,
    count,
    [
      [z, cb * h],
      [y, cb * (h + 1)],
    ],
    () => {
      const fp = pointer(b, z);
      const ap = pointer(b, z, 32 * (blocks - 1));
      const yk = pointer(b, y);
      const ym = pointer(b, y, cb * (h - W + 1));
      const tp = pointer(b, tw);
      const steps: Step[] = [
        [fp, 32],
        [ap, -32],
        [yk, cb * W],
        [ym, -cb * W],
        [tp, e * W],
      ];
      group(true, fp, ap, yk, ym, tp);
      for (const [p, d] of steps) b.get(p).i32(d).add().set(p);
      if (blocks > 2) repeat(b, blocks / 2 - 1, steps, () => group(false, fp, ap, yk, ym, tp));
      // y_{h/2} = conj Z_{h/2}·scale: lane 0 of block h/(2W).
      const c = v.fresh();
      b.get(z)
        .v128Load(16 * blocks)
        .get(z)
        .v128Load(16 * blocks + 16)
        .shuffle(laneBytes(e, e === 4 ? [0, 4, 0, 4] : [0, 2]))
        .vconst(e, e === 4 ? [1, -1, 1, -1] : [1, -1])
        .fmul(e)
        .get(scale)
        .splat(e)
        .fmul(e)
        .set(c);
      if (e === 4)
        b.get(y)
          .get(c)
          .store64Lane((cb * h) / 2, 0);
      else
        b.get(y)
          .get(c)
          .v128Store((cb * h) / 2);
      const s = v.fresh();
      r2cEdges(w, e, z, scale, true);
      b.set(s);
      storeEdges(w, e, y, h, s);
    },
  );
  return { params, body: b, export: 'r2cs' };
}

/** i8x16.shuffle byte indices selecting float lanes of width e (lanes 0 … 16/e − 1 from the first operand, then the second). */
export function laneBytes(e: 4 | 8, lanes: readonly number[]): number[] {
  return lanes.flatMap((l) => Array.from({ length: e }, (_, i) => l * e + i));
}
