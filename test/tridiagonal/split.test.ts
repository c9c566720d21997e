/**
 * WebGPU tridiagonal batches split into binding windows and dispatch chunks. `splitLimits` lowers the
 * storage-binding size and the workgroups per grid dimension used for splitting, so small data exercises
 * chunks of matrices, chunks of right-hand sides, misaligned window starts, 2-D grids and multi-level
 * (partitioned) systems on the software adapter. Results are checked against float64 Thomas with the
 * output poisoned by NaN; status bits must be the same as an unsplit solve's, system by system.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { acquireGpu, createStorageBuffer, readBuffer, type GpuContext } from '../../src/backends/webgpu/device.js';
import {
  createTridiagonalPlan,
  TRIDIAGONAL_STATUS as S,
  type TridiagonalSplitLimits,
} from '../../src/api/tridiagonal.js';
import { planTridiagonal, type TridiagonalPlanOptions } from '../../src/planner/tridiagonal.js';
import { planTridiagonalChunks } from '../../src/backends/webgpu/tridiagonal.js';
import { DeviceLimitError, ArgumentError } from '../../src/errors.js';
import { rng } from '../../src/util/random.js';
import { checkAgainstThomas, randomSystems, toLayout, type RandomSystems, type Shape } from './helpers.js';

const F32_BOUND = 1e-5;

/** A binding limit whose room for a window, after the worst-case misalignment of its start, is `bytes`. */
const room = (ctx: GpuContext, bytes: number) => bytes + Math.max(ctx.limits.minStorageBufferOffsetAlignment, 8);

async function runSplit(
  ctx: GpuContext,
  sh: Shape,
  sys: RandomSystems,
  splitLimits?: TridiagonalSplitLimits,
  planOptions?: TridiagonalPlanOptions,
) {
  const w = sh.complex ? 2 : 1;
  const plan = await createTridiagonalPlan({
    ...sh,
    backend: 'webgpu',
    gpu: ctx,
    tuning: { ...planOptions, splitLimits },
  });
  const bufs = [sys.a, sys.b, sys.c, sys.d].map((v) => createStorageBuffer(ctx, Float32Array.from(v)));
  const len = sh.n * sh.batch * sh.nrhs * w;
  const out = createStorageBuffer(ctx, new Float32Array(len).fill(NaN));
  try {
    const r = await plan.solve({ lower: bufs[0], diag: bufs[1], upper: bufs[2], rhs: bufs[3], out });
    const x = new Float32Array(await readBuffer(ctx, out, 0, len * 4));
    return { x, status: r.status, chunks: plan.chunkCount, levels: plan.recipe!.levels.length };
  } finally {
    plan.destroy();
    for (const b of [...bufs, out]) b.destroy();
  }
}

async function checkSplit(
  ctx: GpuContext,
  sh: Shape,
  seed: number,
  split: TridiagonalSplitLimits,
  planOptions?: TridiagonalPlanOptions,
) {
  const sys = toLayout(randomSystems(sh.n, sh.batch, seed, { complex: sh.complex, rhsCount: sh.nrhs }), sh);
  const r = await runSplit(ctx, sh, sys, split, planOptions);
  const { err, res } = checkAgainstThomas(sys, r.x, sh, true);
  const what = `${JSON.stringify(sh)} split ${JSON.stringify(split)}: ${r.chunks} chunks, ${r.levels} levels`;
  assert.ok(err < F32_BOUND, `${what}: error ${err}`);
  assert.ok(res < F32_BOUND, `${what}: residual ${res}`);
  assert.ok(
    r.status.every((s) => s === 0),
    `${what}: status ${[...r.status]}`,
  );
  return r;
}

test('planTridiagonalChunks: windows aligned, within the limit and the arrays, every system exactly once', () => {
  const g = rng(31);
  const int = (lo: number, hi: number) => lo + Math.floor(g() * (hi - lo + 1));
  const H = {
    maxComputeWorkgroupStorageSize: 32768,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupsPerDimension: 65535,
  };
  let split = 0;
  for (let t = 0; t < 400; t++) {
    const problem = {
      n: int(1, 3000),
      batch: int(1, 200),
      nrhs: int(1, 4),
      layout: g() < 0.5 ? ('strided' as const) : ('interleaved' as const),
      complex: g() < 0.4,
    };
    const E = problem.complex ? 8 : 4;
    const recipe = planTridiagonal(problem, H, { maxRowsPerWorkgroup: g() < 0.5 ? 64 : 1024 });
    const align = [16, 32, 256][int(0, 2)];
    const limits = {
      maxStorageBufferBindingSize: 4 * int(align / 4 + 16, (problem.n * problem.batch * E) / 2),
      maxComputeWorkgroupsPerDimension: int(2, 64),
      minStorageBufferOffsetAlignment: align,
    };
    let chunks;
    try {
      chunks = planTridiagonalChunks(recipe, limits);
    } catch (e) {
      assert.ok(e instanceof DeviceLimitError, String(e));
      continue;
    }
    if (chunks.length > 1) split++;
    const seen = new Uint8Array(problem.batch * problem.nrhs);
    const matBytes = problem.n * problem.batch * E;
    for (const c of chunks) {
      for (const win of [c.mat, c.rhs, c.status]) {
        assert.equal(win.offset % align, 0);
        assert.ok(
          win.size <= limits.maxStorageBufferBindingSize,
          `window ${win.size} > ${limits.maxStorageBufferBindingSize}`,
        );
        assert.equal(win.size % 4, 0);
        assert.ok(Number.isInteger(win.rem) && win.rem >= 0);
      }
      assert.ok(c.mat.offset + c.mat.size <= matBytes);
      assert.ok(c.rhs.offset + c.rhs.size <= matBytes * problem.nrhs);
      assert.ok(c.status.offset + c.status.size <= problem.batch * 4);
      assert.equal(c.systems, c.matrices * c.rhsCount);
      assert.ok(
        c.rhsCount === 1 || c.matrices === problem.batch,
        'a chunk is a run of right-hand sides or a run of matrices',
      );
      for (let r = c.r0; r < c.r0 + c.rhsCount; r++) {
        for (let j = c.j0; j < c.j0 + c.matrices; j++) seen[r * problem.batch + j]++;
      }
    }
    assert.ok(
      seen.every((v) => v === 1),
      'every system in exactly one chunk',
    );
  }
  assert.ok(split > 100, `only ${split} problems split`);
});

test('WebGPU strided batches split across bindings (real and complex, several right-hand sides)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Runs of matrices with misaligned window starts (9 systems of 400 bytes a window).
  let r = await checkSplit(ctx, { n: 100, batch: 40, nrhs: 1, layout: 'strided', complex: false }, 1, {
    maxStorageBufferBindingSize: room(ctx, 3600),
  });
  assert.equal(r.chunks, 5);
  // Runs of right-hand sides over the whole batch: the matrices fit, rhs of 3 × 800 bytes does not.
  r = await checkSplit(ctx, { n: 20, batch: 10, nrhs: 3, layout: 'strided', complex: false }, 2, {
    maxStorageBufferBindingSize: room(ctx, 1600),
  });
  assert.equal(r.chunks, 2);
  r = await checkSplit(ctx, { n: 37, batch: 23, nrhs: 2, layout: 'strided', complex: true }, 3, {
    maxStorageBufferBindingSize: 3000,
  });
  assert.ok(r.chunks > 4, `${r.chunks} chunks`);
  // Everything fits: one chunk.
  r = await checkSplit(ctx, { n: 37, batch: 23, nrhs: 2, layout: 'strided', complex: true }, 3, {});
  assert.equal(r.chunks, 1);
});

test('WebGPU interleaved batches split across bindings (runs of right-hand sides, runs of matrices)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Matrices (1920 bytes) fit a window, two right-hand sides do not: one chunk per right-hand side.
  let r = await checkSplit(ctx, { n: 8, batch: 60, nrhs: 2, layout: 'interleaved', complex: false }, 4, {
    maxStorageBufferBindingSize: room(ctx, 1920),
  });
  assert.equal(r.chunks, 2);
  // Matrices do not fit: 28 matrices a window ((n − 1)·batch + 28 elements), 3 windows per right-hand side.
  r = await checkSplit(ctx, { n: 8, batch: 60, nrhs: 2, layout: 'interleaved', complex: false }, 5, {
    maxStorageBufferBindingSize: room(ctx, (7 * 60 + 28) * 4),
  });
  assert.equal(r.chunks, 6);
  r = await checkSplit(ctx, { n: 5, batch: 41, nrhs: 3, layout: 'interleaved', complex: true }, 6, {
    maxStorageBufferBindingSize: room(ctx, 1700),
  });
  assert.equal(r.chunks, 3);
  // Complex, 5 matrices a window: (n − 1)·batch + 5 elements of 8 bytes.
  r = await checkSplit(ctx, { n: 30, batch: 40, nrhs: 2, layout: 'interleaved', complex: true }, 15, {
    maxStorageBufferBindingSize: room(ctx, 8 * (29 * 40 + 5)),
  });
  assert.equal(r.chunks, 16);
});

test('WebGPU multi-level (partitioned) systems split across bindings, both layouts', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const po = { maxRowsPerWorkgroup: 64, partitionRowsPerWorkgroup: 64, interleavedStreamRows: Infinity };
  let r = await checkSplit(
    ctx,
    { n: 600, batch: 12, nrhs: 2, layout: 'strided', complex: false },
    7,
    { maxStorageBufferBindingSize: room(ctx, 7200) },
    po,
  );
  assert.ok(r.levels >= 2 && r.chunks === 8, `${r.levels} levels, ${r.chunks} chunks`);
  r = await checkSplit(
    ctx,
    { n: 600, batch: 3, nrhs: 2, layout: 'interleaved', complex: false },
    8,
    { maxStorageBufferBindingSize: 8192 },
    po,
  );
  assert.ok(r.levels >= 2 && r.chunks === 2, `${r.levels} levels, ${r.chunks} chunks`);
  // Complex interleaved, five matrices a window ((n − 1)·40 + 5 elements of 8 bytes).
  const po32 = { maxRowsPerWorkgroup: 32, partitionRowsPerWorkgroup: 32, interleavedStreamRows: Infinity };
  r = await checkSplit(
    ctx,
    { n: 300, batch: 40, nrhs: 1, layout: 'interleaved', complex: true },
    9,
    { maxStorageBufferBindingSize: room(ctx, 8 * (299 * 40 + 5)) },
    po32,
  );
  assert.ok(r.levels >= 2 && r.chunks === 8, `${r.levels} levels, ${r.chunks} chunks`);
  // Three levels, one system a window.
  r = await checkSplit(
    ctx,
    { n: 1200, batch: 5, nrhs: 3, layout: 'strided', complex: true },
    10,
    { maxStorageBufferBindingSize: 12000 },
    po32,
  );
  assert.ok(r.levels >= 3 && r.chunks === 15, `${r.levels} levels, ${r.chunks} chunks`);
});

test('WebGPU dispatches beyond a 2-D grid are split into chunks (and combined with binding windows)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // 300 one-system workgroups, at most 3 × 3 a grid: 34 chunks.
  let r = await checkSplit(
    ctx,
    { n: 32, batch: 300, nrhs: 1, layout: 'strided', complex: false },
    11,
    { maxComputeWorkgroupsPerDimension: 3 },
    { targetRowsPerWorkgroup: 32 },
  );
  assert.equal(r.chunks, 34);
  r = await checkSplit(
    ctx,
    { n: 200, batch: 30, nrhs: 2, layout: 'interleaved', complex: false },
    12,
    { maxComputeWorkgroupsPerDimension: 4, maxStorageBufferBindingSize: 30000 },
    { maxRowsPerWorkgroup: 32, partitionRowsPerWorkgroup: 32, interleavedStreamRows: Infinity },
  );
  assert.ok(r.chunks > 2, `${r.chunks} chunks`);
  // The streamed per-system Thomas (its c' scratch indexed per chunk of systems): 5 workgroups, 4 a grid.
  r = await checkSplit(ctx, { n: 200, batch: 100, nrhs: 3, layout: 'interleaved', complex: false }, 13, {
    maxComputeWorkgroupsPerDimension: 2,
  });
  assert.ok(r.chunks >= 2, `stream: ${r.chunks} chunks`);
});

test('WebGPU split solves: status of every system is the same as unsplit, and points at the right systems', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const complex of [false, true]) {
      const sh: Shape = { n: 50, batch: 40, nrhs: 2, layout, complex };
      const w = complex ? 2 : 1;
      const base = randomSystems(sh.n, sh.batch, 13, { complex, rhsCount: sh.nrhs });
      // Contiguous order before toLayout: matrix j row i at j·n + i, rhs r at (r·batch + j)·n + i.
      base.d[((1 * sh.batch + 7) * sh.n + 10) * w] = NaN; // system 7, second right-hand side
      for (let i = 0; i < sh.n * w; i++) {
        base.a[23 * sh.n * w + i] = 0;
        base.b[23 * sh.n * w + i] = 0;
        base.c[23 * sh.n * w + i] = 0;
      } // singular
      const weak = (31 * sh.n + 20) * w; // one weak row: not dominant (|b| = 0.5 < |a| + |c| = 2)
      base.a[weak] = 1;
      base.c[weak] = 1;
      base.b[weak] = 0.5;
      if (complex) {
        base.a[weak + 1] = 0;
        base.c[weak + 1] = 0;
        base.b[weak + 1] = 0;
      }
      const sys = toLayout(base, sh);
      const whole = await runSplit(ctx, sh, sys);
      // Strided: 5 systems a window; interleaved: 10 matrices a window.
      const bytes = layout === 'strided' ? 5 * sh.n * 4 : ((sh.n - 1) * sh.batch + 10) * 4;
      const split = await runSplit(ctx, sh, sys, { maxStorageBufferBindingSize: room(ctx, bytes * w) });
      const what = `${layout} ${complex ? 'complex' : 'real'}`;
      assert.ok(split.chunks > 2, `${what}: ${split.chunks} chunks`);
      assert.deepEqual([...split.status], [...whole.status], `${what}: status split vs whole`);
      assert.ok(split.status[7] & S.NON_FINITE, `${what}: system 7 ${split.status[7]}`);
      assert.ok(split.status[23] & S.ZERO_PIVOT, `${what}: system 23 ${split.status[23]}`);
      assert.equal(split.status[31] & S.NOT_DIAGONALLY_DOMINANT, S.NOT_DIAGONALLY_DOMINANT, `${what}: system 31`);
      split.status.forEach((s, j) => {
        if (j !== 7 && j !== 23 && j !== 31) assert.equal(s, 0, `${what}: system ${j} status ${s}`);
      });
      // The healthy systems' solutions are those of the unsplit solve.
      for (let k = 0; k < split.x.length; k++) {
        if (Number.isFinite(whole.x[k])) assert.equal(split.x[k], whole.x[k]);
      }
    }
  }
});

test('WebGPU typed arrays and cyclic systems through split plans', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const sh: Shape = { n: 64, batch: 20, nrhs: 2, layout: 'strided', complex: false };
  const sys = toLayout(randomSystems(sh.n, sh.batch, 14, { rhsCount: sh.nrhs }), sh);
  const plan = await createTridiagonalPlan({
    ...sh,
    backend: 'webgpu',
    gpu: ctx,
    tuning: { splitLimits: { maxStorageBufferBindingSize: 2048 } },
  });
  assert.ok(plan.chunkCount > 4);
  const r = await plan.solve({
    lower: Float32Array.from(sys.a),
    diag: Float32Array.from(sys.b),
    upper: Float32Array.from(sys.c),
    rhs: Float32Array.from(sys.d),
  });
  plan.destroy();
  assert.ok(r.ok && r.backend === 'webgpu');
  const { err } = checkAgainstThomas(sys, r.x as Float32Array, sh, true);
  assert.ok(err < F32_BOUND, `typed arrays: ${err}`);
  // Cyclic: the inner plan (nrhs + 1 right-hand sides) is split; compare with the CPU float64 cyclic solve.
  const cyc = { n: 40, batch: 16, nrhs: 1, cyclic: true };
  const data = {
    lower: Float32Array.from(sys.a.subarray(0, 640)),
    diag: Float32Array.from(sys.b.subarray(0, 640)),
    upper: Float32Array.from(sys.c.subarray(0, 640)),
    rhs: Float32Array.from(sys.d.subarray(0, 640)),
  };
  const gp = await createTridiagonalPlan({
    ...cyc,
    backend: 'webgpu',
    gpu: ctx,
    tuning: { splitLimits: { maxStorageBufferBindingSize: 1024 } },
  });
  assert.ok(gp.chunkCount > 2, `cyclic: ${gp.chunkCount} chunks`);
  const got = await gp.solve(data);
  gp.destroy();
  const ref = await (
    await createTridiagonalPlan({ ...cyc, backend: 'cpu', dtype: 'float64' })
  ).solve({
    lower: Float64Array.from(data.lower),
    diag: Float64Array.from(data.diag),
    upper: Float64Array.from(data.upper),
    rhs: Float64Array.from(data.rhs),
  });
  let num = 0,
    den = 0;
  for (let k = 0; k < ref.x.length; k++) {
    num += ((got.x as Float32Array)[k] - (ref.x as Float64Array)[k]) ** 2;
    den += (ref.x as Float64Array)[k] ** 2;
  }
  assert.ok(got.ok && Math.sqrt(num / den) < F32_BOUND, `cyclic: ${Math.sqrt(num / den)}`);
});

test('a single system beyond one binding is refused with DeviceLimitError (webgpu) or solved on the CPU (auto)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const split = { maxStorageBufferBindingSize: 4096 };
  const refused = async (desc: object, re: RegExp) => {
    await assert.rejects(
      createTridiagonalPlan({
        n: 2000,
        batch: 2,
        backend: 'webgpu',
        gpu: ctx,
        tuning: { splitLimits: split },
        ...desc,
      }),
      (e: unknown) => {
        assert.ok(e instanceof DeviceLimitError, String(e));
        assert.equal(e.limit, 'maxStorageBufferBindingSize');
        assert.match(e.message, re);
        return true;
      },
    );
  };
  await refused({}, /one system/);
  // Interleaved: one system spans (n − 1)·batch + 1 elements.
  await refused({ n: 600, batch: 3, layout: 'interleaved' }, /interleaved system spans/);
  const auto = await createTridiagonalPlan({
    n: 2000,
    batch: 2,
    backend: 'auto',
    gpu: ctx,
    tuning: { splitLimits: split },
  });
  assert.equal(auto.backend, 'cpu');
  auto.destroy();
  await assert.rejects(
    createTridiagonalPlan({
      n: 8,
      backend: 'webgpu',
      gpu: ctx,
      tuning: { splitLimits: { maxStorageBufferBindingSize: 0 } },
    }),
    ArgumentError,
  );
  await assert.rejects(
    createTridiagonalPlan({
      n: 8,
      backend: 'auto',
      gpu: ctx,
      tuning: { splitLimits: { maxComputeWorkgroupsPerDimension: 1.5 } },
    }),
    ArgumentError,
  );
});

test('plan creation leaves no GPU buffers behind when it throws', async (t) => {
  if (!(await testGpu())) return t.skip('no WebGPU adapter');
  const ctx = await acquireGpu();
  const d = ctx.device;
  const create = d.createBuffer.bind(d);
  let live = 0;
  let failAt = -1;
  let made = 0;
  d.createBuffer = (desc: GPUBufferDescriptor): GPUBuffer => {
    if (made++ === failAt) throw new DeviceLimitError('maxBufferSize', desc.size, 0, 'test: allocation refused');
    const b = create(desc);
    live++;
    const destroy = b.destroy.bind(b);
    let gone = false;
    Object.defineProperty(b, 'destroy', {
      value: () => {
        if (!gone) {
          gone = true;
          live--;
        }
        destroy();
      },
    });
    return b;
  };
  try {
    const desc = {
      n: 600,
      batch: 6,
      nrhs: 2,
      backend: 'webgpu' as const,
      gpu: ctx,
      tuning: {
        maxRowsPerWorkgroup: 32,
        partitionRowsPerWorkgroup: 32,
        splitLimits: { maxStorageBufferBindingSize: 8192 },
      },
    };
    made = 0;
    const ok = await createTridiagonalPlan(desc);
    const allocations = made;
    assert.ok(allocations > 5 && live === allocations);
    ok.destroy();
    assert.equal(live, 0);
    // Refuse each allocation in turn: the plan throws and frees what it had made.
    for (let k = 0; k < allocations; k++) {
      made = 0;
      failAt = k;
      await assert.rejects(createTridiagonalPlan(desc), DeviceLimitError);
      assert.equal(live, 0, `allocation ${k} refused: ${live} buffers alive`);
    }
    failAt = -1;
    // Refused problems allocate nothing.
    await assert.rejects(createTridiagonalPlan({ ...desc, n: 5000 }), DeviceLimitError);
    assert.equal(live, 0);
  } finally {
    d.createBuffer = create;
    ctx.destroy();
  }
});

test('the real device limit: arrays larger than maxStorageBufferBindingSize run in several windows', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const maxBinding = ctx.limits.maxStorageBufferBindingSize;
  if (maxBinding > 256 * 1024 * 1024) return t.skip('binding limit too large to exceed cheaply here');
  // nrhs 2: two right-hand sides together just over one binding (windows of right-hand sides);
  // nrhs 1: every array just over one binding (windows of matrices).
  for (const nrhs of [2, 1]) {
    const n = 16;
    const batch = Math.ceil(maxBinding / (4 * n * nrhs)) + 1000;
    const len = n * batch;
    const plan = await createTridiagonalPlan({ n, batch, nrhs, backend: 'webgpu', gpu: ctx });
    assert.ok(plan.chunkCount >= 2, `chunks ${plan.chunkCount}`);
    // A = tridiag(−1, 4, −1); x = 1 in the first right-hand side and x_i = i + 1 in the second.
    const xTrue = (r: number, i: number) => (r === 0 ? 1 : i + 1);
    const rhs = new Float32Array(nrhs * len);
    for (let r = 0; r < nrhs; r++) {
      for (let i = 0; i < n; i++) {
        const v = 4 * xTrue(r, i) - (i > 0 ? xTrue(r, i - 1) : 0) - (i < n - 1 ? xTrue(r, i + 1) : 0);
        for (let j = 0; j < batch; j++) rhs[(r * batch + j) * n + i] = v;
      }
    }
    const bufs = [
      createStorageBuffer(ctx, new Float32Array(len).fill(-1)),
      createStorageBuffer(ctx, new Float32Array(len).fill(4)),
      createStorageBuffer(ctx, new Float32Array(len).fill(-1)),
      createStorageBuffer(ctx, rhs),
    ];
    const out = createStorageBuffer(ctx, new Float32Array(nrhs * len).fill(NaN));
    try {
      const res = await plan.solve({ lower: bufs[0], diag: bufs[1], upper: bufs[2], rhs: bufs[3], out });
      assert.ok(res.ok && res.status.every((s) => s === 0));
      const x = new Float32Array(await readBuffer(ctx, out, 0, nrhs * len * 4));
      let worst = 0;
      let nan = 0;
      for (let k = 0; k < x.length; k++) if (Number.isNaN(x[k])) nan++;
      for (let r = 0; r < nrhs; r++) {
        for (let j = 0; j < batch; j += j + 997 < batch ? 997 : Math.max(1, batch - 1 - j)) {
          for (let i = 0; i < n; i++)
            worst = Math.max(worst, Math.abs(x[(r * batch + j) * n + i] - xTrue(r, i)) / xTrue(r, i));
        }
      }
      assert.equal(nan, 0, 'elements left unwritten');
      assert.ok(worst < 1e-5, `max relative error ${worst}`);
      console.log(
        `  nrhs ${nrhs}: ${((nrhs * len * 4) / 2 ** 20).toFixed(1)} MiB of right-hand sides over ${plan.chunkCount} windows of ≤ ${maxBinding / 2 ** 20} MiB, max error ${worst.toExponential(1)}`,
      );
    } finally {
      plan.destroy();
      for (const b of [...bufs, out]) b.destroy();
    }
  }
});
