/**
 * Single transforms split across threads (src/backends/cpu/fft-split.ts): the four-step recipe's phases shared
 * out by blocks between barriers. Against the float64 reference and bit for bit against the same recipe on one
 * thread (the blocks partition the work without changing an operation), at small lengths through the split plan
 * directly and at the planned size through executeEngineFft and the plan API; split engine buffers; strided and
 * in-place layouts; concurrent calls; worker failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { engineFftOf, fusedRealFft } from '../../src/backends/cpu/wasm-fft.js';
import { planCpuRfft } from '../../src/backends/cpu/fft-real.js';
import { SplitFft, splitOwnerOf } from '../../src/backends/cpu/fft-split.js';
import { executeEngineFft, injectWorkerFault, runPhases } from '../../src/backends/cpu/worker-pool.js';
import {
  fourStepOf,
  planCpuSplit,
  planCpuSplitDct,
  planCpuSplitReal,
  SPLIT_FROM_BYTES,
} from '../../src/planner/cpu-fft.js';
import { createFftPlan, dct, disposeCpuWorkers, idct, irfft, rfft, WorkerError } from '../../src/index.js';
import { rng, relErr, bound, assertSame } from '../helpers/numeric.js';

test.after(() => disposeCpuWorkers());

/** A copy of `a` on a SharedArrayBuffer. */
function sharedOf<T extends Float32Array | Float64Array>(a: T): T {
  const s = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
}

test('split planning: single transforms from SPLIT_FROM_BYTES, with two threads or more', () => {
  const n32 = SPLIT_FROM_BYTES / 8;
  assert.equal(planCpuSplit(n32, 'f32', 1, 2)?.kind, 'four-step');
  assert.equal(planCpuSplit(n32 / 2, 'f32', 1, 2), null, 'smaller problems run faster whole on one thread');
  assert.equal(planCpuSplit(n32, 'f32', 2, 2), null, 'batches split by problems');
  assert.equal(planCpuSplit(n32, 'f32', 1, 1), null);
  assert.equal(planCpuSplit(SPLIT_FROM_BYTES / 16, 'f64', 1, 3)?.kind, 'four-step');
});

test('split plans at small lengths: 2 and 3 threads, bit for bit one thread, within the reference bound', async () => {
  for (const [n, precision] of [
    [3072, 'f32'],
    [6000, 'f32'],
    [1 << 14, 'f64'],
    [800, 'f64'],
  ] as const) {
    const recipe = fourStepOf(n, precision, 0)!;
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const r = rng(n);
    const x = new Float64Array(2 * n).map(() => r());
    for (const inverse of [false, true]) {
      const one = new Arr(2 * n);
      engineFftOf(recipe).execute(Arr.from(x), one, { inverse, norm: 'ortho' });
      const ref = new Float64Array(2 * n);
      planCpuFft(n).execute(x, ref, { inverse, norm: 'ortho' });
      assert.ok(relErr(one, ref) <= bound(n, precision));
      for (const threads of [2, 3]) {
        const out = new Arr(2 * n).fill(NaN);
        await new SplitFft(recipe, threads).execute(Arr.from(x), out, { inverse, norm: 'ortho' }, runPhases);
        assertSame(out, one, `n=${n} ${precision} inverse ${inverse} threads ${threads}`);
      }
    }
  }
});

test('split plans: strided, in-place and concurrent calls', async () => {
  const n = 3072;
  const recipe = fourStepOf(n, 'f32', 0)!;
  const split = new SplitFft(recipe, 2);
  const r = rng(9);
  const x = new Float32Array(2 * n).map(() => r());
  const packed = new Float32Array(2 * n);
  engineFftOf(recipe).execute(x, packed);
  // Every other element, offset 1, into an array twice as long; the gaps keep their values.
  const strided = new Float32Array(4 * n + 2).fill(7);
  for (let i = 0; i < n; i++) {
    strided[2 * (1 + 2 * i)] = x[2 * i]!;
    strided[2 * (1 + 2 * i) + 1] = x[2 * i + 1]!;
  }
  const l = { offset: 1, stride: 2, dist: 2 * n };
  await split.execute(strided, strided, { input: l, output: l }, runPhases);
  for (let i = 0; i < n; i++) {
    assert.equal(strided[2 * (1 + 2 * i)], packed[2 * i]);
    assert.equal(strided[2 * (1 + 2 * i) + 1], packed[2 * i + 1]);
    assert.equal(strided[2 * (2 + 2 * i)], 7);
  }
  // Calls that overlap in time share the plan's memory one after another.
  const xs = [1, 2, 3].map((s) => new Float32Array(2 * n).map(rng(s)));
  const outs = xs.map(() => new Float32Array(2 * n));
  await Promise.all(xs.map((xi, i) => split.execute(xi, outs[i]!, {}, runPhases)));
  xs.forEach((xi, i) => {
    const want = new Float32Array(2 * n);
    engineFftOf(recipe).execute(xi, want);
    assertSame(outs[i]!, want, `concurrent call ${i}`);
  });
});

test('split plans on SharedArrayBuffers: every thread copies a part in and out; offsets, batches, in place', async () => {
  for (const [n, precision] of [
    [3072, 'f32'],
    [800, 'f64'],
  ] as const) {
    const recipe = fourStepOf(n, precision, 0)!;
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const r = rng(n + 1);
    // Two problems, 5 values apart after an offset of 3: the parts' edges fall inside cache lines.
    const l = { offset: 3, stride: 1, dist: n + 5 };
    const len = 2 * (3 + 2 * (n + 5));
    const shared = (k: number) =>
      precision === 'f32'
        ? new Float32Array(new SharedArrayBuffer(4 * k))
        : new Float64Array(new SharedArrayBuffer(8 * k));
    const x = shared(len);
    for (let i = 0; i < len; i++) x[i] = r();
    const want = new Arr(len).fill(7);
    engineFftOf(recipe).execute(x, want, { batch: 2, input: l, output: l, inverse: true });
    for (const threads of [2, 3]) {
      const tag = `n=${n} ${precision} threads ${threads}`;
      const out = shared(len).fill(7);
      const split = new SplitFft(recipe, threads);
      await split.execute(x, out, { batch: 2, input: l, output: l, inverse: true }, runPhases);
      assertSame(out, want, tag);
      // In place: the input is copied in whole before the output is written.
      const io = shared(len);
      io.set(x);
      await split.execute(io, io, { batch: 2, input: l, output: l, inverse: true }, runPhases);
      for (let p = 0; p < 2; p++) {
        const at = 2 * (l.offset + p * l.dist);
        assertSame(io.subarray(at, at + 2 * n), want.subarray(at, at + 2 * n), `${tag}: in place, problem ${p}`);
      }
    }
  }
});

test('split as planned: f64 single transform of SPLIT_FROM_BYTES through executeEngineFft and plan buffers', async () => {
  const n = SPLIT_FROM_BYTES / 16;
  const r = rng(4);
  const x = new Float64Array(2 * n).map(() => r());
  const ref = new Float64Array(2 * n);
  planCpuFft(n).execute(x, ref, { inverse: true });
  const one = new Float64Array(2 * n);
  engineFftOf(fourStepOf(n, 'f64', 0)!).execute(x, one, { inverse: true });
  const out = new Float64Array(2 * n);
  await executeEngineFft(n, 'f64', x, out, { inverse: true }, 2);
  assert.ok(relErr(out, ref) <= bound(n, 'f64'), `${relErr(out, ref)}`);
  assertSame(out, one, 'split against one thread');
  // Plan buffers: the split plan's own regions, transformed in place of the copies; the input is kept.
  const plan = await createFftPlan({ n, direction: 'inverse', backend: 'cpu', threads: 2, precision: 'f64' });
  const bufs = plan.createBuffers('f64');
  assert.ok(splitOwnerOf(bufs.input), 'buffers of a split plan');
  bufs.input.set(x);
  await plan.execute(bufs.input, bufs.output);
  assertSame(bufs.output, one, 'split buffers');
  assertSame(bufs.input, x, 'input kept');
  // A failing worker rejects the call; the next call is right.
  injectWorkerFault('throw');
  await assert.rejects(plan.execute(bufs.input, bufs.output), (e: unknown) => e instanceof WorkerError);
  await plan.execute(bufs.input, bufs.output);
  assertSame(bufs.output, one, 'after a worker failure');
});

test('split real FFTs: one long row, bit for bit the fused module on one thread, and as planned through rfft / irfft', async () => {
  for (const [h, precision] of [
    [3072, 'f32'],
    [800, 'f64'],
  ] as const) {
    const recipe = { ...fourStepOf(h, precision, 0)!, realPost: true };
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const n = 2 * h;
    const x = new Arr(n).map(rng(h));
    const one = new Arr(2 * (h + 1));
    const lay = (len: number) => ({ offset: 0, stride: 1, dist: len });
    fusedRealFft(recipe).forwardReal(x, lay(n), one, lay(h + 1), 1, 0.5);
    const split = new SplitFft(recipe, 2);
    const out = new Arr(2 * (h + 1)).fill(NaN);
    await split.forwardReal(x, out, 0.5, runPhases);
    assertSame(out, one, `rfft ${n} ${precision}`);
    // The inverse, from a spectrum whose Y_0 and Y_h carry imaginary parts the transform must ignore.
    const spec = Arr.from(one);
    spec[1] = 3;
    spec[2 * h + 1] = -2;
    const back1 = new Arr(n);
    fusedRealFft(recipe).inverseReal(spec, lay(h + 1), back1, lay(n), 1, 1 / h);
    const back = new Arr(n).fill(NaN);
    await split.inverseReal(spec, back, 1 / h, runPhases);
    assertSame(back, back1, `irfft ${n} ${precision}`);
    assert.ok(relErr(back, x) <= 4 * bound(n, precision), `irfft round trip ${n} ${precision}`);
    // On SharedArrayBuffers every thread copies a part in and out.
    const sOut = sharedOf(out.fill(NaN));
    await split.forwardReal(sharedOf(x), sOut, 0.5, runPhases);
    assertSame(sOut, one, `rfft ${n} ${precision}, shared`);
    const sBack = sharedOf(back.fill(NaN));
    await split.inverseReal(sharedOf(spec), sBack, 1 / h, runPhases);
    assertSame(sBack, back1, `irfft ${n} ${precision}, shared`);
  }
  const n = SPLIT_FROM_BYTES / 4; // f32 reals whose complex half is SPLIT_FROM_BYTES
  assert.ok(planCpuSplitReal(n, 'f32', 1, 2));
  const x = new Float32Array(n).map(rng(8));
  const ref = new Float64Array(n + 2);
  planCpuRfft(n).forward(Float64Array.from(x), ref, { norm: 'ortho' });
  const got = await rfft(x, { backend: 'cpu', threads: 2, norm: 'ortho' });
  assert.ok(relErr(got, ref) <= bound(n, 'f32'), `rfft ${n}: ${relErr(got, ref)}`);
  const back = await irfft(got, { backend: 'cpu', threads: 2, norm: 'ortho', n });
  assert.ok(relErr(back, x) <= 4 * bound(n, 'f32'), `irfft ${n}: ${relErr(back, x)}`);
});

test('split DCT-II / DCT-III: one long row, bit for bit the fused module, and as planned through dct / idct', async () => {
  for (const [h, precision] of [
    [3072, 'f32'],
    [800, 'f64'],
  ] as const) {
    const recipe = { ...fourStepOf(h, precision, 0)!, realPost: true, dct2: true };
    const Arr = precision === 'f32' ? Float32Array : Float64Array;
    const n = 2 * h;
    const x = new Arr(n).map(rng(h + 1));
    const split = new SplitFft(recipe, 3);
    const fused = fusedRealFft(recipe);
    for (const ortho of [false, true]) {
      const one = new Arr(n);
      fused.forwardDct2(x, one, 1, 0.25, ortho);
      const out = new Arr(n).fill(NaN);
      await split.forwardDct2(x, out, 0.25, ortho, runPhases);
      assertSame(out, one, `dct2 ${n} ${precision} ortho ${ortho}`);
      const back1 = new Arr(n);
      fused.inverseDct2(one, back1, 1, 2 / n, ortho);
      const back = new Arr(n).fill(NaN);
      await split.inverseDct2(one, back, 2 / n, ortho, runPhases);
      assertSame(back, back1, `dct3 ${n} ${precision} ortho ${ortho}`);
      const sOut = sharedOf(out.fill(NaN));
      await split.forwardDct2(sharedOf(x), sOut, 0.25, ortho, runPhases);
      assertSame(sOut, one, `dct2 ${n} ${precision} ortho ${ortho}, shared`);
      const sBack = sharedOf(back.fill(NaN));
      await split.inverseDct2(sharedOf(one), sBack, 2 / n, ortho, runPhases);
      assertSame(sBack, back1, `dct3 ${n} ${precision} ortho ${ortho}, shared`);
    }
  }
  const n = SPLIT_FROM_BYTES / 4;
  assert.ok(planCpuSplitDct(n, 'f32', 1, 2));
  const x = new Float32Array(n).map(rng(12));
  const single = await dct(x, { backend: 'cpu', threads: 1, norm: 'ortho' });
  const got = await dct(x, { backend: 'cpu', threads: 2, norm: 'ortho' });
  assert.ok(relErr(got, single) <= bound(n, 'f32'), `dct ${n}: ${relErr(got, single)}`);
  const back = await idct(got, { backend: 'cpu', threads: 2, norm: 'ortho' });
  assert.ok(relErr(back, x) <= 4 * bound(n, 'f32'), `idct ${n}: ${relErr(back, x)}`);
});
