/**
 * WebAssembly module that moves rows between a padded matrix and packed rows in place, over a memory it imports
 * (the 2-D engine's), rows of `rowBytes` (a multiple of 8):
 *
 *   compact(src, dst, rows, ss, ds):  rows from src (ss bytes apart) to dst (ds apart), each front to back
 *   expand(src, dst, rows, ss, ds):   the same, each row back to front
 *
 * Compacting (dst ≤ src, rows in increasing order, ss ≥ ds) front to back, and expanding (from the last row, negative
 * strides) back to front, a row only overwrites bytes already read. One call per matrix instead of a typed-array
 * copy per row, whose cost dominates short rows.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';

function moveRowsFunction(rowBytes: number, backwards: boolean): WasmFunction {
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const [src, dst, rows, ss, ds] = [0, 1, 2, 3, 4];
  const [s, d, k] = [b.local('i32'), b.local('i32'), b.local('i32')];
  const vecs = Math.floor(rowBytes / 16);
  // The 8-byte tail (the highest bytes) last going forwards, first going backwards; 8-byte reads stay in the row.
  const tail = (): void => {
    if (rowBytes % 16 === 8)
      b.get(dst)
        .get(src)
        .load64Zero(16 * vecs)
        .store64Lane(16 * vecs, 0);
  };
  const step = backwards ? -16 : 16;
  b.loop();
  if (backwards) tail();
  if (vecs > 0) {
    // Backwards from the last vector.
    const first = backwards ? 16 * (vecs - 1) : 0;
    b.get(src);
    if (first) b.i32(first).add();
    b.set(s).get(dst);
    if (first) b.i32(first).add();
    b.set(d);
    b.i32(vecs).set(k);
    b.loop();
    b.get(d).get(s).v128Load(0).v128Store(0);
    b.get(s).i32(step).add().set(s);
    b.get(d).i32(step).add().set(d);
    b.get(k).i32(1).sub().tee(k).brIf(0);
    b.end();
  }
  if (!backwards) tail();
  b.get(src).get(ss).add().set(src);
  b.get(dst).get(ds).add().set(dst);
  b.get(rows).i32(1).sub().tee(rows).brIf(0);
  b.end();
  return { params, body: b, export: backwards ? 'expand' : 'compact' };
}

export function generateRowsCopyModule(rowBytes: number, shared: boolean): Uint8Array {
  if (rowBytes % 8 !== 0) throw new Error(`rows copy: rows of ${rowBytes} bytes, not a multiple of 8`);
  return assembleModule([moveRowsFunction(rowBytes, false), moveRowsFunction(rowBytes, true)], {
    initialPages: 1,
    maxPages: 65536,
    shared,
  });
}
