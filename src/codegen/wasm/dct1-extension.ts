/**
 * DCT-I and DST-I on the CPU engine by the symmetric extension (pocketfft's structure), around the fused real
 * FFT of length m = 2h in the same module (rfft-post.ts), W values a step:
 *
 *   DCT-I,  N = h + 1:  e = [x_0 … x_{N−1}, x_{N−2} … x_1]          y_k = Re Y_k        (k < N)
 *   DST-I,  N = h − 1:  e = [0, x_0 … x_{N−1}, 0, −x_{N−1} … −x_0]   y_k = −Im Y_{k+1}   (k < N)
 *
 *   dct1ext / dst1ext(x, e, count):  rows of N reals (packed N apart) → extended rows of m (packed m apart)
 *   dct1out / dst1out(Y, y, count):  half spectra (h + 1 complex a row) → rows of N reals
 *
 * Where W does not divide a run, its last group overlaps the one before (source and destination differ, so it
 * rewrites equal values): every run must hold at least W values (N − 2 ≥ W for the DCT-I's mirrored run).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { eachProblem, pointer, repeat, vectorWriter, type VectorWriter } from './vector-io.js';

/** `len` values from src+sOff (forwards, or backwards with the lanes reversed) to dst+dOff, negated if asked. */
function run(
  w: VectorWriter,
  e: 4 | 8,
  src: number,
  sOff: number,
  dst: number,
  dOff: number,
  len: number,
  backwards: boolean,
  negate: boolean,
): void {
  const { b } = w;
  const W = 16 / e;
  const group = (s: number, so: number, d: number, dO: number): void => {
    let x = w.load(s, so);
    if (backwards) x = w.reverse(x);
    b.get(d).get(x);
    if (negate) b.fneg(e);
    b.v128Store(dO);
  };
  // Backwards: dst_t = src_{last − t}, the source block of W ending at last − t.
  const sp = pointer(b, src, backwards ? sOff + e * (len - W) : sOff);
  const dp = pointer(b, dst, dOff);
  repeat(
    b,
    Math.floor(len / W),
    [
      [sp, backwards ? -16 : 16],
      [dp, 16],
    ],
    () => group(sp, 0, dp, 0),
  );
  if (len % W !== 0) group(src, backwards ? sOff : sOff + e * (len - W), dst, dOff + e * (len - W));
}

/** dct1ext (sine false, N = h + 1) or dst1ext (sine true, N = h − 1); the DST's zeros are written per row. */
export function symmetricExtensionFunction(m: number, e: 4 | 8, sine: boolean): WasmFunction {
  const h = m / 2;
  const N = sine ? h - 1 : h + 1;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [x, ext, count] = [0, 1, 2];
  // A zero at `at` (f32: and at the value after it, which the runs then write).
  const zero = (at: number): void => {
    b.get(ext)
      .vconst(e, new Array(16 / e).fill(0))
      .store64Lane(at, 0);
  };
  eachProblem(
    b,
    count,
    [
      [x, e * N],
      [ext, e * m],
    ],
    () => {
      if (sine) {
        // [0, x, 0, −x reversed]: the zeros first (as 64-bit lanes, f32: over a value the runs then write).
        zero(0);
        zero(e * (N + 1));
        run(w, e, x, 0, ext, e, N, false, false);
        run(w, e, x, 0, ext, e * (N + 2), N, true, true);
      } else {
        // [x, x_{N−2} … x_1]: the mirrored run is x_1 … x_{N−2} backwards.
        run(w, e, x, 0, ext, 0, N, false, false);
        run(w, e, x, e, ext, e * N, N - 2, true, false);
      }
    },
  );
  return { params, body: b, export: sine ? 'dst1ext' : 'dct1ext' };
}

/** dct1out (y_k = Re Y_k) or dst1out (y_k = −Im Y_{k+1}), k < N. */
export function symmetricOutputFunction(m: number, e: 4 | 8, sine: boolean): WasmFunction {
  const h = m / 2;
  const N = sine ? h - 1 : h + 1;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const w = vectorWriter(e, params);
  const { b } = w;
  const [spec, y, count] = [0, 1, 2];
  const first = sine ? cb : 0;
  const group = (s: number, sOff: number, d: number, dOff: number): void => {
    const [re, im] = w.loadComplex(s, sOff);
    b.get(d).get(sine ? im : re);
    if (sine) b.fneg(e);
    b.v128Store(dOff);
  };
  eachProblem(
    b,
    count,
    [
      [spec, cb * (h + 1)],
      [y, e * N],
    ],
    () => {
      const sp = pointer(b, spec, first);
      const dp = pointer(b, y);
      repeat(
        b,
        Math.floor(N / W),
        [
          [sp, cb * W],
          [dp, 16],
        ],
        () => group(sp, 0, dp, 0),
      );
      if (N % W !== 0) group(spec, first + cb * (N - W), y, e * (N - W));
    },
  );
  return { params, body: b, export: sine ? 'dst1out' : 'dct1out' };
}
