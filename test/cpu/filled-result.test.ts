/**
 * Results the CPU engine allocates without zeroing (util/filled-result.ts) are written in full: with every such
 * array poisoned before the engine fills it, each one-shot path returns exactly what it returns without
 * the poison (bit for bit, no NaN left), across the transform kinds, lengths on every engine path (powers of two,
 * mixed radix, generic prime passes, Bluestein, odd and even), both precisions, threads 1 and 2, plans with dense
 * and strided outputs.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  fft,
  ifft,
  rfft,
  irfft,
  fft2,
  rfft2,
  irfft2,
  dct,
  idct,
  dst,
  idst,
  dht,
  idht,
  dctn,
  dstn,
  rfftn,
  fftn,
  createFftPlan,
  disposeCpuWorkers,
  solveTridiagonal,
} from '../../src/index.js';
import { FILLED_RESULT_POISON, setFilledResultPoison } from '../../src/util/filled-result.js';
import { rng } from '../helpers/numeric.js';

after(async () => {
  setFilledResultPoison(false);
  await disposeCpuWorkers();
});

type Arr = Float32Array | Float64Array;

/** Runs the call without and with the poison and requires the same bits. */
async function same(label: string, x: Arr, call: (x: Arr) => Promise<Arr>): Promise<void> {
  setFilledResultPoison(false);
  const a = await call(x);
  setFilledResultPoison(true);
  let b: Arr;
  try {
    b = await call(x);
  } finally {
    setFilledResultPoison(false);
  }
  assert.equal(b.length, a.length, `${label}: length`);
  const left = b.findIndex((v) => v === FILLED_RESULT_POISON);
  assert.equal(left, -1, `${label}: element ${left} left unwritten`);
  const [ab, bb] = [a, b].map((v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  const differ = bb.findIndex((v, i) => v !== ab[i]);
  assert.equal(differ, -1, `${label}: byte ${differ} differs`);
}

function input(len: number, f32: boolean, seed: number): Arr {
  const r = rng(seed);
  const a = f32 ? new Float32Array(len) : new Float64Array(len);
  for (let i = 0; i < len; i++) a[i] = r();
  return a;
}

// Powers of two, 3·5-smooth, one generic prime pass (4·101), Bluestein (1009), an even length whose half is
// Bluestein (2·127), odd lengths, and the shortest ones.
const LENGTHS = [1, 2, 5, 16, 100, 127, 255, 404, 1009, 1024, 254, 2187];

for (const f32 of [true, false]) {
  const p = f32 ? 'f32' : 'f64';
  test(`one-shot last-axis transforms write every element of their result (${p})`, async () => {
    const o = { backend: 'cpu' as const, threads: 1 };
    for (const n of LENGTHS) {
      const rows = 3;
      const shape = [rows, n];
      const half = Math.floor(n / 2) + 1;
      await same(`fft ${n}`, input(2 * rows * n, f32, n), (x) => fft(x, { ...o, shape }));
      await same(`ifft ${n}`, input(2 * rows * n, f32, n + 1), (x) => ifft(x, { ...o, shape }));
      await same(`rfft ${n}`, input(rows * n, f32, n + 2), (x) => rfft(x, { ...o, shape }));
      await same(`irfft ${n}`, input(2 * rows * half, f32, n + 3), (x) => irfft(x, { ...o, shape: [rows, half], n }));
      await same(`dht ${n}`, input(rows * n, f32, n + 4), (x) => dht(x, { ...o, shape }));
      await same(`idht ${n}`, input(rows * n, f32, n + 5), (x) => idht(x, { ...o, shape }));
      for (const type of [1, 2, 3, 4] as const) {
        if (type === 1 && n < 2) continue;
        for (const [name, fn] of [
          ['dct', dct],
          ['idct', idct],
          ['dst', dst],
          ['idst', idst],
        ] as const)
          await same(`${name} type ${type} ${n}`, input(rows * n, f32, n + 6 + type), (x) =>
            fn(x, { ...o, shape, type, norm: type === 4 ? 'ortho' : 'backward' }),
          );
      }
    }
  });

  test(`2-D transforms, plans and threaded batches write every element of their result (${p})`, async () => {
    const o = { backend: 'cpu' as const };
    for (const [r, c] of [
      [8, 64],
      [64, 100],
      [5, 127],
      [16, 1024],
    ]) {
      await same(`fft2 ${r}×${c}`, input(4 * r * c, f32, r * c), (x) => fft2(x, { ...o, shape: [2, r, c] }));
      await same(`rfft2 ${r}×${c}`, input(r * c, f32, r + c), (x) => rfft2(x, { ...o, shape: [r, c] }));
      const h = Math.floor(c / 2) + 1;
      await same(`irfft2 ${r}×${c}`, input(2 * r * h, f32, r - c), (x) =>
        irfft2(x, { ...o, shape: [r, h], s: [r, c] }),
      );
    }
    // Other axes: engine rows between WebAssembly transposes.
    await same('dct axis 0', input(64 * 100, f32, 13), (x) => dct(x, { ...o, shape: [64, 100], axis: 0 }));
    await same('dctn', input(12 * 10 * 16, f32, 14), (x) => dctn(x, { ...o, shape: [12, 10, 16], type: 3 }));
    await same('dstn axes 0', input(33 * 8, f32, 15), (x) => dstn(x, { ...o, shape: [33, 8], axes: [0], type: 4 }));
    await same('rfftn axes 0, 2', input(10 * 6 * 8, f32, 16), (x) =>
      rfftn(x, { ...o, shape: [10, 6, 8], axes: [0, 2] }),
    );
    await same('fftn 3-D', input(2 * 6 * 10 * 16, f32, 17), (x) => fftn(x, { ...o, shape: [6, 10, 16] }));
    // Batches large enough to be shared out between two threads.
    for (const threads of [1, 2]) {
      const shape = [128, 1024];
      await same(`fft threads ${threads}`, input(2 * 128 * 1024, f32, 7), (x) => fft(x, { ...o, shape, threads }));
      await same(`rfft threads ${threads}`, input(128 * 1024, f32, 8), (x) => rfft(x, { ...o, shape, threads }));
      await same(`dct threads ${threads}`, input(128 * 1024, f32, 9), (x) => dct(x, { ...o, shape, threads }));
    }
    // One transform large enough to be split across threads by its passes.
    await same('fft split', input(2 * 2 ** 21, f32, 10), (x) => fft(x, { ...o, threads: 2 }));
    const dense = await createFftPlan({ n: 96, batch: 3, backend: 'cpu', precision: p });
    await same('plan, dense output', input(2 * 96 * 3, f32, 11), (x) => dense.execute(x));
    // Between strided outputs the gaps stay zero.
    const strided = await createFftPlan({
      n: 96,
      batch: 3,
      backend: 'cpu',
      precision: p,
      output: { offset: 4, stride: 2, dist: 200 },
    });
    await same('plan, strided output', input(2 * 96 * 3, f32, 12), async (x) => {
      const y = await strided.execute(x);
      for (let b = 0; b < 3; b++)
        for (let i = 0; i < 95; i++) {
          const at = 2 * (4 + b * 200 + i * 2 + 1);
          assert.equal(y[at], 0, `gap after output ${i} of problem ${b}`);
          assert.equal(y[at + 1], 0, `gap after output ${i} of problem ${b}`);
        }
      return y;
    });
  });
}

test('tridiagonal solves write every element of x, a system with a zero pivot included', async () => {
  for (const dtype of ['float32', 'float64'] as const)
    for (const layout of ['interleaved', 'strided'] as const)
      for (const [n, batch] of [
        [64, 300],
        [5, 7],
        [1000, 3],
      ]) {
        const f32 = dtype === 'float32';
        const len = n * batch;
        const lower = input(len, f32, n + 1),
          upper = input(len, f32, n + 2),
          rhs = input(len, f32, n + 3),
          diag = input(len, f32, n + 4).map((v) => v + 3);
        diag[0] = 0; // system 0's first pivot
        upper[0] = 0;
        await same(`${dtype} ${layout} ${n} × ${batch}`, rhs, async (d) => {
          const r = await solveTridiagonal({ n, batch, layout, dtype, backend: 'cpu', lower, diag, upper, rhs: d });
          return r.x as Arr;
        });
      }
});
