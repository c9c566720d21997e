/**
 * The largest magnitude of each row, for the pairs path (rfft-pairs.ts), whose two rows share one complex
 * transform and so its rounding: the backend scales a much smaller row up before pairing, and keeps a row holding
 * NaN or ±Inf out of its partner's transform (src/backends/cpu/wasm-fft.ts, balancePairs).
 *
 *   rowmax(x, len, rows, out): for each of `rows` rows of `len` values from x (packed), the lane-wise maximum of
 *     |x| as one vector at out (16 bytes a row; the row's maximum is that of its lanes, NaN where any value is).
 *
 * Needs len ≥ W; the last vector of a row overlaps the one before where W does not divide len.
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';

export function rowMaxFunction(e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const [x, len, rows, out] = [0, 1, 2, 3];
  const p = b.local('i32');
  const g = b.local('i32');
  const acc = b.local('v128');
  b.loop();
  // The row's last W values first (x + e·(len − W)), then every whole vector from its start.
  b.get(x).get(len).i32(W).sub().i32(e).mul().add().v128Load(0).fabs(e).set(acc);
  b.get(x).set(p);
  b.get(len).i32(W).op(0x6e).set(g); // i32.div_u
  b.loop();
  b.get(acc).get(p).v128Load(0).fabs(e).fmax(e).set(acc);
  b.get(p).i32(16).add().set(p);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  b.get(out).get(acc).v128Store(0);
  b.get(out).i32(16).add().set(out);
  b.get(x).get(len).i32(e).mul().add().set(x);
  b.get(rows).i32(1).sub().tee(rows).brIf(0);
  b.end();
  return { params, body: b, export: 'rowmax' };
}
