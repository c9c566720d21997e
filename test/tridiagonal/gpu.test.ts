/**
 * WebGPU tridiagonal solves (software adapter here, the real GPU in CI runs with one): agreement with
 * float64 Thomas and residuals on seeded diagonally dominant systems. Output buffers are poisoned with
 * NaN before every run so an element the kernels fail to write cannot pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createStorageBuffer, readBuffer, type GpuContext } from '../../src/backends/webgpu/device.js';
import { createTridiagonalPlan, solveTridiagonal, TRIDIAGONAL_STATUS as S } from '../../src/api/tridiagonal.js';
import type { TridiagonalPlanOptions } from '../../src/planner/tridiagonal.js';
import { checkAgainstThomas, randomSystems, toLayout, type Shape } from './helpers.js';

const F32_BOUND = 1e-5;

async function runGpu(ctx: GpuContext, sh: Shape, seed: number, planOptions?: TridiagonalPlanOptions) {
  const w = sh.complex ? 2 : 1;
  const sys = toLayout(randomSystems(sh.n, sh.batch, seed, { complex: sh.complex, rhsCount: sh.nrhs }), sh);
  const plan = await createTridiagonalPlan({ ...sh, backend: 'webgpu', gpu: ctx, tuning: planOptions });
  const bufs = [sys.a, sys.b, sys.c, sys.d].map((v) => createStorageBuffer(ctx, Float32Array.from(v)));
  const out = createStorageBuffer(ctx, new Float32Array(sh.n * sh.batch * sh.nrhs * w).fill(NaN));
  try {
    const r = await plan.solve({ lower: bufs[0], diag: bufs[1], upper: bufs[2], rhs: bufs[3], out });
    assert.equal(r.x, out);
    const x = new Float32Array(await readBuffer(ctx, out, 0, sh.n * sh.batch * sh.nrhs * w * 4));
    return { ...checkAgainstThomas(sys, x, sh, true), status: r.status, recipe: plan.recipe! };
  } finally {
    plan.destroy();
    for (const b of [...bufs, out]) b.destroy();
  }
}

const SIZES = [
  ...Array.from({ length: 40 }, (_, i) => i + 1),
  47,
  63,
  64,
  65,
  100,
  127,
  128,
  129,
  200,
  255,
  256,
  257,
  333,
  511,
  512,
  513,
  700,
  777,
  1000,
  1023,
  1024,
  1025,
  1500,
  1999,
  2047,
  2048,
];

test('WebGPU real strided: N = 1 … 2048 (dense spread), batch 3', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of SIZES) {
    const r = await runGpu(ctx, { n, batch: 3, nrhs: 1, layout: 'strided', complex: false }, n);
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `n=${n}: err ${r.err} res ${r.res}`);
    assert.deepEqual([...r.status], [0, 0, 0], `n=${n}`);
  }
});

test('WebGPU radix-2 exchange steps and forced multi-stage (64-row workgroups)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const n of [5, 64, 200, 1023, 2048]) {
    const r = await runGpu(ctx, { n, batch: 3, nrhs: 1, layout: 'strided', complex: false }, 3 * n, { radix: 2 });
    assert.ok(r.err <= F32_BOUND, `radix 2 n=${n}: ${r.err}`);
  }
  for (const n of [65, 66, 129, 200, 4160, 5000]) {
    const r = await runGpu(ctx, { n, batch: 3, nrhs: 1, layout: 'strided', complex: false }, 5 * n, {
      maxRowsPerWorkgroup: 64,
    });
    assert.ok(r.recipe.levels.length >= 2);
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `partition n=${n}: ${r.err}`);
    assert.deepEqual([...r.status], [0, 0, 0]);
  }
});

test("WebGPU direct rows (vec4 loads and stores of an invocation's rows, no staging): sizes, variants, several right-hand sides", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const cases: [Shape, TridiagonalPlanOptions][] = [];
  for (const n of [4, 8, 12, 20, 100, 256, 1000, 2048, 2500, 4096])
    cases.push([{ n, batch: 3, nrhs: 2, layout: 'strided', complex: false }, {}]);
  // Each variant with two of the three rows-per-invocation values (each value runs two of them).
  for (const rowsPerThread of [4, 8, 16]) {
    if (rowsPerThread !== 8)
      cases.push([
        { n: 1000, batch: 3, nrhs: 1, layout: 'strided', complex: false },
        { rowsPerThread, radix: 4 },
      ]);
    if (rowsPerThread !== 16)
      cases.push([
        { n: 516, batch: 4, nrhs: 3, layout: 'strided', complex: false },
        { rowsPerThread, interior: 'wang-mou' },
      ]);
    if (rowsPerThread !== 4)
      cases.push([
        { n: 64, batch: 5, nrhs: 1, layout: 'strided', complex: false },
        { rowsPerThread, normalizedRows: false, pingPong: false },
      ]);
  }
  cases.push([{ n: 8192, batch: 3, nrhs: 1, layout: 'strided', complex: false }, { directMaxRows: 8192 }]);
  cases.push([
    { n: 6000, batch: 3, nrhs: 1, layout: 'strided', complex: false },
    { directMaxRows: 8192, rowsPerThread: 16, radix: 4 },
  ]);
  for (const [sh, o] of cases) {
    const r = await runGpu(ctx, sh, 13 * sh.n + sh.nrhs, o);
    const what = `${JSON.stringify(sh)} ${JSON.stringify(o)}`;
    assert.deepEqual(
      r.recipe.levels.map((l) => [l.mode, l.directRows]),
      [['solve', true]],
      what,
    );
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `${what}: err ${r.err} res ${r.res}`);
    assert.ok(
      r.status.every((s) => s === 0),
      what,
    );
  }
  // The staged kernels stay correct where direct rows are turned off.
  for (const n of [8, 1000, 2048]) {
    const r = await runGpu(ctx, { n, batch: 3, nrhs: 2, layout: 'strided', complex: false }, n, { directRows: false });
    assert.equal(r.recipe.levels[0].directRows, false);
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `staged n=${n}: err ${r.err} res ${r.res}`);
  }
});

test("WebGPU 'thomas' and 'wang-mou' interiors: rows per invocation 2 … 16, both layouts, complex, multi-stage", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Each case compiles its own kernels (about a second each cold on the software adapter, several at 16 rows
  // an invocation), so the full cross product with the four rows-per-invocation values is rotated: every
  // size runs with two of them (and each of them with both radices), every special case with two, chosen so
  // that each rowsPerThread-dependent variant below (complex, chunk rows, systems per chunk, exchange areas,
  // swizzle, radix) still runs; 16 takes the two that need it and one complex strided partition.
  const cases: [Shape, TridiagonalPlanOptions][] = [];
  for (const [k, rowsPerThread] of [2, 4, 8, 16].entries()) {
    const on = (...values: number[]) => values.includes(rowsPerThread);
    for (const [j, n] of [1, 3, 4, 13, 64, 100, 1000, 2048].entries()) {
      if ((j - k + 8) % 4 >= 2) continue;
      cases.push([
        { n, batch: 3, nrhs: 1, layout: 'strided', complex: false },
        { interior: 'thomas', rowsPerThread, radix: n % 2 === 0 ? 2 : 4 },
      ]);
    }
    if (on(2, 8))
      cases.push([
        { n: 300, batch: 5, nrhs: 2, layout: 'interleaved', complex: false },
        { interior: 'thomas', rowsPerThread, interleavedThomas: false },
      ]);
    if (on(2, 4))
      cases.push([
        { n: 5000, batch: 3, nrhs: 1, layout: 'strided', complex: false },
        { interior: 'thomas', rowsPerThread, maxRowsPerWorkgroup: 64, partitionRowsPerWorkgroup: 64 },
      ]);
    if (on(2, 4))
      cases.push([
        { n: 777, batch: 3, nrhs: 2, layout: 'strided', complex: true },
        { interior: 'thomas', rowsPerThread, maxRowsPerWorkgroup: 128 },
      ]);
    // Boundary rows not normalised (the division forms of the row algebra).
    if (on(2, 4))
      cases.push([
        { n: 5000, batch: 3, nrhs: 1, layout: 'strided', complex: rowsPerThread === 2 },
        {
          interior: 'thomas',
          rowsPerThread,
          normalizedRows: false,
          maxRowsPerWorkgroup: 256,
          partitionRowsPerWorkgroup: 128,
        },
      ]);
    if (on(4, 8))
      cases.push([
        { n: 700, batch: 3, nrhs: 2, layout: 'strided', complex: rowsPerThread === 4 },
        { rowsPerThread, branchFree: false, radix: 2 },
      ]);
    // Partition chunk loads aligned to 32 bytes (chunk starts of every residue, several right-hand sides).
    if (on(2, 8))
      cases.push([
        { n: 4001, batch: 3, nrhs: 2, layout: 'strided', complex: rowsPerThread === 8 },
        {
          rowsPerThread,
          alignChunks: true,
          maxRowsPerWorkgroup: 256,
          partitionRowsPerWorkgroup: rowsPerThread === 2 ? 32 : 64,
        },
      ]);
    // Interleaved partition level over the same chunk of several systems (batch not a multiple of them).
    if (on(8, 16))
      cases.push([
        { n: 1500, batch: 7, nrhs: 2, layout: 'interleaved', complex: rowsPerThread === 8 },
        {
          rowsPerThread,
          interleavedStreamRows: Infinity,
          maxRowsPerWorkgroup: 256,
          partitionRowsPerWorkgroup: 32,
          interleavedPartitionSystems: rowsPerThread === 16 ? 2 : 4,
        },
      ]);
    // Several partition chunks a workgroup (chunk count not a multiple of it; both layouts, complex).
    if (on(2, 4))
      cases.push([
        { n: 3001, batch: 3, nrhs: 2, layout: 'strided', complex: false },
        { rowsPerThread, maxRowsPerWorkgroup: 256, partitionRowsPerWorkgroup: 64, partitionChunksPerWorkgroup: 4 },
      ]);
    if (on(2, 4))
      cases.push([
        { n: 1500, batch: 5, nrhs: 1, layout: 'interleaved', complex: false },
        {
          rowsPerThread,
          interleavedStreamRows: Infinity,
          maxRowsPerWorkgroup: 128,
          partitionRowsPerWorkgroup: 32,
          partitionChunksPerWorkgroup: 2,
        },
      ]);
    if (on(2, 16))
      cases.push([
        { n: 999, batch: 3, nrhs: 1, layout: 'strided', complex: true },
        {
          rowsPerThread,
          maxRowsPerWorkgroup: 128,
          partitionRowsPerWorkgroup: 32,
          partitionChunksPerWorkgroup: 4,
          interior: 'wang-mou',
        },
      ]);
    // The seeds' structure (every row through every stage), with and without alternating exchange areas.
    if (on(4, 8))
      cases.push([
        { n: 1000, batch: 3, nrhs: 1, layout: 'strided', complex: false },
        { interior: 'wang-mou', rowsPerThread, radix: rowsPerThread === 8 ? 4 : 2 },
      ]);
    if (on(4, 16))
      cases.push([
        { n: 3000, batch: 3, nrhs: 2, layout: 'interleaved', complex: false },
        {
          interior: 'wang-mou',
          rowsPerThread,
          pingPong: rowsPerThread !== 4,
          swizzle: rowsPerThread !== 16,
          maxRowsPerWorkgroup: 256,
          interleavedPartitionSystems: rowsPerThread <= 4 ? 1 : 8,
        },
      ]);
  }
  for (const [sh, o] of cases) {
    const r = await runGpu(ctx, sh, 11 * sh.n + sh.batch, o);
    const what = `${JSON.stringify(sh)} ${JSON.stringify(o)}`;
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `${what}: err ${r.err} res ${r.res}`);
    assert.ok(
      r.status.every((s) => s === 0),
      what,
    );
  }
});

test("WebGPU interleaved systems by the streamed Thomas (one invocation a system, c' through global scratch)", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const cases: [Shape, number][] = [
    [{ n: 17, batch: 5, nrhs: 2, layout: 'interleaved', complex: false }, 8],
    [{ n: 33, batch: 70, nrhs: 1, layout: 'interleaved', complex: false }, 3],
    [{ n: 100, batch: 3, nrhs: 3, layout: 'interleaved', complex: false }, 16],
    [{ n: 1000, batch: 4, nrhs: 1, layout: 'interleaved', complex: false }, 8],
    [{ n: 3001, batch: 3, nrhs: 1, layout: 'interleaved', complex: false }, 1],
    [{ n: 257, batch: 3, nrhs: 2, layout: 'interleaved', complex: true }, 8],
  ];
  for (const [sh, streamChunk] of cases) {
    const r = await runGpu(ctx, sh, 3 * sh.n + sh.batch, {
      interleavedStreamRows: 17,
      interleavedStreamMaxRows: Infinity,
      streamChunk,
    });
    assert.equal(r.recipe.levels[0].algorithm, 'thomas-stream');
    const what = `${JSON.stringify(sh)} chunk ${streamChunk}`;
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `${what}: err ${r.err} res ${r.res}`);
    assert.ok(
      r.status.every((s) => s === 0),
      what,
    );
  }
});

test('WebGPU interleaved layout, several right-hand sides', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [n, batch, nrhs] of [
    [1, 5, 2],
    [4, 37, 3],
    [7, 9, 1],
    [64, 5, 2],
    [300, 3, 3],
    [2048, 3, 1],
    [3000, 3, 2],
  ]) {
    for (const layout of ['interleaved', 'strided'] as const) {
      const r = await runGpu(ctx, { n, batch, nrhs, layout, complex: false }, n + batch);
      assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `${layout} n=${n} batch=${batch} nrhs=${nrhs}: ${r.err}`);
      assert.ok(r.status.every((s) => s === 0));
    }
  }
});

test('WebGPU complex systems (both layouts, multi-stage beyond 1024 rows)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [n, layout, nrhs] of [
    [1, 'strided', 1],
    [3, 'strided', 2],
    [16, 'interleaved', 1],
    [100, 'strided', 1],
    [1024, 'strided', 1],
    [1025, 'interleaved', 2],
    [2048, 'strided', 1],
  ] as const) {
    const r = await runGpu(ctx, { n, batch: 3, nrhs, layout, complex: true }, 11 * n);
    assert.ok(r.err <= F32_BOUND && r.res <= F32_BOUND, `complex ${layout} n=${n}: ${r.err}`);
    assert.ok(r.status.every((s) => s === 0));
  }
});

test('WebGPU large systems: 2^16 (batch 3) and 2^20 (one system)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const r16 = await runGpu(ctx, { n: 1 << 16, batch: 3, nrhs: 1, layout: 'strided', complex: false }, 16);
  assert.ok(r16.err <= F32_BOUND && r16.res <= F32_BOUND, `2^16: ${r16.err}`);
  const r20 = await runGpu(ctx, { n: 1 << 20, batch: 1, nrhs: 1, layout: 'strided', complex: false }, 20);
  assert.ok(r20.recipe.levels.length >= 2);
  assert.ok(r20.err <= F32_BOUND && r20.res <= F32_BOUND, `2^20: ${r20.err}`);
  assert.deepEqual([...r20.status], [0]);
});

test('WebGPU typed-array path, status of non-dominant and singular systems', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const n = 50,
    batch = 3;
  const s = randomSystems(n, batch, 9);
  // System 1: not diagonally dominant (still solvable); system 2: singular (zero diagonal and upper).
  for (let i = 0; i < n; i++) s.b[n + i] *= 0.2;
  for (let i = 0; i < n; i++) {
    s.b[2 * n + i] = 0;
    s.c[2 * n + i] = 0;
  }
  const r = await solveTridiagonal({
    n,
    batch,
    backend: 'webgpu',
    gpu: ctx,
    lower: Float32Array.from(s.a),
    diag: Float32Array.from(s.b),
    upper: Float32Array.from(s.c),
    rhs: Float32Array.from(s.d),
  });
  assert.ok(r.x instanceof Float32Array);
  assert.equal(r.status[0], 0);
  assert.ok(r.status[1] & S.NOT_DIAGONALLY_DOMINANT);
  assert.ok(r.status[2] & S.ZERO_PIVOT, `singular status ${r.status[2]}`);
  assert.equal(r.ok, false);
  await assert.rejects(
    solveTridiagonal({
      n,
      batch,
      backend: 'webgpu',
      gpu: ctx,
      onFailure: 'throw',
      lower: Float32Array.from(s.a),
      diag: Float32Array.from(s.b),
      upper: Float32Array.from(s.c),
      rhs: Float32Array.from(s.d),
    }),
    /broke down/,
  );
  // Same singular system through the multi-stage path.
  const big = randomSystems(3000, 1, 4);
  big.b.fill(0);
  big.c.fill(0);
  const rb = await solveTridiagonal({
    n: 3000,
    backend: 'webgpu',
    gpu: ctx,
    lower: Float32Array.from(big.a),
    diag: Float32Array.from(big.b),
    upper: Float32Array.from(big.c),
    rhs: Float32Array.from(big.d),
  });
  assert.ok(rb.status[0] & S.ZERO_PIVOT);
});

test('WebGPU interleaved small systems, one invocation a system (Thomas), against Wang & Mou and float64', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const complex of [false, true]) {
    for (const [j, [n, batch, nrhs]] of (
      [
        [1, 70, 1],
        [2, 65, 2],
        [3, 129, 1],
        [5, 3, 3],
        [8, 100, 1],
        [11, 64, 2],
        [16, 200, 1],
        [4, 12, 3],
      ] as const
    ).entries()) {
      const sh = { n, batch, nrhs, layout: 'interleaved' as const, complex };
      const r = await runGpu(ctx, sh, 7 * n + batch);
      assert.equal(r.recipe.levels[0].algorithm, 'thomas', `n=${n}: Thomas level`);
      assert.ok(
        r.err <= F32_BOUND && r.res <= F32_BOUND,
        `thomas ${complex ? 'complex ' : ''}n=${n} batch=${batch} nrhs=${nrhs}: ${r.err} ${r.res}`,
      );
      assert.ok(
        r.status.every((s) => s === 0),
        `n=${n} status`,
      );
      // Wang & Mou on the same systems for every shape, real or complex in turn (its kernels compile per shape).
      if (j % 2 !== Number(complex)) continue;
      const wm = await runGpu(ctx, sh, 7 * n + batch, { interleavedThomas: false });
      assert.notEqual(wm.recipe.levels[0].algorithm, 'thomas');
      assert.ok(wm.err <= F32_BOUND, `wang-mou n=${n}: ${wm.err}`);
    }
  }
  // n = 17 pads to 32 rows: beyond the per-invocation limit, Wang & Mou.
  const r17 = await runGpu(ctx, { n: 17, batch: 5, nrhs: 1, layout: 'interleaved', complex: false }, 17);
  assert.notEqual(r17.recipe.levels[0].algorithm, 'thomas');
  assert.ok(r17.err <= F32_BOUND);
});

test('WebGPU interleaved Thomas levels (registers and streamed) report non-dominant and singular systems', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // The bad systems at the end of the batch and in its middle; every other system's status is 0.
  for (const [n, batch, planOptions] of [
    [6, 3, undefined],
    [6, 12, undefined],
    [40, 3, { interleavedStreamRows: 17, streamChunk: 8 }],
  ] as [number, number, TridiagonalPlanOptions | undefined][]) {
    const s = randomSystems(n, batch, 21);
    // Strided arrays built by the helper; system j1 made non-dominant, system j2 singular; then interleaved.
    const j1 = batch - 2,
      j2 = batch - 1 === 2 ? 2 : 6;
    for (let i = 0; i < n; i++) s.b[j1 * n + i] *= 0.2;
    for (let i = 0; i < n; i++) {
      s.b[j2 * n + i] = 0;
      s.c[j2 * n + i] = 0;
    }
    const il = toLayout(s, { n, batch, nrhs: 1, layout: 'interleaved', complex: false });
    const r: Awaited<ReturnType<typeof solveTridiagonal>> = await solveTridiagonal({
      n,
      batch,
      layout: 'interleaved',
      backend: 'webgpu',
      gpu: ctx,
      tuning: planOptions,
      lower: Float32Array.from(il.a),
      diag: Float32Array.from(il.b),
      upper: Float32Array.from(il.c),
      rhs: Float32Array.from(il.d),
    });
    for (let j = 0; j < batch; j++) {
      if (j === j1)
        assert.ok(r.status[j] & S.NOT_DIAGONALLY_DOMINANT, `n=${n} batch=${batch} status[${j}] ${r.status[j]}`);
      else if (j === j2)
        assert.ok(r.status[j] & S.ZERO_PIVOT, `n=${n} batch=${batch} singular status[${j}] ${r.status[j]}`);
      else assert.equal(r.status[j], 0, `n=${n} batch=${batch} status[${j}]`);
    }
  }
});

test('WebGPU status words are rewritten by every solve of a plan (stored, or OR-ed into a cleared buffer)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // Every kind of level that can be the whole solve, plus a multi-stage and a several-right-hand-side
  // solve (which keep the clear): a first solve with broken systems, then one with good systems on the
  // same plan must leave no stale bits; then the broken ones again must report them.
  const cases: [string, Shape, TridiagonalPlanOptions | undefined][] = [
    ['thomas interleaved', { n: 6, batch: 37, nrhs: 1, layout: 'interleaved', complex: false }, undefined],
    [
      'thomas-stream interleaved',
      { n: 40, batch: 5, nrhs: 1, layout: 'interleaved', complex: false },
      { interleavedStreamRows: 17, streamChunk: 8 },
    ],
    [
      'wang-mou interleaved',
      { n: 40, batch: 9, nrhs: 1, layout: 'interleaved', complex: false },
      { interleavedThomas: false },
    ],
    ['wang-mou strided direct', { n: 64, batch: 9, nrhs: 1, layout: 'strided', complex: false }, undefined],
    ['wang-mou strided staged', { n: 50, batch: 11, nrhs: 1, layout: 'strided', complex: false }, undefined],
    ['wang-mou strided small systems', { n: 4, batch: 200, nrhs: 1, layout: 'strided', complex: false }, undefined],
    ['wang-mou complex', { n: 33, batch: 5, nrhs: 1, layout: 'strided', complex: true }, undefined],
    ['multi-stage', { n: 300, batch: 3, nrhs: 1, layout: 'strided', complex: false }, { maxRowsPerWorkgroup: 64 }],
    ['two right-hand sides', { n: 20, batch: 5, nrhs: 2, layout: 'strided', complex: false }, undefined],
  ];
  for (const [what, sh, planOptions] of cases) {
    const { n, batch } = sh;
    const w = sh.complex ? 2 : 1;
    const good = toLayout(randomSystems(n, batch, 31, { complex: sh.complex, rhsCount: sh.nrhs }), sh);
    const badS = randomSystems(n, batch, 31, { complex: sh.complex, rhsCount: sh.nrhs });
    const j1 = 1,
      j2 = batch - 1;
    for (let k = 0; k < n * w; k++) badS.b[j1 * n * w + k] *= 0.2;
    for (let k = 0; k < n * w; k++) {
      badS.b[j2 * n * w + k] = 0;
      badS.c[j2 * n * w + k] = 0;
    }
    const bad = toLayout(badS, sh);
    const plan = await createTridiagonalPlan({ ...sh, backend: 'webgpu', gpu: ctx, tuning: planOptions });
    try {
      const solve = (s: typeof good) =>
        plan.solve({
          lower: Float32Array.from(s.a),
          diag: Float32Array.from(s.b),
          upper: Float32Array.from(s.c),
          rhs: Float32Array.from(s.d),
        });
      for (const [round, s] of [
        [0, bad],
        [1, good],
        [2, bad],
      ] as const) {
        const r = await solve(s);
        for (let j = 0; j < batch; j++) {
          const st = r.status[j];
          const where = `${what}, solve ${round}, status[${j}] = ${st}`;
          if (s === good || (j !== j1 && j !== j2)) assert.equal(st, 0, where);
          else if (j === j1) assert.ok(st & S.NOT_DIAGONALLY_DOMINANT, where);
          else assert.ok(st & S.ZERO_PIVOT, where);
        }
      }
    } finally {
      plan.destroy();
    }
  }
});
