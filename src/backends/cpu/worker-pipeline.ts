/**
 * The protocols between the calling thread and a worker that run on shared counters rather than messages. Waking
 * a thread that sleeps (its event loop, or a futex) takes 40-90 µs on a small VM, as long as a share of a
 * millisecond's call; a thread that is about to be needed spins briefly first, then sleeps on the futex with a flag
 * set that tells the other side to notify it. Spins stay short: with both cores taken, a third thread (the
 * runtime's collector or compiler) preempts one that computes, and long spins made a tenth of two-thread calls take
 * twice as long. Their own module, so the worker entry does not bundle the pool.
 *
 * A staged share (see runShares in worker-pool.ts): the worker runs piece i once ctrl[STAGED] > i, then sets
 * ctrl[DONE] = i + 1, so the calling thread copies the next piece in, and finished pieces out, while the worker
 * computes. ctrl[ABORT] = 1: the calling thread failed; the worker stops waiting.
 */
export interface Pipeline {
  ctrl: Int32Array;
  /** [first problem, count] of each piece, relative to the share. */
  pieces: [number, number][];
}

export const STAGED = 0,
  DONE = 1,
  ABORT = 2,
  /** Set while the worker sleeps on STAGED. */
  WORKER_SLEEPS = 3,
  /** Set while the calling thread sleeps on DONE. */
  CALLER_SLEEPS = 4;
/** Int32 words of a pipeline's ctrl. */
export const PIPELINE_WORDS = 5;

/**
 * A Node worker's lane (worker-pool.ts spawn): jobs and replies go through a MessageChannel of its own, which the
 * side waiting for them reads synchronously (receiveMessageOnPort); lane[POSTED] counts the jobs posted on it,
 * lane[ANSWERED] the replies, each bumped after its message is on the port; lane[LANE_CALLER_SLEEPS] is set while
 * the calling thread sleeps on ANSWERED.
 */
export const POSTED = 0,
  ANSWERED = 1,
  LANE_CALLER_SLEEPS = 2;
export const LANE_WORDS = 3;

/** How long a thread spins for a counter before it sleeps on the futex. */
export const SPIN_MS = 0.05;
/** How long a worker spins for its next job after one, before it goes back to its event loop. */
export const JOB_SPIN_MS = 0.1;

/** Reads ctrl[i] until it differs from `seen` or performance.now() reaches `until`; returns the last value read. */
export function spinWhileEqual(ctrl: Int32Array, i: number, seen: number, until: number): number {
  let v = Atomics.load(ctrl, i);
  while (v === seen && performance.now() < until) v = Atomics.load(ctrl, i);
  return v;
}

/** Whether this thread may sleep on a futex: not a browser's main thread, nor one that, like it, refuses to block. */
const CAN_BLOCK = (() => {
  try {
    // Refused threads throw before the value is compared; elsewhere this returns 'not-equal' at once.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
})();

/**
 * Waits until ctrl[i] differs from `seen`, or performance.now() reaches `until` (default: no limit): spins SPIN_MS,
 * then sleeps with ctrl[flag] set (where this thread may not sleep, it spins until `until`). Returns the last value
 * read.
 */
export function awaitChange(ctrl: Int32Array, i: number, seen: number, flag: number, until = Infinity): number {
  let v = spinWhileEqual(ctrl, i, seen, Math.min(until, performance.now() + SPIN_MS));
  if (!CAN_BLOCK) return v === seen ? spinWhileEqual(ctrl, i, seen, until) : v;
  while (v === seen) {
    const left = until - performance.now();
    if (left <= 0) break;
    // Set before the futex checks ctrl[i]: a store after this reads the flag and notifies.
    Atomics.store(ctrl, flag, 1);
    Atomics.wait(ctrl, i, seen, left);
    Atomics.store(ctrl, flag, 0);
    v = Atomics.load(ctrl, i);
  }
  return v;
}

/** Stores ctrl[i] = value (or adds 1 when value is undefined), waking the other side where ctrl[flag] says it sleeps. */
export function signal(ctrl: Int32Array, i: number, flag: number, value?: number): void {
  if (value === undefined) Atomics.add(ctrl, i, 1);
  else Atomics.store(ctrl, i, value);
  if (Atomics.load(ctrl, flag)) Atomics.notify(ctrl, i);
}
