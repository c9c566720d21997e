/**
 * One error hierarchy for the whole library. Every error names the argument at fault, the value it got
 * and what was expected, so a user can fix the call without reading our source.
 */
export class ButterflyError extends Error {
  override name = 'ButterflyError';
}

/** An argument had the wrong type, shape, length or value. */
export class ArgumentError extends ButterflyError {
  override name = 'ArgumentError';
  constructor(
    readonly argument: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${argument}: expected ${expected}, got ${describe(value)}`);
  }
}

/** The problem is valid but this version of the library (or this backend) does not support it yet. */
export class UnsupportedError extends ButterflyError {
  override name = 'UnsupportedError';
}

/** The problem does not fit the device: binding size, workgroup storage, dispatch limits. */
export class DeviceLimitError extends ButterflyError {
  override name = 'DeviceLimitError';
  constructor(
    readonly limit: string,
    readonly needed: number,
    readonly available: number,
    detail: string,
  ) {
    super(`${detail}: needs ${limit} = ${needed}, the device allows ${available}`);
  }
}

/** A plan, buffer or device was used after destroy() or after the device was lost. */
export class DestroyedError extends ButterflyError {
  override name = 'DestroyedError';
}

/** WebGPU reported a validation, out-of-memory or internal error, or the device was lost. */
export class DeviceError extends ButterflyError {
  override name = 'DeviceError';
}

/** A CPU worker thread failed (an exception inside it, its exit, or an error event) while running a share of a call. */
export class WorkerError extends ButterflyError {
  override name = 'WorkerError';
}

/** No backend able to run the request could be obtained. */
export class BackendUnavailableError extends ButterflyError {
  override name = 'BackendUnavailableError';
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (ArrayBuffer.isView(v)) {
    const n = (v as unknown as { length?: number }).length ?? v.byteLength;
    return `${v.constructor.name}(length ${n})`;
  }
  // Short arrays (axes, shapes, lengths) in full: the values are usually what is wrong.
  if (Array.isArray(v))
    return v.length <= 8 && v.every((e) => ['number', 'boolean', 'string'].includes(typeof e) || e === null)
      ? `[${v.map((e) => (typeof e === 'string' ? JSON.stringify(e) : String(e))).join(', ')}]`
      : `array(length ${v.length})`;
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}
