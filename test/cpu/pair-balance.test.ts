/**
 * Rows that the engine transforms two to a complex FFT (odd lengths and the real FFT's other pairs paths) must each
 * keep their own accuracy: a row a million times smaller than its partner, a zero row, and rows holding NaN or ±Inf
 * beside finite ones. Every row of a batched call is checked against the float64 DFT of that row alone, relative to
 * the row's own size; non-finite values stay in their own rows; a zero row gives exact zeros.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rfft, irfft, dct, idct, dst, idst, fftconvolve } from '../../src/index.js';
import { dftNaive } from '../../src/backends/cpu/dft-naive.js';
import * as cpuDct from '../../src/backends/cpu/r2r-dct.js';
import * as cpuDst from '../../src/backends/cpu/r2r-dst.js';
import { rng } from '../helpers/numeric.js';

type Arr = Float32Array | Float64Array;
/** Row scales: balanced, far smaller, far larger, zero, and (finite checks skip them) NaN and Inf rows. */
const SCALES = [1, 1e-6, 1, 1e6, 0, 1, 1, Number.NaN, 3, Number.POSITIVE_INFINITY, 1e-30, 1];

function rowsOf(Ctor: typeof Float32Array | typeof Float64Array, n: number, seed: number): Arr {
  const r = rng(seed);
  const x = new Ctor(SCALES.length * n);
  SCALES.forEach((s, q) => {
    for (let i = 0; i < n; i++) x[q * n + i] = Number.isFinite(s) ? s * r() : i === 1 ? s : r();
  });
  return x;
}

/** Largest |a − b| over the largest |b|, for one row. */
function rowErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  let m = 0;
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i]! - b[i]!));
    m = Math.max(m, Math.abs(b[i]!));
  }
  return m === 0 ? d : d / m;
}

type Kind = [string, (x: Arr, shape: number[]) => Promise<Arr>, (row: Float64Array) => Float64Array, number];
const kinds = (n: number): Kind[] => [
  [
    'rfft',
    (x, shape) => rfft(x, { shape }),
    (row) => dftNaive(Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 0 : row[i / 2]!))).subarray(0, n + 1),
    n,
  ],
  ['dct', (x, shape) => dct(x, { shape }), (row) => cpuDct.dct(row, { type: 2 }).data as Float64Array, n],
  ['idct', (x, shape) => idct(x, { shape }), (row) => cpuDct.idct(row, { type: 2 }).data as Float64Array, n],
  ['dct3', (x, shape) => dct(x, { shape, type: 3 }), (row) => cpuDct.dct(row, { type: 3 }).data as Float64Array, n],
  ['dct4', (x, shape) => dct(x, { shape, type: 4 }), (row) => cpuDct.dct(row, { type: 4 }).data as Float64Array, n],
  ['dst3', (x, shape) => dst(x, { shape, type: 3 }), (row) => cpuDst.dst(row, { type: 3 }).data as Float64Array, n],
  ['dst', (x, shape) => dst(x, { shape }), (row) => cpuDst.dst(row, { type: 2 }).data as Float64Array, n],
  ['idst', (x, shape) => idst(x, { shape }), (row) => cpuDst.idst(row, { type: 2 }).data as Float64Array, n],
];

// Short rows too: below the fused modules' lengths the pairs are made in JavaScript (wasm-rfft.ts).
for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 243, 1009]) {
  test(`paired rows keep their own accuracy: n = ${n}`, async () => {
    for (const Ctor of [Float32Array, Float64Array]) {
      const tol = Ctor === Float32Array ? 5e-6 : 1e-13;
      for (const [name, call, reference, inLen] of kinds(n)) {
        const x = rowsOf(Ctor, inLen, n);
        const y = await call(x, [SCALES.length, inLen]);
        const outLen = y.length / SCALES.length;
        SCALES.forEach((s, q) => {
          const got = y.subarray(q * outLen, (q + 1) * outLen);
          const what = `${name} ${Ctor.name} n=${n} row ${q} (scale ${s})`;
          if (!Number.isFinite(s)) {
            assert.ok(
              got.some((v) => !Number.isFinite(v)),
              `${what}: its NaN / Inf shows`,
            );
            return;
          }
          assert.ok(
            got.every((v) => Number.isFinite(v)),
            `${what}: no NaN or Inf from its partner`,
          );
          if (s === 0)
            return assert.ok(
              got.every((v) => v === 0),
              `${what}: exact zeros`,
            );
          const want = reference(Float64Array.from(x.subarray(q * inLen, (q + 1) * inLen)));
          const err = rowErr(got, want);
          assert.ok(err < tol, `${what}: ${err}`);
        });
      }
    }
  });
}

test('paired rows: irfft of half spectra of very different sizes, and fftconvolve of an odd length', async () => {
  for (const Ctor of [Float32Array, Float64Array]) {
    const tol = Ctor === Float32Array ? 5e-6 : 1e-13;
    for (const n of [2, 3, 4, 5, 6, 8, 9, 243, 1009]) {
      const m = Math.floor(n / 2) + 1;
      const r = rng(n + 7);
      const y = new Ctor(SCALES.length * 2 * m);
      SCALES.forEach((s, q) => {
        for (let i = 0; i < 2 * m; i++) y[q * 2 * m + i] = Number.isFinite(s) ? s * r() : i === 2 ? s : r();
      });
      const x = await irfft(y, { shape: [SCALES.length, m], n });
      SCALES.forEach((s, q) => {
        const got = x.subarray(q * n, (q + 1) * n);
        if (!Number.isFinite(s)) return assert.ok(got.some((v) => !Number.isFinite(v)));
        if (s === 0) return assert.ok(got.every((v) => v === 0));
        // The inverse DFT of the Hermitian extension (imaginary parts of the DC term dropped, as numpy's).
        const half = y.subarray(q * 2 * m, (q + 1) * 2 * m);
        const full = new Float64Array(2 * n);
        for (let k = 0; k < n; k++) {
          const j = k < m ? k : n - k;
          full[2 * k] = half[2 * j]!;
          full[2 * k + 1] = k === 0 ? 0 : k < m ? half[2 * j + 1]! : -half[2 * j + 1]!;
        }
        const want = dftNaive(full, true).filter((_, i) => i % 2 === 0);
        assert.ok(rowErr(got, want) < tol, `irfft ${Ctor.name} n=${n} row ${q}`);
      });
    }
  }
  // A large and a small operand: scipy's result is exact here; paired rows gave errors of 1e-11 relative.
  const c = await fftconvolve(new Float64Array([1e3]), new Float64Array([1e-3, 2e-3, -1e-3, 5e-4, 3e-3]));
  assert.ok(rowErr(c.data, [1, 2, -1, 0.5, 3]) < 1e-15, `fftconvolve: ${Array.from(c.data)}`);
});

test('paired columns (real transforms along axis 0) keep their own accuracy, threads on and off', async () => {
  const refRfft = (col: Float64Array): Float64Array => {
    const n = col.length;
    return dftNaive(Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 0 : col[i / 2]!))).subarray(
      0,
      2 * (Math.floor(n / 2) + 1),
    );
  };
  const cases: [
    string,
    (x: Arr, shape: number[], threads: number) => Promise<Arr>,
    (c: Float64Array) => Float64Array,
  ][] = [
    ['rfft', (x, shape, threads) => rfft(x, { shape, axis: 0, threads }), refRfft],
    ['dct', (x, shape, threads) => dct(x, { shape, axis: 0, threads }), (c) => cpuDct.dct(c).data as Float64Array],
    ['idct', (x, shape, threads) => idct(x, { shape, axis: 0, threads }), (c) => cpuDct.idct(c).data as Float64Array],
    ['dst', (x, shape, threads) => dst(x, { shape, axis: 0, threads }), (c) => cpuDst.dst(c).data as Float64Array],
  ];
  for (const Ctor of [Float32Array, Float64Array]) {
    const tol = Ctor === Float32Array ? 5e-6 : 1e-13;
    // [rows, columns a repeat of SCALES, threads]: the last block is 4 MiB or more, which threads share (its first
    // columns checked).
    for (const [rows, reps, threads] of [
      [16, 1, 1],
      [9, 1, 1],
      [100, 2, 1],
      [1024, Ctor === Float32Array ? 86 : 43, 2],
    ] as const) {
      const cols = reps * SCALES.length;
      const r = rng(rows + cols);
      const x = new Ctor(rows * cols);
      for (let i = 0; i < rows; i++)
        for (let c = 0; c < cols; c++) {
          const s = SCALES[c % SCALES.length]!;
          x[i * cols + c] = Number.isFinite(s) ? s * r() : i === 1 ? s : r();
        }
      for (const [name, call, reference] of cases) {
        const y = await call(x, [rows, cols], threads);
        const outRows = y.length / cols / (name === 'rfft' ? 2 : 1);
        const w = name === 'rfft' ? 2 : 1;
        for (let c = 0; c < Math.min(cols, 2 * SCALES.length); c++) {
          const s = SCALES[c % SCALES.length]!;
          const got = Float64Array.from(
            { length: outRows * w },
            (_, i) => y[(Math.floor(i / w) * cols + c) * w + (i % w)]!,
          );
          const what = `${name} ${Ctor.name} [${rows}, ${cols}] threads ${threads} column ${c} (scale ${s})`;
          if (!Number.isFinite(s)) {
            assert.ok(
              got.some((v) => !Number.isFinite(v)),
              `${what}: its NaN / Inf shows`,
            );
            continue;
          }
          assert.ok(
            got.every((v) => Number.isFinite(v)),
            `${what}: no NaN or Inf from its partner`,
          );
          if (s === 0) {
            assert.ok(
              got.every((v) => v === 0),
              `${what}: exact zeros`,
            );
            continue;
          }
          const col = Float64Array.from({ length: rows }, (_, i) => x[i * cols + c]!);
          const err = rowErr(got, reference(col));
          assert.ok(err < tol, `${what}: ${err}`);
        }
      }
    }
  }
});

test('float32 rows near the ends of the range (subnormal, near the largest) keep their accuracy on the pairs paths', async () => {
  // Odd lengths and short rows take the pairs paths; an inverse's 1/n came first, so subnormal half spectra lost
  // most of their bits (irfft of 1e-40, n = 1009: 3e-2 relative error), and rows near 3e38 could overflow.
  for (const n of [5, 9, 243, 1009]) {
    for (const rows of [1, 2, 3]) {
      for (const scale of [1e-40, 1e-36, 3e37]) {
        const m = Math.floor(n / 2) + 1;
        const r = rng(n + rows);
        // Row 1 (where there is one) at scale 1, beside the extreme rows.
        const rowScale = (q: number) => (q === 1 ? 1 : scale);
        const half = Float32Array.from({ length: rows * 2 * m }, (_, i) => rowScale(Math.floor(i / (2 * m))) * r());
        const real = Float32Array.from({ length: rows * n }, (_, i) => rowScale(Math.floor(i / n)) * (r() - 0.5));
        const x = await irfft(half, { shape: [rows, m], n });
        const y = await rfft(real, { shape: [rows, n] });
        const z = await dct(real, { shape: [rows, n], type: 3 });
        // Subnormal results are on a grid of 2^-149 ≈ 1.4e-45: a few of its steps over the row's size are allowed too.
        const tolFor = (want: Float64Array) => 5e-6 + 1e-44 / want.reduce((a, t) => Math.max(a, Math.abs(t)), 0);
        for (let q = 0; q < rows; q++) {
          const what = `n=${n} rows=${rows} scale ${rowScale(q)} row ${q}`;
          const h = half.subarray(q * 2 * m, (q + 1) * 2 * m);
          const full = new Float64Array(2 * n);
          for (let k = 0; k < n; k++) {
            const j = k < m ? k : n - k;
            full[2 * k] = h[2 * j]!;
            full[2 * k + 1] = k === 0 || (n % 2 === 0 && k === n / 2) ? 0 : k < m ? h[2 * j + 1]! : -h[2 * j + 1]!;
          }
          const wantX = dftNaive(full, true).filter((_, i) => i % 2 === 0);
          const ex = rowErr(x.subarray(q * n, (q + 1) * n), wantX);
          assert.ok(ex < tolFor(wantX), `irfft ${what}: ${ex}`);
          const row = Float64Array.from(real.subarray(q * n, (q + 1) * n));
          const wantY = dftNaive(Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 0 : row[i / 2]!)));
          // Forward transforms sum n values: where the true result is beyond float32, so is scipy's.
          const fits = (v: Float64Array) => v.every((t) => Math.abs(t) < 3e38);
          if (fits(wantY))
            assert.ok(
              rowErr(y.subarray(q * 2 * m, (q + 1) * 2 * m), wantY.subarray(0, 2 * m)) < tolFor(wantY),
              `rfft ${what}`,
            );
          const wantZ = cpuDct.dct(row, { type: 3 }).data as Float64Array;
          if (fits(wantZ)) assert.ok(rowErr(z.subarray(q * n, (q + 1) * n), wantZ) < tolFor(wantZ), `dct3 ${what}`);
        }
      }
    }
  }
});
