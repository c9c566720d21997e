/**
 * FftPlan.executeSync on CPU plans: the same result as execute(), bit for bit (the same engine on the calling thread)
 * except where execute() splits a single transform across threads,
 * and the float64 reference, across recipes (lane-split, lane-batch, generic passes, Rader, Bluestein, four-step),
 * batches ≥ 3, strided layouts, both directions, every norm, both precisions, plans with and without threads, engine
 * buffers; the same errors as execute().
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createFftPlan,
  disposeCpuWorkers,
  ArgumentError,
  DestroyedError,
  type FftPlanOptions,
} from '../../src/index.js';
import { planCpuEngineFft, planCpuSplit, type CpuPrecision } from '../../src/planner/cpu-fft.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import { assertSame, bound, relErr, rng } from '../helpers/numeric.js';

function fill(a: Float32Array | Float64Array, seed: number): void {
  const r = rng(seed);
  for (let i = 0; i < a.length; i++) a[i] = r();
}

test('executeSync: bit for bit execute(), and the float64 reference', async () => {
  const cases: [number, number, CpuPrecision, Partial<FftPlanOptions>][] = [
    [16, 3, 'f32', {}], // lane-split
    [64, 5, 'f64', { norm: 'ortho' }],
    [3, 5, 'f32', { direction: 'inverse' }], // lane-batch, a partial group
    [1000, 3, 'f64', { direction: 'inverse', norm: 'forward' }],
    [1009, 3, 'f32', {}], // Rader
    [10007, 3, 'f64', {}], // Bluestein
    [1023, 4, 'f32', { norm: 'ortho' }], // generic passes
    [1 << 21, 1, 'f32', {}], // four-step (split across threads by execute(): the same recipe)
    [1 << 19, 1, 'f64', { direction: 'inverse' }], // split by execute(), lane-split here: not bit for bit
    [64, 3, 'f64', { input: { stride: 2, dist: 3 }, output: { offset: 5, dist: 70 } }], // strided
    [12, 3, 'f32', { input: { stride: 3, dist: 1 } }], // columns
  ];
  for (const [n, batch, precision, extra] of cases) {
    for (const threads of [1, 2]) {
      const kind = planCpuEngineFft(n, precision).kind;
      const tag = `n=${n} batch=${batch} ${precision} ${kind} threads=${threads} ${JSON.stringify(extra)}`;
      const p = await createFftPlan({ n, batch, backend: 'cpu', precision, threads, ...extra });
      const A = precision === 'f32' ? Float32Array : Float64Array;
      const span = (l: { offset?: number; stride?: number; dist?: number } | undefined) =>
        2 * ((l?.offset ?? 0) + (n - 1) * (l?.stride ?? 1) + (batch - 1) * (l?.dist ?? n * (l?.stride ?? 1)) + 1);
      const x = new A(span(extra.input));
      fill(x, n + batch);
      const want = await p.execute(x);
      const got = p.executeSync(x);
      assert.ok(!(got instanceof Promise), `${tag}: not a promise`);
      assert.ok(got instanceof A, `${tag}: the input's type`);
      const split = threads > 1 && batch === 1 && planCpuSplit(n, precision, 1, threads) !== null;
      if (split && kind !== 'four-step') assert.ok(relErr(got, want) < 1e-14, `${tag}: against the split`);
      else assertSame(got, want, tag);
      // Into a given output, which is returned.
      const out = new A(want.length).fill(NaN);
      const packedOut = extra.output === undefined;
      if (packedOut) {
        assert.equal(p.executeSync(x, out), out, `${tag}: returns its output`);
        assertSame(out, got, `${tag}: into output`);
      }
      // Against the float64 reference (packed layouts: the reference's own layout handling is tested elsewhere).
      if (extra.input === undefined && packedOut) {
        const ref = new Float64Array(2 * n * batch);
        planCpuFft(n).execute(Float64Array.from(x), ref, {
          batch,
          inverse: extra.direction === 'inverse',
          norm: extra.norm,
        });
        const b = bound(n, precision);
        assert.ok(relErr(got, ref) <= b, `${tag}: rel L2 ${relErr(got, ref)} > ${b}`);
      }
    }
  }
  await disposeCpuWorkers();
});

test('executeSync: engine buffers, in place, and a plan following the input precision', async () => {
  const n = 256,
    batch = 3;
  const p = await createFftPlan({ n, batch, backend: 'cpu', threads: 1 });
  const buf = p.createBuffers('f64');
  fill(buf.input, 7);
  const x = buf.input.slice();
  assert.equal(p.executeSync(buf.input, buf.output), buf.output);
  assertSame(buf.input, x, 'engine buffers: input kept');
  assertSame(buf.output, await p.execute(x), 'engine buffers');
  const y = x.slice();
  assertSame(p.executeSync(y, y), await p.execute(x), 'in place');
  // No precision given: Float32Array in, f32 engine; Float64Array in, f64.
  const x32 = Float32Array.from(x);
  assertSame(p.executeSync(x32), await p.execute(x32), 'f32 input');
});

test('executeSync: errors as execute()', async () => {
  const p = await createFftPlan({ n: 16, batch: 3, backend: 'cpu' });
  const cases: [string, () => unknown, new (...a: never[]) => Error, string][] = [
    ['number[]', () => p.executeSync([1, 2, 3] as unknown as Float64Array), ArgumentError, 'input'],
    ['too short', () => p.executeSync(new Float64Array(95)), ArgumentError, 'input'],
    ['output type', () => p.executeSync(new Float64Array(96), new Float32Array(96) as never), ArgumentError, 'output'],
    ['output too short', () => p.executeSync(new Float64Array(96), new Float64Array(95)), ArgumentError, 'output'],
  ];
  for (const [what, fn, cls, arg] of cases)
    assert.throws(fn, (e: unknown) => e instanceof cls && (e as Error).message.includes(arg), what);
  p.destroy();
  assert.throws(() => p.executeSync(new Float64Array(96)), DestroyedError);
});
