/**
 * The option names each one-shot function takes. A name it does not take (a misspelling, or `axes` given to a 1-D
 * function) is refused, naming it, instead of being ignored: `fft(x, { shape: [2, 3], axes: [0] })` would otherwise
 * transform the last axis without a word.
 */
import { ArgumentError } from '../errors.js';

const COMMON = ['shape', 'norm', 'backend', 'gpu', 'threads', 'out'] as const;
export const FFT_1D_OPTIONS: readonly string[] = [...COMMON, 'n', 'axis'];
export const FFT_ND_OPTIONS: readonly string[] = [...COMMON, 's', 'axes'];
export const R2R_1D_OPTIONS: readonly string[] = [...FFT_1D_OPTIONS, 'type', 'orthogonalize'];
export const R2R_ND_OPTIONS: readonly string[] = [...FFT_ND_OPTIONS, 'type', 'orthogonalize'];
export const DHT_1D_OPTIONS: readonly string[] = FFT_1D_OPTIONS;
export const DHT_ND_OPTIONS: readonly string[] = FFT_ND_OPTIONS;

/** Throws ArgumentError for the first option set (not undefined) that `fn` does not take. */
export function checkOptionNames(options: object | null | undefined, allowed: readonly string[], fn: string): void {
  if (options === null || options === undefined) return;
  if (typeof options !== 'object') throw new ArgumentError('options', options, `an object of options for ${fn}`);
  for (const k in options) {
    const v = (options as Record<string, unknown>)[k];
    if (v !== undefined && !allowed.includes(k))
      throw new ArgumentError(k, v, `an option ${fn} takes (${allowed.join(', ')})`);
  }
}
