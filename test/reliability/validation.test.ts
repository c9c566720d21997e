/**
 * Every public entry point rejects bad input with the documented error class and a message that names
 * the argument: shapes, lengths, dtypes, strides, norms, axes, n, destroyed plans and buffers, buffers
 * from another device, and non-finite input where it matters (the tridiagonal solvers' status bits).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ArgumentError,
  UnsupportedError,
  DestroyedError,
  DeviceError,
  DeviceLimitError,
  ButterflyError,
  createFftPlan,
  fft,
  ifft,
  rfft,
  irfft,
  fft2,
  ifft2,
  rfft2,
  irfft2,
  fftn,
  ifftn,
  rfftn,
  irfftn,
  fftfreq,
  rfftfreq,
  solveTridiagonal,
  createTridiagonalPlan,
  TridiagonalBreakdownError,
  TRIDIAGONAL_STATUS,
  convolve,
  fftconvolve,
  oaconvolve,
  correlate,
  dct,
  dctn,
  dht,
  dstn,
  ifftshift,
  fftshift,
  sfft,
  createSfftPlan,
  createEdmPlan,
  planCpuFft,
  acquireGpu,
  WebGpuFft,
  WebGpuFftNd,
  fftProblem,
  createStorageBuffer,
  type GpuContext,
} from '../../src/index.js';
import { testGpu } from '../helpers/gpu.js';
import { count, expectError, printCounts, relL2, withTimeout } from './helpers.js';

after(() => printCounts('validation'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const bad = (v: unknown): any => v;
const c32 = (n: number) => new Float32Array(2 * n).map((_, i) => Math.sin(i));
const c64 = (n: number) => new Float64Array(2 * n).map((_, i) => Math.sin(i));
const tri4 = {
  n: 4,
  lower: new Float64Array([1, 1, 1, 1]),
  diag: new Float64Array([4, 4, 4, 4]),
  upper: new Float64Array([1, 1, 1, 1]),
  rhs: new Float64Array([1, 2, 3, 4]),
};

/** Runs a table of [label, call, class, argument] rows. */
async function table(
  rows: [string, () => unknown, abstract new (...a: never[]) => Error, string | RegExp | undefined][],
): Promise<void> {
  for (const [label, fn, cls, arg] of rows) {
    await expectError(fn, cls as never, arg, label);
    count('rejections checked');
  }
}

test('FFT plans: n, batch, direction, norm, layouts, backend', async () => {
  await table([
    ['n = 0', () => createFftPlan({ n: 0, backend: 'cpu' }), ArgumentError, 'n'],
    ['n = -4', () => createFftPlan({ n: -4, backend: 'cpu' }), ArgumentError, 'n'],
    ['n = 2.5', () => createFftPlan({ n: 2.5, backend: 'cpu' }), ArgumentError, 'n'],
    ['n = NaN', () => createFftPlan({ n: NaN, backend: 'cpu' }), ArgumentError, 'n'],
    ['n = "8"', () => createFftPlan({ n: bad('8'), backend: 'cpu' }), ArgumentError, 'n'],
    ['n = 2^60', () => createFftPlan({ n: 2 ** 60, backend: 'cpu' }), ArgumentError, 'n'],
    ['no options', () => createFftPlan(bad(undefined)), ArgumentError, 'options'],
    [
      'output dist 0',
      () => createFftPlan({ n: 8, batch: 2, output: { dist: 0 }, backend: 'cpu' }),
      ArgumentError,
      'output',
    ],
    [
      'output dist < n',
      () => createFftPlan({ n: 8, batch: 2, output: { dist: 4 }, backend: 'cpu' }),
      ArgumentError,
      'output',
    ],
    ['batch = 0', () => createFftPlan({ n: 8, batch: 0, backend: 'cpu' }), ArgumentError, 'batch'],
    ['batch = 1.5', () => createFftPlan({ n: 8, batch: 1.5, backend: 'cpu' }), ArgumentError, 'batch'],
    [
      'direction',
      () => createFftPlan({ n: 8, direction: bad('backward'), backend: 'cpu' }),
      ArgumentError,
      'direction',
    ],
    ['norm', () => createFftPlan({ n: 8, norm: bad('unitary'), backend: 'cpu' }), ArgumentError, 'norm'],
    [
      'input.stride = 0',
      () => createFftPlan({ n: 8, input: { stride: 0 }, backend: 'cpu' }),
      ArgumentError,
      'input.stride',
    ],
    [
      'input.offset = -1',
      () => createFftPlan({ n: 8, input: { offset: -1 }, backend: 'cpu' }),
      ArgumentError,
      'input.offset',
    ],
    [
      'output.dist = -8',
      () => createFftPlan({ n: 8, output: { dist: -8 }, backend: 'cpu' }),
      ArgumentError,
      'output.dist',
    ],
    [
      'output.stride = 1.5',
      () => createFftPlan({ n: 8, output: { stride: 1.5 }, backend: 'cpu' }),
      ArgumentError,
      'output.stride',
    ],
    ['backend', () => createFftPlan({ n: 8, backend: bad('cuda') }), ArgumentError, 'backend'],
  ]);
});

test('FFT plans: execute() input type, length, destroyed plan (CPU)', async () => {
  const plan = await createFftPlan({ n: 16, batch: 3, backend: 'cpu' });
  await table([
    ['number[]', () => plan.execute(bad([1, 2, 3])), ArgumentError, 'input'],
    ['Int32Array', () => plan.execute(bad(new Int32Array(96))), ArgumentError, 'input'],
    ['too short', () => plan.execute(new Float64Array(95)), ArgumentError, 'input'],
    ['executeGpu on CPU', () => plan.executeGpu(bad(null), bad(null)), UnsupportedError, 'executeGpu'],
    ['encode on CPU', () => plan.encode(bad(null), bad(null), bad(null)), UnsupportedError, 'encode'],
  ]);
  plan.destroy();
  plan.destroy(); // idempotent
  await expectError(() => plan.execute(new Float64Array(96)), DestroyedError, 'destroyed');
  count('rejections checked');
});

test('numpy-style FFT calls: x, shape, n, axis, axes, s, norm, backend', async () => {
  const x = c64(8);
  await table([
    ['x = number[]', () => fft(bad([1, 0, 2, 0])), ArgumentError, 'x'],
    ['x = null', () => fft(bad(null)), ArgumentError, 'x'],
    ['x = Uint8Array', () => ifft(bad(new Uint8Array(4))), ArgumentError, 'x'],
    ['x empty', () => fft(new Float64Array(0)), ArgumentError, 'x'],
    ['x odd (complex)', () => fft(new Float64Array(7)), ArgumentError, 'x'],
    ['shape mismatch', () => fft(x, { shape: [3, 3] }), ArgumentError, 'x'],
    ['shape with 0 for 8 values', () => fft(x, { shape: [0, 8] }), ArgumentError, 'x'],
    ['shape negative', () => fft(x, { shape: [-1, 8] }), ArgumentError, 'shape'],
    ['x empty, axis not padded', () => fft(new Float64Array(0), { shape: [2, 0] }), ArgumentError, 'x'],
    ['shape not an array', () => fft(x, { shape: bad(8) }), ArgumentError, 'shape'],
    ['shape []', () => fft(x, { shape: [] }), ArgumentError, 'shape'],
    ['shape fractional', () => fft(x, { shape: [2.5, 3.2] }), ArgumentError, 'shape'],
    ['n = 0', () => fft(x, { n: 0 }), ArgumentError, 'n'],
    ['n = 3.5', () => ifft(x, { n: 3.5 }), ArgumentError, 'n'],
    ['n = 2^40 (past one typed array)', () => fft(x, { n: 2 ** 40, backend: 'cpu' }), ArgumentError, 'n'],
    ['rfft n = 2^40', () => rfft(new Float64Array(8), { n: 2 ** 40, backend: 'cpu' }), ArgumentError, 'n'],
    ['dct n = 2^40', () => dct(new Float64Array(8), { n: 2 ** 40, backend: 'cpu' }), ArgumentError, 'n'],
    [
      'fftn s past one typed array',
      () => fftn(x, { shape: [2, 4], s: [2 ** 20, 2 ** 20], backend: 'cpu' }),
      ArgumentError,
      's',
    ],
    ['axis = 1 (1-D)', () => fft(x, { axis: 1 }), ArgumentError, 'axis'],
    ['axis = -2 (1-D)', () => fft(x, { axis: -2 }), ArgumentError, 'axis'],
    ['rfft axis = 2 (2-D)', () => rfft(new Float64Array(8), { shape: [2, 4], axis: 2 }), ArgumentError, 'axis'],
    ['irfft axis = -3 (2-D)', () => irfft(x, { shape: [2, 4], axis: -3 }), ArgumentError, 'axis'],
    ['axis = 0.5', () => fft(x, { axis: 0.5 }), ArgumentError, 'axis'],
    ['norm', () => fft(x, { norm: bad('none') }), ArgumentError, 'norm'],
    ['backend', () => fft(x, { backend: bad('gpu') }), ArgumentError, 'backend'],
    ['rfft x odd count ok but shape wrong', () => rfft(new Float64Array(9), { shape: [2, 4] }), ArgumentError, 'x'],
    ['irfft length 1 → n = 0', () => irfft(new Float64Array(2)), ArgumentError, 'n'],
    ['fft2 of 1-D', () => fft2(x), ArgumentError, 'axes'],
    ['fftn axes out of range', () => fftn(x, { shape: [2, 4], axes: [0, 2] }), ArgumentError, 'axes'],
    ['rfftn axes empty', () => rfftn(new Float64Array(8), { shape: [2, 4], axes: [] }), ArgumentError, 'axes'],
    ['fftn axes empty with s', () => fftn(x, { shape: [2, 4], axes: [], s: [2] }), ArgumentError, 's'],
    ['fftn s length ≠ axes', () => fftn(x, { shape: [2, 4], axes: [0, 1], s: [2] }), ArgumentError, 's'],
    ['fftn s too long', () => ifftn(x, { shape: [2, 4], s: [2, 2, 2] }), ArgumentError, 's'],
    ['fftn s = 0', () => fftn(x, { shape: [2, 4], s: [0, 4] }), ArgumentError, 's'],
    ['fftn s = 2.5', () => fftn(x, { shape: [2, 4], s: [2.5, 4] }), ArgumentError, 's'],
    ['rfft2 shape', () => rfft2(new Float64Array(8), { shape: [3, 3] }), ArgumentError, 'x'],
    ['irfft2 norm', () => irfft2(x, { shape: [2, 4], norm: bad('ortho2') }), ArgumentError, 'norm'],
    ['rfftn axes', () => rfftn(new Float64Array(8), { shape: [2, 4], axes: [-3] }), ArgumentError, 'axes'],
    ['irfftn s = -2', () => irfftn(x, { shape: [2, 4], s: [-2, 4] }), ArgumentError, 's'],
  ]);
  // The same validation must hold when the call would run on WebGPU (Float32Array, backend 'auto').
  await table([
    ['f32 shape mismatch', () => fft(c32(8), { shape: [3, 3] }), ArgumentError, 'x'],
    ['f32 n = 0', () => fft(c32(8), { n: 0 }), ArgumentError, 'n'],
    ['f32 axes', () => fftn(c32(8), { shape: [2, 4], axes: [5] }), ArgumentError, 'axes'],
  ]);
});

test('frequency helpers and the CPU planner', async () => {
  await table([
    ['fftfreq n = 0', () => fftfreq(0), ArgumentError, 'n'],
    ['fftfreq n = 1.5', () => fftfreq(1.5), ArgumentError, 'n'],
    ['rfftfreq n = -1', () => rfftfreq(-1), ArgumentError, 'n'],
    ['fftfreq d = 0', () => fftfreq(8, 0), ArgumentError, 'd'],
    ['planCpuFft n = 0', () => planCpuFft(0), ArgumentError, 'n'],
  ]);
});

function triArrays(
  n: number,
  batch: number,
  T: Float32ArrayConstructor | Float64ArrayConstructor = Float64Array,
  nrhs = 1,
) {
  return {
    lower: new T(n * batch).fill(-1),
    diag: new T(n * batch).fill(4),
    upper: new T(n * batch).fill(-1),
    rhs: new T(n * batch * nrhs).fill(1),
  };
}

test('tridiagonal: descriptor and data validation (CPU)', async () => {
  const ok = { n: 8, batch: 2, backend: 'cpu' as const, dtype: 'float64' as const };
  await table([
    ['descriptor null', () => createTridiagonalPlan(bad(null)), ArgumentError, 'descriptor'],
    ['n = 0', () => createTridiagonalPlan({ ...ok, n: 0 }), ArgumentError, 'n'],
    ['n = 3.5', () => createTridiagonalPlan({ ...ok, n: 3.5 }), ArgumentError, 'n'],
    ['batch = 0', () => createTridiagonalPlan({ ...ok, batch: 0 }), ArgumentError, 'batch'],
    ['nrhs = -1', () => createTridiagonalPlan({ ...ok, nrhs: -1 }), ArgumentError, 'nrhs'],
    ['layout', () => createTridiagonalPlan({ ...ok, layout: bad('columns') }), ArgumentError, 'layout'],
    ['dtype', () => createTridiagonalPlan({ ...ok, dtype: bad('float16') }), ArgumentError, 'dtype'],
    ['cpuAlgorithm', () => createTridiagonalPlan({ ...ok, cpuAlgorithm: bad('qr') }), ArgumentError, 'cpuAlgorithm'],
    ['onFailure', () => createTridiagonalPlan({ ...ok, onFailure: bad('ignore') }), ArgumentError, 'onFailure'],
    ['cyclic = 1', () => createTridiagonalPlan({ ...ok, cyclic: bad(1) }), ArgumentError, 'cyclic'],
    ['complex = yes', () => createTridiagonalPlan({ ...ok, complex: bad('yes') }), ArgumentError, 'complex'],
    ['backend', () => createTridiagonalPlan({ ...ok, backend: bad('gpu') }), ArgumentError, 'backend'],
    ['webgpu + float64', () => createTridiagonalPlan({ ...ok, backend: 'webgpu' }), UnsupportedError, 'float64'],
    [
      'webgpu + lu',
      () => createTridiagonalPlan({ n: 8, backend: 'webgpu', cpuAlgorithm: 'lu' }),
      UnsupportedError,
      'lu',
    ],
  ]);
  const plan = await createTridiagonalPlan(ok);
  const good = triArrays(8, 2);
  await table([
    ['lower short', () => plan.solve({ ...good, lower: new Float64Array(15) }), ArgumentError, 'lower.length'],
    ['rhs long', () => plan.solve({ ...good, rhs: new Float64Array(17) }), ArgumentError, 'rhs.length'],
    ['diag number[]', () => plan.solve({ ...good, diag: bad(Array(16).fill(1)) }), ArgumentError, 'diag'],
    ['upper missing', () => plan.solve({ ...good, upper: bad(undefined) }), ArgumentError, 'upper'],
    ['out wrong dtype', () => plan.solve({ ...good, out: new Float32Array(16) }), ArgumentError, 'out'],
    ['out wrong length', () => plan.solve({ ...good, out: new Float64Array(8) }), ArgumentError, 'out'],
    ['solveTridiagonal n', () => solveTridiagonal({ ...good, n: -2, backend: 'cpu' }), ArgumentError, 'n'],
  ]);
  plan.destroy();
  await expectError(() => plan.solve(good), DestroyedError, 'destroy');
  count('rejections checked');
});

test('tridiagonal: non-finite and singular input give status bits or TridiagonalBreakdownError, never silence', async () => {
  for (const cpuAlgorithm of ['thomas', 'wang-mou', 'lu'] as const) {
    for (const dtype of ['float32', 'float64'] as const) {
      for (const complex of [false, true]) {
        const T = dtype === 'float32' ? Float32Array : Float64Array;
        const w = complex ? 2 : 1;
        const base = { n: 16, batch: 3, backend: 'cpu' as const, dtype, cpuAlgorithm, complex };
        const label = `${cpuAlgorithm}/${dtype}${complex ? '/complex' : ''}`;
        // A non-finite value in any array of system 1 only: system 1 flagged, systems 0 and 2 clean.
        for (const where of ['lower', 'diag', 'upper', 'rhs'] as const) {
          for (const v of [NaN, Infinity, -Infinity]) {
            const d = triArrays(16 * w, 3, T);
            d[where][(16 + 5) * w] = v;
            const r = await solveTridiagonal({ ...base, ...d });
            assert.equal(r.ok, false, `${label}: ${v} in ${where} must not be ok (status ${[...r.status]})`);
            assert.ok(r.status[1] & 3, `${label}: ${v} in ${where}: status ${[...r.status]}`);
            assert.equal(r.status[0] & 3, 0, `${label}: system 0 clean`);
            assert.equal(r.status[2] & 3, 0, `${label}: system 2 clean`);
            count('non-finite / singular cases');
          }
        }
        // float32 overflow of a finite float64 input is non-finite in the working precision.
        if (dtype === 'float32') {
          const d = triArrays(16 * w, 3, Float64Array);
          d.diag[(16 + 5) * w] = 1e39;
          const r = await solveTridiagonal({ ...base, ...d });
          assert.ok(r.status[1] & 3, `${label}: 1e39 overflows float32: status ${[...r.status]}`);
        }
        // Exactly singular (zero pivots for the non-pivoting solvers; a zero matrix for LU).
        const d3 = triArrays(16 * w, 3, T);
        d3.diag.fill(0, 0, 16 * w);
        if (cpuAlgorithm === 'lu') {
          d3.lower.fill(0, 0, 16 * w);
          d3.upper.fill(0, 0, 16 * w);
        }
        const r3 = await solveTridiagonal({ ...base, ...d3 });
        assert.ok(r3.status[0] & 3, `${label}: singular status ${[...r3.status]}`);
        await expectError(
          () => solveTridiagonal({ ...base, ...d3, onFailure: 'throw' }),
          TridiagonalBreakdownError,
          'matrix 0',
          `${label} throw`,
        );
        count('non-finite / singular cases', 2);
      }
    }
  }
  // Not diagonally dominant: the non-pivoting solvers flag bit 4 (ok stays true: a warning); LU pivots.
  const nd = triArrays(8, 1);
  nd.diag.fill(0.5);
  const th = await solveTridiagonal({ n: 8, backend: 'cpu', dtype: 'float64', ...nd });
  assert.equal(th.status[0] & TRIDIAGONAL_STATUS.NOT_DIAGONALLY_DOMINANT, TRIDIAGONAL_STATUS.NOT_DIAGONALLY_DOMINANT);
  assert.equal(th.ok, true);
  const lu = await solveTridiagonal({ n: 8, backend: 'cpu', dtype: 'float64', cpuAlgorithm: 'lu', ...nd });
  assert.equal(lu.ok, true);
  assert.ok(relL2(lu.x, th.x) < 1e-12, 'LU and Thomas agree on a well-conditioned non-dominant matrix');
});

// Repeated axes: numpy allows them (the axis is transformed twice); both backends must agree.
test('repeated axes are refused, as scipy.fft does, on every N-D call and both backends', async () => {
  const x = c64(8);
  const r = new Float64Array(8);
  await table([
    ['ifft2 [1, 1]', () => ifft2(x, { shape: [2, 4], axes: [1, 1] }), ArgumentError, 'axes'],
    ['fftn [-1, 1]', () => fftn(x, { shape: [2, 4], axes: [-1, 1] }), ArgumentError, 'axes'],
    ['rfftn [-1, -1]', () => rfftn(r, { shape: [2, 4], axes: [-1, -1] }), ArgumentError, 'axes'],
    ['irfftn [0, 0, 1]', () => irfftn(x, { shape: [2, 4], axes: [0, 0, 1] }), ArgumentError, 'axes'],
    ['dctn [0, 0]', () => dctn(r, { shape: [2, 4], axes: [0, 0] }), ArgumentError, 'axes'],
    ['dctn s longer than the shape', () => dctn(r, { shape: [2, 4], s: [1, 2, 4] }), ArgumentError, 's'],
    ['dstn axes not an array', () => dstn(r, { shape: [2, 4], axes: bad(1) }), ArgumentError, 'axes'],
    ['fftn s not an array', () => fftn(x, { shape: [2, 4], s: bad(4) }), ArgumentError, 's'],
    ['dct shape not an array', () => dct(r, { shape: bad(8) }), ArgumentError, 'shape'],
    ['dct axis out of range', () => dct(r, { axis: 1 }), ArgumentError, 'axis'],
    ['f32 ifft2 [1, 1]', () => ifft2(c32(8), { shape: [2, 4], axes: [1, 1] }), ArgumentError, 'axes'],
    // Option names a function does not take are refused, not ignored (`axes` to fft would transform the last axis).
    ['fft axes', () => fft(x, bad({ shape: [2, 4], axes: [0] })), ArgumentError, 'axes'],
    ['rfft s', () => rfft(r, bad({ s: [4] })), ArgumentError, 's'],
    ['fft2 axis', () => fft2(x, bad({ shape: [2, 4], axis: 0 })), ArgumentError, 'axis'],
    ['fftn n', () => fftn(x, bad({ shape: [2, 4], n: 4 })), ArgumentError, 'n'],
    ['fft misspelt norm', () => fft(x, bad({ nrom: 'ortho' })), ArgumentError, 'nrom'],
    ['dct axes', () => dct(r, bad({ shape: [2, 4], axes: [0] })), ArgumentError, 'axes'],
    ['dctn axis', () => dctn(r, bad({ shape: [2, 4], axis: 0 })), ArgumentError, 'axis'],
    ['dht type', () => dht(r, bad({ type: 2 })), ArgumentError, 'type'],
    ['fft options not an object', () => fft(x, bad(3)), ArgumentError, 'options'],
    ['fftconvolve method', () => fftconvolve(x, x, bad({ method: 'direct' })), ArgumentError, 'method'],
    ['convolve axis', () => convolve(x, x, bad({ axis: 0 })), ArgumentError, 'axis'],
    // Plans, solvers and helpers too: a misspelt batch built a plan of one problem, `cylic` solved a plain system.
    ['createFftPlan bacth', () => createFftPlan(bad({ n: 4, bacth: 2, backend: 'cpu' })), ArgumentError, 'bacth'],
    ['createFftPlan dir', () => createFftPlan(bad({ n: 4, dir: 'inverse', backend: 'cpu' })), ArgumentError, 'dir'],
    ['createTridiagonalPlan cylic', () => createTridiagonalPlan(bad({ n: 4, cylic: true })), ArgumentError, 'cylic'],
    [
      'solveTridiagonal residualTolerence',
      () => solveTridiagonal(bad({ ...tri4, residualTolerence: 1e-3 })),
      ArgumentError,
      'residualTolerence',
    ],
    ['solveTridiagonal nrsh', () => solveTridiagonal(bad({ ...tri4, nrsh: 1 })), ArgumentError, 'nrsh'],
    ['sfft rael', () => sfft(c64(64), 2, bad({ rael: true })), ArgumentError, 'rael'],
    ['createSfftPlan kk', () => createSfftPlan(bad({ n: 64, k: 2, kk: 3 })), ArgumentError, 'kk'],
    ['fftshift axis', () => fftshift(r, bad({ shape: [2, 4], axis: 0 })), ArgumentError, 'axis'],
    ['ifftshift axis', () => ifftshift(r, bad({ shape: [2, 4], axis: 0 })), ArgumentError, 'axis'],
    ['dct orthogonalize not a boolean', () => dct(r, bad({ orthogonalize: 'no' })), ArgumentError, 'orthogonalize'],
    ['dctn orthogonalize 0', () => dctn(r, bad({ orthogonalize: 0 })), ArgumentError, 'orthogonalize'],
  ]);
  // A plan's solve takes only its data.
  const triPlan = await createTridiagonalPlan({ n: 4, backend: 'cpu' });
  await expectError(() => triPlan.solve(bad({ ...tri4, n: 4 })), ArgumentError, 'n', 'plan.solve n');
  triPlan.destroy();
  // Bad arguments reject the returned promise (never a synchronous throw), and null options are the defaults.
  for (const call of [() => fft(x, { n: 0 }), () => irfft(x, { axis: 3 }), () => correlate(x, bad([1, 2]))]) {
    let p: Promise<unknown> | undefined;
    assert.doesNotThrow(() => (p = call()));
    await assert.rejects(p!, ArgumentError);
  }
  assert.equal((await fft(x, bad(null))).length, 16);
  // An option set to undefined is no option (objects spread from elsewhere).
  assert.equal((await fft(x, bad({ axes: undefined }))).length, 16);
  // No axes: a copy of the input, as numpy and scipy.fft return (never the input itself).
  for (const [input, copy] of [
    [x, await fftn(x, { shape: [2, 4], axes: [] })],
    [x, await ifft2(x, { shape: [2, 4], axes: [] })],
    [r, await dctn(r, { shape: [2, 4], axes: [] })],
  ] as const) {
    assert.notEqual(copy, input);
    assert.deepEqual([...copy], [...input]);
  }
  // s = −1 is the input's own length on every axis, irfftn's last one too (numpy 2, scipy.fft): 2 × 3 here.
  assert.equal((await irfftn(c64(6), { shape: [2, 3], s: [-1, -1] })).length, 6);
  assert.deepEqual(
    [...ifftshift(Float64Array.from([0, 1, 2, 3, 4, 5]), { shape: [2, 3], axes: 1 })],
    [1, 2, 0, 4, 5, 3],
  );
});

test('WebGPU takes input on a SharedArrayBuffer (uploaded through a copy)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const plain = c32(64);
  const shared = new Float32Array(new SharedArrayBuffer(plain.byteLength));
  shared.set(plain);
  const want = await fft(plain, { gpu: ctx, backend: 'webgpu' });
  assert.deepEqual(await fft(shared, { gpu: ctx, backend: 'webgpu' }), want);
  const real = shared.subarray(0, 64);
  assert.deepEqual(
    await dct(real, { gpu: ctx, backend: 'webgpu' }),
    await dct(plain.slice(0, 64), { gpu: ctx, backend: 'webgpu' }),
  );
});

// Precision: the module doc of src/api/fft.ts says 'auto' runs "Float64Array on the CPU, since WGSL has no
// f64", but nd() only defaults to 'cpu' when backend is undefined: an explicit backend 'auto' sends a
// Float64Array to WebGPU and returns a Float64Array holding f32-accurate numbers (error ~1e-7, not ~1e-15).
test('fft(Float64Array, { backend: "auto" }) computes in float64', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const x = c64(256);
  const ref = await fft(x, { backend: 'cpu' });
  const y = await fft(x, { backend: 'auto', gpu: ctx });
  assert.ok(relL2(y, ref) < 1e-13, `explicit 'auto' on a Float64Array: error ${relL2(y, ref)} (f32 accuracy)`);
});

test('convolution: operands, shapes, mode, method, axes, backend', async () => {
  const a = new Float64Array([1, 2, 3, 4]);
  const b = new Float64Array([1, -1]);
  await table([
    ['in1 number[]', () => convolve(bad([1, 2]), b), ArgumentError, 'in1'],
    ['in2 null', () => convolve(a, bad(null)), ArgumentError, 'in2'],
    ['in1 object without data', () => convolve(bad({ shape: [2] }), b), ArgumentError, 'in1'],
    ['in1 complex odd', () => convolve({ data: new Float64Array(3), complex: true }, b), ArgumentError, 'in1.data'],
    ['in1 shape mismatch', () => convolve({ data: a, shape: [3] }, b), ArgumentError, 'in1.data'],
    ['in1 shape 0', () => convolve({ data: new Float64Array(0), shape: [0] }, b), ArgumentError, 'in1.shape'],
    ['in1 empty', () => convolve(new Float64Array(0), b), ArgumentError, 'in1.shape'],
    ['in2 rank', () => convolve({ data: a, shape: [2, 2] }, b), ArgumentError, 'in2.shape'],
    [
      'batch broadcast',
      () =>
        convolve(
          { data: new Float64Array(6), shape: [3, 2] },
          { data: new Float64Array(4), shape: [2, 2] },
          { axes: [1] },
        ),
      ArgumentError,
      'in2.shape',
    ],
    ['mode', () => convolve(a, b, { mode: bad('circular') }), ArgumentError, 'mode'],
    [
      'valid incompatible',
      () =>
        convolve(
          { data: new Float64Array(6), shape: [2, 3] },
          { data: new Float64Array(6), shape: [3, 2] },
          { mode: 'valid' },
        ),
      ArgumentError,
      'mode',
    ],
    ['method', () => convolve(a, b, { method: bad('winograd') }), ArgumentError, 'method'],
    ['fftconvolve backend', () => fftconvolve(a, b, { backend: bad('tpu') }), ArgumentError, 'backend'],
    ['oaconvolve axes out of range', () => oaconvolve(a, b, { axes: [1] }), ArgumentError, 'axes'],
    [
      'axes repeated',
      () =>
        convolve(
          { data: new Float64Array(4), shape: [2, 2] },
          { data: new Float64Array(4), shape: [2, 2] },
          { axes: [1, -1] },
        ),
      ArgumentError,
      'axes',
    ],
    ['axes empty', () => convolve(a, b, { axes: [] }), ArgumentError, 'axes'],
    [
      'axes leading',
      () =>
        convolve(
          { data: new Float64Array(4), shape: [2, 2] },
          { data: new Float64Array(4), shape: [2, 2] },
          { axes: [0] },
        ),
      UnsupportedError,
      'axes',
    ],
    ['correlate in2', () => correlate(a, bad('x')), ArgumentError, 'in2'],
    ['correlate in1', () => correlate(bad(undefined), b), ArgumentError, 'in1'],
    [
      'webgpu rank 3',
      () =>
        convolve(
          { data: new Float32Array(8), shape: [2, 2, 2] },
          { data: new Float32Array(8), shape: [2, 2, 2] },
          { backend: 'webgpu' },
        ),
      UnsupportedError,
      'axes',
    ],
  ]);
});

test('EDM plans: problem fields', async () => {
  await table([
    ['M = 0', () => createEdmPlan({ M: 0, mfft: 8, shapes: 1 }), ArgumentError, 'M'],
    ['M > mfft', () => createEdmPlan({ M: 16, mfft: 8, shapes: 1 }), ArgumentError, 'M'],
    ['shapes = 0', () => createEdmPlan({ M: 4, mfft: 8, shapes: 0 }), ArgumentError, 'shapes'],
    ['angles = 1.5', () => createEdmPlan({ M: 4, mfft: 8, shapes: 1, angles: 1.5 }), ArgumentError, 'angles'],
  ]);
});

test('WebGPU: plan arguments, execute/encode buffers, destroyed plans and buffers, foreign devices', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  await table([
    [
      'webgpu inPlace with different layouts',
      () => createFftPlan({ n: 16, batch: 2, backend: 'webgpu', gpu: ctx, inPlace: true, output: { dist: 20 } }),
      ArgumentError,
      'output',
    ],
    ['webgpu n = 0', () => createFftPlan({ n: 0, backend: 'webgpu', gpu: ctx }), ArgumentError, 'n'],
  ]);
  const plan = await createFftPlan({ n: 16, batch: 3, backend: 'webgpu', gpu: ctx });
  assert.equal(plan.backend, 'webgpu');
  const small = createStorageBuffer(ctx, 64);
  const src = createStorageBuffer(ctx, c32(48));
  const dst = createStorageBuffer(ctx, 48 * 8);
  await table([
    ['execute number[]', () => plan.execute(bad([1, 2])), ArgumentError, 'input'],
    ['execute too short', () => plan.execute(new Float32Array(95)), ArgumentError, 'input'],
    ['executeSync on WebGPU', () => plan.executeSync(new Float32Array(96)), UnsupportedError, 'executeSync'],
    ['executeGpu src too small', () => plan.executeGpu(small, dst), ArgumentError, 'src'],
    ['executeGpu dst too small', () => plan.executeGpu(src, small), ArgumentError, 'dst'],
    ['executeGpu src = dst (out of place)', () => plan.executeGpu(src, src), ArgumentError, 'dst'],
  ]);
  // A buffer without STORAGE usage is refused before encoding (Dawn would only complain at the submit).
  const mapOnly = ctx.device.createBuffer({ size: 48 * 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  await expectError(
    () => withTimeout(plan.executeGpu(src, mapOnly), 20_000, 'executeGpu(MAP_READ buffer)'),
    ArgumentError,
    'dst',
  );
  mapOnly.destroy();
  // A destroyed buffer: Dawn rejects the submit; we report DeviceError.
  const gone = createStorageBuffer(ctx, 48 * 8);
  gone.destroy();
  await expectError(
    () => withTimeout(plan.executeGpu(src, gone), 20_000, 'executeGpu(destroyed buffer)'),
    DeviceError,
    /destroy|validation|invalid/i,
  );
  count('rejections checked', 2);
  // The plan still works after those errors (the error scopes did not leak).
  await plan.executeGpu(src, dst);

  // Buffers from another device.
  const other = await acquireGpu();
  try {
    const foreign = createStorageBuffer(other, c32(48));
    await expectError(
      () => withTimeout(plan.executeGpu(foreign, dst), 20_000, 'executeGpu(foreign src)'),
      ArgumentError,
      'src',
      'foreign src',
    );
    const tri = await createTridiagonalPlan({ n: 8, batch: 2, backend: 'webgpu', gpu: ctx });
    const fb = createStorageBuffer(other, 64);
    const mine = createStorageBuffer(ctx, 64);
    await expectError(
      () => withTimeout(tri.solve({ lower: fb, diag: mine, upper: mine, rhs: mine }), 20_000, 'tridiagonal foreign'),
      ButterflyError,
      /device|lower/i,
      'tridiagonal foreign lower',
    );
    tri.destroy();
    fb.destroy();
    mine.destroy();
    foreign.destroy();
    count('rejections checked', 2);
  } finally {
    other.destroy();
  }

  plan.destroy();
  await table([
    ['execute after destroy', () => plan.execute(c32(48)), DestroyedError, 'destroyed'],
    ['executeGpu after destroy', () => plan.executeGpu(src, dst), DestroyedError, 'destroyed'],
    [
      'encode after destroy',
      () => plan.encode(ctx.device.createCommandEncoder(), src, dst),
      DestroyedError,
      'destroyed',
    ],
  ]);

  // N-D plans.
  await table([
    ['WebGpuFftNd shape', () => WebGpuFftNd.create(ctx, { shape: [4, 0] }), ArgumentError, 'shape'],
    ['WebGpuFftNd axes', () => WebGpuFftNd.create(ctx, { shape: [4, 4], axes: [0, 2] }), ArgumentError, 'axes'],
    [
      'WebGpuFftNd r2c direction',
      () => WebGpuFftNd.create(ctx, { shape: [4, 4], kind: 'r2c', direction: 'inverse' }),
      ArgumentError,
      'direction',
    ],
  ]);
  const nd = await WebGpuFftNd.create(ctx, { shape: [4, 8] });
  await expectError(() => nd.run(new Float32Array(63)), ArgumentError, 'input');
  await expectError(() => nd.execute(src, src), ArgumentError, 'dst');
  nd.destroy();
  await expectError(() => nd.run(new Float32Array(64)), DestroyedError, 'destroyed');
  count('rejections checked', 3);

  // WebGpuFft directly.
  await table([
    [
      'WebGpuFft c2r forward',
      () => WebGpuFft.create(ctx, fftProblem({ n: 8 }), { real: 'c2r' }),
      ArgumentError,
      'direction',
    ],
    [
      'WebGpuFft real in place',
      () => WebGpuFft.create(ctx, fftProblem({ n: 8 }), { real: 'r2c', inPlace: true }),
      ArgumentError,
      'inPlace',
    ],
    [
      'WebGpuFft outer.count',
      () => WebGpuFft.create(ctx, fftProblem({ n: 8 }), { outer: { count: 0, inDist: 0, outDist: 0 } }),
      ArgumentError,
      'outer.count',
    ],
  ]);

  // Tridiagonal on WebGPU: GPUBuffer inputs must all be buffers of the right size.
  const tri = await createTridiagonalPlan({ n: 8, batch: 2, backend: 'webgpu', gpu: ctx });
  const m = createStorageBuffer(ctx, 64);
  const tiny = createStorageBuffer(ctx, 16);
  await table([
    [
      'tri mixed buffer/array',
      () => tri.solve({ lower: m, diag: bad(new Float32Array(16)), upper: m, rhs: m }),
      ArgumentError,
      'diag',
    ],
    ['tri buffer too small', () => tri.solve({ lower: m, diag: m, upper: m, rhs: tiny }), ArgumentError, 'rhs.size'],
    [
      'tri out = rhs',
      () => tri.solve({ lower: m, diag: m, upper: m, rhs: createStorageBuffer(ctx, 64), out: m }),
      ArgumentError,
      'out',
    ],
    [
      'tri out too small',
      () => tri.solve({ lower: m, diag: m, upper: m, rhs: m, out: tiny }),
      ArgumentError,
      'out.size',
    ],
    [
      'tri float32 wrong length',
      () => tri.solve({ ...triArrays(8, 2, Float32Array), rhs: new Float32Array(15) }),
      ArgumentError,
      'rhs.length',
    ],
  ]);
  // NaN on the GPU path is flagged too.
  const g = triArrays(8, 2, Float32Array);
  g.rhs[9] = NaN;
  const r = await tri.solve(g);
  assert.equal(r.ok, false, `GPU NaN rhs: status ${[...r.status]}`);
  assert.ok(r.status[1] & TRIDIAGONAL_STATUS.NON_FINITE, `GPU NaN rhs: status ${[...r.status]}`);
  assert.equal(r.status[0] & 3, 0, `GPU NaN rhs: system 0 status ${r.status[0]}`);
  const z = triArrays(8, 2, Float32Array);
  z.diag.fill(0, 0, 8);
  const rz = await tri.solve(z);
  assert.ok(rz.status[0] & 3, `GPU singular: status ${[...rz.status]}`);
  tri.destroy();
  await expectError(() => tri.solve(triArrays(8, 2, Float32Array)), DestroyedError, 'destroy');
  m.destroy();
  tiny.destroy();
  src.destroy();
  dst.destroy();
  small.destroy();
  count('rejections checked', 3);
  void DeviceLimitError;
  void (null as unknown as GpuContext);
});
