/**
 * Result arrays that the CPU engine writes in full: where Node's Buffer is present, large ones come
 * uninitialised, because zeroing a fresh array costs half as much again as the copy that then fills it
 * (16 MiB: 1.7–2.2 ms against 1.1–1.2 ms, docs/DECISIONS.md "Fresh results without zeroing").
 * Only call sites whose every element the engine then writes may use it.
 */
type FloatArray = Float32Array | Float64Array;
type FloatArrayCtor = typeof Float32Array | typeof Float64Array;

/** Below this many bytes zeroing is cheaper than the native call that skips it. */
const UNINITIALISED_FROM_BYTES = 256 * 1024;

const unsafeBytes = (
  globalThis as { Buffer?: { allocUnsafeSlow?: (n: number) => { buffer: ArrayBuffer; byteOffset: number } } }
).Buffer?.allocUnsafeSlow;

let poison = false;

/** Where large fresh buffers come from before allocating (backends/cpu/prefaulted-pages.ts in Node). */
type FreshSource = (bytes: number) => ArrayBuffer | undefined;
let freshSource: FreshSource | null = null;

/** Sets the source that large results are taken from first: an ArrayBuffer of exactly the bytes asked, or none. */
export function setFreshBuffers(source: FreshSource | null): void {
  freshSource = source;
}

/** What poisoned arrays are filled with: finite (a NaN could pass for a computed one) and unlike any result. */
export const FILLED_RESULT_POISON = -9.25e37;

/**
 * Tests only: fill every array this module hands out with FILLED_RESULT_POISON, so that a call site that leaves
 * any element unwritten fails a comparison instead of passing on zeroed (or lucky) memory.
 */
export function setFilledResultPoison(on: boolean): void {
  poison = on;
}

/** A new array of `length` values of the given type, which the caller must overwrite entirely. */
export function filledResult<C extends FloatArrayCtor>(Ctor: C, length: number): InstanceType<C> {
  const bytes = length * Ctor.BYTES_PER_ELEMENT;
  let a: FloatArray;
  if (unsafeBytes && bytes >= UNINITIALISED_FROM_BYTES) {
    const ready = freshSource?.(bytes);
    if (ready) a = new Ctor(ready, 0, length);
    else {
      const b = unsafeBytes(bytes);
      a = new Ctor(b.buffer, b.byteOffset, length);
    }
  } else a = new Ctor(length);
  if (poison) a.fill(FILLED_RESULT_POISON);
  return a as InstanceType<C>;
}

/** filledResult of the same array type as `like`. */
export function filledResultLike<T extends FloatArray>(like: T, length: number): T {
  return filledResult(like.constructor as FloatArrayCtor, length) as T;
}
