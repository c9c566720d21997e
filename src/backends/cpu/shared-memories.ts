/**
 * Instances of kernel modules on the WebAssembly memories that calls run on, kept between calls (instantiating costs
 * more than a small call), and the lifetime of those memories across threads.
 *
 * The thread that makes a memory (the calling thread) keeps its instances weakly, by the memory object: they go when
 * the memory's owner (engine buffers, a plan) does. A worker gets a fresh memory object with every job, so it keeps
 * its instances by the memory's id; each holds the memory alive, so when the calling thread's memory object is
 * collected (or its owner is destroyed) the id is released and every worker drops its instances on it. Without
 * that, each worker kept the last few memories of every kind, engine buffers of any size included, until the
 * process ended. Dropping an instance early only costs a new one: a job carries its memory.
 *
 * V8 counts a shared memory's bytes towards no thread's collector (a store shared between threads would be counted
 * by each), so a memory dropped by its user does not make any thread collect, and a loop that makes threaded
 * engine buffers again and again grew without bound (300 MiB an iteration at 2^20 × 16 f32). Each shared memory
 * therefore comes with a ballast: an unshared ArrayBuffer as large, never touched (its zero pages are never
 * committed), that lives as long as the memory, so that the calling thread's collector sees its bytes; and a worker
 * told to release memories allocates one as large as they were and drops it, which makes it collect the objects
 * that held them.
 */

import { lruGet, lruSet } from '../../util/lru.js';

let nextId = 1;
/** Memories this thread made (their instances are kept by the memory object), with their ballasts. */
const own = new WeakMap<WebAssembly.Memory, ArrayBuffer | null>();
/** Bytes of the shared memories by id, for the workers' ballast on release. */
const sizes = new Map<number, number>();
/**
 * Smallest ballast: allocations from 32 MiB are mapped zero pages in the C libraries' allocators (glibc's largest
 * mmap threshold), where smaller ones may be cleared by hand, which commits them.
 */
const MIN_BALLAST_BYTES = 32 << 20;
/**
 * What a worker's ballast adds to the bytes released: V8 collects once external bytes pass those of its last
 * collection by 64 MiB, and a ballast of only the bytes of small memories never did (a loop of 8 MiB engine buffers
 * destroyed one after another grew by 16 MiB an iteration; with 64 or 128 MiB more it stayed near 130 MiB).
 */
const WORKER_BALLAST_BYTES = 128 << 20;

/** An untouched ArrayBuffer of at least `bytes` for the collector to count, or null where the runtime refuses it. */
function ballast(bytes: number): ArrayBuffer | null {
  try {
    return new ArrayBuffer(Math.max(MIN_BALLAST_BYTES, bytes));
  } catch {
    return null;
  }
}
const caches: SharedInstances<unknown>[] = [];
let broadcast: ((ids: number[], bytes: number) => void) | null = null;
let queued: number[] = [];

/** Releases queued ids in one message to the workers (collection reports them one at a time). */
function flush(): void {
  const ids = queued;
  queued = [];
  if (ids.length > 0) releaseSharedMemories(ids);
}

const collected =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<number>((id) => {
        if (queued.push(id) === 1) queueMicrotask(flush);
      })
    : null;

/**
 * Registers a memory this thread made and returns its id: instances on it are kept weakly here, and workers are told
 * to drop theirs once the memory object is collected (only a memory shared with workers can reach them).
 */
export function adoptMemory(memory: WebAssembly.Memory): number {
  const id = nextId++;
  const bytes = memory.buffer.byteLength;
  const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
  own.set(memory, shared ? ballast(bytes) : null);
  if (shared && collected) {
    sizes.set(id, bytes);
    collected.register(memory, id);
  }
  return id;
}

/** Drops this thread's instances kept by id on the memories `ids`. */
function forget(ids: readonly number[]): void {
  for (const c of caches) for (const id of ids) c.forget(id);
}

/** Drops every thread's instances on the memories `ids` (a plan that owns them was destroyed, or they were collected). */
export function releaseSharedMemories(ids: readonly number[]): void {
  forget(ids);
  let bytes = 0;
  for (const id of ids) {
    bytes += sizes.get(id) ?? 0;
    sizes.delete(id);
  }
  broadcast?.([...ids], bytes);
}

/**
 * A worker's side of a release: drops its instances on the memories, then allocates and drops a ballast larger than
 * they were (`bytes`), so that it collects the objects that still point to them.
 */
export function releaseInWorker(ids: readonly number[], bytes: number): void {
  forget(ids);
  if (ids.length > 0) ballast(bytes + WORKER_BALLAST_BYTES);
}

/** The worker pool's way of telling its workers (set by worker-pool.ts, which a worker does not load). */
export function setReleaseBroadcast(f: ((ids: number[], bytes: number) => void) | null): void {
  broadcast = f;
}

/** Instances kept by id on this thread, over every cache (tests: what a worker still holds). */
export function heldInstances(): number {
  return caches.reduce((s, c) => s + c.size, 0);
}

/** One kind of instance on memories (a module-level cache per kind; keys are memories, values what calls need). */
export class SharedInstances<T> {
  private readonly weak = new WeakMap<WebAssembly.Memory, T>();
  private readonly byId = new Map<number, T>();
  /** At most `max` kept by id: a bound for memories whose release never arrives (a worker that missed it). */
  constructor(private readonly max: number) {
    caches.push(this as SharedInstances<unknown>);
  }
  get(id: number, memory: WebAssembly.Memory): T | undefined {
    return own.has(memory) ? this.weak.get(memory) : lruGet(this.byId, id);
  }
  set(id: number, memory: WebAssembly.Memory, v: T): void {
    if (own.has(memory)) this.weak.set(memory, v);
    else lruSet(this.byId, id, v, this.max);
  }
  /** The instance on a memory, made by `make` the first time. */
  of(id: number, memory: WebAssembly.Memory, make: () => T): T {
    let v = this.get(id, memory);
    if (v === undefined) this.set(id, memory, (v = make()));
    return v;
  }
  forget(id: number): void {
    this.byId.delete(id);
  }
  /** Drops the instances kept by id (those kept by memory go with their memories). */
  clear(): void {
    this.byId.clear();
  }
  get size(): number {
    return this.byId.size;
  }
}
