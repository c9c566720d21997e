/**
 * Threads for the CPU engine: a lazily created, reused pool of workers (worker_threads in Node, module
 * Web Workers in browsers) that run shares of a batched FFT while the calling thread runs one share
 * itself. Data goes through SharedArrayBuffers where they exist (Node; browsers only when the page is
 * cross-origin isolated), otherwise as transferred copies of each share.
 *
 * Workers are unref()ed in Node while idle, so they never keep a process alive; disposeCpuWorkers()
 * terminates them. A failure inside a worker rejects the call with a WorkerError and the worker is
 * replaced on the next call.
 */
import { ArgumentError, WorkerError } from '../../errors.js';
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import type { FftNorm } from '../../planner/fft-problem.js';
import { checkFits } from './fft-mixed-radix.js';
import { engineFft, type EngineExecOptions } from './wasm-fft.js';
import { rowLengths, runRows, type RowOp } from './engine-rows.js';

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
  fault?: WorkerFault;
}

/** A worker's answer: the arrays (sent back when they were transferred), or the error it caught. */
export interface FftReply {
  id: number;
  input?: AnyArray;
  output?: AnyArray;
  error?: { name: string; message: string };
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

/** The calling thread's share relative to a worker's: it also gathers and scatters the workers' copies. */
const MAIN_WEIGHT = 1;

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

function sharedMemory(): boolean {
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
}

class Slot {
  readonly pending = new Map<number, Pending>();
  dead = false;
  constructor(
    readonly thread: Thread,
    private readonly onDead: (s: Slot) => void,
  ) {}
  run(job: FftJob, transfer: ArrayBuffer[]): Promise<FftReply> {
    return new Promise<FftReply>((resolve, reject) => {
      if (this.dead) return reject(new WorkerError('FFT worker is no longer running'));
      if (this.pending.size === 0) this.thread.hold(true);
      this.pending.set(job.id, { resolve, reject });
      try {
        this.thread.post(job, transfer);
      } catch (e) {
        this.settle(job.id);
        reject(new WorkerError(`could not post an FFT share to a worker: ${(e as Error).message}`, { cause: e }));
      }
    });
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

type NodeWorkerCtor = typeof import('node:worker_threads').Worker;
let nodeWorker: Promise<NodeWorkerCtor> | null = null;

async function spawn(onDead: (s: Slot) => void): Promise<Slot> {
  if (isNode) {
    nodeWorker ??= import(/* @vite-ignore */ 'node:worker_threads' as string).then(
      (m: typeof import('node:worker_threads')) => m.Worker,
    );
    const W = await nodeWorker;
    // Flags that name the main entry (--input-type with -e, say) would make the worker entry fail to load.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type') && a !== '-e' && a !== '--eval');
    const w = new W(workerUrl(), { execArgv });
    w.unref();
    const slot: Slot = new Slot(
      {
        post: (job, t) => w.postMessage(job, t),
        hold: (on) => (on ? w.ref() : w.unref()),
        terminate: () => w.terminate(),
      },
      onDead,
    );
    w.on('message', (r: FftReply) => slot.message(r));
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

  run(slot: Slot, job: Omit<FftJob, 'id'>): Promise<FftReply> {
    const full: FftJob = { ...job, id: this.nextId++ };
    if (this.fault) {
      full.fault = this.fault;
      this.fault = undefined;
    }
    const transfer: ArrayBuffer[] = [];
    for (const a of [job.input, job.output])
      if (a.buffer instanceof ArrayBuffer && !transfer.includes(a.buffer)) transfer.push(a.buffer);
    return slot.run(full, transfer);
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
 * workers then write directly (no copy back on the calling thread).
 */
export function allocateLike<T extends AnyArray>(input: T, length: number): T {
  const Arr = input.constructor as {
    new (b: ArrayBufferLike, o: number, l: number): T;
    new (l: number): T;
    BYTES_PER_ELEMENT: number;
  };
  return isShared(input) ? new Arr(new SharedArrayBuffer(length * Arr.BYTES_PER_ELEMENT), 0, length) : new Arr(length);
}

let pool: WorkerPool | null = null;

/** Terminates the CPU engine's worker threads (new ones start on the next threaded call). */
export async function disposeCpuWorkers(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.dispose();
}

/** Tests only: make the next job posted to a worker fail in the given way. */
export function injectWorkerFault(fault: WorkerFault): void {
  (pool ??= new WorkerPool()).fault = fault;
}

/** How many ways a batch is worth splitting (1: run on the calling thread only). */
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

/** Batch ranges: the calling thread takes [0, mainCount), weighted by MAIN_WEIGHT; workers the rest. */
function splitBatch(batch: number, shares: number): { mainCount: number; ranges: [number, number][] } {
  const mainCount = Math.max(1, Math.round((batch * MAIN_WEIGHT) / (MAIN_WEIGHT + shares - 1)));
  const ranges: [number, number][] = [];
  for (let i = 0, b = mainCount; i < shares - 1; i++) {
    const e = i === shares - 2 ? batch : b + Math.round((batch - mainCount) / (shares - 1));
    ranges.push([b, e]);
    b = e;
  }
  return { mainCount, ranges };
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
  if (threads === 1 || shareCount(n, batch, Infinity) <= 1) return plan.execute(input, output, options);
  const shares = shareCount(n, batch, threads ?? (await defaultThreads()));
  if (shares <= 1) return plan.execute(input, output, options);
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

  const { mainCount, ranges } = splitBatch(batch, shares);
  const aliased = input.buffer === output.buffer;
  const sameLayout = li.offset === lo.offset && li.stride === lo.stride && li.dist === lo.dist;
  // Workers read a shared input directly unless the calling thread could overwrite it first (aliased, other layout).
  const directIn = isShared(input) && (!aliased || sameLayout);
  const directOut = isShared(output);
  const base = { n, precision, inverse: options.inverse ?? false, norm: options.norm, scaleBy: options.scaleBy };
  const compact = (): Layout => ({ offset: 0, stride: 1, dist: n });
  const jobs: { b0: number; count: number; reply: Promise<FftReply>; outLayout: Layout; staged: AnyArray[] }[] = [];
  for (let i = 0; i < ranges.length; i++) {
    const [b0, b1] = ranges[i]!;
    const count = b1 - b0;
    if (count <= 0) continue;
    const staged: AnyArray[] = [];
    let jin: AnyArray = input;
    let inLayout = shifted(li, b0);
    if (!directIn) {
      jin = p.staging(input.constructor as typeof Float32Array, 2 * n * count);
      copyProblems(input, inLayout, jin, compact(), n, count);
      inLayout = compact();
      staged.push(jin);
    }
    let jout: AnyArray = output;
    let outLayout = shifted(lo, b0);
    if (!directOut) {
      // Transform the staged copy in place when the types agree; else a second staging array.
      const inPlace = !directIn && jin.constructor === output.constructor;
      jout = inPlace ? jin : p.staging(output.constructor as typeof Float32Array, 2 * n * count);
      if (jout !== jin) staged.push(jout);
      outLayout = compact();
    }
    const reply = p.run(slots[i]!, { ...base, batch: count, input: jin, inLayout, output: jout, outLayout });
    jobs.push({ b0, count, reply, outLayout, staged });
  }
  await finishShares(
    p,
    jobs,
    () => plan.execute(input, output, { ...options, batch: mainCount, input: li, output: lo }),
    (j, out) => {
      if (!directOut) copyProblems(out, j.outLayout, output, shifted(lo, j.b0), n, j.count);
    },
  );
}

/**
 * Runs the calling thread's share, waits for every worker's (even after a failure: a worker may still be
 * writing into the output), throws the first error, then hands each reply's output to `collect` and returns
 * the staging buffers to the pool.
 */
async function finishShares<J extends { reply: Promise<FftReply>; staged: AnyArray[] }>(
  p: WorkerPool,
  jobs: J[],
  main: () => void,
  collect: (job: J, output: AnyArray) => void,
): Promise<void> {
  let mainError: unknown = null;
  try {
    main();
  } catch (e) {
    mainError = e;
  }
  const settled = await Promise.allSettled(jobs.map((j) => j.reply));
  if (mainError) throw mainError;
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  settled.forEach((s, i) => {
    const j = jobs[i]!;
    const r = (s as PromiseFulfilledResult<FftReply>).value;
    collect(j, r.output!);
    // Transferred arrays come back as new objects over the returned buffers; shared ones are the same memory.
    for (const a of [r.input, r.output]) if (a && !isShared(a)) p.release(a);
    for (const a of j.staged) if (isShared(a)) p.release(a);
  });
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
  if (threads === 1 || shareCount(op.n, rows, Infinity) <= 1) return runRows(op, input, output, rows);
  // Real FFTs pair rows in one complex transform: shares of whole pairs keep results bit-identical.
  const unit = op.kind === 'dct2' || op.kind === 'dct3' ? 1 : 2;
  const shares = Math.min(shareCount(op.n, rows, threads ?? (await defaultThreads())), Math.ceil(rows / unit));
  if (shares <= 1) return runRows(op, input, output, rows);
  const [inLen, outLen] = rowLengths(op);
  const p = (pool ??= new WorkerPool());
  const slots = await p.acquire(shares - 1);
  const split = splitBatch(Math.ceil(rows / unit), shares);
  const mainCount = Math.min(rows, unit * split.mainCount);
  const ranges = split.ranges.map(([a, b]) => [unit * a, Math.min(rows, unit * b)] as [number, number]);
  const compact: Layout = { offset: 0, stride: 1, dist: op.n };
  const jobs = ranges.map(([b0, b1], i) => {
    const count = b1 - b0;
    let jin = input.subarray(b0 * inLen, b1 * inLen);
    if (!isShared(input)) {
      const staged = p.staging(input.constructor as typeof Float32Array, count * inLen);
      staged.set(jin);
      jin = staged;
    }
    const dst = output.subarray(b0 * outLen, b1 * outLen);
    const jout = isShared(output) ? dst : p.staging(output.constructor as typeof Float32Array, count * outLen);
    const reply = p.run(slots[i]!, {
      n: op.n,
      precision: op.precision,
      inverse: op.kind === 'irfft',
      norm: op.norm,
      scaleBy: undefined,
      batch: count,
      input: jin,
      inLayout: compact,
      output: jout,
      outLayout: compact,
      rows: op,
    });
    return { dst, staged: [jin, jout].filter((a) => a.buffer !== input.buffer && a.buffer !== output.buffer), reply };
  });
  await finishShares(
    p,
    jobs,
    () => runRows(op, input.subarray(0, mainCount * inLen), output.subarray(0, mainCount * outLen), mainCount),
    (j, out) => {
      if (!isShared(output)) j.dst.set(out);
    },
  );
}
