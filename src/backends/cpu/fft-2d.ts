/**
 * 2-D complex FFTs on the CPU engine (src/planner/cpu-fft.ts, planCpuEngineFft2): the whole rows × cols array
 * copied into one WebAssembly memory, the rows by the engine's module for `cols` (one call over all rows), the
 * columns by the column module (src/codegen/wasm/fft-columns.ts) in place, and the result copied out: two
 * copies and two kernels, instead of the N-D driver's column groups staged through JavaScript and transposes.
 */
import { ButterflyError } from '../../errors.js';
import type { CpuEngineFft2Recipe } from '../../planner/cpu-fft.js';
import { generateColumnsModule, type ColumnsModule } from '../../codegen/wasm/fft-columns.js';
import { compiled } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;
type Kernel = (inP: number, outP: number, work: number, tw: number, count: number, scale: number) => void;
type Columns = (src: number, dst: number, work: number, tw: number, k0: number, k1: number, scale: number) => void;

const columnModules = new Map<string, { mod: WebAssembly.Module; info: ColumnsModule }>();
const MAX_COLUMN_MODULES = 32;

function columnsCompiled(r: CpuEngineFft2Recipe): { mod: WebAssembly.Module; info: ColumnsModule } {
  // The key is exactly what the column generator reads.
  const key = JSON.stringify([r.rows, r.cols, r.precision, r.colPasses, r.blockGroups]);
  let m = columnModules.get(key);
  if (!m) {
    const info = generateColumnsModule(r);
    m = { mod: new WebAssembly.Module(info.bytes as BufferSource), info };
    columnModules.set(key, m);
    while (columnModules.size > MAX_COLUMN_MODULES) columnModules.delete(columnModules.keys().next().value!);
  }
  return m;
}

export class Fft2Engine {
  private readonly heap: AnyArray;
  private readonly fwd: Kernel;
  private readonly inv: Kernel;
  private readonly cF: Columns;
  private readonly cI: Columns;
  private readonly rowTw: number;
  private readonly colTw: number;
  private readonly rowWork: number;
  private readonly colWork: number;
  private readonly aP: number;
  private readonly bP: number;
  private readonly slots: number;
  private readonly blocks: number;
  constructor(readonly recipe: CpuEngineFft2Recipe) {
    const row = compiled(recipe.row);
    const col = columnsCompiled(recipe);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Regions staggered modulo 4 KiB, as the engine's other buffers, so strided streams use different cache sets.
    let stagger = 0;
    const align = (x: number): number => Math.ceil(x / 4096) * 4096 + 1024 * (stagger++ % 4);
    this.slots = Math.ceil(recipe.rows / row.info.problemsPerSlot);
    const matrix = this.slots * row.info.slotBytes;
    this.rowTw = 0;
    this.colTw = align(row.info.twiddles.length * e);
    this.rowWork = align(this.colTw + col.info.twiddles.length * e);
    this.colWork = align(this.rowWork + row.info.workBytes);
    this.aP = align(this.colWork + col.info.workBytes);
    this.bP = align(this.aP + matrix);
    const bytes = this.bP + matrix;
    let memory: WebAssembly.Memory;
    try {
      memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    } catch (err) {
      throw new ButterflyError(`2-D FFT: the runtime refused a WebAssembly memory of ${bytes} bytes (${err})`);
    }
    const rowX = new WebAssembly.Instance(row.mod, { env: { memory } }).exports;
    const colX = new WebAssembly.Instance(col.mod, { env: { memory } }).exports;
    this.fwd = rowX['fwd'] as Kernel;
    this.inv = rowX['inv'] as Kernel;
    this.cF = colX['cF'] as Columns;
    this.cI = colX['cI'] as Columns;
    this.blocks = col.info.blocks;
    this.heap = e === 4 ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer);
    this.heap.set(row.info.twiddles, this.rowTw / e);
    this.heap.set(col.info.twiddles, this.colTw / e);
  }

  /**
   * `count` contiguous rows × cols arrays of interleaved complex values from src (starting at value `at`) into
   * dst (at `to`), times `scale`; src and dst may be the same array.
   */
  execute(src: AnyArray, at: number, dst: AnyArray, to: number, count: number, inverse: boolean, scale: number): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const len = 2 * this.recipe.rows * this.recipe.cols;
    for (let q = 0; q < count; q++) {
      this.heap.set(src.subarray(at + q * len, at + (q + 1) * len), this.aP / e);
      (inverse ? this.inv : this.fwd)(this.aP, this.bP, this.rowWork, this.rowTw, this.slots, 1);
      (inverse ? this.cI : this.cF)(this.bP, this.aP, this.colWork, this.colTw, 0, this.blocks, scale);
      dst.set(this.heap.subarray(this.aP / e, this.aP / e + len), to + q * len);
    }
  }
}

const engines = new Map<string, Fft2Engine>();
/** 2-D engines kept: each holds a memory of twice its array. */
const MAX_ENGINES = 4;

/** The 2-D engine of a recipe (cached: its memory is reused call after call). */
export function fft2Engine(recipe: CpuEngineFft2Recipe): Fft2Engine {
  const key = `${recipe.rows}x${recipe.cols}/${recipe.precision}`;
  let f = engines.get(key);
  if (!f) {
    f = new Fft2Engine(recipe);
    engines.set(key, f);
    while (engines.size > MAX_ENGINES) engines.delete(engines.keys().next().value!);
  }
  return f;
}
