/**
 * 2-D and 3-D FFTs on the CPU engine (src/planner/cpu-fft.ts: planCpuEngineFft2, planCpuEngineRfft2,
 * planCpuEngineFft3, planCpuEngineRfft3): the whole array copied into one WebAssembly memory, the rows by the
 * engine's module for `cols` (one call over all rows; the fused real module for rfft2 / irfft2), the columns by the
 * column module (src/codegen/wasm/fft-columns.ts), for volumes the columns of the depth × plane matrix by a second
 * one, and the result copied out: two copies and a kernel a step, instead of the N-D driver's column groups staged
 * through JavaScript and transposes.
 *
 * With recipe.threads > 1 the memory is shared and each step is shared out (row slots, then column blocks), with
 * a barrier between, as the split single transforms do (src/backends/cpu/fft-split.ts).
 */
import { ButterflyError } from '../../errors.js';
import type { CpuColumnsRecipe, CpuEngineFft2Recipe } from '../../planner/cpu-fft.js';
import { generateColumnsModule, type ColumnsModule } from '../../codegen/wasm/fft-columns.js';
import { compiled, compileSync, precompileLaneModule, syncCompileRestricted, THREAD_AREA_GAP } from './wasm-fft.js';
import { generateConvolvePointwiseModule } from '../../codegen/wasm/convolve-pointwise.js';
import { generateRowsCopyModule } from '../../codegen/wasm/rows-copy.js';
import { adoptMemory, SharedInstances } from './shared-memories.js';

type AnyArray = Float32Array | Float64Array;
type Kernel = (inP: number, outP: number, work: number, tw: number, count: number, scale: number) => void;
type Columns = (src: number, dst: number, work: number, tw: number, k0: number, k1: number, scale: number) => void;

const columnModules = new Map<string, { mod: WebAssembly.Module; info: ColumnsModule }>();
const MAX_COLUMN_MODULES = 32;

/** The recipe the column generator reads for a volume's third step: the n × (rows · cols) matrix. */
function depthColumns(r: CpuEngineFft2Recipe): CpuEngineFft2Recipe {
  const d = r.depth!;
  return { ...r, rows: d.n, cols: r.rows * r.cols, colPasses: d.colPasses, blockGroups: d.blockGroups };
}

/** The column modules' cache key: exactly what the column generator reads. */
const columnsKey = (r: CpuColumnsRecipe, shared: boolean): string =>
  JSON.stringify([r.rows, r.cols, r.precision, r.colPasses, r.blockGroups, r.fma, r.realPairs, r.dct, r.dst, shared]);

/**
 * Compiles a column module ahead, asynchronously, where this thread refuses to compile it in place (a browser's
 * main thread), so that columnsCompiled finds it cached.
 */
export async function precompileColumns(r: CpuColumnsRecipe, shared = false): Promise<void> {
  const key = columnsKey(r, shared);
  if (!syncCompileRestricted() || columnModules.has(key)) return;
  const info = generateColumnsModule(r, shared);
  columnModules.set(key, { mod: await WebAssembly.compile(info.bytes as BufferSource), info });
  while (columnModules.size > MAX_COLUMN_MODULES) columnModules.delete(columnModules.keys().next().value!);
}

/** Whether the column module of a recipe is compiled and cached (tests: what ran where compiling is restricted). */
export function hasColumnsModule(r: CpuColumnsRecipe, shared = false): boolean {
  return columnModules.has(columnsKey(r, shared));
}

/** Every module a 2-D engine of this recipe compiles (its rows, columns and depth), ahead; see precompileColumns. */
export async function precompileFft2(recipe: CpuEngineFft2Recipe): Promise<void> {
  const shared = recipe.threads > 1;
  await precompileLaneModule(recipe.row, shared);
  await precompileColumns(recipe, shared);
  if (recipe.depth) await precompileColumns(depthColumns(recipe), shared);
}

/** The column module of a recipe's column side (compiled once per shape; fft-columns-axis.ts uses it too). */
export function columnsCompiled(
  r: CpuColumnsRecipe,
  shared: boolean,
): { mod: WebAssembly.Module; info: ColumnsModule } {
  const key = columnsKey(r, shared);
  let m = columnModules.get(key);
  if (!m) {
    const info = generateColumnsModule(r, shared);
    m = { mod: compileSync(info.bytes), info };
    columnModules.set(key, m);
    while (columnModules.size > MAX_COLUMN_MODULES) columnModules.delete(columnModules.keys().next().value!);
  }
  return m;
}

/** One thread's part of a step of a shared 2-D transform: plain data, posted to a worker as is. */
export interface PlaneRun {
  id: number;
  recipe: CpuEngineFft2Recipe;
  memory: WebAssembly.Memory;
  step: Step;
  inverse: boolean;
  /** The regions: rows in (a) and out (b) of the row module, the padded complex matrix of real recipes (c). */
  a: number;
  b: number;
  c: number;
  rowTw: number;
  colTw: number;
  /** The third step's table (volumes). */
  depthTw: number;
  work: number;
  /** Row slots (rows) or column blocks (cols) [k0, k1). */
  k0: number;
  k1: number;
  scale: number;
}

type Step = 'rows' | 'cols' | 'depth';

interface Kernels {
  fwd: Kernel;
  inv: Kernel;
  cF: Columns;
  cI: Columns;
  /** Volumes: the third step's column module. */
  dF?: Columns;
  dI?: Columns;
  /** Column blocks of one plane. */
  blocks: number;
  r2c?: (z: number, y: number, tw: number, count: number, scale: number) => void;
  /** The forward rows leaving Z in split layout, and the post step reading it (lane-split rows with W | h/W). */
  fwds?: Kernel;
  r2cs?: (z: number, y: number, tw: number, count: number, scale: number) => void;
  c2r?: (y: number, z: number, tw: number, count: number) => void;
  slotBytes: number;
  problemsPerSlot: number;
  r2cTwiddleOffset: number;
  heap: AnyArray;
}

function instantiate(recipe: CpuEngineFft2Recipe, memory: WebAssembly.Memory, shared: boolean): Kernels {
  const row = compiled(recipe.row, shared);
  const col = columnsCompiled(recipe, shared);
  const r = new WebAssembly.Instance(row.mod, { env: { memory } }).exports;
  const c = new WebAssembly.Instance(col.mod, { env: { memory } }).exports;
  const d = recipe.depth
    ? new WebAssembly.Instance(columnsCompiled(depthColumns(recipe), shared).mod, { env: { memory } }).exports
    : undefined;
  return {
    fwd: r['fwd'] as Kernel,
    inv: r['inv'] as Kernel,
    cF: c['cF'] as Columns,
    cI: c['cI'] as Columns,
    dF: d?.['cF'] as Columns | undefined,
    dI: d?.['cI'] as Columns | undefined,
    blocks: col.info.blocks,
    r2c: r['r2c'] as Kernels['r2c'],
    fwds: r['fwds'] as Kernel | undefined,
    r2cs: r['r2cs'] as Kernels['r2c'],
    c2r: r['c2r'] as Kernels['c2r'],
    slotBytes: row.info.slotBytes,
    problemsPerSlot: row.info.problemsPerSlot,
    r2cTwiddleOffset: row.info.r2cTwiddleOffset ?? 0,
    heap: recipe.precision === 'f32' ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer),
  };
}

/** Instances for the threads' parts of a step, by memory (see shared-memories.ts). */
const planeInstances = new SharedInstances<Kernels>(4);

function runOn(k: Kernels, run: Omit<PlaneRun, 'id' | 'memory'>): void {
  const { recipe, inverse } = run;
  if (run.step === 'depth') {
    // Complex volumes a → b, scaled here; real ones in place in the padded planes, scaled here going forward only
    // (the real inverse scales its rows, its last step).
    if (recipe.real)
      (inverse ? k.dI! : k.dF!)(run.c, run.c, run.work, run.depthTw, run.k0, run.k1, inverse ? 1 : run.scale);
    else (inverse ? k.dI! : k.dF!)(run.a, run.b, run.work, run.depthTw, run.k0, run.k1, run.scale);
    return;
  }
  if (run.step === 'cols' && recipe.depth) {
    // Every plane's column blocks, plane by plane: unit u is block u mod blocks of plane ⌊u / blocks⌋ (complex
    // b → a, real in place in the padded planes).
    const plane = recipe.rows * recipe.cols * 2 * k.heap.BYTES_PER_ELEMENT;
    const [src, dst] = recipe.real ? [run.c, run.c] : [run.b, run.a];
    for (let u = run.k0; u < run.k1; u++) {
      const at = Math.floor(u / k.blocks) * plane;
      const q = u % k.blocks;
      (inverse ? k.cI : k.cF)(src + at, dst + at, run.work, run.colTw, q, q + 1, 1);
    }
    return;
  }
  if (run.step === 'cols') {
    // Complex: b → a. Real: the padded matrix in place, scaled by the forward transform only (the inverse
    // scales its rows).
    const [src, dst] = recipe.real ? [run.c, run.c] : [run.b, run.a];
    const scale = recipe.real && inverse ? 1 : run.scale;
    (inverse ? k.cI : k.cF)(src, dst, run.work, run.colTw, run.k0, run.k1, scale);
    return;
  }
  rowsRange(k, run, run.k0, run.k1, run.a + run.k0 * k.slotBytes, run.b + run.k0 * k.slotBytes);
}

/**
 * Row slots [s0, s1) of a rows step, their input at aAt and their output at bAt (the regions a and b at the slots'
 * places, or stages the caller fills or empties): complex rows a → b; real rows forward a → b, then the post step
 * into the padded matrix c; real rows inverse c → a by the pre step, then a → b.
 */
function rowsRange(
  k: Kernels,
  run: Omit<PlaneRun, 'id' | 'memory'>,
  s0: number,
  s1: number,
  aAt: number,
  bAt: number,
): void {
  const { recipe, inverse } = run;
  const count = s1 - s0;
  if (!recipe.real) {
    (inverse ? k.inv : k.fwd)(aAt, bAt, run.work, run.rowTw, count, 1);
    return;
  }
  // Real rows: h complex values a row in a and b, h + 1 a row in the padded matrix c.
  const e = k.heap.BYTES_PER_ELEMENT;
  const h = recipe.real.n / 2;
  const q0 = s0 * k.problemsPerSlot;
  const q1 = Math.min(recipe.rows * (recipe.depth?.n ?? 1), s1 * k.problemsPerSlot);
  const pitch = recipe.cols * 2 * e;
  const tw = run.rowTw + k.r2cTwiddleOffset;
  if (!inverse) {
    // Z in split layout for the pairs post step where the module has it (rfft-post.ts r2cs).
    (k.fwds ?? k.fwd)(aAt, bAt, run.work, run.rowTw, count, 1);
    const post = k.fwds ? k.r2cs! : k.r2c!;
    for (let q = q0; q < q1; q++) post(bAt + (q - q0) * h * 2 * e, run.c + q * pitch, tw, 1, 1);
    return;
  }
  for (let q = q0; q < q1; q++) {
    // Like numpy, ignore the imaginary parts of Y_0 and Y_h.
    const y = (run.c + q * pitch) / e;
    k.heap[y + 1] = 0;
    k.heap[y + 2 * h + 1] = 0;
    k.c2r!(run.c + q * pitch, aAt + (q - q0) * h * 2 * e, tw, 1);
  }
  k.inv(aAt, bAt, run.work, run.rowTw, count, run.scale);
}

/** Runs one thread's part of a step on this thread (a worker instantiates the modules on first use). */
export function runPlaneStep(run: PlaneRun): void {
  runOn(
    planeInstances.of(run.id, run.memory, () => instantiate(run.recipe, run.memory, true)),
    run,
  );
}

/**
 * Real rows shorter than this (bytes) move between the padded matrix and packed rows by the rows-copy module, in
 * place, with one typed-array copy for the whole array; longer ones a typed-array copy each, which costs less than the
 * module's extra pass (docs/DECISIONS.md: real 3-D transforms in the 2-D engine).
 */
const ROW_MOVER_BELOW_BYTES = 1024;

/** Bytes of rows a chunk of the staged rows step (docs/DECISIONS.md: 2-D rows staged a chunk at a time). */
const ROW_STAGE_BYTES = 1 << 16;

export class Fft2Engine {
  private readonly id: number;
  private readonly memory: WebAssembly.Memory;
  private readonly heap: AnyArray;
  private readonly kernels: Kernels;
  private readonly rowTw: number;
  private readonly colTw: number;
  private readonly depthTw: number;
  private readonly depthBlocks: number;
  private readonly rowWorks: number[] = [];
  private readonly colWorks: number[] = [];
  private readonly aP: number;
  private readonly bP: number;
  private readonly cP: number;
  /** With `stash`: where a convolution keeps one operand's spectrum (the padded matrix's size), else 0. */
  private readonly dP: number;
  private pointwise?: { cmul(dst: number, a: number, b: number, count: number): void };
  /** Real recipes: rows between the padded matrix c and packed rows, in place (rows-copy.ts). */
  private rowsCopy?: Record<
    'compact' | 'expand',
    (src: number, dst: number, rows: number, ss: number, ds: number) => void
  >;
  private readonly slots: number;
  private readonly blocks: number;
  private last: Promise<unknown> = Promise.resolve();
  constructor(
    readonly recipe: CpuEngineFft2Recipe,
    stash = false,
  ) {
    const threads = recipe.threads;
    const shared = threads > 1;
    const row = compiled(recipe.row, shared);
    const col = columnsCompiled(recipe, shared);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Regions staggered modulo 4 KiB, as the engine's other buffers, so strided streams use different cache sets.
    let stagger = 0;
    const align = (x: number): number => Math.ceil(x / 4096) * 4096 + 1024 * (stagger++ % 4);
    const depth = recipe.depth ? columnsCompiled(depthColumns(recipe), shared) : null;
    // Volumes: the rows of every plane go through the row module in one call.
    this.slots = Math.ceil((recipe.rows * (recipe.depth?.n ?? 1)) / row.info.problemsPerSlot);
    const matrix = this.slots * row.info.slotBytes;
    this.rowTw = 0;
    this.colTw = align(row.info.twiddles.length * e);
    this.depthTw = align(this.colTw + col.info.twiddles.length * e);
    let at = this.depthTw + (depth ? depth.info.twiddles.length * e : 0);
    const colWork = Math.max(col.info.workBytes, depth?.info.workBytes ?? 0);
    for (let t = 0; t < threads; t++) {
      this.rowWorks.push((at = align(at)));
      this.colWorks.push((at = align(at + row.info.workBytes)));
      at += colWork + THREAD_AREA_GAP;
    }
    this.aP = align(at);
    this.bP = align(this.aP + matrix);
    this.cP = align(this.bP + matrix);
    const padded = recipe.real ? (recipe.depth?.n ?? 1) * recipe.rows * recipe.cols * 2 * e : 0;
    this.dP = stash && recipe.real ? align(this.cP + padded) : 0;
    const bytes = (this.dP || this.cP) + padded;
    const pages = Math.ceil(bytes / 65536);
    try {
      this.memory = new WebAssembly.Memory(shared ? { initial: pages, maximum: pages, shared } : { initial: pages });
    } catch (err) {
      throw new ButterflyError(`2-D FFT: the runtime refused a WebAssembly memory of ${bytes} bytes (${err})`);
    }
    this.kernels = instantiate(recipe, this.memory, shared);
    this.id = adoptMemory(this.memory);
    // Threaded steps run the calling thread's part on this instance too.
    if (shared) planeInstances.set(this.id, this.memory, this.kernels);
    this.blocks = col.info.blocks;
    this.depthBlocks = depth?.info.blocks ?? 0;
    this.heap = e === 4 ? new Float32Array(this.memory.buffer) : new Float64Array(this.memory.buffer);
    this.heap.set(row.info.twiddles, this.rowTw / e);
    this.heap.set(col.info.twiddles, this.colTw / e);
    if (depth) this.heap.set(depth.info.twiddles, this.depthTw / e);
  }

  /** The threads' parts of a step, evenly shared; the first for the calling thread. */
  private runs(step: Step, inverse: boolean, scale: number, c = this.cP): PlaneRun[] {
    const units =
      step === 'rows' ? this.slots : step === 'depth' ? this.depthBlocks : this.blocks * (this.recipe.depth?.n ?? 1);
    const t = Math.min(this.recipe.threads, units);
    return Array.from({ length: t }, (_, i) => ({
      id: this.id,
      recipe: this.recipe,
      memory: this.memory,
      step,
      inverse,
      a: this.aP,
      b: this.bP,
      c,
      rowTw: this.rowTw,
      colTw: this.colTw,
      depthTw: this.depthTw,
      work: step === 'rows' ? this.rowWorks[i]! : this.colWorks[i]!,
      k0: Math.round((units * i) / t),
      k1: Math.round((units * (i + 1)) / t),
      scale,
    }));
  }

  /**
   * `count` contiguous 2-D arrays from src into dst (src and dst may be the same array), times `scale`: complex
   * rows × cols, or for real recipes rows × n reals ↔ rows × (n/2 + 1) complex (inverse: the reverse). `dispatch`
   * runs a step's parts (the first here, the others on workers) and resolves when all are done; without it (or
   * with one thread) every part runs here.
   */
  execute(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    inverse: boolean,
    scale: number,
    dispatch?: (runs: PlaneRun[], here?: () => void) => Promise<void>,
  ): Promise<void> {
    // Calls share the engine's memory: each waits for the one before (a failed call does not block the next).
    const run = this.last.then(async () => {
      const local = async (runs: PlaneRun[], here?: () => void) =>
        runs.forEach((r, i) => (i === 0 && here ? here() : runOn(this.kernels, r)));
      const go = this.recipe.threads > 1 && dispatch ? dispatch : local;
      // The real inverse transforms its columns first (numpy's irfft2 order); every other case its rows first.
      const steps: Step[] = this.recipe.depth
        ? this.recipe.real && inverse
          ? ['depth', 'cols', 'rows']
          : ['rows', 'cols', 'depth']
        : this.recipe.real && inverse
          ? ['cols', 'rows']
          : ['rows', 'cols'];
      const [inLen, outLen] = this.lengths(inverse);
      // Real recipes: the calling thread copies its rows' input in a chunk at a time, each just before the row kernel
      // reads it from cache (forward, rows first); the inverse's rows, last, send their output out the same way. The
      // array then crosses memory once less (the other threads' rows are still copied whole, before or after their
      // step). Complex recipes load and store whole arrays (docs/DECISIONS.md: 2-D rows staged a chunk at a time).
      const real = this.recipe.real !== undefined;
      const loadRows = real && steps[0] === 'rows';
      const storeRows = real && steps[steps.length - 1] === 'rows';
      for (let q = 0; q < count; q++) {
        const x = src.subarray(q * inLen, (q + 1) * inLen);
        const y = dst.subarray(q * outLen, (q + 1) * outLen);
        if (!loadRows) this.load(x, inverse);
        for (const step of steps) {
          const runs = this.runs(step, inverse, scale);
          if (step !== 'rows' || (!loadRows && !storeRows)) {
            await go(runs);
            continue;
          }
          const [mine, ...others] = runs;
          if (loadRows) for (const r of others) this.copySlots(x, r.k0, r.k1, 'in');
          await go(runs, () => this.rowsStaged(mine!, loadRows ? x : undefined, storeRows ? y : undefined));
          if (storeRows) for (const r of others) this.copySlots(y, r.k0, r.k1, 'out');
        }
        if (!storeRows) this.store(y, inverse);
      }
    });
    this.last = run.catch(() => undefined);
    return run;
  }

  /**
   * Row slots [k0, k1) between an array laid out as the row module's slots (the rows' input, x, or the real
   * inverse's output, y) and their place in region a (in) or b (out).
   */
  private copySlots(v: AnyArray, k0: number, k1: number, way: 'in' | 'out'): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const sv = this.kernels.slotBytes / e;
    const end = Math.min(v.length, k1 * sv);
    if (way === 'in') this.heap.set(v.subarray(k0 * sv, end), this.aP / e + k0 * sv);
    else v.set(this.heap.subarray(this.bP / e + k0 * sv, this.bP / e + end), k0 * sv);
  }

  /**
   * A real recipe's rows step on one thread, a chunk of slots at a time through stages at the start of the thread's
   * own parts of a and b (the real rows' a and b are scratch: the padded matrix c is what the columns read): x, the
   * forward's input, is copied into the stage just before the kernel reads it; y, the inverse's output, leaves as
   * each chunk is done.
   */
  private rowsStaged(run: PlaneRun, x: AnyArray | undefined, y: AnyArray | undefined): void {
    const k = this.kernels;
    const e = this.heap.BYTES_PER_ELEMENT;
    const sv = k.slotBytes / e;
    const per = Math.max(1, Math.floor(ROW_STAGE_BYTES / k.slotBytes));
    const stageA = run.a + run.k0 * k.slotBytes;
    const stageB = run.b + run.k0 * k.slotBytes;
    for (let s0 = run.k0; s0 < run.k1; s0 += per) {
      const s1 = Math.min(run.k1, s0 + per);
      if (x) this.heap.set(x.subarray(s0 * sv, Math.min(x.length, s1 * sv)), stageA / e);
      rowsRange(k, run, s0, s1, stageA, stageB);
      if (y) y.set(this.heap.subarray(stageB / e, stageB / e + Math.min(y.length - s0 * sv, (s1 - s0) * sv)), s0 * sv);
    }
  }

  /**
   * Real 2-D FFT convolution in this engine's memory (a real recipe of the padded size rows × n, built with
   * `stash`): `b` (sb[0] × sb[1]) and `a` zero-padded into the input rows and transformed, b's spectrum kept in the
   * stash meanwhile, the product transformed back (scaled by 1/(rows·n)), and the window [start, start + size) of the
   * result written to dst from dstAt, row after row. No array crosses to JavaScript in between.
   */
  convolve(
    a: AnyArray,
    sa: readonly [number, number],
    b: AnyArray,
    sb: readonly [number, number],
    start: readonly [number, number],
    size: readonly [number, number],
    dst: AnyArray,
    dstAt: number,
    dispatch?: (runs: PlaneRun[]) => Promise<void>,
  ): Promise<void> {
    const { rows, cols, real, threads } = this.recipe;
    if (!real || this.recipe.depth || !this.dP) throw new Error('convolve: a 2-D real engine with a stash');
    const n = real.n;
    const e = this.heap.BYTES_PER_ELEMENT;
    const run = this.last.then(async () => {
      const here = async (runs: PlaneRun[]) => runs.forEach((r) => runOn(this.kernels, r));
      const go = threads > 1 && dispatch ? dispatch : here;
      // Each operand's spectrum in its own padded matrix: b's in the stash, a's in c.
      const forward = async (x: AnyArray, s: readonly [number, number], c: number): Promise<void> => {
        // The operand's rows, each padded with zeros to n, then zero rows: every input value written once.
        const at = this.aP / e;
        for (let q = 0; q < s[0]; q++) {
          this.heap.set(x.subarray(q * s[1], (q + 1) * s[1]), at + q * n);
          this.heap.fill(0, at + q * n + s[1], at + (q + 1) * n);
        }
        this.heap.fill(0, at + s[0] * n, at + rows * n);
        for (const step of ['rows', 'cols'] as const) await go(this.runs(step, false, 1, c));
      };
      await forward(b, sb, this.dP);
      await forward(a, sa, this.cP);
      this.pointwise ??= new WebAssembly.Instance(
        new WebAssembly.Module(generateConvolvePointwiseModule(e as 4 | 8, threads > 1) as BufferSource),
        { env: { memory: this.memory } },
      ).exports as unknown as NonNullable<Fft2Engine['pointwise']>;
      this.pointwise.cmul(this.cP, this.cP, this.dP, rows * cols);
      for (const step of ['cols', 'rows'] as const) await go(this.runs(step, true, 1 / (rows * n)));
      // The result's rows (n reals each) are in b.
      for (let q = 0; q < size[0]; q++) {
        const from = this.bP / e + (start[0] + q) * n + start[1];
        dst.set(this.heap.subarray(from, from + size[1]), dstAt + q * size[1]);
      }
    });
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Values of one array on the input and the output side. */
  lengths(inverse: boolean): [number, number] {
    const { rows, cols, real, depth } = this.recipe;
    const planes = depth?.n ?? 1;
    if (!real) return [2 * planes * rows * cols, 2 * planes * rows * cols];
    const r = planes * rows * real.n,
      c = planes * rows * 2 * (real.n / 2 + 1);
    return inverse ? [c, r] : [r, c];
  }

  /** The row mover of a real recipe's padded matrix (compiled on first use; its module is a few hundred bytes). */
  private rowMover(): NonNullable<Fft2Engine['rowsCopy']> {
    if (this.rowsCopy) return this.rowsCopy;
    const e = this.heap.BYTES_PER_ELEMENT;
    const bytes = generateRowsCopyModule((this.recipe.real!.n / 2 + 1) * 2 * e, this.recipe.threads > 1);
    return (this.rowsCopy = new WebAssembly.Instance(new WebAssembly.Module(bytes as BufferSource), {
      env: { memory: this.memory },
    }).exports as unknown as NonNullable<Fft2Engine['rowsCopy']>);
  }

  private load(x: AnyArray, inverse: boolean): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const real = this.recipe.real;
    if (!real || !inverse) return this.heap.set(x, this.aP / e);
    // Every plane's rows of n/2 + 1 complex values into the padded matrix. Short rows: packed, then spread to its
    // pitch in place (the padding columns keep whatever is there: each column is transformed on its own, and none is
    // read back).
    const rowBytes = (real.n / 2 + 1) * 2 * e;
    const rows = this.recipe.rows * (this.recipe.depth?.n ?? 1);
    if (rowBytes < ROW_MOVER_BELOW_BYTES) {
      this.heap.set(x, this.cP / e);
      const pitch = this.recipe.cols * 2 * e;
      this.rowMover().expand(this.cP + (rows - 1) * rowBytes, this.cP + (rows - 1) * pitch, rows, -rowBytes, -pitch);
      return;
    }
    const row = rowBytes / e;
    for (let q = 0; q < rows; q++)
      this.heap.set(x.subarray(q * row, (q + 1) * row), (this.cP + q * this.recipe.cols * 2 * e) / e);
  }

  private store(y: AnyArray, inverse: boolean): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const real = this.recipe.real;
    // Complex volumes end in b (the third step reads a), planes in a; real results in c's rows or in b.
    const at = this.recipe.depth ? this.bP : this.aP;
    if (!real) return y.set(this.heap.subarray(at / e, at / e + y.length));
    if (inverse) return y.set(this.heap.subarray(this.bP / e, this.bP / e + y.length));
    // Every plane's rows: short ones packed in place at the start of c, then one copy; long ones a copy each.
    const rows = this.recipe.rows * (this.recipe.depth?.n ?? 1);
    const row = 2 * (real.n / 2 + 1);
    if (row * e < ROW_MOVER_BELOW_BYTES) {
      this.rowMover().compact(this.cP, this.cP, rows, this.recipe.cols * 2 * e, row * e);
      y.set(this.heap.subarray(this.cP / e, this.cP / e + y.length));
      return;
    }
    for (let q = 0; q < rows; q++) {
      const at = (this.cP + q * this.recipe.cols * 2 * e) / e;
      y.set(this.heap.subarray(at, at + row), q * row);
    }
  }
}

const engines = new Map<string, Fft2Engine>();
/** 2-D engines kept: each holds a memory of twice its array. */
const MAX_ENGINES = 4;

/** The 2-D engine of a recipe (cached: its memory is reused call after call). */
export function fft2Engine(recipe: CpuEngineFft2Recipe, stash = false): Fft2Engine {
  const key = `${recipe.depth?.n ?? 1}x${recipe.rows}x${recipe.cols}/${recipe.real?.n ?? 'c'}/${recipe.precision}/${recipe.threads}${stash ? '/stash' : ''}`;
  let f = engines.get(key);
  if (!f) {
    f = new Fft2Engine(recipe, stash);
    engines.set(key, f);
    while (engines.size > MAX_ENGINES) engines.delete(engines.keys().next().value!);
  }
  return f;
}

/** Drops the cached 2-D engines and this thread's instances (see disposeCpuWorkers). */
export function clearFft2Engines(): void {
  engines.clear();
  planeInstances.clear();
}
