/**
 * Fresh results from the page worker's stock (backends/cpu/prefaulted-pages.ts): a size asked for repeatedly is
 * served from buffers faulted in on another thread, with the same results bit for bit (poisoned first, so a stocked
 * buffer's old contents cannot pass for results); the stock is bounded, let go when idle and on disposeCpuWorkers;
 * a process that used it exits on its own.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { fft, rfft, dct, disposeCpuWorkers } from '../../src/index.js';
import { prefaultedPagesStats } from '../../src/backends/cpu/prefaulted-pages.js';
import { setFilledResultPoison } from '../../src/util/filled-result.js';
import { rng } from '../helpers/numeric.js';

after(async () => {
  setFilledResultPoison(false);
  await disposeCpuWorkers();
});

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));

test('repeated fresh results come from the stock, bit for bit the results written into `out`', async () => {
  prefaultedPagesStats();
  const r = rng(3);
  for (const [Arr, n, batch] of [
    [Float32Array, 1024, 160], // 1.25 MiB results
    [Float64Array, 4096, 40], // 2.5 MiB
  ] as const) {
    const x = new Arr(2 * n * batch).map(() => r());
    const o = { backend: 'cpu' as const, threads: 1, shape: [batch, n] };
    const want = new Arr(x.length);
    await fft(x, { ...o, out: want });
    setFilledResultPoison(true);
    for (let i = 0; i < 8; i++) {
      const y = await fft(x, o);
      assert.ok(same(y, want), `${Arr.name} call ${i}`);
      assert.equal(y.buffer.byteLength, y.byteLength, 'a result owns its whole ArrayBuffer');
      await tick(20);
    }
    setFilledResultPoison(false);
    // Real and DCT results of other sizes share the stock.
    const xr = new Arr(n * batch).map(() => r());
    const wr = await rfft(xr, { ...o });
    const wd = await dct(xr, { ...o });
    for (let i = 0; i < 4; i++) {
      assert.ok(same(await rfft(xr, o), wr));
      assert.ok(same(await dct(xr, o), wd));
      await tick(20);
    }
  }
  const s = prefaultedPagesStats();
  assert.ok(s.running, 'the page worker started');
  assert.ok(s.taken >= 8, `results taken from the stock: ${s.taken}`);
  assert.ok(s.heldBytes <= 128 << 20, `stock ${s.heldBytes} bytes`);
});

test('the stock is let go when idle and by disposeCpuWorkers; sizes beyond its bound are never stocked', async () => {
  const x = new Float32Array(2 * 1024 * 512);
  for (let i = 0; i < 3; i++) await fft(x, { backend: 'cpu', threads: 1, shape: [512, 1024] });
  await tick(50);
  assert.ok(prefaultedPagesStats().heldBytes > 0);
  await tick(1500);
  assert.equal(prefaultedPagesStats().heldBytes, 0, 'nothing held after a second without calls');
  const big = new Float32Array(2 * 9 * (1 << 20)); // 72 MiB results: more than half the stock's bound
  for (let i = 0; i < 3; i++) await fft(big, { backend: 'cpu', threads: 1, shape: [3, 3 << 20] });
  await tick(50);
  assert.equal(prefaultedPagesStats().heldBytes, 0);
  for (let i = 0; i < 3; i++) await fft(x, { backend: 'cpu', threads: 1, shape: [512, 1024] });
  await disposeCpuWorkers();
  const s = prefaultedPagesStats();
  assert.equal(s.running, false);
  assert.equal(s.heldBytes, 0);
});

test('a process whose calls used the stock exits on its own', () => {
  const entry = pathToFileURL(resolve('dist/src/index.js')).href;
  const pages = pathToFileURL(resolve('dist/src/backends/cpu/prefaulted-pages.js')).href;
  const script = `
import * as b from ${JSON.stringify(entry)};
import { prefaultedPagesStats } from ${JSON.stringify(pages)};
const x = new Float64Array(2 * 1024 * 256);
// Until a buffer from the stock is taken (a loaded machine starts the page worker late), at most 6 s. The stats
// count since the last read.
let taken = 0;
for (let i = 0; i < 200 && taken === 0; i++) {
  await b.fft(x, { backend: 'cpu', threads: 1, shape: [256, 1024] });
  await new Promise((r) => setTimeout(r, 30));
  taken += prefaultedPagesStats().taken;
}
const s = prefaultedPagesStats();
console.log(s.running && taken > 0 ? 'stocked' : 'not stocked ' + JSON.stringify(s));
`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}\n${r.stderr}`);
  assert.equal(r.stdout.trim(), 'stocked');
});
