/**
 * The option names each one-shot function takes. A name it does not take (a misspelling, or `axes` given to a 1-D
 * function) is refused, naming it, instead of being ignored: `fft(x, { shape: [2, 3], axes: [0] })` would otherwise
 * transform the last axis without a word.
 */
import { checkOptionNames } from '../util/option-names.js';

export { checkOptionNames };

const COMMON = ['shape', 'norm', 'backend', 'gpu', 'threads', 'out'] as const;
export const FFT_1D_OPTIONS: readonly string[] = [...COMMON, 'n', 'axis'];
export const FFT_ND_OPTIONS: readonly string[] = [...COMMON, 's', 'axes'];
export const R2R_1D_OPTIONS: readonly string[] = [...FFT_1D_OPTIONS, 'type', 'orthogonalize'];
export const R2R_ND_OPTIONS: readonly string[] = [...FFT_ND_OPTIONS, 'type', 'orthogonalize'];
export const DHT_1D_OPTIONS: readonly string[] = FFT_1D_OPTIONS;
export const DHT_ND_OPTIONS: readonly string[] = FFT_ND_OPTIONS;

/** createFftPlan's options (FftPlanOptions). */
export const FFT_PLAN_OPTIONS: readonly string[] = [
  'n',
  'batch',
  'direction',
  'norm',
  'input',
  'output',
  'backend',
  'precision',
  'gpu',
  'inPlace',
  'tuning',
  'threads',
];

/** createTridiagonalPlan's descriptor (TridiagonalPlanDescriptor), and the data a solve takes (TridiagonalData). */
export const TRIDIAGONAL_PLAN_OPTIONS: readonly string[] = [
  'n',
  'batch',
  'nrhs',
  'layout',
  'complex',
  'dtype',
  'backend',
  'cyclic',
  'cpuAlgorithm',
  'gpu',
  'onFailure',
  'tuning',
  'residualTolerance',
  'threads',
  'checkResidual',
];
export const TRIDIAGONAL_DATA: readonly string[] = ['lower', 'diag', 'upper', 'rhs', 'out'];

/** sfft's options (SfftOptions, with the planner's overrides), and createSfftPlan's (with n and k). */
export const SFFT_OPTIONS: readonly string[] = [
  'backend',
  'gpu',
  'mode',
  'real',
  'seed',
  'fallback',
  'maxResidual',
  'exactResidual',
  'maxMissed',
  'bLoc',
  'bEst',
  'bLocConst',
  'bEstConst',
  'kept',
  'locLoops',
  'votes',
  'estLoops',
  'tolLoc',
  'tolEst',
  'bExact',
  'bExactConst',
  'rounds',
  'stages',
  'tolExact',
  'exactThreshold',
  'singletonTolerance',
  'gather',
];
export const SFFT_PLAN_OPTIONS: readonly string[] = [...SFFT_OPTIONS, 'n', 'k'];
