/**
 * The measurement behind the planner's four-step threshold (src/planner/cpu-features.ts: fourStepFromBytes): the
 * first time a 2·3·5-smooth problem of 1.5–16 MiB is planned, the calling thread times the two recipes on one
 * 4 MiB f32 problem (2^19 points, where the two machines measured differ most: 0.85 against 1.18 of the lane
 * passes' time) and keeps the faster for the whole range, both precisions. About 150–180 ms once a process, mostly
 * compiling the two modules (one of them is what the plan would compile anyway where its length is the probe's).
 * Importing this module registers it (src/index.ts does); worker threads take the calling thread's answer instead.
 */
import { FOUR_STEP_EARLY_BYTES, FOUR_STEP_LATE_BYTES, registerFourStepMeasure } from '../../planner/cpu-features.js';
import { fourStepRivals } from '../../planner/cpu-fft.js';
import { engineFftOf, type EngineFft } from './wasm-fft.js';

/** Points of the problem timed (f32: 4 MiB). */
const PROBE_N = 1 << 19;
/** Timed calls of each recipe, alternating, after one untimed call each (compilation, first touch of memory). */
const PROBE_ROUNDS = 3;

/**
 * The threshold this machine favours, or undefined where the probe cannot run here: a browser's main thread that
 * refuses to compile large modules in place (SyncCompileRefused), or a runtime that refuses the memory. The
 * measurement is optional, so that gives the default bound, never a failed plan.
 */
export function measureFourStepFrom(): number | undefined {
  try {
    const r = fourStepRivals(PROBE_N, 'f32');
    const four = engineFftOf(r.fourStep);
    const lanes = engineFftOf(r.lanes);
    const x = new Float32Array(2 * PROBE_N);
    for (let i = 0; i < x.length; i++) x[i] = ((i * 7919) % 1024) / 1024 - 0.5;
    const y = new Float32Array(2 * PROBE_N);
    const time = (f: EngineFft): number => {
      const t0 = performance.now();
      f.execute(x, y);
      return performance.now() - t0;
    };
    time(four);
    time(lanes);
    let bestFour = Infinity;
    let bestLanes = Infinity;
    for (let i = 0; i < PROBE_ROUNDS; i++) {
      bestFour = Math.min(bestFour, time(four));
      bestLanes = Math.min(bestLanes, time(lanes));
    }
    // A tie goes to the lane passes: on engine buffers they measured faster on both machines.
    return bestFour < bestLanes ? FOUR_STEP_EARLY_BYTES : FOUR_STEP_LATE_BYTES;
  } catch {
    return undefined;
  }
}

registerFourStepMeasure(measureFourStepFrom);
