/**
 * Mixed-radix digit layouts: the index-digit representation of 000 ch. 5, generalised from radix 2.
 *
 * A layout is the list of radices, least significant digit first, so digit i (1-based, as the seeds
 * number them: t_1 is the least significant) has radix `radices[i - 1]`. An index t of an array of
 * N = ∏ radices elements is written t = d_1 + R_1·(d_2 + R_2·(d_3 + …)).
 */
import { ArgumentError } from '../errors.js';

export type DigitLayout = readonly number[];

/** Largest N we accept: index tables are Int32Array-backed and must stay addressable. */
export const MAX_LAYOUT_SIZE = 2 ** 30;

export function validateLayout(radices: unknown, argument = 'radices'): asserts radices is DigitLayout {
  if (!Array.isArray(radices)) throw new ArgumentError(argument, radices, 'an array of radices (integers ≥ 2)');
  let size = 1;
  for (let i = 0; i < radices.length; i++) {
    const r: unknown = radices[i];
    if (typeof r !== 'number' || !Number.isInteger(r) || r < 2) {
      throw new ArgumentError(`${argument}[${i}]`, r, 'an integer radix ≥ 2');
    }
    size *= r;
    if (size > MAX_LAYOUT_SIZE) {
      throw new ArgumentError(argument, radices, `a layout whose product is at most 2^30`);
    }
  }
}

/** N = ∏ radices (1 for the empty layout). */
export function layoutSize(radices: DigitLayout): number {
  let size = 1;
  for (const r of radices) size *= r;
  return size;
}

/** Place values: strides[i] = R_1·…·R_i, so digit i+1 contributes d·strides[i]. */
export function digitStrides(radices: DigitLayout): number[] {
  const strides: number[] = [];
  let s = 1;
  for (const r of radices) {
    strides.push(s);
    s *= r;
  }
  return strides;
}

export function checkIndex(t: unknown, size: number, argument = 't'): asserts t is number {
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t >= size) {
    throw new ArgumentError(argument, t, `an integer index in [0, ${size})`);
  }
}

/** A 1-based digit position; the seeds' operators name digits this way. */
export function checkDigitPosition(i: unknown, n: number, argument: string): asserts i is number {
  if (typeof i !== 'number' || !Number.isInteger(i) || i < 1 || i > n) {
    throw new ArgumentError(argument, i, `a digit position in [1, ${n}]`);
  }
}

/** Digits of t, least significant first (d[0] is the seeds' t_1). */
export function toDigits(t: number, radices: DigitLayout): number[] {
  validateLayout(radices);
  checkIndex(t, layoutSize(radices));
  return unsafeToDigits(t, radices);
}

export function fromDigits(digits: readonly number[], radices: DigitLayout): number {
  validateLayout(radices);
  if (!Array.isArray(digits) || digits.length !== radices.length) {
    throw new ArgumentError('digits', digits, `an array of ${radices.length} digits`);
  }
  for (let i = 0; i < digits.length; i++) {
    const d = digits[i];
    if (!Number.isInteger(d) || d < 0 || d >= radices[i]) {
      throw new ArgumentError(`digits[${i}]`, d, `an integer digit in [0, ${radices[i]})`);
    }
  }
  return unsafeFromDigits(digits, radices);
}

/** Unchecked versions for the inner loops that build index tables (inputs validated once, up front). */
export function unsafeToDigits(t: number, radices: DigitLayout, out: number[] = []): number[] {
  out.length = radices.length;
  for (let i = 0; i < radices.length; i++) {
    const r = radices[i];
    out[i] = t % r;
    t = (t - out[i]) / r;
  }
  return out;
}

export function unsafeFromDigits(digits: readonly number[], radices: DigitLayout): number {
  let t = 0;
  for (let i = radices.length - 1; i >= 0; i--) t = t * radices[i] + digits[i];
  return t;
}

export function sameLayout(a: DigitLayout, b: DigitLayout): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

export function formatLayout(radices: DigitLayout): string {
  // Printed most significant first, like the seeds' [t_n … t_1].
  return `[${[...radices].reverse().join(' ')}]`;
}
