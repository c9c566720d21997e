/**
 * Complex transforms along a non-last axis on the CPU engine by the 2-D engine's column module
 * (src/codegen/wasm/fft-columns.ts, planned by planCpuEngineColumns): each outer block of rows × cols complex values
 * is copied into one WebAssembly memory, its columns transformed in place with W adjacent columns in the lanes, and
 * copied out. The N-D driver otherwise gathers groups of columns by transposes into rows and back
 * (wasm-fft.ts executeColumns), two more passes over the data.
 */
import type { CpuColumnsRecipe } from '../../planner/cpu-fft.js';
import { columnsCompiled } from './fft-2d.js';

type AnyArray = Float32Array | Float64Array;
type Columns = (src: number, dst: number, work: number, tw: number, k0: number, k1: number, scale: number) => void;

/** One recipe's module instance on a memory of its own, kept between calls (fresh pages cost more than the kernel). */
export class ColumnsAxisEngine {
  private readonly heap: AnyArray;
  private readonly forward: Columns;
  private readonly inverse: Columns;
  private readonly blocks: number;
  private readonly work: number;
  private readonly data: number;
  constructor(readonly recipe: CpuColumnsRecipe) {
    const { mod, info } = columnsCompiled(recipe, false);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Twiddles, the passes' work and stages, the data: each region on its own offset modulo 4 KiB, as the 2-D engine's.
    this.work = Math.ceil((info.twiddles.length * e) / 4096) * 4096 + 1024;
    this.data = Math.ceil((this.work + info.workBytes) / 4096) * 4096 + 2048;
    const bytes = this.data + recipe.rows * recipe.cols * 2 * e;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const x = new WebAssembly.Instance(mod, { env: { memory } }).exports;
    this.forward = x['cF'] as Columns;
    this.inverse = x['cI'] as Columns;
    this.blocks = info.blocks;
    this.heap = e === 4 ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer);
    this.heap.set(info.twiddles, 0);
  }

  /**
   * `outer` consecutive blocks of rows × cols complex values from src to dst (may be the same array; either element
   * type, converted on the copies), each column transformed, times `scale`.
   */
  run(src: AnyArray, dst: AnyArray, outer: number, inverse: boolean, scale: number): void {
    const len = 2 * this.recipe.rows * this.recipe.cols;
    const at = this.data / this.heap.BYTES_PER_ELEMENT;
    const f = inverse ? this.inverse : this.forward;
    for (let o = 0; o < outer; o++) {
      this.heap.set(src.subarray(o * len, (o + 1) * len), at);
      f(this.data, this.data, this.work, 0, 0, this.blocks, scale);
      dst.set(this.heap.subarray(at, at + len), o * len);
    }
  }
}

const engines = new Map<string, ColumnsAxisEngine>();
/** Engines kept: each holds a memory of one block. */
const MAX_ENGINES = 4;

/** The engine of a recipe (cached by exactly what its module and memory depend on). */
export function columnsAxisEngine(recipe: CpuColumnsRecipe): ColumnsAxisEngine {
  const key = `${recipe.rows}x${recipe.cols}/${recipe.precision}`;
  let e = engines.get(key);
  if (e) {
    // Most recently used last.
    engines.delete(key);
  } else e = new ColumnsAxisEngine(recipe);
  engines.set(key, e);
  while (engines.size > MAX_ENGINES) engines.delete(engines.keys().next().value!);
  return e;
}

/** Drops the cached engines (see disposeCpuWorkers). */
export function clearColumnsAxisEngines(): void {
  engines.clear();
}
