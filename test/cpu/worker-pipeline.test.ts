/**
 * The shared-counter waits between the calling thread and a worker (src/backends/cpu/worker-pipeline.ts): a wait
 * that times out returns the value it saw, a wait that another thread's signal ends returns the new value whether
 * the signal came while it spun or while it slept, and the sleep flag is down again afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { awaitChange, signal, SPIN_MS } from '../../src/backends/cpu/worker-pipeline.js';

const VALUE = 0,
  FLAG = 1;

test('awaitChange returns the value it saw when the time runs out, and leaves the flag down', () => {
  const ctrl = new Int32Array(new SharedArrayBuffer(8));
  ctrl[VALUE] = 7;
  const t0 = performance.now();
  assert.equal(awaitChange(ctrl, VALUE, 7, FLAG, t0 + 20), 7);
  assert.ok(performance.now() - t0 >= 19, 'waited until the limit');
  assert.equal(ctrl[FLAG], 0);
  // A value that already differs returns at once.
  assert.equal(awaitChange(ctrl, VALUE, 3, FLAG, t0 + 10_000), 7);
});

test("awaitChange wakes on another thread's signal, during the spin or the sleep", async () => {
  // The worker signals after `delay` ms: 0 lands in the spin, 30 long after it, in the futex sleep.
  for (const delay of [0, 30]) {
    const ctrl = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const ctrl = new Int32Array(workerData.buffer);
       const until = performance.now() + workerData.delay;
       while (performance.now() < until);
       Atomics.store(ctrl, ${VALUE}, 1);
       if (Atomics.load(ctrl, ${FLAG})) Atomics.notify(ctrl, ${VALUE});`,
      { eval: true, workerData: { buffer: ctrl.buffer, delay } },
    );
    const t0 = performance.now();
    const got = awaitChange(ctrl, VALUE, 0, FLAG, t0 + 10_000);
    const waited = performance.now() - t0;
    await worker.terminate();
    assert.equal(got, 1, `delay ${delay}: the new value`);
    assert.ok(waited < 5_000, `delay ${delay}: woken, not timed out (${waited} ms)`);
    if (delay > 0) assert.ok(waited >= delay - 1, `delay ${delay}: waited for it (${waited} ms)`);
    assert.equal(ctrl[FLAG], 0, `delay ${delay}: flag down`);
  }
  assert.ok(SPIN_MS < 30, 'the second case sleeps');
});

test('signal stores or adds, and notifies a sleeper', async () => {
  const ctrl = new Int32Array(new SharedArrayBuffer(8));
  signal(ctrl, VALUE, FLAG);
  signal(ctrl, VALUE, FLAG);
  assert.equal(ctrl[VALUE], 2, 'adds 1 without a value');
  signal(ctrl, VALUE, FLAG, 9);
  assert.equal(ctrl[VALUE], 9, 'stores a value');
  // A worker sleeping on VALUE (flag up) is woken by signal from here.
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const ctrl = new Int32Array(workerData);
     Atomics.store(ctrl, ${FLAG}, 1);
     parentPort.postMessage('sleeping');
     const r = Atomics.wait(ctrl, ${VALUE}, 9, 10000);
     parentPort.postMessage(r);`,
    { eval: true, workerData: ctrl.buffer },
  );
  const messages: string[] = [];
  const done = new Promise<void>((resolve) =>
    worker.on('message', (m: string) => {
      messages.push(m);
      if (messages.length === 2) resolve();
    }),
  );
  while (messages.length === 0) await new Promise((r) => setTimeout(r, 1));
  // The worker may not be in the futex yet: 'not-equal' then says the store came first, also a correct outcome.
  await new Promise((r) => setTimeout(r, 20));
  signal(ctrl, VALUE, FLAG, 10);
  await done;
  await worker.terminate();
  assert.ok(['ok', 'not-equal'].includes(messages[1]!), `woken, not timed out: ${messages[1]}`);
});
