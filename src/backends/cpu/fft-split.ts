/**
 * One transform split across threads (src/planner/cpu-fft.ts, planCpuSplit): the four-step recipe's two
 * phases (src/codegen/wasm/fft-four-step.ts) each shared out by blocks, with a barrier between, over one shared
 * WebAssembly memory that every thread instantiates the same module on. The calling thread copies the problem
 * in and the result out; phase A's blocks write the scratch matrix T that phase B's blocks read, so a phase
 * starts only when every thread has finished the one before.
 *
 * Memory: twiddles at 0, one work area a thread, T, the input and the output.
 */
import { ButterflyError } from '../../errors.js';
import type { CpuLaneRecipe, CpuPrecision } from '../../planner/cpu-fft.js';
import { fourStepOwnWork, fourStepPitch } from '../../codegen/wasm/fft-four-step.js';
import { compiled, copyIn, copyOut, resolveExec, THREAD_AREA_GAP, type EngineExecOptions } from './wasm-fft.js';
import { adoptMemory, SharedInstances } from './shared-memories.js';

type AnyArray = Float32Array | Float64Array;
type FourStep = Extract<CpuLaneRecipe, { kind: 'four-step' }>;

/**
 * One thread's part of a phase: plain data, posted to a worker as is (the shared memory travels by reference).
 * Phases 'in' and 'out' copy values [k0, k1) of one problem between `array` (from its value `from`), an array on a
 * SharedArrayBuffer that every thread can read, and the memory at byte `src`.
 */
export interface PhaseRun {
  id: number;
  recipe: FourStep;
  memory: WebAssembly.Memory;
  phase: 'a' | 'b' | 'in' | 'out';
  array?: AnyArray;
  from?: number;
  inverse: boolean;
  src: number;
  dst: number;
  work: number;
  /** Blocks [k0, k1) of the phase. */
  k0: number;
  k1: number;
  scale: number;
}

type PhaseFn = (src: number, dst: number, work: number, tw: number, k0: number, k1: number, scale?: number) => void;
interface Phases {
  aF: PhaseFn;
  aI: PhaseFn;
  bF: PhaseFn;
  bI: PhaseFn;
  /** With realPost: the real FFT's post step (src/codegen/wasm/rfft-post.ts) and the inverse's pre step. */
  r2c?: (z: number, y: number, tw: number, count: number, scale: number) => void;
  c2r?: (y: number, z: number, tw: number, count: number) => void;
  /** With dct2: DCT-II's reorder and fused post step, DCT-III's pre and post steps (src/codegen/wasm/dct*-makhoul.ts). */
  dct2pre?: (x: number, v: number, count: number) => void;
  dct2r2c?: (z: number, out: number, twR: number, twD: number, count: number, scale: number) => void;
  dct3pre?: (x: number, y: number, tw: number, count: number) => void;
  dct3post?: (v: number, out: number, count: number) => void;
}

/** Instances by memory (see shared-memories.ts): a worker makes one the first time it is handed a memory. */
const instances = new SharedInstances<Phases>(4);

function phasesOf(run: Pick<PhaseRun, 'id' | 'recipe' | 'memory'>): Phases {
  return instances.of(
    run.id,
    run.memory,
    () =>
      new WebAssembly.Instance(compiled(run.recipe, true).mod, { env: { memory: run.memory } })
        .exports as unknown as Phases,
  );
}

/** Runs one thread's blocks of a phase on this thread. */
export function runPhase(run: PhaseRun): void {
  if (run.phase === 'in' || run.phase === 'out') {
    const heap = new (run.recipe.precision === 'f32' ? Float32Array : Float64Array)(run.memory.buffer);
    const at = run.src / heap.BYTES_PER_ELEMENT,
      from = run.from!;
    if (run.phase === 'in') heap.set(run.array!.subarray(from + run.k0, from + run.k1), at + run.k0);
    else run.array!.set(heap.subarray(at + run.k0, at + run.k1), from + run.k0);
    return;
  }
  const p = phasesOf(run);
  if (run.phase === 'a') (run.inverse ? p.aI : p.aF)(run.src, run.dst, run.work, 0, run.k0, run.k1);
  else (run.inverse ? p.bI : p.bF)(run.src, run.dst, run.work, 0, run.k0, run.k1, run.scale);
}

/** Runs a phase's parts (the first on this thread, the others on workers) and resolves when all are done. */
type Dispatch = (runs: PhaseRun[]) => Promise<void>;
/** A row call's copy of `values` values between an array's start and the memory at byte `at` (SplitFft.move). */
type Move = (phase: 'in' | 'out', array: AnyArray, at: number, values: number) => Promise<void> | void;

export class SplitFft {
  readonly n: number;
  readonly precision: CpuPrecision;
  readonly id: number;
  readonly memory: WebAssembly.Memory;
  private readonly heap: AnyArray;
  private readonly workPs: number[];
  private readonly tP: number;
  private readonly inP: number;
  private readonly outP: number;
  /** The real post step's output (realPost recipes). */
  private readonly yP: number;
  private readonly r2cTwiddleOffset?: number;
  private readonly dct2TwiddleOffset?: number;
  private readonly dct3TwiddleOffset?: number;
  constructor(
    readonly recipe: FourStep,
    readonly threads: number,
  ) {
    this.n = recipe.n;
    this.precision = recipe.precision;
    const { info } = compiled(recipe, true);
    const e = recipe.precision === 'f32' ? 4 : 8;
    // Staggered modulo 4 KiB, as the engine's other buffers, so power-of-two strided streams use different sets.
    let stagger = 0;
    const align = (x: number): number => Math.ceil(x / 4096) * 4096 + 1024 * (stagger++ % 4);
    const own = fourStepOwnWork(recipe);
    this.workPs = [];
    let at = info.twiddles.length * e;
    for (let t = 0; t < threads; t++) {
      at = align(at);
      this.workPs.push(at);
      at += own + THREAD_AREA_GAP;
    }
    this.tP = align(at);
    this.inP = align(this.tP + fourStepPitch(recipe) * recipe.n2);
    this.outP = align(this.inP + 2 * e * recipe.n);
    this.yP = align(this.outP + 2 * e * recipe.n);
    this.r2cTwiddleOffset = info.r2cTwiddleOffset;
    this.dct2TwiddleOffset = info.dct2TwiddleOffset;
    this.dct3TwiddleOffset = info.dct3TwiddleOffset;
    const bytes = this.yP + (recipe.realPost ? 2 * e * (recipe.n + 1) + 16 * e : 0);
    const pages = Math.ceil(bytes / 65536);
    try {
      this.memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
    } catch (err) {
      throw new ButterflyError(`split transform: the runtime refused a shared memory of ${bytes} bytes (${err})`);
    }
    this.id = adoptMemory(this.memory);
    this.heap = e === 4 ? new Float32Array(this.memory.buffer) : new Float64Array(this.memory.buffer);
    this.heap.set(info.twiddles, 0);
  }

  /** Whether copies of `a` in and out are shared among the threads: `a` on a SharedArrayBuffer, which they all read. */
  private sharesCopies(a: AnyArray): boolean {
    return this.threads > 1 && typeof SharedArrayBuffer === 'function' && a.buffer instanceof SharedArrayBuffer;
  }

  /**
   * Copies `values` contiguous values between `array` from its value `from` and the memory at byte `at`, shared among
   * the threads where they can all read `array`.
   */
  private move(
    dispatch: Dispatch,
    phase: 'in' | 'out',
    array: AnyArray,
    from: number,
    at: number,
    values: number,
  ): Promise<void> | void {
    if (this.sharesCopies(array)) return dispatch(this.copyRuns(phase, array, from, at, values));
    const e = this.heap.BYTES_PER_ELEMENT;
    if (phase === 'in') this.heap.set(array.subarray(from, from + values), at / e);
    else array.set(this.heap.subarray(at / e, at / e + values), from);
  }

  /**
   * The threads' parts of copying `values` values in or out of `array` from its value `from`, to or from the memory at
   * byte `at`: equal runs of values.
   */
  private copyRuns(phase: 'in' | 'out', array: AnyArray, from: number, at: number, values: number): PhaseRun[] {
    // Whole cache lines a part.
    const unit = 64 / this.heap.BYTES_PER_ELEMENT;
    return Array.from({ length: this.threads }, (_, i) => ({
      id: this.id,
      recipe: this.recipe,
      memory: this.memory,
      phase,
      array,
      from,
      inverse: false,
      src: at,
      dst: 0,
      work: this.workPs[i]!,
      k0: Math.min(values, unit * Math.round((values / unit) * (i / this.threads))),
      k1:
        i === this.threads - 1
          ? values
          : Math.min(values, unit * Math.round((values / unit) * ((i + 1) / this.threads))),
      scale: 1,
    }));
  }

  /** The threads' parts of a phase: blocks shared out evenly, the first part for the calling thread. */
  runs(phase: 'a' | 'b', inverse: boolean, scale: number): PhaseRun[] {
    const r = this.recipe;
    const blocks = (phase === 'a' ? r.n2 : r.n1) / (r.lanes * r.blockGroups);
    const t = Math.min(this.threads, blocks);
    const out: PhaseRun[] = [];
    for (let i = 0; i < t; i++) {
      out.push({
        id: this.id,
        recipe: r,
        memory: this.memory,
        phase,
        inverse,
        src: phase === 'a' ? this.inP : this.tP,
        dst: phase === 'a' ? this.tP : this.outP,
        work: this.workPs[i]!,
        k0: Math.round((blocks * i) / t),
        k1: Math.round((blocks * (i + 1)) / t),
        scale,
      });
    }
    return out;
  }

  /**
   * The engine's execute contract (batched, strided, normalised; input and output may alias), each problem in
   * turn: copied in, phase A and phase B through `dispatch` (which runs the first part here and the others on
   * workers, and resolves once all are done), copied out.
   */
  execute(
    input: AnyArray,
    output: AnyArray,
    options: EngineExecOptions,
    dispatch: (runs: PhaseRun[]) => Promise<void>,
  ): Promise<void> {
    // Calls on one plan share its memory: each waits for the one before (a failed call does not block the next).
    const run = this.last.then(() => this.run(input, output, options, dispatch));
    this.last = run.catch(() => undefined);
    return run;
  }
  private last: Promise<unknown> = Promise.resolve();

  private async run(
    input: AnyArray,
    output: AnyArray,
    options: EngineExecOptions,
    dispatch: (runs: PhaseRun[]) => Promise<void>,
  ): Promise<void> {
    const n = this.n;
    const { batch, inverse, scale, li, lo } = resolveExec(n, input, output, options);
    const e = this.heap.BYTES_PER_ELEMENT;
    // This plan's own regions (createSplitBuffers) are transformed where they lie.
    const own = (a: AnyArray, l: typeof li, at: number): boolean =>
      batch === 1 && a.buffer === this.heap.buffer && a.byteOffset + 2 * e * l.offset === at && l.stride === 1;
    for (let b = 0; b < batch; b++) {
      // Contiguous problems through move (on SharedArrayBuffers every thread copies a part), strided ones here; an
      // input already in place is transformed where it lies.
      if (!own(input, li, this.inP)) {
        if (li.stride === 1) await this.move(dispatch, 'in', input, 2 * (li.offset + b * li.dist), this.inP, 2 * n);
        else copyIn(input, li, b, n, this.heap, this.inP / e);
      }
      await dispatch(this.runs('a', inverse, 1));
      await dispatch(this.runs('b', inverse, scale));
      if (own(output, lo, this.outP)) continue;
      if (lo.stride === 1) await this.move(dispatch, 'out', output, 2 * (lo.offset + b * lo.dist), this.outP, 2 * n);
      else copyOut(this.heap, this.outP / e, output, lo, b, n);
    }
  }

  /**
   * rfft of one row of 2·n reals (realPost recipes): the row read as n complex values, split as a complex
   * transform, then the real post step on this thread into the n + 1 outputs, times `scale`.
   */
  forwardReal(input: AnyArray, output: AnyArray, scale: number, dispatch: Dispatch): Promise<void> {
    const n = this.n;
    return this.rowCall(false, 1, dispatch, {
      pre: (_heap, _e, _ex, move) => move('in', input, this.inP, 2 * n),
      post: (_heap, _e, ex, move) => {
        ex.r2c!(this.outP, this.yP, this.r2cTwiddleOffset!, 1, scale);
        return move('out', output, this.yP, 2 * (n + 1));
      },
    });
  }

  /**
   * irfft of one row of n + 1 complex values into 2·n reals, times `scale` (realPost recipes): the pre step on
   * this thread (the imaginary parts of Y_0 and Y_n ignored, as numpy does), then the split inverse transform.
   */
  inverseReal(input: AnyArray, output: AnyArray, scale: number, dispatch: Dispatch): Promise<void> {
    const n = this.n;
    return this.rowCall(true, scale, dispatch, {
      pre: async (heap, e, ex, move) => {
        const y = this.yP / e;
        await move('in', input, this.yP, 2 * (n + 1));
        heap[y + 1] = 0;
        heap[y + 2 * n + 1] = 0;
        ex.c2r!(this.yP, this.inP, this.r2cTwiddleOffset!, 1);
      },
      post: (_heap, _e, _ex, move) => move('out', output, this.outP, 2 * n),
    });
  }

  /**
   * DCT-II of one row of 2·n reals (scipy's 'backward' times `scale`; `orthogonalize` divides y_0 by √2), dct2
   * recipes: the reorder on this thread, the split transform, the fused post step on this thread.
   */
  forwardDct2(input: AnyArray, output: AnyArray, scale: number, orthogonalize: boolean, dispatch: Dispatch) {
    const n = this.n;
    if (!this.recipe.dct2) throw new Error('split DCT: the plan has no DCT steps');
    return this.rowCall(false, scale, dispatch, {
      pre: async (_heap, _e, ex, move) => {
        await move('in', input, this.outP, 2 * n);
        ex.dct2pre!(this.outP, this.inP, 1);
      },
      post: (heap, e, ex, move) => {
        ex.dct2r2c!(this.outP, this.yP, this.r2cTwiddleOffset!, this.dct2TwiddleOffset!, 1, 1);
        if (orthogonalize) heap[this.yP / e]! /= Math.SQRT2;
        return move('out', output, this.yP, 2 * n);
      },
    });
  }

  /**
   * DCT-III of one row of 2·n reals (unnormalised, times `scale`; `orthogonalize` first multiplies x_0 by √2),
   * dct2 recipes: the pre step and the real pre step on this thread, the split inverse, the reorder here.
   */
  inverseDct2(input: AnyArray, output: AnyArray, scale: number, orthogonalize: boolean, dispatch: Dispatch) {
    const n = this.n;
    if (!this.recipe.dct2) throw new Error('split DCT: the plan has no DCT steps');
    return this.rowCall(true, scale, dispatch, {
      pre: async (heap, e, ex, move) => {
        const x = this.inP / e,
          y = this.yP / e;
        await move('in', input, this.inP, 2 * n);
        if (orthogonalize) heap[x]! *= Math.SQRT2;
        ex.dct3pre!(this.inP, this.yP, this.dct3TwiddleOffset!, 1);
        // Y_0 = x_0; Y_n is real (its imaginary part is rounding, and c2r ignores it).
        heap[y] = heap[x]!;
        heap[y + 1] = 0;
        heap[y + 2 * n + 1] = 0;
        ex.c2r!(this.yP, this.inP, this.r2cTwiddleOffset!, 1);
      },
      post: (_heap, _e, ex, move) => {
        ex.dct3post!(this.outP, this.yP, 1);
        return move('out', output, this.yP, 2 * n);
      },
    });
  }

  /**
   * One row of a real or DCT call after the plan's earlier calls (they share its memory): `pre` on this thread,
   * the split transform (phase B times `scale`), `post` on this thread.
   */
  private rowCall(
    inverse: boolean,
    scale: number,
    dispatch: Dispatch,
    steps: {
      pre: (heap: AnyArray, e: number, ex: Phases, move: Move) => Promise<void> | void;
      post: (heap: AnyArray, e: number, ex: Phases, move: Move) => Promise<void> | void;
    },
  ): Promise<void> {
    if (!this.recipe.realPost) throw new Error('split real FFT: the plan has no real post step');
    const run = this.last.then(async () => {
      const ex = phasesOf(this);
      const e = this.heap.BYTES_PER_ELEMENT;
      const move: Move = (phase, array, at, values) => this.move(dispatch, phase, array, 0, at, values);
      await steps.pre(this.heap, e, ex, move);
      await dispatch(this.runs('a', inverse, 1));
      await dispatch(this.runs('b', inverse, scale));
      await steps.post(this.heap, e, ex, move);
    });
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Views of the input and output regions (see createSplitBuffers). */
  views(): { input: AnyArray; output: AnyArray } {
    const e = this.heap.BYTES_PER_ELEMENT;
    const len = 2 * this.n;
    return {
      input: this.heap.subarray(this.inP / e, this.inP / e + len),
      output: this.heap.subarray(this.outP / e, this.outP / e + len),
    };
  }
}

const bufferOwners = new WeakMap<ArrayBufferLike, SplitFft>();

/**
 * Engine buffers of a single transform split across `threads` threads: the input and output regions of a split
 * plan of their own (not the cached one, which other calls copy into), transformed without copies.
 */
export function createSplitBuffers(recipe: FourStep, threads: number): { input: AnyArray; output: AnyArray } {
  const s = new SplitFft(recipe, threads);
  const v = s.views();
  bufferOwners.set(v.input.buffer, s);
  return v;
}

/** The split plan whose buffers `a` lies in (createSplitBuffers), if any. */
export function splitOwnerOf(a: AnyArray): SplitFft | undefined {
  return bufferOwners.get(a.buffer);
}

/** Split plans by recipe and threads: each holds a memory of about four times its problem, so only two are kept. */
const splits = new Map<string, SplitFft>();
const MAX_SPLITS = 2;

/** Drops the cached split plans and this thread's instances (their memories are freed once unreferenced). */
export function clearSplitPlans(): void {
  splits.clear();
  instances.clear();
}

/** The split plan of a recipe for `threads` threads (cached: its memory is reused call after call). */
export function splitFft(recipe: FourStep, threads: number): SplitFft {
  const key = `${JSON.stringify(recipe)}/${threads}`;
  let s = splits.get(key);
  if (!s) {
    s = new SplitFft(recipe, threads);
    splits.set(key, s);
    while (splits.size > MAX_SPLITS) splits.delete(splits.keys().next().value!);
  }
  return s;
}
