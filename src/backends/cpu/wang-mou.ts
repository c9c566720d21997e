/**
 * Wang & Mou tridiagonal elimination on the CPU, executing the recipe's stage structure exactly as the
 * WebGPU kernels do (the executable specification of codegen/tridiagonal-wang-mou.ts), in float64, or
 * float32 / complex through a Field.
 *
 * State (SEEDS.md, corrected): before a stage with block size s, row i holds (a, b, c, d) meaning
 *   a·x_{p−1} + b·x_i + c·x_{p+s} = d,  p = s⌊i/s⌋.
 * Merging blocks [p..m] and [m+1..e] (R = row m, L = row m+1):
 *   L' = L − (a_L/b_R)·R                      over (x_{p−1}, x_{m+1}, x_{e+1})
 *   rows i ≤ m:   row − (c_i/b'_L)·L'
 *   row m+1:      L'
 *   rows i > m+1: row − f·R − g·L' with f = a_i/b_R, g = −f·c_R/b'_L
 * After all stages x_i = d_i/b_i. A row's left and right equations in a stage are the centre
 * equations of the block boundaries, so a GPU invocation holding R consecutive rows needs from other
 * invocations only the first/last rows of blocks (the "centre equation" exchange of the seeds).
 *
 * Structure per level (see planner/tridiagonal.ts):
 *  - local stages: block sizes 1 … rowsPerThread/2 inside one invocation's rows;
 *  - exchange steps: radix 2 (one level, boundary rows R, L) or radix 4 (two levels at once, from the six
 *    boundary rows of four blocks: the level-1 merges of the boundary rows are recomputed by every
 *    invocation, so one exchange serves two levels);
 *  - 'partition' levels: chunks of P interior rows + 1 separator; the reduced chunk rows give every
 *    interior x through the two neighbouring separators; the separators form the next level's system.
 */
import { TRIDIAGONAL_STATUS as S, type TridiagonalLevel, type TridiagonalRecipe } from '../../planner/tridiagonal.js';
import type { Field } from './thomas.js';

type Arr = { [i: number]: number; length: number };

interface Row<T> {
  a: T;
  b: T;
  c: T;
  d: T;
}

/** Merges R (last row of the left block) and L (first of the right block): L' over the merged block. */
function mergeL<T>(F: Field<T>, R: Row<T>, L: Row<T>, st: { s: number }): Row<T> {
  if (!(F.abs(R.b) >= F.tiny)) st.s |= S.ZERO_PIVOT;
  const f = F.div(L.a, R.b);
  const out = { a: F.neg(F.mul(f, R.a)), b: F.sub(L.b, F.mul(f, R.c)), c: L.c, d: F.sub(L.d, F.mul(f, R.d)) };
  if (!(F.abs(out.b) >= F.tiny)) st.s |= S.ZERO_PIVOT;
  return out;
}

/** Row of the left block (including R itself): eliminate x_{m+1} with L'. */
function updLeft<T>(F: Field<T>, row: Row<T>, Lp: Row<T>): Row<T> {
  const g = F.div(row.c, Lp.b);
  return { a: F.sub(row.a, F.mul(g, Lp.a)), b: row.b, c: F.neg(F.mul(g, Lp.c)), d: F.sub(row.d, F.mul(g, Lp.d)) };
}

/** Row of the right block other than L: eliminate x_m with R, then x_{m+1} with L'. */
function updRight<T>(F: Field<T>, row: Row<T>, R: Row<T>, Lp: Row<T>): Row<T> {
  const f = F.div(row.a, R.b);
  const g = F.div(F.neg(F.mul(f, R.c)), Lp.b);
  return {
    a: F.sub(F.neg(F.mul(f, R.a)), F.mul(g, Lp.a)),
    b: row.b,
    c: F.sub(row.c, F.mul(g, Lp.c)),
    d: F.sub(F.sub(row.d, F.mul(f, R.d)), F.mul(g, Lp.d)),
  };
}

/** Updates the row at position i of a merge of blocks of size s, given R, L' of its pair. */
function updRow<T>(F: Field<T>, row: Row<T>, i: number, s: number, R: Row<T>, Lp: Row<T>): Row<T> {
  const p = Math.floor(i / (2 * s)) * 2 * s;
  const m = p + s - 1;
  if (i <= m) return updLeft(F, row, Lp);
  if (i === m + 1) return Lp;
  return updRight(F, row, R, Lp);
}

type LevelShape = Pick<TridiagonalLevel, 'rowsPerThread' | 'exchangeRadices'>;

/**
 * Reduces `rows` (length P, a power of two) by all log2 P Wang & Mou levels with the stage structure of
 * `level` (rowsPerThread, exchangeRadices). In place; returns status bits.
 */
export function wangMouReduceBlock<T>(F: Field<T>, rows: Row<T>[], level: LevelShape): number {
  const P = rows.length;
  const Rpt = Math.min(level.rowsPerThread, P);
  const st = { s: 0 };
  // Local stages: each invocation's Rpt rows, no exchange.
  for (let s = 1; s < Rpt; s *= 2) {
    for (let t0 = 0; t0 < P; t0 += Rpt) {
      for (let p = t0; p < t0 + Rpt; p += 2 * s) {
        const R = rows[p + s - 1],
          L = rows[p + s];
        const Lp = mergeL(F, R, L, st);
        for (let i = p; i < p + 2 * s; i++) rows[i] = updRow(F, rows[i], i - p, s, R, Lp);
      }
    }
  }
  exchangeSteps(F, rows, Rpt, level.exchangeRadices, st);
  return st.s;
}

/**
 * The exchange steps from block size s0 to P. Every row of `rows` is updated; the 'thomas' interior
 * reads only the block-boundary rows afterwards, whose values do not depend on the other rows.
 */
function exchangeSteps<T>(F: Field<T>, rows: Row<T>[], s0: number, radices: number[], st: { s: number }): void {
  const P = rows.length;
  let s = s0;
  for (const radix of radices) {
    if (s >= P) break;
    if (radix === 2) {
      const next = rows.slice();
      for (let p = 0; p < P; p += 2 * s) {
        const R = rows[p + s - 1],
          L = rows[p + s];
        const Lp = mergeL(F, R, L, st);
        for (let i = p; i < p + 2 * s; i++) next[i] = updRow(F, rows[i], i - p, s, R, Lp);
      }
      rows.splice(0, P, ...next);
      s *= 2;
    } else {
      // Radix 4: blocks B0..B3 of size s. Boundary rows: last0, first1, last1, first2, last2, first3.
      const next = rows.slice();
      for (let q = 0; q < P; q += 4 * s) {
        const last0 = rows[q + s - 1],
          first1 = rows[q + s],
          last1 = rows[q + 2 * s - 1];
        const first2 = rows[q + 2 * s],
          last2 = rows[q + 3 * s - 1],
          first3 = rows[q + 3 * s];
        const L01 = mergeL(F, last0, first1, st);
        const L23 = mergeL(F, last2, first3, st);
        // Level-1 values of the level-2 boundary rows: last1 is in the right block of pair 01 (it is
        // L itself when s = 1), first2 is in the left block of pair 23.
        const last1u = s === 1 ? L01 : updRight(F, last1, last0, L01);
        const first2u = updLeft(F, first2, L23);
        const L2 = mergeL(F, last1u, first2u, st);
        for (let i = q; i < q + 4 * s; i++) {
          const j = i - q;
          const lvl1 = j < 2 * s ? updRow(F, rows[i], j, s, last0, L01) : updRow(F, rows[i], j - 2 * s, s, last2, L23);
          next[i] = updRow(F, lvl1, j, 2 * s, last1u, L2);
        }
      }
      rows.splice(0, P, ...next);
      s *= 4;
    }
  }
  if (s < P) throw new Error(`wangMouReduceBlock: recipe covers block size ${s}, block has ${P} rows`);
}

/**
 * The 'thomas' interior (TridiagonalLevel.interior), as the kernels run it: each invocation merges its
 * Rpt rows one at a time into its block's first and last rows, only those go through the exchange steps,
 * and the interior rows are then solved by Thomas between the two known ends. Returns the reduced
 * block-boundary rows (index t·Rpt and t·Rpt + Rpt − 1 meaningful) and leaves `rows` unchanged.
 */
function boundaryReduce<T>(F: Field<T>, rows: Row<T>[], level: LevelShape, st: { s: number }): Row<T>[] {
  const P = rows.length;
  const Rpt = Math.min(level.rowsPerThread, P);
  const out = rows.slice();
  for (let t0 = 0; t0 < P; t0 += Rpt) {
    let first = rows[t0],
      last = rows[t0];
    for (let j = 1; j < Rpt; j++) {
      const Lp = mergeL(F, last, rows[t0 + j], st);
      first = updLeft(F, first, Lp);
      last = Lp;
    }
    out[t0] = first;
    out[t0 + Rpt - 1] = last;
  }
  exchangeSteps(F, out, Rpt, level.exchangeRadices, st);
  return out;
}

/**
 * x of a block of P rows whose outer neighbours are xL (before row 0) and xR (after row P − 1), with the
 * structure of `level` (interior 'wang-mou' or 'thomas'). Returns status bits through `st`.
 */
function solveBlock<T>(
  F: Field<T>,
  rows: Row<T>[],
  level: LevelShape & Pick<TridiagonalLevel, 'interior'>,
  xL: T,
  xR: T,
  st: { s: number },
): T[] {
  const P = rows.length;
  const xOf = (r: Row<T>) => {
    if (!(F.abs(r.b) >= F.tiny)) st.s |= S.ZERO_PIVOT;
    return F.div(F.sub(F.sub(r.d, F.mul(r.a, xL)), F.mul(r.c, xR)), r.b);
  };
  if ((level.interior ?? 'wang-mou') === 'wang-mou') {
    const red = rows.slice();
    st.s |= wangMouReduceBlock(F, red, level);
    return red.map(xOf);
  }
  const Rpt = Math.min(level.rowsPerThread, P);
  const bnd = boundaryReduce(F, rows, level, st);
  const x: T[] = new Array(P);
  for (let t0 = 0; t0 < P; t0 += Rpt) {
    const e = t0 + Rpt - 1;
    x[t0] = xOf(bnd[t0]);
    x[e] = xOf(bnd[e]);
    // Thomas on rows t0+1 … e−1 with x[t0] and x[e] known.
    const cp: T[] = [],
      dp: T[] = [];
    let cPrev = F.zero(),
      dPrev = x[t0];
    for (let i = t0 + 1; i < e; i++) {
      const r = rows[i];
      const m = F.sub(r.b, F.mul(r.a, cPrev));
      if (!(F.abs(m) >= F.tiny)) st.s |= S.ZERO_PIVOT;
      const di = i === e - 1 ? F.sub(r.d, F.mul(r.c, x[e])) : r.d;
      cPrev = i === e - 1 ? F.zero() : F.div(r.c, m);
      dPrev = F.div(F.sub(di, F.mul(r.a, dPrev)), m);
      cp.push(cPrev);
      dp.push(dPrev);
    }
    for (let i = e - 1; i > t0; i--) {
      const k = i - t0 - 1;
      x[i] = i === e - 1 ? dp[k] : F.sub(dp[k], F.mul(cp[k], x[i + 1]));
    }
  }
  return x;
}

/** The reduced first and last rows of a block (over its outer neighbours), as a 'reduce' kernel stores them. */
function reduceBlockEnds<T>(
  F: Field<T>,
  rows: Row<T>[],
  level: LevelShape & Pick<TridiagonalLevel, 'interior'>,
  st: { s: number },
): [Row<T>, Row<T>] {
  const P = rows.length;
  if ((level.interior ?? 'wang-mou') === 'wang-mou') {
    const red = rows.slice();
    st.s |= wangMouReduceBlock(F, red, level);
    return [red[0], red[P - 1]];
  }
  const bnd = boundaryReduce(F, rows, level, st);
  return [bnd[0], bnd[P - 1]];
}

function identity<T>(F: Field<T>): Row<T> {
  return { a: F.zero(), b: F.one(), c: F.zero(), d: F.zero() };
}

/** Loads rows [start, start+count) of a contiguous system into a padded block of P rows. */
function loadBlock<T>(
  F: Field<T>,
  a: Arr,
  b: Arr,
  c: Arr,
  d: Arr,
  n: number,
  start: number,
  count: number,
  P: number,
  st: { s: number },
): Row<T>[] {
  const rows: Row<T>[] = [];
  for (let v = 0; v < P; v++) {
    const i = start + v;
    if (v < count && i < n) {
      const row = {
        a: i > 0 ? F.load(a, i) : F.zero(),
        b: F.load(b, i),
        c: i < n - 1 ? F.load(c, i) : F.zero(),
        d: F.load(d, i),
      };
      if (F.abs(row.b) < F.abs(row.a) + F.abs(row.c)) st.s |= S.NOT_DIAGONALLY_DOMINANT;
      rows.push(row);
    } else rows.push(identity(F));
  }
  return rows;
}

/**
 * Solves one contiguous system (a, b, c, d, x of length n; complex: interleaved pairs) with the levels
 * of `recipe` starting at `levelIndex`. Returns status bits.
 */
export function wangMouSolve<T>(
  F: Field<T>,
  recipe: TridiagonalRecipe,
  a: Arr,
  b: Arr,
  c: Arr,
  d: Arr,
  x: Arr,
  n: number,
  levelIndex = 0,
): number {
  const level = recipe.levels[levelIndex];
  if (!level || level.n !== n)
    throw new Error(`wangMouSolve: recipe level ${levelIndex} is for n = ${level?.n}, got ${n}`);
  const st = { s: 0 };
  const P = level.segment;
  if (level.mode === 'solve') {
    const rows = loadBlock(F, a, b, c, d, n, 0, n, P, st);
    const xb = solveBlock(F, rows, level, F.zero(), F.zero(), st);
    for (let i = 0; i < n; i++) {
      if (!F.isFinite(xb[i])) st.s |= S.NON_FINITE;
      F.store(x, i, xb[i]);
    }
    return st.s;
  }
  // Partition: reduce every chunk, build the coarse system over the separators, solve it, substitute.
  const period = P + 1;
  const K = level.chunks,
    M = level.separators;
  const chunks: Row<T>[][] = [];
  const ends: [Row<T>, Row<T>][] = [];
  for (let k = 0; k < K; k++) {
    const rows = loadBlock(F, a, b, c, d, n, k * period, P, P, st);
    ends.push(reduceBlockEnds(F, rows, level, st));
    chunks.push(rows);
  }
  // Normalised boundary rows x_i + a'·x_{sep left} + c'·x_{sep right} = d' (what the GPU stores).
  const norm = (r: Row<T>) => {
    if (!(F.abs(r.b) >= F.tiny)) st.s |= S.ZERO_PIVOT;
    return { a: F.div(r.a, r.b), c: F.div(r.c, r.b), d: F.div(r.d, r.b) };
  };
  const storeLen = F.complex ? 2 * M : M;
  const ca = new Float64Array(storeLen),
    cb = new Float64Array(storeLen),
    cc = new Float64Array(storeLen),
    cd = new Float64Array(storeLen);
  for (let k = 0; k < M; k++) {
    const sIdx = k * period + P;
    const as = F.load(a, sIdx),
      bs = F.load(b, sIdx),
      cs = sIdx < n - 1 ? F.load(c, sIdx) : F.zero(),
      ds = F.load(d, sIdx);
    if (F.abs(bs) < F.abs(as) + F.abs(cs)) st.s |= S.NOT_DIAGONALLY_DOMINANT;
    const left = norm(ends[k][1]);
    let A = F.neg(F.mul(as, left.a));
    let B = F.sub(bs, F.mul(as, left.c));
    let C = F.zero();
    let D = F.sub(ds, F.mul(as, left.d));
    if (sIdx + 1 < n) {
      const right = norm(ends[k + 1][0]);
      B = F.sub(B, F.mul(cs, right.a));
      C = F.neg(F.mul(cs, right.c));
      D = F.sub(D, F.mul(cs, right.d));
    }
    if (k === 0) A = F.zero();
    F.store(ca, k, A);
    F.store(cb, k, B);
    F.store(cc, k, C);
    F.store(cd, k, D);
  }
  const xs = new Float64Array(storeLen);
  st.s |= wangMouSolve(F, recipe, ca, cb, cc, cd, xs, M, levelIndex + 1);
  for (let k = 0; k < K; k++) {
    const xL = k > 0 ? F.load(xs, k - 1) : F.zero();
    const xR = k < M ? F.load(xs, k) : F.zero();
    // The GPU's 'expand' kernel recomputes the reduction from the reloaded chunk: the same values.
    const xb = solveBlock(F, chunks[k], level, xL, xR, st);
    for (let v = 0; v < P; v++) {
      const i = k * period + v;
      if (i >= n) break;
      if (!F.isFinite(xb[v])) st.s |= S.NON_FINITE;
      F.store(x, i, xb[v]);
    }
    if (k < M) F.store(x, k * period + P, xR);
  }
  return st.s;
}
