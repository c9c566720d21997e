/**
 * The protocol of a staged share between the calling thread and a worker (see runShares in worker-pool.ts):
 * the worker runs piece i once ctrl[STAGED] > i, then sets ctrl[DONE] = i + 1, so the calling thread copies the
 * next piece in, and finished pieces out, while the worker computes. ctrl[ABORT] = 1: the calling thread
 * failed; the worker stops waiting. Its own module, so the worker entry does not bundle the pool.
 */
export interface Pipeline {
  ctrl: Int32Array;
  /** [first problem, count] of each piece, relative to the share. */
  pieces: [number, number][];
}

export const STAGED = 0,
  DONE = 1,
  ABORT = 2;
