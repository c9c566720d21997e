/**
 * The measured choice between sharing a call out among threads and running it on the calling thread, for calls
 * left at the default `threads`: the rule (first time of each way dropped, a split kept only where clearly faster),
 * and calls of every kind of memory that give the same bits whichever way each trial takes, before and after the
 * choice, one at a time and concurrently, and after a worker failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { decideSplit, resetSplitChoices, splitChoices, SplitChooser } from '../../src/planner/thread-choice.js';
import { injectWorkerFault, MIN_SHARE_ELEMENTS } from '../../src/backends/cpu/worker-pool.js';
import { createFftPlan, dct, disposeCpuWorkers, rfft, WorkerError } from '../../src/index.js';
import { rng, assertSame } from '../helpers/numeric.js';

test.after(() => disposeCpuWorkers());

/** The default threads split only where there are two cores or more. */
const skip = availableParallelism() < 2 ? 'one core: the default never splits' : false;

test('decideSplit: undecided until both ways have three times; the best of each compared; near ties go to one thread', () => {
  assert.equal(decideSplit([1, 1], [2, 2, 2]), undefined, 'two split times: undecided');
  assert.equal(decideSplit([1, 1, 1], [2, 2, 2]), 'split');
  assert.equal(decideSplit([2, 2, 2], [1, 1, 1]), 'single');
  assert.equal(decideSplit([1.9, 5, 5], [2, 2, 2]), 'split', 'the best time of each counts');
  // Within 5%: the calling thread alone (it leaves the other cores free).
  assert.equal(decideSplit([0.97, 1, 1], [1, 1, 1]), 'single');
  assert.equal(decideSplit([0.94, 1, 1], [1, 1, 1]), 'split');
});

/** Drives a chooser for `calls` calls whose times come from `ms(way, call)`; returns the ways taken. */
function drive(c: SplitChooser, calls: number, ms: (way: string, call: number) => number): string[] {
  const ways: string[] = [];
  for (let i = 0; i < calls; i++) {
    const step = c.next();
    ways.push(step.mode);
    c.record(step, ms(step.mode, i));
  }
  return ways;
}

const S = 'split',
  O = 'single';

test('SplitChooser: runs of three calls each way from the split, the first of a run not counted, then the faster', () => {
  const c = new SplitChooser();
  const ways = drive(c, 12, (way) => (way === S ? 1 : 2));
  assert.deepEqual(ways, [S, S, S, O, O, O, S, S, S, O, O, O]);
  assert.equal(c.chosen, S);
  assert.deepEqual(
    drive(c, 10, () => 1),
    new Array(10).fill(S),
    'then the chosen way',
  );
  // The first call of each run, far off either way, is not counted.
  const d = new SplitChooser();
  drive(d, 12, (way, i) => (i % 3 === 0 ? 0.01 : way === S ? 3 : 2));
  assert.equal(d.chosen, O);
});

test('SplitChooser: a split that was cold at first is tried again and taken once faster; tries back off', () => {
  const c = new SplitChooser();
  // The split runs at 4 ms for its first six calls (a cold worker), then at 1; one thread always at 2.
  let splits = 0;
  const ways = drive(c, 300, (way) => (way === S ? (++splits <= 6 ? 4 : 1) : 2));
  assert.equal(ways.slice(0, 12).filter((w) => w === S).length, 6);
  assert.equal(c.chosen, S, 'taken after a later run');
  const tries = ways.slice(100).filter((w) => w === O).length;
  assert.ok(tries >= 3 && tries <= 9, `one thread tried now and then, backing off: ${tries} of 200 calls`);
  // And back when the split turns slower (the machine got busy): its latest times age out.
  const later = drive(c, 800, (way) => (way === S ? 3 : 2));
  assert.equal(c.chosen, O);
  assert.deepEqual(new Set(later.slice(5, 15)), new Set([O]), 'one thread from the fifth slow split on');
  assert.ok(later.slice(400).filter((w) => w === S).length <= 3, 'the split tried less and less often');
});

test(
  'default threads: every trial and the chosen way give the bits of one thread, plans and one-shot rows',
  { skip },
  async () => {
    resetSplitChoices();
    const n = 1024;
    const batch = Math.ceil((2 * MIN_SHARE_ELEMENTS) / n) + 3;
    const x = new Float32Array(2 * n * batch).map(rng(11));
    const one = await (await createFftPlan({ n, batch, backend: 'cpu', threads: 1 })).execute(x);
    const plan = await createFftPlan({ n, batch, backend: 'cpu' });
    const shared = new Float32Array(new SharedArrayBuffer(x.byteLength));
    shared.set(x);
    const real = x.subarray(0, n * batch);
    const realOne = await rfft(real, { shape: [batch, n], backend: 'cpu', threads: 1 });
    const dctOne = await dct(real, { shape: [batch, n], backend: 'cpu', threads: 1 });
    for (let call = 0; call < 14; call++) {
      assertSame(await plan.execute(x), one, `ordinary arrays, call ${call}`);
      assertSame(await plan.execute(shared), one, `shared input, call ${call}`);
      assertSame(await rfft(real, { shape: [batch, n], backend: 'cpu' }), realOne, `rfft rows, call ${call}`);
      assertSame(await dct(real, { shape: [batch, n], backend: 'cpu' }), dctOne, `dct rows, call ${call}`);
    }
    const choices = Object.entries(splitChoices());
    assert.equal(choices.length, 4, `one shape per kind of call: ${JSON.stringify(choices)}`);
    for (const [key, way] of choices) assert.ok(way === 'split' || way === 'single', `${key}: ${way} after 14 calls`);
  },
);

test(
  'default threads: concurrent calls are not timed, and a worker failure in a trial leaves the choice going',
  { skip },
  async () => {
    resetSplitChoices();
    const n = 4096;
    const batch = 64;
    const x = new Float32Array(2 * n * batch).map(rng(12));
    const one = await (await createFftPlan({ n, batch, backend: 'cpu', threads: 1 })).execute(x);
    const plan = await createFftPlan({ n, batch, backend: 'cpu' });
    // Twelve at once: none runs alone, so none is kept.
    const all = await Promise.all(Array.from({ length: 12 }, () => plan.execute(x)));
    for (const r of all) assertSame(r, one, 'concurrent call');
    assert.deepEqual(Object.values(splitChoices()), ['measuring']);
    // The first trial splits (it goes first): a failing worker rejects it, and the trials go on afterwards.
    resetSplitChoices();
    await plan.execute(x);
    resetSplitChoices();
    injectWorkerFault('throw');
    await assert.rejects(plan.execute(x), WorkerError);
    for (let call = 0; call < 14; call++) assertSame(await plan.execute(x), one, `after the failure, call ${call}`);
    const [way] = Object.values(splitChoices());
    assert.ok(way === 'split' || way === 'single', `chosen after the failure: ${way}`);
  },
);
