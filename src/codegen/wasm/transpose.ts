/**
 * WebAssembly module of transposes over a memory it imports (the engine's): `t4` moves 4-byte elements (real
 * f32), `t8` and `t8n` 8-byte elements (complex f32, real f64), `t16` 16-byte elements (complex f64). t(src, dst, R, C, ss, ds) writes
 * dst + c·ds + r·e ← src + r·ss + c·e for r < R, c < C (strides in bytes, e the element size). Columns go
 * in tiles of 128 bytes: each source row gives up one contiguous run a tile, and the tile's destination rows
 * are written in order as r advances, so both sides stream instead of touching a line per element.
 */
import { assembleModule, Body } from './assembler.js';

function transposeBody(e: 4 | 8 | 16, tileBytes = 128): Body {
  const f = new Body(['i32', 'i32', 'i32', 'i32', 'i32', 'i32']);
  const [SRC, DST, R, C, SS, DS] = [0, 1, 2, 3, 4, 5];
  const T = tileBytes / e;
  const c0 = f.local('i32'),
    r = f.local('i32'),
    s = f.local('i32'),
    d = f.local('i32'),
    tile = f.local('i32');
  // Offsets of a tile's destination rows: j·ds for j < T.
  const dj = Array.from({ length: T }, () => f.local('i32'));
  dj.forEach((l, j) => f.get(DS).i32(j).mul().set(l));
  const move = (srcOff: number, dstLocal: number | null): void => {
    // Stack: destination address, then the element loaded from s + srcOff.
    f.get(d);
    if (dstLocal !== null) f.get(dstLocal).add();
    f.get(s);
    if (e === 4)
      f.op(0x28, 2, srcOff).op(0x36, 2, 0); // i32.load, i32.store: bits unchanged
    else if (e === 8)
      f.op(0x2b, 3, srcOff).op(0x39, 3, 0); // f64.load, f64.store: bits unchanged
    else f.v128Load(srcOff).v128Store(0);
  };
  /** Rows r = 0 … R−1 of columns [c0, c0 + width): s and d walk a row and a column at a time. */
  const rows = (width: number): void => {
    f.get(SRC).get(c0).i32(e).mul().add().set(s);
    f.get(DST).get(c0).get(DS).mul().add().set(d);
    f.i32(0).set(r);
    f.block().loop();
    f.get(r).get(R).op(0x4f /* i32.ge_u */).brIf(1);
    for (let j = 0; j < width; j++) move(j * e, j === 0 ? null : dj[j]!);
    f.get(s).get(SS).add().set(s);
    f.get(d).i32(e).add().set(d);
    f.get(r).i32(1).add().set(r);
    f.br(0).end().end();
  };
  // Whole tiles, then the last columns one at a time.
  f.get(C).i32(T).op(0x6e /* i32.div_u */).i32(T).mul().set(tile);
  f.i32(0).set(c0);
  f.block().loop();
  f.get(c0).get(tile).op(0x4f).brIf(1);
  rows(T);
  f.get(c0).i32(T).add().set(c0);
  f.br(0).end().end();
  f.block().loop();
  f.get(c0).get(C).op(0x4f).brIf(1);
  rows(1);
  f.get(c0).i32(1).add().set(c0);
  f.br(0).end().end();
  return f;
}

/**
 * t4, t8n and t16 walk 8 destination rows at a time (32- and 64-byte tiles): at power-of-two row pitches more rows map
 * to one L1 set than it has ways, and 16 or 32 streams there ran 3–4× slower (1024 × 1024 f32).
 */
/** `shared`: the module imports a shared memory of at most `maxPages` (a shared import must declare its maximum). */
export function generateTransposeModule(shared = false, maxPages = 1): Uint8Array {
  const t4 = transposeBody(4, 32),
    t8 = transposeBody(8),
    t8n = transposeBody(8, 64),
    t16 = transposeBody(16);
  return assembleModule(
    [
      { params: t4.params.slice(), body: t4, export: 't4' },
      { params: t8.params.slice(), body: t8, export: 't8' },
      { params: t8n.params.slice(), body: t8n, export: 't8n' },
      { params: t16.params.slice(), body: t16, export: 't16' },
    ],
    { initialPages: 1, maxPages, shared },
  );
}
