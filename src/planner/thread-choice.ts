/**
 * Whether a batched call left at the default `threads` is shared out among worker threads or runs on the calling
 * thread alone, measured rather than assumed. A split pays only where a share's transform outweighs posting it,
 * waking a worker and, for arrays that are not shared, the calling thread's copies into and out of its staging
 * buffers; that balance differs by machine (an idle 16-core host breaks even near 2^16 elements a share, a 2-core VM
 * near 2^19 elements a call, and loses up to half its speed below: docs/DECISIONS.md, measured thread choice).
 *
 * The first calls of a shape take each way in turn, a few calls at a time, and are timed; the faster is then taken,
 * and the other is tried again now and then (after 16 calls, backing off to 512 while the choice holds), because
 * the first calls of a process run colder on a fresh worker than later ones, and a machine's load changes. Results
 * do not depend on the choice (shares are bit-identical to one thread), only the time does. A `threads` option
 * given explicitly is obeyed as it is and never measured.
 */

/** How a call runs: shared out among threads, or on the calling thread alone. */
export type SplitMode = 'split' | 'single';

/** Calls a run of one way takes while measuring (the first not counted). */
const RUN_CALLS = 3;
/** Counted times of each way needed before the first choice. */
const FIRST_TRIALS = 3;
/** Latest times of each way compared (their best): old ones age out when the machine's load changes. */
const WINDOW = 4;
/** A split must take at most this share of one thread's time to be kept: near a tie, one thread leaves the cores free. */
const SPLIT_MARGIN = 0.95;
/** Calls between tries of the way not chosen: from EXPLORE_FIRST, doubled while the choice holds, to EXPLORE_MOST. */
const EXPLORE_FIRST = 16;
const EXPLORE_MOST = 512;
/** Shapes remembered (the oldest forgotten first); a forgotten shape is measured again. */
const MAX_SHAPES = 1024;

/** The faster way by the best of each one's latest times, once both have FIRST_TRIALS; else undefined. */
export function decideSplit(split: readonly number[], single: readonly number[]): SplitMode | undefined {
  if (split.length < FIRST_TRIALS || single.length < FIRST_TRIALS) return undefined;
  return Math.min(...split) <= SPLIT_MARGIN * Math.min(...single) ? 'split' : 'single';
}

/** A call's way, and whether its time counts (the call before it took the same way). */
export interface SplitStep {
  readonly mode: SplitMode;
  readonly measured: boolean;
}

const other = (m: SplitMode): SplitMode => (m === 'split' ? 'single' : 'split');

/**
 * The measurements of one shape. Each way is timed in runs of RUN_CALLS calls whose first is not counted: a split
 * right after calls on the calling thread alone runs about 15% slower than one after another split (the worker
 * was asleep, its data cold), and a program that repeats a shape repeats the way it takes.
 */
export class SplitChooser {
  private readonly times: Record<SplitMode, number[]> = { split: [], single: [] };
  private calls = 0;
  private nextTry = 0;
  private interval = EXPLORE_FIRST;
  private run: SplitMode | undefined;
  private left = 0;
  private last: SplitMode | undefined;
  chosen: SplitMode | undefined;

  /** The way the next call takes. */
  next(): SplitStep {
    this.calls++;
    let mode: SplitMode;
    if (this.left > 0) {
      this.left--;
      mode = this.run!;
    } else if (!this.chosen || this.calls >= this.nextTry) {
      // Until chosen, runs of each way in turn, the split first (its worker's start-up falls in an uncounted call);
      // then now and then a run of the way not chosen.
      mode = this.chosen ? other(this.chosen) : this.run === 'split' ? 'single' : 'split';
      this.run = mode;
      this.left = RUN_CALLS - 1;
      // Until the run's times decide (if they never count, as when calls overlap, the next try comes anyway).
      if (this.chosen) this.nextTry = this.calls + RUN_CALLS + this.interval;
    } else mode = this.chosen;
    const measured = this.last === mode;
    this.last = mode;
    return { mode, measured };
  }

  /** A call's time (milliseconds); callers record only calls that ran alone. */
  record(step: SplitStep, ms: number): void {
    if (!step.measured) return;
    const list = this.times[step.mode];
    list.push(ms);
    if (list.length > WINDOW) list.shift();
    const before = this.chosen;
    const now = decideSplit(this.times.split, this.times.single);
    if (!now) return;
    this.chosen = now;
    // A changed choice is tried against soon; one that a whole run of the other way confirmed, less and less often.
    if (now !== before) this.interval = EXPLORE_FIRST;
    else if (step.mode !== before && this.left === 0) this.interval = Math.min(2 * this.interval, EXPLORE_MOST);
    else return;
    this.nextTry = this.calls + this.interval;
  }
}

const shapes = new Map<string, SplitChooser>();
/** Calls in flight, and how many have started: one overlapping another (Promise.all of calls) is not recorded. */
let inFlight = 0;
let started = 0;

/** A call about to run: the way it takes, and what finishTrial needs to time it. */
export interface Trial {
  readonly chooser: SplitChooser;
  readonly step: SplitStep;
  readonly start: number;
  /** Nothing else was in flight when it started (with `seq`, the count of calls started then). */
  readonly alone: boolean;
  readonly seq: number;
}

/**
 * The way the next call of a shape runs. `key` names everything that changes the balance: the operation, its
 * length and precision, the batch, the threads, and the kind of memory (ordinary, shared, engine buffers).
 */
export function startTrial(key: string): Trial {
  let chooser = shapes.get(key);
  if (!chooser) {
    chooser = new SplitChooser();
    shapes.set(key, chooser);
    if (shapes.size > MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
  }
  const alone = inFlight++ === 0;
  return { chooser, step: chooser.next(), start: performance.now(), alone, seq: ++started };
}

/** Ends a call started by startTrial (also after a failure, whose time is not recorded). */
export function finishTrial(trial: Trial, failed = false): void {
  const ms = performance.now() - trial.start;
  const alone = trial.alone && inFlight === 1 && started === trial.seq;
  inFlight--;
  if (alone && !failed) trial.chooser.record(trial.step, ms);
}

/** Every shape remembered, with its choice or 'measuring' (inspection, tests). */
export function splitChoices(): Record<string, SplitMode | 'measuring'> {
  return Object.fromEntries([...shapes].map(([key, c]) => [key, c.chosen ?? 'measuring']));
}

/** Forgets every measurement (tests; a program whose load changed). */
export function resetSplitChoices(): void {
  shapes.clear();
}
