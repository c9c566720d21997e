/**
 * The CPU engine's worker threads: batches split between the calling thread and workers give results
 * bit-identical to one thread and within the float32/float64 bounds of the float64 reference, for
 * contiguous, strided, interleaved, in-place and SharedArrayBuffer layouts; worker failures surface as
 * WorkerError; a process that used threads exits on its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import {
  executeEngineFft,
  injectWorkerFault,
  shareCount,
  MIN_SHARE_ELEMENTS,
} from '../../src/backends/cpu/worker-pool.js';
import type { CpuPrecision } from '../../src/planner/cpu-fft.js';
import {
  createFftPlan,
  fft,
  rfft,
  irfft,
  dct,
  idct,
  dst,
  idst,
  dht,
  disposeCpuWorkers,
  ArgumentError,
  ButterflyError,
  WorkerError,
} from '../../src/index.js';
import { planCpuRfft } from '../../src/backends/cpu/fft-real.js';
import * as cpuDct from '../../src/backends/cpu/r2r-dct.js';
import * as cpuDst from '../../src/backends/cpu/r2r-dst.js';
import * as cpuDht from '../../src/backends/cpu/r2r-dht.js';
import { rng, relErr, bound, assertSame } from '../helpers/numeric.js';

/** Batch size that gives three shares worth splitting. */
const batchFor = (n: number): number => Math.max(3, Math.ceil((3 * MIN_SHARE_ELEMENTS) / n) + 1);

test.after(() => disposeCpuWorkers());

for (const n of [256, 4096, 32768, 1000, 1009, 1025]) {
  test(`plans with threads 1, 2, 3 match the reference and each other: n = ${n}`, async () => {
    const batch = batchFor(n);
    assert.equal(shareCount(n, batch, 3), 3, 'the batch is large enough to split three ways');
    const r = rng(n);
    const x = new Float64Array(2 * n * batch).map(() => r());
    for (const direction of ['forward', 'inverse'] as const) {
      const ref = new Float64Array(2 * n * batch);
      planCpuFft(n).execute(x, ref, { batch, inverse: direction === 'inverse' });
      for (const precision of ['f32', 'f64'] as const) {
        const xin = precision === 'f32' ? Float32Array.from(x) : x;
        let one: ArrayLike<number> | null = null;
        for (const threads of [1, 2, 3]) {
          const plan = await createFftPlan({ n, batch, direction, norm: 'backward', backend: 'cpu', threads });
          const out = await plan.execute(xin);
          const e = relErr(out, ref);
          assert.ok(
            e <= bound(n, precision),
            `${precision} ${direction} threads ${threads}: rel L2 ${e} > ${bound(n, precision)}`,
          );
          if (one) assertSame(out, one, `threads ${threads} differs from threads 1`);
          else one = out;
        }
      }
    }
  });
}

// Real rows of primes run two a Rader transform whose kernel table is built wherever the module is: on a worker as
// on the calling thread, it must come out the same (float64, whatever engine scope the caller is in).
test('real transforms of Rader primes with threads 1 and 2: bit for bit; f32 within its bound of f64', async () => {
  for (const n of [127, 4001]) {
    const batch = batchFor(n);
    const r = rng(n + 5);
    const x64 = new Float64Array(n * batch).map(() => r());
    for (const [name, call] of [
      [
        'rfft',
        (x: Float32Array | Float64Array, threads: number) => rfft(x, { shape: [batch, n], backend: 'cpu', threads }),
      ],
      [
        'dct',
        (x: Float32Array | Float64Array, threads: number) => dct(x, { shape: [batch, n], backend: 'cpu', threads }),
      ],
      [
        'idst',
        (x: Float32Array | Float64Array, threads: number) =>
          idst(x, { shape: [batch, n], backend: 'cpu', threads, type: 4 }),
      ],
    ] as const) {
      const ref = await call(x64, 1);
      for (const precision of ['f32', 'f64'] as const) {
        const x = precision === 'f32' ? Float32Array.from(x64) : x64;
        const one = await call(x, 1);
        assertSame(await call(x, 2), one, `${name} ${n} ${precision}: threads 2 differs from threads 1`);
        if (precision === 'f32')
          assert.ok(relErr(one, ref) <= bound(n, 'f32'), `${name} ${n} f32: ${relErr(one, ref)}`);
      }
    }
  }
});

type Layout = { offset: number; stride: number; dist: number };

/** Runs the engine with `threads` on copies of the same data; returns the output array. */
async function runLayout(
  n: number,
  batch: number,
  li: Layout,
  lo: Layout,
  opts: {
    threads: number;
    inverse: boolean;
    shared: boolean;
    inPlace: boolean;
    precision: CpuPrecision;
    x: Float64Array;
    outLen: number;
  },
): Promise<Float64Array | Float32Array> {
  const Arr = opts.precision === 'f32' ? Float32Array : Float64Array;
  const mk = (len: number): Float32Array | Float64Array =>
    opts.shared ? new Arr(new SharedArrayBuffer(len * Arr.BYTES_PER_ELEMENT) as unknown as ArrayBuffer) : new Arr(len);
  const input = mk(opts.x.length);
  input.set(opts.x);
  // Untouched output positions must keep their values: fill with a sentinel.
  const output = opts.inPlace ? input : mk(opts.outLen).fill(7);
  await executeEngineFft(
    n,
    opts.precision,
    input,
    output,
    { batch, inverse: opts.inverse, norm: 'ortho', input: li, output: lo },
    opts.threads,
  );
  return output;
}

test('strided, interleaved, in-place and shared layouts split across threads', async () => {
  const cases: {
    n: number;
    batch: number;
    li: (n: number, b: number) => Layout;
    lo: (n: number, b: number) => Layout;
    inPlace?: boolean;
  }[] = [
    {
      n: 1024,
      batch: 200,
      li: (n) => ({ offset: 3, stride: 2, dist: 2 * n + 5 }),
      lo: (n) => ({ offset: 1, stride: 1, dist: n + 2 }),
    },
    {
      n: 1000,
      batch: 210,
      li: (_n, b) => ({ offset: 0, stride: b, dist: 1 }),
      lo: (n) => ({ offset: 0, stride: 1, dist: n }),
    },
    {
      n: 1009,
      batch: 200,
      li: (n) => ({ offset: 2, stride: 1, dist: n }),
      lo: (_n, b) => ({ offset: 0, stride: b, dist: 1 }),
    },
    {
      n: 2048,
      batch: 100,
      li: (n) => ({ offset: 4, stride: 1, dist: n + 3 }),
      lo: (n) => ({ offset: 4, stride: 1, dist: n + 3 }),
      inPlace: true,
    },
    {
      n: 512,
      batch: 400,
      li: (_n, b) => ({ offset: 1, stride: b, dist: 1 }),
      lo: (_n, b) => ({ offset: 1, stride: b, dist: 1 }),
      inPlace: true,
    },
  ];
  for (const c of cases) {
    const { n, batch } = c;
    const li = c.li(n, batch);
    const lo = c.lo(n, batch);
    assert.equal(shareCount(n, batch, 3), 3);
    const span = (l: Layout): number => 2 * (l.offset + (n - 1) * l.stride + (batch - 1) * l.dist + 1);
    const r = rng(n + batch);
    const x = new Float64Array(Math.max(span(li), c.inPlace ? span(lo) : 0)).map(() => r());
    for (const inverse of [false, true]) {
      // Reference: gather each problem, transform in float64, scale by 1/√n ('ortho').
      const ref = new Float64Array(2 * n * batch);
      planCpuFft(n).execute(x, ref, { batch, inverse, norm: 'ortho', input: li });
      for (const precision of ['f32', 'f64'] as const) {
        for (const shared of [false, true]) {
          const opts = { inverse, shared, inPlace: !!c.inPlace, precision, x, outLen: span(lo) };
          const one = await runLayout(n, batch, li, lo, { ...opts, threads: 1 });
          for (const threads of [2, 3]) {
            const out = await runLayout(n, batch, li, lo, { ...opts, threads });
            const what = `n=${n} ${JSON.stringify(li)}→${JSON.stringify(lo)} ${precision} ${inverse ? 'inverse' : 'forward'} shared=${shared} threads=${threads}`;
            assertSame(out, one, `${what}: differs from one thread`);
            const got = new Float64Array(2 * n * batch);
            for (let b = 0; b < batch; b++) {
              for (let k = 0; k < n; k++) {
                const p = 2 * (lo.offset + b * lo.dist + k * lo.stride);
                got[2 * (b * n + k)] = out[p]!;
                got[2 * (b * n + k) + 1] = out[p + 1]!;
              }
            }
            const e = relErr(got, ref);
            assert.ok(e <= bound(n, precision), `${what}: rel L2 ${e}`);
          }
        }
      }
    }
  }
});

/** A plain or SharedArrayBuffer-backed copy of x in the given precision. */
function arrayOf(x: Float64Array, precision: CpuPrecision, shared: boolean): Float32Array | Float64Array {
  const Arr = precision === 'f32' ? Float32Array : Float64Array;
  const a = shared
    ? new Arr(new SharedArrayBuffer(x.length * Arr.BYTES_PER_ELEMENT) as unknown as ArrayBuffer)
    : new Arr(x.length);
  a.set(x);
  return a;
}

// One-shot calls along the last axis split their rows as plans split batches: rfft, irfft, DCT/DST II–IV, DHT, fft.
for (const n of [1024, 1000, 255, 1025]) {
  test(`rfft, irfft, dct, dst, dht and fft calls with threads 1, 2, 3 match the reference and each other: n = ${n}`, async () => {
    const rows = batchFor(n);
    const half = Math.floor(n / 2) + 1;
    const r = rng(7 * n);
    const x = new Float64Array(n * rows).map(() => r());
    const spec = new Float64Array(2 * half * rows).map(() => r());
    const xc = new Float64Array(2 * n * rows).map(() => r());
    // float64 references (outside the engine's scope these are the reference executors)
    const refR = new Float64Array(2 * half * rows);
    planCpuRfft(n).forward(x, refR, { batch: rows });
    const refI = new Float64Array(n * rows);
    planCpuRfft(n).inverse(spec, refI, { batch: rows, norm: 'backward' });
    const refD = cpuDct.dctn(x, [rows, n], { type: 2, axes: [1], norm: 'ortho' }).data;
    const refD3 = cpuDct.idctn(x, [rows, n], { type: 2, axes: [1] }).data;
    const refS2 = cpuDst.dstn(x, [rows, n], { type: 2, axes: [1], norm: 'ortho' }).data;
    const refS3 = cpuDst.dstn(x, [rows, n], { type: 3, axes: [1] }).data;
    const refD4 = cpuDct.dctn(x, [rows, n], { type: 4, axes: [1] }).data;
    const refS4 = cpuDst.dstn(x, [rows, n], { type: 4, axes: [1] }).data;
    const refH = cpuDht.dht(x, {}, [rows, n]).data;
    const refD1 = cpuDct.dctn(x, [rows, n], { type: 1, axes: [1], norm: 'ortho' }).data;
    const refS1 = cpuDst.dstn(x, [rows, n], { type: 1, axes: [1] }).data;
    const refC = new Float64Array(2 * n * rows);
    planCpuFft(n).execute(xc, refC, { batch: rows });
    const calls: [
      string,
      Float64Array,
      Float64Array,
      (a: Float32Array | Float64Array, threads: number) => Promise<Float32Array | Float64Array>,
    ][] = [
      ['rfft', x, refR, (a, threads) => rfft(a, { shape: [rows, n], backend: 'cpu', threads })],
      ['irfft', spec, refI, (a, threads) => irfft(a, { shape: [rows, half], n, backend: 'cpu', threads })],
      [
        'dct',
        x,
        refD as Float64Array,
        (a, threads) => dct(a, { shape: [rows, n], norm: 'ortho', backend: 'cpu', threads }),
      ],
      ['idct', x, refD3 as Float64Array, (a, threads) => idct(a, { shape: [rows, n], backend: 'cpu', threads })],
      [
        'dst',
        x,
        refS2 as Float64Array,
        (a, threads) => dst(a, { shape: [rows, n], norm: 'ortho', backend: 'cpu', threads }),
      ],
      [
        'dst3',
        x,
        refS3 as Float64Array,
        (a, threads) => dst(a, { type: 3, shape: [rows, n], backend: 'cpu', threads }),
      ],
      [
        'dct4',
        x,
        refD4 as Float64Array,
        (a, threads) => dct(a, { type: 4, shape: [rows, n], backend: 'cpu', threads }),
      ],
      [
        'dst4',
        x,
        refS4 as Float64Array,
        (a, threads) => dst(a, { type: 4, shape: [rows, n], backend: 'cpu', threads }),
      ],
      ['dht', x, refH as Float64Array, (a, threads) => dht(a, { shape: [rows, n], backend: 'cpu', threads })],
      [
        'dct1',
        x,
        refD1 as Float64Array,
        (a, threads) => dct(a, { type: 1, shape: [rows, n], norm: 'ortho', backend: 'cpu', threads }),
      ],
      [
        'dst1',
        x,
        refS1 as Float64Array,
        (a, threads) => dst(a, { type: 1, shape: [rows, n], backend: 'cpu', threads }),
      ],
      ['fft', xc, refC, (a, threads) => fft(a, { shape: [rows, n], backend: 'cpu', threads })],
    ];
    for (const [name, input, ref, call] of calls) {
      for (const precision of ['f32', 'f64'] as const) {
        for (const shared of [false, true]) {
          const a = arrayOf(input, precision, shared);
          const one = await call(a, 1);
          for (const threads of [2, 3]) {
            const what = `${name} n=${n} ${precision} shared=${shared} threads=${threads}`;
            const got = await call(a, threads);
            assert.equal(got.constructor, a.constructor, `${what}: array type`);
            assertSame(got, one, `${what}: differs from one thread`);
            const e = relErr(got, ref);
            assert.ok(e <= 2 * bound(n, precision), `${what}: rel L2 ${e}`);
          }
        }
      }
    }
  });
}

test('concurrent threaded calls of one plan on ordinary arrays stage into engine buffers of their own', async () => {
  // Lane-split (1024) and lane-batch (999: W problems a slot, batches not a multiple of W) plans; the calls of each
  // are in flight together, so each needs its own staging buffers.
  let seed = 900;
  for (const [n, batches] of [
    [1024, [160, 200, 160]],
    [999, [141, 203, 141]],
  ] as const) {
    for (const precision of ['f32', 'f64'] as const) {
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const xs = batches.map((b) => new Arr(2 * n * b).map(rng(seed++)));
      const plans = await Promise.all(batches.map((batch) => createFftPlan({ n, batch, backend: 'cpu', threads: 2 })));
      const one = await Promise.all(batches.map((batch) => createFftPlan({ n, batch, backend: 'cpu', threads: 1 })));
      const got = await Promise.all(plans.map((p, i) => p.execute(xs[i]!)));
      for (let i = 0; i < batches.length; i++) {
        assertSame(got[i]!, await one[i]!.execute(xs[i]!), `n=${n} ${precision} batch ${batches[i]} call ${i}`);
        const ref = new Float64Array(2 * n * batches[i]!);
        planCpuFft(n).execute(Float64Array.from(xs[i]!), ref, { batch: batches[i]! });
        assert.ok(relErr(got[i]!, ref) <= bound(n, precision), `n=${n} ${precision} call ${i} against float64`);
      }
    }
  }
});

test('small batches and single transforms stay on the calling thread', () => {
  assert.equal(shareCount(1 << 20, 1, 8), 1);
  assert.equal(shareCount(4096, 8, 8), 1);
  assert.equal(shareCount(4096, 32, 8), 2);
  assert.equal(shareCount(4096, 256, 2), 2);
});

test('a failing worker rejects the call with WorkerError, and the pool recovers', async () => {
  const n = 4096;
  const batch = 64;
  const x = new Float32Array(2 * n * batch).map(rng(5));
  const plan = await createFftPlan({ n, batch, backend: 'cpu', threads: 2 });
  const good = await (await createFftPlan({ n, batch, backend: 'cpu', threads: 1 })).execute(x);
  for (const [fault, pattern] of [
    ['throw', /FFT worker failed: Error: injected fault/],
    ['exit', /FFT worker exited \(code 3\)/],
    ['uncaught', /FFT worker threw an uncaught Error: injected uncaught fault/],
  ] as const) {
    await plan.execute(x); // make sure a worker exists before injecting
    injectWorkerFault(fault);
    await assert.rejects(plan.execute(x), (e: unknown) => {
      assert.ok(e instanceof WorkerError && e instanceof ButterflyError, `${fault}: ${String(e)}`);
      assert.match((e as Error).message, pattern);
      return true;
    });
    // The dead worker is replaced: the next call succeeds with the same result.
    assert.deepEqual(await plan.execute(x), good, `after ${fault}`);
  }
  await disposeCpuWorkers();
  assert.deepEqual(await plan.execute(x), good, 'after dispose, new workers start');
});

test('threads is validated', async () => {
  for (const bad of [0, -1, 1.5, '2', NaN]) {
    await assert.rejects(
      createFftPlan({ n: 8, backend: 'cpu', threads: bad as number }),
      (e: unknown) => e instanceof ArgumentError && e.argument === 'threads',
    );
    await assert.rejects(
      fft(new Float64Array(16), { backend: 'cpu', threads: bad as number }),
      (e: unknown) => e instanceof ArgumentError && e.argument === 'threads',
    );
  }
  assert.equal((await fft(new Float64Array(16), { backend: 'cpu', threads: 3 })).length, 16);
});

test('a process that used worker threads exits on its own', async () => {
  const index = fileURLToPath(new URL('../../src/index.js', import.meta.url));
  const script = `
    const { createFftPlan } = await import(${JSON.stringify(index)});
    const n = 4096, batch = 64;
    const plan = await createFftPlan({ n, batch, backend: 'cpu', threads: 2 });
    const y = await plan.execute(new Float32Array(2 * n * batch).fill(1));
    console.log(y[0]);`;
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill();
      resolve(null);
    }, 10000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, `child did not exit cleanly within 10 s: ${out}`);
  assert.equal(out.trim(), '4096');
  assert.ok(Date.now() - t0 < 10000);
});
