/**
 * The largest magnitude of each column of a block, for the column module's real and DCT recipes, which take real
 * columns two to a complex one (real-columns-pairs.ts) and so share its rounding: the backend balances the pairs
 * as the row engine does (src/backends/cpu/fft-columns-axis.ts, balanceColumns).
 *
 *   colinit(out, vecs): starts the maxima of `vecs` vectors of a row at out (32 bytes each while they run).
 *   colmax(x, vecs, rows, pitch, out): takes `rows` more rows `pitch` bytes apart from x into them (the lane-wise
 *     maximum of |x|, and a mask of |x| ≤ the largest finite value, which NaN and ±Inf fail).
 *   colpack(out, vecs): packs them to 16 bytes a vector at out, NaN in a lane whose mask a value failed.
 *
 * The backend calls colmax on each part of a block as it copies it in, while the part is still in cache.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';

/** `body` for each of `vecs` vectors, with p stepping 16 bytes from `from` and q 32 bytes from `out`. */
function eachVector(b: Body, from: number, out: number, vecs: number, body: (p: number, q: number) => void): void {
  const [p, q, k] = [b.local('i32'), b.local('i32'), b.local('i32')];
  b.get(from).set(p);
  b.get(out).set(q);
  b.get(vecs).set(k);
  b.loop();
  body(p, q);
  b.get(p).i32(16).add().set(p);
  b.get(q).i32(32).add().set(q);
  b.get(k).i32(1).sub().tee(k).brIf(0);
  b.end();
}

function colinit(e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32'];
  const b = new Body(params);
  const [out, vecs] = [0, 1];
  eachVector(b, out, out, vecs, (_p, q) => {
    b.get(q).vconst(e, new Array(W).fill(0)).v128Store(0);
    b.get(q).vconst(e, new Array(W).fill(0)).v128Not().v128Store(16);
  });
  return { params, body: b, export: 'colinit' };
}

/** Vectors of a row whose maxima stay in locals down the rows (then the rest one at a time). */
const GROUP = 4;

function colmax(e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const [x, vecs, rows, pitch, out] = [0, 1, 2, 3, 4];
  const [v, big] = [b.local('v128'), b.local('v128')];
  const [col, q, r, row, k] = [b.local('i32'), b.local('i32'), b.local('i32'), b.local('i32'), b.local('i32')];
  const acc = Array.from({ length: GROUP }, () => b.local('v128'));
  const ok = Array.from({ length: GROUP }, () => b.local('v128'));
  b.inPrologue(() => {
    b.vconst(e, new Array(W).fill(e === 4 ? 3.4028234663852886e38 : Number.MAX_VALUE)).set(big);
  });
  /** While k ≥ g vectors are left: g vectors from col (and their 32 bytes each at q) down every row. */
  const groups = (g: number): void => {
    b.block();
    b.loop();
    b.get(k).i32(g).op(0x49).brIf(1); // i32.lt_u: fewer than g left
    for (let i = 0; i < g; i++) {
      b.get(q)
        .v128Load(32 * i)
        .set(acc[i]!);
      b.get(q)
        .v128Load(32 * i + 16)
        .set(ok[i]!);
    }
    b.get(col).set(row);
    b.get(rows).set(r);
    b.loop();
    for (let i = 0; i < g; i++) {
      b.get(row)
        .v128Load(16 * i)
        .fabs(e)
        .set(v);
      b.get(acc[i]!).get(v).fpmax(e).set(acc[i]!);
      b.get(ok[i]!).get(v).get(big).fle(e).v128And().set(ok[i]!);
    }
    b.get(row).get(pitch).add().set(row);
    b.get(r).i32(1).sub().tee(r).brIf(0);
    b.end();
    for (let i = 0; i < g; i++) {
      b.get(q)
        .get(acc[i]!)
        .v128Store(32 * i);
      b.get(q)
        .get(ok[i]!)
        .v128Store(32 * i + 16);
    }
    b.get(col)
      .i32(16 * g)
      .add()
      .set(col);
    b.get(q)
      .i32(32 * g)
      .add()
      .set(q);
    b.get(k).i32(g).sub().set(k);
    b.br(0);
    b.end();
    b.end();
  };
  b.get(x).set(col);
  b.get(out).set(q);
  b.get(vecs).set(k);
  groups(GROUP);
  groups(1);
  return { params, body: b, export: 'colmax' };
}

function colpack(): WasmFunction {
  const params: ValType[] = ['i32', 'i32'];
  const b = new Body(params);
  const [out, vecs] = [0, 1];
  const p = b.local('i32');
  b.get(out).set(p);
  // p (16 bytes a step) never passes q (32): each vector is read before anything is written over it.
  eachVector(b, out, out, vecs, (_p, q) => {
    b.get(p).get(q).v128Load(0).get(q).v128Load(16).v128Not().v128Or().v128Store(0);
    b.get(p).i32(16).add().set(p);
  });
  return { params, body: b, export: 'colpack' };
}

export function generateColumnMaxModule(e: 4 | 8, shared: boolean): Uint8Array {
  return assembleModule([colinit(e), colmax(e), colpack()], { initialPages: 1, maxPages: 65536, shared });
}
