/**
 * The discrete Hartley transform's last step on the CPU engine, fused with the real FFT's post step (as
 * dct2r2c fuses the DCT-II's): from Z = FFT_h of a row of n = 2h reals read as complex, the n Hartley outputs
 *   H_k = Re Y_k − Im Y_k,  H_{n−k} = Re Y_k + Im Y_k  (k = 1 … h − 1),  H_0 = Y_0,  H_h = Y_h,
 * with Y the row's half spectrum (rfft-post.ts, the same operations so the same values), times `scale`.
 * H_{n−k} is written W values a step backwards (lanes reversed), as the DCT's second half.
 *
 *   dht(z, out, twR, count, scale): Z packed h apart, out packed n apart, twR = r2cTwiddles(n).
 */
import type { ValType, WasmFunction } from './assembler.js';
import { halfScale, r2cEdges, r2cGroups, type R2cStream } from './rfft-post.js';
import { eachProblem, term as T, vectorWriter } from './vector-io.js';

export function dhtPostFunction(n: number, e: 4 | 8): WasmFunction {
  const h = n / 2;
  const W = 16 / e;
  const cb = 2 * e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', e === 4 ? 'f32' : 'f64'];
  const w = vectorWriter(e, params);
  const { b, v } = w;
  const [z, out, twR, count, scale] = [0, 1, 2, 3, 4];
  const half = halfScale(w, e, scale);
  const s = v.fresh();
  eachProblem(
    b,
    count,
    [
      [z, cb * h],
      [out, e * n],
    ],
    () => {
      // H_0 and H_h (real), as 64-bit lanes before the groups, which rewrite H_1 and H_{h+1} (f32).
      r2cEdges(w, e, z, scale);
      b.set(s);
      b.get(out).get(s).store64Lane(0, 0);
      b.get(out)
        .get(s)
        .store64Lane(e * h, 1);
      const streams: R2cStream[] = [
        [out, e, e],
        [out, e * (n - W), -e],
      ];
      r2cGroups(w, e, h, half, z, twR, streams, (re, im, [[ok, offF], [or, offO]]) => {
        b.get(ok!)
          .get(w.materialise(v.sub(T(re), T(im))))
          .v128Store(offF!);
        b.get(or!)
          .get(w.reverse(w.materialise(v.add(T(re), T(im)))))
          .v128Store(offO!);
      });
    },
  );
  return { params, body: b, export: 'dht' };
}
