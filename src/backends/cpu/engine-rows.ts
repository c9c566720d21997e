/**
 * Row operations of the CPU engine that the thread pool can split: real FFTs and DCT-II over contiguous
 * rows, as the one-shot functions run them along the last axis. The calling thread and the workers run
 * the same plans, so a split result is bit-identical to a single-threaded one.
 */
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import type { FftNorm } from '../../planner/fft-problem.js';
import { onCpuEngine } from './engine-scope.js';
import { planCpuRfft } from './fft-real.js';
import { dct2Kernel } from './r2r-dct.js';

type AnyArray = Float32Array | Float64Array;

/** rfft: n reals → n/2+1 complex; irfft: the reverse; dct2: n reals → n reals (unnormalised). */
export interface RowOp {
  kind: 'rfft' | 'irfft' | 'dct2';
  n: number;
  precision: CpuPrecision;
  norm?: FftNorm;
}

/** Values per row on each side, [input, output]. */
export function rowLengths(op: RowOp): [number, number] {
  const half = 2 * (Math.floor(op.n / 2) + 1);
  return op.kind === 'rfft' ? [op.n, half] : op.kind === 'irfft' ? [half, op.n] : [op.n, op.n];
}

/** Runs `count` contiguous rows of src into dst on the calling thread. */
export function runRows(op: RowOp, src: AnyArray, dst: AnyArray, count: number): void {
  onCpuEngine(op.precision, () => {
    if (op.kind === 'dct2') dct2Kernel(op.n)(src as Float64Array, dst as Float64Array, count);
    else if (op.kind === 'rfft') planCpuRfft(op.n).forward(src, dst, { batch: count, norm: op.norm });
    else planCpuRfft(op.n).inverse(src, dst, { batch: count, norm: op.norm });
  });
}
