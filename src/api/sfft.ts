/**
 * Sparse FFT: the k largest frequencies of a length-2^m signal, without a dense FFT.
 *
 *   const r = await sfft(x, k);            // x: interleaved complex (length 2n) or, with real: true, n reals
 *   r.frequencies  // Uint32Array, ascending (real input: within [0, n/2])
 *   r.values       // Float64Array, interleaved complex, same scaling as fft(x)[f]
 *   r.status       // 'ok' | 'not-sparse' | 'k-too-large' | 'incomplete' — read it (see SfftStatus)
 *
 * Two algorithms (src/planner/sfft.ts has the parameter rules, src/backends/cpu/sfft.ts the steps):
 *  - exact (sFFT 3.0 style): for signals with at most k non-zero frequencies; O(k log n) samples.
 *  - robust (sFFT 1.0): for noisy signals; O(√(n k log n)·log n) samples; its candidates are refined by
 *    subtracting the leading ones and re-estimating (src/backends/cpu/sfft-refine.ts).
 * mode 'auto' (default) runs the exact path, checks it, and runs the robust path when the signal is not
 * exactly sparse. Every result is checked by a verification hashing with a fresh random permutation: the
 * fraction of the signal's energy the returned coefficients leave unexplained (`residualFraction`), and
 * the largest single unexplained component above the noise floor (`largestResidual`).
 */
import { ArgumentError } from '../errors.js';
import { checkOptionNames, SFFT_OPTIONS, SFFT_PLAN_OPTIONS } from './options.js';
import { checkBackend, fallsBack, gpuFor } from './backend.js';
import type { GpuContext } from '../backends/webgpu/device.js';
import { planCpuFft } from '../backends/cpu/fft-plan.js';
import { onCpuEngine } from '../backends/cpu/engine-scope.js';
import {
  exactSfftCpu,
  residualCpu,
  type SfftResidual,
  robustSfftCpu,
  topK,
  type SfftCoefficients,
  type SfftPathResult,
  type SignalArray,
} from '../backends/cpu/sfft.js';
import { planSfft, sfftSamples, type SfftMode, type SfftParamOverrides, type SfftRecipe } from '../planner/sfft.js';
import { buildSfftFilter } from '../backends/cpu/sfft-filter.js';
import { WebGpuSfft } from '../backends/webgpu/sfft.js';

export { sparseSignal, type SparseSignal, type SparseSignalOptions } from '../backends/cpu/sfft-signal.js';
export type { SfftRecipe, SfftParamOverrides, SfftMode } from '../planner/sfft.js';

/**
 * - 'ok': the returned coefficients explain the signal: residualFraction ≤ maxResidual (robust), or
 *   ≤ exactResidual when the exact path produced the result; and the verification hashing shows no single
 *   unexplained component above the noise floor worth more than maxMissed (default 1e-4) of the signal's
 *   energy (`largestResidual`): a missed or misestimated frequency of that size is reported unless the
 *   noise hides it (one verification bucket holds ~n/B bins of noise; 30 × that floor is needed to stand
 *   out). Smaller misses, and misses hidden by the noise floor, cannot be detected.
 * - 'not-sparse': more than maxResidual of the energy lies outside the returned k coefficients (the
 *   signal is not k-sparse, or too noisy), or one unexplained component exceeds maxMissed (a frequency was
 *   missed or misestimated, or the signal has more than k significant frequencies); with mode 'exact',
 *   the signal was not exactly k-sparse. The coefficients are still the algorithm's best estimates, but do
 *   not trust them as "the spectrum".
 * - 'k-too-large': k is too large for n for the sparse algorithm (see `message`); with fallback 'dense'
 *   (default) the result comes from a dense FFT (algorithm 'dense'), else it is empty.
 * - 'incomplete': a fixed-size GPU list overflowed; some frequencies may be missing.
 */
export type SfftStatus = 'ok' | 'not-sparse' | 'k-too-large' | 'incomplete';

export interface SfftOptions extends SfftParamOverrides {
  backend?: 'auto' | 'webgpu' | 'cpu';
  gpu?: GpuContext;
  /** 'auto' (default): exact, then robust if the exact result does not explain the signal. */
  mode?: 'auto' | SfftMode;
  /** x holds n real samples (else n interleaved complex ones). */
  real?: boolean;
  /** Seed of the random permutations (default 1). */
  seed?: number;
  /** What to do when k is too large for n: 'dense' (default) computes a dense FFT; 'none' returns nothing. */
  fallback?: 'dense' | 'none';
  /** Largest residual energy fraction reported as 'ok' (default 0.5). */
  maxResidual?: number;
  /** Largest residual energy fraction for which the exact path's result is accepted (default 1e-6). */
  exactResidual?: number;
  /** Largest energy fraction of one unexplained component (above the noise floor) reported as 'ok' (default 1e-4). */
  maxMissed?: number;
}

export interface SfftDiagnostics {
  /** Estimated fraction of the signal's energy not explained by the returned coefficients. */
  residualFraction: number;
  /**
   * Energy fraction of the largest residual bucket of the verification hashing, above the noise floor: the
   * size of the largest missed or misestimated component (≈ 0 when nothing was missed). NaN for 'dense'.
   */
  largestResidual: number;
  /** Residual fraction of the exact path's result when mode 'auto' went on to the robust path. */
  exactResidualFraction: number | null;
  /** Located (robust) or decoded (exact) entries before the top-k cut. */
  candidates: number;
  overflow: boolean;
  /** Signal samples read by the sparse algorithm (vs n for a dense FFT). */
  samples: number;
}

export interface SfftResult {
  n: number;
  k: number;
  frequencies: Uint32Array;
  values: Float64Array;
  status: SfftStatus;
  message: string;
  algorithm: 'exact' | 'robust' | 'dense';
  backend: 'webgpu' | 'cpu';
  diagnostics: SfftDiagnostics;
  recipe: SfftRecipe;
  /** Wall time of the transform (plan creation excluded), ms. */
  ms: number;
}

export interface SfftPlanOptions extends SfftOptions {
  n: number;
  k: number;
}

/** A sparse FFT plan: filters, permutations and (WebGPU) pipelines and buffers made once. */
export interface SfftPlan {
  readonly backend: 'webgpu' | 'cpu';
  readonly recipe: SfftRecipe;
  /** Runs on a host array (interleaved complex, or reals when planned with real: true). */
  execute(x: SignalArray): Promise<SfftResult>;
  /** WebGPU only: runs on a device buffer of f32 data (complex interleaved, or reals); nothing is read back but the result. */
  executeGpu(x: GPUBuffer): Promise<SfftResult>;
  /** WebGPU only: the GPU executor, for benchmarks that encode the kernels themselves. */
  readonly gpu: WebGpuSfft | null;
  destroy(): void;
}

function resolveOptions(o: SfftOptions) {
  const maxResidual = o.maxResidual ?? 0.5;
  const exactResidual = o.exactResidual ?? 1e-6;
  if (!(maxResidual > 0 && maxResidual <= 1)) throw new ArgumentError('maxResidual', maxResidual, 'a number in (0, 1]');
  if (!(exactResidual > 0 && exactResidual <= 1))
    throw new ArgumentError('exactResidual', exactResidual, 'a number in (0, 1]');
  const maxMissed = o.maxMissed ?? 1e-4;
  if (!(maxMissed > 0 && maxMissed <= 1)) throw new ArgumentError('maxMissed', maxMissed, 'a number in (0, 1]');
  const fallback = o.fallback ?? 'dense';
  if (fallback !== 'dense' && fallback !== 'none') throw new ArgumentError('fallback', fallback, "'dense' or 'none'");
  return { maxResidual, exactResidual, maxMissed, fallback, mode: o.mode ?? 'auto' };
}

/** Backend-specific steps; the policy (auto mode, checks, status) is shared in runPolicy. */
interface Runner {
  exact(): Promise<SfftPathResult>;
  robust(): Promise<SfftPathResult>;
  residual(path: SfftMode, c: SfftCoefficients): Promise<SfftResidual>;
  dense(): Promise<SfftCoefficients>;
}

async function runPolicy(
  recipe: SfftRecipe,
  o: SfftOptions,
  userK: number,
  backend: 'webgpu' | 'cpu',
  run: Runner,
): Promise<SfftResult> {
  const { maxResidual, exactResidual, maxMissed, fallback, mode } = resolveOptions(o);
  const t0 = performance.now();
  const { n } = recipe;
  const base = { n, k: userK, backend, recipe };
  if (!recipe.feasible) {
    const message =
      `k = ${userK} is too large for n = ${n}: ${recipe.reason}. ` +
      (fallback === 'dense' ? 'Computed with a dense FFT instead.' : 'Nothing computed (fallback: none).');
    const coeffs =
      fallback === 'dense' ? await run.dense() : { frequencies: new Uint32Array(0), values: new Float64Array(0) };
    const out = finish(recipe, coeffs, userK);
    return {
      ...base,
      ...out,
      status: 'k-too-large',
      message,
      algorithm: 'dense',
      diagnostics: {
        residualFraction: fallback === 'dense' ? NaN : 1,
        largestResidual: fallback === 'dense' ? NaN : 1,
        exactResidualFraction: null,
        candidates: 0,
        overflow: false,
        samples: fallback === 'dense' ? n : 0,
      },
      ms: performance.now() - t0,
    };
  }
  let exactResidualFraction: number | null = null;
  let result: SfftPathResult | null = null;
  let algorithm: SfftMode = 'exact';
  let fraction = 1;
  let check: SfftResidual = { before: 0, after: 0, peak: 0, median: 0 };
  let samples = 0;
  if (mode !== 'robust') {
    result = await run.exact();
    check = await run.residual('exact', result);
    fraction = ratio(check);
    samples += sfftSamples(recipe, 'exact');
    if (mode === 'auto' && !(fraction <= exactResidual)) {
      exactResidualFraction = fraction;
      result = null;
    }
  }
  if (!result) {
    algorithm = 'robust';
    result = await run.robust();
    check = await run.residual('robust', result);
    fraction = ratio(check);
    samples += sfftSamples(recipe, 'robust');
  }
  const limit = algorithm === 'exact' && mode === 'exact' ? exactResidual : maxResidual;
  const missed = largestMissed(recipe, algorithm, check);
  let status: SfftStatus = fraction <= limit && !(missed.significant && missed.bound > maxMissed) ? 'ok' : 'not-sparse';
  const pct = (v: number) => (100 * v).toPrecision(3);
  let message: string;
  if (status === 'ok') {
    message = `${algorithm} path: the ${result.frequencies.length} coefficients leave ${pct(fraction)}% of the energy unexplained`;
  } else if (fraction <= limit) {
    message =
      `one component worth about ${pct(missed.fraction)}% of the energy (up to ${pct(missed.bound)}%) is left unexplained ` +
      `(limit ${100 * maxMissed}%): a frequency was missed or misestimated, or the signal has more than ${userK} significant ` +
      `frequencies (${algorithm} path)`;
  } else if (algorithm === 'exact') {
    message = `the signal is not exactly ${userK}-sparse: ${pct(fraction)}% of its energy is unexplained (exact path; use mode 'robust' or 'auto')`;
  } else {
    message = `the signal is not ${userK}-sparse: ${pct(fraction)}% of its energy lies outside the ${userK} returned coefficients (limit ${100 * limit}%)`;
  }
  if (result.overflow) {
    status = 'incomplete';
    message = `a GPU list overflowed (${result.candidates} candidates): some frequencies may be missing; ${message}`;
  }
  const out = finish(recipe, result, userK);
  return {
    ...base,
    ...out,
    status,
    message,
    algorithm,
    diagnostics: {
      residualFraction: fraction,
      largestResidual: missed.fraction,
      exactResidualFraction,
      candidates: result.candidates,
      overflow: result.overflow,
      samples,
    },
    ms: performance.now() - t0,
  };
}

/**
 * The largest residual bucket of the verification hashing, above the noise floor, as a fraction of the
 * signal's energy. A bucket of noise alone has exponentially distributed energy with mean floor =
 * median/ln 2, so a peak above 30·floor (by chance: probability ≤ B·e^{−30} ≈ 1e-7 for B = 2^20) is a
 * real unexplained component. The signal's energy is before/gain: every frequency reaches Σ_d H(d)²/(n/B)
 * buckets' worth of energy on average. `bound` is what the component may be worth at most: the bucket's
 * noise may have cancelled part of it (3 standard deviations of the noise along it), and its home bucket
 * may hold as little as min H(d)² of it (the exact path's filter: 1/4 at a bucket's edge).
 */
function largestMissed(
  recipe: SfftRecipe,
  path: SfftMode,
  r: SfftResidual,
): { fraction: number; bound: number; significant: boolean } {
  const spec = path === 'exact' ? recipe.exact!.filter : recipe.robust!.filterEst;
  const filt = buildSfftFilter(spec);
  const width = spec.n / spec.B;
  let gain = 0;
  for (let i = 0; i < filt.freq.length; i++) gain += filt.freq[i] ** 2;
  gain /= width;
  let capture = 1;
  for (let d = -Math.floor(width / 2); d <= width / 2; d++) capture = Math.min(capture, filt.freq[d + filt.D] ** 2);
  const floor = r.median / Math.LN2;
  const signal = r.before / gain;
  if (!(signal > 0)) return { fraction: 0, bound: 0, significant: false };
  const bound = (Math.sqrt(r.peak) + 3 * Math.sqrt(floor / 2)) ** 2 / capture;
  return { fraction: Math.max(0, r.peak - floor) / signal, bound: bound / signal, significant: r.peak > 30 * floor };
}

const ratio = (r: { before: number; after: number }) =>
  r.before > 0 ? r.after / r.before : r.after > 0 ? Infinity : 0;

/**
 * Final form: real signals keep f ∈ [0, n/2], combining the estimates of f and n − f (X_{n−f} = conj X_f);
 * the k largest, sorted by frequency.
 */
function finish(recipe: SfftRecipe, c: SfftCoefficients, userK: number): SfftCoefficients {
  let { frequencies, values } = c;
  const { n } = recipe;
  if (recipe.real) {
    const acc = new Map<number, [number, number, number]>();
    for (let i = 0; i < frequencies.length; i++) {
      const f = frequencies[i];
      const mirrored = f > n / 2;
      const key = mirrored ? n - f : f;
      const re = values[2 * i];
      const im = mirrored ? -values[2 * i + 1] : values[2 * i + 1];
      const v = acc.get(key);
      if (v) {
        v[0] += re;
        v[1] += im;
        v[2]++;
      } else acc.set(key, [re, im, 1]);
    }
    frequencies = Uint32Array.from(acc.keys());
    values = Float64Array.from([...acc.values()].flatMap(([re, im, m]) => [re / m, im / m]));
  }
  const top = topK(frequencies, values, userK);
  const order = Array.from(top.frequencies.keys()).sort((a, b) => top.frequencies[a] - top.frequencies[b]);
  return {
    frequencies: Uint32Array.from(order, (i) => top.frequencies[i]),
    values: Float64Array.from(order.flatMap((i) => [top.values[2 * i], top.values[2 * i + 1]])),
  };
}

function denseTopK(spectrum: ArrayLike<number>, n: number, k: number): SfftCoefficients {
  // Select by magnitude without sorting all n: a cutoff from a sorted copy of the magnitudes is O(n log n)
  // anyway; n ≤ 2^27 on this path only when k is huge, so keep it simple.
  const mags = new Float64Array(n);
  for (let f = 0; f < n; f++) mags[f] = spectrum[2 * f] ** 2 + spectrum[2 * f + 1] ** 2;
  const cutoff = Float64Array.from(mags).sort()[Math.max(0, n - k)];
  const fs: number[] = [];
  for (let f = 0; f < n && fs.length < k; f++) if (mags[f] >= cutoff) fs.push(f);
  return {
    frequencies: Uint32Array.from(fs),
    values: Float64Array.from(fs.flatMap((f) => [spectrum[2 * f], spectrum[2 * f + 1]])),
  };
}

function cpuDense(x: SignalArray, recipe: SfftRecipe): SfftCoefficients {
  const { n } = recipe;
  const input = new Float64Array(2 * n);
  if (recipe.real) for (let i = 0; i < n; i++) input[2 * i] = x[i];
  else input.set(x.subarray(0, 2 * n));
  const out = new Float64Array(2 * n);
  planCpuFft(n).execute(input, out);
  return denseTopK(out, n, recipe.k);
}

class CpuSfftPlan implements SfftPlan {
  readonly backend = 'cpu' as const;
  readonly gpu = null;
  constructor(
    readonly recipe: SfftRecipe,
    private readonly options: SfftOptions,
    private readonly userK: number,
  ) {}
  async execute(x: SignalArray): Promise<SfftResult> {
    checkSignal(x, this.recipe);
    const r = this.recipe;
    return runPolicy(r, this.options, this.userK, 'cpu', {
      // The dense steps (bucket FFTs, the dense fallback) run on the CPU engine in float64.
      exact: async () => onCpuEngine('f64', () => exactSfftCpu(x, r)),
      robust: async () => onCpuEngine('f64', () => robustSfftCpu(x, r)),
      residual: async (path, c) => onCpuEngine('f64', () => residualCpu(x, r, path, c)),
      dense: async () => onCpuEngine('f64', () => cpuDense(x, r)),
    });
  }
  async executeGpu(): Promise<SfftResult> {
    throw new ArgumentError('backend', 'cpu', "a plan created with backend 'webgpu' for executeGpu");
  }
  destroy(): void {}
}

class GpuSfftPlan implements SfftPlan {
  readonly backend = 'webgpu' as const;
  constructor(
    readonly recipe: SfftRecipe,
    private readonly options: SfftOptions,
    private readonly userK: number,
    readonly gpu: WebGpuSfft,
  ) {}
  async execute(x: SignalArray): Promise<SfftResult> {
    checkSignal(x, this.recipe);
    const buf = this.gpu.upload(x);
    try {
      return await this.executeGpu(buf);
    } finally {
      buf.destroy();
    }
  }
  executeGpu(x: GPUBuffer): Promise<SfftResult> {
    const g = this.gpu;
    return runPolicy(this.recipe, this.options, this.userK, 'webgpu', {
      exact: () => g.runExact(x),
      robust: () => g.runRobust(x),
      residual: (path, c) => g.residual(x, path, c),
      dense: () => g.dense(x).then((s) => denseTopK(s, this.recipe.n, this.recipe.k)),
    });
  }
  destroy(): void {
    this.gpu.destroy();
  }
}

function checkSignal(x: unknown, r: SfftRecipe): asserts x is SignalArray {
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array)) {
    throw new ArgumentError('x', x, 'a Float32Array or Float64Array');
  }
  const need = r.real ? r.n : 2 * r.n;
  if (x.length !== need)
    throw new ArgumentError(
      'x',
      x,
      `${need} values (${r.n} ${r.real ? 'real samples' : 'complex samples, interleaved'})`,
    );
}

/** Plans a sparse FFT of length n (a power of two, 2^6 … 2^31) for k frequencies. */
export async function createSfftPlan(o: SfftPlanOptions): Promise<SfftPlan> {
  checkOptionNames(o, SFFT_PLAN_OPTIONS, 'createSfftPlan');
  resolveOptions(o);
  const recipe = planSfft({ ...o, n: o.n, k: o.k, real: o.real, mode: o.mode, seed: o.seed });
  const backend = checkBackend(o.backend ?? 'auto');
  const ctx = await gpuFor(backend, o.gpu);
  if (!ctx) return new CpuSfftPlan(recipe, o, o.k);
  try {
    return new GpuSfftPlan(recipe, o, o.k, await WebGpuSfft.create(ctx, recipe));
  } catch (e) {
    if (fallsBack(e, backend)) return new CpuSfftPlan(recipe, o, o.k);
    throw e;
  }
}

/**
 * One-shot sparse FFT. x: interleaved complex (length 2n) or, with `real: true`, n real samples; n must be
 * a power of two. Backend 'auto' uses WebGPU (f32) for Float32Array input when an adapter exists and the
 * CPU (float64) otherwise.
 */
export async function sfft(x: SignalArray, k: number, options: SfftOptions = {}): Promise<SfftResult> {
  checkOptionNames(options, SFFT_OPTIONS, 'sfft');
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array))
    throw new ArgumentError('x', x, 'a Float32Array or Float64Array');
  const n = options.real ? x.length : x.length / 2;
  if (!Number.isInteger(n)) throw new ArgumentError('x', x, 'an even number of values (interleaved complex)');
  const backend = options.backend ?? (x instanceof Float64Array ? 'cpu' : 'auto');
  const plan = await createSfftPlan({ ...options, backend, n, k });
  try {
    return await plan.execute(x);
  } finally {
    plan.destroy();
  }
}
