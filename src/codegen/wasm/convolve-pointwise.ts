/**
 * WebAssembly module of the pointwise steps of FFT convolution on the CPU engine, over a memory it imports:
 *
 *   cmul(dst, a, b, count):    dst_i = a_i · b_i, interleaved complex, count ≥ W and a multiple of W
 *   addInto(dst, src, count):  dst_i += src_i, reals, count ≥ W and a multiple of W
 *
 * (W values a vector: 4 in f32, 2 in f64.) JavaScript loops over typed arrays took 2–3 ns a value for these,
 * about as long as the FFTs of an overlap-add convolution.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';
import { cmulFunction } from './pointwise.js';

function addIntoFunction(e: 4 | 8): WasmFunction {
  const params: ValType[] = ['i32', 'i32', 'i32'];
  const b = new Body(params);
  const [dst, src, count] = [0, 1, 2];
  const g = b.local('i32');
  b.get(count)
    .i32(16 / e)
    .op(0x6e) // i32.div_u
    .set(g);
  b.loop();
  b.get(dst).get(dst).v128Load(0).get(src).v128Load(0).fadd(e).v128Store(0);
  b.get(dst).i32(16).add().set(dst);
  b.get(src).i32(16).add().set(src);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  return { params, body: b, export: 'addInto' };
}

/** `shared`: the module imports a shared memory (a 2-D engine's, which worker threads also use). */
export function generateConvolvePointwiseModule(e: 4 | 8, shared = false): Uint8Array {
  return assembleModule([cmulFunction(e), addIntoFunction(e)], { initialPages: 1, maxPages: 65536, shared });
}
