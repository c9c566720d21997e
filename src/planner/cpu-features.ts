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
