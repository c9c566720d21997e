/**
 * The compiled batched Thomas kernel (src/codegen/wasm/tridiagonal-thomas.ts) and its parts for threads: a block's
 * vectors of systems cut into contiguous ranges, each solved by one thread on the kernel's shared memory with a
 * scratch range and accumulators of its own, so the threads write disjoint bytes and the results are those of one
 * call. Kept apart from tridiagonal-batch.ts so that worker threads load only this.
 */
import type { TridiagonalLayout } from '../../planner/tridiagonal.js';
import { ACC_VECTORS, THOMAS_GROUP, generateThomasKernel } from '../../codegen/wasm/tridiagonal-thomas.js';
import { SharedInstances } from './shared-memories.js';

/** solve's arguments: P, n, rs, ps, ls, base, sbase, qbase (generateThomasKernel). */
export type ThomasArgs = [number, number, number, number, number, number, number, number];
export type ThomasSolve = (...args: ThomasArgs) => void;

/** One thread's part of a kernel call on a shared memory. Plain data (the memory travels by reference). */
export interface ThomasRun {
  id: number;
  memory: WebAssembly.Memory;
  layout: TridiagonalLayout;
  cap: number;
  round32: boolean;
  /** The fused residual check (generateThomasKernel). */
  check: boolean;
  args: ThomasArgs;
}

/** Runs a call's parts: the first on the calling thread, the others on workers, all awaited (worker-pool.ts). */
export type RunThomasParts = (runs: ThomasRun[]) => Promise<void>;
/** Posts a call's parts to workers; resolves to the wait for their replies (worker-pool.ts). */
export type PostThomasParts = (runs: ThomasRun[]) => Promise<() => Promise<void>>;

const thomasModules = new Map<string, WebAssembly.Module | null>();

/** The kernel's module, or null without SIMD or where synchronous compilation is refused. */
export function thomasModule(
  layout: TridiagonalLayout,
  cap: number,
  round32: boolean,
  shared = false,
  check = true,
): WebAssembly.Module | null {
  const key = `${layout}:${cap}:${round32}:${shared}:${check}`;
  let m = thomasModules.get(key);
  if (m === undefined) {
    try {
      m = new WebAssembly.Module(
        generateThomasKernel(
          layout === 'strided' ? 'strided' : 'interleaved',
          cap,
          round32,
          shared,
          check,
        ) as BufferSource,
      );
    } catch {
      m = null;
    }
    thomasModules.set(key, m);
  }
  return m;
}

/** Instances on the memories that threads solve parts on, by memory (see shared-memories.ts). */
const instances = new SharedInstances<ThomasSolve>(4);

/** Records the calling thread's own instance on a shared memory, so its parts run there. */
export function rememberThomasInstance(id: number, memory: WebAssembly.Memory, solve: ThomasSolve): void {
  instances.set(id, memory, solve);
}

/** One part, on whichever thread runs it. */
export function runThomasPart(run: ThomasRun): void {
  const solve = instances.of(run.id, run.memory, () => {
    const mod = thomasModule(run.layout, run.cap, run.round32, true, run.check);
    if (!mod) throw new Error('the tridiagonal kernel does not compile on this thread');
    return new WebAssembly.Instance(mod, { env: { memory: run.memory } }).exports.solve as ThomasSolve;
  });
  solve(...run.args);
}

/** Fewest vectors (two systems each) an interleaved part has: 512 bytes of each row. */
const MIN_PART_VECTORS = 32;

/** The shape of an instance that parts are cut for (a WasmThomas, or a test's stand-in). */
type PartsOf = {
  id: number;
  memory: WebAssembly.Memory;
  layout: TridiagonalLayout;
  round32: boolean;
  check: boolean;
  L: { cap: number };
};

/**
 * Parts a call is cut into for `threads` threads. Interleaved parts are column ranges of every row: at least
 * MIN_PART_VECTORS each, so that the cache lines two threads both write (at the ranges' edges) are few. Strided parts
 * are whole systems, a group's worth at least, and each reuses [n][group] vectors of scratch of its own, so they are
 * limited to what the call's `scratchBytes` of CP and XI hold.
 */
function partCount(w: PartsOf, call: ThomasArgs, threads: number, scratchBytes: number): number {
  const [P, n] = call;
  const inter = w.layout === 'interleaved';
  const T = Math.max(1, Math.min(threads, Math.floor(P / (inter ? MIN_PART_VECTORS : THOMAS_GROUP))));
  return inter ? T : Math.max(1, Math.min(T, Math.floor(scratchBytes / (n * THOMAS_GROUP * 16))));
}

/**
 * The parts of a call between vector boundaries `cuts` (increasing, from 0 to P). Interleaved: each part's scratch is
 * its own [n][P_t] vectors, packed one after another (n·P·16 bytes in all, as one call); strided: part t's [n][group]
 * vectors at t·n·group·16.
 */
function partsAt(w: PartsOf, call: ThomasArgs, cuts: readonly number[]): ThomasRun[] {
  const [, n, rs, ps, ls, base, sb, qb] = call;
  const inter = w.layout === 'interleaved';
  const runs: ThomasRun[] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const v0 = cuts[t]!,
      v1 = cuts[t + 1]!;
    if (v1 === v0) continue;
    const sbase = sb + (inter ? n * 16 * v0 : t * n * THOMAS_GROUP * 16);
    const args: ThomasArgs = [v1 - v0, n, rs, ps, ls, base + v0 * ps, sbase, qb + v0 * ACC_VECTORS * 16];
    runs.push({ id: w.id, memory: w.memory, layout: w.layout, cap: w.L.cap, round32: w.round32, check: w.check, args });
  }
  return runs;
}

/** A kernel call's vectors cut into at most `threads` contiguous, even parts (see partCount). */
export function thomasParts(w: PartsOf, call: ThomasArgs, threads: number, scratchBytes = w.L.cap * 8): ThomasRun[] {
  const P = call[0];
  const T = partCount(w, call, threads, scratchBytes);
  return partsAt(
    w,
    call,
    Array.from({ length: T + 1 }, (_, t) => Math.round((P * t) / T)),
  );
}

/**
 * thomasParts with a part of its own for the calling thread: about `share` (0 … 1) of the vectors, the last ones;
 * the workers' `threads` − 1 parts share the rest evenly. `own` is null where that share is under a part's least
 * (the workers then take every vector).
 */
export function thomasPartsWithOwn(
  w: PartsOf,
  call: ThomasArgs,
  threads: number,
  scratchBytes: number,
  share: number,
): { workers: ThomasRun[]; own: ThomasRun | null } {
  const P = call[0];
  const least = w.layout === 'interleaved' ? MIN_PART_VECTORS : THOMAS_GROUP;
  const T = partCount(w, call, threads, scratchBytes);
  const own = Math.min(Math.round(share * P), P - least * (T - 1));
  if (T < 2 || own < least) return { workers: thomasParts(w, call, threads - 1, scratchBytes), own: null };
  const rest = P - own;
  const cuts = Array.from({ length: T }, (_, t) => Math.round((rest * t) / (T - 1)));
  cuts.push(P);
  const runs = partsAt(w, call, cuts);
  return { workers: runs.slice(0, -1), own: runs[runs.length - 1]! };
}
