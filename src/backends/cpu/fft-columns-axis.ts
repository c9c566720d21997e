/**
 * Complex transforms along a non-last axis on the CPU engine by the 2-D engine's column module
 * (src/codegen/wasm/fft-columns.ts, planned by planCpuEngineColumns): each outer block of rows × cols complex values
 * is copied into one WebAssembly memory, its columns transformed in place with W adjacent columns in the lanes, and
 * copied out. The N-D driver otherwise gathers groups of columns by transposes into rows and back
 * (wasm-fft.ts executeColumns), two more passes over the data. Real recipes (planCpuEngineRealColumns) take real
 * lines as pairs of columns: forward, rows × inner reals in and ⌊rows/2⌋ + 1 rows of inner complex values out, and
 * the inverse back. Recipes with `threads` (planned from 2 MiB a block) keep their memory shared and split each
 * block's columns between the calling thread and the pool's workers (runColumnsPart on each).
 */
import type { CpuColumnsRecipe } from '../../planner/cpu-fft.js';
import { columnsCompiled, precompileColumns } from './fft-2d.js';
import { SyncCompileRefused, syncCompileRestricted, THREAD_AREA_GAP } from './wasm-fft.js';
import { pairActions } from './pair-balance.js';
import { generateColumnMaxModule } from '../../codegen/wasm/column-max.js';
import { adoptMemory, SharedInstances } from './shared-memories.js';

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

/** One thread's part of a threaded call: column blocks [k0, k1) of the module on the shared memory. Plain data. */
export interface ColumnsRun {
  id: number;
  recipe: CpuColumnsRecipe;
  memory: WebAssembly.Memory;
  from: number;
  to: number;
  work: number;
  k0: number;
  k1: number;
  inverse: boolean;
  scale: number;
  first: number;
}

/** Runs a barrier-separated step's parts: the first on the calling thread, the others on workers (worker-pool.ts). */
export type RunColumnSteps = (runs: ColumnsRun[]) => Promise<void>;

/** Instances for the parts of threaded calls, by memory (see shared-memories.ts). */
const partInstances = new SharedInstances<{ cF: Columns; cI: Columns }>(4);

/** A part of a threaded call, on whichever thread runs it (the module compiled for shared memory). */
export function runColumnsPart(run: ColumnsRun): void {
  const k = partInstances.of(run.id, run.memory, () => {
    const x = new WebAssembly.Instance(columnsCompiled(run.recipe, true).mod, { env: { memory: run.memory } }).exports;
    return { cF: x['cF'] as Columns, cI: x['cI'] as Columns };
  });
  (run.inverse ? k.cI : k.cF)(run.from, run.to, run.work, 0, run.k0, run.k1, run.scale, run.first);
}

/** Pages a shared memory may grow to (a shared memory must declare its maximum; the module imports 65536). */
const SHARED_MAX_PAGES = 65536;

/** One recipe's module instance on a memory of its own, kept between calls (fresh pages cost more than the kernel). */
export class ColumnsAxisEngine {
  private readonly id: number;
  private readonly memory: WebAssembly.Memory;
  private readonly heap: AnyArray;
  private readonly forward: Columns;
  private readonly inverse: Columns;
  private readonly blocks: number;
  /** Each thread's work region (the passes' halves and the stages), the calling thread's first. */
  private readonly works: number[] = [];
  private readonly data: number;
  /** Where a real recipe's half spectra lie (after the matrix). */
  private readonly spectra: number;
  /** Numbers of a block: the matrix side (complex, or real pairs), and the half spectra of a real recipe. */
  readonly matrixLength: number;
  readonly spectraLength: number;
  /** Bytes of its memory. */
  readonly bytes: number;
  /** Byte offset of colmax's output (real and DCT recipes). */
  private readonly guard: number;
  private readonly colmax?: {
    init: (out: number, vecs: number) => void;
    take: (x: number, vecs: number, rows: number, pitch: number, out: number) => void;
    pack: (out: number, vecs: number) => void;
  };
  constructor(readonly recipe: CpuColumnsRecipe) {
    const threads = recipe.threads ?? 1;
    const shared = threads > 1;
    const { mod, info } = columnsCompiled(recipe, shared);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Twiddles, each thread's work and stages, the data: each region on its own offset modulo 4 KiB, as the 2-D
    // engine's, so strided streams use different cache sets.
    let stagger = 1;
    const align = (x: number): number => Math.ceil(x / 4096) * 4096 + 1024 * (stagger++ % 4);
    let at = info.twiddles.length * e;
    for (let t = 0; t < threads; t++) {
      this.works.push((at = align(at)));
      at += info.workBytes + THREAD_AREA_GAP;
    }
    this.data = align(at);
    this.matrixLength = recipe.rows * recipe.cols * 2;
    // The DCT's results are the matrix's size (real rows in and out).
    this.spectraLength = recipe.realPairs && !recipe.dct ? (Math.floor(recipe.rows / 2) + 1) * recipe.cols * 4 : 0;
    this.spectra = align(this.data + this.matrixLength * e);
    // Real and DCT recipes pair real columns: colmax's maxima (32 bytes a vector of the wider side's rows).
    this.guard = align(this.spectra + this.spectraLength * e);
    const bytes = this.guard + (recipe.realPairs ? 8 * recipe.cols * e : 0);
    this.bytes = bytes;
    const pages = Math.ceil(bytes / 65536);
    const memory = shared
      ? new WebAssembly.Memory({ initial: pages, maximum: SHARED_MAX_PAGES, shared: true })
      : new WebAssembly.Memory({ initial: pages });
    this.memory = memory;
    const x = new WebAssembly.Instance(mod, { env: { memory } }).exports;
    this.forward = x['cF'] as Columns;
    this.inverse = x['cI'] as Columns;
    this.blocks = info.blocks;
    this.heap = e === 4 ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer);
    if (recipe.realPairs) {
      const x = new WebAssembly.Instance(columnMaxModule(e, shared), { env: { memory } }).exports;
      type Max = NonNullable<typeof this.colmax>;
      this.colmax = {
        init: x['colinit'] as Max['init'],
        take: x['colmax'] as Max['take'],
        pack: x['colpack'] as Max['pack'],
      };
    }
    this.heap.set(info.twiddles, 0);
    this.id = adoptMemory(memory);
    // Threaded calls run the calling thread's part on this instance too.
    if (shared) partInstances.set(this.id, memory, { cF: this.forward, cI: this.inverse });
  }

  /**
   * `outer` consecutive blocks from src to dst (either element type, converted on the copies), each column
   * transformed, times `scale`: complex recipes rows × cols complex values each way (dst may be src); real ones
   * rows × 2·cols reals to their half spectra forward, and back for the inverse; DCT ones rows × 2·cols reals each
   * way, the DCT-II forward and the DCT-III inverse, row 0 of the DCT-II's output or the DCT-III's input times `first`.
   */
  run(
    src: AnyArray,
    dst: AnyArray,
    outer: number,
    inverse: boolean,
    scale: number,
    first = 1,
    steps?: RunColumnSteps,
  ): void | Promise<void> {
    if ((this.recipe.threads ?? 1) > 1 && steps) return this.runShared(src, dst, outer, inverse, scale, first, steps);
    const { from, to, inLen, outLen } = this.sides(inverse);
    const f = inverse ? this.inverse : this.forward;
    const transform = (): void => f(from, to, this.works[0]!, 0, 0, this.blocks, scale, first);
    for (let o = 0; o < outer; o++) {
      this.load(src, o * inLen, inLen, from);
      const fixes = this.balanceColumns(inverse, from);
      transform();
      const fixed = fixes && this.applyColumnFixes(fixes, inverse, src, o * inLen, transform);
      if (fixed) dst.set(fixed, o * outLen);
      else this.store(dst, o * outLen, outLen, to);
    }
  }

  /**
   * Where a real or DCT recipe's columns lie on each side: the matrix (rows of 2·cols reals) or the half spectra
   * (⌊rows/2⌋ + 1 rows of 2·cols complex values), as numbers: rows, numbers a row, and numbers a column's value.
   */
  private layoutOf(spectra: boolean): { rows: number; pitch: number; width: 1 | 2; at: number } {
    const { rows, cols } = this.recipe;
    return spectra
      ? { rows: Math.floor(rows / 2) + 1, pitch: 4 * cols, width: 2, at: this.spectra }
      : { rows, pitch: 2 * cols, width: 1, at: this.data };
  }

  /**
   * Real columns two to a complex one share its rounding (as the row engine's pairs: wasm-fft.ts balancePairs): in
   * the block just loaded, a column much smaller than its partner is scaled up by a power of two, a column holding
   * NaN or ±Inf (or one that power cannot reach) is zeroed, to be transformed alone, and a zero column's outputs are
   * set to zero after. Returns those fixes, or null where every pair is balanced (complex recipes: always).
   */
  private balanceColumns(inverse: boolean, from: number): ColumnFix[] | null {
    if (!this.colmax) return null;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const side = this.layoutOf(inverse && !this.recipe.dct);
    if (side.at !== from) throw new Error('balanceColumns: the block is not where its layout says');
    // load() left each column's largest magnitude at guard.
    const lanes = this.guard / e;
    const largest = (c: number): number => {
      let m = 0;
      for (let i = c * side.width; i < (c + 1) * side.width; i++) m = Math.max(m, heap[lanes + i]!);
      return m;
    };
    let fixes: ColumnFix[] | null = null;
    const base = from / e;
    const each = (c: number, fn: (i: number) => void): void => eachOfColumn(side, c, (i) => fn(base + i));
    for (let j = 0; j < this.recipe.cols; j++) {
      for (const { line, kind, scaleBy, factor } of pairActions(largest(2 * j), largest(2 * j + 1), e as 4 | 8)) {
        const col = 2 * j + line;
        if (kind === 'alone') each(col, (i) => (heap[i] = 0));
        else if (kind === 'scale') each(col, (i) => (heap[i]! *= scaleBy));
        (fixes ??= []).push({ col, kind, factor });
      }
    }
    return fixes;
  }

  /**
   * Undoes balanceColumns in the transformed block; columns to transform alone run again, one at a time, from the
   * caller's block at src[at…] with every other column zero (`transform` runs the module on the loaded block). Returns
   * the block's outputs as an array where any did (the module's output area then holds the last of those runs).
   */
  private applyColumnFixes(
    fixes: ColumnFix[],
    inverse: boolean,
    src: AnyArray,
    at: number,
    transform: () => void,
  ): AnyArray | null {
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const input = this.layoutOf(inverse && !this.recipe.dct);
    const output = this.layoutOf(!inverse && !this.recipe.dct);
    const out = output.at / e;
    const column = (c: number, l: typeof output, fn: (i: number) => void): void => eachOfColumn(l, c, fn);
    const alone: number[] = [];
    for (const { col, kind, factor } of fixes) {
      if (kind === 'alone') alone.push(col);
      else if (kind === 'zero') column(col, output, (i) => (heap[out + i] = 0));
      else column(col, output, (i) => (heap[out + i]! *= factor));
    }
    if (alone.length === 0) return null;
    const length = output.rows * output.pitch;
    const result = heap.slice(out, out + length);
    const inAt = input.at / e;
    for (const c of alone) {
      heap.fill(0, inAt, inAt + input.rows * input.pitch);
      column(c, input, (i) => (heap[inAt + i] = src[at + i]!));
      transform();
      column(c, output, (i) => (result[i] = heap[out + i]!));
    }
    return result;
  }

  /** Copies a block of `length` values at src[at…] to byte offset `p`, row by row past zero columns where padded. */
  private load(src: AnyArray, at: number, length: number, p: number): void {
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const q = p / e;
    const dc = this.recipe.dataCols;
    if (this.colmax) {
      // Paired real columns: each column's largest magnitude taken as the block comes in, a part still in cache.
      const { rows, pitch } = this.layoutOf(p === this.spectra);
      const vecs = (pitch * e) / 16;
      const part = Math.max(1, Math.floor(COLUMN_MAX_PART_BYTES / (pitch * e)));
      this.colmax.init(this.guard, vecs);
      for (let r = 0; r < rows; r += part) {
        const c = Math.min(part, rows - r);
        heap.set(src.subarray(at + r * pitch, at + (r + c) * pitch), q + r * pitch);
        this.colmax.take(p + r * pitch * e, vecs, c, pitch * e, this.guard);
      }
      this.colmax.pack(this.guard, vecs);
      return;
    }
    if (dc === undefined) return heap.set(src.subarray(at, at + length), q);
    const [run, pitch] = [2 * dc, 2 * this.recipe.cols];
    for (let r = 0; r < this.recipe.rows; r++) {
      heap.set(src.subarray(at + r * run, at + (r + 1) * run), q + r * pitch);
      // Zeroed on every call, not trusted to stay zero between calls: one short fill a row.
      heap.fill(0, q + r * pitch + run, q + (r + 1) * pitch);
    }
  }

  /** Copies a block of `length` values at byte offset `p` to dst[at…], the data's columns only where padded. */
  private store(dst: AnyArray, at: number, length: number, p: number): void {
    const heap = this.heap;
    const q = p / heap.BYTES_PER_ELEMENT;
    const dc = this.recipe.dataCols;
    if (dc === undefined) return dst.set(heap.subarray(q, q + length), at);
    const [run, pitch] = [2 * dc, 2 * this.recipe.cols];
    for (let r = 0; r < this.recipe.rows; r++) dst.set(heap.subarray(q + r * pitch, q + r * pitch + run), at + r * run);
  }

  /**
   * Where a block goes (byte offsets) and its numbers each way: real recipes between the matrix and the half spectra,
   * complex and DCT ones in place.
   */
  private sides(inverse: boolean): { from: number; to: number; inLen: number; outLen: number } {
    const real = this.recipe.realPairs === true && !this.recipe.dct;
    const [m, h] = [this.matrixLength, this.spectraLength];
    if (this.recipe.dataCols !== undefined) {
      const d = this.recipe.rows * this.recipe.dataCols * 2;
      return { from: this.data, to: this.data, inLen: d, outLen: d };
    }
    if (!real) return { from: this.data, to: this.data, inLen: m, outLen: m };
    return inverse
      ? { from: this.spectra, to: this.data, inLen: h, outLen: m }
      : { from: this.data, to: this.spectra, inLen: m, outLen: h };
  }

  /** run() with each block's column blocks split between the calling thread and workers (one step per block). */
  private async runShared(
    src: AnyArray,
    dst: AnyArray,
    outer: number,
    inverse: boolean,
    scale: number,
    first: number,
    steps: RunColumnSteps,
  ): Promise<void> {
    const { from, to, inLen, outLen } = this.sides(inverse);
    const threads = this.works.length;
    const runs: ColumnsRun[] = this.works.map((work, t) => ({
      id: this.id,
      recipe: this.recipe,
      memory: this.memory,
      from,
      to,
      work,
      k0: Math.floor((t * this.blocks) / threads),
      k1: Math.floor(((t + 1) * this.blocks) / threads),
      inverse,
      scale,
      first,
    }));
    for (let o = 0; o < outer; o++) {
      this.load(src, o * inLen, inLen, from);
      const fixes = this.balanceColumns(inverse, from);
      await steps(runs);
      const fixed = fixes && this.applyColumnFixes(fixes, inverse, src, o * inLen, () => runColumnsParts(runs));
      if (fixed) dst.set(fixed, o * outLen);
      else this.store(dst, o * outLen, outLen, to);
    }
  }
}

/** fn(i) for each number i of column c of a block side (offsets from the side's start). */
function eachOfColumn(l: { rows: number; pitch: number; width: 1 | 2 }, c: number, fn: (i: number) => void): void {
  for (let r = 0, i = c * l.width; r < l.rows; r++, i += l.pitch) for (let w = 0; w < l.width; w++) fn(i + w);
}

/** Bytes of a block copied in before colmax reads them (in L2 still). */
const COLUMN_MAX_PART_BYTES = 1 << 18;

/** A column of a block balanceColumns changed, and what its outputs need: a factor, zeros, or its own transform. */
interface ColumnFix {
  col: number;
  kind: 'scale' | 'zero' | 'alone';
  factor: number;
}

/** A threaded call's parts run here one after another (a column transformed alone: rare, and small beside the call). */
function runColumnsParts(runs: ColumnsRun[]): void {
  for (const r of runs) runColumnsPart(r);
}

const columnMaxModules = new Map<string, WebAssembly.Module>();
function columnMaxModule(e: 4 | 8, shared: boolean): WebAssembly.Module {
  const key = `${e}/${shared}`;
  let m = columnMaxModules.get(key);
  if (!m) columnMaxModules.set(key, (m = new WebAssembly.Module(generateColumnMaxModule(e, shared) as BufferSource)));
  return m;
}

const engines = new Map<string, ColumnsAxisEngine>();
/** Engines kept: each holds a memory of one block. */
const MAX_ENGINES = 4;
/** Largest engine memory kept between calls (as the transposes' staging, axis-transpose.ts). */
const KEEP_BYTES = 256 * 2 ** 20;

/** The engine of a recipe (cached by exactly what its module and memory depend on). */
export function columnsAxisEngine(recipe: CpuColumnsRecipe): ColumnsAxisEngine {
  const kind = recipe.dst ? '/dst' : recipe.dct ? '/dct' : recipe.realPairs ? '/real' : '';
  const data = recipe.dataCols === undefined ? '' : `<${recipe.dataCols}`;
  const key = `${recipe.rows}x${recipe.cols}${data}/${recipe.precision}${kind}/${recipe.threads ?? 1}`;
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

/**
 * columnsAxisEngineIfCompiles after compiling the module ahead, asynchronously, where this thread may not compile it
 * in place (a browser's main thread): what the async call paths use.
 */
export async function columnsAxisEngineAhead(recipe: CpuColumnsRecipe): Promise<ColumnsAxisEngine | null> {
  if (syncCompileRestricted()) await precompileColumns(recipe, (recipe.threads ?? 1) > 1);
  return columnsAxisEngineIfCompiles(recipe);
}

/** Drops the cached engines (see disposeCpuWorkers). */
export function clearColumnsAxisEngines(): void {
  engines.clear();
  partInstances.clear();
}
