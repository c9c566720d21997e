/**
 * Row operations of the CPU engine that the thread pool can split: real FFTs, DCT and DST types I–IV and the
 * DHT over contiguous rows, as the one-shot functions run them along the last axis. The calling thread and the
 * workers run the same plans, so a split result is bit-identical to a single-threaded one.
 */
import type { CpuLaneRecipe, CpuPrecision, CpuRealRecipe } from '../../planner/cpu-fft.js';
import {
  memoPlan,
  planCpuEngineDct2,
  planCpuEngineType1,
  singleRealOf,
  singleRowsBelow,
} from '../../planner/cpu-fft.js';
import type { FftNorm } from '../../planner/fft-problem.js';
import { onCpuEngine } from './engine-scope.js';
import { planCpuRfft } from './fft-real.js';
import { tryFusedRealFft, type FusedDct2 } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;

/** The real-to-real row operations, all through the fused DCT module of their length (wasm-fft.ts FusedDct2). */
export type R2rRowKind = 'dct1' | 'dct2' | 'dct3' | 'dct4' | 'dst1' | 'dst2' | 'dst3' | 'dst4' | 'dht';

/**
 * rfft: n reals → n/2+1 complex; irfft: the reverse; the R2rRowKinds: n reals → n reals, unnormalised (scipy's
 * 'backward' forward transforms) times `scale`, with scipy's orthogonalize steps (types 2 and 3) when asked.
 */
export interface RowOp {
  kind: 'rfft' | 'irfft' | R2rRowKind;
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

export function isR2rRow(kind: RowOp['kind']): kind is R2rRowKind {
  return kind !== 'rfft' && kind !== 'irfft';
}

/**
 * The engine's fused module for rows of n (every type of DCT/DST: any n it fuses, odd n through the pairs module;
 * the DHT: even n; type I: the symmetric extension's module, see planCpuEngineType1), or null where there is none or
 * it could not be compiled synchronously (callers then take the general path).
 */
export function fusedR2rRows(kind: R2rRowKind, n: number, precision: CpuPrecision, rows?: number): FusedDct2 | null {
  const { recipe, single } = r2rRecipe(kind, n, precision);
  if (!recipe || (kind === 'dht' && !recipe.realPost)) return null;
  // Calls of a few rows of a lane-batch length: the same steps around its partial four-step, which fills the lanes.
  const few = rows !== undefined && rows < singleRowsBelow(recipe.lanes);
  return (few && single && tryFusedRealFft(single)) || tryFusedRealFft(recipe);
}

/**
 * The recipes of a row kind's module, whole and for a few rows, planned once per length (memoPlan: planning took
 * 5 µs, more than a small call's transform; the same recipe objects let fusedRealFft find its module at once).
 */
function r2rRecipe(kind: R2rRowKind, n: number, precision: CpuPrecision): R2rRecipes {
  const type1 = kind === 'dct1' || kind === 'dst1';
  return memoPlan(`r2r-rows/${type1 ? kind : 'dct2'}/${n}/${precision}`, () => {
    const recipe = type1 ? planCpuEngineType1(n, precision, kind === 'dst1') : planCpuEngineDct2(n, precision);
    return { recipe, single: recipe && singleRealOf(recipe) };
  });
}
interface R2rRecipes {
  recipe: CpuRealRecipe | null;
  single: CpuLaneRecipe | null;
}

function runR2rRows(op: RowOp & { kind: R2rRowKind }, src: AnyArray, dst: AnyArray, count: number): void {
  const fused = fusedR2rRows(op.kind, op.n, op.precision, count);
  if (!fused) throw new Error(`no fused ${op.kind} module for n = ${op.n}`);
  const scale = op.scale ?? 1;
  const orth = op.orthogonalize ?? false;
  const variant = op.kind.startsWith('dst') ? 'dst' : 'dct';
  if (op.kind === 'dht') fused.hartley(src, dst, count, scale);
  else if (op.kind.endsWith('1')) fused.forwardType1(src, dst, count, scale, orth, variant);
  else if (op.kind.endsWith('2')) fused.forwardDct2(src, dst, count, scale, orth, variant);
  else if (op.kind.endsWith('3')) fused.inverseDct2(src, dst, count, scale, orth, variant);
  else fused.forwardDct4(src, dst, count, scale, variant);
}

/** Runs `count` contiguous rows of src into dst on the calling thread. */
export function runRows(op: RowOp, src: AnyArray, dst: AnyArray, count: number): void {
  onCpuEngine(op.precision, () => {
    if (isR2rRow(op.kind)) runR2rRows({ ...op, kind: op.kind }, src, dst, count);
    else if (op.kind === 'rfft') planCpuRfft(op.n).forward(src, dst, { batch: count, norm: op.norm });
    else planCpuRfft(op.n).inverse(src, dst, { batch: count, norm: op.norm });
  });
}
