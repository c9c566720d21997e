/**
 * The CPU engine's complex FFT: runs the WebAssembly SIMD modules generated from the CPU recipes
 * (lane-split / lane-batch), and Bluestein on top of them for lengths with large prime factors.
 *
 * Each plan owns one WebAssembly.Memory laid out as [twiddles | work | input chunk | output chunk].
 * Problems are copied into the input chunk (a typed-array `set` when the layout is contiguous), the
 * module transforms a whole chunk per call, and results are copied out, so arbitrary strides, in-place
 * calls and float32/float64 conversions all work without special cases in the kernels.
 */
import { ButterflyError, DeviceLimitError } from '../../errors.js';
import { unitRoot } from '../../core/unit-root.js';
import {
  CPU_ENGINE_MAX_N,
  planCpuEngineDct2,
  planCpuEngineType1,
  planCpuEngineBatchFft,
  planCpuEngineFft,
  planCpuEngineRfft,
  planCpuEngineRfftForward,
  stagesEngineBuffers,
  type CpuBluesteinPairsRecipe,
  type CpuPairsRecipe,
  type CpuRaderPairsRecipe,
  type CpuEngineFftRecipe,
  type CpuLaneRecipe,
  type CpuPrecision,
} from '../../planner/cpu-fft.js';
import { generateEngineFft, generatePairsRows, type EngineModule } from '../../codegen/wasm/fft-engine.js';
import { generateTransposeModule } from '../../codegen/wasm/transpose.js';
import { gatherTable, gatherTerms, generateGatherModule, permutationTable } from '../../codegen/wasm/gather.js';
import { pairActions, rangeScale } from './pair-balance.js';
import type { GatherMap } from '../../core/gather-map.js';
import { dct4OddGathers } from '../../core/dct4-odd-same-length.js';
import { DEFAULT_BLUESTEIN_THRESHOLD, planCpuFft } from './fft-plan.js';
import { SingleRowsFft } from './single-rows.js';
import { checkFits, checkLength, layoutOf, normScale, type CpuFftExecOptions } from './fft-mixed-radix.js';
import { adoptMemory, SharedInstances } from './shared-memories.js';
import { lruGet, lruSet } from '../../util/lru.js';

type AnyArray = Float32Array | Float64Array;
type Kernel = (inP: number, outP: number, work: number, tw: number, count: number, scale: number) => void;
/** A row pass of a module: `count` rows from src to dst (byte addresses). */
type RowPass = (src: number, dst: number, count: number) => void;

/** Target bytes of one input chunk: big enough to amortise calls, small enough that the copies stay in cache. */
const CHUNK_BYTES = 1 << 16;
/** Target bytes of a chunk of complex rows copied in and out (execute): fewer switches between copies and kernel. */
const ROW_CHUNK_BYTES = 1 << 20;

/** A row of a chunk balancePairs changed, and what its outputs need: a factor, zeros, or its own transform. */
interface PairFix {
  row: number;
  kind: 'scale' | 'zero' | 'alone';
  factor: number;
}

/**
 * Bytes of a group of column problems gathered at once (see LaneFft.executeColumns): wide enough that each
 * row contributes several cache lines in a row, small enough that the group stays in L2.
 */
const COLUMN_GROUP_BYTES = 1 << 21;

/** The transpose module's exports (see codegen/wasm/transpose.ts); compiled once, instantiated per plan memory. */
interface Transposes {
  t8(src: number, dst: number, rows: number, cols: number, srcStride: number, dstStride: number): void;
  t8n(src: number, dst: number, rows: number, cols: number, srcStride: number, dstStride: number): void;
  t16(src: number, dst: number, rows: number, cols: number, srcStride: number, dstStride: number): void;
}
let transposeModule: WebAssembly.Module | undefined;
type GatherFn = (src: number, dst: number, table: number, m: number, count: number, ss: number, ds: number) => void;
let gatherModule: WebAssembly.Module | undefined;
/** A gather map's table in a plan's memory: its byte address, outputs a row and terms (codegen/wasm/gather.ts). */
interface GatherTable {
  at: number;
  m: number;
  terms: 1 | 2;
}
/** A permutation table of complex values in a plan's memory: its byte address and outputs a row. */
interface PermutationTable {
  at: number;
  m: number;
}

/**
 * Least-recently-used caches: a plan holds its own memory (chunk buffers, twiddles), so a program that
 * visits many lengths must not keep them all.
 */
const MAX_MODULES = 256;
const MAX_PLANS = 48;

const modules = new Map<string, { mod: WebAssembly.Module; info: EngineModule }>();

/**
 * Engine buffers: a batch's input and output in a WebAssembly memory of their own, with an instance of the
 * plan's module on it, so that execute() runs the kernel on them where they lie instead of copying every
 * chunk in and out (about half the time of a batch that does not fit in cache). The memory never grows,
 * so the caller's views stay valid; the registry is keyed by that memory's buffer.
 */
interface Resident {
  /** The recipe's cache key: only plans of this module may use it. */
  key: string;
  id: number;
  memory: WebAssembly.Memory;
  batch: number;
  inP: number;
  outP: number;
  slots: number;
  /** One work area a thread (several only where the memory is shared with workers). */
  workPs: number[];
  /** Where each thread stages a chunk of input before the kernel reads it (planner: stagesEngineBuffers); empty: in place. */
  stagePs: number[];
  /** Bytes from a thread's input stage to its output stage; 0: the kernel writes the output in place. */
  outStage: number;
}

/**
 * One thread's part of a call on engine buffers: slots [s0, s0 + count) with its own work (and stage)
 * area. Plain data, posted to a worker as is (a shared WebAssembly.Memory travels by reference).
 */
export interface ResidentRun {
  id: number;
  memory: WebAssembly.Memory;
  inP: number;
  outP: number;
  workP: number;
  stageP: number;
  /** Bytes from stageP to where the kernel writes a staged chunk's output, copied out after; 0: in place. */
  outStage: number;
  s0: number;
  count: number;
  inverse: boolean;
  scale: number;
}

/**
 * Bytes left free after each thread's work area in a memory shared by threads. Areas packed page against page ran
 * 1.2x slower at 256 × 4096 f32 on two threads: a thread streaming to the end of its area has the next page
 * prefetched into its core, the neighbour's, whose every write must then take the lines back.
 */
export const THREAD_AREA_GAP = 1 << 14;
/** Engine buffers' kernels, by memory (see shared-memories.ts); a worker keeps at most 8 whose release is late. */
interface ResidentKernels {
  key: string;
  fwd: Kernel;
  inv: Kernel;
}
const residentInstances = new SharedInstances<ResidentKernels>(8);
const residents = new WeakMap<ArrayBufferLike, Resident>();
/** Whether this thread has made engine buffers at all (until then calls skip the lookup). */
let residentsMade = false;

/** Whether `a` lies in engine buffers (see Resident). */
export function isEngineBuffer(a: AnyArray): boolean {
  return residents.has(a.buffer);
}

/** The memory id of the engine buffers `a` lies in (see shared-memories.ts), or undefined. */
export function engineBuffersId(a: AnyArray): number | undefined {
  return residents.get(a.buffer)?.id;
}

type LaneRecipe = CpuLaneRecipe;

/** Whether a recipe's complex transform runs around a lane module (Bluestein, Rader) rather than in one. */
function aroundLanes<R extends { kind: string }>(recipe: R): recipe is Extract<R, { kind: 'bluestein' | 'rader' }> {
  return recipe.kind === 'bluestein' || recipe.kind === 'rader';
}

/** Elementwise complex product of the lane modules with `pointwise` (codegen/wasm/pointwise.ts). */
type Cmul = (dst: number, a: number, b: number, count: number) => void;

function recipeKey(recipe: LaneRecipe | CpuPairsRecipe): string {
  // `single` is how calls use the module, not part of it.
  return JSON.stringify(recipe, (k, v: unknown) => (k === 'single' ? undefined : v));
}

/** Browsers refuse synchronous compilation of modules over 4 KiB on the main thread. */
export class SyncCompileRefused extends Error {}

export function compiled(recipe: LaneRecipe, sharedMemory = false): { mod: WebAssembly.Module; info: EngineModule } {
  // The key is exactly what the generator reads.
  return cachedModule(recipeKey(recipe) + (sharedMemory ? '/shared' : ''), () =>
    generateEngineFft(recipe, sharedMemory),
  );
}

/** The pairs row steps of a Bluestein or Rader pairs recipe (generatePairsRows), cached beside the lane modules. */
function compiledRows(recipe: CpuPairsRecipe): { mod: WebAssembly.Module; info: EngineModule } {
  return cachedModule(rowsKey(recipe), () => generatePairsRows(recipe.n, recipe.precision, recipe.dct2 === true));
}

const rowsKey = (r: CpuPairsRecipe): string => `pairs-rows/${r.n}/${r.precision}/${r.dct2 === true}`;

/** The module cached under `key`, or the one `make` generates, compiled synchronously and cached. */
function cachedModule(key: string, make: () => EngineModule): { mod: WebAssembly.Module; info: EngineModule } {
  let m = lruGet(modules, key);
  if (!m) {
    const info = make();
    m = { mod: compileSync(info.bytes), info };
    lruSet(modules, key, m, MAX_MODULES);
  }
  return m;
}

/** The lane module of a recipe compiled ahead, asynchronously, where this thread refuses to compile it in place. */
export async function precompileLaneModule(recipe: LaneRecipe, sharedMemory = false): Promise<void> {
  const key = recipeKey(recipe) + (sharedMemory ? '/shared' : '');
  if (!syncCompileRestricted() || lruGet(modules, key)) return;
  const info = generateEngineFft(recipe, sharedMemory);
  lruSet(modules, key, { mod: await WebAssembly.compile(info.bytes as BufferSource), info }, MAX_MODULES);
}

/**
 * A module compiled in place, or SyncCompileRefused where this thread may not (a browser's main thread refuses
 * modules over 4 KiB; the tests' emulation of it, setSyncCompileRestricted, refuses the same ones).
 */
export function compileSync(bytes: Uint8Array): WebAssembly.Module {
  if (emulated && bytes.length > SYNC_COMPILE_MAX_BYTES)
    throw new SyncCompileRefused(`emulated: ${bytes.length} bytes on a restricted thread`);
  try {
    return new WebAssembly.Module(bytes as BufferSource);
  } catch (e) {
    if (e instanceof RangeError) throw new SyncCompileRefused(e.message);
    throw e;
  }
}

/** Largest module a browser's main thread compiles synchronously. */
const SYNC_COMPILE_MAX_BYTES = 4096;
let emulated = false;

/**
 * Tests only: behave as a browser's main thread (synchronous compilation of modules over 4 KiB refused, so only
 * what was compiled ahead runs on the engine), or stop; callers clear the module caches around it.
 */
export function setSyncCompileRestricted(on: boolean): void {
  emulated = on;
  restricted = on ? true : undefined;
}

let restricted: boolean | undefined;
/** Whether this thread refuses synchronous compilation of a module over 4 KiB (a browser's main thread). */
export function syncCompileRestricted(): boolean {
  if (restricted === undefined) {
    // An empty module with a 5000-byte custom section.
    const bytes = new Uint8Array(8 + 1 + 2 + 2 + 5000);
    bytes.set([0, 97, 115, 109, 1, 0, 0, 0, 0, 0x8b, 0x27, 1, 120]);
    try {
      new WebAssembly.Module(bytes);
      restricted = false;
    } catch (e) {
      restricted = e instanceof RangeError;
    }
  }
  return restricted;
}

/** The lane recipes a plan of this length builds (Bluestein's inner plan, the fused real and DCT-II modules). */
function laneRecipes(n: number, precision: CpuPrecision): LaneRecipe[] {
  const out: LaneRecipe[] = [];
  const add = (r: CpuEngineFftRecipe | null): void => {
    if (!r) return;
    if (aroundLanes(r)) add(r.inner);
    else if (r.kind !== 'trivial' && r.kind !== 'reference') out.push(r);
    if (r.kind === 'lane-batch' && r.single) add(r.single);
  };
  // The batched recipe: planCpuEngineFft's, or a lane-batch one whose `single` is it.
  add(planCpuEngineBatchFft(n, precision));
  add(planCpuEngineRfft(n, precision));
  add(planCpuEngineRfftForward(n, precision));
  add(planCpuEngineDct2(n, precision));
  add(planCpuEngineType1(n, precision, false));
  add(planCpuEngineType1(n, precision, true));
  return out;
}

/**
 * Compiles, asynchronously, the modules that plans of these lengths need, so that the synchronous
 * engine finds them cached; where synchronous compilation is refused (a browser's main thread) this is
 * what lets the engine run at all. Lengths the engine cannot take are skipped (planning reports them).
 */
export async function precompileEngine(lengths: readonly number[], precision: CpuPrecision): Promise<void> {
  if (!WASM_SIMD || !syncCompileRestricted()) return;
  for (const n of new Set(lengths)) {
    let recipes: LaneRecipe[];
    try {
      recipes = laneRecipes(n, precision);
    } catch {
      continue;
    }
    const sources: [string, () => EngineModule][] = recipes.map((r) => [recipeKey(r), () => generateEngineFft(r)]);
    // Bluestein and Rader lengths: the pairs row steps of the real and the DCT modules.
    for (const r of [planCpuEngineRfftForward(n, precision), planCpuEngineDct2(n, precision)])
      if (r && aroundLanes(r)) sources.push([rowsKey(r), () => generatePairsRows(r.n, r.precision, r.dct2 === true)]);
    for (const [key, make] of sources) {
      if (lruGet(modules, key)) continue;
      const info = make();
      lruSet(modules, key, { mod: await WebAssembly.compile(info.bytes as BufferSource), info }, MAX_MODULES);
    }
  }
}

export interface EngineExecOptions extends CpuFftExecOptions {
  /** Extra factor applied with the normalisation (the real and r2r adapters fold theirs in here). */
  scaleBy?: number;
}

/** A complex FFT of one length and precision on the CPU engine. */
export interface EngineFft {
  readonly n: number;
  readonly precision: CpuPrecision;
  readonly recipe: CpuEngineFftRecipe;
  /** Batched, strided, normalised transform, numpy conventions; input and output may alias. */
  execute(input: AnyArray, output: AnyArray, options?: EngineExecOptions): void;
  /** Unnormalised transform of one contiguous problem at data[2·offset …], in place, times `scale`. */
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale?: number): void;
  /**
   * Input and output arrays for `batch` packed problems that execute() transforms without copying them
   * (engine buffers); absent where the plan has no such path (Bluestein, trivial, scalar).
   */
  createBuffers?(batch: number, threads?: number): { input: AnyArray; output: AnyArray };
  /** The runs of a call on this plan's engine buffers for up to `threads` threads, or null (see LaneFft). */
  residentRuns?(input: AnyArray, output: AnyArray, options: EngineExecOptions, threads: number): ResidentRun[] | null;
  /** One run of residentRuns, on this thread. */
  runResident?(run: ResidentRun): void;
  /** Problems [q0, q0 + count) of a run, on this thread: q0 a multiple of slotProblems (see LaneFft). */
  runResidentProblems?(run: ResidentRun, q0: number, count: number): void;
  /** Problems one slot of engine buffers holds: 1 (lane-split, four-step) or the lanes (lane-batch). */
  readonly slotProblems?: number;
}

/** Shared by every engine plan: one contiguous problem through the batched entry point. */
function inPlace(plan: EngineFft, data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
  const l = { offset };
  // norm 'forward' on the inverse and 'backward' on the forward transform are both unscaled.
  plan.execute(data, data, { inverse, norm: inverse ? 'forward' : 'backward', input: l, output: l, scaleBy: scale });
}

class LaneFft implements EngineFft, FusedRealFft {
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    inPlace(this, data, offset, inverse, scale);
  }
  /** Shared with the inner plans that plans around this one instantiate in it (kernelsIn). */
  readonly memory: WebAssembly.Memory;
  /** The complex FFT of the slots (set by BluesteinPairsFft, whose module has only the row steps). */
  fwd: Kernel;
  inv: Kernel;
  private readonly info: EngineModule;
  readonly twP = 0;
  readonly workP: number;
  readonly inP: number;
  readonly outP: number;
  readonly chunkSlots: number;
  /** Slots of a chunk of complex rows copied from and to ordinary arrays (ROW_CHUNK_BYTES). */
  readonly rowSlots: number;
  private readonly yP: number;
  private readonly r2c?: (z: number, y: number, tw: number, count: number, scale: number) => void;
  /** The forward transform leaving Z in split layout, and the post step reading it (r2cSplitPostFunction). */
  private readonly fwds?: Kernel;
  private readonly r2cs?: (z: number, y: number, tw: number, count: number, scale: number) => void;
  private readonly c2r?: (y: number, z: number, tw: number, count: number) => void;
  private readonly pack2?: (x: number, z: number, pairs: number) => void;
  private readonly split2?: (z: number, y: number, pairs: number, scale: number) => void;
  private readonly merge2?: (y: number, z: number, pairs: number, scale: number) => void;
  private readonly unpack2?: (z: number, x: number, pairs: number) => void;
  /** realPairs: paired rows' largest magnitudes and whether any pair is unbalanced (codegen/wasm/row-max.ts). */
  private readonly pairmax?: (x: number, len: number, pairs: number, out: number, flag: number) => void;
  private readonly guardP: number = 0;
  private readonly dct2pre?: (x: number, v: number, count: number) => void;
  /** The unfused DCT-II post step (even n): the fused step's reference in test/cpu/dct2-fused.test.ts. */
  private readonly dct2post?: (y: number, out: number, tw: number, count: number) => void;
  private readonly dct2r2c?: (z: number, out: number, twR: number, twD: number, count: number, scale: number) => void;
  /** The DST-II's reorder (odd inputs negated) and post step (outputs reversed): no alternate or reverse passes. */
  private readonly dst2pre?: (x: number, v: number, count: number) => void;
  private readonly dst2r2c?: (z: number, out: number, twR: number, twD: number, count: number, scale: number) => void;
  /** Odd n: the pairs' split and the DCT-II (DST-II) post step in one pass (dct2SplitFunction). */
  private readonly dct2split?: (z: number, out: number, tw: number, pairs: number, scale: number) => void;
  private readonly dst2split?: (z: number, out: number, tw: number, pairs: number, scale: number) => void;
  private readonly dct3pre?: (x: number, y: number, tw: number, count: number) => void;
  private readonly dct3post?: (v: number, out: number, count: number) => void;
  /** The DST-III's pre and post steps: the DCT-III's with the input reversal and the output signs folded in. */
  private readonly dst3pre?: (x: number, y: number, tw: number, count: number) => void;
  private readonly dst3post?: (v: number, out: number, count: number) => void;
  /** Even n: dct3pre and c2r in one pass, the inputs straight to the inverse's Z' (dct3C2rFunction). */
  private readonly dct3c2r?: (x: number, z: number, tw3: number, twR: number, count: number) => void;
  private readonly dst3c2r?: (x: number, z: number, tw3: number, twR: number, count: number) => void;
  private readonly dct4pre?: (x: number, z: number, tw: number, count: number) => void;
  private readonly dct4post?: (z: number, out: number, tw: number, count: number) => void;
  private readonly dst4pre?: (x: number, z: number, tw: number, count: number) => void;
  private readonly dst4post?: (z: number, out: number, tw: number, count: number) => void;
  private readonly dht?: (z: number, out: number, twR: number, count: number, scale: number) => void;
  private readonly type1?: Record<R2rVariant, { ext: RowPass; out: RowPass }>;
  heap!: AnyArray;
  /** The f32 heap seen as one float64 per complex value (column copies). */
  heapPairs?: Float64Array;
  /** Byte offset of the column-group stage (grown on first use, at the end of memory), and its size. */
  private colP = 0;
  private colBytes = 0;
  /** Start of `extraBytes` of caller-owned memory after the buffers (Bluestein's tables). */
  readonly extraP: number;
  readonly cmul?: Cmul;
  private readonly key: string;
  constructor(
    readonly recipe: LaneRecipe | CpuPairsRecipe,
    extraBytes = 0,
    { mod, info }: { mod: WebAssembly.Module; info: EngineModule } = compiled(recipe as LaneRecipe),
  ) {
    this.key = recipeKey(recipe);
    this.info = info;
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Buffers start at different offsets modulo 4 KiB, so that a pass's power-of-two strided input and
    // output streams fall into different cache sets instead of competing for the same ways.
    let stagger = 0;
    const align = (x: number): number => Math.ceil(x / 4096) * 4096 + 1024 * (stagger++ % 4);
    this.chunkSlots = Math.max(1, Math.floor(CHUNK_BYTES / info.slotBytes));
    this.rowSlots = Math.max(this.chunkSlots, Math.floor(ROW_CHUNK_BYTES / info.slotBytes));
    this.workP = align(info.twiddles.length * e);
    this.inP = align(this.workP + info.workBytes);
    this.outP = align(this.inP + this.rowSlots * info.slotBytes);
    this.yP = align(this.outP + this.rowSlots * info.slotBytes);
    const realBytes =
      info.r2cTwiddleOffset === undefined && !recipe.realPairs ? 0 : this.chunkSlots * (info.slotBytes + 16 * e);
    this.extraP = align(this.yP + realBytes);
    // After the caller's memory, so that the other buffers keep their offsets (and cache sets).
    this.guardP = align(this.extraP + extraBytes);
    const guardBytes = recipe.realPairs ? 16 * 2 * this.rowSlots * info.problemsPerSlot : 0;
    const total = this.guardP + guardBytes;
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(total / 65536) });
    const inst = new WebAssembly.Instance(mod, { env: { memory: this.memory } });
    this.fwd = inst.exports['fwd'] as Kernel;
    this.inv = inst.exports['inv'] as Kernel;
    this.r2c = inst.exports['r2c'] as typeof this.r2c;
    this.fwds = inst.exports['fwds'] as Kernel | undefined;
    this.r2cs = inst.exports['r2cs'] as typeof this.r2cs;
    this.c2r = inst.exports['c2r'] as typeof this.c2r;
    this.pack2 = inst.exports['pack2'] as typeof this.pack2;
    this.split2 = inst.exports['split2'] as typeof this.split2;
    this.merge2 = inst.exports['merge2'] as typeof this.merge2;
    this.unpack2 = inst.exports['unpack2'] as typeof this.unpack2;
    this.pairmax = inst.exports['pairmax'] as typeof this.pairmax;
    this.dct2pre = inst.exports['dct2pre'] as typeof this.dct2pre;
    this.dct2post = inst.exports['dct2post'] as typeof this.dct2post;
    this.dct2r2c = inst.exports['dct2r2c'] as typeof this.dct2r2c;
    this.dst2pre = inst.exports['dst2pre'] as typeof this.dst2pre;
    this.dst2r2c = inst.exports['dst2r2c'] as typeof this.dst2r2c;
    this.dct2split = inst.exports['dct2split'] as typeof this.dct2split;
    this.dst2split = inst.exports['dst2split'] as typeof this.dst2split;
    this.dct3pre = inst.exports['dct3pre'] as typeof this.dct3pre;
    this.dct3post = inst.exports['dct3post'] as typeof this.dct3post;
    this.dst3pre = inst.exports['dst3pre'] as typeof this.dst3pre;
    this.dst3post = inst.exports['dst3post'] as typeof this.dst3post;
    this.dct3c2r = inst.exports['dct3c2r'] as typeof this.dct3c2r;
    this.dst3c2r = inst.exports['dst3c2r'] as typeof this.dst3c2r;
    this.dct4pre = inst.exports['dct4pre'] as typeof this.dct4pre;
    this.dct4post = inst.exports['dct4post'] as typeof this.dct4post;
    this.dst4pre = inst.exports['dst4pre'] as typeof this.dst4pre;
    this.dst4post = inst.exports['dst4post'] as typeof this.dst4post;
    this.dht = inst.exports['dht'] as typeof this.dht;
    if (!aroundLanes(recipe) && recipe.dct1) {
      const x = (name: string): RowPass => inst.exports[name] as RowPass;
      this.type1 = {
        dct: { ext: x('dct1ext'), out: x('dct1out') },
        dst: { ext: x('dst1ext'), out: x('dst1out') },
      };
    }
    this.cmul = inst.exports['cmul'] as typeof this.cmul;
    this.heap = e === 4 ? new Float32Array(this.memory.buffer) : new Float64Array(this.memory.buffer);
    if (e === 4) this.heapPairs = new Float64Array(this.memory.buffer);
    this.heap.set(info.twiddles, this.twP / e);
  }
  /** The recipe of a module that holds its own transform (not a BluesteinPairsFft, which has no complex path). */
  private get laneRecipe(): LaneRecipe {
    if (aroundLanes(this.recipe))
      throw new Error('a pairs module around Bluestein or Rader has no complex engine path');
    return this.recipe;
  }
  get n(): number {
    return this.recipe.n;
  }
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }

  /**
   * Slots holding `count` problems already written at inP; a lane-batch group left short gets zeros in
   * its empty lanes, so no NaN or denormal slows the valid ones.
   */
  private slotsFor(count: number): number {
    const per = this.info.problemsPerSlot;
    const slots = Math.ceil(count / per);
    if (slots * per > count) {
      const e = this.heap.BYTES_PER_ELEMENT;
      this.heap.fill(0, this.inP / e + 2 * this.n * count, this.inP / e + 2 * this.n * slots * per);
    }
    return slots;
  }

  /**
   * Rows of `src` (inLen values each) through this module's buffers a chunk of `perChunk` at a time: a chunk is
   * copied to byte address `at`, `steps(c)` transforms its c rows and returns where their outLen values a row are,
   * and those go to `dst`.
   */
  private rowChunks(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    [inLen, outLen]: [number, number],
    at: number,
    perChunk: number,
    steps: (c: number) => number,
  ): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    // Pairs methods run rows two a complex transform (realPairs): their rows are balanced first (balancePairs).
    const pairs = this.recipe.realPairs === true;
    let alone: number[] | null = null;
    for (let b0 = 0; b0 < count; b0 += perChunk) {
      const c = Math.min(perChunk, count - b0);
      this.heap.set(src.subarray(b0 * inLen, (b0 + c) * inLen), at / e);
      const fixes = pairs ? this.balancePairs(at, inLen, c) : null;
      const res = steps(c) / e;
      if (fixes) (alone ??= []).push(...this.applyPairFixes(fixes, res, outLen).map((q) => b0 + q));
      dst.set(this.heap.subarray(res, res + c * outLen), b0 * outLen);
    }
    for (const r of alone ?? []) {
      this.heap.set(src.subarray(r * inLen, (r + 1) * inLen), at / e);
      const res = steps(1) / e;
      dst.set(this.heap.subarray(res, res + outLen), r * outLen);
    }
  }

  /**
   * Two rows a complex transform (realPairs) share its rounding: each row's error is relative to the pair's
   * larger row, and a NaN or ±Inf in one reaches every output of the other. Before the steps, for the chunk's `count`
   * rows of `len` values at byte address `at`: a row much smaller than its partner is scaled up by a power of two
   * (exact), a row holding NaN or ±Inf (or one that power cannot reach) is zeroed here and transformed alone after,
   * and a zero row's outputs are set to zero after. Returns those fixes, or null where every pair is balanced.
   */
  private balancePairs(at: number, len: number, count: number): PairFix[] | null {
    const pairs = count >> 1; // an odd chunk's last row is paired with zeros
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT as 4 | 8;
    let fixes: PairFix[] | null = null;
    if (pairs > 0) this.pairmax!(at, len, pairs, this.guardP + 16, this.guardP);
    // Every pair balanced, finite and in range: the common case, one read.
    if (pairs > 0 && heap[this.guardP / e] !== 0) {
      const largest = (q: number): number => heap[(this.guardP + 16) / e + q]!;
      for (let p = 0; p < pairs; p++) {
        for (const { line, kind, scaleBy, factor } of pairActions(largest(2 * p), largest(2 * p + 1), e)) {
          const row = 2 * p + line;
          const [from, to] = [at / e + row * len, at / e + (row + 1) * len];
          if (kind === 'alone') heap.fill(0, from, to);
          else if (kind === 'scale') for (let i = from; i < to; i++) heap[i]! *= scaleBy;
          (fixes ??= []).push({ row, kind, factor });
        }
      }
    }
    // The last row of an odd chunk (a single row's call) has only zeros beside it: it needs scaling only out of range
    // (float32: float64 has no range, PAIR_RANGE).
    if (count % 2 === 1 && e === 4) {
      const row = count - 1;
      const from = at / e + row * len;
      const scaleBy = rangeScale(this.rowMax(from, len), e);
      if (scaleBy !== 1) {
        for (let i = from; i < from + len; i++) heap[i]! *= scaleBy;
        (fixes ??= []).push({ row, kind: 'scale', factor: 1 / scaleBy });
      }
    }
    return fixes;
  }

  /** Largest |x| of the len values from heap element `from` (NaN for NaN or ±Inf): pairmax on its two halves. */
  private rowMax(from: number, len: number): number {
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const half = len >> 1;
    let m = 0;
    // pairmax needs rows of 2W values (W = 16 / e); shorter rows are read here, as is an odd row's last value.
    const start = half >= 32 / e ? 2 * half : 0;
    if (start > 0) {
      this.pairmax!(from * e, half, 1, this.guardP + 16, this.guardP);
      m = Math.max(heap[(this.guardP + 16) / e]!, heap[(this.guardP + 16) / e + 1]!);
    }
    for (let i = from + start; i < from + len; i++) m = Math.max(m, Math.abs(heap[i]!));
    return m;
  }

  /** Undoes balancePairs' scaling in the outputs (outLen values a row from element `res`); returns the rows left alone. */
  private applyPairFixes(fixes: PairFix[], res: number, outLen: number): number[] {
    const heap = this.heap;
    const alone: number[] = [];
    for (const { row, kind, factor } of fixes) {
      const o = res + row * outLen;
      if (kind === 'alone') alone.push(row);
      else if (kind === 'zero') heap.fill(0, o, o + outLen);
      else for (let i = o; i < o + outLen; i++) heap[i]! *= factor;
    }
    return alone;
  }

  /** Multiplies (or divides) `count` values `stride` apart from byte address `at` by √2: scipy's orthogonalize. */
  private sqrt2Every(at: number, stride: number, count: number, divide: boolean): void {
    const heap = this.heap;
    for (let q = 0, i = at / heap.BYTES_PER_ELEMENT; q < count; q++, i += stride) {
      if (divide) heap[i]! /= Math.SQRT2;
      else heap[i]! *= Math.SQRT2;
    }
  }

  /**
   * DCT-II (scipy's 'backward' times `scale`) of `count` contiguous lines (2·n reals, or n for odd pairs);
   * `orthogonalize` divides each y_0 by √2 (scipy's orthogonalize). `variant` 'dst': the DST-II, as the DCT-II
   * of the line with alternating signs, reversed (dst2pre / dst2r2c fold both in); orthogonalize then scales its last
   * output.
   */
  forwardDct2(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale = 1,
    orthogonalize = false,
    variant: R2rVariant = 'dct',
  ): void {
    if (this.recipe.realPairs) return this.forwardDct2Pairs(src, dst, count, scale, orthogonalize, variant);
    const n = 2 * this.n;
    const sine = variant === 'dst';
    const twD = this.twP + this.info.dct2TwiddleOffset!;
    const e = this.heap.BYTES_PER_ELEMENT;
    this.rowChunks(src, dst, count, [n, n], this.outP, this.chunkSlots * this.info.problemsPerSlot, (c) => {
      (sine ? this.dst2pre! : this.dct2pre!)(this.outP, this.inP, c);
      this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(c), scale);
      // The real post step and the DCT's rotation in one pass, into yP (they cannot run in place).
      (sine ? this.dst2r2c! : this.dct2r2c!)(this.outP, this.yP, this.twP + this.info.r2cTwiddleOffset!, twD, c, 1);
      // orthogonalize: the DCT's y_0, the DST's last output.
      if (orthogonalize) this.sqrt2Every(this.yP + (sine ? e * (n - 1) : 0), n, c, true);
      return this.yP;
    });
  }

  /**
   * Odd n: the reordered lines two to a complex transform (pack2 / split2), then the rotation. The buffers
   * take turns: lines at outP, reordered at yP (dst2pre for the DST), packed at inP, transformed to outP, split and
   * rotated to yP in one pass (dct2split / dst2split).
   */
  private forwardDct2Pairs(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale: number,
    orthogonalize: boolean,
    variant: R2rVariant,
  ): void {
    const n = this.n;
    const nc = (n + 1) / 2;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const sine = variant === 'dst';
    const xBase = this.outP / e;
    const vBase = this.yP / e;
    const twD = this.twP + this.info.dct2TwiddleOffset!;
    this.rowChunks(src, dst, count, [n, n], this.outP, 2 * this.chunkSlots * this.info.problemsPerSlot, (c) => {
      // The DST-II's alternation and reversal are in dst2pre and dst2split.
      (sine ? this.dst2pre! : this.dct2pre!)(this.outP, this.yP, c);
      // v_{(n−1)/2} = x_{n−1}, the even-indexed input the pairs leave (its sign in the DST's alternation is +); an
      // odd chunk's partner line is zero.
      for (let q = 0; q < c; q++) heap[vBase + q * n + nc - 1] = heap[xBase + q * n + n - 1]!;
      if (c % 2 === 1) heap.fill(0, vBase + n * c, vBase + n * (c + 1));
      // Both lines of a pair from their complex transform straight to the outputs; out_0 = 2·A_0, 2·B_0 here.
      const pairs = Math.ceil(c / 2);
      this.pack2!(this.yP, this.inP, pairs);
      this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(pairs), 1);
      (sine ? this.dst2split! : this.dct2split!)(this.outP, this.yP, twD, pairs, scale);
      const at = sine ? n - 1 : 0;
      for (let p = 0, z0 = this.outP / e, o = vBase + at; p < pairs; p++, z0 += 2 * n, o += 2 * n) {
        heap[o] = 2 * scale * heap[z0]!;
        heap[o + n] = 2 * scale * heap[z0 + 1]!;
      }
      // orthogonalize: the DCT's y_0, the DST's last output.
      if (orthogonalize) this.sqrt2Every(this.yP + e * at, n, c, true);
      return this.yP;
    });
  }

  /**
   * DCT-III (unnormalised: y_k = x_0 + 2Σ x_j cos(πj(2k+1)/2N), times `scale`) of `count` contiguous lines of
   * 2·n reals; `orthogonalize` first multiplies each x_0 by √2 (scipy's orthogonalize). `variant` 'dst': the
   * DST-III, as the DCT-III of the reversed line with alternating output signs; orthogonalize then scales its
   * last input.
   */
  inverseDct2(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale = 1,
    orthogonalize = false,
    variant: R2rVariant = 'dct',
  ): void {
    if (this.recipe.realPairs) return this.inverseDct2Pairs(src, dst, count, scale, orthogonalize, variant);
    const h = this.n;
    const n = 2 * h;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const sine = variant === 'dst';
    // The DST-III's x'_0 = x_{n−1}; its reversal and output signs are in dst3pre and dst3post.
    const first = sine ? n - 1 : 0;
    const yBase = this.yP / e;
    const fused = sine ? this.dst3c2r : this.dct3c2r;
    this.rowChunks(src, dst, count, [n, n], this.inP, this.chunkSlots * this.info.problemsPerSlot, (c) => {
      if (orthogonalize) this.sqrt2Every(this.inP + e * first, n, c, false);
      if (fused) {
        const tw3 = this.twP + this.info.dct3TwiddleOffset!;
        fused(this.inP, this.yP, tw3, this.twP + this.info.r2cTwiddleOffset!, c);
        this.inv(this.yP, this.outP, this.workP, this.twP, this.slotsFor(c), scale);
        (sine ? this.dst3post! : this.dct3post!)(this.outP, this.yP, c);
        return this.yP;
      }
      (sine ? this.dst3pre! : this.dct3pre!)(this.inP, this.yP, this.twP + this.info.dct3TwiddleOffset!, c);
      // Y_0 = x_0; Y_n/2 is real (its imaginary part is rounding, and c2r ignores it).
      for (let q = 0, x = this.inP / e + first, y = yBase; q < c; q++, x += n, y += 2 * (h + 1)) {
        heap[y] = heap[x]!;
        heap[y + 1] = 0;
        heap[y + 2 * h + 1] = 0;
      }
      this.c2r!(this.yP, this.inP, this.twP + this.info.r2cTwiddleOffset!, c);
      this.inv(this.inP, this.outP, this.workP, this.twP, this.slotsFor(c), scale);
      (sine ? this.dst3post! : this.dct3post!)(this.outP, this.yP, c);
      return this.yP;
    });
  }

  /**
   * DCT-IV (scipy's unnormalised y_k = 2Σ x_j cos(π(2j+1)(2k+1)/4N), times `scale`) of `count` contiguous lines
   * of 2·n reals through the complex FFT of n points (dct4-half-length.ts); `variant` 'dst': the DST-IV, as the
   * DCT-IV of the reversed line with alternating output signs.
   */
  forwardDct4(src: AnyArray, dst: AnyArray, count: number, scale = 1, variant: R2rVariant = 'dct'): void {
    if (this.recipe.realPairs) return this.forwardDct4Pairs(src, dst, count, scale, variant);
    const n = 2 * this.n;
    const sine = variant === 'dst';
    const tw4 = this.twP + this.info.dct4TwiddleOffset!;
    this.rowChunks(src, dst, count, [n, n], this.outP, this.chunkSlots * this.info.problemsPerSlot, (c) => {
      // The rotated pairs (x_{2p}, x_{n−1−2p}) at inP, their FFT at outP, the outputs at yP; the DST-IV's reversal and
      // alternation are in dst4pre and dst4post.
      (sine ? this.dst4pre! : this.dct4pre!)(this.outP, this.inP, tw4, c);
      this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(c), scale);
      (sine ? this.dst4post! : this.dct4post!)(this.outP, this.yP, tw4, c);
      return this.yP;
    });
  }

  /**
   * Odd n: the DCT-III as inverseDct2 runs it, with the pairs module's inverse real FFT: the rotation (dct3pre)
   * into half spectra at yP, merged two rows a complex problem at inP, the inverse FFT to outP, unpacked to inP,
   * and the rows unshuffled to outP (dct3post, and out_{n−1} = v_{(n−1)/2} here).
   */
  private inverseDct2Pairs(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale: number,
    orthogonalize: boolean,
    variant: R2rVariant,
  ): void {
    const n = this.n;
    const nc = (n + 1) / 2;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const sine = variant === 'dst';
    const first = sine ? n - 1 : 0;
    const yBase = this.yP / e;
    this.rowChunks(src, dst, count, [n, n], this.outP, 2 * this.chunkSlots * this.info.problemsPerSlot, (c) => {
      if (orthogonalize) this.sqrt2Every(this.outP + e * first, n, c, false);
      (sine ? this.dst3pre! : this.dct3pre!)(this.outP, this.yP, this.twP + this.info.dct3TwiddleOffset!, c);
      for (let q = 0, x = this.outP / e + first, y = yBase; q < c; q++, x += n, y += 2 * nc) {
        heap[y] = heap[x]!;
        heap[y + 1] = 0;
      }
      // An odd chunk's partner row is zero.
      if (c % 2 === 1) heap.fill(0, yBase + 2 * nc * c, yBase + 2 * nc * (c + 1));
      const pairs = Math.ceil(c / 2);
      this.merge2!(this.yP, this.inP, pairs, scale);
      this.inv(this.inP, this.outP, this.workP, this.twP, this.slotsFor(pairs), 1);
      this.unpack2!(this.outP, this.inP, pairs);
      (sine ? this.dst3post! : this.dct3post!)(this.inP, this.outP, c);
      // out_{n−1} (an even index, so + in the DST's alternation).
      for (let q = 0, v = this.inP / e, o = this.outP / e; q < c; q++, v += n, o += n)
        heap[o + n - 1] = heap[v + nc - 1]!;
      return this.outP;
    });
  }

  /**
   * Odd n: the DCT-IV through the real FFT of n itself (core/dct4-odd-same-length.ts): the rows permuted with
   * signs into yP, their half spectra (two rows a complex transform) at yP, and the outputs gathered to outP.
   */
  private forwardDct4Pairs(src: AnyArray, dst: AnyArray, count: number, scale: number, variant: R2rVariant): void {
    const n = this.n;
    const nc = (n + 1) / 2;
    const e = this.heap.BYTES_PER_ELEMENT;
    const sine = variant === 'dst';
    let maps: ReturnType<typeof dct4OddGathers> | undefined;
    const pre = this.tableOf(`dct4pre/${variant}`, () => (maps ??= dct4OddGathers(n, sine)).pre);
    const post = this.tableOf(`dct4post/${variant}`, () => (maps ??= dct4OddGathers(n, sine)).post);
    this.rowChunks(src, dst, count, [n, n], this.outP, 2 * this.chunkSlots * this.info.problemsPerSlot, (c) => {
      this.gather(pre, this.outP, this.yP, c, n * e, n * e);
      if (c % 2 === 1) this.heap.fill(0, this.yP / e + n * c, this.yP / e + n * (c + 1));
      this.spectraOfPairs(this.yP, Math.ceil(c / 2), scale);
      this.gather(post, this.yP, this.outP, c, 2 * nc * e, n * e);
      return this.outP;
    });
  }

  /**
   * DCT-I (`variant` 'dct', N = n + 1 reals a line) or DST-I ('dst', N = n − 1) of `count` contiguous lines by the
   * symmetric extension of length 2n (dct1-extension.ts), times `scale`; `orthogonalize` (DCT-I): x_0 and x_{N−1}
   * times √2 first, y_0 and y_{N−1} divided by √2 after (scipy's orthogonalize).
   */
  forwardType1(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale = 1,
    orthogonalize = false,
    variant: R2rVariant = 'dct',
  ): void {
    if (!this.type1) throw new Error('forwardType1: not a DCT-I module');
    const { ext, out } = this.type1[variant];
    const N = variant === 'dst' ? this.n - 1 : this.n + 1;
    const e = this.heap.BYTES_PER_ELEMENT;
    const orth = orthogonalize && variant === 'dct';
    const ends = (c: number, divide: boolean): void => {
      this.sqrt2Every(this.outP, N, c, divide);
      this.sqrt2Every(this.outP + e * (N - 1), N, c, divide);
    };
    this.rowChunks(src, dst, count, [N, N], this.outP, this.chunkSlots * this.info.problemsPerSlot, (c) => {
      if (orth) ends(c, false);
      ext(this.outP, this.inP, c);
      this.realSpectra(c, scale);
      out(this.yP, this.outP, c);
      if (orth) ends(c, true);
      return this.outP;
    });
  }

  /** Discrete Hartley transform (h_k = Σ x_j cas(2πjk/N), times `scale`) of `count` contiguous lines of 2·n reals. */
  hartley(src: AnyArray, dst: AnyArray, count: number, scale = 1): void {
    if (this.recipe.realPairs) throw new Error('hartley: odd lengths have no fused Hartley module');
    const n = 2 * this.n;
    this.rowChunks(src, dst, count, [n, n], this.inP, this.chunkSlots * this.info.problemsPerSlot, (c) => {
      this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(c), 1);
      this.dht!(this.outP, this.yP, this.twP + this.info.r2cTwiddleOffset!, c, scale);
      return this.yP;
    });
  }

  /** irfft of `batch` half spectra (h + 1 complex values) into real problems of length 2·h, times `scale`. */
  inverseReal(input: AnyArray, li: RealLayout, output: AnyArray, lo: RealLayout, batch: number, scale: number): void {
    if (this.recipe.realPairs) return this.inverseRealPairs(input, li, output, lo, batch, scale);
    const h = this.n;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const yBase = this.yP / e;
    const outBase = this.outP / e;
    const ny = 2 * (h + 1);
    const chunk = this.chunkSlots * this.info.problemsPerSlot;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      rowsIn(input, li, b0, count, h + 1, 2, heap, yBase);
      // Like numpy, ignore the imaginary parts of Y_0 and Y_h.
      for (let q = 0, at = yBase; q < count; q++, at += ny) {
        heap[at + 1] = 0;
        heap[at + 2 * h + 1] = 0;
      }
      this.c2r!(this.yP, this.inP, this.twP + this.info.r2cTwiddleOffset!, count);
      this.inv(this.inP, this.outP, this.workP, this.twP, this.slotsFor(count), scale);
      rowsOut(heap, outBase, output, lo, b0, count, 2 * h, 1);
    }
  }

  /**
   * Rows of the caller's layouts through this module two a complex problem, a chunk at a time: `count` rows of
   * inLen elements (w numbers each) copied to byte address `at`, a zero row after an odd count, `steps(pairs, count)`
   * transforms them and returns the byte address of the results (outLen elements a row).
   */
  private pairChunks(
    input: AnyArray,
    li: RealLayout,
    [inLen, inW]: [number, 1 | 2],
    output: AnyArray,
    lo: RealLayout,
    [outLen, outW]: [number, 1 | 2],
    batch: number,
    at: number,
    steps: (pairs: number, count: number) => number,
  ): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    const base = at / e;
    const row = inLen * inW;
    const chunk = 2 * this.chunkSlots * this.info.problemsPerSlot;
    const alone: number[] = [];
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      rowsIn(input, li, b0, count, inLen, inW, this.heap, base);
      if (count % 2 === 1) this.heap.fill(0, base + row * count, base + row * (count + 1));
      const fixes = this.balancePairs(at, row, count);
      const res = steps(Math.ceil(count / 2), count) / e;
      if (fixes) alone.push(...this.applyPairFixes(fixes, res, outLen * outW).map((q) => b0 + q));
      rowsOut(this.heap, res, output, lo, b0, count, outLen, outW);
    }
    // Rows holding NaN or ±Inf, each beside a zero row, so that they reach no other row's outputs.
    for (const r of alone) {
      rowsIn(input, li, r, 1, inLen, inW, this.heap, base);
      this.heap.fill(0, base + row, base + 2 * row);
      rowsOut(this.heap, steps(1, 1) / e, output, lo, r, 1, outLen, outW);
    }
  }

  /**
   * realPairs: half spectra two a complex problem (merge2: Z = A + i·B, with both Hermitian halves), the inverse
   * FFT, and its real and imaginary parts as the two rows (unpack2).
   */
  private inverseRealPairs(
    input: AnyArray,
    li: RealLayout,
    output: AnyArray,
    lo: RealLayout,
    batch: number,
    scale: number,
  ): void {
    const n = this.n;
    const nc = Math.floor(n / 2) + 1;
    const heap = this.heap;
    const yBase = this.yP / heap.BYTES_PER_ELEMENT;
    this.pairChunks(input, li, [nc, 2], output, lo, [n, 1], batch, this.yP, (pairs, count) => {
      // Like numpy, ignore the imaginary parts of Y_0 and, for even n, of Y_{n/2}.
      for (let q = 0, at = yBase; q < count; q++, at += 2 * nc) {
        heap[at + 1] = 0;
        if (n % 2 === 0) heap[at + 2 * nc - 1] = 0;
      }
      this.merge2!(this.yP, this.inP, pairs, scale);
      this.inv(this.inP, this.outP, this.workP, this.twP, this.slotsFor(pairs), 1);
      this.unpack2!(this.outP, this.inP, pairs);
      return this.inP;
    });
  }

  /** realPairs (odd n, and even n whose half does not split): rows two a complex problem, the FFT, both spectra. */
  private forwardRealPairs(
    input: AnyArray,
    li: RealLayout,
    output: AnyArray,
    lo: RealLayout,
    batch: number,
    scale: number,
  ): void {
    const n = this.n;
    this.pairChunks(input, li, [n, 1], output, lo, [Math.floor(n / 2) + 1, 2], batch, this.outP, (pairs) => {
      this.spectraOfPairs(this.outP, pairs, scale);
      return this.yP;
    });
  }

  /**
   * `pairs` pairs of real rows at byte address `rows` (read by pack2 into inP) to their half spectra
   * at yP, times `scale`: pack2, the complex FFT into outP, split2, and k = 0 (A_0 = Re Z_0, B_0 = Im Z_0).
   */
  private spectraOfPairs(rows: number, pairs: number, scale: number): void {
    const n = this.n;
    const nc = Math.floor(n / 2) + 1;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    this.pack2!(rows, this.inP, pairs);
    this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(pairs), 1);
    this.split2!(this.outP, this.yP, pairs, scale);
    for (let p = 0, z0 = this.outP / e, y = this.yP / e; p < pairs; p++, z0 += 2 * n, y += 4 * nc) {
      heap[y] = scale * heap[z0]!;
      heap[y + 1] = 0;
      heap[y + 2 * nc] = scale * heap[z0 + 1]!;
      heap[y + 2 * nc + 1] = 0;
    }
  }

  /** Half spectra of `count` rows at inP (read as h complex values each) into yP, times `scale`; Z passes through outP. */
  private realSpectra(count: number, scale: number): void {
    const tw = this.twP + this.info.r2cTwiddleOffset!;
    if (this.fwds) {
      this.fwds(this.inP, this.outP, this.workP, this.twP, this.slotsFor(count), 1);
      this.r2cs!(this.outP, this.yP, tw, count, scale);
    } else {
      this.fwd(this.inP, this.outP, this.workP, this.twP, this.slotsFor(count), 1);
      this.r2c!(this.outP, this.yP, tw, count, scale);
    }
  }

  forwardReal(input: AnyArray, li: RealLayout, output: AnyArray, lo: RealLayout, batch: number, scale: number): void {
    if (this.recipe.realPairs) return this.forwardRealPairs(input, li, output, lo, batch, scale);
    const h = this.n;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const inBase = this.inP / e;
    const yBase = this.yP / e;
    const chunk = this.chunkSlots * this.info.problemsPerSlot;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      rowsIn(input, li, b0, count, 2 * h, 1, heap, inBase);
      this.realSpectra(count, scale);
      rowsOut(heap, yBase, output, lo, b0, count, h + 1, 2);
    }
  }

  /**
   * A chunk of problems in a column layout between the caller's array and the heap (at: in heap numbers).
   * Float32 data moves one complex value per load and store through float64 views of the pairs.
   */
  private moveColumns(user: AnyArray, l: RealLayout, b0: number, count: number, at: number, toHeap: boolean): void {
    const n = this.n;
    // A complex f32 moves as one float64 where both sides are f32 (an f64 heap has no pair view).
    const pairs = this.heapPairs ? pairView(user) : null;
    const k = pairs ? 1 : 2; // numbers per complex value in the arrays moved
    const u = pairs ?? user;
    const h = pairs ? this.heapPairs! : this.heap;
    const s = k * (l.offset + b0 * l.dist);
    const hAt = pairs ? at / 2 : at;
    if (toHeap) stridedCopy(u, s, k * l.stride, k * l.dist, h, hAt, k, k * n, n, count, k);
    else stridedCopy(h, hAt, k, k * n, u, s, k * l.stride, k * l.dist, n, count, k);
  }

  /** The column stage holds at least `bytes`: memory grows once, and the heap views follow it. */
  private columnStage(bytes: number): number {
    if (this.colBytes < bytes) {
      this.colP = this.newRegion(bytes);
      this.colBytes = bytes;
    }
    return this.colP;
  }

  /** A new region of `bytes` at the end of this plan's memory, which grows; the heap views follow it. */
  private newRegion(bytes: number): number {
    const at = Math.ceil(this.memory.buffer.byteLength / 4096) * 4096;
    const need = at + bytes - this.memory.buffer.byteLength;
    if (need > 0) this.memory.grow(Math.ceil(need / 65536));
    const e = this.heap.BYTES_PER_ELEMENT;
    this.heap = e === 4 ? new Float32Array(this.memory.buffer) : new Float64Array(this.memory.buffer);
    if (e === 4) this.heapPairs = new Float64Array(this.memory.buffer);
    this.lastOut = undefined;
    return at;
  }

  /** A gather map's table in this plan's memory, written on first use and kept (a few maps a module at most). */
  tableOf(key: string, build: () => GatherMap): GatherTable {
    return this.kept(key, () => {
      const map = build();
      const bytes = gatherTable(map, this.heap.BYTES_PER_ELEMENT as 4 | 8);
      return { at: this.written(bytes), m: map.ia.length, terms: gatherTerms(map) };
    }) as GatherTable;
  }

  /**
   * A permutation of whole complex values (codegen/wasm/gather.ts perm8 / perm16): `from[k]` is the input value
   * output k reads. Written on first use and kept, as gather tables are.
   */
  permutationOf(key: string, build: () => Int32Array): PermutationTable {
    return this.kept(`perm/${key}`, () => {
      const from = build();
      return { at: this.written(permutationTable(from, (2 * this.heap.BYTES_PER_ELEMENT) as 8 | 16)), m: from.length };
    });
  }

  private kept(key: string, make: () => PermutationTable | GatherTable): PermutationTable | GatherTable {
    let t = this.tables.get(key);
    if (!t) this.tables.set(key, (t = make()));
    return t;
  }
  private readonly tables = new Map<string, PermutationTable | GatherTable>();

  /** `bytes` copied into a new region of this plan's memory; its byte address. */
  private written(bytes: Uint8Array): number {
    const at = this.newRegion(bytes.length);
    new Uint8Array(this.memory.buffer, at, bytes.length).set(bytes);
    return at;
  }

  /** `count` rows through a gather table, from rows `ss` bytes apart to rows `ds` bytes apart. */
  gather(t: GatherTable, src: number, dst: number, count: number, ss: number, ds: number): void {
    const e = this.heap.BYTES_PER_ELEMENT;
    this.gatherKernel(`${t.terms === 1 ? 'one' : 'two'}${e}`)(src, dst, t.at, t.m, count, ss, ds);
  }

  /** `count` rows of complex values through a permutation, from rows `ss` bytes apart to rows `ds` bytes apart. */
  permute(t: PermutationTable, src: number, dst: number, count: number, ss: number, ds: number): void {
    this.gatherKernel(`perm${2 * this.heap.BYTES_PER_ELEMENT}`)(src, dst, t.at, t.m, count, ss, ds);
  }

  /** A kernel of the gather module, instantiated over this plan's memory on first use. */
  private gatherKernel(name: string): GatherFn {
    if (!this.gatherExports) {
      gatherModule ??= new WebAssembly.Module(generateGatherModule() as BufferSource);
      this.gatherExports = new WebAssembly.Instance(gatherModule, { env: { memory: this.memory } }).exports;
    }
    return this.gatherExports[name] as GatherFn;
  }
  private gatherExports?: WebAssembly.Exports;

  /** The transposes over this plan's memory (a small module of their own, instantiated on first use). */
  private transposes(): Transposes {
    if (!this.transposer) {
      transposeModule ??= new WebAssembly.Module(generateTransposeModule() as BufferSource);
      const inst = new WebAssembly.Instance(transposeModule, { env: { memory: this.memory } });
      this.transposer = inst.exports as unknown as Transposes;
    }
    return this.transposer;
  }
  private transposer?: Transposes;

  /**
   * Problems laid out as columns (adjacent problems, elements far apart), a group of COLUMN_GROUP_BYTES at a
   * time, so each row of the caller's array gives up a run of several cache lines instead of one line per
   * chunk. Where the columns are adjacent (dist 1), each row's run is one block copy into a row stage and
   * a WebAssembly transpose turns the rows into problems; other column layouts are gathered element by
   * element. The group is transformed chunk by chunk through the kernel's own buffers and goes back the
   * same way when the output is columns too.
   */
  private executeColumns(
    input: AnyArray,
    li: RealLayout,
    output: AnyArray,
    lo: RealLayout,
    batch: number,
    kernel: Kernel,
    scale: number,
  ): void {
    const n = this.n;
    const chunk = this.chunkSlots * this.info.problemsPerSlot;
    const ce = 2 * this.heap.BYTES_PER_ELEMENT; // bytes of a complex value
    const probBytes = n * ce;
    const group = Math.min(
      Math.ceil(batch / chunk) * chunk,
      Math.max(chunk, Math.floor(COLUMN_GROUP_BYTES / probBytes / chunk) * chunk),
    );
    const rowsIn = li.dist === 1;
    const outColumns = lo.dist < lo.stride;
    const rowsOut = outColumns && lo.dist === 1;
    const stage = group * probBytes;
    const inStage = outColumns && this.laneRecipe.kind !== 'four-step';
    const colP = this.columnStage(rowsIn || rowsOut ? 2 * stage : stage);
    const rowP = colP + stage;
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const [colBase, rowBase, inBase, outBase] = [colP / e, rowP / e, this.inP / e, this.outP / e];
    const t = rowsIn || rowsOut ? this.transposes() : null;
    // 8 destination rows a tile: at power-of-two pitches (n a power of two) t8's 16 rows share one L1 set.
    const transpose = ce === 8 ? t?.t8n : t?.t16;
    for (let g0 = 0; g0 < batch; g0 += group) {
      const gc = Math.min(group, batch - g0);
      if (rowsIn) {
        for (let el = 0, s = 2 * (li.offset + g0); el < n; el++, s += 2 * li.stride)
          heap.set(input.subarray(s, s + 2 * gc), rowBase + 2 * el * group);
        transpose!(rowP, colP, n, gc, group * ce, probBytes);
      } else this.moveColumns(input, li, g0, gc, colBase, true);
      if (inStage) {
        // Transformed where they lie in the stage (the lane kernels read a slot before writing it); a short
        // lane-batch group's empty lanes get zeros.
        const per = this.info.problemsPerSlot;
        const slots = Math.ceil(gc / per);
        heap.fill(0, colBase + 2 * n * gc, colBase + 2 * n * slots * per);
        kernel(colP, colP, this.workP, this.twP, slots, scale);
      } else
        for (let c0 = 0; c0 < gc; c0 += chunk) {
          const count = Math.min(chunk, gc - c0);
          const at = colBase + 2 * n * c0;
          heap.copyWithin(inBase, at, at + 2 * n * count);
          kernel(this.inP, this.outP, this.workP, this.twP, this.slotsFor(count), scale);
          if (outColumns) heap.copyWithin(at, outBase, outBase + 2 * n * count);
          else this.storeChunk(output, lo, g0 + c0, count);
        }
      if (rowsOut) {
        transpose!(colP, rowP, gc, n, probBytes, group * ce);
        for (let el = 0, d = 2 * (lo.offset + g0); el < n; el++, d += 2 * lo.stride)
          output.set(heap.subarray(rowBase + 2 * el * group, rowBase + 2 * el * group + 2 * gc), d);
      } else if (outColumns) this.moveColumns(output, lo, g0, gc, colBase, false);
    }
  }

  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const n = this.n;
    const { batch, inverse, scale, li, lo } = resolveExec(n, input, output, options);
    const r = this.residentFor(input, li, output, lo, batch);
    if (r) return this.runResident(this.runsOf(r, inverse, scale, 1)[0]!);
    const kernel = inverse ? this.inv : this.fwd;
    const per = this.info.problemsPerSlot;
    const chunk = this.rowSlots * per;
    // Column input wider than a chunk: a group at a time (in place is safe: a group's columns are read before written).
    if (li.dist < li.stride && batch > chunk) return this.executeColumns(input, li, output, lo, batch, kernel, scale);
    const heap = this.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const inBase = this.inP / e;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      // Packed problems move as one block (a subarray per problem costs more than small transforms).
      if (li.stride === 1 && li.dist === n) {
        const s0 = 2 * (li.offset + b0 * n);
        const s1 = 2 * (li.offset + (b0 + count) * n);
        heap.set(s0 === 0 && s1 === input.length ? input : input.subarray(s0, s1), inBase);
      } else if (li.dist < li.stride) {
        // Columns (problems adjacent, elements far apart): walk each row across the chunk's problems, so
        // reads are sequential instead of one cache line per element.
        this.moveColumns(input, li, b0, count, inBase, true);
      } else for (let q = 0; q < count; q++) copyIn(input, li, b0 + q, n, heap, inBase + 2 * n * q);
      kernel(this.inP, this.outP, this.workP, this.twP, this.slotsFor(count), scale);
      this.storeChunk(output, lo, b0, count);
    }
  }

  /**
   * Engine buffers for `batch` packed problems: input and output views into a memory of their own (see
   * Resident), with a work area for each of `threads` threads; shared with worker threads where the
   * runtime allows (else one thread). Throws a DeviceLimitError beyond WebAssembly's 4 GiB, a
   * ButterflyError where the runtime refuses the memory.
   */
  createBuffers(batch: number, threads = 1): { input: AnyArray; output: AnyArray } {
    const info = compiled(this.laneRecipe).info;
    const e = this.heap.BYTES_PER_ELEMENT;
    const slots = Math.ceil(batch / info.problemsPerSlot);
    const align = (x: number): number => Math.ceil(x / 4096) * 4096;
    const layout = (t: number) => {
      const staging = stagesEngineBuffers(this.laneRecipe, t > 1);
      const staged = staging !== 'none';
      // Staggered modulo 4 KiB (work at 0, input at 1 KiB, output at 3 KiB, stages at 2 KiB), as the plan's
      // own buffers: a pass's power-of-two strided streams then fall into different cache sets.
      const workPs = Array.from(
        { length: t },
        (_, i) => align(info.twiddles.length * e) + i * (align(info.workBytes) + THREAD_AREA_GAP),
      );
      const inP = align(workPs[t - 1]! + info.workBytes) + 1024;
      const outP = align(inP + slots * info.slotBytes) + 3072;
      const stage = align(this.chunkSlots * info.slotBytes) + 4096;
      // The output stage follows the input one, 1 KiB further modulo 4 KiB.
      const outStage = staging === 'both' ? stage + 1024 : 0;
      const stagePs = staged
        ? Array.from({ length: t }, (_, i) => align(outP + slots * info.slotBytes) + 2048 + i * (stage + outStage))
        : [];
      const bytes = staged
        ? stagePs[t - 1]! + outStage + this.chunkSlots * info.slotBytes
        : outP + slots * info.slotBytes;
      return { workPs, inP, outP, stagePs, outStage, bytes };
    };
    let L = layout(1);
    if (L.bytes > 2 ** 32) throw new DeviceLimitError('WebAssembly memory (bytes)', L.bytes, 2 ** 32, 'engine buffers');
    let memory: WebAssembly.Memory | undefined;
    let mod: WebAssembly.Module | undefined;
    if (threads > 1 && typeof SharedArrayBuffer === 'function') {
      // Shared with the workers where the runtime allows it (no SharedArrayBuffer, a browser page that is not
      // cross-origin isolated, or a module too large to compile here: one thread, unshared).
      const Lt = layout(threads);
      try {
        mod = compiled(this.laneRecipe, true).mod;
        const pages = Math.ceil(Lt.bytes / 65536);
        memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
        L = Lt;
      } catch {
        memory = undefined;
      }
    }
    if (!memory) {
      mod = compiled(this.laneRecipe).mod;
      try {
        memory = new WebAssembly.Memory({ initial: Math.ceil(L.bytes / 65536) });
      } catch (err) {
        throw new ButterflyError(
          `engine buffers: the runtime refused a WebAssembly memory of ${L.bytes} bytes (${err})`,
        );
      }
    }
    const heap = e === 4 ? new Float32Array(memory.buffer) : new Float64Array(memory.buffer);
    heap.set(info.twiddles, 0);
    const id = adoptMemory(memory);
    this.residentKernels(id, memory, mod);
    const { workPs, inP, outP, stagePs, outStage } = L;
    residents.set(memory.buffer, { key: this.key, id, memory, batch, inP, outP, slots, workPs, stagePs, outStage });
    residentsMade = true;
    const len = 2 * this.n * batch;
    return { input: heap.subarray(inP / e, inP / e + len), output: heap.subarray(outP / e, outP / e + len) };
  }

  /**
   * Where `input` and `output` are this module's engine buffers, whole and packed (a lane group's empty lanes
   * then stay the zeros the memory started with, and no output lands outside the view), the runs of the call
   * for up to `threads` threads (contiguous slot ranges); else null.
   */
  residentRuns(input: AnyArray, output: AnyArray, options: EngineExecOptions, threads: number): ResidentRun[] | null {
    const { batch, inverse, scale, li, lo } = resolveExec(this.n, input, output, options);
    const r = this.residentFor(input, li, output, lo, batch);
    return r ? this.runsOf(r, inverse, scale, threads) : null;
  }

  private residentFor(
    input: AnyArray,
    li: RealLayout,
    output: AnyArray,
    lo: RealLayout,
    batch: number,
  ): Resident | undefined {
    if (!residentsMade || input.buffer !== output.buffer) return undefined;
    const r = residents.get(input.buffer);
    const n = this.n;
    const packed = (l: RealLayout) => l.offset === 0 && l.stride === 1 && l.dist === n;
    if (!r || r.batch !== batch || !packed(li) || !packed(lo) || r.key !== this.key) return undefined;
    if (input.byteOffset !== r.inP || output.byteOffset !== r.outP) return undefined;
    return r;
  }

  private runsOf(r: Resident, inverse: boolean, scale: number, threads: number): ResidentRun[] {
    const t = Math.max(1, Math.min(threads, r.workPs.length, r.slots));
    const runs: ResidentRun[] = [];
    for (let i = 0; i < t; i++) {
      const s0 = Math.round((r.slots * i) / t),
        s1 = Math.round((r.slots * (i + 1)) / t);
      runs.push({
        id: r.id,
        memory: r.memory,
        inP: r.inP,
        outP: r.outP,
        workP: r.workPs[i]!,
        stageP: r.stagePs[i] ?? -1,
        outStage: r.outStage,
        s0,
        count: s1 - s0,
        inverse,
        scale,
      });
    }
    return runs;
  }

  /** Kernels of engine buffers' instances: made at creation here, on first use in a worker (one module a memory). */
  private residentKernels(id: number, memory: WebAssembly.Memory, mod?: WebAssembly.Module): ResidentKernels {
    let k = residentInstances.get(id, memory);
    if (!k || k.key !== this.key) {
      const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
      const inst = new WebAssembly.Instance(mod ?? compiled(this.laneRecipe, shared).mod, { env: { memory } });
      k = { key: this.key, fwd: inst.exports['fwd'] as Kernel, inv: inst.exports['inv'] as Kernel };
      residentInstances.set(id, memory, k);
    }
    return k;
  }

  get slotProblems(): number {
    return this.info.problemsPerSlot;
  }

  runResidentProblems(run: ResidentRun, q0: number, count: number): void {
    const pps = this.info.problemsPerSlot;
    if (q0 % pps !== 0) throw new Error(`internal: engine buffers' problems from ${q0}, not a whole slot of ${pps}`);
    this.runResident({ ...run, s0: run.s0 + q0 / pps, count: Math.ceil(count / pps) });
  }

  /** One thread's run over engine buffers: straight from the input, or a staged chunk at a time. */
  runResident(run: ResidentRun): void {
    const { fwd, inv } = this.residentKernels(run.id, run.memory);
    const kernel = run.inverse ? inv : fwd;
    const sb = this.info.slotBytes;
    const inP = run.inP + run.s0 * sb,
      outP = run.outP + run.s0 * sb;
    if (run.stageP < 0) return kernel(inP, outP, run.workP, this.twP, run.count, run.scale);
    const heap = new Uint8Array(run.memory.buffer);
    const o = run.stageP + run.outStage;
    for (let s = 0; s < run.count; s += this.chunkSlots) {
      const c = Math.min(this.chunkSlots, run.count - s);
      heap.copyWithin(run.stageP, inP + s * sb, inP + (s + c) * sb);
      if (!run.outStage) kernel(run.stageP, outP + s * sb, run.workP, this.twP, c, run.scale);
      else {
        kernel(run.stageP, o, run.workP, this.twP, c, run.scale);
        heap.copyWithin(outP + s * sb, o, o + c * sb);
      }
    }
  }

  /** Problems b0 … b0 + count − 1 from the kernel's output buffer into the caller's layout. */
  /** heap[at … at + len) as a view, kept for the next call of the same size (small transforms reuse it). */
  private outView(at: number, len: number): AnyArray {
    if (this.lastOut?.at !== at || this.lastOut.len !== len)
      this.lastOut = { at, len, view: this.heap.subarray(at, at + len) };
    return this.lastOut.view;
  }
  /** The last outView (dropped when the heap grows). */
  private lastOut?: { at: number; len: number; view: AnyArray };

  private storeChunk(output: AnyArray, lo: RealLayout, b0: number, count: number): void {
    const n = this.n;
    const heap = this.heap;
    const outBase = this.outP / heap.BYTES_PER_ELEMENT;
    if (lo.stride === 1 && lo.dist === n) output.set(this.outView(outBase, 2 * n * count), 2 * (lo.offset + b0 * n));
    else if (lo.dist < lo.stride) this.moveColumns(output, lo, b0, count, outBase, false);
    else for (let q = 0; q < count; q++) copyOut(heap, outBase + 2 * n * q, output, lo, b0 + q, n);
  }
}

export interface RealLayout {
  offset: number;
  stride: number;
  dist: number;
}

/** Plans built with `realPost`: rfft of length 2n, n/2+… outputs (see planCpuEngineRfft). */
export interface FusedRealFft {
  /** rfft of `batch` real problems (length 2·n, or n for odd-length pairs; input in reals, output in complex elements), times `scale`. */
  forwardReal(input: AnyArray, li: RealLayout, output: AnyArray, lo: RealLayout, batch: number, scale: number): void;
  /** irfft of `batch` half spectra (input in complex elements, output in reals) back to length 2·n, times `scale`. */
  inverseReal(input: AnyArray, li: RealLayout, output: AnyArray, lo: RealLayout, batch: number, scale: number): void;
}

/**
 * Which of a DCT type and the DST of the same type a fused r2r method computes (scipy's maps: DST-II(x)_k =
 * DCT-II((−1)^j x_j)_{n−1−k}; DST-III and DST-IV are (−1)^k times the DCT of the reversed line), folded into the
 * DCTs' own row steps.
 */
export type R2rVariant = 'dct' | 'dst';

/**
 * Plans built with `dct2`: DCT-II and DST-II of length 2n, or n for odd pairs (see planCpuEngineDct2); DCT-III,
 * DST-III, DCT-IV, DST-IV and the DHT for 2n only.
 */
export interface FusedDct2 {
  /** DCT-II (DST-II) times `scale`; `orthogonalize` divides y_0 (DST: y_{N−1}) by √2 afterwards. */
  forwardDct2(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale?: number,
    orthogonalize?: boolean,
    variant?: R2rVariant,
  ): void;
  /**
   * DCT-III (DST-III), the unnormalised inverse of forwardDct2 up to 1/(2·length), times `scale`; `orthogonalize`
   * multiplies x_0 (DST: x_{N−1}) by √2 first.
   */
  inverseDct2(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale?: number,
    orthogonalize?: boolean,
    variant?: R2rVariant,
  ): void;
  /** DCT-IV (DST-IV), unnormalised, times `scale`. */
  forwardDct4(src: AnyArray, dst: AnyArray, count: number, scale?: number, variant?: R2rVariant): void;
  /** The DHT, unnormalised, times `scale`. */
  hartley(src: AnyArray, dst: AnyArray, count: number, scale?: number): void;
  /** DCT-I of n + 1 (DST-I of n − 1) reals a line, unnormalised, times `scale`; modules built with `dct1` only. */
  forwardType1(
    src: AnyArray,
    dst: AnyArray,
    count: number,
    scale?: number,
    orthogonalize?: boolean,
    variant?: R2rVariant,
  ): void;
}

/** The fused module's plan, or null where it could not be compiled synchronously (see precompileEngine). */
export function tryFusedRealFft(recipe: CpuEngineFftRecipe): (FusedRealFft & FusedDct2) | null {
  try {
    return fusedRealFft(recipe);
  } catch (e) {
    if (e instanceof SyncCompileRefused) return null;
    throw e;
  }
}

export function fusedRealFft(recipe: CpuEngineFftRecipe): FusedRealFft & FusedDct2 {
  if (recipe.kind === 'trivial' || recipe.kind === 'reference' || !(recipe.realPost || recipe.realPairs))
    throw new Error('not a fused real recipe');
  // Recipes cached by their callers (engine-rows.ts) come back as the same object call after call.
  if (lastReal?.recipe === recipe) return lastReal.plan;
  const key = `real/${recipe.kind}/${recipe.n}/${recipe.precision}/${recipe.realPairs ? 'pairs' : ''}/${recipe.dct2 ? 'dct2' : ''}/${!aroundLanes(recipe) && recipe.dct1 ? 'dct1' : ''}`;
  let p = lruGet(realPlans, key);
  if (!p) {
    p =
      recipe.kind === 'bluestein'
        ? new BluesteinPairsFft({ ...recipe, realPairs: true })
        : recipe.kind === 'rader'
          ? new RaderPairsFft({ ...recipe, realPairs: true })
          : new LaneFft(recipe);
    lruSet(realPlans, key, p, MAX_PLANS);
  }
  lastReal = { recipe, plan: p };
  return p;
}

const realPlans = new Map<string, LaneFft>();
let lastReal: { recipe: CpuEngineFftRecipe; plan: LaneFft } | undefined;

/** The checks and resolved parameters every engine plan's execute starts with. */
export function resolveExec(n: number, input: AnyArray, output: AnyArray, options: EngineExecOptions) {
  const batch = options.batch ?? 1;
  checkLength(batch, 'batch', 0);
  const inverse = options.inverse ?? false;
  const scale = normScale(n, options.norm, inverse) * extraScale(options);
  const li = layoutOf(options.input, n, 'input');
  const lo = layoutOf(options.output, n, 'output');
  checkFits(input.length, n, batch, li, 'input');
  checkFits(output.length, n, batch, lo, 'output');
  return { batch, inverse, scale, li, lo };
}

function extraScale(options: EngineExecOptions): number {
  return options.scaleBy ?? 1;
}

/**
 * A float32 complex array seen as one float64 per complex value, so that column copies move a value with
 * one load and one store (null for float64 data or an offset that is not 8-byte aligned).
 */
function pairView(a: AnyArray): Float64Array | null {
  return a instanceof Float32Array && a.byteOffset % 8 === 0
    ? new Float64Array(a.buffer, a.byteOffset, a.length >> 1)
    : null;
}

/**
 * count × n values of w numbers each: value (q, el) from src[s + el·sEl + q·sProb] to dst[d + el·dEl + q·dProb],
 * el outermost so that a column layout's rows are walked in order.
 */
function stridedCopy(
  src: AnyArray,
  s: number,
  sEl: number,
  sProb: number,
  dst: AnyArray,
  d: number,
  dEl: number,
  dProb: number,
  n: number,
  count: number,
  w: 1 | 2,
): void {
  for (let el = 0; el < n; el++) {
    let p = s + el * sEl;
    let t = d + el * dEl;
    if (w === 1) for (let q = 0; q < count; q++, p += sProb, t += dProb) dst[t] = src[p]!;
    else {
      for (let q = 0; q < count; q++, p += sProb, t += dProb) {
        dst[t] = src[p]!;
        dst[t + 1] = src[p + 1]!;
      }
    }
  }
}

/**
 * Rows b0 … b0+count−1 of `len` elements (w numbers each: 1 real, 2 complex) from the caller's layout l
 * (in elements) into the heap, packed from `at`; one block copy where the rows are packed already.
 */
function rowsIn(
  src: AnyArray,
  l: RealLayout,
  b0: number,
  count: number,
  len: number,
  w: 1 | 2,
  heap: AnyArray,
  at: number,
): void {
  if (l.stride === 1 && l.dist === len) {
    heap.set(src.subarray(w * (l.offset + b0 * len), w * (l.offset + (b0 + count) * len)), at);
    return;
  }
  for (let q = 0; q < count; q++, at += w * len) {
    const s = w * (l.offset + (b0 + q) * l.dist);
    if (l.stride === 1) heap.set(src.subarray(s, s + w * len), at);
    else stridedCopy(src, s, w * l.stride, 0, heap, at, w, 0, len, 1, w);
  }
}

/** The inverse of rowsIn: packed rows at `at` in the heap to the caller's layout. */
function rowsOut(
  heap: AnyArray,
  at: number,
  dst: AnyArray,
  l: RealLayout,
  b0: number,
  count: number,
  len: number,
  w: 1 | 2,
): void {
  if (l.stride === 1 && l.dist === len) {
    dst.set(heap.subarray(at, at + w * len * count), w * (l.offset + b0 * len));
    return;
  }
  for (let q = 0; q < count; q++, at += w * len) {
    const s = w * (l.offset + (b0 + q) * l.dist);
    if (l.stride === 1) dst.set(heap.subarray(at, at + w * len), s);
    else stridedCopy(heap, at, w, 0, dst, s, w * l.stride, 0, len, 1, w);
  }
}

export function copyIn(
  src: AnyArray,
  l: { offset: number; stride: number; dist: number },
  b: number,
  n: number,
  heap: AnyArray,
  at: number,
): void {
  const s = l.offset + b * l.dist;
  if (l.stride === 1) {
    heap.set(src.subarray(2 * s, 2 * (s + n)), at);
    return;
  }
  for (let i = 0, p = 2 * s, st = 2 * l.stride; i < n; i++, p += st) {
    heap[at + 2 * i] = src[p]!;
    heap[at + 2 * i + 1] = src[p + 1]!;
  }
}

export function copyOut(
  heap: AnyArray,
  at: number,
  dst: AnyArray,
  l: { offset: number; stride: number; dist: number },
  b: number,
  n: number,
): void {
  const s = l.offset + b * l.dist;
  if (l.stride === 1) {
    dst.set(heap.subarray(at, at + 2 * n), 2 * s);
    return;
  }
  for (let i = 0, p = 2 * s, st = 2 * l.stride; i < n; i++, p += st) {
    dst[p] = heap[at + 2 * i]!;
    dst[p + 1] = heap[at + 2 * i + 1]!;
  }
}

/**
 * Bluestein's tables for n: the chirp c_k = e^{−iπk²/n} (zero from n to nPad, a whole number of vectors), forward
 * and inverse (conjugated), and the filter spectra FFT_m(b)/m with b_k = conj(c_k) mirrored (forward) or c_k
 * (inverse), computed once in float64 whatever the plan's precision. The chirp is exact (k² reduced mod 2n).
 */
/**
 * A float64 FFT of length m for the tables of Bluestein and Rader, whatever the calling scope: the float64 engine, or
 * the float64 reference beyond the engine's largest f64 length (an f32 Bluestein transform's inner length may exceed
 * it).
 */
function float64Fft(m: number): { execute(input: Float64Array, output: Float64Array): void } {
  return m <= CPU_ENGINE_MAX_N.f64
    ? engineFft(m, 'f64')
    : planCpuFft(m, { bluesteinThreshold: DEFAULT_BLUESTEIN_THRESHOLD });
}

function bluesteinTables(recipe: Extract<CpuEngineFftRecipe, { kind: 'bluestein' }>): {
  inner: LaneRecipe;
  m: number;
  nPad: number;
  chirps: [Float64Array, Float64Array];
  filters: [Float64Array, Float64Array];
} {
  const n = recipe.n;
  const inner = recipe.inner;
  if ((inner.kind !== 'lane-split' && inner.kind !== 'four-step') || !inner.pointwise)
    throw new Error('Bluestein needs a lane-split inner plan with pointwise products');
  const m = inner.n;
  const nPad = Math.ceil(n / recipe.lanes) * recipe.lanes;
  const chirp = new Float64Array(2 * nPad);
  for (let k = 0; k < n; k++) {
    const [c, s] = unitRoot((k * k) % (2 * n), 2 * n);
    chirp[2 * k] = c;
    chirp[2 * k + 1] = -s;
  }
  const f64 = float64Fft(m);
  const chirps: Float64Array[] = [];
  const filters: Float64Array[] = [];
  for (const sg of [1, -1]) {
    chirps.push(chirp.map((v, i) => (i % 2 === 1 ? sg * v : v)));
    // The filter; 1/m is folded in.
    const b = new Float64Array(2 * m);
    for (let k = 0; k < n; k++) {
      const re = chirp[2 * k]! / m;
      const im = (-sg * chirp[2 * k + 1]!) / m;
      b[2 * k] = re;
      b[2 * k + 1] = im;
      if (k > 0) {
        b[2 * (m - k)] = re;
        b[2 * (m - k) + 1] = im;
      }
    }
    f64.execute(b, b);
    filters.push(b);
  }
  return {
    inner,
    m,
    nPad,
    chirps: chirps as [Float64Array, Float64Array],
    filters: filters as [Float64Array, Float64Array],
  };
}

/**
 * Bluestein: X_k = c_k · Σ_j (x_j c_j) · conj(c_{k−j}) with c_k = e^{−πik²/n}, the convolution done by
 * inner FFTs of a power-of-two length M ≥ 2n − 1. The chirp is exact (k² reduced mod 2n in integers).
 */
class BluesteinFft implements EngineFft {
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    inPlace(this, data, offset, inverse, scale);
  }
  /** The inner power-of-two plan, with room after its buffers for the chirp and filter tables. */
  private readonly inner: LaneFft;
  private readonly m: number;
  /** Chirp length rounded up to whole vectors (the table is zero beyond n). */
  private readonly nPad: number;
  /** Byte addresses of [forward, inverse] chirp and filter tables in the inner plan's memory. */
  private readonly chirpP: [number, number];
  private readonly filterP: [number, number];
  constructor(readonly recipe: Extract<CpuEngineFftRecipe, { kind: 'bluestein' }>) {
    const t = bluesteinTables(recipe);
    this.m = t.m;
    this.nPad = t.nPad;
    const e = recipe.precision === 'f32' ? 4 : 8;
    const cb = 2 * e;
    this.inner = new LaneFft(t.inner, 2 * cb * (this.nPad + this.m));
    const base = this.inner.extraP;
    this.chirpP = [base, base + cb * this.nPad];
    this.filterP = [base + 2 * cb * this.nPad, base + 2 * cb * this.nPad + cb * this.m];
    for (const dir of [0, 1] as const) {
      this.inner.heap.set(t.chirps[dir], this.chirpP[dir] / e);
      this.inner.heap.set(t.filters[dir], this.filterP[dir] / e);
    }
  }
  get n(): number {
    return this.recipe.n;
  }
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const n = this.n;
    const m = this.m;
    const { batch, inverse, scale, li, lo } = resolveExec(n, input, output, options);
    const inner = this.inner;
    const heap = inner.heap;
    const e = heap.BYTES_PER_ELEMENT;
    const cb = 2 * e;
    const dir = inverse ? 1 : 0;
    const chirp = this.chirpP[dir];
    const filter = this.filterP[dir];
    const inBase = inner.inP / e;
    for (let b0 = 0; b0 < batch; b0 += inner.chunkSlots) {
      const count = Math.min(inner.chunkSlots, batch - b0);
      for (let q = 0; q < count; q++) {
        copyIn(input, li, b0 + q, n, heap, inBase + 2 * m * q);
        heap.fill(0, inBase + 2 * m * q + 2 * n, inBase + 2 * m * (q + 1));
        const slot = inner.inP + cb * m * q;
        inner.cmul!(slot, slot, chirp, this.nPad);
      }
      inner.fwd(inner.inP, inner.outP, inner.workP, inner.twP, count, 1);
      for (let q = 0; q < count; q++) {
        const slot = inner.outP + cb * m * q;
        inner.cmul!(slot, slot, filter, m);
      }
      // Unscaled inverse back into the input slots (1/M is in the filter), then the output chirp.
      inner.inv(inner.outP, inner.inP, inner.workP, inner.twP, count, 1);
      for (let q = 0; q < count; q++) {
        const slot = inner.inP + cb * m * q;
        inner.cmul!(slot, slot, chirp, this.nPad);
        const at = inBase + 2 * m * q;
        if (scale !== 1) for (let i = at; i < at + 2 * n; i++) heap[i]! *= scale;
        copyOut(heap, at, output, lo, b0 + q, n);
      }
    }
  }
}

/** An inner plan's complex FFT and pointwise product, instantiated over the memory of the plan around it. */
interface InnerKernels {
  fwd: Kernel;
  inv: Kernel;
  cmul: Cmul;
}

/** The inner module's kernels over `host`'s memory, its twiddles written at byte address `tw` there. */
function kernelsIn(host: LaneFft, inner: { mod: WebAssembly.Module; info: EngineModule }, tw: number): InnerKernels {
  const x = new WebAssembly.Instance(inner.mod, { env: { memory: host.memory } }).exports;
  host.heap.set(inner.info.twiddles, tw / host.heap.BYTES_PER_ELEMENT);
  return { fwd: x['fwd'] as Kernel, inv: x['inv'] as Kernel, cmul: x['cmul'] as Cmul };
}

/** Rader's tables for prime n: the kernel's transforms ([forward, inverse], 1/N folded in) and the two permutations. */
function raderTables(recipe: Extract<CpuEngineFftRecipe, { kind: 'rader' }>): {
  kernels: [Float64Array, Float64Array];
  into: Int32Array;
  out: Int32Array;
} {
  const { n, root: g } = recipe;
  const N = n - 1;
  // pow[q] = g^q mod n.
  const pow = new Int32Array(N);
  for (let q = 0, v = 1; q < N; q++, v = (v * g) % n) pow[q] = v;
  // In float64 whatever the calling scope (planCpuFft would follow an f32 engine scope).
  const f64 = float64Fft(N);
  const kernels = ([-1, 1] as const).map((sign) => {
    // b_q = ω^(g^−q) = exp(∓2πi·g^(N−q)/n), transformed in float64.
    const b = new Float64Array(2 * N);
    for (let q = 0; q < N; q++) {
      const [c, sn] = unitRoot(pow[(N - q) % N]!, n);
      b[2 * q] = c / N;
      b[2 * q + 1] = (sign * sn) / N;
    }
    f64.execute(b, b);
    return b;
  }) as [Float64Array, Float64Array];
  // Into the slots: a_q = x_(g^q). Out of them: output k = g^−q reads c_q; the permutation writes outputs 1 … n − 1
  // (X_0 is written apart).
  const into = new Int32Array(N);
  const out = new Int32Array(N);
  for (let q = 0; q < N; q++) {
    into[q] = pow[q]!;
    out[pow[(N - q) % N]! - 1] = q;
  }
  return { kernels, into, out };
}

/** Byte addresses Rader's row step uses in its host's memory. */
interface RaderRegions {
  tw: number;
  work: number;
  /** Inner slots for `chunk` problems of n − 1, in and out. */
  slotIn: number;
  slotOut: number;
  /** [forward, inverse] kernels. */
  kernels: [number, number];
}

/**
 * Prime n by Rader: X_0 = Σ x_j and X_(g^−m) = x_0 + (a ⊛ b)_m, the cyclic convolution of length N = n − 1 of
 * a_q = x_(g^q) with b_q = ω^(g^−q). Rows of n complex values (contiguous) are permuted into the inner plan's slots,
 * transformed, multiplied by the kernel's transform (x_0 added to bin 0, which adds it to every output), transformed
 * back unscaled and permuted into output order. The inner kernels run in the host's memory.
 */
class RaderRows {
  /** Problems a chunk: the inner plan's slots times its problems a slot. */
  readonly chunk: number;
  private readonly perSlot: number;
  private readonly toSlots: PermutationTable;
  private readonly fromSlots: PermutationTable;
  constructor(
    private readonly recipe: Extract<CpuEngineFftRecipe, { kind: 'rader' }>,
    private readonly host: LaneFft,
    private readonly k: InnerKernels,
    private readonly at: RaderRegions,
  ) {
    const t = raderTables(recipe);
    const e = host.heap.BYTES_PER_ELEMENT;
    for (const dir of [0, 1] as const) host.heap.set(t.kernels[dir], at.kernels[dir] / e);
    this.toSlots = host.permutationOf('rader/in', () => t.into);
    this.fromSlots = host.permutationOf('rader/out', () => t.out);
    this.perSlot = recipe.inner.kind === 'lane-batch' ? recipe.lanes : 1;
    this.chunk = RaderRows.chunkOf(recipe);
  }
  /** Problems a chunk of the inner slots (CHUNK_BYTES of them). */
  static chunkOf(recipe: Extract<CpuEngineFftRecipe, { kind: 'rader' }>): number {
    const perSlot = recipe.inner.kind === 'lane-batch' ? recipe.lanes : 1;
    const cb = recipe.precision === 'f32' ? 8 : 16;
    return Math.max(1, Math.floor(CHUNK_BYTES / (perSlot * (recipe.n - 1) * cb))) * perSlot;
  }
  /** `count` rows from inP to outP (byte addresses, rows n values apart; may be the same): DFT (dir 0) or inverse. */
  run(inP: number, outP: number, count: number, dir: 0 | 1, scale: number): void {
    const { n, lanes } = this.recipe;
    const N = n - 1;
    const { host, k, at } = this;
    const e = host.heap.BYTES_PER_ELEMENT;
    const cb = 2 * e;
    const tail = N % lanes;
    const kernel = at.kernels[dir];
    for (let r0 = 0; r0 < count; r0 += this.chunk) {
      const c = Math.min(this.chunk, count - r0);
      const slots = Math.ceil(c / this.perSlot);
      const [rowIn, rowOut] = [inP + r0 * n * cb, outP + r0 * n * cb];
      host.permute(this.toSlots, rowIn, at.slotIn, c, n * cb, N * cb);
      // The heap view may have been replaced by a grown memory (a table): read it after the permutation.
      const heap = host.heap;
      const [sIn, sOut] = [at.slotIn / e, at.slotOut / e];
      // A short lane-batch group's empty lanes get zeros (no NaN or denormals slowing the valid ones).
      heap.fill(0, sIn + 2 * N * c, sIn + 2 * N * slots * this.perSlot);
      k.fwd(at.slotIn, at.slotOut, at.work, at.tw, slots, 1);
      for (let q = 0; q < c; q++) {
        const [x, A, y] = [rowIn / e + 2 * n * q, sOut + 2 * N * q, rowOut / e + 2 * n * q];
        const [x0r, x0i] = [heap[x]!, heap[x + 1]!];
        heap[y] = x0r + heap[A]!;
        heap[y + 1] = x0i + heap[A + 1]!;
        // cmul takes whole vectors (W values); the last N mod W here.
        k.cmul(at.slotOut + cb * N * q, at.slotOut + cb * N * q, kernel, N - tail);
        for (let i = N - tail; i < N; i++) {
          const [p, w] = [A + 2 * i, kernel / e + 2 * i];
          const [re, im] = [heap[p]!, heap[p + 1]!];
          heap[p] = re * heap[w]! - im * heap[w + 1]!;
          heap[p + 1] = re * heap[w + 1]! + im * heap[w]!;
        }
        heap[A]! += x0r;
        heap[A + 1]! += x0i;
      }
      // Unscaled inverse (1/N is in the kernel).
      k.inv(at.slotOut, at.slotIn, at.work, at.tw, slots, 1);
      host.permute(this.fromSlots, at.slotIn, rowOut + cb, c, N * cb, n * cb);
      if (scale !== 1) {
        const from = rowOut / e;
        for (let i = from; i < from + 2 * n * c; i++) heap[i]! *= scale;
      }
    }
  }
}

/** Prime n by Rader (RaderRows): rows staged in the inner plan's memory. */
class RaderFft implements EngineFft {
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    inPlace(this, data, offset, inverse, scale);
  }
  private readonly inner: LaneFft;
  private readonly rows: RaderRows;
  /** Byte address of the staged rows (a chunk of them). */
  private readonly stage: number;
  constructor(readonly recipe: Extract<CpuEngineFftRecipe, { kind: 'rader' }>) {
    const N = recipe.n - 1;
    const cb = recipe.precision === 'f32' ? 8 : 16;
    const chunk = RaderRows.chunkOf(recipe);
    const sizes = [chunk * recipe.n * cb, N * cb, N * cb].map((b) => Math.ceil(b / 64) * 64);
    this.inner = new LaneFft(
      recipe.inner,
      sizes.reduce((a, b) => a + b, 0),
    );
    let at = this.inner.extraP;
    const [stage, k0, k1] = sizes.map((b) => ((at += b), at - b));
    this.stage = stage!;
    const inner = this.inner;
    this.rows = new RaderRows(
      recipe,
      inner,
      { fwd: inner.fwd, inv: inner.inv, cmul: inner.cmul! },
      { tw: inner.twP, work: inner.workP, slotIn: inner.inP, slotOut: inner.outP, kernels: [k0!, k1!] },
    );
  }
  get n(): number {
    return this.recipe.n;
  }
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const n = this.n;
    const { batch, inverse, scale, li, lo } = resolveExec(n, input, output, options);
    const chunk = this.rows.chunk;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      let heap = this.inner.heap;
      const s = this.stage / heap.BYTES_PER_ELEMENT;
      // Packed rows move as one block.
      if (li.stride === 1 && li.dist === n)
        heap.set(input.subarray(2 * (li.offset + b0 * n), 2 * (li.offset + (b0 + count) * n)), s);
      else for (let q = 0; q < count; q++) copyIn(input, li, b0 + q, n, heap, s + 2 * n * q);
      this.rows.run(this.stage, this.stage, count, inverse ? 1 : 0, scale);
      heap = this.inner.heap;
      if (lo.stride === 1 && lo.dist === n) output.set(heap.subarray(s, s + 2 * n * count), 2 * (lo.offset + b0 * n));
      else for (let q = 0; q < count; q++) copyOut(heap, s + 2 * n * q, output, lo, b0 + q, n);
    }
  }
}

/**
 * Real rows of a prime n two a complex transform around Rader: the pairs path's row steps (generatePairsRows, so
 * every LaneFft pairs method runs unchanged) and Rader's inner plan share one memory, and the slots' complex FFT
 * (fwd / inv) is Rader's row step.
 */
class RaderPairsFft extends LaneFft {
  private readonly rows: RaderRows;
  constructor(recipe: CpuRaderPairsRecipe) {
    const inner = compiled(recipe.inner);
    const e = recipe.precision === 'f32' ? 4 : 8;
    const cb = 2 * e;
    const N = recipe.n - 1;
    const chunk = RaderRows.chunkOf(recipe);
    const sizes = [
      inner.info.twiddles.length * e,
      inner.info.workBytes,
      chunk * N * cb,
      chunk * N * cb,
      N * cb,
      N * cb,
    ].map((b) => Math.ceil(b / 64) * 64);
    super(
      recipe,
      sizes.reduce((a, b) => a + b, 0),
      compiledRows(recipe),
    );
    let at = this.extraP;
    const [tw, work, slotIn, slotOut, k0, k1] = sizes.map((b) => ((at += b), at - b));
    this.rows = new RaderRows(recipe, this, kernelsIn(this, inner, tw!), {
      tw: tw!,
      work: work!,
      slotIn: slotIn!,
      slotOut: slotOut!,
      kernels: [k0!, k1!],
    });
    this.fwd = (inP, outP, _work, _tw, count, scale) => this.rows.run(inP, outP, count, 0, scale);
    this.inv = (inP, outP, _work, _tw, count, scale) => this.rows.run(inP, outP, count, 1, scale);
  }
}

/**
 * Odd n whose complex FFT is Bluestein, real rows two a complex transform: the pairs path's row steps
 * (generatePairsRows, so every LaneFft pairs method runs unchanged) and Bluestein's inner plan share one memory,
 * and the slots' complex FFT (fwd / inv) runs Bluestein row by row in it: the row and zeros to a slot of m, the
 * chirp, the inner FFT, the filter, the inner inverse, the chirp, and the first n values back.
 */
class BluesteinPairsFft extends LaneFft {
  private readonly m: number;
  private readonly nPad: number;
  private readonly innerKernels: InnerKernels;
  /** Byte addresses: the inner plan's twiddles and work, two slots of m, the [forward, inverse] chirps and filters. */
  private readonly innerTw: number;
  private readonly innerWork: number;
  private readonly sP: number;
  private readonly tP: number;
  private readonly chirpP: [number, number];
  private readonly filterP: [number, number];
  constructor(recipe: CpuBluesteinPairsRecipe) {
    const t = bluesteinTables(recipe);
    const inner = compiled(t.inner);
    const e = recipe.precision === 'f32' ? 4 : 8;
    const cb = 2 * e;
    const sizes = [
      inner.info.twiddles.length * e,
      inner.info.workBytes,
      cb * t.m,
      cb * t.m,
      cb * t.nPad,
      cb * t.nPad,
      cb * t.m,
      cb * t.m,
    ].map((b) => Math.ceil(b / 64) * 64);
    super(
      recipe,
      sizes.reduce((a, b) => a + b, 0),
      compiledRows(recipe),
    );
    let at = this.extraP;
    const [innerTw, innerWork, sP, tP, c0, c1, f0, f1] = sizes.map((b) => ((at += b), at - b));
    [this.innerTw, this.innerWork, this.sP, this.tP] = [innerTw!, innerWork!, sP!, tP!];
    this.chirpP = [c0!, c1!];
    this.filterP = [f0!, f1!];
    this.m = t.m;
    this.nPad = t.nPad;
    this.innerKernels = kernelsIn(this, inner, this.innerTw);
    for (const dir of [0, 1] as const) {
      this.heap.set(t.chirps[dir], this.chirpP[dir] / e);
      this.heap.set(t.filters[dir], this.filterP[dir] / e);
    }
    this.fwd = (inP, outP, _work, _tw, count, scale) => this.bluesteinRows(inP, outP, count, 0, scale);
    this.inv = (inP, outP, _work, _tw, count, scale) => this.bluesteinRows(inP, outP, count, 1, scale);
  }

  /** `count` rows of n complex values from inP to outP (rows n values apart): DFT (dir 0) or inverse (1), times `scale`. */
  private bluesteinRows(inP: number, outP: number, count: number, dir: 0 | 1, scale: number): void {
    const { fwd, inv, cmul } = this.innerKernels;
    const n = this.n;
    const m = this.m;
    for (let q = 0; q < count; q++) {
      // The heap view may have been replaced (memory grown for a gather table).
      const heap = this.heap;
      const e = heap.BYTES_PER_ELEMENT;
      const a = inP / e + 2 * n * q;
      const z = outP / e + 2 * n * q;
      const s = this.sP / e;
      heap.copyWithin(s, a, a + 2 * n);
      heap.fill(0, s + 2 * n, s + 2 * m);
      cmul(this.sP, this.sP, this.chirpP[dir], this.nPad);
      fwd(this.sP, this.tP, this.innerWork, this.innerTw, 1, 1);
      cmul(this.tP, this.tP, this.filterP[dir], m);
      inv(this.tP, this.sP, this.innerWork, this.innerTw, 1, 1);
      cmul(this.sP, this.sP, this.chirpP[dir], this.nPad);
      if (scale !== 1) for (let i = s; i < s + 2 * n; i++) heap[i]! *= scale;
      heap.copyWithin(z, s, s + 2 * n);
    }
  }
}

class TrivialFft implements EngineFft {
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    inPlace(this, data, offset, inverse, scale);
  }
  readonly n = 1;
  constructor(readonly recipe: Extract<CpuEngineFftRecipe, { kind: 'trivial' }>) {}
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const { batch, scale, li, lo } = resolveExec(1, input, output, options);
    for (let b = 0; b < batch; b++) {
      const p = 2 * (li.offset + b * li.dist);
      const q = 2 * (lo.offset + b * lo.dist);
      output[q] = scale * input[p]!;
      output[q + 1] = scale * input[p + 1]!;
    }
  }
}

const plans = new Map<string, EngineFft>();

/** Whether this runtime validates a module using 128-bit SIMD (every current browser and Node ≥ 16 does). */
export const WASM_SIMD = ((): boolean => {
  try {
    // (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)
    return WebAssembly.validate(
      new Uint8Array([
        0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
      ]),
    );
  } catch {
    return false;
  }
})();

/** Where SIMD is missing: the float64 reference (scalar JavaScript) behind the engine's interface. */
class ScalarFft implements EngineFft {
  private readonly impl;
  constructor(
    readonly n: number,
    readonly precision: CpuPrecision,
  ) {
    // An explicit threshold bypasses the engine scope: always the reference.
    this.impl = planCpuFft(n, { bluesteinThreshold: 16 });
  }
  get recipe(): CpuEngineFftRecipe {
    return planCpuEngineFft(this.n, this.precision);
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const s = extraScale(options);
    this.impl.execute(input, output, options);
    if (s !== 1) {
      const lo = layoutOf(options.output, this.n, 'output');
      for (let b = 0; b < (options.batch ?? 1); b++) {
        for (let i = 0; i < this.n; i++) {
          const p = 2 * (lo.offset + b * lo.dist + i * lo.stride);
          output[p]! *= s;
          output[p + 1]! *= s;
        }
      }
    }
  }
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    inPlace(this, data, offset, inverse, scale);
  }
}

/** Whether engineFft(n, precision) would give the engine's plan without compiling on a thread that refuses to. */
export function engineFftReady(n: number, precision: CpuPrecision): boolean {
  return (
    !syncCompileRestricted() ||
    (lastPlan?.n === n && lastPlan.precision === precision) ||
    plans.has(`${n}/${precision}`)
  );
}

/** The engine FFT for a length and precision (cached: plans are stateless between calls). */
export function engineFft(n: number, precision: CpuPrecision): EngineFft {
  // Calls of one length in a loop: the cache's string key and recency update cost as much as a 64-point transform.
  if (lastPlan && lastPlan.n === n && lastPlan.precision === precision) return lastPlan;
  const key = `${n}/${precision}`;
  let p = lruGet(plans, key);
  if (!p) {
    if (!WASM_SIMD) p = new ScalarFft(n, precision);
    else {
      try {
        p = engineFftOf(planCpuEngineBatchFft(n, precision));
      } catch (e) {
        // Not compiled ahead (precompileEngine) where only asynchronous compilation is allowed:
        // the reference computes this call, and the plan is not cached so a later call can compile.
        if (e instanceof SyncCompileRefused) return new ScalarFft(n, precision);
        throw e;
      }
    }
    lruSet(plans, key, p, MAX_PLANS);
  }
  lastPlan = p;
  return p;
}
let lastPlan: EngineFft | undefined;

/**
 * Forgets the cached complex and real engine plans by length (a worker adopting a different four-step threshold
 * from its calling thread: cpu-features.ts, setFourStepFromBytes).
 */
export function forgetEnginePlans(): void {
  lastPlan = undefined;
  lastReal = undefined;
  plans.clear();
  realPlans.clear();
}

/** The engine FFT of a given recipe, uncached (tests of recipes the planner keeps for larger lengths). */
export function engineFftOf(recipe: CpuEngineFftRecipe): EngineFft {
  return recipe.kind === 'bluestein'
    ? new BluesteinFft(recipe)
    : recipe.kind === 'rader'
      ? new RaderFft(recipe)
      : recipe.kind === 'trivial'
        ? new TrivialFft(recipe)
        : recipe.kind === 'reference'
          ? new ScalarFft(recipe.n, recipe.precision)
          : recipe.kind === 'lane-batch' && recipe.single
            ? new SingleRowsFft(recipe, new LaneFft(recipe), new LaneFft(recipe.single))
            : new LaneFft(recipe);
}
