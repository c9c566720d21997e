/**
 * Whether a batched call left at the default `threads` is shared out among worker threads or runs on the calling
 * thread alone, measured rather than assumed. A split pays only where a share's transform outweighs posting it,
 * waking a worker and, for arrays that are not shared, the calling thread's copies into and out of its staging
 * buffers; that balance differs by machine (an idle 16-core host breaks even near 2^16 elements a share, a 2-core VM
 * near 2^19 elements a call, and loses up to half its speed below: docs/DECISIONS.md, measured thread choice).
 *
 * The first calls of a shape alternate between the two ways and are timed; the faster then stays for that shape.
 * Results do not depend on the choice (shares are bit-identical to one thread), only the time does. A `threads`
 * option given explicitly is obeyed as it is and never measured.
 */

/** How a call runs: shared out among threads, or on the calling thread alone. */
export type SplitMode = 'split' | 'single';

/** Calls of each way timed before choosing, after the first of each (worker start-up, staging memory) is dropped. */
const KEPT_TRIALS = 3;
/** A split must take at most this share of one thread's time to be kept: near a tie, one thread leaves the cores free. */
const SPLIT_MARGIN = 0.95;
/** Shapes remembered (the oldest forgotten first); a forgotten shape is measured again. */
const MAX_SHAPES = 1024;

interface Trials {
  split: number[];
  single: number[];
  chosen?: SplitMode;
}

const shapes = new Map<string, Trials>();
/** Timed calls in flight, and how many have started: one overlapping another (Promise.all of calls) is not kept. */
let inFlight = 0;
let started = 0;

/** A call about to run: the way it takes, and whether its time is to be recorded with finishTrial. */
export interface Trial {
  readonly key: string;
  readonly mode: SplitMode;
  readonly timed: boolean;
  readonly start: number;
  /** Nothing else timed was running when it started (with `seq`, the count of trials started then). */
  readonly alone: boolean;
  readonly seq: number;
}

/**
 * The way the next call of a shape runs. `key` names everything that changes the balance: the operation, its
 * length and precision, the batch, the threads, and the kind of memory (ordinary, shared, engine buffers).
 */
export function startTrial(key: string): Trial {
  let t = shapes.get(key);
  if (!t) {
    t = { split: [], single: [] };
    shapes.set(key, t);
    if (shapes.size > MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
  }
  if (t.chosen) return { key, mode: t.chosen, timed: false, start: 0, alone: false, seq: 0 };
  // The split goes first, so that the worker's start-up falls in a dropped trial.
  const mode: SplitMode = t.split.length <= t.single.length ? 'split' : 'single';
  const alone = inFlight++ === 0;
  return { key, mode, timed: true, start: performance.now(), alone, seq: ++started };
}

/** Records a call started by startTrial (also after a failure, so that the in-flight count stays right). */
export function finishTrial(trial: Trial, failed = false): void {
  if (!trial.timed) return;
  const ms = performance.now() - trial.start;
  const alone = trial.alone && inFlight === 1 && started === trial.seq;
  inFlight--;
  const t = shapes.get(trial.key);
  if (!t || t.chosen || failed || !alone) return;
  t[trial.mode].push(ms);
  t.chosen = decideSplit(t.split, t.single);
}

/**
 * The faster way from the times of each (milliseconds, the first of each dropped), once both have KEPT_TRIALS
 * more; undefined until then.
 */
export function decideSplit(split: readonly number[], single: readonly number[]): SplitMode | undefined {
  if (split.length <= KEPT_TRIALS || single.length <= KEPT_TRIALS) return undefined;
  const best = (a: readonly number[]) => Math.min(...a.slice(1));
  return best(split) <= SPLIT_MARGIN * best(single) ? 'split' : 'single';
}

/** Every shape remembered, with its choice or 'measuring' (inspection, tests). */
export function splitChoices(): Record<string, SplitMode | 'measuring'> {
  return Object.fromEntries([...shapes].map(([key, t]) => [key, t.chosen ?? 'measuring']));
}

/** Forgets every measurement (tests; a program whose load changed). */
export function resetSplitChoices(): void {
  shapes.clear();
}
