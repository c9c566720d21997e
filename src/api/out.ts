/**
 * numpy's `out` argument for the one-shot functions: results written into a caller's array of the
 * input's type and the result's exact length, so that repeated calls allocate nothing.
 */
import { ArgumentError } from '../errors.js';

type AnyArray = Float32Array | Float64Array;

/** Validates `out` against the input's type and the result's length (in values). */
export function checkOut<T extends AnyArray>(out: unknown, x: T, length: number): T | undefined {
  if (out === undefined) return undefined;
  if (!(out instanceof Float32Array || out instanceof Float64Array) || out.constructor !== x.constructor)
    throw new ArgumentError('out', out, `a ${x.constructor.name}, the input's array type`);
  if (out.length !== length) throw new ArgumentError('out', out, `exactly ${length} values, the result's length`);
  return out as T;
}

/** Whether two arrays share any bytes. */
export function overlaps(a: AnyArray, b: AnyArray): boolean {
  if (a.buffer !== b.buffer) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/** The result in the input's array type: copied into `out` when given, else converted only if needed. */
export function deliver<T extends AnyArray>(result: AnyArray, x: T, out: T | undefined): T {
  if (out) {
    if (result !== out) out.set(result.subarray(0, out.length));
    return out;
  }
  if (result.constructor === x.constructor) return result as T;
  return (x instanceof Float32Array ? Float32Array.from(result) : Float64Array.from(result)) as T;
}
