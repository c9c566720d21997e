/**
 * Row operations of the CPU engine that the thread pool can split: real FFTs, DCT-II and DCT-III over
 * contiguous rows, as the one-shot functions run them along the last axis. The calling thread and the
 * workers run the same plans, so a split result is bit-identical to a single-threaded one.
 */
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import { planCpuEngineDct2 } from '../../planner/cpu-fft.js';
import type { FftNorm } from '../../planner/fft-problem.js';
import { onCpuEngine } from './engine-scope.js';
import { planCpuRfft } from './fft-real.js';
import { tryFusedRealFft, type FusedDct2 } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;

/**
 * rfft: n reals → n/2+1 complex; irfft: the reverse; dct2 / dct3: n reals → n reals, unnormalised
 * (scipy's 'backward' DCT-II and DCT-III) times `scale`, with scipy's orthogonalize steps when asked.
 */
export interface RowOp {
  kind: 'rfft' | 'irfft' | 'dct2' | 'dct3';
  n: number;
  precision: CpuPrecision;
  norm?: FftNorm;
  scale?: number;
  orthogonalize?: boolean;
}

/** Values per row on each side, [input, output]. */
export function rowLengths(op: RowOp): [number, number] {
  const half = 2 * (Math.floor(op.n / 2) + 1);
  return op.kind === 'rfft' ? [op.n, half] : op.kind === 'irfft' ? [half, op.n] : [op.n, op.n];
}

/**
 * The engine's fused DCT module for rows of n (DCT-III: even n only), or null where there is none or it
 * could not be compiled synchronously (callers then take the general path).
 */
export function fusedDctRows(kind: 'dct2' | 'dct3', n: number, precision: CpuPrecision): FusedDct2 | null {
  const recipe = planCpuEngineDct2(n, precision);
  if (!recipe || (kind === 'dct3' && !recipe.realPost)) return null;
  return tryFusedRealFft(recipe);
}

/** Runs `count` contiguous rows of src into dst on the calling thread. */
export function runRows(op: RowOp, src: AnyArray, dst: AnyArray, count: number): void {
  onCpuEngine(op.precision, () => {
    if (op.kind === 'dct2' || op.kind === 'dct3') {
      const fused = fusedDctRows(op.kind, op.n, op.precision);
      if (!fused) throw new Error(`no fused ${op.kind} module for n = ${op.n}`);
      if (op.kind === 'dct2') fused.forwardDct2(src, dst, count, op.scale, op.orthogonalize);
      else fused.inverseDct2(src, dst, count, op.scale, op.orthogonalize);
    } else if (op.kind === 'rfft') planCpuRfft(op.n).forward(src, dst, { batch: count, norm: op.norm });
    else planCpuRfft(op.n).inverse(src, dst, { batch: count, norm: op.norm });
  });
}
