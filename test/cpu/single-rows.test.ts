/**
 * Lane-batch lengths through the four-step recipe with partial lane groups (every batch from
 * PARTIAL_FOUR_STEP_FROM.all, single problems through SingleRowsFft below it), and short lengths and f64 256, 4096
 * in batches (lane-batch, a lone problem lane-split): against the float64 reference, batches
 * that take it and one that does not, strided, offset and in-place layouts, both directions, every norm, f32 and f64;
 * and the real FFTs whose single rows go around it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineFft } from '../../src/backends/cpu/wasm-fft.js';
import { SingleRowsFft } from '../../src/backends/cpu/single-rows.js';
import { planCpuFft } from '../../src/backends/cpu/fft-plan.js';
import {
  batchesInLanes,
  planCpuEngineBatchFft,
  planCpuEngineFft,
  planCpuEngineRfft,
  PARTIAL_FOUR_STEP_FROM,
} from '../../src/planner/cpu-fft.js';
import { createFftPlan, dht, disposeCpuWorkers, irfft, rfft } from '../../src/index.js';
import * as cpuDht from '../../src/backends/cpu/r2r-dht.js';
import { bound, relErr, rng } from '../helpers/numeric.js';
import { R2R_AND_REFERENCES } from '../helpers/r2r.js';

test('single rows: the four-step with partial lane groups, planned for long lane-batch lengths', () => {
  // Every batch from PARTIAL_FOUR_STEP_FROM.all; single problems only from PARTIAL_FOUR_STEP_FROM.single.
  const f32 = planCpuEngineFft(59049, 'f32');
  assert.equal(f32.kind, 'four-step');
  assert.ok(f32.kind === 'four-step' && f32.partial && f32.n1 === 243 && f32.n2 === 243 && f32.blockGroups === 1);
  const mid = planCpuEngineFft(19683, 'f32');
  assert.ok(mid.kind === 'lane-batch' && mid.single?.kind === 'four-step' && mid.single.partial);
  assert.ok(engineFft(19683, 'f32') instanceof SingleRowsFft);
  const short = planCpuEngineFft(2187, 'f32');
  assert.ok(short.kind === 'lane-batch' && !short.single, 'below PARTIAL_FOUR_STEP_FROM.single');
  assert.ok(PARTIAL_FOUR_STEP_FROM.single <= 19683);
  // Lane-split lengths need none; real modules of such lengths pair their rows around the partial four-step.
  assert.ok(!('single' in planCpuEngineFft(65536, 'f32')));
  const real = planCpuEngineRfft(59049, 'f32');
  assert.ok(real?.kind === 'four-step' && real.partial && real.realPairs);
  const half = planCpuEngineRfft(2 * 59049, 'f32');
  assert.ok(half?.kind === 'four-step' && half.partial && half.realPost);
});

test('single rows: short lengths and f64 256, 4096 batch in the lanes, a lone problem lane-split', () => {
  const inLanes = { f32: [16, 20, 24, 28, 32], f64: [4, 6, 8, 12, 16, 20, 26, 32, 256, 4096] };
  const split = { f32: [36, 40, 64, 256, 4096], f64: [34, 40, 64, 128, 1024] };
  for (const precision of ['f32', 'f64'] as const) {
    for (const n of inLanes[precision]) {
      assert.ok(batchesInLanes(n, precision), `${precision} ${n}`);
      const r = planCpuEngineBatchFft(n, precision);
      assert.ok(r.kind === 'lane-batch' && r.laneLength === n && r.single?.kind === 'lane-split', `n=${n}`);
      assert.deepEqual(r.single, planCpuEngineFft(n, precision));
      assert.ok(engineFft(n, precision) instanceof SingleRowsFft);
      // The real modules' halves keep planCpuEngineFft's recipe.
      if (2 * n <= 64) assert.equal(planCpuEngineRfft(2 * n, precision)?.kind, 'lane-split');
    }
    for (const n of split[precision]) {
      assert.ok(!batchesInLanes(n, precision), `${precision} ${n}`);
      assert.deepEqual(planCpuEngineBatchFft(n, precision), planCpuEngineFft(n, precision));
    }
  }
});

test('single rows: complex transforms against the float64 reference', () => {
  const r = rng(21);
  const cases: [number, 'f32' | 'f64', number, object, object][] = [
    [59049, 'f32', 1, {}, {}], // the partial four-step for every batch
    [59049, 'f32', 5, { offset: 3, stride: 2, dist: 2 * 59049 + 7 }, { offset: 1 }],
    [19683, 'f32', 1, {}, {}], // single problems only: n1 × n2 = 81 × 243
    [19683, 'f32', 2, { stride: 3 }, { stride: 2, offset: 5 }],
    [19683, 'f32', 3, {}, {}], // the lane-batch module
    [9009, 'f64', 1, {}, {}], // 91 × 99: partial groups on both sides in f64
    [22050, 'f32', 1, {}, {}], // even: 147 × 150
    [177147, 'f64', 3, {}, {}],
    [26445, 'f32', 1, {}, {}], // 129 × 205 = 3·43 × 5·41: generic passes in both phases
    [36179, 'f64', 1, {}, {}], // 143 × 253 = 11·13 × 11·23
    [16, 'f64', 5, { offset: 1, stride: 3, dist: 50 }, {}], // in the lanes: lane-batch, an odd last group
    [20, 'f32', 6, { stride: 2 }, { offset: 3 }],
    [12, 'f64', 3, {}, { stride: 2, dist: 30 }],
    [32, 'f64', 1, {}, {}],
    [16, 'f32', 7, { offset: 1, stride: 3, dist: 50 }, { offset: 2 }], // four problems a group, the last one short
    [16, 'f32', 1, {}, {}], // a lone problem: its lane-split recipe
    [16, 'f32', 2, { stride: 2 }, {}],
    [256, 'f64', 1, { stride: 2 }, { offset: 3 }], // a lone problem: its lane-split recipe
    [4096, 'f64', 4, {}, { stride: 2, dist: 8193 }],
    [4096, 'f64', 3, {}, {}],
  ];
  for (const [n, precision, batch, input, output] of cases) {
    for (const [inverse, norm] of [
      [false, 'backward'],
      [true, 'backward'],
      [true, 'ortho'],
      [false, 'forward'],
    ] as const) {
      const tag = `n=${n} ${precision} batch=${batch} ${JSON.stringify(input)} ${JSON.stringify(output)} inverse=${inverse} ${norm}`;
      const li = { offset: 0, stride: 1, dist: n, ...input } as { offset: number; stride: number; dist: number };
      const lo = { offset: 0, stride: 1, dist: n, ...output } as { offset: number; stride: number; dist: number };
      if (!('dist' in input)) li.dist = n * li.stride;
      if (!('dist' in output)) lo.dist = n * lo.stride;
      const span = (l: typeof li) => 2 * (l.offset + (n - 1) * l.stride + (batch - 1) * l.dist + 1);
      const x = new Float64Array(span(li)).map(() => r());
      const ref = new Float64Array(span(lo));
      planCpuFft(n).execute(x, ref, { batch, inverse, norm, input: li, output: lo });
      const A = precision === 'f32' ? Float32Array : Float64Array;
      const got = new A(span(lo));
      engineFft(n, precision).execute(A.from(x), got, { batch, inverse, norm, input: li, output: lo });
      // Only the layout's elements: the gaps stay as they were (zero).
      assert.ok(relErr(got, ref) <= 2 * bound(n, precision), `${tag}: rel L2 ${relErr(got, ref)}`);
    }
  }
  // In place.
  const n = 59049;
  const x = new Float32Array(2 * n).map(() => r());
  const want = new Float32Array(2 * n);
  engineFft(n, 'f32').execute(x, want, {});
  const y = x.slice();
  engineFft(n, 'f32').execute(y, y, {});
  assert.deepEqual(y, want, 'in place');
});

test('single rows: real FFTs of one or two rows around the split, forward and inverse', async () => {
  const r = rng(22);
  for (const [n, precision, rows] of [
    [59049, 'f32', 1], // odd: rows two a complex transform
    [59049, 'f32', 3],
    [118098, 'f32', 1], // even, its half lane-batch
    [2 * 177147, 'f64', 1],
    [19683, 'f32', 1],
    [2 * 19683, 'f32', 2],
    [9009, 'f64', 1],
  ] as const) {
    const x = new Float64Array(n * rows).map(() => r());
    const A = precision === 'f32' ? Float32Array : Float64Array;
    const y = await rfft(A.from(x), { shape: [rows, n], backend: 'cpu', threads: 1 });
    const h = Math.floor(n / 2) + 1;
    const ref = new Float64Array(2 * h * rows);
    for (let q = 0; q < rows; q++) {
      const z = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) z[2 * i] = x[q * n + i]!;
      const f = new Float64Array(2 * n);
      planCpuFft(n).execute(z, f);
      ref.set(f.subarray(0, 2 * h), 2 * h * q);
    }
    assert.ok(relErr(y, ref) <= 2 * bound(n, precision), `rfft n=${n} ${precision} rows=${rows}: ${relErr(y, ref)}`);
    const back = await irfft(y, { shape: [rows, h], n, backend: 'cpu', threads: 1 });
    assert.ok(relErr(back, x) <= 4 * bound(n, precision), `irfft n=${n} ${precision} rows=${rows}: ${relErr(back, x)}`);
  }
});

test('single rows: engine buffers and threads take the same transforms', async () => {
  for (const [n, batch, precision, threads] of [
    [59049, 3, 'f32', 1],
    [19683, 2, 'f32', 1],
    [59049, 5, 'f32', 2],
    [177147, 2, 'f64', 2],
  ] as const) {
    const tag = `n=${n} batch=${batch} ${precision} threads=${threads}`;
    const plan = await createFftPlan({ n, batch, backend: 'cpu', precision, threads });
    const buf = plan.createBuffers(precision);
    const r = rng(n + batch);
    for (let i = 0; i < buf.input.length; i++) buf.input[i] = r();
    const x = buf.input.slice();
    await plan.execute(buf.input, buf.output);
    assert.deepEqual(buf.input, x, `${tag}: input kept`);
    const one = await createFftPlan({ n, batch, backend: 'cpu', precision, threads: 1 });
    assert.deepEqual(buf.output, await one.execute(x), tag);
  }
  await disposeCpuWorkers();
});

test('single rows: every DCT/DST type and the DHT around the partial four-step, against the float64 reference', async () => {
  const r = rng(24);
  for (const [n, batch, Arr] of [
    [59049, 3, Float32Array], // odd: rows two a complex problem
    [118098, 1, Float32Array], // even: the half-length path
    [177147, 1, Float64Array],
    [19683, 1, Float32Array], // a lane-batch length: one row takes the module around its single four-step
    [19683, 3, Float32Array], // … three take the lane-batch module
    [9009, 1, Float64Array],
    [2 * 9009, 1, Float64Array],
    [26445, 1, Float32Array], // generic passes (41, 43) in the phases
  ] as const) {
    const x = new Float64Array(n * batch).map(() => r());
    const tol = 4 * bound(n, Arr === Float32Array ? 'f32' : 'f64');
    for (const norm of ['backward', 'ortho'] as const) {
      for (const [name, f, reference] of R2R_AND_REFERENCES) {
        for (const type of [1, 2, 3, 4]) {
          const ref = reference(x, { type, norm }, [batch, n]).data;
          const y = await f(Arr.from(x), { type, norm, shape: [batch, n], backend: 'cpu', threads: 1 });
          assert.ok(relErr(y, ref) <= tol, `${name} type ${type} n=${n} ${norm} ${Arr.name}: ${relErr(y, ref)}`);
        }
      }
      const ref = cpuDht.dht(x, { norm }, [batch, n]).data;
      const y = await dht(Arr.from(x), { norm, shape: [batch, n], backend: 'cpu', threads: 1 });
      assert.ok(relErr(y, ref) <= tol, `dht n=${n} ${norm} ${Arr.name}: ${relErr(y, ref)}`);
    }
  }
});
