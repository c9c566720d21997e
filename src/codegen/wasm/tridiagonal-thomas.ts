/**
 * WebAssembly SIMD kernel of the batched real float64 Thomas solve: two systems a vector (f64x2 lanes),
 * loops over the rows outermost and over the vectors of a block innermost, so that the recurrences of
 * different vectors overlap (one Thomas sweep alone is latency-bound). The backward-error check is
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

/**
 * Module exporting `solve(P, n, rs, ps, ls, base)`: P vectors (2P systems) of n ≥ 2 rows; rs = bytes
 * between rows, ps = bytes between vectors, ls = bytes from lane 0 to lane 1 (strided only), base = byte
 * offset of the block's first element within A … X. Writes X, and ACC for the block's vectors.
 */
export function generateThomasKernel(layout: 'interleaved' | 'strided', cap: number, round32 = false): Uint8Array {
  const L = thomasKernelLayout(cap);
  const strided = layout === 'strided';
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [P, N, RS, PS, LS, BASE] = [0, 1, 2, 3, 4, 5];
  const u = f.local('i32'),
    u1 = f.local('i32'),
    s = f.local('i32'),
    sp = f.local('i32'),
    q = f.local('i32');
  const k = f.local('i32'),
    i = f.local('i32'),
    rowU = f.local('i32'),
    rowS = f.local('i32'),
    p16 = f.local('i32');
  const v = () => f.local('v128');
  const ONE = v(),
    VTINY = v(),
    INF = v();
  f.inPrologue(() => {
    f.vconst(8, [1, 1]).set(ONE).vconst(8, [TINY, TINY]).set(VTINY).vconst(8, [Infinity, Infinity]).set(INF);
    f.get(P).i32(16).mul().set(p16);
  });

  /** Pushes the vector of region `off` at the current user position (u, and u1 = u + ls when strided). */
  const load = (off: number, du = 0): void => {
    if (strided) {
      f.get(u1);
      if (du) f.get(RS).add();
      f.get(u);
      if (du) f.get(RS).add();
      f.load64Zero(off).load64Lane(off, 1);
    } else {
      f.get(u);
      if (du) f.get(RS).add();
      f.v128Load(off);
    }
  };
  const loadTo = (off: number, du = 0): number => {
    const t = v();
    load(off, du);
    f.set(t);
    return t;
  };
  /** Stores local `t` as the solution at the current user position. */
  const storeX = (t: number): void => {
    if (strided) {
      f.get(u).get(t).store64Lane(L.x, 0);
      f.get(u1).get(t).store64Lane(L.x, 1);
    } else f.get(u).get(t).v128Store(L.x);
  };
  const accAddr = (slot: number): number => L.acc + slot * 16;
  /** acc[slot] = max(acc[slot], t), or t when `init`. */
  const accMax = (slot: number, t: number, init: boolean): void => {
    f.get(q);
    if (init) f.get(t);
    else f.get(q).v128Load(accAddr(slot)).get(t).f64x2Max();
    f.v128Store(accAddr(slot));
  };
  /** Runs `body` for the P vectors of a row: u from `u0` by ps, s and sp from `s0` by 16, q from 0 by 96. */
  const pairs = (setup: () => void, body: () => void): void => {
    setup();
    f.i32(0).set(q).get(P).set(k);
    f.loop();
    if (strided) f.get(u).get(LS).add().set(u1);
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
  /** ok &= |piv| ≥ TINY && |piv| < ∞ (NaN fails both). */
  const pivotOk = (piv: number, init: boolean): void => {
    const ap = v();
    f.get(piv).f64x2Abs().set(ap);
    f.get(q);
    f.get(ap).get(VTINY).f64x2Ge().get(ap).get(INF).f64x2Lt().v128And();
    if (!init) f.get(q).v128Load(accAddr(ACC_PIVOT_OK)).v128And();
    f.v128Store(accAddr(ACC_PIVOT_OK));
  };
  /** Row norm (|a| + |c|) + |b| and the dominance test |b| < |a| + |c|, with a or c absent at the ends. */
  const rowChecks = (a: number | null, b: number, c: number | null, init: boolean): void => {
    const off = v(),
      ab = v(),
      rs = v();
    if (a !== null && c !== null) f.get(a).f64x2Abs().get(c).f64x2Abs().fadd(8).set(off);
    else
      f.get((a ?? c)!)
        .f64x2Abs()
        .set(off);
    f.get(b).f64x2Abs().set(ab);
    f.get(off).get(ab).fadd(8).set(rs);
    accMax(ACC_NORM_A, rs, init);
    f.get(q).get(ab).get(off).f64x2Lt();
    if (!init) f.get(q).v128Load(accAddr(ACC_NOT_DOMINANT)).v128Or();
    f.v128Store(accAddr(ACC_NOT_DOMINANT));
  };

  // Forward sweep, row 0.
  pairs(
    () => {
      f.get(BASE).set(u);
      f.i32(0).set(s);
    },
    () => {
      const b = loadTo(L.b),
        c = loadTo(L.c),
        d = loadTo(L.d),
        inv = v();
      f.get(ONE).get(b).f64x2Div().set(inv);
      f.get(s).get(c).get(inv).fmul(8).v128Store(L.cp);
      f.get(s).get(d).get(inv).fmul(8).v128Store(L.xi);
      pivotOk(b, true);
      rowChecks(null, b, c, true);
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
        pivotOk(piv, false);
        rowChecks(a, b, c, false);
      },
    );
  };
  f.get(BASE).get(RS).add().set(rowU).get(p16).set(rowS).i32(1).set(i);
  // Rows 1 … n−2.
  f.block().loop();
  f.get(i).get(N).i32(1).sub().op(0x4e /* i32.ge_s */).brIf(1);
  forwardRow(false);
  f.get(rowU).get(RS).add().set(rowU).get(rowS).get(p16).add().set(rowS).get(i).i32(1).add().set(i);
  f.br(0).end().end();
  forwardRow(true);

  // Back substitution with the residuals. Row n−1: x = XI; stored in the next step's post of row n−1.
  /**
   * Post of row r = i+1 at user position u + rs, scratch s + 16P: residual ((a x_{r−1} + b x_r) + c x_{r+1}) − d
   * (terms absent at the ends: the JavaScript kernel adds exact zeros there, which changes no magnitude).
   */
  const post = (xm: number | null, xi: number, xp: number | null, du: number, init: boolean): void => {
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
    accMax(ACC_MAX_R, r, init);
    const ax = v(),
      ad = v();
    f.get(xi).f64x2Abs().set(ax);
    accMax(ACC_MAX_X, ax, init);
    f.get(d).f64x2Abs().set(ad);
    accMax(ACC_MAX_D, ad, init);
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
          if (strided) {
            f.get(u).get(RS).add().get(x1o).store64Lane(L.x, 0);
            f.get(u1).get(RS).add().get(x1o).store64Lane(L.x, 1);
          } else f.get(u).get(RS).add().get(x1o).v128Store(L.x);
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
  f.get(N).i32(2).sub().set(i);
  // Steps i = n−3 … 0.
  f.block().loop();
  f.get(i).i32(0).op(0x4c /* i32.le_s */).brIf(1);
  backRow(false);
  f.get(i).i32(1).sub().set(i);
  f.br(0).end().end();
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
  return assembleModule([{ params: f.params.slice(), body: f, export: 'solve' }], {
    initialPages: 1,
    maxPages: 1,
    shared: false,
  });
}
