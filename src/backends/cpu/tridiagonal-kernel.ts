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

/**
 * A kernel call's vectors cut into at most `threads` contiguous parts. Interleaved: each part's scratch is its own
 * [n][P_t] vectors, packed one after another (n·P·16 bytes in all, as one call). Strided: each part reuses [n][group]
 * vectors of its own, so parts are limited to what the call's `scratchBytes` of CP and XI hold.
 */
export function thomasParts(
  w: {
    id: number;
    memory: WebAssembly.Memory;
    layout: TridiagonalLayout;
    round32: boolean;
    check: boolean;
    L: { cap: number };
  },
  call: ThomasArgs,
  threads: number,
  scratchBytes = w.L.cap * 8,
): ThomasRun[] {
  const [P, n, rs, ps, ls, base, sb, qb] = call;
  const inter = w.layout === 'interleaved';
  const groupBytes = n * THOMAS_GROUP * 16;
  // Interleaved parts are column ranges of every row: at least MIN_PART_VECTORS each, so that the cache lines two
  // threads both write (at the ranges' edges) are few. Strided parts are whole systems, a group's worth at least.
  let T = Math.max(1, Math.min(threads, Math.floor(P / (inter ? MIN_PART_VECTORS : THOMAS_GROUP))));
  if (!inter) T = Math.max(1, Math.min(T, Math.floor(scratchBytes / groupBytes)));
  const runs: ThomasRun[] = [];
  for (let t = 0; t < T; t++) {
    const v0 = Math.round((P * t) / T),
      v1 = Math.round((P * (t + 1)) / T);
    if (v1 === v0) continue;
    const sbase = sb + (inter ? n * 16 * v0 : t * groupBytes);
    const args: ThomasArgs = [v1 - v0, n, rs, ps, ls, base + v0 * ps, sbase, qb + v0 * ACC_VECTORS * 16];
    runs.push({ id: w.id, memory: w.memory, layout: w.layout, cap: w.L.cap, round32: w.round32, check: w.check, args });
  }
  return runs;
}
