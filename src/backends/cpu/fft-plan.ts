/**
 * The CPU FFT planner: picks mixed radix or Bluestein for a length and returns the executable plan,
 * whose `recipe` is the plain-data description of the choice (as RustFFT's Recipe). Plans are cached
 * per (n, threshold) so repeated calls cost a Map lookup.
 */
import { BluesteinFft } from './fft-bluestein.js';
import { checkLength, planMixedRadix, type CpuFftPlan } from './fft-mixed-radix.js';
import { primeFactors } from '../../core/integers.js';
import { cpuEnginePrecision } from './engine-scope.js';
import { engineFft } from './wasm-fft.js';

export {
  type CpuFftPlan,
  type CpuFftRecipe,
  type CpuFftExecOptions,
  type Norm,
  type StridedLayout,
} from './fft-mixed-radix.js';

export interface CpuPlanOptions {
  /**
   * Largest prime factor that the mixed-radix path handles with its generic O(p²) butterfly; lengths
   * with a larger prime factor go through Bluestein. Default 16 (so 11 and 13 run generic butterflies,
   * 17 and up Bluestein, whose inner FFT is ~4× longer but all radix 2/3/4/8).
   */
  bluesteinThreshold?: number;
}

export const DEFAULT_BLUESTEIN_THRESHOLD = 16;

const cache = new Map<string, CpuFftPlan>();

export function planCpuFft(n: number, options: CpuPlanOptions = {}): CpuFftPlan {
  checkLength(n);
  const engine = cpuEnginePrecision();
  if (engine && options.bluesteinThreshold === undefined) return engineFft(n, engine) as CpuFftPlan;
  const threshold = options.bluesteinThreshold ?? DEFAULT_BLUESTEIN_THRESHOLD;
  checkLength(threshold, 'bluesteinThreshold', 2);
  const key = `${n}/${threshold}`;
  let plan = cache.get(key);
  if (!plan) {
    const largest = n === 1 ? 1 : primeFactors(n).at(-1)!;
    plan = largest > threshold ? new BluesteinFft(n) : planMixedRadix(n);
    cache.set(key, plan);
  }
  return plan;
}
