/**
 * Fresh result buffers whose pages are already faulted in (Node). A one-shot call without `out` returns new memory,
 * and a first touch of a 4 KiB page costs microseconds: on the machines measured, a loop of `fft(x)` over 8–16 MiB
 * spent a third to half of its time faulting (docs/DECISIONS.md "Result pages faulted in on a worker"). Once a size
 * has been asked for twice, a worker thread of its own allocates buffers of that size, writes a byte of every
 * page and transfers them here; filledResult takes one from this stock when it has one. A size's stock is at most
 * two buffers, all sizes together at most STOCK_MAX_BYTES, and everything not taken for IDLE_MS is let go. The
 * worker never keeps the process alive; if it fails, results are allocated as before.
 */
import { setFreshBuffers } from '../../util/filled-result.js';
import { lruGet, lruSet } from '../../util/lru.js';
import { nodeWorkerThreads, startNodeWorker } from './node-worker.js';

/** Smaller results are reused by the allocator without faults, or fault too little to matter. */
const PREFAULT_FROM_BYTES = 1 << 20;
/** Bytes of all stocked and requested buffers together (a single size gets at most half). */
const STOCK_MAX_BYTES = 128 << 20;
const STOCK_DEPTH = 2;
/** The stock is let go when no result was asked for this long. */
const IDLE_MS = 1000;

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

interface PageWorker {
  post(bytes: number): void;
  /** A buffer that arrived, read off the channel at once: a loop of awaited calls may never yield to the event loop. */
  receive(): ArrayBuffer | undefined;
  terminate(): Promise<unknown>;
}

let worker: PageWorker | null = null;
let starting = false;
/** The worker failed: results are allocated on the calling thread until disposePrefaultedPages. */
let failed = false;
/** Buffers ready by size, sizes in the order last asked for (the first is evicted first). */
const stock = new Map<number, ArrayBuffer[]>();
/** Buffers requested from the worker and not yet arrived, by size. */
const inFlight = new Map<number, number>();
/** Sizes asked for once (a second request starts their stock); bounded. */
const askedOnce = new Set<number>();
let heldBytes = 0;
let lastTake = 0;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let stats = { taken: 0, received: 0 };

function depthOf(bytes: number): number {
  return Math.min(STOCK_DEPTH, Math.floor(STOCK_MAX_BYTES / 2 / bytes));
}

/** A buffer of exactly `bytes` with its pages faulted in, if the stock has one; arranges the next either way. */
function takePrefaulted(bytes: number): ArrayBuffer | undefined {
  if (!isNode || failed || bytes < PREFAULT_FROM_BYTES || depthOf(bytes) < 1) return undefined;
  lastTake = performance.now();
  idleTimer ??= armIdle(IDLE_MS);
  if (worker) {
    try {
      for (let b = worker.receive(); b; b = worker.receive()) received(b);
    } catch {
      // A runtime whose worker_threads cannot read a port synchronously: results are allocated here as before.
      void disposePrefaultedPages();
      failed = true;
      return undefined;
    }
  }
  const list = lruGet(stock, bytes);
  const buf = list?.pop();
  if (buf) {
    heldBytes -= bytes;
    stats.taken++;
  }
  if (list || askedOnce.has(bytes)) refill(bytes);
  else {
    if (askedOnce.size >= 64) askedOnce.clear();
    askedOnce.add(bytes);
  }
  return buf;
}

/** Requests buffers of `bytes` until the stock and those in flight reach its depth, evicting other sizes to fit. */
function refill(bytes: number): void {
  if (!stock.has(bytes)) lruSet(stock, bytes, [], Infinity);
  const want = depthOf(bytes) - stock.get(bytes)!.length - (inFlight.get(bytes) ?? 0);
  for (let i = 0; i < want; i++) {
    for (const [size, list] of stock) {
      if (heldBytes + bytes <= STOCK_MAX_BYTES || size === bytes) break;
      heldBytes -= size * list.length;
      stock.delete(size);
    }
    if (heldBytes + bytes > STOCK_MAX_BYTES) return;
    heldBytes += bytes;
    inFlight.set(bytes, (inFlight.get(bytes) ?? 0) + 1);
    if (worker) worker.post(bytes);
    else void start();
  }
}

function received(buf: ArrayBuffer): void {
  const bytes = buf.byteLength;
  inFlight.set(bytes, (inFlight.get(bytes) ?? 1) - 1);
  stats.received++;
  const list = stock.get(bytes);
  // A size evicted or let go meanwhile: dropped, and no longer counted.
  if (list) list.push(buf);
  else heldBytes -= bytes;
}

/** Lets the stock go once no result was asked for IDLE_MS. */
function armIdle(ms: number): ReturnType<typeof setTimeout> {
  const t = setTimeout(() => {
    const idle = performance.now() - lastTake;
    if (idle < IDLE_MS) idleTimer = armIdle(IDLE_MS - idle);
    else {
      idleTimer = null;
      letGo();
    }
  }, ms);
  (t as { unref?: () => void }).unref?.();
  return t;
}

function letGo(): void {
  stock.clear();
  askedOnce.clear();
  // Buffers in flight are dropped when they arrive (no stock list); their bytes count until then.
  heldBytes = 0;
  for (const [size, count] of inFlight) heldBytes += size * count;
}

async function start(): Promise<void> {
  if (starting || worker || failed) return;
  starting = true;
  try {
    const wt = await nodeWorkerThreads();
    if (typeof wt.receiveMessageOnPort !== 'function' || typeof wt.MessageChannel !== 'function')
      throw new Error('worker_threads without receiveMessageOnPort');
    // Built by string so that bundlers of the browser build do not pull in this Node-only entry.
    const entry = new URL(`./page-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);
    const { port1, port2 } = new wt.MessageChannel();
    const w = startNodeWorker(wt.Worker, entry, { workerData: { port: port2 }, transferList: [port2] });
    const fail = () => {
      failed = true;
      worker = null;
      inFlight.clear();
      letGo();
    };
    port1.on('message', received);
    w.on('error', fail);
    w.on('messageerror', fail);
    w.on('exit', () => {
      if (worker?.terminate === terminate) fail();
    });
    // After the listeners: adding one refs a port again.
    w.unref();
    port1.unref();
    const terminate = () => {
      port1.close();
      return w.terminate();
    };
    worker = {
      post: (bytes) => port1.postMessage(bytes),
      receive: () => wt.receiveMessageOnPort(port1)?.message as ArrayBuffer | undefined,
      terminate,
    };
    for (const [size, count] of inFlight) for (let i = 0; i < count; i++) worker.post(size);
  } catch {
    failed = true;
    inFlight.clear();
    letGo();
  } finally {
    starting = false;
  }
}

/** Terminates the page worker and lets the stock go (disposeCpuWorkers); a later call starts afresh. */
export async function disposePrefaultedPages(): Promise<void> {
  const w = worker;
  worker = null;
  failed = false;
  inFlight.clear();
  letGo();
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  await w?.terminate();
}

/** Tests only: buffers taken from the stock and received from the worker since the last call, and the bytes held. */
export function prefaultedPagesStats(): { taken: number; received: number; heldBytes: number; running: boolean } {
  const s = { ...stats, heldBytes, running: worker !== null };
  stats = { taken: 0, received: 0 };
  return s;
}

setFreshBuffers(takePrefaulted);
