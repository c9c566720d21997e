/**
 * Threads for the CPU engine: a lazily created, reused pool of workers (worker_threads in Node, module
 * Web Workers in browsers) that run shares of a batched FFT while the calling thread runs one share
 * itself. Data goes through SharedArrayBuffers where they exist (Node; browsers only when the page is
 * cross-origin isolated), otherwise as transferred copies of each share. In Node each worker also has a lane
 * (worker-pipeline.ts): its jobs and replies are read off a channel of its own by the side waiting for them.
 *
 * Workers are unref()ed in Node while idle, so they never keep a process alive; disposeCpuWorkers()
 * terminates them. A failure inside a worker rejects the call with a WorkerError and the worker is
 * replaced on the next call.
 */
import { ArgumentError, WorkerError } from '../../errors.js';
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import type { FftNorm } from '../../planner/fft-problem.js';
import { checkFits, normScale } from './fft-mixed-radix.js';
import { engineFft, isEngineBuffer, type EngineExecOptions, type EngineFft, type ResidentRun } from './wasm-fft.js';
import { isR2rRow, rowLengths, runRows, type RowOp } from './engine-rows.js';
import {
  ABORT,
  ANSWERED,
  awaitChange,
  CALLER_SLEEPS,
  DONE,
  LANE_CALLER_SLEEPS,
  LANE_WORDS,
  PIPELINE_WORDS,
  POSTED,
  signal,
  STAGED,
  WORKER_SLEEPS,
  type Pipeline,
} from './worker-pipeline.js';
import { filledResultLike } from '../../util/filled-result.js';
import { planCpuSplit, planCpuSplitDct, planCpuSplitReal } from '../../planner/cpu-fft.js';
import { finishTrial, startTrial } from '../../planner/thread-choice.js';
import { FOUR_STEP_EARLY_BYTES, fourStepFromBytes } from '../../planner/cpu-features.js';
import {
  clearSplitPlans,
  createSplitBuffers,
  runPhase,
  splitFft,
  splitOwnerOf,
  type PhaseRun,
  type SplitFft,
} from './fft-split.js';
import { clearFft2Engines, runPlaneStep, type PlaneRun } from './fft-2d.js';
import { clearColumnsAxisEngines, runColumnsPart, type ColumnsRun } from './fft-columns-axis.js';
import { runThomasPart, type ThomasRun } from './tridiagonal-kernel.js';
import { setReleaseBroadcast } from './shared-memories.js';
import { nodeWorkerThreads, startNodeWorker, type WorkerThreads } from './node-worker.js';
import { disposePrefaultedPages } from './prefaulted-pages.js';

type AnyArray = Float32Array | Float64Array;
interface Layout {
  offset: number;
  stride: number;
  dist: number;
}

/** A share of a batched transform, as posted to a worker. */
export interface FftJob {
  id: number;
  n: number;
  precision: CpuPrecision;
  inverse: boolean;
  norm: FftNorm | undefined;
  scaleBy: number | undefined;
  batch: number;
  input: AnyArray;
  inLayout: Layout;
  output: AnyArray;
  outLayout: Layout;
  /** A row operation over `batch` contiguous rows instead of the complex FFT (layouts unused). */
  rows?: RowOp;
  /** The share in pieces, run as the calling thread stages them (shared memory only). */
  pipeline?: Pipeline;
  /** A run over shared engine buffers instead (input and output are then those buffers, unused). */
  resident?: ResidentRun;
  /** A thread's part of a phase of a split single transform instead (input and output unused). */
  phase?: PhaseRun;
  /** A thread's part of a step of a shared 2-D transform instead (input and output unused). */
  plane?: PlaneRun;
  /** A thread's part of a threaded column call along another axis instead (input and output unused). */
  columns?: ColumnsRun;
  /** A thread's part of a block of a threaded tridiagonal solve instead (input and output unused). */
  thomas?: ThomasRun;
  /** The calling thread's four-step threshold, for a worker that plans the length again (cpu-features.ts). */
  fourStepFrom?: number;
  /** Ids of shared memories to drop this worker's instances on instead (shared-memories.ts); nothing else runs. */
  release?: number[];
  /** Their bytes: the ballast that makes the worker collect what still points to them. */
  releaseBytes?: number;
  fault?: WorkerFault;
}

/** A worker's answer: the arrays (sent back when they were transferred), or the error it caught. */
export interface FftReply {
  id: number;
  input?: AnyArray;
  output?: AnyArray;
  error?: { name: string; message: string };
  /** A release job's answer: the instances the worker still keeps on shared memories. */
  held?: number;
}

/** Failures the tests inject into the next job: an exception, an exit, an uncaught error event. */
export type WorkerFault = 'throw' | 'exit' | 'uncaught';

/**
 * Fewest complex elements a share must have for a split to pay: below it, posting and waking a worker
 * cost more than the share's transform (idle 16-core Xeon, 4096-point f32, two threads: 0.9× at 16K
 * elements a share, 1.0× at 64K). Input not on a SharedArrayBuffer is copied per share on the calling
 * thread, which caps the gain: 1.3× at 4096 × 256 against 1.6× with shared input.
 */
export const MIN_SHARE_ELEMENTS = 1 << 16;

/** Values a staged piece holds at most (about 256 KiB of f32 complex): small enough that a worker starts early. */
const PIECE_ELEMENTS = 1 << 15;
/** Pieces a share is cut into at most. */
const MAX_PIECES = 16;

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

/** Validates a `threads` option: undefined (the default) or a positive integer. */
export function checkThreads(threads: unknown): number | undefined {
  if (threads !== undefined && (typeof threads !== 'number' || !Number.isSafeInteger(threads) || threads < 1)) {
    throw new ArgumentError('threads', threads, 'a positive integer (1 = no worker threads)');
  }
  return threads;
}

let cores: number | null = null;

/** The default thread count: the cores available to this process (Node) or the browser reports. */
export async function defaultThreads(): Promise<number> {
  if (cores === null) {
    if (isNode) {
      const specifier = 'node:os';
      const os = (await import(/* @vite-ignore */ specifier)) as typeof import('node:os');
      cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    } else {
      cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
    }
    cores = Math.max(1, cores | 0);
  }
  return cores;
}

/** Whether SharedArrayBuffers can be handed to workers here (Node; cross-origin isolated pages). */
export function sharedMemory(): boolean {
  if (typeof SharedArrayBuffer !== 'function') return false;
  // Browsers hand out usable SharedArrayBuffers only to cross-origin isolated pages; Node always does.
  return isNode || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

function isShared(a: AnyArray): boolean {
  return typeof SharedArrayBuffer === 'function' && a.buffer instanceof SharedArrayBuffer;
}

/** Minimal common face of a Node worker_threads Worker and a Web Worker. */
interface Thread {
  post(job: FftJob, transfer: ArrayBuffer[]): void;
  /** Keep the process alive (Node) while jobs are pending; no-op in browsers. */
  hold(on: boolean): void;
  terminate(): Promise<unknown>;
}

interface Pending {
  resolve(r: FftReply): void;
  reject(e: Error): void;
  /** The job's place among those posted to the worker (its reply is the seq-th; see Lane). */
  seq: number;
}

/** The calling thread's end of a Node worker's lane (worker-pipeline.ts): the counters, and the port read here. */
interface Lane {
  ctrl: Int32Array;
  receive(): FftReply | undefined;
}

/**
 * How long the calling thread, its own part done, waits here for the workers (their pieces and replies) before it
 * yields to its event loop: about a share's imbalance; a worker later than that is preempted or gone.
 */
const REPLY_WAIT_MS = 4;

class Slot {
  readonly pending = new Map<number, Pending>();
  dead = false;
  private posted = 0;
  constructor(
    readonly thread: Thread,
    private readonly onDead: (s: Slot) => void,
    private readonly lane?: Lane,
  ) {}
  run(job: FftJob, transfer: ArrayBuffer[]): Promise<FftReply> {
    return new Promise<FftReply>((resolve, reject) => {
      if (this.dead) return reject(new WorkerError('FFT worker is no longer running'));
      // A share of a long length is planned again by the worker: it must plan the recipe this thread plans.
      if (job.n * 16 >= FOUR_STEP_EARLY_BYTES) job.fourStepFrom = fourStepFromBytes();
      if (this.pending.size === 0) this.thread.hold(true);
      this.pending.set(job.id, { resolve, reject, seq: this.posted + 1 });
      try {
        this.thread.post(job, transfer);
        this.posted++;
      } catch (e) {
        this.settle(job.id);
        reject(new WorkerError(`could not post an FFT share to a worker: ${(e as Error).message}`, { cause: e }));
      }
    });
  }
  /**
   * Takes the reply to job `id` on this thread if the worker answers before performance.now() reaches `until`: waits
   * on the lane's count of replies, then reads them off the port (the job's promise settles as by the event). A
   * worker without a lane, or one that is late or dead, answers through the event loop as before.
   */
  answerHere(id: number, until: number): void {
    const p = this.pending.get(id);
    if (!this.lane || !p || this.dead) return;
    const { ctrl } = this.lane;
    for (let v = Atomics.load(ctrl, ANSWERED); v < p.seq; ) {
      const next = awaitChange(ctrl, ANSWERED, v, LANE_CALLER_SLEEPS, until);
      if (next === v) return;
      v = next;
    }
    for (let r = this.lane.receive(); r; r = this.lane.receive()) this.message(r);
  }
  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.dead) this.thread.hold(false);
    return p;
  }
  message(r: FftReply): void {
    const p = this.settle(r.id);
    if (!p) return;
    if (r.error) p.reject(new WorkerError(`FFT worker failed: ${r.error.name}: ${r.error.message}`));
    else p.resolve(r);
  }
  /** The worker is gone or unusable: fail everything it owes and have the pool replace it. */
  fail(what: string, cause?: unknown): Promise<unknown> {
    if (this.dead) return Promise.resolve();
    this.dead = true;
    this.onDead(this);
    for (const p of this.pending.values())
      p.reject(new WorkerError(`FFT worker ${what}`, cause === undefined ? undefined : { cause }));
    this.pending.clear();
    return this.thread.terminate().catch(() => undefined);
  }
}

function workerUrl(): URL {
  // Running the TypeScript sources directly (tsx) needs the .ts entry; the build emits fft-worker.js.
  return import.meta.url.endsWith('.ts')
    ? new URL('./fft-worker.ts', import.meta.url)
    : new URL('./fft-worker.js', import.meta.url);
}

async function spawn(onDead: (s: Slot) => void): Promise<Slot> {
  if (isNode) {
    const wt: WorkerThreads = await nodeWorkerThreads();
    // The lane (worker-pipeline.ts): a channel of its own and two shared counters; the worker gets the far port.
    const { port1, port2 } = new wt.MessageChannel();
    const ctrl = new Int32Array(new SharedArrayBuffer(4 * LANE_WORDS));
    let w: InstanceType<WorkerThreads['Worker']>;
    try {
      w = startNodeWorker(wt.Worker, workerUrl(), {
        workerData: { lane: { port: port2, ctrl } },
        transferList: [port2],
      });
    } catch (e) {
      port1.close();
      throw new WorkerError(`could not start an FFT worker thread: ${(e as Error).message}`, { cause: e });
    }
    w.unref();
    const slot: Slot = new Slot(
      {
        post: (job, t) => {
          port1.postMessage(job, t);
          Atomics.add(ctrl, POSTED, 1);
        },
        hold: (on) => (on ? w.ref() : w.unref()),
        terminate: () => {
          port1.close();
          return w.terminate();
        },
      },
      onDead,
      { ctrl, receive: () => wt.receiveMessageOnPort(port1)?.message as FftReply | undefined },
    );
    // The worker holds the process while a job is pending (hold); its port alone must not.
    port1.on('message', (r: FftReply) => slot.message(r));
    port1.unref();
    w.on('error', (e: Error) => slot.fail(`threw an uncaught ${e.name}: ${e.message}`, e));
    w.on('messageerror', (e: Error) => slot.fail(`could not read a message: ${e.message}`, e));
    w.on('exit', (code: number) => slot.fail(`exited (code ${code})`));
    return slot;
  }
  const WebWorker = (globalThis as { Worker?: typeof Worker }).Worker;
  if (!WebWorker) throw new WorkerError('this environment has no Worker: use threads: 1');
  const w = new WebWorker(new URL('./fft-worker.js', import.meta.url), { type: 'module' });
  const thread: Thread = {
    post: (job, t) => w.postMessage(job, t),
    hold: () => undefined,
    terminate: async () => w.terminate(),
  };
  const slot = new Slot(thread, onDead);
  w.onmessage = (e: MessageEvent<FftReply>) => slot.message(e.data);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    slot.fail(`raised an error event: ${e.message || 'the worker script failed to load or threw'}`);
  };
  w.onmessageerror = () => slot.fail('could not read a message');
  return slot;
}

/** A job posted to a worker: where, its id, and its reply. */
interface Posted {
  slot: Slot;
  id: number;
  reply: Promise<FftReply>;
}

/** The workers, created on first use and replaced when one dies. */
class WorkerPool {
  private slots: Slot[] = [];
  private spawning: Promise<Slot>[] = [];
  /** Free staging buffers (shared, or non-shared ones that came back transferred) for reuse. */
  private free: ArrayBufferLike[] = [];
  private nextId = 1;
  fault: WorkerFault | undefined;

  /** `count` distinct live workers, least busy first. */
  async acquire(count: number): Promise<Slot[]> {
    while (this.slots.length + this.spawning.length < count) {
      const p = spawn((s) => (this.slots = this.slots.filter((x) => x !== s)));
      this.spawning.push(p);
      p.then(
        (s) => {
          this.spawning = this.spawning.filter((x) => x !== p);
          this.slots.push(s);
        },
        () => (this.spawning = this.spawning.filter((x) => x !== p)),
      );
    }
    await Promise.all(this.spawning);
    return [...this.slots].sort((a, b) => a.pending.size - b.pending.size).slice(0, count);
  }

  staging(Arr: typeof Float32Array | typeof Float64Array, length: number): AnyArray {
    const bytes = length * Arr.BYTES_PER_ELEMENT;
    const i = this.free.findIndex((b) => b.byteLength >= bytes && b.byteLength <= 4 * bytes);
    const buf =
      i >= 0 ? this.free.splice(i, 1)[0]! : sharedMemory() ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    return new Arr(buf as ArrayBuffer, 0, length);
  }
  release(a: AnyArray): void {
    if (this.free.includes(a.buffer) || a.buffer.byteLength === 0) return;
    this.free.push(a.buffer);
    // A few buffers per worker is all a call needs; drop the oldest beyond that.
    while (this.free.length > 2 * this.slots.length + 2) this.free.shift();
  }

  run(slot: Slot, job: Omit<FftJob, 'id'>): Posted {
    const full: FftJob = { ...job, id: this.nextId++ };
    if (this.fault) {
      full.fault = this.fault;
      this.fault = undefined;
    }
    const transfer: ArrayBuffer[] = [];
    for (const a of [job.input, job.output])
      if (a.buffer instanceof ArrayBuffer && !transfer.includes(a.buffer)) transfer.push(a.buffer);
    return { slot, id: full.id, reply: slot.run(full, transfer) };
  }

  /** Tells every live worker to drop its instances on these memories; resolves to what each still holds. */
  releaseMemories(ids: number[], bytes = 0): Promise<number[]> {
    const job = (id: number): FftJob => ({
      id,
      n: 0,
      precision: 'f64',
      inverse: false,
      norm: undefined,
      scaleBy: undefined,
      batch: 0,
      input: NOTHING,
      inLayout: NO_LAYOUT,
      output: NOTHING,
      outLayout: NO_LAYOUT,
      release: ids,
      releaseBytes: bytes,
    });
    return Promise.all(this.slots.map((s) => s.run(job(this.nextId++), []).then((r) => r.held ?? 0)));
  }

  async dispose(): Promise<void> {
    const all = [
      ...this.slots,
      ...(await Promise.allSettled(this.spawning)).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    ];
    this.slots = [];
    this.spawning = [];
    this.free = [];
    await Promise.all(all.map((s) => s.fail('was disposed')));
  }
}

/**
 * A result array in the same kind of memory as the input: shared input gets a shared result, which
 * workers then write directly (no copy back on the calling thread). Not zeroed where `writesAll` says the
 * caller writes every element.
 */
export function allocateLike<T extends AnyArray>(input: T, length: number, writesAll: boolean): T {
  const Arr = input.constructor as {
    new (b: ArrayBufferLike, o: number, l: number): T;
    new (l: number): T;
    BYTES_PER_ELEMENT: number;
  };
  return isShared(input)
    ? new Arr(new SharedArrayBuffer(length * Arr.BYTES_PER_ELEMENT), 0, length)
    : writesAll
      ? filledResultLike(input, length)
      : new Arr(length);
}

let pool: WorkerPool | null = null;

const NOTHING = new Float64Array(0);
const NO_LAYOUT: Layout = { offset: 0, stride: 1, dist: 0 };
// Memories the calling thread let go of (shared-memories.ts) are released in the workers of the pool, if any.
setReleaseBroadcast((ids, bytes) => void pool?.releaseMemories(ids, bytes).catch(() => undefined));

/** Tests only: releases nothing, and resolves to the instances each live worker keeps on shared memories. */
export function workerHeldInstances(): Promise<number[]> {
  return pool ? pool.releaseMemories([]) : Promise.resolve([]);
}

/** Terminates the CPU engine's worker threads (new ones start on the next threaded call). */
export async function disposeCpuWorkers(): Promise<void> {
  const p = pool;
  pool = null;
  // The split plans' shared memories go with the workers that held them.
  clearSplitPlans();
  clearFft2Engines();
  clearColumnsAxisEngines();
  await Promise.all([p?.dispose(), disposePrefaultedPages()]);
}

/** Tests only: make the next job posted to a worker fail in the given way. */
export function injectWorkerFault(fault: WorkerFault): void {
  (pool ??= new WorkerPool()).fault = fault;
}

/** How many ways a batch is worth splitting (1: run on the calling thread only). */
/**
 * Whether executeEngineFft runs a call on the calling thread with nothing to wait for: one thread, or a batch too
 * small to share that is not a single transform large enough to split in its own engine buffers (the smallest
 * split). Plans call the engine directly then.
 */
export function runsOnCaller(n: number, precision: CpuPrecision, batch: number, threads: number | undefined): boolean {
  return (
    threads === 1 || (shareCount(n, batch, Infinity) <= 1 && planCpuSplit(n, precision, batch, Infinity, true) === null)
  );
}

export function shareCount(n: number, batch: number, threads: number): number {
  return Math.max(1, Math.min(threads, batch, Math.floor((n * batch) / MIN_SHARE_ELEMENTS)));
}

function layoutOf(l: Partial<Layout> | undefined, n: number): Layout {
  const stride = l?.stride ?? 1;
  return { offset: l?.offset ?? 0, stride, dist: l?.dist ?? n * stride };
}

function shifted(l: Layout, b0: number): Layout {
  return { offset: l.offset + b0 * l.dist, stride: l.stride, dist: l.dist };
}

/** Copies `count` problems between layouts (gather into or scatter out of a compact staging array). */
function copyProblems(src: AnyArray, ls: Layout, dst: AnyArray, ld: Layout, n: number, count: number): void {
  if (ls.stride === 1 && ld.stride === 1 && ls.dist === n && ld.dist === n) {
    dst.set(src.subarray(2 * ls.offset, 2 * (ls.offset + n * count)), 2 * ld.offset);
    return;
  }
  for (let b = 0; b < count; b++) {
    const s = ls.offset + b * ls.dist;
    const d = ld.offset + b * ld.dist;
    if (ls.stride === 1 && ld.stride === 1) {
      dst.set(src.subarray(2 * s, 2 * (s + n)), 2 * d);
      continue;
    }
    for (let i = 0, p = 2 * s, q = 2 * d, ss = 2 * ls.stride, sd = 2 * ld.stride; i < n; i++, p += ss, q += sd) {
      dst[q] = src[p]!;
      dst[q + 1] = src[p + 1]!;
    }
  }
}

/**
 * Batch ranges in `unit`s: the calling thread takes [0, mainCount), workers the rest, in equal shares. (A
 * smaller share for the calling thread where it also stages the workers' copies measured slower for short
 * rows and for real transforms: see docs/DECISIONS.md.)
 */
function splitBatch(
  batch: number,
  shares: number,
  unit = 1,
  mainWeight = 1,
): { mainCount: number; ranges: [number, number][] } {
  const units = Math.ceil(batch / unit);
  // Rounded up where the calling thread weighs less: with a few large problems a share too small for it leaves
  // the workers to finish last.
  const exact = (units * mainWeight) / (mainWeight + shares - 1);
  const mainUnits = Math.max(1, mainWeight < 1 ? Math.ceil(exact - 1e-9) : Math.round(exact));
  const ranges: [number, number][] = [];
  for (let i = 0, b = mainUnits; i < shares - 1; i++) {
    const e = i === shares - 2 ? units : b + Math.round((units - mainUnits) / (shares - 1));
    ranges.push([Math.min(batch, unit * b), Math.min(batch, unit * e)]);
    b = e;
  }
  return { mainCount: Math.min(batch, unit * mainUnits), ranges };
}

/** `count` problems as pieces of about PIECE_ELEMENTS values (whole `unit`s), at most MAX_PIECES. */
function piecesOf(count: number, elements: number, unit: number): [number, number][] {
  const units = Math.ceil(count / unit);
  const k = Math.max(1, Math.min(MAX_PIECES, units, Math.round((count * elements) / PIECE_ELEMENTS)));
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    const a = Math.min(count, unit * Math.round((units * i) / k)),
      b = Math.min(count, unit * Math.round((units * (i + 1)) / k));
    if (b > a) out.push([a, b - a]);
  }
  return out;
}

/** The calling thread's share in pieces where it copies finished worker pieces out between them, else whole. */
function mainCut(shares: Share[], count: number, elements: number, unit: number): [number, number][] {
  return shares.some((sh) => sh.stageOut) && sharedMemory() ? piecesOf(count, elements, unit) : [[0, count]];
}

/** A worker's share of a split call, with how its pieces are copied in and out when staged. */
interface Share {
  slot: Slot;
  job: Omit<FftJob, 'id' | 'pipeline'>;
  /** Copies piece [q0, q0 + count) of the share into its staging array; absent: the worker reads in place. */
  stageIn?: (q0: number, count: number) => void;
  /** Copies a finished piece out of `from` (the reply's output array); absent: the worker wrote in place. */
  stageOut?: (q0: number, count: number, from: AnyArray) => void;
  /** Staging arrays to return to the pool. */
  staged: AnyArray[];
}

/**
 * Runs the workers' shares and the calling thread's pieces. With shared memory, staged shares go piece by
 * piece: jobs posted first, pieces copied in round robin, the calling thread's own pieces run in turn with
 * finished worker pieces copied out between them. Without it (browsers that are not cross-origin
 * isolated), each share is copied in whole, transferred, and copied out from the reply. Waits for every
 * worker, even after a failure (a worker may still be writing), then throws the first error.
 */
async function runShares(
  p: WorkerPool,
  shares: Share[],
  unit: number,
  elements: number,
  main: (() => void)[],
): Promise<void> {
  const piped = sharedMemory();
  const plans = shares.map((sh) => {
    // Only staged shares are worth cutting up; a share read and written in place runs whole.
    const cut = piped && (sh.stageIn || sh.stageOut);
    const pieces = cut ? piecesOf(sh.job.batch, elements, unit) : [[0, sh.job.batch] as [number, number]];
    const ctrl = cut ? new Int32Array(new SharedArrayBuffer(4 * PIPELINE_WORDS)) : undefined;
    if (ctrl && !sh.stageIn) ctrl[STAGED] = pieces.length;
    return { sh, pieces, ctrl, copied: 0, reply: null as Posted | null };
  });
  let mainError: unknown = null;
  const drain = (): void => {
    for (const pl of plans) {
      if (!pl.ctrl || !pl.sh.stageOut) continue;
      for (const done = Atomics.load(pl.ctrl, DONE); pl.copied < done; pl.copied++) {
        const [q0, c] = pl.pieces[pl.copied]!;
        pl.sh.stageOut(q0, c, pl.sh.job.output);
      }
    }
  };
  try {
    if (!piped) for (const pl of plans) pl.sh.stageIn?.(0, pl.sh.job.batch);
    for (const pl of plans) {
      const pipeline = pl.ctrl ? { ctrl: pl.ctrl, pieces: pl.pieces } : undefined;
      pl.reply = p.run(pl.sh.slot, { ...pl.sh.job, pipeline });
    }
    if (piped) {
      for (let k = 0; plans.some((pl) => k < pl.pieces.length); k++) {
        for (const pl of plans) {
          if (!pl.sh.stageIn || k >= pl.pieces.length) continue;
          pl.sh.stageIn(...pl.pieces[k]!);
          signal(pl.ctrl!, STAGED, WORKER_SLEEPS, k + 1);
        }
      }
    }
    for (const run of main) {
      run();
      if (piped) drain();
    }
    // Copy the workers' pieces out as they finish rather than after their replies (Node: a browser's main thread
    // cannot wait on the futex).
    const until = performance.now() + REPLY_WAIT_MS;
    for (const pl of isNode && piped ? plans : []) {
      while (pl.ctrl && pl.sh.stageOut && pl.copied < pl.pieces.length) {
        if (awaitChange(pl.ctrl, DONE, pl.copied, CALLER_SLEEPS, until) === pl.copied) break;
        drain();
      }
    }
  } catch (e) {
    mainError = e;
    for (const pl of plans) {
      if (!pl.ctrl) continue;
      Atomics.store(pl.ctrl, ABORT, 1);
      Atomics.store(pl.ctrl, STAGED, pl.pieces.length);
      Atomics.notify(pl.ctrl, STAGED);
    }
  }
  const replies = await settle(
    plans.map((pl) => pl.reply),
    mainError,
  );
  replies.forEach((reply, i) => {
    const pl = plans[i]!;
    if (pl.sh.stageOut) {
      if (piped) drain();
      else pl.sh.stageOut(0, pl.sh.job.batch, reply.output!);
    }
    // Transferred arrays come back as new objects over the returned buffers; shared ones are the same memory.
    for (const a of [reply.input, reply.output]) if (a && !isShared(a)) p.release(a);
    for (const a of pl.sh.staged) if (isShared(a)) p.release(a);
  });
}

/**
 * The engine's batched FFT (see EngineFft.execute) split across up to `threads` threads, the calling
 * thread included. Batches too small to pay for a split (see MIN_SHARE_ELEMENTS), and single transforms,
 * run on the calling thread alone. Results are bit-identical to a single-threaded call.
 */
export async function executeEngineFft(
  n: number,
  precision: CpuPrecision,
  input: AnyArray,
  output: AnyArray,
  options: EngineExecOptions = {},
  threads?: number,
): Promise<void> {
  checkThreads(threads);
  const plan = engineFft(n, precision);
  const batch = options.batch ?? 1;
  if (threads !== 1 && batch === 1 && sharedMemory()) {
    // Split engine buffers (createSplitBuffers) keep their own plan; other arrays use the cached one.
    const owner = splitOwnerOf(input);
    const split =
      owner && owner.n === n && owner.precision === precision
        ? owner
        : await splitOf(planCpuSplit(n, precision, batch, threads ?? Infinity), threads);
    if (split) return split.execute(input, output, options, runPhases);
  }
  if (threads === 1 || shareCount(n, batch, Infinity) <= 1) return plan.execute(input, output, options);
  const shares = shareCount(n, batch, threads ?? (await defaultThreads()));
  if (shares <= 1) return plan.execute(input, output, options);
  const split = () => splitEngineFft(plan, shares, input, output, options);
  if (threads !== undefined) return split();
  const l = (x: Partial<Layout> | undefined) => `${x?.stride ?? 1},${x?.dist ?? n * (x?.stride ?? 1)}`;
  const key = `fft:${n}:${precision}:${batch}:${shares}:${memoryOf(input, output)}:${l(options.input)}:${l(options.output)}`;
  return measured(key, split, () => plan.execute(input, output, options));
}

/** A call's kind of memory, as it bears on a split: engine buffers, or ordinary (o) and shared (s) input and output. */
function memoryOf(input: AnyArray, output: AnyArray): string {
  return isEngineBuffer(input) ? 'engine' : `${isShared(input) ? 's' : 'o'}${isShared(output) ? 's' : 'o'}`;
}

/** A call left at the default threads: split or run on the calling thread as measured for its shape (thread-choice.ts). */
async function measured(key: string, split: () => Promise<void>, single: () => void): Promise<void> {
  const trial = startTrial(key);
  let failed = true;
  try {
    if (trial.step.mode === 'split') await split();
    else single();
    failed = false;
  } finally {
    finishTrial(trial, failed);
  }
}

/** executeEngineFft's batch shared out among `shares` threads, the calling thread included. */
async function splitEngineFft(
  plan: EngineFft,
  shares: number,
  input: AnyArray,
  output: AnyArray,
  options: EngineExecOptions,
): Promise<void> {
  const { n, precision } = plan;
  const batch = options.batch ?? 1;
  // Engine buffers: every thread runs the kernel on its slots where they lie (shared memory), else the calling
  // thread alone.
  const resident = isEngineBuffer(input);
  const runs = resident ? plan.residentRuns?.(input, output, options, shares) : null;
  if (runs && runs.length > 1) return runResidentShares(plan, runs, input, output);
  if (resident) return plan.execute(input, output, options);
  const li = layoutOf(options.input, n);
  const lo = layoutOf(options.output, n);
  // Validate before any worker is involved, so bad layouts throw the engine's ArgumentError.
  for (const [a, l, name] of [
    [input, li, 'input'],
    [output, lo, 'output'],
  ] as const) {
    for (const k of ['offset', 'stride', 'dist'] as const) {
      if (!Number.isSafeInteger(l[k]) || l[k] < 0)
        throw new ArgumentError(`${name}.${k}`, l[k], 'a non-negative integer');
    }
    checkFits(a.length, n, batch, l, name);
  }
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(shares - 1);
  const aliased = input.buffer === output.buffer;
  const sameLayout = li.offset === lo.offset && li.stride === lo.stride && li.dist === lo.dist;
  // Workers read a shared input directly unless the calling thread could overwrite it first (aliased, other layout).
  const directIn = isShared(input) && (!aliased || sameLayout);
  const directOut = isShared(output);
  // Ordinary arrays on both sides: each worker's share is staged into engine buffers of its own, which the worker
  // transforms where they lie, so only the calling thread copies; it then takes a smaller share itself.
  const callBytes = 2 * n * batch * (precision === 'f32' ? 8 : 16);
  const unit = !directIn && !directOut && callBytes <= MAX_STAGING_BYTES ? (plan.slotProblems ?? 0) : 0;
  const staging = unit > 0 && !!plan.runResidentProblems;
  const { mainCount, ranges } = staging
    ? splitBatch(batch, shares, unit, n * batch >= LIGHT_MAIN_FROM ? MAIN_WEIGHT_STAGING : 1)
    : splitBatch(batch, shares);
  const base = { n, precision, inverse: options.inverse ?? false, norm: options.norm, scaleBy: options.scaleBy };
  const compact: Layout = { offset: 0, stride: 1, dist: n };
  const list: Share[] = [];
  const taken: Residence[] = [];
  ranges.forEach(([b0, b1], i) => {
    const count = b1 - b0;
    if (count <= 0) return;
    const r = staging ? takeResidence(plan, count) : null;
    if (r) {
      taken.push(r);
      const exec = { batch: r.count, inverse: options.inverse, norm: options.norm, scaleBy: options.scaleBy };
      const run = plan.residentRuns!(r.input, r.output, exec, 1)?.[0];
      if (run) {
        list.push({
          slot: slots[i]!,
          job: {
            ...base,
            batch: count,
            input: r.input,
            inLayout: compact,
            output: r.output,
            outLayout: compact,
            // Read in place: the calling thread has just written each piece, so no stage is needed to warm it.
            resident: { ...run, stageP: -1 },
          },
          staged: [],
          stageIn: (q0, c) => copyProblems(input, shifted(li, b0 + q0), r.input, shifted(compact, q0), n, c),
          stageOut: (q0, c) => copyProblems(r.output, shifted(compact, q0), output, shifted(lo, b0 + q0), n, c),
        });
        return;
      }
    }
    const staged: AnyArray[] = [];
    const share: Share = {
      slot: slots[i]!,
      job: { ...base, batch: count, input, inLayout: shifted(li, b0), output, outLayout: shifted(lo, b0) },
      staged,
    };
    if (!directIn) {
      const jin = p.staging(input.constructor as typeof Float32Array, 2 * n * count);
      staged.push(jin);
      share.job.input = jin;
      share.job.inLayout = compact;
      share.stageIn = (q0, c) => copyProblems(input, shifted(li, b0 + q0), jin, shifted(compact, q0), n, c);
    }
    if (!directOut) {
      // Transform the staged copy in place when the types agree; else a second staging array.
      const inPlace = !directIn && share.job.input.constructor === output.constructor;
      const jout = inPlace ? share.job.input : p.staging(output.constructor as typeof Float32Array, 2 * n * count);
      if (!inPlace) staged.push(jout);
      share.job.output = jout;
      share.job.outLayout = compact;
      share.stageOut = (q0, c, from) => copyProblems(from, shifted(compact, q0), output, shifted(lo, b0 + q0), n, c);
    }
    list.push(share);
  });
  const mainPieces = mainCut(list, mainCount, n, 1).map(
    ([q0, c]) =>
      () =>
        plan.execute(input, output, { ...options, batch: c, input: shifted(li, q0), output: shifted(lo, q0) }),
  );
  try {
    await runShares(p, list, staging ? unit : 1, n, mainPieces);
  } finally {
    for (const r of taken) r.busy = false;
  }
}

/**
 * The calling thread's weight in splitBatch where it stages the workers' shares into engine buffers (each worker's
 * weight is 1): it also copies every worker's problems in and out (docs/DECISIONS.md: worker shares staged into
 * engine buffers).
 */
const MAIN_WEIGHT_STAGING = 0.5;
/**
 * Fewest elements a call needs for MAIN_WEIGHT_STAGING: below it a worker's wake-up is a large part of its share,
 * and equal shares measured faster (1024 × 128: 0.75 against 0.53 of one thread's time; 4096 × 128 and up gain).
 */
const LIGHT_MAIN_FROM = 1 << 19;

/**
 * Largest call (its input and output bytes) staged into engine buffers: they stay with the plan for the next call,
 * so larger ones take pooled staging arrays instead.
 */
const MAX_STAGING_BYTES = 1 << 26;

/** Engine buffers a worker's share is staged into; `busy` while a call uses them. */
interface Residence {
  input: AnyArray;
  output: AnyArray;
  count: number;
  busy: boolean;
}
/** Per plan, the engine buffers made for staging (at most MAX_RESIDENCES, the largest kept). */
const residences = new WeakMap<EngineFft, Residence[]>();
const MAX_RESIDENCES = 2;

/** Free engine buffers of at least `count` problems in shared memory for the plan, made where none is free; else null. */
function takeResidence(plan: EngineFft, count: number): Residence | null {
  const list = residences.get(plan) ?? [];
  let r = list.find((x) => !x.busy && x.count >= count);
  if (!r) {
    let b: { input: AnyArray; output: AnyArray };
    try {
      b = plan.createBuffers!(count, 2);
    } catch {
      return null;
    }
    if (!isShared(b.input)) return null;
    r = { input: b.input, output: b.output, count, busy: false };
    list.push(r);
    list.sort((x, y) => y.count - x.count);
    for (let i = list.length - 1; i >= 0 && list.length > MAX_RESIDENCES; i--) if (!list[i]!.busy) list.splice(i, 1);
    residences.set(plan, list);
  }
  r.busy = true;
  return r;
}

/**
 * The split plan of a recipe (planned with `threads ?? Infinity`, so the default, the cores, is resolved only where
 * a split applies), or null where there is none, one thread, or it cannot be built here.
 */
async function splitOf(
  recipe: Parameters<typeof splitFft>[0] | null,
  threads: number | undefined,
): Promise<SplitFft | null> {
  if (!recipe) return null;
  const t = threads ?? (await defaultThreads());
  if (t < 2) return null;
  try {
    return splitFft(recipe, t);
  } catch {
    // No shared WebAssembly memory, or a module this thread may not compile synchronously: one thread.
    return null;
  }
}

/**
 * Engine buffers of a single transform that `threads` threads split (see createSplitBuffers), or null where the
 * call would not split or the runtime has no shared memory.
 */
export function splitBuffersFor(
  n: number,
  precision: CpuPrecision,
  batch: number,
  threads: number,
): { input: AnyArray; output: AnyArray } | null {
  const recipe = sharedMemory() ? planCpuSplit(n, precision, batch, threads, true) : null;
  if (!recipe) return null;
  try {
    return createSplitBuffers(recipe, threads);
  } catch {
    return null;
  }
}

/** A phase of a split transform: the first part on the calling thread, the others on workers, all awaited. */
export function runPhases(runs: PhaseRun[]): Promise<void> {
  return runParts(runs.map((phase) => ({ phase })));
}

/** A step of a shared 2-D transform (src/backends/cpu/fft-2d.ts), as runPhases runs a split's phases. */
export function runPlaneSteps(runs: PlaneRun[], here?: () => void): Promise<void> {
  return runParts(
    runs.map((plane) => ({ plane })),
    here,
  );
}

/** A threaded column call's step (src/backends/cpu/fft-columns-axis.ts): the first part here, the others on workers. */
export function runColumnSteps(runs: ColumnsRun[]): Promise<void> {
  return runParts(runs.map((columns) => ({ columns })));
}

/** A block of a threaded tridiagonal solve (tridiagonal-kernel.ts): the first part here, the others on workers. */
export function runThomasParts(runs: ThomasRun[]): Promise<void> {
  if (runs.length === 1) {
    runThomasPart(runs[0]!);
    return Promise.resolve();
  }
  return runParts(runs.map((thomas) => ({ thomas })));
}

/**
 * A block's parts on workers only, none here (the calling thread copies the next block in meanwhile: the pipelined
 * tridiagonal solve). Resolves once they are posted, to the wait for their replies (taken on this thread's lane).
 */
export async function postThomasParts(runs: ThomasRun[]): Promise<() => Promise<void>> {
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(runs.length);
  const replies = runs.map((thomas, i) => p.run(slots[i]!, { ...partJob(thomas.memory), thomas }));
  // Settled only when waited for: a rejection is not unhandled meanwhile.
  for (const r of replies) r.reply.catch(() => undefined);
  return async () => {
    await settle(replies, null);
  };
}

/** Threads a 2-D transform may share: `threads` (default the cores) where shared memory exists, else 1. */
export async function planeThreads(threads: number | undefined): Promise<number> {
  checkThreads(threads);
  return threads === 1 || !sharedMemory() ? 1 : (threads ?? (await defaultThreads()));
}

/** A part's job fields: no arrays of its own, only empty views of the shared memory (never transferred). */
function partJob(memory: WebAssembly.Memory): Omit<FftJob, 'id'> {
  const none = new Float32Array(memory.buffer, 0, 0);
  const layout: Layout = { offset: 0, stride: 1, dist: 1 };
  return {
    n: 1,
    precision: 'f32',
    inverse: false,
    norm: undefined,
    scaleBy: undefined,
    batch: 0,
    input: none,
    inLayout: layout,
    output: none,
    outLayout: layout,
  };
}

/**
 * Parts of a barrier-separated step: the first on the calling thread (by `here` where given), the others on workers,
 * all awaited.
 */
async function runParts(
  parts: ({ phase: PhaseRun } | { plane: PlaneRun } | { columns: ColumnsRun } | { thomas: ThomasRun })[],
  here?: () => void,
): Promise<void> {
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(parts.length - 1);
  const first = parts[0]!;
  const memory =
    'phase' in first
      ? first.phase.memory
      : 'plane' in first
        ? first.plane.memory
        : 'columns' in first
          ? first.columns.memory
          : first.thomas.memory;
  const replies = parts.slice(1).map((part, i) => p.run(slots[i]!, { ...partJob(memory), ...part }));
  let mainError: unknown = null;
  try {
    if (here) here();
    else if ('phase' in first) runPhase(first.phase);
    else if ('plane' in first) runPlaneStep(first.plane);
    else if ('columns' in first) runColumnsPart(first.columns);
    else runThomasPart(first.thomas);
  } catch (e) {
    mainError = e;
  }
  await settle(replies, mainError);
}

/** The runs of a call on shared engine buffers: the first on the calling thread, the others on workers. */
async function runResidentShares(
  plan: EngineFft,
  runs: ResidentRun[],
  input: AnyArray,
  output: AnyArray,
): Promise<void> {
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(runs.length - 1);
  const compact: Layout = { offset: 0, stride: 1, dist: plan.n };
  const replies = runs.slice(1).map((resident, i) =>
    p.run(slots[i]!, {
      n: plan.n,
      precision: plan.precision,
      inverse: resident.inverse,
      norm: undefined,
      scaleBy: undefined,
      batch: 0,
      input,
      inLayout: compact,
      output,
      outLayout: compact,
      resident,
    }),
  );
  let mainError: unknown = null;
  try {
    plan.runResident!(runs[0]!);
  } catch (e) {
    mainError = e;
  }
  await settle(replies, mainError);
}

/**
 * Waits for every worker's reply, even after a failure (a worker may still be writing), then throws the calling
 * thread's error, else the first worker's; returns the replies.
 */
async function settle(posted: (Posted | null)[], mainError: unknown): Promise<FftReply[]> {
  const until = performance.now() + REPLY_WAIT_MS;
  for (const p of posted) p?.slot.answerHere(p.id, until);
  const settled = await Promise.allSettled(posted.map((p) => p?.reply ?? Promise.reject(mainError)));
  if (mainError) throw mainError;
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<FftReply>).value);
}

/**
 * `rows` contiguous rows of a row operation (real FFTs, DCT-II/III) split across up to `threads` threads as
 * executeEngineFft splits a batch: same share sizes, shared arrays read and written in place, other
 * arrays staged per share. Calls that do not split run on the calling thread before the promise settles.
 */
export async function executeEngineRows(
  op: RowOp,
  input: AnyArray,
  output: AnyArray,
  rows: number,
  threads?: number,
): Promise<void> {
  checkThreads(threads);
  const splitPlan = rowSplitPlan(op, rows, threads);
  if (splitPlan) {
    const split = await splitOf(splitPlan, threads);
    if (split) {
      const ortho = op.orthogonalize ?? false;
      if (op.kind === 'dct2') return split.forwardDct2(input, output, op.scale ?? 1, ortho, runPhases);
      if (op.kind === 'dct3') return split.inverseDct2(input, output, op.scale ?? 1, ortho, runPhases);
      if (op.kind === 'rfft') return split.forwardReal(input, output, normScale(op.n, op.norm, false), runPhases);
      return split.inverseReal(input, output, normScale(op.n, op.norm, true), runPhases);
    }
  }
  if (threads === 1 || shareCount(op.n, rows, Infinity) <= 1) return runRows(op, input, output, rows);
  // Real FFTs, and the DCTs and DSTs of odd lengths, pair rows in one complex transform: shares of whole pairs
  // keep results bit-identical.
  const unit = isR2rRow(op.kind) && op.n % 2 === 0 ? 1 : 2;
  const shares = Math.min(shareCount(op.n, rows, threads ?? (await defaultThreads())), Math.ceil(rows / unit));
  if (shares <= 1) return runRows(op, input, output, rows);
  const split = () => splitEngineRows(op, shares, unit, input, output, rows);
  if (threads !== undefined) return split();
  const key = `rows:${op.kind}:${op.n}:${op.precision}:${rows}:${shares}:${memoryOf(input, output)}`;
  return measured(key, split, () => runRows(op, input, output, rows));
}

/** One long real row (real FFTs, DCT-II and DCT-III): its complex half-length transform split by the four-step phases. */
function rowSplitPlan(op: RowOp, rows: number, threads: number | undefined): ReturnType<typeof planCpuSplitReal> {
  const splits = op.kind === 'rfft' || op.kind === 'irfft' || op.kind === 'dct2' || op.kind === 'dct3';
  if (!splits || threads === 1 || rows !== 1 || !sharedMemory()) return null;
  const dct = op.kind === 'dct2' || op.kind === 'dct3';
  return (dct ? planCpuSplitDct : planCpuSplitReal)(op.n, op.precision, rows, threads ?? Infinity);
}

/** Whether executeEngineRows runs a call on the calling thread with nothing to wait for (as runsOnCaller). */
export function rowsRunOnCaller(op: RowOp, rows: number, threads: number | undefined): boolean {
  return threads === 1 || (shareCount(op.n, rows, Infinity) <= 1 && rowSplitPlan(op, rows, threads) === null);
}

/** executeEngineRows's rows shared out among `shares` threads (whole units of `unit` rows), the calling thread included. */
async function splitEngineRows(
  op: RowOp,
  shares: number,
  unit: number,
  input: AnyArray,
  output: AnyArray,
  rows: number,
): Promise<void> {
  const [inLen, outLen] = rowLengths(op);
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(shares - 1);
  const { mainCount, ranges } = splitBatch(rows, shares, unit);
  const compact: Layout = { offset: 0, stride: 1, dist: op.n };
  const jobOf = (count: number, a: AnyArray, b: AnyArray): Share['job'] => ({
    n: op.n,
    precision: op.precision,
    inverse: op.kind === 'irfft',
    norm: op.norm,
    scaleBy: undefined,
    batch: count,
    input: a,
    inLayout: compact,
    output: b,
    outLayout: compact,
    rows: op,
  });
  const list: Share[] = ranges.map(([b0, b1], i) => {
    const count = b1 - b0;
    const src = input.subarray(b0 * inLen, b1 * inLen);
    const dst = output.subarray(b0 * outLen, b1 * outLen);
    const share: Share = { slot: slots[i]!, job: jobOf(count, src, dst), staged: [] };
    if (!isShared(input)) {
      const jin = p.staging(input.constructor as typeof Float32Array, count * inLen);
      share.staged.push(jin);
      share.job.input = jin;
      share.stageIn = (q0, c) => jin.set(src.subarray(q0 * inLen, (q0 + c) * inLen), q0 * inLen);
    }
    if (!isShared(output)) {
      const jout = p.staging(output.constructor as typeof Float32Array, count * outLen);
      share.staged.push(jout);
      share.job.output = jout;
      share.stageOut = (q0, c, from) => dst.set(from.subarray(q0 * outLen, (q0 + c) * outLen), q0 * outLen);
    }
    return share;
  });
  // Values a row moves, in complex elements (the pieces' size measure).
  const elements = Math.max(inLen, outLen) / 2;
  const mainPieces = mainCut(list, mainCount, elements, unit).map(
    ([q0, c]) =>
      () =>
        runRows(op, input.subarray(q0 * inLen, (q0 + c) * inLen), output.subarray(q0 * outLen, (q0 + c) * outLen), c),
  );
  await runShares(p, list, unit, elements, mainPieces);
}
