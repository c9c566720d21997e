/**
 * Worker entry of the CPU engine's thread pool (worker_threads in Node, a module Web Worker in browsers):
 * runs one share of a batched FFT with the same engine plan the calling thread uses, so results are
 * bit-identical to a single-threaded call. Arrays arrive either as views of SharedArrayBuffers (read and
 * written in place) or as transferred copies, which are sent back transferred.
 */
import { engineFft, forgetEnginePlans } from './wasm-fft.js';
import { knownFourStepFrom, setFourStepFromBytes } from '../../planner/cpu-features.js';
import { rowLengths, runRows } from './engine-rows.js';
import type { FftJob, FftReply } from './worker-pool.js';
import {
  ABORT,
  ANSWERED,
  awaitChange,
  CALLER_SLEEPS,
  DONE,
  JOB_SPIN_MS,
  LANE_CALLER_SLEEPS,
  POSTED,
  signal,
  spinWhileEqual,
  STAGED,
  WORKER_SLEEPS,
} from './worker-pipeline.js';
import { runPhase } from './fft-split.js';
import { runPlaneStep } from './fft-2d.js';
import { runColumnsPart } from './fft-columns-axis.js';
import { runThomasPart } from './tridiagonal-kernel.js';
import { heldInstances, releaseInWorker } from './shared-memories.js';

type AnyArray = Float32Array | Float64Array;

interface Port {
  post(reply: FftReply, transfer: ArrayBuffer[]): void;
}

function run(job: FftJob): { reply: FftReply; transfer: ArrayBuffer[] } | null {
  if (job.fourStepFrom !== undefined && job.fourStepFrom !== knownFourStepFrom().bytes) {
    setFourStepFromBytes(job.fourStepFrom);
    forgetEnginePlans();
  }
  if (job.release) {
    // Memories the calling thread let go of: drop this thread's instances on them; the reply says what is left.
    releaseInWorker(job.release, job.releaseBytes ?? 0);
    return { reply: { id: job.id, held: heldInstances() }, transfer: [] };
  }
  // Fault injection for the pool's failure tests: an exception here, an exit, or an uncaught error.
  if (job.fault === 'throw') throw new Error('injected fault');
  if (job.fault === 'exit') exitNow();
  if (job.fault === 'uncaught') {
    setTimeout(() => {
      throw new Error('injected uncaught fault');
    });
    // No reply: the error event is what the pool must notice.
    return null;
  }
  if (job.plane) {
    // A part of a step of a shared 2-D transform, on the shared memory the job carries.
    runPlaneStep(job.plane);
    return { reply: { id: job.id }, transfer: [] };
  }
  if (job.columns) {
    // A part of a threaded column call along another axis, on the shared memory the job carries.
    runColumnsPart(job.columns);
    return { reply: { id: job.id }, transfer: [] };
  }
  if (job.thomas) {
    // A part of a block of a threaded tridiagonal solve, on the shared memory the job carries.
    runThomasPart(job.thomas);
    return { reply: { id: job.id }, transfer: [] };
  }
  if (job.phase) {
    // A part of a phase of a split single transform, on the shared memory the job carries.
    runPhase(job.phase);
    return { reply: { id: job.id }, transfer: [] };
  }
  if (job.resident && !job.pipeline) {
    // Engine buffers: the kernel runs on this worker's slots where they lie in the shared memory.
    const plan = engineFft(job.n, job.precision);
    if (!plan.runResident) throw new Error(`engine buffers: the plan of n = ${job.n} has no direct path here`);
    plan.runResident(job.resident);
    return { reply: { id: job.id }, transfer: [] };
  }
  const pl = job.pipeline;
  const pieces = pl?.pieces ?? [[0, job.batch]];
  for (let i = 0; i < pieces.length; i++) {
    if (pl) {
      // Wait until the calling thread has staged piece i (or gave up).
      for (let staged = Atomics.load(pl.ctrl, STAGED); staged <= i; )
        staged = awaitChange(pl.ctrl, STAGED, staged, WORKER_SLEEPS);
      if (Atomics.load(pl.ctrl, ABORT)) break;
    }
    const [q0, count] = pieces[i]!;
    runPiece(job, q0, count);
    if (pl) signal(pl.ctrl, DONE, CALLER_SLEEPS, i + 1);
  }
  // A share staged into engine buffers: nothing to send back.
  if (job.resident) return { reply: { id: job.id }, transfer: [] };
  const transfer: ArrayBuffer[] = [];
  for (const a of [job.input, job.output] as AnyArray[]) {
    if (a.buffer instanceof ArrayBuffer && !transfer.includes(a.buffer)) transfer.push(a.buffer);
  }
  return { reply: { id: job.id, input: job.input, output: job.output }, transfer };
}

/** Problems [q0, q0 + count) of the job. */
function runPiece(job: FftJob, q0: number, count: number): void {
  if (job.resident) {
    // A share staged into engine buffers: the kernel runs on the piece's slots where the calling thread put them.
    const plan = engineFft(job.n, job.precision);
    if (!plan.runResidentProblems) throw new Error(`engine buffers: the plan of n = ${job.n} has no direct path here`);
    plan.runResidentProblems(job.resident, q0, count);
    return;
  }
  if (job.rows) {
    const [il, ol] = rowLengths(job.rows);
    runRows(
      job.rows,
      job.input.subarray(q0 * il, (q0 + count) * il),
      job.output.subarray(q0 * ol, (q0 + count) * ol),
      count,
    );
    return;
  }
  const at = (l: FftJob['inLayout']) => ({ offset: l.offset + q0 * l.dist, stride: l.stride, dist: l.dist });
  engineFft(job.n, job.precision).execute(job.input, job.output, {
    batch: count,
    inverse: job.inverse,
    norm: job.norm,
    scaleBy: job.scaleBy,
    input: at(job.inLayout),
    output: at(job.outLayout),
  });
}

function handle(port: Port, job: FftJob): void {
  let out: { reply: FftReply; transfer: ArrayBuffer[] } | null;
  try {
    out = run(job);
  } catch (e) {
    const err = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
    out = { reply: { id: job.id, error: err }, transfer: [] };
  }
  if (out) port.post(out.reply, out.transfer);
}

function exitNow(): void {
  if (isNode) process.exit(3);
  else (globalThis as unknown as { close(): void }).close();
}

// A module Web Worker under a Node-like runtime still posts through the Web Worker scope.
const inWebWorker = typeof (globalThis as Record<string, unknown>)['WorkerGlobalScope'] !== 'undefined';
const isNode = typeof process !== 'undefined' && !!process.versions?.node && !inWebWorker;

if (isNode) {
  // Computed specifier: bundlers for the browser must not try to resolve a Node built-in.
  const specifier = 'node:worker_threads';
  const { parentPort, workerData, receiveMessageOnPort } = (await import(
    /* @vite-ignore */ specifier
  )) as typeof import('node:worker_threads');
  if (!parentPort) throw new Error('fft-worker must run as a worker thread');
  const lane = (workerData as { lane?: { port: import('node:worker_threads').MessagePort; ctrl: Int32Array } } | null)
    ?.lane;
  if (lane) {
    // The pool's lane (worker-pipeline.ts): after a job, spin a while for the next one and take it off the port here.
    const { port, ctrl } = lane;
    const reply: Port = {
      post: (r, t) => {
        port.postMessage(r, t);
        signal(ctrl, ANSWERED, LANE_CALLER_SLEEPS);
      },
    };
    port.on('message', (first: FftJob) => {
      handle(reply, first);
      for (let until = performance.now() + JOB_SPIN_MS; ; ) {
        const seen = Atomics.load(ctrl, POSTED);
        const m = receiveMessageOnPort(port);
        if (m) {
          handle(reply, m.message as FftJob);
          until = performance.now() + JOB_SPIN_MS;
        } else if (spinWhileEqual(ctrl, POSTED, seen, until) === seen) break;
      }
    });
  } else {
    const port: Port = { post: (r, t) => parentPort.postMessage(r, t) };
    parentPort.on('message', (job: FftJob) => handle(port, job));
  }
} else {
  const scope = globalThis as unknown as {
    postMessage(m: unknown, t: Transferable[]): void;
    addEventListener(type: 'message', fn: (e: MessageEvent<FftJob>) => void): void;
  };
  const port: Port = { post: (r, t) => scope.postMessage(r, t) };
  scope.addEventListener('message', (e) => handle(port, e.data));
}
