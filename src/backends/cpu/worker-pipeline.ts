/**
 * The protocols between the calling thread and a worker that run on shared counters rather than messages. Waking
 * a thread that sleeps (its event loop, or a futex) takes 40-90 µs on a small VM, as long as a share of a
 * millisecond's call; a thread that has just finished, or is about to be needed, spins briefly instead. Their own
 * module, so the worker entry does not bundle the pool.
 *
 * A staged share (see runShares in worker-pool.ts): the worker runs piece i once ctrl[STAGED] > i, then sets
 * ctrl[DONE] = i + 1, so the calling thread copies the next piece in, and finished pieces out, while the worker
 * computes. ctrl[ABORT] = 1: the calling thread failed; the worker stops waiting. ctrl[SLEEPING] = 1 while the
 * worker waits on the futex (the calling thread then notifies), else it is spinning and sees the store.
 */
export interface Pipeline {
  ctrl: Int32Array;
  /** [first problem, count] of each piece, relative to the share. */
  pieces: [number, number][];
}

export const STAGED = 0,
  DONE = 1,
  ABORT = 2,
  SLEEPING = 3;
/** Int32 words of a pipeline's ctrl. */
export const PIPELINE_WORDS = 4;

/**
 * A Node worker's lane (worker-pool.ts spawn): jobs and replies go through a MessageChannel of its own, which the
 * side spinning for them reads synchronously (receiveMessageOnPort); lane[POSTED] counts the jobs posted on it,
 * lane[ANSWERED] the replies, each bumped after its message is on the port.
 */
export const POSTED = 0,
  ANSWERED = 1;
export const LANE_WORDS = 2;

/** How long a worker spins for a staged piece before it sleeps on the futex (a piece takes microseconds to copy). */
export const PIECE_SPIN_MS = 0.2;
/** How long a worker spins for its next job after one, before it goes back to its event loop. */
export const JOB_SPIN_MS = 0.5;

/** Reads ctrl[i] until it differs from `seen` or performance.now() reaches `until`; returns the last value read. */
export function spinWhileEqual(ctrl: Int32Array, i: number, seen: number, until: number): number {
  let v = Atomics.load(ctrl, i);
  while (v === seen && performance.now() < until) v = Atomics.load(ctrl, i);
  return v;
}

/** The worker's wait for piece `i` of a staged share: spins, then sleeps on the futex with ctrl[SLEEPING] set. */
export function awaitPiece(ctrl: Int32Array, i: number): void {
  const until = performance.now() + PIECE_SPIN_MS;
  for (let staged = Atomics.load(ctrl, STAGED); staged <= i; staged = Atomics.load(ctrl, STAGED)) {
    if (spinWhileEqual(ctrl, STAGED, staged, until) !== staged) continue;
    // Set before the futex's own check of STAGED: a piece stored after this reads SLEEPING = 1 and notifies.
    Atomics.store(ctrl, SLEEPING, 1);
    Atomics.wait(ctrl, STAGED, staged);
    Atomics.store(ctrl, SLEEPING, 0);
  }
}

/** The calling thread's side: piece count `staged` is ready; wakes the worker only where it sleeps. */
export function markStaged(ctrl: Int32Array, staged: number): void {
  Atomics.store(ctrl, STAGED, staged);
  if (Atomics.load(ctrl, SLEEPING)) Atomics.notify(ctrl, STAGED);
}
