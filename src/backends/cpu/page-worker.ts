/**
 * Worker entry (Node) of prefaulted-pages.ts: allocates result buffers and writes a byte of every page, so that the
 * page faults of fresh memory are taken on this thread instead of the calling thread's, then transfers them.
 */
import { workerData, type MessagePort } from 'node:worker_threads';

const PAGE_BYTES = 4096;

const port = (workerData as { port: MessagePort }).port;
port.on('message', (bytes: number) => {
  // Uninitialised like the calling thread's own results (filled-result.ts): the engine overwrites every element.
  const b = Buffer.allocUnsafeSlow(bytes);
  const u = new Uint8Array(b.buffer, b.byteOffset, bytes);
  for (let i = 0; i < bytes; i += PAGE_BYTES) u[i] = 0;
  port.postMessage(b.buffer, [b.buffer]);
});
