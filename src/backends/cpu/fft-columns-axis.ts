/**
 * Complex transforms along a non-last axis on the CPU engine by the 2-D engine's column module
 * (src/codegen/wasm/fft-columns.ts, planned by planCpuEngineColumns): each outer block of rows × cols complex values
 * is copied into one WebAssembly memory, its columns transformed in place with W adjacent columns in the lanes, and
 * copied out. The N-D driver otherwise gathers groups of columns by transposes into rows and back
 * (wasm-fft.ts executeColumns), two more passes over the data. Real recipes (planCpuEngineRealColumns) take real
 * lines as pairs of columns: forward, rows × inner reals in and ⌊rows/2⌋ + 1 rows of inner complex values out, and
 * the inverse back.
 */
import type { CpuColumnsRecipe } from '../../planner/cpu-fft.js';
import { columnsCompiled } from './fft-2d.js';
import { SyncCompileRefused } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;
type Columns = (
  src: number,
  dst: number,
  work: number,
  tw: number,
  k0: number,
  k1: number,
  scale: number,
  first?: number,
) => void;

/** One recipe's module instance on a memory of its own, kept between calls (fresh pages cost more than the kernel). */
export class ColumnsAxisEngine {
  private readonly heap: AnyArray;
  private readonly forward: Columns;
  private readonly inverse: Columns;
  private readonly blocks: number;
  private readonly work: number;
  private readonly data: number;
  /** Where a real recipe's half spectra lie (after the matrix). */
  private readonly spectra: number;
  /** Numbers of a block: the matrix side (complex, or real pairs), and the half spectra of a real recipe. */
  readonly matrixLength: number;
  readonly spectraLength: number;
  /** Bytes of its memory. */
  readonly bytes: number;
  constructor(readonly recipe: CpuColumnsRecipe) {
    const { mod, info } = columnsCompiled(recipe, false);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Twiddles, the passes' work and stages, the data: each region on its own offset modulo 4 KiB, as the 2-D engine's.
    this.work = Math.ceil((info.twiddles.length * e) / 4096) * 4096 + 1024;
    this.data = Math.ceil((this.work + info.workBytes) / 4096) * 4096 + 2048;
    this.matrixLength = recipe.rows * recipe.cols * 2;
    // The DCT's results are the matrix's size (real rows in and out).
    this.spectraLength = recipe.realPairs && !recipe.dct ? (Math.floor(recipe.rows / 2) + 1) * recipe.cols * 4 : 0;
    this.spectra = Math.ceil((this.data + this.matrixLength * e) / 4096) * 4096 + 3072;
    const bytes = this.spectra + this.spectraLength * e;
    this.bytes = bytes;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const x = new WebAssembly.Instance(mod, { env: { memory } }).exports;
    this.forward = x['cF'] as Columns;
    this.inverse = x['cI'] as Columns;
    this.blocks = info.blocks;
    this.heap = e === 4 ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer);
    this.heap.set(info.twiddles, 0);
  }

  /**
   * `outer` consecutive blocks from src to dst (either element type, converted on the copies), each column
   * transformed, times `scale`: complex recipes rows × cols complex values each way (dst may be src); real ones
   * rows × 2·cols reals to their half spectra forward, and back for the inverse; DCT ones rows × 2·cols reals each
   * way, the DCT-II forward and the DCT-III inverse, row 0 of the DCT-II's output or the DCT-III's input times `first`.
   */
  run(src: AnyArray, dst: AnyArray, outer: number, inverse: boolean, scale: number, first = 1): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const real = this.recipe.realPairs === true && !this.recipe.dct;
    // Real recipes go between the two regions (the matrix and the half spectra), complex ones stay in place.
    const [from, to] = !real ? [this.data, this.data] : inverse ? [this.spectra, this.data] : [this.data, this.spectra];
    const [inLen, outLen] =
      real && !inverse
        ? [this.matrixLength, this.spectraLength]
        : real
          ? [this.spectraLength, this.matrixLength]
          : [this.matrixLength, this.matrixLength];
    const f = inverse ? this.inverse : this.forward;
    for (let o = 0; o < outer; o++) {
      this.heap.set(src.subarray(o * inLen, (o + 1) * inLen), from / e);
      f(from, to, this.work, 0, 0, this.blocks, scale, first);
      dst.set(this.heap.subarray(to / e, to / e + outLen), o * outLen);
    }
  }
}

const engines = new Map<string, ColumnsAxisEngine>();
/** Engines kept: each holds a memory of one block. */
const MAX_ENGINES = 4;
/** Largest engine memory kept between calls (as the transposes' staging, axis-transpose.ts). */
const KEEP_BYTES = 256 * 2 ** 20;

/** The engine of a recipe (cached by exactly what its module and memory depend on). */
export function columnsAxisEngine(recipe: CpuColumnsRecipe): ColumnsAxisEngine {
  const kind = recipe.dst ? '/dst' : recipe.dct ? '/dct' : recipe.realPairs ? '/real' : '';
  const key = `${recipe.rows}x${recipe.cols}/${recipe.precision}${kind}`;
  let e = engines.get(key);
  if (e) {
    // Most recently used last.
    engines.delete(key);
  } else e = new ColumnsAxisEngine(recipe);
  // A memory past KEEP_BYTES is not kept: it would hold that much between calls (memories cannot shrink).
  if (e.bytes <= KEEP_BYTES) engines.set(key, e);
  while (engines.size > MAX_ENGINES) engines.delete(engines.keys().next().value!);
  return e;
}

/** columnsAxisEngine, or null where this thread may not compile its module synchronously (a browser's main thread). */
export function columnsAxisEngineIfCompiles(recipe: CpuColumnsRecipe): ColumnsAxisEngine | null {
  try {
    return columnsAxisEngine(recipe);
  } catch (e) {
    if (e instanceof RangeError || e instanceof SyncCompileRefused) return null;
    throw e;
  }
}

/** Drops the cached engines (see disposeCpuWorkers). */
export function clearColumnsAxisEngines(): void {
  engines.clear();
}
