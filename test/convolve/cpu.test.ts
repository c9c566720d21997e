import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directConvolve, fftConvolve, oaConvolve } from '../../src/backends/cpu/convolve.js';
import { convolveReal1d } from '../../src/backends/cpu/convolve-real.js';
import {
  convGeometry,
  nextFastLen,
  nextFastCpuLen,
  overlapAddBlock,
  planRealConvolution1d,
  chooseCpuMethod,
  type ConvMode,
} from '../../src/planner/convolve.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { rng } from '../../src/util/random.js';
import { ArgumentError } from '../../src/errors.js';
import { naiveFull, naiveMode, randomComplex, realPart, randomShape } from './helpers.js';

const MODES: ConvMode[] = ['full', 'same', 'valid'];

test('nextFastLen returns the smallest 7-smooth length ≥ n', () => {
  const smooth = (n: number) => {
    for (const p of [2, 3, 5, 7]) while (n % p === 0) n /= p;
    return n === 1;
  };
  for (let n = 1; n <= 2000; n++) {
    const f = nextFastLen(n);
    assert.ok(f >= n && smooth(f), `n=${n} → ${f}`);
    for (let m = n; m < f; m++) assert.ok(!smooth(m), `n=${n}: ${m} is smooth and smaller than ${f}`);
  }
});

test('geometry follows scipy: full/same/valid sizes and starts', () => {
  assert.deepEqual(convGeometry([10], [3], 'full'), { full: [12], out: [12], start: [0] });
  assert.deepEqual(convGeometry([10], [3], 'same'), { full: [12], out: [10], start: [1] });
  assert.deepEqual(convGeometry([10], [4], 'same'), { full: [13], out: [10], start: [1] });
  assert.deepEqual(convGeometry([10], [4], 'valid'), { full: [13], out: [7], start: [3] });
  assert.deepEqual(convGeometry([4], [10], 'valid'), { full: [13], out: [7], start: [3] });
  assert.deepEqual(convGeometry([3], [8], 'same'), { full: [10], out: [3], start: [3] });
  assert.throws(() => convGeometry([5, 2], [3, 4], 'valid'), ArgumentError);
  assert.throws(() => convGeometry([5, 0], [3, 4], 'full'), ArgumentError);
  assert.throws(() => convGeometry([5], [3, 4], 'full'), ArgumentError);
});

test('direct, FFT and overlap-add agree with the naive definition: 1-D, 2-D, 3-D, real and complex, all modes', () => {
  const r = rng(7);
  let cases = 0;
  for (let trial = 0; trial < 60; trial++) {
    const nd = 1 + (trial % 3);
    const max = nd === 1 ? 40 : nd === 2 ? 12 : 5;
    const sa = randomShape(r, nd, max);
    const sb = randomShape(r, nd, max);
    const complex = trial % 2 === 0;
    const n = (s: number[]) => s.reduce((x, y) => x * y, 1);
    const ac = randomComplex(n(sa), 100 + trial, complex);
    const bc = randomComplex(n(sb), 200 + trial, complex);
    const full = naiveFull(ac, sa, bc, sb);
    for (const mode of MODES) {
      if (mode === 'valid' && !(sa.every((v, i) => v >= sb[i]) || sb.every((v, i) => v >= sa[i]))) {
        assert.throws(
          () => directConvolve({ data: ac, shape: sa, complex: true }, { data: bc, shape: sb, complex: true }, mode),
          /valid/,
        );
        continue;
      }
      const ref = naiveMode(full, sa, sb, mode);
      const A = complex ? { data: ac, shape: sa, complex } : { data: realPart(ac), shape: sa, complex };
      const B = complex ? { data: bc, shape: sb, complex } : { data: realPart(bc), shape: sb, complex };
      const want = complex ? ref.data : realPart(ref.data);
      for (const [name, fn] of [
        ['direct', directConvolve],
        ['fft', fftConvolve],
        ['oa', oaConvolve],
      ] as const) {
        const y = fn(A, B, mode);
        assert.deepEqual(y.shape, ref.shape, `${name} ${mode} shape`);
        assert.equal(y.complex, complex);
        const err = relativeL2(y.data, want);
        assert.ok(err < 1e-12, `${name} ${mode} sa=${sa} sb=${sb} complex=${complex}: ${err}`);
      }
      cases++;
    }
  }
  assert.ok(cases > 100);
});

test('overlap-add splits long signals into blocks and matches FFT convolution', () => {
  assert.ok(overlapAddBlock(10000, 31) < 10000);
  assert.equal(overlapAddBlock(50, 40), 50);
  const a = randomComplex(5000, 1, true);
  const b = randomComplex(37, 2, true);
  for (const mode of MODES) {
    const x = oaConvolve({ data: a, shape: [5000], complex: true }, { data: b, shape: [37], complex: true }, mode);
    const y = fftConvolve({ data: a, shape: [5000], complex: true }, { data: b, shape: [37], complex: true }, mode);
    assert.ok(relativeL2(x.data, y.data) < 1e-12, mode);
  }
  const a2 = randomComplex(300 * 200, 3, false);
  const b2 = randomComplex(9 * 7, 4, false);
  const x2 = oaConvolve(
    { data: realPart(a2), shape: [300, 200], complex: false },
    { data: realPart(b2), shape: [9, 7], complex: false },
    'same',
  );
  const y2 = directConvolve(
    { data: realPart(a2), shape: [300, 200], complex: false },
    { data: realPart(b2), shape: [9, 7], complex: false },
    'same',
  );
  assert.ok(relativeL2(x2.data, y2.data) < 1e-12);
});

test('the CPU cost model prefers direct for tiny kernels and FFT for large ones', () => {
  assert.equal(chooseCpuMethod([100], [3]), 'direct');
  assert.equal(chooseCpuMethod([4096], [1024]), 'fft');
  assert.equal(chooseCpuMethod([256, 256], [31, 31]), 'fft');
  assert.equal(chooseCpuMethod([64, 64], [2, 2]), 'direct');
});

test('real 1-D convolution on the engine (convolve-real.ts): FFT and overlap-add, f32 and f64, every mode, either operand longer', () => {
  let checked = 0;
  for (const [na, nb] of [
    [3000, 31],
    [31, 3000],
    [4097, 200],
    [257, 256],
    [1, 9],
    [100, 1],
    [1500, 1500],
  ]) {
    const a = realPart(randomComplex(na, na, false));
    const b = realPart(randomComplex(nb, nb + 1, false));
    const full = directConvolve(
      { data: a, shape: [na], complex: false },
      { data: b, shape: [nb], complex: false },
      'full',
    );
    const fullNorm = Math.hypot(...full.data);
    for (const mode of MODES) {
      const want = directConvolve(
        { data: a, shape: [na], complex: false },
        { data: b, shape: [nb], complex: false },
        mode,
      ).data;
      for (const method of ['fft', 'oa'] as const) {
        for (const [precision, tol] of [
          ['f64', 1e-12],
          ['f32', 1e-6],
        ] as const) {
          const T = precision === 'f32' ? Float32Array : Float64Array;
          const got = convolveReal1d(T.from(a), T.from(b), mode, method, precision);
          assert.ok(got instanceof T);
          assert.equal(got.length, want.length, `${method} ${mode} ${na}×${nb}`);
          // An FFT's error scales with the whole signal: relative to the full convolution's norm, not the window's.
          let e2 = 0;
          for (let i = 0; i < want.length; i++) e2 += (got[i]! - want[i]!) ** 2;
          const err = Math.sqrt(e2) / fullNorm;
          assert.ok(err < tol, `${method} ${mode} ${precision} ${na}×${nb}: ${err}`);
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 84);
  // The plan cuts the longer operand into several blocks, on lane-split lengths.
  const plan = planRealConvolution1d(100000, 1000, 'oa', 'f32');
  assert.ok(plan.blocks > 1 && plan.p % 8 === 0 && plan.p >= plan.L + 999, JSON.stringify(plan));
  assert.equal(nextFastCpuLen(100999, 'f32') % 8, 0);
  assert.equal(nextFastCpuLen(60, 'f32'), nextFastLen(60));
});
