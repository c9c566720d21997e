/**
 * The option names each one-shot function takes. A name it does not take (a misspelling, or `axes` given to a 1-D
 * function) is refused, naming it, instead of being ignored: `fft(x, { shape: [2, 3], axes: [0] })` would otherwise
 * transform the last axis without a word.
 */
import { checkOptionNames } from '../util/option-names.js';
import type { FftPlanOptions } from './fft.js';
import type { SfftOptions } from './sfft.js';
import type { TridiagonalData, TridiagonalPlanDescriptor } from './tridiagonal.js';

export { checkOptionNames };

const COMMON = ['shape', 'norm', 'backend', 'gpu', 'threads', 'out'] as const;
export const FFT_1D_OPTIONS: readonly string[] = [...COMMON, 'n', 'axis'];
export const FFT_ND_OPTIONS: readonly string[] = [...COMMON, 's', 'axes'];
export const R2R_1D_OPTIONS: readonly string[] = [...FFT_1D_OPTIONS, 'type', 'orthogonalize'];
export const R2R_ND_OPTIONS: readonly string[] = [...FFT_ND_OPTIONS, 'type', 'orthogonalize'];
export const DHT_1D_OPTIONS: readonly string[] = FFT_1D_OPTIONS;
export const DHT_ND_OPTIONS: readonly string[] = FFT_ND_OPTIONS;

/** Every key of T, each `true`: a list written this way fails to compile when the interface gains or loses one. */
type AllKeys<T> = { [K in keyof Required<T>]: true };
const keysOf = <T>(all: AllKeys<T>): readonly string[] => Object.keys(all);

/** createFftPlan's options (FftPlanOptions). */
export const FFT_PLAN_OPTIONS = keysOf<FftPlanOptions>({
  n: true,
  batch: true,
  direction: true,
  norm: true,
  input: true,
  output: true,
  backend: true,
  precision: true,
  gpu: true,
  inPlace: true,
  tuning: true,
  threads: true,
});

/** createTridiagonalPlan's descriptor (TridiagonalPlanDescriptor), and the data a solve takes (TridiagonalData). */
export const TRIDIAGONAL_PLAN_OPTIONS = keysOf<TridiagonalPlanDescriptor>({
  n: true,
  batch: true,
  nrhs: true,
  layout: true,
  complex: true,
  dtype: true,
  backend: true,
  cyclic: true,
  cpuAlgorithm: true,
  gpu: true,
  onFailure: true,
  tuning: true,
  residualTolerance: true,
  threads: true,
  checkResidual: true,
});
export const TRIDIAGONAL_DATA = keysOf<TridiagonalData<Float64Array>>({
  lower: true,
  diag: true,
  upper: true,
  rhs: true,
  out: true,
});

/** sfft's options (SfftOptions, with the planner's overrides), and createSfftPlan's (with n and k). */
export const SFFT_OPTIONS = keysOf<SfftOptions>({
  backend: true,
  gpu: true,
  mode: true,
  real: true,
  seed: true,
  fallback: true,
  maxResidual: true,
  exactResidual: true,
  maxMissed: true,
  bLoc: true,
  bEst: true,
  bLocConst: true,
  bEstConst: true,
  kept: true,
  locLoops: true,
  votes: true,
  estLoops: true,
  tolLoc: true,
  tolEst: true,
  bExact: true,
  bExactConst: true,
  rounds: true,
  stages: true,
  tolExact: true,
  exactThreshold: true,
  singletonTolerance: true,
  gather: true,
});
export const SFFT_PLAN_OPTIONS: readonly string[] = [...SFFT_OPTIONS, 'n', 'k'];
