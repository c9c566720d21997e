/**
 * Option objects are checked by name: a name a function does not take (a misspelling such as `bacth`, or numpy's
 * `axes` given where `axis` is meant) is refused, naming it, instead of being ignored and the call run without it.
 */
import { ArgumentError } from '../errors.js';

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
