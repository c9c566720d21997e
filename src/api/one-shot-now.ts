/**
 * One-shot FFT calls that need nothing awaited: rows along the last axis, the CPU engine already chosen
 * (float64, backend 'cpu', or 'auto' settled on the CPU), its module compiled in place, and no worker taking a
 * share. They go straight to the engine as a plan's execute does; the general path (api/fft.ts `nd`) spent most
 * of a small call's time in its chain of awaits and N-D bookkeeping (n = 64: 2.2 µs against 0.3 µs).
 * Anything else, errors included, is left to the general path, which validates and reports it.
 */
import type { FftNorm } from '../planner/fft-problem.js';
import type { FftCallOptions } from './fft.js';
import { autoSettledOnCpu } from './backend.js';
import { overlaps } from './out.js';
import { filledResult } from '../util/filled-result.js';
import { engineFft, engineFftReady, syncCompileRestricted } from '../backends/cpu/wasm-fft.js';
import { rowsRunOnCaller, runsOnCaller } from '../backends/cpu/worker-pool.js';
import { runRows, type RowOp } from '../backends/cpu/engine-rows.js';

type AnyArray = Float32Array | Float64Array;

/** The options of a call that the path reads (the FFTs' and, with others it checks itself, the r2r functions'). */
type NowOptions = Omit<FftCallOptions, 'out'> & { out?: AnyArray };

const stats = { taken: 0 };
let enabled = true;

/** Tests only: how many calls this path has computed. */
export function oneShotNowStats(): { taken: number } {
  return { ...stats };
}

/** Tests only: send every call to the general path (to compare the two). */
export function setOneShotNow(on: boolean): void {
  enabled = on;
}

/**
 * What a call along the last axis needs to run on the CPU engine at once, or undefined: its rows and their length
 * in elements (`per` values each: 2 complex, 1 real).
 */
export function engineNow(
  x: unknown,
  o: NowOptions,
  per: 1 | 2,
): { precision: 'f32' | 'f64'; norm: FftNorm; threads: number | undefined; rows: number; m: number } | undefined {
  if (!enabled || (!(x instanceof Float32Array) && !(x instanceof Float64Array))) return undefined;
  const count = x.length / per;
  let rows = 1;
  let m = count;
  const shape = o.shape;
  if (shape !== undefined) {
    if (!Array.isArray(shape) || shape.length === 0) return undefined;
    let product = 1;
    for (const d of shape) {
      if (!Number.isSafeInteger(d) || d < 1) return undefined;
      product *= d;
    }
    if (product !== count) return undefined;
    m = shape[shape.length - 1]!;
    rows = count / m;
  }
  const ndim = shape?.length ?? 1;
  if (o.axis !== undefined && o.axis !== -1 && o.axis !== ndim - 1) return undefined;
  const norm = o.norm ?? 'backward';
  if (norm !== 'backward' && norm !== 'ortho' && norm !== 'forward') return undefined;
  const threads = o.threads;
  if (threads !== undefined && !(Number.isSafeInteger(threads) && threads >= 1)) return undefined;
  const f32 = x instanceof Float32Array;
  const backend = o.backend ?? 'auto';
  if (backend !== 'auto' && backend !== 'cpu') return undefined;
  // 'auto' keeps float64 data on the CPU engine (api/fft.ts nd); float32 data only once 'auto' has settled there.
  if (f32 && !autoSettledOnCpu(backend, o.gpu)) return undefined;
  if (!Number.isSafeInteger(m) || m < 1) return undefined;
  return { precision: f32 ? 'f32' : 'f64', norm, threads, rows, m };
}

/** `rows` rows of `op` from x into `out` (or a fresh result of outLength values); undefined where workers would run. */
export function rowsNow(
  op: RowOp,
  x: AnyArray,
  rows: number,
  out: AnyArray | undefined,
  outLength: number,
  threads: number | undefined,
): AnyArray | undefined {
  if (out !== undefined && (out.constructor !== x.constructor || out.length !== outLength)) return undefined;
  // A browser's main thread compiles row modules ahead (the general path's precompileEngine).
  if (syncCompileRestricted() || !rowsRunOnCaller(op, rows, threads)) return undefined;
  const dst = out && !overlaps(out, x) ? out : resultLike(x, outLength);
  runRows(op, x, dst, rows);
  stats.taken++;
  if (out && dst !== out) out.set(dst);
  return out ?? dst;
}

const resultLike = (x: AnyArray, length: number): AnyArray =>
  filledResult(x instanceof Float32Array ? Float32Array : Float64Array, length);

/** The result of fft / ifft / rfft / irfft of `x` computed here, or undefined where the general path must run. */
export function fftNow(x: unknown, o: NowOptions, kind: 'c2c' | 'r2c' | 'c2r', inverse: boolean): AnyArray | undefined {
  const now = engineNow(x, o, kind === 'r2c' ? 1 : 2);
  if (!now) return undefined;
  const { precision, norm, threads, rows, m } = now;
  const v = x as AnyArray;
  if (kind === 'r2c') {
    if (o.n !== undefined && o.n !== m) return undefined;
    const op: RowOp = { kind: 'rfft', n: m, precision, norm };
    return rowsNow(op, v, rows, o.out, rows * 2 * (Math.floor(m / 2) + 1), threads);
  }
  if (kind === 'c2r') {
    const n = o.n ?? 2 * (m - 1);
    if (!Number.isSafeInteger(n) || n < 1 || m !== Math.floor(n / 2) + 1) return undefined;
    return rowsNow({ kind: 'irfft', n, precision, norm }, v, rows, o.out, rows * n, threads);
  }
  if (o.n !== undefined && o.n !== m) return undefined;
  const out = o.out;
  if (out !== undefined && (out.constructor !== v.constructor || out.length !== v.length)) return undefined;
  // A browser's main thread: only a plan compiled ahead by an earlier call (the general path's precompileEngine).
  if (!engineFftReady(m, precision) || !runsOnCaller(m, precision, rows, threads)) return undefined;
  const dst = out && !overlaps(out, v) ? out : resultLike(v, v.length);
  engineFft(m, precision).execute(v, dst, { batch: rows, inverse, norm });
  stats.taken++;
  if (out && dst !== out) out.set(dst);
  return out ?? dst;
}
