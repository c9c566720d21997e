/**
 * What the CPU planner reads of the platform: whether WebAssembly relaxed SIMD is there, whose
 * f32x4/f64x2.relaxed_madd the engine's twiddle products and odd butterflies take as fused multiply-adds
 * (one instruction for a product and a sum; most calls take 0.90–0.97 of the time, docs/DECISIONS.md: fused
 * multiply-add).
 *
 * Browsers from Chrome 114 and Node from 22 have it on. Node 20 and 21 carry the finished implementation
 * behind --experimental-wasm-relaxed-simd, which this module turns on when it loads, from Node 20.16 (the flag
 * only lets modules that use those instructions validate). BUTTERFLY_RELAXED_SIMD=0 in the environment leaves the
 * flag alone and plans without fused multiply-adds, so results round the same on every machine.
 */

/** A module of one function, (func (result v128) v128.const 0 ×3 f32x4.relaxed_madd). */
function relaxedModule(): Uint8Array<ArrayBuffer> {
  const zero = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
  const body = [0, ...zero, ...zero, ...zero, 0xfd, 0x85, 0x02, 0x0b];
  const header = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7b, 3, 2, 1, 0, 10];
  return new Uint8Array([...header, body.length + 2, 1, body.length, ...body]);
}

function validates(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(relaxedModule() as BufferSource);
  } catch {
    return false;
  }
}

const proc = (
  globalThis as {
    process?: {
      env?: Record<string, string | undefined>;
      versions?: { node?: string };
      getBuiltinModule?: (id: string) => unknown;
    };
  }
).process;
const refused = proc?.env?.['BUTTERFLY_RELAXED_SIMD'] === '0';

if (!refused && proc?.versions?.node && !validates()) {
  try {
    // Synchronously (Node ≥ 20.16): a top-level await would keep CommonJS from require()-ing the package.
    const v8 = proc.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined;
    v8?.setFlagsFromString('--experimental-wasm-relaxed-simd');
  } catch {
    // A runtime without the flag: plain multiplies and adds.
  }
}

const relaxed = !refused && validates();

/** Whether the engine's generated modules may use relaxed SIMD's fused multiply-adds here. */
export function cpuFma(): boolean {
  return relaxed;
}

/**
 * Bytes of a 2·3·5-smooth complex problem from which the engine runs the four-step instead of lane passes over the
 * whole problem. Where the sweeps of a 2–16 MiB problem leave L2 is decided by the last-level cache's speed, which
 * differs by machine: the four-step gained 10–19% from 1.5 MiB on an Intel Xeon host (slow shared L3), and lost
 * 14–27% (ordinary arrays) and up to 2.7× (engine buffers) on an AMD EPYC host, whose L3 serves the sweeps faster
 * than the four-step's two phases read memory (docs/DECISIONS.md: four-step threshold measured per machine).
 */
export const FOUR_STEP_EARLY_BYTES = 3 << 19;
export const FOUR_STEP_LATE_BYTES = 1 << 24;

/** Where FOUR_STEP_EARLY_BYTES or FOUR_STEP_LATE_BYTES came from (`butterfly info`). */
export type FourStepSource = 'environment' | 'measured' | 'default' | 'set';

const envFourStep = ((): number | undefined => {
  const v = proc?.env?.['BUTTERFLY_FOUR_STEP_FROM'];
  if (v === undefined || v === '') return undefined;
  const b = Number(v);
  if (Number.isSafeInteger(b) && b > 0) return b;
  // Loading the library must not fail on the environment: said once, then measured as if unset.
  console.warn(`butterfly: BUTTERFLY_FOUR_STEP_FROM=${v} is not a positive whole number of bytes; ignored`);
  return undefined;
})();

let fourStepFrom: number | undefined = envFourStep;
let fourStepSource: FourStepSource = envFourStep === undefined ? 'default' : 'environment';
let measureFourStep: (() => number | undefined) | undefined;
let measuring = false;

/**
 * Registers the backend's measurement (src/backends/cpu/four-step-choice.ts): it times both recipes once, on the
 * calling thread, the first time a problem in the range needs the answer. Workers never register one: they take
 * the calling thread's value with each job (setFourStepFromBytes), so both plan the same recipe.
 */
export function registerFourStepMeasure(measure: () => number | undefined): void {
  measureFourStep = measure;
}

/**
 * The threshold: BUTTERFLY_FOUR_STEP_FROM (bytes; the planner asks only for problems between the two bounds, so
 * values outside them act as the nearer bound), else measured once where a measurement is registered.
 */
export function fourStepFromBytes(): number {
  if (fourStepFrom === undefined) {
    // Planning inside the measurement (its recipes are given, but a later change could plan one) takes the default.
    if (measuring) return FOUR_STEP_EARLY_BYTES;
    measuring = true;
    let m: number | undefined;
    try {
      m = measureFourStep?.();
    } finally {
      measuring = false;
    }
    fourStepFrom = m ?? FOUR_STEP_EARLY_BYTES;
    fourStepSource = m === undefined ? 'default' : 'measured';
  }
  return fourStepFrom;
}

/** The threshold if already known (nothing is measured), and where it came from. */
export function knownFourStepFrom(): { bytes: number | undefined; source: FourStepSource } {
  return { bytes: fourStepFrom, source: fourStepSource };
}

/** Sets the threshold: a worker adopting its calling thread's, or a test pinning one (plans cached before keep theirs). */
export function setFourStepFromBytes(bytes: number): void {
  fourStepFrom = bytes;
  fourStepSource = 'set';
}
