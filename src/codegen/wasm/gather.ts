/**
 * WebAssembly module of the gathers of core/gather-map.ts over a memory it imports (the engine's): for r < count
 * and k < m,
 *
 *   one(src, dst, table, m, count, ss, ds):  dst + r·ds + k·e ← wa_k·[src + r·ss + ia_k]
 *   two(…):                                  … + wb_k·[src + r·ss + ib_k]
 *
 * as `one4`/`two4` on f32 values and `one8`/`two8` on f64. The table holds blocks of m entries, each block
 * starting 16-byte aligned: ia (byte offsets into a row, i32), wa, then for `two` ib and wb. W outputs a step go
 * through one vector, its lanes loaded one by one (WebAssembly has no gather), the weights a vector load; the last
 * m mod W outputs one at a time.
 */
import { assembleModule, Body } from './assembler.js';
import type { GatherMap } from '../../core/gather-map.js';

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/** Whether a map needs the second term (some wb ≠ 0). */
export function gatherTerms(g: GatherMap): 1 | 2 {
  return g.wb.some((w) => w !== 0) ? 2 : 1;
}

/** The table of `g` for rows of e-byte values, as the bytes the kernel reads. */
export function gatherTable(g: GatherMap, e: 4 | 8): Uint8Array {
  const m = g.ia.length;
  const [ib, wb] = [align16(4 * m), align16(4 * m) + align16(e * m)];
  const bytes = new Uint8Array(gatherTerms(g) * wb);
  const Arr = e === 4 ? Float32Array : Float64Array;
  const put = (at: number, idx: Int32Array, w: Float64Array): void => {
    new Int32Array(bytes.buffer, at, m).set(idx.map((i) => i * e));
    new Arr(bytes.buffer, at + ib, m).set(w);
  };
  put(0, g.ia, g.wa);
  if (gatherTerms(g) === 2) put(wb, g.ib, g.wb);
  return bytes;
}

/**
 * The row loop both kernels share, over their parameters (src, dst, table, m, count, ss, ds): nothing for m = 0 or
 * count = 0; else `body` once a row, then src and dst advanced by ss and ds.
 */
function eachRow(f: Body, body: () => void): void {
  const [SRC, DST, M, COUNT, SS, DS] = [0, 1, 3, 4, 5, 6];
  f.block();
  f.get(M).op(0x45 /* i32.eqz */).brIf(0);
  f.get(COUNT).op(0x45).brIf(0);
  f.loop();
  body();
  f.get(SRC).get(SS).add().set(SRC);
  f.get(DST).get(DS).add().set(DST);
  f.get(COUNT).i32(1).sub().tee(COUNT).brIf(0);
  f.end();
  f.end();
}

function gatherBody(e: 4 | 8, terms: 1 | 2): Body {
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [SRC, DST, TABLE, M] = [0, 1, 2, 3];
  const W = 16 / e;
  const [load, store, mul, add, al] = e === 4 ? [0x2a, 0x38, 0x94, 0x92, 2] : [0x2b, 0x39, 0xa2, 0xa0, 3];
  const laneLoad = e === 4 ? 0x56 : 0x57; // v128.load32_lane / v128.load64_lane
  const pi = f.local('i32'),
    pw = f.local('i32'),
    d = f.local('i32'),
    g = f.local('i32'),
    wOff = f.local('i32'),
    bOff = f.local('i32'),
    x = f.local('v128');
  const shl = 0x74,
    and = 0x71;
  // The blocks: ia at 0, wa at align16(4m), ib and wb bOff = align16(4m) + align16(e·m) after those.
  f.get(M).i32(2).op(shl).i32(15).add().i32(-16).op(and).set(wOff);
  f.get(M).i32(Math.log2(e)).op(shl).i32(15).add().i32(-16).op(and).get(wOff).add().set(bOff);
  /** Pushes W outputs' term (index block at pi + off, weights at pw + off) as one vector. */
  const vectorTerm = (second: boolean): void => {
    for (let lane = 0; lane < W; lane++) {
      f.get(SRC).get(pi);
      if (second) f.get(bOff).add();
      f.op(0x28, 2, 4 * lane).add();
      f.get(x).op(0xfd, laneLoad, al, 0, lane).set(x);
    }
    f.get(x).get(pw);
    if (second) f.get(bOff).add();
    f.v128Load(0).fmul(e);
  };
  const scalarTerm = (second: boolean): void => {
    f.get(SRC).get(pi);
    if (second) f.get(bOff).add();
    f.op(0x28, 2, 0).add().op(load, al, 0);
    f.get(pw);
    if (second) f.get(bOff).add();
    f.op(load, al, 0).op(mul);
  };
  eachRow(f, () => {
    f.get(TABLE).set(pi);
    f.get(TABLE).get(wOff).add().set(pw);
    f.get(DST).set(d);
    // Whole vectors.
    f.get(M).i32(Math.log2(W)).op(0x76 /* shr_u */).tee(g);
    f.op(0x04, 0x40); // if
    f.loop();
    f.get(d);
    vectorTerm(false);
    if (terms === 2) {
      vectorTerm(true);
      f.fadd(e);
    }
    f.v128Store(0);
    f.get(pi)
      .i32(4 * W)
      .add()
      .set(pi);
    f.get(pw).i32(16).add().set(pw);
    f.get(d).i32(16).add().set(d);
    f.get(g).i32(1).sub().tee(g).brIf(0);
    f.end();
    f.end();
    // The last m mod W outputs.
    f.get(M)
      .i32(W - 1)
      .op(and)
      .tee(g);
    f.op(0x04, 0x40);
    f.loop();
    f.get(d);
    scalarTerm(false);
    if (terms === 2) {
      scalarTerm(true);
      f.op(add);
    }
    f.op(store, al, 0);
    f.get(pi).i32(4).add().set(pi);
    f.get(pw).i32(e).add().set(pw);
    f.get(d).i32(e).add().set(d);
    f.get(g).i32(1).sub().tee(g).brIf(0);
    f.end();
    f.end();
  });
  return f;
}

/** The table of a permutation of u-byte units: each output unit's byte offset in the input row (i32). */
export function permutationTable(from: Int32Array, u: 8 | 16): Uint8Array {
  return new Uint8Array(from.map((i) => i * u).buffer);
}

/**
 * perm8 / perm16(src, dst, table, m, count, ss, ds): dst + r·ds + k·u ← the u bytes at src + r·ss + table_k, for
 * r < count and k < m: whole complex values (f32 pairs, f64 pairs) moved without arithmetic, so bit for bit. perm8
 * fills a vector from two 8-byte lane loads; perm16 moves one vector an output.
 */
function permutationBody(u: 8 | 16): Body {
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [SRC, DST, TABLE, M] = [0, 1, 2, 3];
  const [pi, d, g] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const x = f.local('v128');
  eachRow(f, () => {
    f.get(TABLE).set(pi);
    f.get(DST).set(d);
    if (u === 16) {
      f.get(M).set(g);
      f.loop();
      f.get(d);
      f.get(SRC).get(pi).op(0x28, 2, 0).add().v128Load(0);
      f.v128Store(0);
      f.get(pi).i32(4).add().set(pi);
      f.get(d).i32(16).add().set(d);
      f.get(g).i32(1).sub().tee(g).brIf(0);
      f.end();
    } else {
      // Pairs of outputs a vector, then an odd last one.
      f.get(M).i32(1).op(0x76 /* shr_u */).tee(g);
      f.op(0x04, 0x40); // if
      f.loop();
      f.get(d);
      for (let lane = 0; lane < 2; lane++) {
        f.get(SRC)
          .get(pi)
          .op(0x28, 2, 4 * lane)
          .add();
        f.get(x).op(0xfd, 0x57 /* v128.load64_lane */, 3, 0, lane).set(x);
      }
      f.get(x).v128Store(0);
      f.get(pi).i32(8).add().set(pi);
      f.get(d).i32(16).add().set(d);
      f.get(g).i32(1).sub().tee(g).brIf(0);
      f.end();
      f.end();
      f.get(M).i32(1).op(0x71 /* and */);
      f.op(0x04, 0x40); // if
      f.get(d);
      f.get(SRC).get(pi).op(0x28, 2, 0).add().op(0x29, 3, 0); // i64.load
      f.op(0x37, 3, 0); // i64.store
      f.end();
    }
  });
  return f;
}

export function generateGatherModule(shared = false, maxPages = 1): Uint8Array {
  const fs = ([4, 8] as const).flatMap((e) =>
    ([1, 2] as const).map((terms) => {
      const body = gatherBody(e, terms);
      return { params: body.params.slice(), body, export: `${terms === 1 ? 'one' : 'two'}${e}` };
    }),
  );
  for (const u of [8, 16] as const) {
    const body = permutationBody(u);
    fs.push({ params: body.params.slice(), body, export: `perm${u}` });
  }
  return assembleModule(fs, { initialPages: 1, maxPages, shared });
}
