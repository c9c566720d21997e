/**
 * Batched float64 tridiagonal solves on the CPU, written for speed: Thomas over whole typed arrays in
 * the user's layout, no per-element closures, no Field indirection, no allocation per system.
 *  - strided (each system contiguous): two systems at a time in one loop, so that the division and the
 *    recurrences of one system overlap the other's (a single Thomas sweep is latency-bound);
 *  - interleaved (row i of every system contiguous): the inner loop runs across the systems, which are
 *    independent, so the loop is throughput-bound and reads memory sequentially.
 * Several right-hand sides share the forward sweep's modified upper diagonal and inverse pivots.
 *
 * Also here: the backward error check that every tridiagonal solve of the library runs (strided and
 * interleaved, real and complex, plain and cyclic), and the per-system re-solve by LU with partial
 * pivoting that backend 'auto' applies to the systems the check flags.
 */
import { TRIDIAGONAL_STATUS as S, matIndex, rhsIndex, type TridiagonalLayout } from '../../planner/tridiagonal.js';
import { complexField, realField, type Field } from './thomas.js';
import { gtsvLu } from './gtsv-lu.js';
import { filledResult } from '../../util/filled-result.js';
import {
  ACC_ETA,
  ACC_STATUS,
  ACC_VECTORS,
  thomasKernelLayout,
  type ThomasKernelLayout,
} from '../../codegen/wasm/tridiagonal-thomas.js';
import { adoptMemory, releaseSharedMemories } from './shared-memories.js';
import {
  rememberThomasInstance,
  runThomasPart,
  thomasPartsWithOwn,
  thomasModule,
  thomasParts,
  type PostThomasParts,
  type RunThomasParts,
  type ThomasArgs,
  type ThomasSolve,
} from './tridiagonal-kernel.js';

type FloatArray = Float32Array | Float64Array;

/** Smallest pivot magnitude treated as non-zero in float64 (the smallest normal number). */
const TINY = 2.2250738585072014e-308;

export interface TridiagonalBatchCpuProblem {
  /** Rows per system. */
  n: number;
  /** Matrices. */
  batch: number;
  /** Right-hand sides per matrix (default 1). */
  nrhs?: number;
  /** Default 'strided'. Same conventions as createTridiagonalPlan. */
  layout?: TridiagonalLayout;
  lower: Float64Array;
  diag: Float64Array;
  upper: Float64Array;
  rhs: Float64Array;
  /** Solution (layout of rhs); allocated when absent. May be rhs itself. */
  out?: Float64Array;
  /** 'js' skips the WebAssembly kernel (tests and benchmarks compare the two); default 'auto'. */
  kernel?: 'auto' | 'js';
}

/** Reusable work arrays of solveTridiagonalBatchCpu (grown on demand), and its WebAssembly instance. */
export interface TridiagonalBatchScratch {
  cp: Float64Array;
  ip: Float64Array;
  wasm?: WasmThomas;
}

/** Lets go of a scratch's kernel memory, and has the workers drop their instances on it. */
export function releaseTridiagonalBatchScratch(s: TridiagonalBatchScratch): void {
  if (s.wasm?.shared) releaseSharedMemories([s.wasm.id]);
  s.wasm = undefined;
}

export function createTridiagonalBatchScratch(): TridiagonalBatchScratch {
  return { cp: new Float64Array(0), ip: new Float64Array(0) };
}

/**
 * Scratches of destroyed plans, for the next plan: a one-shot solve (plan, solve, destroy) spent half of a
 * 64-row solve's 100 µs making a WebAssembly memory and instance. Only small, unshared ones are kept.
 */
const spareScratches: TridiagonalBatchScratch[] = [];
const SPARE_SCRATCHES = 2;
const SPARE_MAX_BYTES = 4 * 2 ** 20;

/** A scratch for a new plan: a spare one where there is one, else a new one. */
export function takeTridiagonalBatchScratch(): TridiagonalBatchScratch {
  return spareScratches.pop() ?? createTridiagonalBatchScratch();
}

/** Gives a destroyed plan's scratch (no longer in use) back for a later plan, or lets go of it. */
export function giveBackTridiagonalBatchScratch(s: TridiagonalBatchScratch): void {
  const bytes = (s.wasm?.memory.buffer.byteLength ?? 0) + s.cp.byteLength + s.ip.byteLength;
  if (!s.wasm?.shared && bytes <= SPARE_MAX_BYTES && spareScratches.length < SPARE_SCRATCHES) spareScratches.push(s);
  else releaseTridiagonalBatchScratch(s);
}

function ensure(s: TridiagonalBatchScratch, len: number): void {
  if (s.cp.length < len) {
    s.cp = new Float64Array(len);
    s.ip = new Float64Array(len);
  }
}

/**
 * Solves a batch of real float64 tridiagonal systems by Thomas (no pivoting). Returns the solution and
 * one status word per matrix: ZERO_PIVOT (a pivot zero, sub-normal or not finite, or a coefficient the
 * solve reads not finite), NON_FINITE, NOT_DIAGONALLY_DOMINANT; and, into `eta` when given (length ≥
 * batch), every matrix's backward error (as tridiagonalBackwardErrors; the caller compares it with its
 * tolerance). Layouts and conventions of createTridiagonalPlan.
 */
export function solveTridiagonalBatchCpu(
  p: TridiagonalBatchCpuProblem,
  scratch: TridiagonalBatchScratch = createTridiagonalBatchScratch(),
  eta?: Float64Array,
): { x: Float64Array; status: Uint32Array } {
  const { n, batch } = p;
  const nrhs = p.nrhs ?? 1;
  // The WebAssembly paths write every element of x; the JavaScript sweeps below get it zeroed as before.
  const x = p.out ?? filledResult(Float64Array, n * batch * nrhs);
  const status = new Uint32Array(batch);
  const { lower: a, diag: b, upper: c, rhs: d } = p;
  eta?.fill(0, 0, batch);
  if (nrhs === 1 && n >= 2 && p.kernel !== 'js') {
    // The kernels run the fused residual check only where the caller wants the backward errors.
    const r = residentOf(p, x, eta !== undefined);
    if (r) {
      solveResident(r, status, eta);
      return { x, status };
    }
    if (solveWasm(p, x, status, eta, scratch)) return { x, status };
  }
  // The JavaScript sweeps compute the backward errors whether or not the caller wants them.
  const e = eta ?? new Float64Array(batch);
  if (!p.out) x.fill(0);
  // The sweeps test only the pivots; the pass after each block (matrix checks, non-finite x, backward
  // error) reads the block's rows again while they are in cache: cheaper than checks inside the sweeps.
  if ((p.layout ?? 'strided') === 'interleaved') {
    // Column blocks of at least 512 systems (4 KiB a row fragment): narrower blocks, which would keep a
    // block in L2, touch a page a row and array and thrash the TLB (n = 1024, batch 1024: 8 systems a
    // block ran 3-9x slower, 64 2x slower); wider ones measured no faster.
    const bc = Math.min(batch, 512);
    ensure(scratch, Math.max(n, 4) * bc);
    for (let j0 = 0; j0 < batch; j0 += bc) {
      const j1 = Math.min(batch, j0 + bc);
      thomasInterleaved(a, b, c, d, x, n, batch, nrhs, j0, j1, scratch.cp, scratch.ip, status);
      postInterleaved(a, b, c, d, x, n, batch, nrhs, j0, j1, scratch.cp, e, status);
    }
  } else {
    ensure(scratch, 2 * n);
    let j = 0;
    const post = (jj: number) => {
      let worst = 0;
      for (let r = 0; r < nrhs; r++) {
        const v = postStrided(a, b, c, d, x, jj * n, (r * batch + jj) * n, n, r === 0);
        if (v > worst || v !== v) worst = v;
        status[jj] |= postBits;
      }
      e[jj] = worst;
    };
    for (; j + 1 < batch; j += 2) {
      thomasStridedPair(a, b, c, d, x, n, batch, nrhs, j, scratch.cp, scratch.ip, status);
      post(j);
      post(j + 1);
    }
    if (j < batch) {
      thomasStridedOne(a, b, c, d, x, n, batch, nrhs, j, scratch.cp, scratch.ip, status);
      post(j);
    }
  }
  return { x, status };
}

/**
 * How threaded solves run a call's parts (worker-pool.ts): `run` the first on the calling thread and the others on
 * workers (engine buffers), `post` all on workers (the pipelined copying path).
 */
export interface ThomasPartRunners {
  run: RunThomasParts;
  post: PostThomasParts;
}

/**
 * solveTridiagonalBatchCpu with the WebAssembly kernel's blocks shared by `threads` threads, where it applies: one
 * right-hand side, n ≥ 2; engine buffers only when made shared. The same x, status and backward errors; the copies
 * in and out stay on the calling thread.
 */
export async function solveTridiagonalBatchCpuThreaded(
  p: TridiagonalBatchCpuProblem,
  scratch: TridiagonalBatchScratch,
  eta: Float64Array | undefined,
  threads: number,
  parts: ThomasPartRunners,
): Promise<{ x: Float64Array; status: Uint32Array }> {
  const { n, batch } = p;
  if (threads > 1 && (p.nrhs ?? 1) === 1 && n >= 2 && p.kernel !== 'js') {
    const x = p.out ?? filledResult(Float64Array, n * batch);
    const status = new Uint32Array(batch);
    eta?.fill(0, 0, batch);
    const r = residentOf(p, x, eta !== undefined);
    if (r?.w.shared) {
      await solveResidentThreaded(r, status, eta, threads, parts.run);
      return { x, status };
    }
    if (!r && (await solveWasmThreaded(p, x, status, eta, scratch, threads, parts))) return { x, status };
  }
  return solveTridiagonalBatchCpu(p, scratch, eta);
}

/** solveTridiagonalBatchCpu32 with the kernel's blocks shared by `threads` threads (as the float64 one). */
export async function solveTridiagonalBatchCpu32Threaded(
  p: Parameters<typeof solveTridiagonalBatchCpu32>[0],
  scratch: TridiagonalBatchScratch,
  eta: Float64Array | undefined,
  threads: number,
  parts: ThomasPartRunners,
): Promise<{ x: Float32Array; status: Uint32Array } | null> {
  const { n, batch } = p;
  if (threads <= 1 || (p.nrhs ?? 1) !== 1 || n < 2) return solveTridiagonalBatchCpu32(p, scratch, eta);
  const x = p.out ?? filledResult(Float32Array, n * batch);
  const status = new Uint32Array(batch);
  eta?.fill(0, 0, batch);
  return (await solveWasmThreaded(p, x, status, eta, scratch, threads, parts)) ? { x, status } : null;
}

/**
 * The float32 counterpart of solveTridiagonalBatchCpu's WebAssembly path (real, one right-hand side, n ≥ 2):
 * float32 coefficients widened exactly as they are copied into the kernel, the solve in float64, x rounded
 * once to float32 (at least as accurate as float32 arithmetic), and the fused backward errors and status
 * bits of that rounded x, the array the caller gets. Null where the kernel does not apply or is unavailable.
 */
export function solveTridiagonalBatchCpu32(
  p: Omit<TridiagonalBatchCpuProblem, 'lower' | 'diag' | 'upper' | 'rhs' | 'out' | 'kernel'> & {
    lower: FloatArray;
    diag: FloatArray;
    upper: FloatArray;
    rhs: FloatArray;
    out?: Float32Array;
  },
  scratch: TridiagonalBatchScratch = createTridiagonalBatchScratch(),
  eta?: Float64Array,
): { x: Float32Array; status: Uint32Array } | null {
  const { n, batch } = p;
  if ((p.nrhs ?? 1) !== 1 || n < 2) return null;
  const x = p.out ?? filledResult(Float32Array, n * batch);
  const status = new Uint32Array(batch);
  eta?.fill(0, 0, batch);
  return solveWasm(p, x, status, eta, scratch) ? { x, status } : null;
}

/** float64 elements a region of the WebAssembly kernel holds at most (8 MiB; seven regions). */
const WASM_CAP = 1 << 20;
/**
 * Bytes of a block's rows (seven arrays): strided blocks stay in L2 (their copies are contiguous either
 * way); interleaved blocks are wider, as each of their row copies is a call of its own (see solveWasm). Pipelined
 * blocks (solveWasmThreaded) are as wide as interleaved ones in both layouts: each costs a worker's round trip.
 */
const WASM_BLOCK_BYTES = { strided: 1 << 19, interleaved: 1 << 22 };

interface WasmThomas {
  layout: TridiagonalLayout;
  round32: boolean;
  /** Shared with worker threads (solveWasmThreaded), under this id. */
  shared: boolean;
  /** The module runs the fused residual check (backward errors wanted). */
  check: boolean;
  id: number;
  L: ThomasKernelLayout;
  memory: WebAssembly.Memory;
  solve: ThomasSolve;
}

function wasmInstance(
  s: TridiagonalBatchScratch,
  layout: TridiagonalLayout,
  cap: number,
  bytes: number,
  round32: boolean,
  shared: boolean,
  check: boolean,
): WasmThomas | null {
  let w = s.wasm;
  const same =
    w && w.layout === layout && w.L.cap === cap && w.round32 === round32 && w.shared === shared && w.check === check;
  if (!w || !same) {
    const mod = thomasModule(layout, cap, round32, shared, check);
    if (!mod) return null;
    const pages = Math.ceil(bytes / 65536);
    const memory = shared
      ? new WebAssembly.Memory({ initial: pages, maximum: 65536, shared: true })
      : new WebAssembly.Memory({ initial: pages });
    const inst = new WebAssembly.Instance(mod, { env: { memory } });
    const solve = inst.exports.solve as ThomasSolve;
    w = { layout, round32, shared, check, id: adoptMemory(memory), L: thomasKernelLayout(cap), memory, solve };
    if (shared) rememberThomasInstance(w.id, memory, solve);
    s.wasm = w;
  }
  if (w.memory.buffer.byteLength < bytes) w.memory.grow(Math.ceil((bytes - w.memory.buffer.byteLength) / 65536));
  return w;
}

type WasmProblem = Pick<TridiagonalBatchCpuProblem, 'n' | 'batch' | 'layout'> & {
  lower: FloatArray;
  diag: FloatArray;
  upper: FloatArray;
  rhs: FloatArray;
};

/**
 * One right-hand side, n ≥ 2: the WebAssembly kernel, block by block of systems copied into its memory
 * (interleaved: whole arrays when the batch is even and fits one block, else row by row into an even
 * width; strided: consecutive systems). An odd last vector gets an identity system in its
 * empty lane. Returns false where the kernel is unavailable (the caller runs the JavaScript kernel).
 */
function solveWasm(
  p: WasmProblem,
  x: FloatArray,
  status: Uint32Array,
  eta: Float64Array | undefined,
  scratch: TridiagonalBatchScratch,
): boolean {
  const c = wasmCopier(p, x, status, eta, scratch, false);
  if (!c) return false;
  for (const b of c.blocks) {
    c.copyIn(b, 0);
    c.w.solve(...c.call(b, 0));
    c.finish(b, 0);
  }
  return true;
}

/**
 * solveWasm with worker threads, pipelined: the kernel's memory is shared and holds two blocks; while `threads` − 1
 * workers solve one block, the calling thread copies the next one in and the previous one out (the copies, which
 * only it can make from ordinary arrays, are about as long as the kernel). The same x, status and backward errors.
 * False where the kernel is unavailable.
 */
export async function solveWasmThreaded(
  p: WasmProblem,
  x: FloatArray,
  status: Uint32Array,
  eta: Float64Array | undefined,
  scratch: TridiagonalBatchScratch,
  threads: number,
  parts: ThomasPartRunners,
): Promise<boolean> {
  // Interleaved blocks keep at least 256 systems a row copy: with long systems two of them pass the cache (1024 ×
  // 1024: 14 MiB a block), and the pipelined solve measured no faster than one thread.
  const inter = (p.layout ?? 'strided') === 'interleaved';
  if (inter && 56 * p.n * blockSystems(p.n, p.batch, true) > PIPELINE_MAX_BLOCK_BYTES)
    return solveWasm(p, x, status, eta, scratch);
  const c = wasmCopier(p, x, status, eta, scratch, true);
  if (!c) return false;
  if (c.blocks.length < PIPELINE_FROM_BLOCKS) {
    // Too few blocks to overlap: every thread solves a part of each block, the calling thread included.
    for (const b of c.blocks) {
      c.copyIn(b, 0);
      await parts.run(thomasParts(c.w, c.call(b, 0), threads, c.slotBytes));
      c.finish(b, 0);
    }
    return true;
  }
  let prev: { b: Block; slot: number; wait: () => Promise<void> } | null = null;
  // The calling thread's share of each block's vectors: it copies the next block in and the last one out while the
  // workers solve theirs, then solves its own share, sized from the last block's times so that it ends with them.
  let share = INITIAL_OWN_SHARE;
  try {
    for (let k = 0; k < c.blocks.length; k++) {
      const b = c.blocks[k]!,
        slot = k & 1;
      const t0 = performance.now();
      c.copyIn(b, slot);
      const tIn = performance.now();
      if (prev) await prev.wait();
      const { workers, own } = thomasPartsWithOwn(c.w, c.call(b, slot), threads, c.slotBytes, share);
      const wait = await parts.post(workers);
      const t1 = performance.now();
      if (own) runThomasPart(own);
      const t2 = performance.now();
      if (prev) c.finish(prev.b, prev.slot);
      const t3 = performance.now();
      share = ownShare(b.W / 2, own ? own.args[0] : 0, tIn - t0 + (t3 - t2), t2 - t1, threads, share);
      prev = { b, slot, wait };
    }
    const last = prev;
    prev = null;
    if (last) {
      await last.wait();
      c.finish(last.b, last.slot);
    }
  } finally {
    // After a failure, never leave a part running on memory the next call reuses.
    if (prev) await prev.wait().catch(() => undefined);
  }
  return true;
}

/** The calling thread's share of the first pipelined block (later ones: ownShare). */
const INITIAL_OWN_SHARE = 0.15;

/**
 * The calling thread's share of the next block's P vectors, from the last block: `copy` ms of copies, `solve` ms for
 * its own `own` vectors. Every thread solves at its rate r: the calling thread's copy + own / r ends with the
 * workers' (P − own) / ((T − 1) r) when own = (P − (T − 1)·copy·r) / T. Without a rate yet (no own part), the share
 * stays. Halfway to the new value each block, as block times vary with the cache.
 */
function ownShare(P: number, own: number, copy: number, solve: number, threads: number, share: number): number {
  if (own === 0 || !(solve > 0)) return share;
  const r = own / solve;
  const next = Math.max(0, Math.min(1 / threads, (P - (threads - 1) * copy * r) / (threads * P)));
  return (share + next) / 2;
}

/** Largest block (its seven regions) of a pipelined interleaved solve: two of them stay in a large L3. */
const PIPELINE_MAX_BLOCK_BYTES = 8 << 20;

/** Blocks from which a threaded copying solve is pipelined (with fewer, the copies of one block cannot overlap). */
const PIPELINE_FROM_BLOCKS = 3;

/** A block of systems: j0 … j0 + cw − 1, W = cw rounded up to even (an identity system in the empty lane). */
interface Block {
  j0: number;
  cw: number;
  W: number;
}

/** How a problem moves through the kernel's memory, block by block, into one of `slots` halves of every region. */
interface Copier {
  w: WasmThomas;
  blocks: Block[];
  /** Bytes of each region a slot holds (the scratch a call may use from its sbase). */
  slotBytes: number;
  copyIn(b: Block, slot: number): void;
  call(b: Block, slot: number): ThomasArgs;
  /** The block's status bits and backward errors, and x out. */
  finish(b: Block, slot: number): void;
}

/** solveWasm's copier: one slot, or two on a shared memory (`pipelined`); null where the kernel is unavailable. */
function wasmCopier(
  p: WasmProblem,
  x: FloatArray,
  status: Uint32Array,
  eta: Float64Array | undefined,
  scratch: TridiagonalBatchScratch,
  pipelined: boolean,
): Copier | null {
  const { n, batch: B } = p;
  const inter = (p.layout ?? 'strided') === 'interleaved';
  if (2 * n > WASM_CAP) return null;
  // Systems a block (even): its seven arrays about WASM_BLOCK_BYTES, copied in, solved and copied out while
  // in cache; at least 4 vectors, whose recurrences overlap, and, interleaved, 256 systems a row copy
  // (narrower copies cost a call per few elements and touch a page of the caller's arrays each). Pipelined
  // blocks are as large as interleaved ones in both layouts: each costs a worker's round trip.
  const blk = Math.min(blockSystems(n, B, inter, pipelined), Math.floor(WASM_CAP / n) & ~1);
  if (blk < 2) return null;
  // Strided: systems of n ≥ 256 rows are placed np apart, off multiples of 4 KiB, else the lanes of a
  // block's vectors share L1 sets (n = 1024 and 16384 ran 2-4x slower).
  const np = inter || n < 256 ? n : n + 8;
  let cap = 1024;
  while (cap < np * blk) cap *= 2;
  const slots = pipelined ? 2 : 1;
  const L0 = thomasKernelLayout(slots * cap);
  const w = wasmInstance(
    scratch,
    p.layout ?? 'strided',
    slots * cap,
    L0.bytes(slots * (blk / 2)),
    x instanceof Float32Array,
    pipelined,
    eta !== undefined,
  );
  if (!w) return null;
  const L = w.L;
  const mem = new Float64Array(w.memory.buffer);
  const src = [p.lower, p.diag, p.upper, p.rhs],
    reg = [L.a / 8, L.b / 8, L.c / 8, L.d / 8];
  const accSlot = (blk / 2) * ACC_VECTORS * 16;
  const blocks: Block[] = [];
  for (let j0 = 0; j0 < B; j0 += blk) {
    const cw = Math.min(blk, B - j0);
    blocks.push({ j0, cw, W: cw + (cw & 1) });
  }
  return {
    w,
    blocks,
    slotBytes: cap * 8,
    copyIn({ j0, cw, W }, slot) {
      const at = slot * cap;
      if (inter) {
        if (cw === B && W === B) for (let k = 0; k < 4; k++) mem.set(src[k].subarray(0, n * B), reg[k] + at);
        else {
          for (let k = 0; k < 4; k++) {
            const a = src[k],
              o = reg[k] + at;
            for (let i = 0; i < n; i++) {
              if (cw >= 128) mem.set(a.subarray(i * B + j0, i * B + j0 + cw), o + i * W);
              else for (let t = 0; t < cw; t++) mem[o + i * W + t] = a[i * B + j0 + t];
              if (W > cw) mem[o + i * W + cw] = k === 1 ? 1 : 0;
            }
          }
        }
      } else {
        for (let k = 0; k < 4; k++) {
          const o = reg[k] + at;
          if (np === n) mem.set(src[k].subarray(j0 * n, (j0 + cw) * n), o);
          else for (let t = 0; t < cw; t++) mem.set(src[k].subarray((j0 + t) * n, (j0 + t + 1) * n), o + t * np);
          if (W > cw) mem.fill(k === 1 ? 1 : 0, o + cw * np, o + cw * np + n);
        }
      }
    },
    call({ W }, slot) {
      const at = slot * cap * 8;
      return inter
        ? [W / 2, n, W * 8, 16, 0, at, at, slot * accSlot]
        : [W / 2, n, 8, 2 * np * 8, np * 8, at, at, slot * accSlot];
    },
    finish({ j0, cw, W }, slot) {
      readAccumulators(mem, (L.acc + slot * accSlot) / 8, j0, cw, status, eta);
      const X = L.x / 8 + slot * cap;
      if (inter) {
        if (cw === B && W === B) x.set(mem.subarray(X, X + n * B));
        else {
          for (let i = 0; i < n; i++) {
            if (cw >= 128) x.set(mem.subarray(X + i * W, X + i * W + cw), i * B + j0);
            else for (let t = 0; t < cw; t++) x[i * B + j0 + t] = mem[X + i * W + t];
          }
        }
      } else if (np === n) x.set(mem.subarray(X, X + cw * n), j0 * n);
      else for (let t = 0; t < cw; t++) x.set(mem.subarray(X + t * np, X + t * np + n), (j0 + t) * n);
    },
  };
}

/**
 * Systems a block of the WebAssembly kernel (even): its seven arrays about WASM_BLOCK_BYTES, solved while in
 * cache; at least 4 vectors, whose recurrences overlap, and, interleaved, 256 systems a row fragment
 * (narrower ones cost a copy call per few elements and touch a page of the arrays a row each).
 */
function blockSystems(n: number, B: number, inter: boolean, pipelined = false): number {
  const minBlk = inter ? 256 : 8;
  const bytes = WASM_BLOCK_BYTES[inter || pipelined ? 'interleaved' : 'strided'];
  return Math.min(B + (B & 1), Math.max(minBlk, Math.floor(bytes / (56 * n)) & ~1));
}

/**
 * The status bits and (with `eta`, from a module with the check) backward errors of systems j0 … j0 + count − 1, which
 * the kernel leaves in each vector's ACC_STATUS and ACC_ETA slots, from a block's accumulators at float64 index A.
 */
function readAccumulators(
  mem: Float64Array,
  A: number,
  j0: number,
  count: number,
  status: Uint32Array,
  eta: Float64Array | undefined,
): void {
  // The status bits are the low 32 bits of each 64-bit lane.
  const bits = new Uint32Array(mem.buffer, mem.byteOffset, 2 * mem.length);
  const S0 = 2 * (A + 2 * ACC_STATUS),
    E0 = A + 2 * ACC_ETA;
  for (let t = 0; t < count; t++) {
    const st = bits[S0 + 2 * ((t >> 1) * ACC_VECTORS * 2 + (t & 1))]!;
    if (st !== 0) status[j0 + t] |= st;
  }
  if (eta) for (let t = 0; t < count; t++) eta[j0 + t] = mem[E0 + (t >> 1) * ACC_VECTORS * 2 + (t & 1)]!;
}

/**
 * Engine buffers of a batched real float64 Thomas solve: the coefficients, right-hand side and solution as
 * views into the regions of a kernel instance's own memory, which solve() then solves where they lie, with no
 * copy in or out. The memory never grows (the views stay valid); the registry is keyed by its buffer.
 */
interface ResidentThomas {
  n: number;
  batch: number;
  w: WasmThomas;
  mem: Float64Array;
}
const residentThomas = new WeakMap<ArrayBufferLike, ResidentThomas>();

/** The memory id of the engine buffers `a` lies in (see shared-memories.ts), or undefined. */
export function tridiagonalBuffersId(a: FloatArray): number | undefined {
  return residentThomas.get(a.buffer)?.w.id;
}

/**
 * Engine buffers for real float64 interleaved systems with one right-hand side (n ≥ 2, batch ≥ 2), or null where the
 * kernel is unavailable, the regions would pass WebAssembly's 4 GiB, or the layout is strided (the caller
 * then hands out ordinary arrays). Strided systems solved in place ran 0.4-0.8x the copying path, except
 * for the shortest: each lane of a group streams a system of its own, and those streams are too short or
 * too many for the prefetcher, where the copied block sits in L2.
 */
export function createTridiagonalBuffers(
  n: number,
  batch: number,
  layout: TridiagonalLayout,
  shared = false,
  check = true,
): { lower: Float64Array; diag: Float64Array; upper: Float64Array; rhs: Float64Array; out: Float64Array } | null {
  if (n < 2 || batch < 2 || layout !== 'interleaved') return null;
  const cap = Math.ceil((n * batch) / 512) * 512;
  const L = thomasKernelLayout(cap);
  const bytes = L.bytes(Math.ceil(blockSystems(n, batch, true) / 2));
  if (bytes > 2 ** 32 - 65536) return null;
  const mod = thomasModule(layout, cap, false, shared, check);
  if (!mod) return null;
  const pages = Math.ceil(bytes / 65536);
  const memory = new WebAssembly.Memory(shared ? { initial: pages, maximum: pages, shared } : { initial: pages });
  const inst = new WebAssembly.Instance(mod, { env: { memory } });
  const mem = new Float64Array(memory.buffer);
  const view = (off: number) => mem.subarray(off / 8, off / 8 + n * batch);
  const solve = inst.exports.solve as ThomasSolve;
  const w: WasmThomas = { layout, round32: false, shared, check, id: adoptMemory(memory), L, memory, solve };
  if (shared) rememberThomasInstance(w.id, memory, solve);
  residentThomas.set(memory.buffer, { n, batch, w, mem });
  return { lower: view(L.a), diag: view(L.b), upper: view(L.c), rhs: view(L.d), out: view(L.x) };
}

/**
 * The engine buffers these five arrays are, exactly as handed out and for this shape, or undefined; also where the
 * backward errors are wanted (`check`) and their module has no check (a plan made with checkResidual: false).
 */
function residentOf(
  p: Pick<TridiagonalBatchCpuProblem, 'n' | 'batch' | 'layout' | 'lower' | 'diag' | 'upper' | 'rhs'>,
  x: FloatArray,
  check: boolean,
): ResidentThomas | undefined {
  const r = residentThomas.get(x.buffer);
  if (!r || r.n !== p.n || r.batch !== p.batch || r.w.layout !== (p.layout ?? 'strided')) return undefined;
  if (check && !r.w.check) return undefined;
  const at = (a: FloatArray, off: number) =>
    a.buffer === x.buffer && a.byteOffset === off && a.length === p.n * p.batch;
  const { L } = r.w;
  return at(p.lower, L.a) && at(p.diag, L.b) && at(p.upper, L.c) && at(p.rhs, L.d) && at(x, L.x) ? r : undefined;
}

/**
 * The kernel over engine buffers, block by block where they lie. Every block is an even number of systems
 * (an empty lane would read and write the next row's first column): an odd last block starts one system
 * early and solves that system again, with the same operations, so the same x, status and backward error.
 */
function solveResident(r: ResidentThomas, status: Uint32Array, eta: Float64Array | undefined): void {
  for (const { w, call } of residentBlocks(r, status, eta)) w.solve(...call);
}

/** solveResident with each block's vectors shared by `threads` threads (buffers on a shared memory). */
async function solveResidentThreaded(
  r: ResidentThomas,
  status: Uint32Array,
  eta: Float64Array | undefined,
  threads: number,
  runParts: RunThomasParts,
): Promise<void> {
  for (const { w, call } of residentBlocks(r, status, eta)) await runParts(thomasParts(w, call, threads));
}

/** One kernel call: the instance and solve's arguments. */
interface BlockCall {
  w: WasmThomas;
  call: ThomasArgs;
}

/** solveResident's kernel calls; each block's results are read when the caller resumes it. */
function* residentBlocks(r: ResidentThomas, status: Uint32Array, eta: Float64Array | undefined): Generator<BlockCall> {
  const { n, batch: B, w, mem } = r;
  const blk = blockSystems(n, B, true);
  function* run(j0: number, cw: number): Generator<BlockCall> {
    yield { w, call: [cw / 2, n, B * 8, 16, 0, j0 * 8, 0, 0] };
    readAccumulators(mem, w.L.acc / 8, j0, cw, status, eta);
  }
  for (let j0 = 0; j0 < B; j0 += blk) {
    const cw = Math.min(blk, B - j0);
    if (!(cw & 1)) yield* run(j0, cw);
    else if (j0 > 0) yield* run(j0 - 1, cw + 1);
    else {
      yield* run(0, cw - 1);
      yield* run(cw - 2, 2);
    }
  }
}

/** Status bits of the last postStrided call (module scope: no allocation a system). */
let postBits = 0;

/**
 * After the solve of one real contiguous system (rows at m, right-hand side and x at o): its backward
 * error, and in postBits NON_FINITE (some x not finite) and, with `matrix`, NOT_DIAGONALLY_DOMINANT and
 * ZERO_PIVOT for a coefficient the solve reads that is not finite (Thomas can return finite numbers for
 * it: an infinite b_i gives x_i = 0).
 */
function postStrided(
  a: FloatArray,
  b: FloatArray,
  c: FloatArray,
  d: FloatArray,
  x: FloatArray,
  m: number,
  o: number,
  n: number,
  matrix: boolean,
): number {
  let maxR = 0,
    normA = 0,
    maxX = 0,
    maxD = 0,
    nd = 0;
  let xm = 0,
    xi = x[o];
  for (let i = 0; i < n; i++) {
    const xp = i < n - 1 ? x[o + i + 1] : 0;
    const aa = i > 0 ? a[m + i] : 0,
      cc = i < n - 1 ? c[m + i] : 0,
      bb = b[m + i];
    const ar = Math.abs(aa * xm + bb * xi + cc * xp - d[o + i]);
    const off = Math.abs(aa) + Math.abs(cc),
      ab = Math.abs(bb);
    const rs = off + ab,
      ax = Math.abs(xi),
      ad = Math.abs(d[o + i]);
    if (ab < off) nd = 1;
    // `v !== v`: a NaN anywhere makes the maximum NaN, and it stays NaN.
    if (ar > maxR || ar !== ar) maxR = ar;
    if (rs > normA || rs !== rs) normA = rs;
    if (ax > maxX || ax !== ax) maxX = ax;
    if (ad > maxD || ad !== ad) maxD = ad;
    xm = xi;
    xi = xp;
  }
  postBits =
    (maxX < Infinity ? 0 : S.NON_FINITE) |
    (matrix ? (nd ? S.NOT_DIAGONALLY_DOMINANT : 0) | (normA < Infinity ? 0 : S.ZERO_PIVOT) : 0);
  return eta1(maxR, normA, maxX, maxD);
}

/**
 * After the solve of the real interleaved systems j0 … j1−1: their backward errors into eta (max over
 * right-hand sides) and the status bits of postStrided. `acc` (length ≥ 4·(j1 − j0)) holds the running
 * maxima.
 */
function postInterleaved(
  a: FloatArray,
  b: FloatArray,
  c: FloatArray,
  d: FloatArray,
  x: FloatArray,
  n: number,
  B: number,
  nrhs: number,
  j0: number,
  j1: number,
  acc: Float64Array,
  eta: Float64Array,
  status: Uint32Array,
): void {
  const w = j1 - j0;
  const kA = 0,
    kR = w,
    kX = 2 * w,
    kD = 3 * w;
  acc.fill(0, 0, 4 * w);
  for (let r = 0; r < nrhs; r++) {
    if (r > 0) acc.fill(0, w, 4 * w);
    const o = r * n * B;
    // One sweep: row norms and dominance (first right-hand side only) with the residuals.
    for (let i = 0; i < n; i++) {
      const e = i * B,
        oe = o + e;
      const up = i > 0 ? 1 : 0,
        dn = i < n - 1 ? 1 : 0;
      if (up && dn && r === 0) {
        // Interior rows, first right-hand side: the same without conditionals.
        for (let j = j0, k = 0; j < j1; j++, k++) {
          const aa = a[e + j],
            cc = c[e + j],
            bb = b[e + j],
            xi = x[oe + j],
            dd = d[oe + j];
          const ar = Math.abs(aa * x[oe - B + j] + bb * xi + cc * x[oe + B + j] - dd),
            ax = Math.abs(xi),
            ad = Math.abs(dd);
          const off = Math.abs(aa) + Math.abs(cc),
            ab = Math.abs(bb),
            rs = off + ab;
          if (ab < off) status[j] |= S.NOT_DIAGONALLY_DOMINANT;
          if (rs > acc[kA + k] || rs !== rs) acc[kA + k] = rs;
          if (ar > acc[kR + k] || ar !== ar) acc[kR + k] = ar;
          if (ax > acc[kX + k] || ax !== ax) acc[kX + k] = ax;
          if (ad > acc[kD + k] || ad !== ad) acc[kD + k] = ad;
        }
        continue;
      }
      for (let j = j0, k = 0; j < j1; j++, k++) {
        const aa = up ? a[e + j] : 0,
          cc = dn ? c[e + j] : 0,
          bb = b[e + j];
        const xi = x[oe + j],
          xm = up ? x[oe - B + j] : 0,
          xp = dn ? x[oe + B + j] : 0;
        const dd = d[oe + j];
        const ar = Math.abs(aa * xm + bb * xi + cc * xp - dd),
          ax = Math.abs(xi),
          ad = Math.abs(dd);
        if (r === 0) {
          const off = Math.abs(aa) + Math.abs(cc),
            ab = Math.abs(bb),
            rs = off + ab;
          if (ab < off) status[j] |= S.NOT_DIAGONALLY_DOMINANT;
          if (rs > acc[kA + k] || rs !== rs) acc[kA + k] = rs;
        }
        // `v !== v`: a NaN anywhere makes the maximum NaN, and it stays NaN.
        if (ar > acc[kR + k] || ar !== ar) acc[kR + k] = ar;
        if (ax > acc[kX + k] || ax !== ax) acc[kX + k] = ax;
        if (ad > acc[kD + k] || ad !== ad) acc[kD + k] = ad;
      }
    }
    for (let j = j0, k = 0; j < j1; j++, k++) {
      const e = eta1(acc[kR + k], acc[kA + k], acc[kX + k], acc[kD + k]);
      if (e > eta[j] || e !== e) eta[j] = e;
      if (!(acc[kX + k] < Infinity)) status[j] |= S.NON_FINITE;
      if (r === 0 && !(acc[kA + k] < Infinity)) status[j] |= S.ZERO_PIVOT;
    }
  }
}

function thomasStridedOne(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  x: Float64Array,
  n: number,
  batch: number,
  nrhs: number,
  j: number,
  cp: Float64Array,
  ip: Float64Array,
  status: Uint32Array,
): void {
  const m = j * n;
  let st = 0;
  let bad = 0;
  // Forward sweep: cp = modified upper diagonal, ip = inverse pivots; the first right-hand side with it.
  let o = j * n;
  let piv = b[m];
  bad |= +!(Math.abs(piv) >= TINY && Math.abs(piv) < Infinity);
  let inv = 1 / piv;
  let cprev = n > 1 ? c[m] * inv : 0;
  const keep = nrhs > 1;
  cp[0] = cprev;
  if (keep) ip[0] = inv;
  let dprev = d[o] * inv;
  x[o] = dprev;
  for (let i = 1; i < n; i++) {
    const ai = a[m + i];
    piv = b[m + i] - ai * cprev;
    bad |= +!(Math.abs(piv) >= TINY && Math.abs(piv) < Infinity);
    inv = 1 / piv;
    cprev = i < n - 1 ? c[m + i] * inv : 0;
    cp[i] = cprev;
    if (keep) ip[i] = inv;
    dprev = (d[o + i] - ai * dprev) * inv;
    x[o + i] = dprev;
  }
  for (let r = 0; r < nrhs; r++) {
    o = (r * batch + j) * n;
    if (r > 0) {
      let dv = d[o] * ip[0];
      x[o] = dv;
      for (let i = 1; i < n; i++) {
        dv = (d[o + i] - a[m + i] * dv) * ip[i];
        x[o + i] = dv;
      }
    }
    let xv = x[o + n - 1];
    for (let i = n - 2; i >= 0; i--) {
      xv = x[o + i] - cp[i] * xv;
      x[o + i] = xv;
    }
  }
  if (bad) st |= S.ZERO_PIVOT;
  status[j] |= st;
}

/** Systems j and j+1 together: two independent dependency chains in one loop. */
function thomasStridedPair(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  x: Float64Array,
  n: number,
  batch: number,
  nrhs: number,
  j: number,
  cp: Float64Array,
  ip: Float64Array,
  status: Uint32Array,
): void {
  const m0 = j * n,
    m1 = m0 + n;
  let st0 = 0,
    st1 = 0;
  let bad0 = 0,
    bad1 = 0;
  let o0 = j * n,
    o1 = o0 + n;
  let p0 = b[m0],
    p1 = b[m1];
  bad0 |= +!(Math.abs(p0) >= TINY && Math.abs(p0) < Infinity);
  bad1 |= +!(Math.abs(p1) >= TINY && Math.abs(p1) < Infinity);
  let i0 = 1 / p0,
    i1 = 1 / p1;
  let c0 = n > 1 ? c[m0] * i0 : 0,
    c1 = n > 1 ? c[m1] * i1 : 0;
  // cp and ip of the two systems interleaved: [2i] system j, [2i + 1] system j + 1.
  const keep = nrhs > 1;
  cp[0] = c0;
  cp[1] = c1;
  if (keep) {
    ip[0] = i0;
    ip[1] = i1;
  }
  let d0 = d[o0] * i0,
    d1 = d[o1] * i1;
  x[o0] = d0;
  x[o1] = d1;
  for (let i = 1; i < n; i++) {
    const a0 = a[m0 + i],
      a1 = a[m1 + i];
    p0 = b[m0 + i] - a0 * c0;
    p1 = b[m1 + i] - a1 * c1;
    bad0 |= +!(Math.abs(p0) >= TINY && Math.abs(p0) < Infinity);
    bad1 |= +!(Math.abs(p1) >= TINY && Math.abs(p1) < Infinity);
    i0 = 1 / p0;
    i1 = 1 / p1;
    if (i < n - 1) {
      c0 = c[m0 + i] * i0;
      c1 = c[m1 + i] * i1;
    } else {
      c0 = 0;
      c1 = 0;
    }
    cp[2 * i] = c0;
    cp[2 * i + 1] = c1;
    if (keep) {
      ip[2 * i] = i0;
      ip[2 * i + 1] = i1;
    }
    d0 = (d[o0 + i] - a0 * d0) * i0;
    d1 = (d[o1 + i] - a1 * d1) * i1;
    x[o0 + i] = d0;
    x[o1 + i] = d1;
  }
  for (let r = 0; r < nrhs; r++) {
    o0 = (r * batch + j) * n;
    o1 = o0 + n;
    if (r > 0) {
      let e0 = d[o0] * ip[0],
        e1 = d[o1] * ip[1];
      x[o0] = e0;
      x[o1] = e1;
      for (let i = 1; i < n; i++) {
        e0 = (d[o0 + i] - a[m0 + i] * e0) * ip[2 * i];
        e1 = (d[o1 + i] - a[m1 + i] * e1) * ip[2 * i + 1];
        x[o0 + i] = e0;
        x[o1 + i] = e1;
      }
    }
    let x0 = x[o0 + n - 1],
      x1 = x[o1 + n - 1];
    for (let i = n - 2; i >= 0; i--) {
      x0 = x[o0 + i] - cp[2 * i] * x0;
      x1 = x[o1 + i] - cp[2 * i + 1] * x1;
      x[o0 + i] = x0;
      x[o1 + i] = x1;
    }
  }
  if (bad0) st0 |= S.ZERO_PIVOT;
  if (bad1) st1 |= S.ZERO_PIVOT;
  status[j] |= st0;
  status[j + 1] |= st1;
}

/**
 * Interleaved layout (row i of all systems at [i·B, (i+1)·B)), systems j0 … j1−1: loops across systems
 * innermost. cp and ip (length ≥ n·(j1 − j0)) hold the block's modified upper diagonal and inverse
 * pivots; ip is written only when several right-hand sides need it.
 */
function thomasInterleaved(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  x: Float64Array,
  n: number,
  B: number,
  nrhs: number,
  j0: number,
  j1: number,
  cp: Float64Array,
  ip: Float64Array,
  status: Uint32Array,
): void {
  const ZP = S.ZERO_PIVOT;
  const w = j1 - j0;
  const keep = nrhs > 1;
  // Row 0.
  for (let j = j0, k = 0; j < j1; j++, k++) {
    const bj = b[j];
    const cj = n > 1 ? c[j] : 0;
    const st = Math.abs(bj) >= TINY && Math.abs(bj) < Infinity ? 0 : ZP;
    const inv = 1 / bj;
    if (keep) ip[k] = inv;
    cp[k] = cj * inv;
    x[j] = d[j] * inv;
    status[j] |= st;
  }
  // No conditionals inside the inner loops (V8 does not unswitch them): cp of the last row is never
  // read, so c_{n−1} may be anything; ip only when several right-hand sides need it.
  for (let i = 1; i < n; i++) {
    const e = i * B,
      q = i * w;
    if (keep) {
      for (let j = j0, k = q; j < j1; j++, k++) {
        const ai = a[e + j];
        const piv = b[e + j] - ai * cp[k - w];
        const inv = 1 / piv;
        ip[k] = inv;
        cp[k] = c[e + j] * inv;
        x[e + j] = (d[e + j] - ai * x[e - B + j]) * inv;
        const ap = Math.abs(piv);
        if (!(ap >= TINY && ap < Infinity)) status[j] |= ZP;
      }
    } else {
      for (let j = j0, k = q; j < j1; j++, k++) {
        const ai = a[e + j];
        const piv = b[e + j] - ai * cp[k - w];
        const inv = 1 / piv;
        cp[k] = c[e + j] * inv;
        x[e + j] = (d[e + j] - ai * x[e - B + j]) * inv;
        const ap = Math.abs(piv);
        if (!(ap >= TINY && ap < Infinity)) status[j] |= ZP;
      }
    }
  }
  for (let r = 0; r < nrhs; r++) {
    const o = r * n * B;
    if (r > 0) {
      for (let j = j0, k = 0; j < j1; j++, k++) x[o + j] = d[o + j] * ip[k];
      for (let i = 1; i < n; i++) {
        const e = o + i * B;
        for (let j = j0, k = i * w; j < j1; j++, k++) x[e + j] = (d[e + j] - a[e - o + j] * x[e - B + j]) * ip[k];
      }
    }
    for (let i = n - 2; i >= 0; i--) {
      const e = o + i * B;
      for (let j = j0, k = i * w; j < j1; j++, k++) x[e + j] -= cp[k] * x[e + B + j];
    }
  }
}

/**
 * Backward error threshold of a working precision: 2^10 units of roundoff, 1.1e-13 in float64 and
 * 6.1e-5 in float32. Backward-stable solves of tridiagonal systems (LU with partial pivoting; Thomas and
 * Wang & Mou on diagonally dominant or symmetric positive definite matrices) stay below it by far.
 */
export function defaultResidualTolerance(dtype: 'float32' | 'float64'): number {
  return 1024 * (dtype === 'float32' ? 2 ** -24 : 2 ** -53);
}

export interface BackwardErrorShape {
  n: number;
  batch: number;
  nrhs: number;
  layout: TridiagonalLayout;
  complex: boolean;
  /** a_0 and c_{n−1} are the corner entries of a periodic system. */
  cyclic?: boolean;
}

/**
 * Normwise backward error of every matrix's solutions (the largest over its right-hand sides):
 *   η = ‖A x − d‖∞ / (‖A‖∞ ‖x‖∞ + ‖d‖∞),
 * computed in float64 from the given arrays. η is the smallest relative perturbation of A and d of which
 * x is the exact solution (Rigal and Gaches), so the forward error is at most about cond(A)·η. NaN when
 * a value is not finite. O(n) a system; the interleaved layout is scanned row by row across systems.
 */
export function tridiagonalBackwardErrors(
  s: BackwardErrorShape,
  lower: FloatArray,
  diag: FloatArray,
  upper: FloatArray,
  rhs: FloatArray,
  x: FloatArray,
  only?: number[],
): Float64Array {
  const { n, batch, nrhs, layout } = s;
  const eta = new Float64Array(batch);
  if (s.complex || s.cyclic || only !== undefined || layout === 'strided') {
    const js = only ?? Array.from({ length: batch }, (_, j) => j);
    for (const j of js) {
      let worst = 0;
      for (let r = 0; r < nrhs; r++) {
        const e = systemBackwardError(s, lower, diag, upper, rhs, x, j, r);
        worst = e > worst || Number.isNaN(e) ? e : worst;
        if (Number.isNaN(worst)) break;
      }
      eta[j] = worst;
    }
    return eta;
  }
  // Real interleaved: per-system running maxima, one pass across the batch per row.
  const B = batch;
  const normA = new Float64Array(B);
  for (let i = 0; i < n; i++) {
    const e = i * B;
    for (let j = 0; j < B; j++) {
      const rs =
        (i > 0 ? Math.abs(lower[e + j]) : 0) + Math.abs(diag[e + j]) + (i < n - 1 ? Math.abs(upper[e + j]) : 0);
      if (rs > normA[j] || rs !== rs) normA[j] = rs;
    }
  }
  const maxR = new Float64Array(B),
    maxX = new Float64Array(B),
    maxD = new Float64Array(B);
  for (let r = 0; r < nrhs; r++) {
    maxR.fill(0);
    maxX.fill(0);
    maxD.fill(0);
    const o = r * n * B;
    for (let i = 0; i < n; i++) {
      const e = i * B;
      for (let j = 0; j < B; j++) {
        const xi = x[o + e + j];
        let res = diag[e + j] * xi - rhs[o + e + j];
        if (i > 0) res += lower[e + j] * x[o + e - B + j];
        if (i < n - 1) res += upper[e + j] * x[o + e + B + j];
        const ar = Math.abs(res),
          ax = Math.abs(xi),
          ad = Math.abs(rhs[o + e + j]);
        // `v !== v`: a NaN anywhere makes the maximum NaN, and it stays NaN.
        if (ar > maxR[j] || ar !== ar) maxR[j] = ar;
        if (ax > maxX[j] || ax !== ax) maxX[j] = ax;
        if (ad > maxD[j] || ad !== ad) maxD[j] = ad;
      }
    }
    for (let j = 0; j < B; j++) {
      const e = eta1(maxR[j], normA[j], maxX[j], maxD[j]);
      if (e > eta[j] || Number.isNaN(e)) eta[j] = e;
    }
  }
  return eta;
}

function eta1(maxR: number, normA: number, maxX: number, maxD: number): number {
  const den = normA * maxX + maxD;
  if (maxR === 0 && Number.isFinite(den)) return 0;
  const e = maxR / den;
  return Number.isFinite(e) ? e : NaN;
}

/** η of one system (matrix j, right-hand side r), any layout, real or complex, plain or cyclic. */
function systemBackwardError(
  s: BackwardErrorShape,
  lower: FloatArray,
  diag: FloatArray,
  upper: FloatArray,
  rhs: FloatArray,
  x: FloatArray,
  j: number,
  r: number,
): number {
  const { n, batch, layout } = s;
  // Cyclic n = 1: both corners are the one entry, A = [a + b + c] (as the solvers take it).
  const cyc = s.cyclic ?? false;
  // Both layouts address row i at base + i·stride.
  const mb = matIndex(layout, n, batch, j, 0),
    ms = n > 1 ? matIndex(layout, n, batch, j, 1) - mb : 1;
  const rb = rhsIndex(layout, n, batch, r, j, 0),
    rs = n > 1 ? rhsIndex(layout, n, batch, r, j, 1) - rb : 1;
  let maxR = 0,
    normA = 0,
    maxX = 0,
    maxD = 0;
  if (!s.complex) {
    for (let i = 0; i < n; i++) {
      const m = mb + i * ms,
        v = rb + i * rs;
      const hasA = i > 0 || cyc,
        hasC = i < n - 1 || cyc;
      const im = i > 0 ? v - rs : rb + (n - 1) * rs,
        ip = i < n - 1 ? v + rs : rb;
      let res = diag[m] * x[v] - rhs[v];
      let rsum = Math.abs(diag[m]);
      if (hasA) {
        res += lower[m] * x[im];
        rsum += Math.abs(lower[m]);
      }
      if (hasC) {
        res += upper[m] * x[ip];
        rsum += Math.abs(upper[m]);
      }
      const ar = Math.abs(res),
        ax = Math.abs(x[v]),
        ad = Math.abs(rhs[v]);
      if (ar > maxR || ar !== ar) maxR = ar;
      if (rsum > normA || rsum !== rsum) normA = rsum;
      if (ax > maxX || ax !== ax) maxX = ax;
      if (ad > maxD || ad !== ad) maxD = ad;
    }
  } else {
    const mod = (re: number, im: number) => Math.hypot(re, im);
    for (let i = 0; i < n; i++) {
      const m = 2 * (mb + i * ms),
        v = 2 * (rb + i * rs);
      const hasA = i > 0 || cyc,
        hasC = i < n - 1 || cyc;
      const im = i > 0 ? v - 2 * rs : 2 * (rb + (n - 1) * rs),
        ip = i < n - 1 ? v + 2 * rs : 2 * rb;
      let rr = diag[m] * x[v] - diag[m + 1] * x[v + 1] - rhs[v];
      let ri = diag[m] * x[v + 1] + diag[m + 1] * x[v] - rhs[v + 1];
      let rsum = mod(diag[m], diag[m + 1]);
      if (hasA) {
        rr += lower[m] * x[im] - lower[m + 1] * x[im + 1];
        ri += lower[m] * x[im + 1] + lower[m + 1] * x[im];
        rsum += mod(lower[m], lower[m + 1]);
      }
      if (hasC) {
        rr += upper[m] * x[ip] - upper[m + 1] * x[ip + 1];
        ri += upper[m] * x[ip + 1] + upper[m + 1] * x[ip];
        rsum += mod(upper[m], upper[m + 1]);
      }
      const ar = mod(rr, ri),
        ax = mod(x[v], x[v + 1]),
        ad = mod(rhs[v], rhs[v + 1]);
      if (ar > maxR || ar !== ar) maxR = ar;
      if (rsum > normA || rsum !== rsum) normA = rsum;
      if (ax > maxX || ax !== ax) maxX = ax;
      if (ad > maxD || ad !== ad) maxD = ad;
    }
  }
  return eta1(maxR, normA, maxX, maxD);
}

/**
 * Re-solves matrix j (all its right-hand sides) by Gaussian elimination with partial pivoting in float64
 * from the user's arrays, into x (any float type): LAPACK gtsv's LU for plain systems; for cyclic ones the
 * same elimination on the periodic matrix itself (cyclicGepp: Sherman–Morrison's modified matrix needs no pivoting
 * only where the periodic one does not). Returns status bits.
 */
export function resolveSystemLu(
  s: BackwardErrorShape,
  lower: FloatArray,
  diag: FloatArray,
  upper: FloatArray,
  rhs: FloatArray,
  x: FloatArray,
  j: number,
): number {
  const { n, batch, nrhs, layout, complex } = s;
  const w = complex ? 2 : 1;
  const F = (complex ? complexField() : realField()) as Field<unknown>;
  const a = new Float64Array(n * w),
    b = a.slice(),
    c = a.slice();
  for (let i = 0; i < n; i++) {
    const e = matIndex(layout, n, batch, j, i);
    for (let q = 0; q < w; q++) {
      a[i * w + q] = lower[e * w + q];
      b[i * w + q] = diag[e * w + q];
      c[i * w + q] = upper[e * w + q];
    }
  }
  const ds: Float64Array[] = [];
  for (let r = 0; r < nrhs; r++) {
    const d = new Float64Array(n * w);
    for (let i = 0; i < n; i++) {
      const e = rhsIndex(layout, n, batch, r, j, i);
      for (let q = 0; q < w; q++) d[i * w + q] = rhs[e * w + q];
    }
    ds.push(d);
  }
  let st = 0;
  let xs: Float64Array[];
  if (s.cyclic) {
    const res = cyclicGepp(F, a, b, c, ds, n);
    st = res.status;
    xs = res.x;
  } else {
    xs = ds.map((d) => {
      const xv = new Float64Array(n * w);
      st |= gtsvLu(F, a, b, c, d, xv, n);
      return xv;
    });
  }
  for (let r = 0; r < nrhs; r++) {
    for (let i = 0; i < n; i++) {
      const e = rhsIndex(layout, n, batch, r, j, i);
      for (let q = 0; q < w; q++) x[e * w + q] = xs[r][i * w + q];
    }
  }
  return st;
}

/**
 * Gaussian elimination with partial pivoting on one periodic tridiagonal matrix (a_0 at column n−1 of
 * row 0, c_{n−1} at column 0 of row n−1; n ≤ 2 folds them in). Rows are kept sparse: at step k only rows
 * k, k+1 and n−1 can hold column k (rows k+2 … n−2 are still untouched), and fill stays within a few
 * columns a row, so the work is O(n).
 */
function cyclicGepp<T>(
  F: Field<T>,
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  ds: Float64Array[],
  n: number,
): { x: Float64Array[]; status: number } {
  const w = F.complex ? 2 : 1;
  const rows: Map<number, T>[] = [];
  const add = (row: Map<number, T>, col: number, v: T) => row.set(col, row.has(col) ? F.add(row.get(col)!, v) : v);
  for (let i = 0; i < n; i++) {
    const row = new Map<number, T>();
    add(row, i, F.load(b, i));
    add(row, (i + n - 1) % n, F.load(a, i));
    add(row, (i + 1) % n, F.load(c, i));
    rows.push(row);
  }
  const rhs: T[][] = rows.map((_, i) => ds.map((d) => F.load(d, i)));
  const singular = () => ({ x: ds.map(() => new Float64Array(n * w).fill(NaN)), status: S.ZERO_PIVOT | S.NON_FINITE });
  for (let k = 0; k < n; k++) {
    const cand = [...new Set([k, k + 1, n - 1])].filter((r) => r >= k && r < n && rows[r].has(k));
    let p = k,
      best = -1;
    for (const r of cand) {
      const v = F.abs1(rows[r].get(k)!);
      if (v > best) {
        best = v;
        p = r;
      }
    }
    if (!(best > 0)) return singular();
    if (p !== k) {
      [rows[k], rows[p]] = [rows[p], rows[k]];
      [rhs[k], rhs[p]] = [rhs[p], rhs[k]];
    }
    const piv = rows[k].get(k)!;
    for (const r of cand) {
      if (r === k || !rows[r].has(k)) continue;
      const f = F.div(rows[r].get(k)!, piv);
      rows[r].delete(k);
      for (const [col, v] of rows[k]) if (col > k) add(rows[r], col, F.neg(F.mul(f, v)));
      rhs[r] = rhs[r].map((v, q) => F.sub(v, F.mul(f, rhs[k][q])));
    }
  }
  let status = 0;
  const x = ds.map(() => new Float64Array(n * w));
  for (let q = 0; q < ds.length; q++) {
    for (let k = n - 1; k >= 0; k--) {
      let v = rhs[k][q];
      for (const [col, u] of rows[k]) if (col > k) v = F.sub(v, F.mul(u, F.load(x[q], col)));
      const xv = F.div(v, rows[k].get(k)!);
      if (!F.isFinite(xv)) status |= S.NON_FINITE;
      F.store(x[q], k, xv);
    }
  }
  return { x, status };
}
