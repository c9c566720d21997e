/**
 * Real-FFT post-processing on the CPU engine: from Z = FFT_h(z), z_k = x_{2k} + i·x_{2k+1} (h = n/2),
 *   y_k = ½·(Z_k + conj Z_{h−k}) − (i/2)·w^k·(Z_k − conj Z_{h−k}),  w = e^{−2πi/n},
 * for k = 1 … h−1, W outputs a step: Z_k … Z_{k+W−1} are read forwards and Z_{h−k−W+1} … Z_{h−k}
 * backwards (one lane-reversing shuffle). y_0 = Re Z_0 + Im Z_0 and y_h = Re Z_0 − Im Z_0 (purely real) are
 * written first, in the kernel: per-problem scalar fix-ups in JavaScript cost more than the short rows' FFTs.
 * The last group overlaps the one before when W ∤ h − 1 (it rewrites equal values).
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
 * y_k … y_{k+W−1} (re and im vectors, times `half` = scale/2) from Z_k at zk+offK, the mirrored block at
 * zr+offR and the table at tp+offT: shared by r2c and the fused DCT-II post step, which must round alike.
 */
function r2cGroup(
  w: VectorWriter,
  e: 4 | 8,
  h: number,
  half: number,
  zk: number,
  offK: number,
  zr: number,
  offR: number,
  tp: number,
  offT: number,
): [number, number] {
  const v = w.v;
  const [zre, zim] = w.loadComplex(zk, offK);
  const [mre, mim] = w.loadComplex(zr, offR);
  const cr = T(w.reverse(mre));
  const ci = neg(T(w.reverse(mim)));
  const er = v.add(T(zre), cr);
  const ei = v.add(T(zim), ci);
  const dr = v.sub(T(zre), cr);
  const di = v.sub(T(zim), ci);
  const wr = w.load(tp, offT);
  const wi = w.load(tp, offT + e * (h + 1));
  const pr = v.sub(v.mul(T(wr), dr), v.mul(T(wi), di));
  const pi = v.add(v.mul(T(wr), di), v.mul(T(wi), dr));
  return [w.materialise(v.mul(v.add(er, pi), T(half))), w.materialise(v.mul(v.sub(ei, pr), T(half)))];
}

/** A pointer stream beside Z's in r2cGroups: its parameter, its byte offset at k = 1, and bytes per step of k. */
export type R2cStream = [param: number, first: number, perK: number];

/**
 * One problem's groups k = 1 … h − 1 of the real post step, W outputs a step (when W ∤ h − 1 a last group at
 * k = h − W overlaps the one before and rewrites equal values): Y_k … Y_{k+W−1} by r2cGroup, from Z at `z` and
 * the table at `tw`, handed to `emit` with every stream's pointer and byte offset at that group.
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
  const steps: Step[] = [
    [zk, cb * W],
    [zr, -cb * W],
    [tp, e * W],
    ...streams.map(([, , perK], i): Step => [ps[i]!, perK * W]),
  ];
  repeat(b, Math.floor((h - 1) / W), steps, () => {
    const [re, im] = r2cGroup(w, e, h, half, zk, 0, zr, 0, tp, 0);
    emit(
      re,
      im,
      ps.map((p) => [p, 0]),
    );
  });
  if ((h - 1) % W !== 0) {
    // The mirrored block of k = h − W starts at Z_1.
    const k = h - W;
    const [re, im] = r2cGroup(w, e, h, half, z, cb * k, z, cb, tw, e * k);
    emit(
      re,
      im,
      streams.map(([p, first, perK]) => [p, first + (k - 1) * perK]),
    );
  }
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
 * (f64): y_0 and y_h, both real.
 */
export function r2cEdges(w: VectorWriter, e: 4 | 8, z: number, scale: number): void {
  const { b, v } = w;
  const zv = v.fresh();
  if (e === 4) {
    b.get(z).load64Zero(0).set(zv); // (re, im, 0, 0)
    b.get(zv)
      .get(zv)
      .shuffle(laneBytes(4, [0, 2, 0, 2])); // (re, 0, re, 0)
    b.get(zv)
      .get(zv)
      .shuffle(laneBytes(4, [1, 2, 1, 2]))
      .vconst(4, [1, 0, -1, 0])
      .fmul(4); // (im, 0, −im, 0)
    b.fadd(4).get(scale).splat(4).fmul(4);
  } else {
    b.get(z).v128Load(0).set(zv); // (re, im)
    b.get(zv)
      .get(zv)
      .shuffle(laneBytes(8, [0, 0]));
    b.get(zv)
      .get(zv)
      .shuffle(laneBytes(8, [1, 1]))
      .vconst(8, [1, -1])
      .fmul(8);
    b.fadd(8).get(scale).splat(8).fmul(8); // (re + im, re − im)·scale
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

/** i8x16.shuffle byte indices selecting float lanes of width e (lanes 0 … 16/e − 1 from the first operand, then the second). */
export function laneBytes(e: 4 | 8, lanes: readonly number[]): number[] {
  return lanes.flatMap((l) => Array.from({ length: e }, (_, i) => l * e + i));
}
