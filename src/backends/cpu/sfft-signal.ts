/**
 * Test signals for the sparse FFT: k random frequencies with random magnitudes and phases, optionally
 * real (Hermitian spectrum) and with white Gaussian noise at a given SNR. Built in float64 with one
 * inverse FFT, so fft(x) reproduces the chosen coefficients (plus the noise's spectrum).
 */
import { ArgumentError } from '../../errors.js';
import { planCpuFft } from './fft-plan.js';
import { rng } from '../../util/random.js';

export interface SparseSignalOptions {
  n: number;
  k: number;
  seed?: number;
  /** Real signal: k frequencies in (0, n/2) and their mirror images. */
  real?: boolean;
  /** Signal-to-noise ratio in dB (total signal energy / total noise energy); omitted: no noise. */
  snrDb?: number;
  /** Coefficient magnitudes are uniform in [lo, hi] (default [0.5, 1.5]). */
  magnitude?: [number, number];
  /** 'log': magnitudes log-uniform in [lo, hi] (a realistic dynamic range, e.g. [0.1, 1] for 10:1). */
  magnitudeScale?: 'linear' | 'log';
}

export interface SparseSignal {
  n: number;
  /** Interleaved complex samples (length 2n), or n real samples when real. */
  x: Float64Array;
  real: boolean;
  /** The k planted frequencies (ascending; for real signals those in (0, n/2)). */
  frequencies: Uint32Array;
  /** Their coefficients in fft(x) scaling (without the noise), interleaved. */
  values: Float64Array;
  /** Noise energy per frequency bin of fft(x) (Σ_f |N_f|²/n), 0 without noise. */
  noisePerBin: number;
}

/** Box–Muller standard normal deviates from a uniform generator. */
function gaussian(next: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(next(), 1e-300);
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export function sparseSignal(o: SparseSignalOptions): SparseSignal {
  const { n, k } = o;
  if (!Number.isSafeInteger(n) || n < 4) throw new ArgumentError('n', n, 'an integer ≥ 4');
  const real = o.real ?? false;
  const limit = real ? n / 2 - 1 : n;
  if (!Number.isSafeInteger(k) || k < 1 || k > limit) throw new ArgumentError('k', k, `an integer in [1, ${limit}]`);
  const next = rng(o.seed ?? 1);
  const [lo, hi] = o.magnitude ?? [0.5, 1.5];
  const logScale = o.magnitudeScale === 'log';
  if (logScale && !(lo > 0 && hi >= lo))
    throw new ArgumentError('magnitude', o.magnitude, 'positive [lo, hi] with lo ≤ hi for a log scale');
  const chosen = new Set<number>();
  while (chosen.size < k) {
    const f = real ? 1 + Math.floor(next() * (n / 2 - 1)) : Math.floor(next() * n);
    chosen.add(f);
  }
  const frequencies = Uint32Array.from([...chosen].sort((a, b) => a - b));
  const values = new Float64Array(2 * k);
  const spec = new Float64Array(2 * n);
  let signalEnergy = 0;
  frequencies.forEach((f, i) => {
    const u = next();
    const m = logScale ? lo * (hi / lo) ** u : lo + (hi - lo) * u;
    const p = 2 * Math.PI * next();
    values[2 * i] = m * Math.cos(p);
    values[2 * i + 1] = m * Math.sin(p);
    spec[2 * f] = values[2 * i];
    spec[2 * f + 1] = values[2 * i + 1];
    signalEnergy += m * m;
    if (real) {
      spec[2 * (n - f)] = values[2 * i];
      spec[2 * (n - f) + 1] = -values[2 * i + 1];
      signalEnergy += m * m;
    }
  });
  const t = new Float64Array(2 * n);
  planCpuFft(n).execute(spec, t, { inverse: true });
  let noisePerBin = 0;
  if (o.snrDb !== undefined) {
    // Σ_f |N_f|² = n Σ_t |ν_t|² (Parseval); white noise of variance s² per real component gives
    // n·n·s²·(2 for complex, 1 for real) in total.
    const noiseEnergy = signalEnergy / 10 ** (o.snrDb / 10);
    const comps = real ? 1 : 2;
    const s = Math.sqrt(noiseEnergy / (n * n * comps));
    const gauss = gaussian(next);
    for (let i = 0; i < n; i++) {
      t[2 * i] += s * gauss();
      if (!real) t[2 * i + 1] += s * gauss();
    }
    noisePerBin = noiseEnergy / n;
  }
  const x = real ? Float64Array.from({ length: n }, (_, i) => t[2 * i]) : t;
  return { n, x, real, frequencies, values, noisePerBin };
}
