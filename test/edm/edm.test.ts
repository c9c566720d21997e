import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEdmPlan, edmProblem, edmReference, resolveEdm } from '../../src/apps/edm/edm.js';
import { EDM_CASES, edmCase } from '../../src/apps/edm/cases.js';
import { planGridConv } from '../../src/planner/convolve-grid.js';
import { generateGridKernel } from '../../src/codegen/convolve-grid.js';
import { fft2 } from '../../src/backends/cpu/fft-nd.js';
import { randomFloat32, randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError, DeviceLimitError } from '../../src/errors.js';
import { testGpu } from '../helpers/gpu.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};

test('EDM cases are those of seed 001 (Table 4.2)', () => {
  assert.deepEqual(
    EDM_CASES.map((c) => [c.id, c.M, c.mfft, c.layers, c.slices]),
    [
      [1, 7, 16, 16, 51],
      [2, 7, 16, 24, 75],
      [3, 7, 16, 32, 99],
      [4, 15, 32, 32, 99],
      [5, 15, 32, 64, 195],
      [6, 31, 64, 64, 195],
      [7, 63, 128, 128, 387],
    ],
  );
  assert.equal(edmProblem(edmCase(7), 7).slices, 387 * 7);
});

test('planner: one fused kernel when an mfft² grid fits the workgroup memory, three passes otherwise', () => {
  for (const c of EDM_CASES) {
    const g = {
      P: c.mfft,
      Q: c.mfft,
      inRows: c.M,
      inCols: c.M,
      outRow0: 0,
      outCol0: 0,
      outRows: c.M,
      outCols: c.M,
      inverse: true,
    };
    const r = planGridConv(g, H200);
    assert.equal(r.algorithm, c.mfft <= 64 ? 'fused' : 'split', `case ${c.id}`);
    assert.equal(r.kernels.length, c.mfft <= 64 ? 1 : 3);
    for (const k of r.kernels) {
      const src = generateGridKernel(g, k);
      assert.ok(
        src.workgroupBytes <= H200.maxComputeWorkgroupStorageSize,
        `case ${c.id} ${k.kind}: ${src.workgroupBytes} B`,
      );
      assert.ok(k.threads <= 1024);
    }
  }
  // the cache key holds what changes the code: geometry and kernel config
  const g = { P: 16, Q: 16, inRows: 7, inCols: 7, outRow0: 0, outCol0: 0, outRows: 7, outCols: 7, inverse: true };
  const a = generateGridKernel(g, planGridConv(g, H200).kernels[0]);
  const b = generateGridKernel({ ...g, inRows: 6 }, planGridConv({ ...g, inRows: 6 }, H200).kernels[0]);
  assert.notEqual(a.key, b.key);
  assert.equal(a.key, generateGridKernel(g, planGridConv(g, H200).kernels[0]).key);
});

test('float64 reference: a delta at mode (0,0) with a constant shape function returns the block scaled', () => {
  const p = resolveEdm({ M: 3, mfft: 8, shapes: 1, components: 1 });
  const x = new Float64Array(2 * 9);
  x[0] = 1;
  const s = new Float64Array(2 * 64).fill(0);
  for (let i = 0; i < 64; i++) s[2 * i] = 2;
  const y = edmReference(p, x, s);
  assert.equal(y[0], 2);
  assert.ok(y.slice(2).every((v) => Math.abs(v) < 1e-15));
  // shape function = FFT2 of a grid h: the result is the circular convolution of pad(x) with h, cropped
  const h = randomFloat64(2 * 64, 3);
  const S = fft2(h, [8, 8]).data;
  const xb = randomFloat64(2 * 9, 4);
  const yy = edmReference(p, xb, S);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const hr = (r - i + 8) % 8;
          const hc = (c - j + 8) % 8;
          const a = [xb[2 * (i * 3 + j)], xb[2 * (i * 3 + j) + 1]];
          const b = [h[2 * (hr * 8 + hc)], h[2 * (hr * 8 + hc) + 1]];
          re += a[0] * b[0] - a[1] * b[1];
          im += a[0] * b[1] + a[1] * b[0];
        }
      }
      assert.ok(Math.abs(yy[2 * (r * 3 + c)] - re) < 1e-12 && Math.abs(yy[2 * (r * 3 + c) + 1] - im) < 1e-12);
    }
  }
});

test('WebGPU EDM cases 1–7 (one angle; cases 1–3 also with 7 angles) match the float64 reference', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const runs: [number, number][] = [
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 1],
    [5, 1],
    [6, 1],
    [7, 1],
    [1, 7],
    [3, 7],
  ];
  for (const [id, angles] of runs) {
    const p = edmProblem(edmCase(id), angles);
    const x = randomFloat32(2 * p.slices * p.M * p.M, 10 + id);
    const s = randomFloat32(2 * p.shapes * p.mfft * p.mfft, 20 + id);
    const plan = await createEdmPlan(p, { gpu });
    const y = await plan.run(x, s);
    plan.destroy();
    const err = relativeL2(y, edmReference(p, x, s));
    assert.ok(err <= 1e-5, `case ${id}, ${angles} angles: relative L2 ${err}`);
  }
});

test('WebGPU EDM split (three-pass) version matches too, and with other component counts', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  for (const p of [
    edmProblem(edmCase(4), 1),
    resolveEdm({ M: 5, mfft: 12, shapes: 4, components: 2, angles: 3 }),
    resolveEdm({ M: 9, mfft: 10, shapes: 2, components: 1 }),
  ]) {
    for (const [split, fuseMultiply] of [
      [false, true],
      [true, true],
      [false, false],
      [true, false],
    ]) {
      const x = randomFloat32(2 * p.slices * p.M * p.M, 31);
      const s = randomFloat32(2 * p.shapes * p.mfft * p.mfft, 32);
      const plan = await createEdmPlan(p, { gpu, tuning: { split, fuseMultiply } });
      assert.equal(plan.passes, split ? 3 : 1);
      const err = relativeL2(await plan.run(x, s), edmReference(p, x, s));
      plan.destroy();
      assert.ok(err <= 1e-5, `${JSON.stringify(p)} split=${split} fuseMultiply=${fuseMultiply}: ${err}`);
    }
  }
});

test('EDM errors name the argument', async () => {
  assert.throws(
    () => resolveEdm({ M: 17, mfft: 16, shapes: 1 }),
    (e: unknown) => e instanceof ArgumentError && /M/.test(e.message),
  );
  assert.throws(() => resolveEdm({ M: 7, mfft: 16, shapes: 0 }), ArgumentError);
  assert.throws(
    () => edmReference({ M: 7, mfft: 16, shapes: 2 }, new Float64Array(10), new Float64Array(2 * 2 * 256)),
    (e: unknown) => e instanceof ArgumentError && /field/.test(e.message),
  );
  assert.throws(() => edmCase(8), RangeError);
});

test('WebGPU EDM: angles beyond one storage binding run in windows (aligned and staged) and match the reference', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  // Case 7 with 7 angles needs a 174,763,008-byte intermediate on a device allowing 134,217,728: the same
  // split, scaled down with an artificial binding limit. Per angle: case 1 binds 51 slices of 7² complex
  // (19,992 bytes, not a multiple of 16, so some windows start where no binding can and are staged).
  const runs: [ReturnType<typeof resolveEdm>, number, { split?: boolean }, [number, number][]][] = [
    [
      edmProblem(edmCase(1), 7),
      3 * 19992,
      {},
      [
        [0, 3],
        [3, 3],
        [6, 1],
      ],
    ],
    [
      edmProblem(edmCase(1), 5),
      19992,
      {},
      [
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 1],
      ],
    ],
    // split version: its intermediates (M × mfft per slice) set the windows
    [
      resolveEdm({ M: 5, mfft: 12, shapes: 4, components: 2, angles: 5 }),
      2 * 8 * 5 * 12 * 8 * 2,
      { split: true },
      [
        [0, 3],
        [3, 2],
      ],
    ],
    [
      edmProblem(edmCase(4), 3),
      2 * 99 * 15 * 32 * 8,
      { split: true },
      [
        [0, 2],
        [2, 1],
      ],
    ],
  ];
  for (const [i, [p, limit, planner, windows]] of runs.entries()) {
    const x = randomFloat32(2 * p.slices * p.M * p.M, 40 + i);
    const s = randomFloat32(2 * p.shapes * p.mfft * p.mfft, 50 + i);
    const plan = await createEdmPlan(p, {
      gpu,
      tuning: { ...planner, splitLimits: { maxStorageBufferBindingSize: limit } },
    });
    assert.deepEqual(plan.angleWindows, windows, `run ${i}`);
    const y = await plan.run(x, s);
    plan.destroy();
    const err = relativeL2(y, edmReference(p, x, s));
    assert.ok(err <= 1e-5, `run ${i} (${JSON.stringify(p)}): relative L2 ${err}`);
  }
  // One angle that does not fit is refused, naming the limit.
  const p = edmProblem(edmCase(1), 2);
  await assert.rejects(
    createEdmPlan(p, { gpu, tuning: { splitLimits: { maxStorageBufferBindingSize: 19992 - 8 } } }),
    DeviceLimitError,
  );
});
