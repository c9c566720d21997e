/**
 * WebAssembly SIMD kernel of the batched real float64 Thomas solve: two systems a vector (f64x2 lanes),
 * a few vectors at a time through all rows, so that their recurrences overlap (one Thomas sweep alone
 * is latency-bound) while their state stays in registers. The backward-error check is
 * fused: the forward sweep takes the pivot test, the row norms and the dominance test from the rows it
 * reads; the back substitution computes the residual of row i+1 as soon as x_i is known.
 *
 * Memory: seven regions of `cap` float64 each, at fixed offsets (compile-time memarg offsets):
 *   A, B, C, D (coefficients and right-hand side, in the caller's layout), X (solution, same layout),
 *   CP (modified upper diagonal) and XI (forward-sweep values, then x), both block-local [n][vectors];
 * then ACC: six vectors a vector of systems (see ACC_*).
 * Layouts: 'interleaved' (element (system s, row i) at s + i·rowStride, in float64) loads a vector with
 * one v128.load; 'strided' (at s·n + i) gathers its two lanes.
 * Operations and their order are those of the JavaScript kernel, so results agree bit for bit.
 * `round32`: the solution is stored rounded to float32 (the recurrence keeps float64), and the residuals and
 * max |x| are those of the rounded solution, which is what a float32 caller gets back.
 * `check` false: no residuals (ACC_MAX_R and ACC_MAX_D are left as they were): the back substitution reads only its
 * scratch, not A … D again; the forward sweep's tests and max |x| stay (status bits other than INACCURATE).
 */
import { assembleModule, Body } from './assembler.js';

/** Accumulator vectors of a vector of systems (16 bytes each, 96 a vector). */
export const ACC_NORM_A = 0,
  ACC_PIVOT_OK = 1,
  ACC_NOT_DOMINANT = 2,
  ACC_MAX_D = 3,
  ACC_MAX_R = 4,
  ACC_MAX_X = 5;
export const ACC_VECTORS = 6;
/**
 * After a call, each vector's slot ACC_ETA holds its two systems' backward errors η = max|r| / (‖A‖·max|x| + max|d|)
 * (0 where max|r| = 0 and the denominator is finite; NaN where η is not finite; left as it was without `check`) and
 * slot ACC_STATUS their status bits (TRIDIAGONAL_STATUS: ZERO_PIVOT, NON_FINITE, NOT_DIAGONALLY_DOMINANT) in the low
 * 32 bits of each 64-bit lane, so that the caller only copies them.
 */
export const ACC_ETA = ACC_NORM_A,
  ACC_STATUS = ACC_PIVOT_OK;

export interface ThomasKernelLayout {
  /** float64 elements a region holds. */
  cap: number;
  /** Byte offsets of the regions. */
  a: number;
  b: number;
  c: number;
  d: number;
  x: number;
  cp: number;
  xi: number;
  acc: number;
  /** Bytes of memory the layout needs, for `vectors` vectors of systems a block at most. */
  bytes(vectors: number): number;
}

export function thomasKernelLayout(cap: number): ThomasKernelLayout {
  const r = cap * 8;
  return {
    cap,
    a: 0,
    b: r,
    c: 2 * r,
    d: 3 * r,
    x: 4 * r,
    cp: 5 * r,
    xi: 6 * r,
    acc: 7 * r,
    bytes: (vectors: number) => 7 * r + vectors * ACC_VECTORS * 16,
  };
}

/** Smallest pivot magnitude treated as non-zero (the smallest normal float64), as the JavaScript kernel. */
const TINY = 2.2250738585072014e-308;

/** Where a kernel keeps each vector's running checks (the ACC_* slots): in memory at q, or in locals. */
interface Accumulators {
  /**
   * slot = slot ∘ the vector `value` pushes (and, or, or the max of magnitudes, which keeps a NaN); slot = it when
   * `init`. 'max' values are ≥ 0 or NaN with the sign bit clear.
   */
  fold(slot: number, op: 'and' | 'or' | 'max', value: () => void, init: boolean): void;
}

/**
 * Stack: nothing → the larger of locals v and acc, both ≥ 0 or NaN with the sign bit clear. Their bits then order
 * as signed integers (+0 < finite < ∞ < NaN), so an integer compare and a select give f64x2.max's value and keep a
 * NaN, in about half the instructions of f64x2.max (whose NaN rules V8 emulates on x86 in eight; the kernel
 * folds four maxima a row and vector).
 */
function maxOfMagnitudes(f: Body, v: number, acc: number): void {
  f.get(v).get(acc).get(v).get(acc).i64x2GtS().v128Bitselect();
}

function foldOp(f: Body, op: 'and' | 'or'): void {
  if (op === 'and') f.v128And();
  else f.v128Or();
}

/** The slots of the vector at byte offset q of the ACC region (at `accP`); `tv`, `ta`: scratch v128 locals. */
function memoryAccumulators(f: Body, q: number, accP: number, [tv, ta]: readonly [number, number]): Accumulators {
  const at = (slot: number): number => accP + slot * 16;
  return {
    fold(slot, op, value, init) {
      f.get(q);
      if (init) value();
      else if (op === 'max') {
        value();
        f.set(tv);
        f.get(q).v128Load(at(slot)).set(ta);
        maxOfMagnitudes(f, tv, ta);
      } else {
        value();
        f.get(q).v128Load(at(slot));
        foldOp(f, op);
      }
      f.v128Store(at(slot));
    },
  };
}

/** The slots in locals, one a slot; `tv`: a scratch v128 local. */
function localAccumulators(f: Body, slots: readonly number[], tv: number): Accumulators {
  return {
    fold(slot, op, value, init) {
      const A = slots[slot]!;
      if (init) value();
      else if (op === 'max') {
        value();
        f.set(tv);
        maxOfMagnitudes(f, tv, A);
      } else {
        value();
        f.get(A);
        foldOp(f, op);
      }
      f.set(A);
    },
  };
}

/**
 * The forward sweep's checks of one row of a vector: the pivot test (|piv| ≥ TINY and < ∞; NaN fails both), the
 * row norm (|a| + |c|) + |b| and the dominance test |b| < |a| + |c|, with a or c absent at the ends. `ap`, `off`,
 * `ab`: scratch locals.
 */
function emitRowChecks(
  f: Body,
  acc: Accumulators,
  k: { VTINY: number; INF: number },
  [ap, off, ab]: readonly [number, number, number],
  piv: number,
  a: number | null,
  b: number,
  c: number | null,
  init: boolean,
): void {
  f.get(piv).f64x2Abs().set(ap);
  acc.fold(ACC_PIVOT_OK, 'and', () => f.get(ap).get(k.VTINY).f64x2Ge().get(ap).get(k.INF).f64x2Lt().v128And(), init);
  if (a !== null && c !== null) f.get(a).f64x2Abs().get(c).f64x2Abs().fadd(8).set(off);
  else
    f.get((a ?? c)!)
      .f64x2Abs()
      .set(off);
  f.get(b).f64x2Abs().set(ab);
  // The sum of magnitudes is ≥ 0 or NaN; abs clears the sign a NaN may carry (maxOfMagnitudes compares bits).
  acc.fold(ACC_NORM_A, 'max', () => f.get(off).get(ab).fadd(8).f64x2Abs(), init);
  acc.fold(ACC_NOT_DOMINANT, 'or', () => f.get(ab).get(off).f64x2Lt(), init);
}

/** The back substitution's maxima of one row without the residual check: |x_i|. */
function emitMaxX(f: Body, acc: Accumulators, xi: number, init: boolean): void {
  acc.fold(ACC_MAX_X, 'max', () => f.get(xi).f64x2Abs(), init);
}

/** The back substitution's maxima of one row: |residual| (in local r), |x_i| and |d_i|. */
function emitPostMaxima(f: Body, acc: Accumulators, r: number, xi: number, d: number, init: boolean): void {
  acc.fold(ACC_MAX_R, 'max', () => f.get(r), init);
  acc.fold(ACC_MAX_X, 'max', () => f.get(xi).f64x2Abs(), init);
  acc.fold(ACC_MAX_D, 'max', () => f.get(d).f64x2Abs(), init);
}

/** Status bits as 64-bit lanes, written as the float64 values whose bits they are (multiples of the least subnormal). */
const BITS = (b: number): [number, number] => [b * Number.MIN_VALUE, b * Number.MIN_VALUE];

/**
 * A vector's results from its accumulators: the status bits (ZERO_PIVOT 1 where the pivot test failed or ‖A‖ is not
 * finite, NON_FINITE 2 where max|x| is not, NOT_DIAGONALLY_DOMINANT 4) and, with `check`, η. `read(slot)` pushes an
 * accumulator; `write(slot, local)` stores a result. Every accumulator is read before anything is written.
 */
function emitResults(
  f: Body,
  read: (slot: number) => void,
  write: (slot: number, local: number) => void,
  INF: number,
  check: boolean,
): void {
  const v = () => f.local('v128');
  const [st, den, r, e] = [v(), v(), v(), v()];
  f.vconst(8, BITS(1));
  read(ACC_PIVOT_OK);
  f.v128AndNot();
  read(ACC_NOT_DOMINANT);
  f.vconst(8, BITS(4)).v128And().v128Or();
  f.vconst(8, BITS(2));
  read(ACC_MAX_X);
  f.get(INF).f64x2Lt().v128AndNot().v128Or();
  f.vconst(8, BITS(1));
  read(ACC_NORM_A);
  f.get(INF).f64x2Lt().v128AndNot().v128Or().set(st);
  if (check) {
    // As eta1 in src/backends/cpu/tridiagonal-batch.ts: the same operations, so the same values.
    read(ACC_NORM_A);
    read(ACC_MAX_X);
    f.fmul(8);
    read(ACC_MAX_D);
    f.fadd(8).set(den);
    read(ACC_MAX_R);
    f.set(r);
    // 0 where max|r| = 0 and the denominator is finite (all terms are ≥ 0 or NaN: finite is below ∞).
    f.vconst(8, [0, 0]).get(r).get(den).f64x2Div();
    f.get(r).vconst(8, [0, 0]).f64x2Eq().get(den).get(INF).f64x2Lt().v128And();
    f.v128Bitselect().set(e);
    f.get(e).vconst(8, [NaN, NaN]).get(e).get(INF).f64x2Lt().v128Bitselect().set(e);
    write(ACC_ETA, e);
  }
  write(ACC_STATUS, st);
}

/** Locals holding 1, the smallest normal float64 and ∞ in both lanes (the reciprocal and the pivot test). */
function pivotConstants(f: Body): { ONE: number; VTINY: number; INF: number } {
  const [ONE, VTINY, INF] = [f.local('v128'), f.local('v128'), f.local('v128')];
  f.inPrologue(() => {
    f.vconst(8, [1, 1]).set(ONE).vconst(8, [TINY, TINY]).set(VTINY).vconst(8, [Infinity, Infinity]).set(INF);
  });
  return { ONE, VTINY, INF };
}

/** The forward sweep's loop: `row` once for each i from the current value of local i while i < n − 1. */
function forwardRows(f: Body, i: number, N: number, row: () => void): void {
  f.block().loop();
  f.get(i).get(N).i32(1).sub().op(0x4e /* i32.ge_s */).brIf(1);
  row();
  f.get(i).i32(1).add().set(i);
  f.br(0).end().end();
}

/** The back substitution's loop after step n − 2: `step` for i = n − 3 … 0. */
function backSteps(f: Body, i: number, N: number, step: () => void): void {
  f.get(N).i32(2).sub().set(i);
  f.block().loop();
  f.get(i).i32(0).op(0x4c /* i32.le_s */).brIf(1);
  step();
  f.get(i).i32(1).sub().set(i);
  f.br(0).end().end();
}

/** Vectors of systems the strided kernel carries through all rows together. */
export const THOMAS_GROUP = 4;

/**
 * Module exporting `solve(P, n, rs, ps, ls, base, sbase, qbase)`: P vectors (2P systems) of n ≥ 2 rows; rs = bytes
 * between rows, ps = bytes between vectors, ls = bytes from lane 0 to lane 1 (strided only), base = byte
 * offset of the block's first element within A … X, sbase = byte offset of this call's scratch within CP and XI,
 * qbase = byte offset of its first vector's accumulators within ACC. Writes X, and ACC for the call's vectors.
 * Threads sharing one memory solve disjoint vectors of a block with disjoint sbase ranges
 * (src/backends/cpu/tridiagonal-kernel.ts thomasParts).
 */
export function generateThomasKernel(
  layout: 'interleaved' | 'strided',
  cap: number,
  round32 = false,
  shared = false,
  check = true,
): Uint8Array {
  const f =
    layout === 'interleaved' ? rowsOuterKernel(cap, round32, check) : groupedKernel(cap, round32, THOMAS_GROUP, check);
  // A shared memory import must declare a maximum: any size up to 4 GiB.
  return assembleModule([{ params: f.params.slice(), body: f, export: 'solve' }], {
    initialPages: 1,
    maxPages: shared ? 65536 : 1,
    shared,
  });
}

/**
 * Strided: the vectors go `group` at a time through every row (then one at a time for the rest). Each
 * lane reads its system's rows in order, the group's recurrences overlap each other's division latency,
 * and its running maxima, previous row and scratch ([n][group] vectors, reused by every group) stay in
 * registers or L1 (rows outermost, as interleaved, jumps a system's length between vectors: 1.1-1.75x
 * slower).
 */
function groupedKernel(cap: number, round32: boolean, group: number, check: boolean): Body {
  const L = thomasKernelLayout(cap);
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [P, N, RS, PS, LS, BASE, SB, QB] = [0, 1, 2, 3, 4, 5, 6, 7];
  const u0 = f.local('i32'),
    row = f.local('i32'),
    s = f.local('i32'),
    i = f.local('i32'),
    q = f.local('i32'),
    ad = f.local('i32'),
    ad1 = f.local('i32');
  /** Byte offset of vector v of a group from its first (v·ps). */
  const offV = Array.from({ length: group }, () => f.local('i32'));
  const v = () => f.local('v128');
  const { ONE, VTINY, INF } = pivotConstants(f);
  f.inPrologue(() => {
    for (let k = 0; k < group; k++) {
      f.get(PS).i32(k).mul().set(offV[k]);
    }
  });
  const [ta, tb, tc, td, tp, ti, tx, t1, t2, t3] = Array.from({ length: 10 }, v);

  /** ad and ad1 = the user addresses of vector k's lanes at `row` (+ rs when `next`). */
  const address = (k: number, next = false): void => {
    f.get(row).get(offV[k]).add();
    if (next) f.get(RS).add();
    f.set(ad);
    f.get(ad).get(LS).add().set(ad1);
  };
  /** Pushes the vector of region `off` at ad (lane 0) and ad1 (lane 1). */
  const load = (off: number): void => {
    f.get(ad1).get(ad).load64Zero(off).load64Lane(off, 1);
  };
  const loadTo = (off: number, t: number): number => {
    load(off);
    f.set(t);
    return t;
  };
  /** Stores local `t` as the solution at ad. */
  const storeX = (t: number): void => {
    f.get(ad).get(t).store64Lane(L.x, 0);
    f.get(ad1).get(t).store64Lane(L.x, 1);
  };
  /** The solution as the caller gets it: `t` itself, or `into` holding it rounded to float32 (round32). */
  const delivered = (t: number, into: number): number => {
    if (!round32) return t;
    f.get(t).f64x2RoundToF32().set(into);
    return into;
  };

  const emitGroup = (G: number): void => {
    const cpP = Array.from({ length: G }, v),
      xiP = Array.from({ length: G }, v);
    const acc = Array.from({ length: G }, () => Array.from({ length: ACC_VECTORS }, v));
    const rowBytes = G * 16;
    const accs = acc.map((A) => localAccumulators(f, A, t3));
    const checks = (k: number, piv: number, a: number | null, b: number, c: number | null, init: boolean): void =>
      emitRowChecks(f, accs[k]!, { VTINY, INF }, [tp, t1, t2], piv, a, b, c, init);

    // Forward sweep, row 0.
    f.get(u0).set(row).get(SB).set(s);
    for (let k = 0; k < G; k++) {
      address(k);
      const b = loadTo(L.b, tb),
        c = loadTo(L.c, tc),
        d = loadTo(L.d, td);
      f.get(ONE).get(b).f64x2Div().set(ti);
      f.get(s)
        .get(c)
        .get(ti)
        .fmul(8)
        .tee(cpP[k])
        .v128Store(L.cp + k * 16);
      f.get(s)
        .get(d)
        .get(ti)
        .fmul(8)
        .tee(xiP[k])
        .v128Store(L.xi + k * 16);
      checks(k, b, null, b, c, true);
    }
    /** Forward sweep, one row; `last`: no upper diagonal (and nothing to keep: x_{n−1} = its xi). */
    const forwardRow = (last: boolean): void => {
      f.get(row).get(RS).add().set(row).get(s).i32(rowBytes).add().set(s);
      for (let k = 0; k < G; k++) {
        address(k);
        const a = loadTo(L.a, ta),
          b = loadTo(L.b, tb),
          c = last ? null : loadTo(L.c, tc),
          d = loadTo(L.d, td);
        f.get(b).get(a).get(cpP[k]).fmul(8).fsub(8).set(tx);
        f.get(ONE).get(tx).f64x2Div().set(ti);
        if (c !== null)
          f.get(s)
            .get(c)
            .get(ti)
            .fmul(8)
            .tee(cpP[k])
            .v128Store(L.cp + k * 16);
        f.get(d).get(a).get(xiP[k]).fmul(8).fsub(8).get(ti).fmul(8);
        if (last) f.set(xiP[k]);
        else
          f.tee(xiP[k])
            .set(t1)
            .get(s)
            .get(t1)
            .v128Store(L.xi + k * 16);
        checks(k, tx, a, b, c, false);
      }
    };
    // Rows 1 … n−2, then n−1.
    f.i32(1).set(i);
    forwardRows(f, i, N, () => forwardRow(false));
    forwardRow(true);

    // Back substitution with the residuals: x1 = x_{i+1}, x2 = x_{i+2} (raw float64; cpP and xiP hold
    // them). Row r's residual ((a x_{r−1} + b x_r) + c x_{r+1}) − d, terms absent at the ends (the
    // JavaScript kernel adds exact zeros there, which changes no magnitude), once x_{r−1} is known.
    const x1 = xiP,
      x2 = cpP;
    const post = (k: number, xm: number | null, xi: number, xp: number | null, init: boolean): void => {
      if (!check) return emitMaxX(f, accs[k]!, xi, init);
      const b = loadTo(L.b, tb),
        d = loadTo(L.d, td);
      if (xm !== null) {
        load(L.a);
        f.get(xm).fmul(8).get(b).get(xi).fmul(8).fadd(8);
      } else f.get(b).get(xi).fmul(8);
      if (xp !== null) {
        load(L.c);
        f.get(xp).fmul(8).fadd(8);
      }
      f.get(d).fsub(8).f64x2Abs().set(tp);
      emitPostMaxima(f, accs[k]!, tp, xi, d, init);
    };
    /** Step i: x_i from x_{i+1}, stored; the post of row i+1 (`first`: i = n−2, row n−1 has no c). */
    const backRow = (first: boolean): void => {
      f.get(row).get(RS).sub().set(row).get(s).i32(rowBytes).sub().set(s);
      for (let k = 0; k < G; k++) {
        f.get(s)
          .v128Load(L.xi + k * 16)
          .get(s)
          .v128Load(L.cp + k * 16)
          .get(x1[k])
          .fmul(8)
          .fsub(8)
          .set(tx);
        address(k);
        const xo = delivered(tx, ta);
        storeX(xo);
        address(k, true);
        const x1o = delivered(x1[k], tc);
        if (first) {
          // x_{n−1} goes to X here too (its own row has no step).
          storeX(x1o);
          post(k, xo, x1o, null, true);
        } else post(k, xo, x1o, delivered(x2[k], ti), false);
        f.get(x1[k]).set(x2[k]).get(tx).set(x1[k]);
      }
    };
    backRow(true);
    backSteps(f, i, N, () => backRow(false));
    // Post of row 0 (no lower diagonal), then the group's maxima to ACC.
    for (let k = 0; k < G; k++) {
      address(k);
      post(k, null, delivered(x1[k], ta), delivered(x2[k], tc), false);
      emitResults(
        f,
        (slot) => f.get(acc[k]![slot]!),
        (slot, t) =>
          f
            .get(q)
            .get(t)
            .v128Store(L.acc + (k * ACC_VECTORS + slot) * 16),
        INF,
        check,
      );
    }
  };

  /** Groups of `G` vectors while P ≥ G: u0 by G·ps, q by G accumulator sets, P by G. */
  const groups = (G: number): void => {
    f.block().loop();
    f.get(P).i32(G).op(0x48 /* i32.lt_s */).brIf(1);
    emitGroup(G);
    f.get(u0).get(PS).i32(G).mul().add().set(u0);
    f.get(q)
      .i32(G * ACC_VECTORS * 16)
      .add()
      .set(q);
    f.get(P).i32(G).sub().set(P);
    f.br(0).end().end();
  };
  f.get(BASE).set(u0).get(QB).set(q);
  groups(group);
  if (group > 1) groups(1);
  return f;
}

/**
 * Interleaved: rows outermost, the block's vectors innermost, so that every region streams sequentially
 * (a few vectors through all rows, as strided, measured 1.06-1.33x slower here: seven streams a row apart).
 */
function rowsOuterKernel(cap: number, round32: boolean, check: boolean): Body {
  const L = thomasKernelLayout(cap);
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [P, N, RS, PS, , BASE, SB, QB] = [0, 1, 2, 3, 4, 5, 6, 7];
  const u = f.local('i32'),
    s = f.local('i32'),
    sp = f.local('i32'),
    q = f.local('i32');
  const k = f.local('i32'),
    i = f.local('i32'),
    rowU = f.local('i32'),
    rowS = f.local('i32'),
    p16 = f.local('i32');
  const v = () => f.local('v128');
  const { ONE, VTINY, INF } = pivotConstants(f);
  f.inPrologue(() => {
    f.get(P).i32(16).mul().set(p16);
  });

  /** Pushes the vector of region `off` at the current user position u (+ rs when `du`). */
  const load = (off: number, du = 0): void => {
    f.get(u);
    if (du) f.get(RS).add();
    f.v128Load(off);
  };
  const loadTo = (off: number, du = 0): number => {
    const t = v();
    load(off, du);
    f.set(t);
    return t;
  };
  /** Stores local `t` as the solution at the current user position. */
  const storeX = (t: number): void => {
    f.get(u).get(t).v128Store(L.x);
  };
  const accs = memoryAccumulators(f, q, L.acc, [v(), v()]);
  const [ap, off, ab] = [v(), v(), v()];
  /** Runs `body` for the P vectors of a row: u from `u0` by ps, s and sp from `s0` by 16, q from 0 by 96. */
  const pairs = (setup: () => void, body: () => void): void => {
    setup();
    f.get(QB).set(q).get(P).set(k);
    f.loop();
    body();
    f.get(u).get(PS).add().set(u);
    f.get(s).i32(16).add().set(s);
    f.get(q)
      .i32(ACC_VECTORS * 16)
      .add()
      .set(q);
    f.get(k).i32(1).sub().tee(k).brIf(0);
    f.end();
  };
  const checks = (piv: number, a: number | null, b: number, c: number | null, init: boolean): void =>
    emitRowChecks(f, accs, { VTINY, INF }, [ap, off, ab], piv, a, b, c, init);

  // Forward sweep, row 0.
  pairs(
    () => {
      f.get(BASE).set(u);
      f.get(SB).set(s);
    },
    () => {
      const b = loadTo(L.b),
        c = loadTo(L.c),
        d = loadTo(L.d),
        inv = v();
      f.get(ONE).get(b).f64x2Div().set(inv);
      f.get(s).get(c).get(inv).fmul(8).v128Store(L.cp);
      f.get(s).get(d).get(inv).fmul(8).v128Store(L.xi);
      checks(b, null, b, c, true);
    },
  );
  /** Forward sweep, one row (rowU, rowS); `last`: no upper diagonal. */
  const forwardRow = (last: boolean): void => {
    pairs(
      () => {
        f.get(rowU).set(u);
        f.get(rowS).set(s);
      },
      () => {
        const a = loadTo(L.a),
          b = loadTo(L.b),
          c = last ? null : loadTo(L.c),
          d = loadTo(L.d);
        const piv = v(),
          inv = v();
        f.get(s).get(p16).sub().set(sp);
        f.get(b).get(a).get(sp).v128Load(L.cp).fmul(8).fsub(8).set(piv);
        f.get(ONE).get(piv).f64x2Div().set(inv);
        if (c !== null) f.get(s).get(c).get(inv).fmul(8).v128Store(L.cp);
        f.get(s).get(d).get(a).get(sp).v128Load(L.xi).fmul(8).fsub(8).get(inv).fmul(8).v128Store(L.xi);
        checks(piv, a, b, c, false);
      },
    );
  };
  f.get(BASE).get(RS).add().set(rowU).get(SB).get(p16).add().set(rowS).i32(1).set(i);
  // Rows 1 … n−2.
  forwardRows(f, i, N, () => {
    forwardRow(false);
    f.get(rowU).get(RS).add().set(rowU).get(rowS).get(p16).add().set(rowS);
  });
  forwardRow(true);

  // Back substitution with the residuals. Row n−1: x = XI; stored in the next step's post of row n−1.
  /**
   * Post of row r = i+1 at user position u + rs, scratch s + 16P: residual ((a x_{r−1} + b x_r) + c x_{r+1}) − d
   * (terms absent at the ends: the JavaScript kernel adds exact zeros there, which changes no magnitude).
   */
  const post = (xm: number | null, xi: number, xp: number | null, du: number, init: boolean): void => {
    if (!check) return emitMaxX(f, accs, xi, init);
    const b = loadTo(L.b, du),
      d = loadTo(L.d, du),
      r = v();
    if (xm !== null) {
      load(L.a, du);
      f.get(xm).fmul(8).get(b).get(xi).fmul(8).fadd(8);
    } else f.get(b).get(xi).fmul(8);
    if (xp !== null) {
      load(L.c, du);
      f.get(xp).fmul(8).fadd(8);
    }
    f.get(d).fsub(8).f64x2Abs().set(r);
    emitPostMaxima(f, accs, r, xi, d, init);
  };
  // rowU, rowS are at row n−1 now. Step i = n−2: x_{n−2}; post of row n−1 (no upper diagonal).
  /** The solution as the caller gets it: `t` itself, or a new local rounded to float32 (round32). */
  const delivered = (t: number): number => {
    if (!round32) return t;
    const r = v();
    f.get(t).f64x2RoundToF32().set(r);
    return r;
  };
  const backRow = (lastPost: boolean): void => {
    f.get(rowU).get(RS).sub().set(rowU).get(rowS).get(p16).sub().set(rowS);
    pairs(
      () => {
        f.get(rowU).set(u);
        f.get(rowS).set(s);
      },
      () => {
        const x = v(),
          x1 = v();
        f.get(s).get(p16).add().tee(sp).v128Load(L.xi).set(x1);
        f.get(s).get(s).v128Load(L.xi).get(s).v128Load(L.cp).get(x1).fmul(8).fsub(8).tee(x).v128Store(L.xi);
        const xo = delivered(x),
          x1o = delivered(x1);
        storeX(xo);
        if (lastPost) {
          // x_{n−1} goes to X here too (its own row has no step).
          f.get(u).get(RS).add().get(x1o).v128Store(L.x);
          post(xo, x1o, null, 1, true);
        } else {
          const x2 = v();
          f.get(sp).get(p16).add().v128Load(L.xi).set(x2);
          post(xo, x1o, delivered(x2), 1, false);
        }
      },
    );
  };
  backRow(true);
  backSteps(f, i, N, () => backRow(false));
  // Post of row 0 (no lower diagonal): rowU, rowS at row 0.
  pairs(
    () => {
      f.get(rowU).set(u);
      f.get(rowS).set(s);
    },
    () => {
      const x = v(),
        x1 = v();
      f.get(s).v128Load(L.xi).set(x);
      f.get(s).get(p16).add().v128Load(L.xi).set(x1);
      post(null, delivered(x), delivered(x1), 0, false);
    },
  );
  // Every vector's status bits and η from its accumulators.
  pairs(
    () => {
      f.get(BASE).set(u);
      f.get(SB).set(s);
    },
    () =>
      emitResults(
        f,
        (slot) => f.get(q).v128Load(L.acc + slot * 16),
        (slot, t) =>
          f
            .get(q)
            .get(t)
            .v128Store(L.acc + slot * 16),
        INF,
        check,
      ),
  );
  return f;
}
