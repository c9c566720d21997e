/**
 * WebAssembly module that moves rows between a padded matrix and packed rows in place, over a memory it imports
 * (the 2-D engine's), for rows of `rowBytes` (a multiple of 8) `pitch` bytes apart in the padded matrix:
 *
 *   compact(base, rows):        row q from base + q·pitch to base + q·rowBytes, rows in increasing order
 *   expand(lastSrc, lastDst, rows):  the reverse, from the last row (at lastSrc, going to lastDst) down
 *
 * Moving forwards (compact) and backwards (expand), a row only overwrites bytes already read. A call per
 * matrix instead of a typed-array copy per row: 4096 rows of 33 complex values took a quarter of an rfftn of 64³.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';

function compactFunction(rowBytes: number, pitch: number): WasmFunction {
  const params: ValType[] = ['i32', 'i32'];
  const b = new Body(params);
  const [base, rows] = [0, 1];
  const [src, dst, s, d, k] = [b.local('i32'), b.local('i32'), b.local('i32'), b.local('i32'), b.local('i32')];
  const vecs = Math.floor(rowBytes / 16);
  b.get(base).set(src).get(base).set(dst);
  b.loop();
  b.get(src).set(s).get(dst).set(d);
  if (vecs > 0) {
    b.i32(vecs).set(k);
    b.loop();
    b.get(d).get(s).v128Load(0).v128Store(0);
    b.get(s).i32(16).add().set(s);
    b.get(d).i32(16).add().set(d);
    b.get(k).i32(1).sub().tee(k).brIf(0);
    b.end();
  }
  if (rowBytes % 16 === 8) b.get(d).get(s).load64Zero(0).store64Lane(0, 0);
  b.get(src).i32(pitch).add().set(src);
  b.get(dst).i32(rowBytes).add().set(dst);
  b.get(rows).i32(1).sub().tee(rows).brIf(0);
  b.end();
  return { params, body: b, export: 'compact' };
}

function expandFunction(rowBytes: number, pitch: number): WasmFunction {
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const b = new Body(params);
  const [src, dst, rows] = [0, 1, 2];
  const [s, d, k] = [b.local('i32'), b.local('i32'), b.local('i32')];
  const vecs = Math.floor(rowBytes / 16);
  b.loop();
  // The 8-byte tail first (the highest bytes), then the vectors from the last down.
  if (rowBytes % 16 === 8)
    b.get(dst)
      .get(src)
      .load64Zero(16 * vecs)
      .store64Lane(16 * vecs, 0);
  if (vecs > 0) {
    b.get(src)
      .i32(16 * (vecs - 1))
      .add()
      .set(s);
    b.get(dst)
      .i32(16 * (vecs - 1))
      .add()
      .set(d);
    b.i32(vecs).set(k);
    b.loop();
    b.get(d).get(s).v128Load(0).v128Store(0);
    b.get(s).i32(16).sub().set(s);
    b.get(d).i32(16).sub().set(d);
    b.get(k).i32(1).sub().tee(k).brIf(0);
    b.end();
  }
  b.get(src).i32(rowBytes).sub().set(src);
  b.get(dst).i32(pitch).sub().set(dst);
  b.get(rows).i32(1).sub().tee(rows).brIf(0);
  b.end();
  return { params, body: b, export: 'expand' };
}

export function generateRowsCopyModule(rowBytes: number, pitch: number, shared: boolean): Uint8Array {
  if (rowBytes % 8 !== 0 || rowBytes > pitch) throw new Error(`rows copy: rows of ${rowBytes} bytes, ${pitch} apart`);
  return assembleModule([compactFunction(rowBytes, pitch), expandFunction(rowBytes, pitch)], {
    initialPages: 1,
    maxPages: 65536,
    shared,
  });
}
