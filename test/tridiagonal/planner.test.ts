import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planTridiagonal, exchangeRadices } from '../../src/planner/tridiagonal.js';
import { wangMouKernel, wangMouSpec } from '../../src/codegen/tridiagonal-wang-mou.js';
import { ArgumentError, DeviceLimitError } from '../../src/errors.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupsPerDimension: 65535,
};
const LLVMPIPE = { ...H200, maxComputeWorkgroupStorageSize: 32768 };
const prob = (n: number, batch = 1, extra: object = {}) => ({
  n,
  batch,
  nrhs: 1,
  complex: false,
  layout: 'strided' as const,
  ...extra,
});

test('radix sequences', () => {
  assert.deepEqual(exchangeRadices(0, 4), []);
  assert.deepEqual(exchangeRadices(5, 4), [4, 4, 2]);
  assert.deepEqual(exchangeRadices(3, 2), [2, 2, 2]);
});

test('small systems share a workgroup; stages split into registers and exchanges', () => {
  const r = planTridiagonal(prob(4, 1 << 22), H200);
  assert.equal(r.levels.length, 1);
  const l = r.levels[0];
  assert.equal(l.mode, 'solve');
  assert.equal(l.segment, 4);
  // Direct rows: 256-row workgroups of 64 systems (staged: 128 rows, 32 systems).
  assert.equal(l.rowsPerWorkgroup, 256);
  assert.equal(l.systemsPerWorkgroup, 64);
  assert.equal(l.rowsPerThread, 4);
  assert.equal(l.localStages, 2);
  assert.deepEqual(l.exchangeRadices, []);
  assert.equal(l.workgroups, (1 << 22) / 64);
  const s = planTridiagonal(prob(4, 1 << 22), H200, { directRows: false }).levels[0];
  assert.deepEqual([s.rowsPerWorkgroup, s.systemsPerWorkgroup, s.rowsPerThread], [128, 32, 4]);
  // Radix 4 on request: two levels a barrier pair (1024 direct rows: 8 an invocation, 7 levels).
  const l4 = planTridiagonal(prob(1024, 3), H200, { radix: 4 }).levels[0];
  assert.deepEqual(l4.exchangeRadices, [4, 4, 4, 2]);
  assert.deepEqual(
    planTridiagonal(prob(1024, 3), H200, { radix: 4, directRows: false }).levels[0].exchangeRadices,
    [4, 4, 4, 4],
  );
});

test('N = 1000 pads to 1024 rows: direct, 128 invocations of 8 rows, 7 radix-2 exchange steps (staged: 256 of 4, 8 steps)', () => {
  const l = planTridiagonal(prob(1000, 3), H200).levels[0];
  assert.deepEqual([l.mode, l.segment, l.threads, l.localStages, l.directRows], ['solve', 1024, 128, 3, true]);
  assert.deepEqual(l.exchangeRadices, [2, 2, 2, 2, 2, 2, 2]);
  const s = planTridiagonal(prob(1000, 3), H200, { directRows: false }).levels[0];
  assert.deepEqual([s.mode, s.segment, s.threads, s.localStages, s.directRows], ['solve', 1024, 256, 2, false]);
  assert.deepEqual(s.exchangeRadices, [2, 2, 2, 2, 2, 2, 2, 2]);
  // rowsPerThread given: used as given.
  assert.equal(planTridiagonal(prob(1000, 3), H200, { rowsPerThread: 4 }).levels[0].threads, 256);
});

test('the largest in-workgroup system is 2048 rows staged (16-byte rows in 32 KiB and 48 KiB), 4096 direct', () => {
  assert.equal(planTridiagonal(prob(2048), H200).levels.length, 1);
  assert.equal(planTridiagonal(prob(2048), LLVMPIPE).levels.length, 1);
  assert.equal(planTridiagonal(prob(2048), H200).maxRowsPerWorkgroup, 2048);
  assert.equal(planTridiagonal(prob(2047), H200).levels[0].directRows, false);
  assert.equal(planTridiagonal(prob(4095), H200).levels[0].mode, 'partition');
  assert.equal(planTridiagonal(prob(4096), H200, { directRows: false }).levels[0].mode, 'partition');
  // Direct rows (n a multiple of 4): only the exchange area in workgroup memory, 3 scalars a row and two
  // areas: 1024 invocations of 4 rows take 48 KiB (H200, rowsPerThread 4 given); on llvmpipe's 32 KiB the
  // planner takes 8 rows an invocation instead (24 KiB). By default 4096 rows take 16 an invocation.
  const d = planTridiagonal(prob(4096, 3), H200, { rowsPerThread: 4 }).levels;
  assert.deepEqual(
    d.map((l) => [l.mode, l.directRows, l.threads, l.rowsPerThread]),
    [['solve', true, 1024, 4]],
  );
  const dl = planTridiagonal(prob(4000, 3), LLVMPIPE, { rowsPerThread: 4 }).levels;
  assert.deepEqual(
    dl.map((l) => [l.mode, l.directRows, l.segment, l.threads, l.rowsPerThread]),
    [['solve', true, 4096, 512, 8]],
  );
  const dd = planTridiagonal(prob(4000, 3), H200).levels;
  assert.deepEqual(
    dd.map((l) => [l.mode, l.directRows, l.segment, l.threads, l.rowsPerThread]),
    [['solve', true, 4096, 256, 16]],
  );
  // Up to directMaxRows (16384 by default) in one workgroup, more rows an invocation where needed; beyond
  // it (or with maxRowsPerWorkgroup set) large systems partition again.
  const big = (n: number, o = {}) =>
    planTridiagonal(prob(n), H200, o).levels.map((l) => [l.mode, l.threads, l.rowsPerThread]);
  assert.deepEqual(big(8192), [['solve', 512, 16]]);
  assert.deepEqual(big(16384), [['solve', 1024, 16]]);
  assert.equal(big(32768)[0][0], 'partition');
  assert.equal(big(8192, { directMaxRows: 4096 })[0][0], 'partition');
  assert.equal(planTridiagonal(prob(4096), H200, { maxRowsPerWorkgroup: 1024 }).levels[0].mode, 'partition');
  // Interleaved, complex and rows per invocation below 4 are never direct.
  assert.equal(planTridiagonal(prob(1024, 3, { complex: true }), H200).levels[0].directRows, false);
  assert.equal(planTridiagonal(prob(1024, 3), H200, { rowsPerThread: 2 }).levels[0].directRows, false);
  // Complex rows take 32 bytes: 1024 rows.
  assert.equal(planTridiagonal(prob(1024, 1, { complex: true }), LLVMPIPE).levels.length, 1);
  assert.equal(planTridiagonal(prob(1025, 1, { complex: true }), LLVMPIPE).levels[0].mode, 'partition');
});

test('multi-stage: 2^24 rows in one system take two partition levels and a solve', () => {
  const r = planTridiagonal(prob(1 << 24), H200);
  assert.deepEqual(
    r.levels.map((l) => l.mode),
    ['partition', 'partition', 'solve'],
  );
  const [l0, l1, l2] = r.levels;
  assert.equal(l0.rowsPerWorkgroup, 128);
  assert.equal(l0.chunks, Math.ceil((1 << 24) / 129));
  assert.equal(l0.separators, Math.floor((1 << 24) / 129));
  assert.equal(l1.n, l0.separators);
  assert.equal(l1.layout, 'strided');
  assert.equal(l2.n, l1.separators);
  // 2^16 rows: one partition level (s1 = 128 rows a chunk), the coarse system of 508 separators in one workgroup.
  const r16 = planTridiagonal(prob(1 << 16), H200);
  assert.deepEqual(
    r16.levels.map((l) => [l.mode, l.n, l.rowsPerWorkgroup]),
    [
      ['partition', 65536, 128],
      ['solve', 508, 512],
    ],
  );
  const r16b = planTridiagonal(prob(1 << 16), H200, { partitionRowsPerWorkgroup: 2048 });
  assert.deepEqual(
    r16b.levels.map((l) => [l.mode, l.n, l.rowsPerWorkgroup]),
    [
      ['partition', 65536, 2048],
      ['solve', 31, 32],
    ],
  );
});

test('recipes are plain JSON', () => {
  const r = planTridiagonal(prob(100000, 5, { layout: 'interleaved', nrhs: 2 }), H200);
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  assert.equal(r.levels[0].systems, 10);
});

test('bad problems and limits give named errors', () => {
  assert.throws(
    () => planTridiagonal(prob(0), H200),
    (e) => e instanceof ArgumentError && e.argument === 'n',
  );
  assert.throws(
    () => planTridiagonal(prob(4, 1.5), H200),
    (e) => e instanceof ArgumentError && e.argument === 'batch',
  );
  assert.throws(
    () => planTridiagonal(prob(4, 1, { layout: 'rows' }), H200),
    (e) => e instanceof ArgumentError && e.argument === 'layout',
  );
  assert.throws(() => planTridiagonal(prob(4), H200, { rowsPerThread: 3 }), ArgumentError);
  assert.throws(() => planTridiagonal(prob(4), { ...H200, maxComputeWorkgroupStorageSize: 16 }), DeviceLimitError);
  // Whole batches beyond a 2-D grid are split into chunks by the WebGPU executor; one system whose
  // partition workgroups exceed a grid is refused.
  assert.doesNotThrow(() => planTridiagonal(prob(4, 2 ** 40 / 4), { ...H200, maxComputeWorkgroupsPerDimension: 1024 }));
  assert.throws(
    () => planTridiagonal(prob(2 ** 20), { ...H200, maxComputeWorkgroupsPerDimension: 16 }),
    (e) => e instanceof DeviceLimitError && e.limit === 'maxComputeWorkgroupsPerDimension',
  );
});

test('kernel cache keys change exactly with the generated code', () => {
  const l = planTridiagonal(prob(1000, 3), H200).levels[0];
  const a = wangMouKernel(wangMouSpec(l, 'solve', false));
  const b = wangMouKernel(wangMouSpec({ ...l, workgroups: 99, n: 999 }, 'solve', false));
  assert.equal(a.key, b.key); // n and workgroup counts travel in uniforms
  assert.equal(a.wgsl, b.wgsl);
  const c = wangMouKernel(wangMouSpec({ ...l, directRows: false }, 'solve', true));
  assert.notEqual(a.key, c.key);
  // Direct rows change the code (vec4 bindings, no staging) and the key.
  const d = wangMouKernel(wangMouSpec({ ...l, directRows: false }, 'solve', false));
  assert.ok(l.directRows);
  assert.notEqual(a.key, d.key);
  assert.match(a.wgsl, /array<vec4<f32>>/);
  assert.doesNotMatch(d.wgsl, /array<vec4<f32>>/);
  assert.match(a.wgsl, /workgroupBarrier/);
});

test('several partition chunks a workgroup: segment is the chunk, capped by workgroup memory', () => {
  const l = planTridiagonal(prob(3001, 3), H200, {
    maxRowsPerWorkgroup: 256,
    partitionRowsPerWorkgroup: 64,
    partitionChunksPerWorkgroup: 4,
  }).levels[0];
  assert.deepEqual(
    [l.mode, l.segment, l.systemsPerWorkgroup, l.rowsPerWorkgroup, l.chunks, l.workgroups],
    ['partition', 64, 4, 256, Math.ceil(3001 / 65), Math.ceil((3 * Math.ceil(3001 / 65)) / 4)],
  );
  const capped = planTridiagonal(prob(3001, 3), H200, {
    maxRowsPerWorkgroup: 128,
    partitionRowsPerWorkgroup: 64,
    partitionChunksPerWorkgroup: 4,
  }).levels[0];
  assert.equal(capped.systemsPerWorkgroup, 2);
  assert.throws(() => planTridiagonal(prob(3001, 3), H200, { partitionChunksPerWorkgroup: 3 }), ArgumentError);
});

test('interleaved partition level across systems: one chunk of G consecutive systems a workgroup', () => {
  const l = planTridiagonal({ n: 3001, batch: 10, nrhs: 1, complex: false, layout: 'interleaved' }, H200, {
    interleavedStreamRows: Infinity,
    maxRowsPerWorkgroup: 1024,
    partitionRowsPerWorkgroup: 128,
    interleavedPartitionSystems: 8,
  }).levels;
  assert.deepEqual(
    [l[0].mode, l[0].acrossSystems, l[0].systemsPerWorkgroup, l[0].rowsPerWorkgroup, l[0].workgroups],
    ['partition', true, 8, 1024, l[0].chunks * 2],
  );
  assert.equal(l[1].acrossSystems, undefined); // coarse levels are strided
  assert.throws(
    () =>
      planTridiagonal({ n: 3001, batch: 10, nrhs: 1, complex: false, layout: 'interleaved' }, H200, {
        interleavedStreamRows: Infinity,
        interleavedPartitionSystems: 3,
      }),
    ArgumentError,
  );
});
