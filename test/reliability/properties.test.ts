/**
 * Seeded property tests, on the float64 CPU backend and on WebGPU (f32): the FFT family (linearity,
 * Parseval, round trip, shift theorem, impulse response — Ergün's verifier needs no reference FFT — real
 * and N-D), the tridiagonal solvers (residual ‖Ax − d‖/‖d‖ and agreement with float64 Thomas) and
 * convolution (commutativity, correlation as convolution with the reversed conjugate, linearity).
 * Each property prints its case count; the worst measured errors are printed as a table (they are the
 * numbers quoted in RELIABILITY.md).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  fft,
  ifft,
  rfft,
  irfft,
  fftn,
  ifftn,
  rfftn,
  irfftn,
  solveTridiagonal,
  convolve,
  correlate,
  type GpuContext,
  type ComplexArray,
  type FftNorm,
} from '../../src/index.js';
import { testGpu } from '../helpers/gpu.js';
import { forAll, printCounts, relL2, norm2, f32Bound, f64Bound, type Gen } from './helpers.js';
import { tridiagonalResidual } from '../../src/backends/cpu/thomas.js';
import { matIndex, rhsIndex } from '../../src/planner/tridiagonal.js';

/** Worst error seen per (backend, property, size bucket), printed at the end. */
const worst = new Map<string, { err: number; n: number }>();
function note(key: string, n: number, err: number): void {
  const bucket = n <= 64 ? '≤64' : n <= 1024 ? '≤1024' : n <= 8192 ? '≤8192' : '>8192';
  const k = `${key} N${bucket}`;
  const w = worst.get(k);
  if (!w || err > w.err) worst.set(k, { err, n });
}
after(() => {
  const rows = [...worst.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  console.log('  worst relative errors measured (property, size bucket: error at N):');
  for (const [k, v] of rows) console.log(`    ${k.padEnd(44)} ${v.err.toExponential(2)} (N = ${v.n})`);
  printCounts('properties');
});

type Backend = {
  name: 'cpu' | 'webgpu';
  gpu?: GpuContext;
  T: Float32ArrayConstructor | Float64ArrayConstructor;
  bound: (n: number) => number;
};
const CPU: Backend = { name: 'cpu', T: Float64Array, bound: f64Bound };

async function backends(): Promise<Backend[]> {
  const ctx = await testGpu();
  return ctx ? [CPU, { name: 'webgpu', gpu: ctx, T: Float32Array, bound: f32Bound }] : [CPU];
}

/**
 * A transform length: any N ≤ max on the CPU; on WebGPU one of a pool covering every kernel family
 * (powers of two, radices 3/5/7, primes 11–61 as radices, two-stage mixed, N = 1) — a pool, because each
 * new (N, direction, norm) compiles kernels, which on llvmpipe costs far more than running them.
 */
const GPU_POOL = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 60, 64, 100, 128, 243, 256, 343, 1000, 1024, 2048];
function randomN(g: Gen, be: Backend, max = 2048): number {
  if (be.name === 'cpu') return g.bool(0.8) ? g.int(1, Math.min(300, max)) : g.int(Math.min(301, max), max);
  const pool = GPU_POOL.filter((n) => n <= max);
  return g.pick(pool);
}

/**
 * The 1-D properties' length for case i: random on the CPU; on WebGPU the pool in turn from entry `start`,
 * every 7th entry (7 is prime to its size), so the first cases cover every family before any length repeats.
 * Cold, each GPU case costs about a second of shader compiling, so the budgets below end those runs after
 * some 12–20 cases.
 */
function caseN(g: Gen, be: Backend, i: number, start = 0): number {
  return be.name === 'cpu' ? randomN(g, be) : GPU_POOL[(start + 7 * i) % GPU_POOL.length];
}

const opts = (be: Backend, extra: object = {}) => ({ backend: be.name, gpu: be.gpu, ...extra });

function cmul(x: ArrayLike<number>, re: number, im: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i += 2) {
    out[i] = x[i] * re - x[i + 1] * im;
    out[i + 1] = x[i] * im + x[i + 1] * re;
  }
  return out;
}
function add(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}
const f64 = (x: ArrayLike<number>) => Float64Array.from(x as ArrayLike<number>);

test('FFT (1-D complex): linearity, Parseval, round trip, shift theorem, impulse response', async () => {
  for (const be of await backends()) {
    const budget = be.name === 'cpu' ? 6000 : 10_000;
    await forAll(
      `${be.name} fft linearity`,
      { seed: 1000, cases: be.name === 'cpu' ? 150 : 60, budgetMs: budget },
      async (g, i) => {
        const n = caseN(g, be, i);
        const batch = g.int(1, 4);
        const x = g.f64(2 * n * batch);
        const y = g.f64(2 * n * batch);
        const [ar, ai, br, bi] = [g.next() * 4 - 2, g.next() * 4 - 2, g.next() * 4 - 2, g.next() * 4 - 2];
        const combo = add(cmul(x, ar, ai), cmul(y, br, bi));
        const o = opts(be, { shape: [batch, n] });
        const [Fx, Fy, Fc] = await Promise.all([fft(be.T.from(x), o), fft(be.T.from(y), o), fft(be.T.from(combo), o)]);
        const expect = add(cmul(Fx, ar, ai), cmul(Fy, br, bi));
        const err = relL2(Fc, expect);
        note(`${be.name} fft linearity`, n, err);
        assert.ok(err <= 4 * be.bound(n), `n=${n} batch=${batch}: ${err}`);
      },
    );
    await forAll(
      `${be.name} fft Parseval + round trip (all norms)`,
      { seed: 2000, cases: be.name === 'cpu' ? 150 : 60, budgetMs: budget },
      async (g, i) => {
        const n = caseN(g, be, i);
        const batch = g.int(1, 3);
        const norm = g.pick(['backward', 'ortho', 'forward'] as FftNorm[]);
        const x = be.T.from(g.f64(2 * n * batch));
        const o = opts(be, { shape: [batch, n], norm });
        const X = await fft(x, o);
        const scale = norm === 'backward' ? Math.sqrt(n) : norm === 'ortho' ? 1 : 1 / Math.sqrt(n);
        const pErr = Math.abs(norm2(X) - scale * norm2(x)) / (scale * norm2(x));
        note(`${be.name} fft Parseval`, n, pErr);
        assert.ok(pErr <= be.bound(n), `Parseval n=${n} ${norm}: ${pErr}`);
        const back = await ifft(X, o);
        const rErr = relL2(back, x);
        note(`${be.name} fft round trip`, n, rErr);
        assert.ok(rErr <= 2 * be.bound(n), `round trip n=${n} ${norm}: ${rErr}`);
      },
    );
    await forAll(
      `${be.name} fft shift theorem + impulse`,
      { seed: 3000, cases: be.name === 'cpu' ? 150 : 60, budgetMs: budget },
      async (g, i) => {
        const n = Math.max(2, caseN(g, be, i));
        const m = g.int(1, n - 1);
        const x = g.f64(2 * n);
        const shifted = new Float64Array(2 * n);
        for (let j = 0; j < n; j++) {
          shifted[2 * ((j + m) % n)] = x[2 * j];
          shifted[2 * ((j + m) % n) + 1] = x[2 * j + 1];
        }
        const [X, S] = await Promise.all([fft(be.T.from(x), opts(be)), fft(be.T.from(shifted), opts(be))]);
        const expect = new Float64Array(2 * n);
        for (let k = 0; k < n; k++) {
          const ang = (-2 * Math.PI * ((k * m) % n)) / n;
          const [c, s] = [Math.cos(ang), Math.sin(ang)];
          expect[2 * k] = X[2 * k] * c - X[2 * k + 1] * s;
          expect[2 * k + 1] = X[2 * k] * s + X[2 * k + 1] * c;
        }
        const err = relL2(S, expect);
        note(`${be.name} fft shift theorem`, n, err);
        assert.ok(err <= 4 * be.bound(n), `shift n=${n} m=${m}: ${err}`);
        // Impulse at j: X[k] = e^{−2πijk/N} (exact twiddles, no reference FFT needed).
        const d = new Float64Array(2 * n);
        d[2 * m] = 1;
        const D = await fft(be.T.from(d), opts(be));
        const want = new Float64Array(2 * n);
        for (let k = 0; k < n; k++) {
          const ang = (-2 * Math.PI * ((k * m) % n)) / n;
          want[2 * k] = Math.cos(ang);
          want[2 * k + 1] = Math.sin(ang);
        }
        const iErr = relL2(D, want);
        note(`${be.name} fft impulse`, n, iErr);
        assert.ok(iErr <= be.bound(n), `impulse n=${n} j=${m}: ${iErr}`);
      },
    );
  }
});

test('FFT (large N, Ergün): linearity + impulse + shift on multi-pass lengths', async () => {
  for (const be of await backends()) {
    const sizes = [16384, 3 * 8192, 65536, 5 * 6561];
    await forAll(`${be.name} large-N Ergün`, { seed: 3500, cases: sizes.length }, async (g, i) => {
      const n = sizes[i];
      const x = g.f64(2 * n);
      const m = g.int(1, n - 1);
      const shifted = new Float64Array(2 * n);
      for (let j = 0; j < n; j++) {
        shifted[2 * ((j + m) % n)] = x[2 * j];
        shifted[2 * ((j + m) % n) + 1] = x[2 * j + 1];
      }
      const [X, S] = await Promise.all([fft(be.T.from(x), opts(be)), fft(be.T.from(shifted), opts(be))]);
      const expect = new Float64Array(2 * n);
      for (let k = 0; k < n; k++) {
        const ang = (-2 * Math.PI * ((k * m) % n)) / n;
        const [c, s] = [Math.cos(ang), Math.sin(ang)];
        expect[2 * k] = X[2 * k] * c - X[2 * k + 1] * s;
        expect[2 * k + 1] = X[2 * k] * s + X[2 * k + 1] * c;
      }
      const err = relL2(S, expect);
      note(`${be.name} fft shift theorem`, n, err);
      assert.ok(err <= 4 * be.bound(n), `shift n=${n}: ${err}`);
      const back = await ifft(X, opts(be));
      const rErr = relL2(back, x);
      note(`${be.name} fft round trip`, n, rErr);
      assert.ok(rErr <= 2 * be.bound(n), `round trip n=${n}: ${rErr}`);
    });
  }
});

test('real FFT: rfft = first half of the complex FFT, irfft(rfft(x)) = x, Parseval', async () => {
  for (const be of await backends()) {
    await forAll(
      `${be.name} rfft vs fft + round trip`,
      { seed: 4000, cases: be.name === 'cpu' ? 120 : 60, budgetMs: be.name === 'cpu' ? 5000 : 12_000 },
      async (g, i) => {
        // From the pool's second entry: the first, N = 1, is raised to 2 here, so it comes late.
        const n = Math.max(2, caseN(g, be, i, 1));
        const batch = g.int(1, 3);
        const x = g.f64(n * batch);
        const xc = new Float64Array(2 * n * batch);
        for (let i = 0; i < n * batch; i++) xc[2 * i] = x[i];
        const [R, C] = await Promise.all([
          rfft(be.T.from(x), opts(be, { shape: [batch, n] })),
          fft(be.T.from(xc), opts(be, { shape: [batch, n] })),
        ]);
        const h = Math.floor(n / 2) + 1;
        assert.equal(R.length, 2 * h * batch);
        const half = new Float64Array(2 * h * batch);
        for (let b = 0; b < batch; b++) half.set(C.subarray(2 * n * b, 2 * n * b + 2 * h), 2 * h * b);
        const err = relL2(R, half);
        note(`${be.name} rfft vs fft`, n, err);
        assert.ok(err <= 2 * be.bound(n), `rfft n=${n}: ${err}`);
        const back = await irfft(R, opts(be, { shape: [batch, h], n }));
        const rErr = relL2(back, x);
        note(`${be.name} irfft(rfft) round trip`, n, rErr);
        assert.ok(rErr <= 2 * be.bound(n), `irfft round trip n=${n}: ${rErr}`);
      },
    );
  }
});

test('N-D FFT: separability, round trip, linearity, shift along a random axis (complex and real)', async () => {
  for (const be of await backends()) {
    await forAll(
      `${be.name} fftn`,
      { seed: 5000, cases: be.name === 'cpu' ? 60 : 40, budgetMs: be.name === 'cpu' ? 5000 : 12_000 },
      async (g) => {
        const ndim = g.int(1, 4);
        const shape = Array.from({ length: ndim }, () => Math.max(1, randomN(g, be, ndim > 2 ? 24 : 96)));
        const total = shape.reduce((a, b) => a * b, 1);
        const allAxes = shape.map((_, i) => i);
        const axes = g.bool(0.5) ? allAxes : allAxes.filter(() => g.bool(0.6));
        if (axes.length === 0) axes.push(ndim - 1);
        const x = g.f64(2 * total);
        const o = opts(be, { shape, axes });
        const X = await fftn(be.T.from(x), o);
        // Separability: the same as 1-D transforms along each axis in turn (CPU float64 reference).
        let ref: ComplexArray = f64(x);
        for (const a of axes) ref = await fft(ref as Float64Array, { shape, axis: a, backend: 'cpu' });
        const sErr = relL2(X, ref);
        const len = axes.reduce((p, a) => p * shape[a], 1);
        note(`${be.name} fftn vs 1-D axes`, len, sErr);
        assert.ok(sErr <= 2 * be.bound(len), `fftn shape [${shape}] axes [${axes}]: ${sErr}`);
        const back = await ifftn(X, o);
        const rErr = relL2(back, x);
        note(`${be.name} fftn round trip`, len, rErr);
        assert.ok(rErr <= 2 * be.bound(len), `ifftn(fftn) [${shape}]: ${rErr}`);
        // Shift along one transformed axis by m: multiply by e^{−2πi k m / n} along that axis.
        const a = g.pick(axes);
        const n = shape[a];
        const m = g.int(0, n - 1);
        const inner = shape.slice(a + 1).reduce((p, v) => p * v, 1);
        const sh = new Float64Array(2 * total);
        for (let e = 0; e < total; e++) {
          const i = Math.floor(e / inner) % n;
          const dst = e + (((i + m) % n) - i) * inner;
          sh[2 * dst] = x[2 * e];
          sh[2 * dst + 1] = x[2 * e + 1];
        }
        const S = await fftn(be.T.from(sh), o);
        const expect = new Float64Array(2 * total);
        for (let e = 0; e < total; e++) {
          const k = Math.floor(e / inner) % n;
          const ang = (-2 * Math.PI * ((k * m) % n)) / n;
          expect[2 * e] = X[2 * e] * Math.cos(ang) - X[2 * e + 1] * Math.sin(ang);
          expect[2 * e + 1] = X[2 * e] * Math.sin(ang) + X[2 * e + 1] * Math.cos(ang);
        }
        const shErr = relL2(S, expect);
        note(`${be.name} fftn shift theorem`, len, shErr);
        assert.ok(shErr <= 4 * be.bound(len), `fftn shift axis ${a} by ${m} [${shape}]: ${shErr}`);
      },
    );
    await forAll(
      `${be.name} rfftn / irfftn`,
      { seed: 6000, cases: be.name === 'cpu' ? 60 : 40, budgetMs: be.name === 'cpu' ? 5000 : 12_000 },
      async (g) => {
        const ndim = g.int(1, 3);
        const shape = Array.from({ length: ndim }, () => Math.max(2, randomN(g, be, ndim > 2 ? 24 : 96)));
        const total = shape.reduce((p, v) => p * v, 1);
        const x = g.f64(total);
        const R = await rfftn(be.T.from(x), opts(be, { shape }));
        // Reference: the complex N-D transform of x, cropped to n/2+1 along the last axis.
        const xc = new Float64Array(2 * total);
        for (let i = 0; i < total; i++) xc[2 * i] = x[i];
        const C = await fftn(xc, { shape, backend: 'cpu' });
        const last = shape[ndim - 1];
        const h = Math.floor(last / 2) + 1;
        const rows = total / last;
        const half = new Float64Array(2 * rows * h);
        for (let r = 0; r < rows; r++) half.set(C.subarray(2 * r * last, 2 * r * last + 2 * h), 2 * r * h);
        const err = relL2(R, half);
        note(`${be.name} rfftn vs fftn`, total, err);
        assert.ok(err <= 2 * be.bound(total), `rfftn [${shape}]: ${err}`);
        const back = await irfftn(R, opts(be, { shape: [...shape.slice(0, -1), h], s: shape }));
        const rErr = relL2(back, x);
        note(`${be.name} irfftn(rfftn) round trip`, total, rErr);
        assert.ok(rErr <= 2 * be.bound(total), `irfftn(rfftn) [${shape}]: ${rErr}`);
      },
    );
  }
});

/** Random diagonally dominant system data in a layout (real or complex), with the float64 residual check. */
function residuals(
  n: number,
  batch: number,
  nrhs: number,
  layout: 'strided' | 'interleaved',
  complex: boolean,
  A: { lower: ArrayLike<number>; diag: ArrayLike<number>; upper: ArrayLike<number>; rhs: ArrayLike<number> },
  x: ArrayLike<number>,
): number {
  const w = complex ? 2 : 1;
  let worstRes = 0;
  const a = new Float64Array(n * w),
    b = a.slice(),
    c = a.slice(),
    d = a.slice(),
    xs = a.slice();
  for (let j = 0; j < batch; j++) {
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, batch, j, i);
      for (let q = 0; q < w; q++) {
        a[i * w + q] = A.lower[e * w + q];
        b[i * w + q] = A.diag[e * w + q];
        c[i * w + q] = A.upper[e * w + q];
      }
    }
    for (let r = 0; r < nrhs; r++) {
      for (let i = 0; i < n; i++) {
        const e = rhsIndex(layout, n, batch, r, j, i);
        for (let q = 0; q < w; q++) {
          d[i * w + q] = A.rhs[e * w + q];
          xs[i * w + q] = x[e * w + q];
        }
      }
      worstRes = Math.max(worstRes, tridiagonalResidual(a, b, c, d, xs, n, complex));
    }
  }
  return worstRes;
}

test('tridiagonal: residual ‖Ax − d‖/‖d‖ on random diagonally dominant systems (every solver, layout, dtype)', async () => {
  const ctx = await testGpu();
  type Solver = {
    name: string;
    backend: 'cpu' | 'webgpu';
    dtype: 'float32' | 'float64';
    cpuAlgorithm?: 'thomas' | 'wang-mou' | 'lu';
  };
  const solvers: Solver[] = [
    { name: 'cpu thomas f64', backend: 'cpu', dtype: 'float64', cpuAlgorithm: 'thomas' },
    { name: 'cpu wang-mou f64', backend: 'cpu', dtype: 'float64', cpuAlgorithm: 'wang-mou' },
    { name: 'cpu lu f64', backend: 'cpu', dtype: 'float64', cpuAlgorithm: 'lu' },
    { name: 'cpu thomas f32', backend: 'cpu', dtype: 'float32', cpuAlgorithm: 'thomas' },
  ];
  if (ctx) solvers.push({ name: 'webgpu f32', backend: 'webgpu', dtype: 'float32' });
  for (const s of solvers) {
    const f32 = s.dtype === 'float32';
    await forAll(
      `tridiagonal ${s.name}`,
      { seed: 7000, cases: s.backend === 'webgpu' ? 60 : 80, budgetMs: 8000 },
      async (g) => {
        const n = g.bool(0.7) ? g.int(1, 200) : g.int(201, 5000);
        const batch = g.int(1, 5);
        const nrhs = g.int(1, 3);
        const layout = g.pick(['strided', 'interleaved'] as const);
        const complex = g.bool(0.3);
        const cyclic = g.bool(0.15) && n >= 3;
        const dominance = g.pick([1, 1, 1.5, 3]);
        const w = complex ? 2 : 1;
        const T = f32 ? Float32Array : Float64Array;
        const lower = T.from(g.f64(n * batch * w));
        const upper = T.from(g.f64(n * batch * w));
        const diag = new T(n * batch * w);
        for (let k = 0; k < n * batch; k++) {
          const mag =
            dominance *
              (Math.hypot(lower[k * w], complex ? lower[k * w + 1] : 0) +
                Math.hypot(upper[k * w], complex ? upper[k * w + 1] : 0)) +
            0.1 +
            g.next();
          const th = complex ? 2 * Math.PI * g.next() : g.bool() ? 0 : Math.PI;
          diag[k * w] = mag * Math.cos(th);
          if (complex) diag[k * w + 1] = mag * Math.sin(th);
        }
        const rhs = T.from(g.f64(n * batch * nrhs * w));
        const r = await solveTridiagonal({
          n,
          batch,
          nrhs,
          layout,
          complex,
          cyclic,
          dtype: s.dtype,
          backend: s.backend,
          gpu: ctx ?? undefined,
          cpuAlgorithm: s.cpuAlgorithm,
          lower,
          diag,
          upper,
          rhs,
        });
        assert.equal(r.ok, true, `status ${[...r.status]}`);
        if (cyclic) return; // the residual helper checks the non-cyclic matrix; cyclic is covered by agreement below
        const res = residuals(n, batch, nrhs, layout, complex, { lower, diag, upper, rhs }, r.x as Float32Array);
        note(`tridiagonal ${s.name} residual`, n, res);
        const bound = f32 ? 2e-6 * Math.max(1, Math.log2(n)) : 1e-14 * Math.max(1, Math.log2(n));
        assert.ok(
          res <= bound,
          `n=${n} batch=${batch} nrhs=${nrhs} ${layout}${complex ? ' complex' : ''} dominance ${dominance}: residual ${res}`,
        );
      },
    );
  }
  // Cyclic systems: CPU LU (float64) and the solver under test agree.
  const cyc: Solver[] = ctx ? [{ name: 'webgpu f32', backend: 'webgpu', dtype: 'float32' }, solvers[0]] : [solvers[0]];
  for (const s of cyc) {
    await forAll(`tridiagonal cyclic ${s.name} vs LU`, { seed: 7500, cases: 30, budgetMs: 10_000 }, async (g) => {
      const n = g.int(3, 600);
      const batch = g.int(1, 3);
      const lower = g.f64(n * batch);
      const upper = g.f64(n * batch);
      const diag = new Float64Array(n * batch).map(
        (_, k) => (g.bool() ? -1 : 1) * (Math.abs(lower[k]) + Math.abs(upper[k]) + 0.5 + g.next()),
      );
      const rhs = g.f64(n * batch);
      const T = s.dtype === 'float32' ? Float32Array : Float64Array;
      const conv = (a: Float64Array) => T.from(a);
      const ref = await solveTridiagonal({
        n,
        batch,
        cyclic: true,
        dtype: 'float64',
        backend: 'cpu',
        cpuAlgorithm: 'lu',
        lower,
        diag,
        upper,
        rhs,
      });
      const got = await solveTridiagonal({
        n,
        batch,
        cyclic: true,
        dtype: s.dtype,
        backend: s.backend,
        gpu: ctx ?? undefined,
        cpuAlgorithm: s.cpuAlgorithm,
        lower: conv(lower),
        diag: conv(diag),
        upper: conv(upper),
        rhs: conv(rhs),
      });
      const err = relL2(got.x, ref.x);
      note(`tridiagonal cyclic ${s.name} vs LU`, n, err);
      assert.ok(got.ok && err <= (s.dtype === 'float32' ? 1e-5 : 1e-12), `cyclic n=${n}: ${err}`);
    });
  }
});

test('convolution: commutativity, correlation = convolution with the reversed conjugate, linearity', async () => {
  const ctx = await testGpu();
  const bes: Backend[] = ctx ? [CPU, { name: 'webgpu', gpu: ctx, T: Float32Array, bound: f32Bound }] : [CPU];
  for (const be of bes) {
    await forAll(
      `${be.name} convolve commutativity + correlate`,
      { seed: 8000, cases: be.name === 'cpu' ? 80 : 50, budgetMs: be.name === 'cpu' ? 10_000 : 10_000 },
      async (g) => {
        const k = g.int(1, 2);
        const sa = Array.from({ length: k }, () => g.int(1, k === 1 ? 300 : 24));
        const sb = Array.from({ length: k }, () => g.int(1, k === 1 ? 60 : 12));
        const complex = g.bool(0.3);
        const w = complex ? 2 : 1;
        const a = { data: be.T.from(g.f64(w * sa.reduce((p, v) => p * v, 1))), shape: sa, complex };
        const b = { data: be.T.from(g.f64(w * sb.reduce((p, v) => p * v, 1))), shape: sb, complex };
        const method = g.pick(['auto', 'direct', 'fft', 'oa'] as const);
        const o = { backend: be.name, gpu: be.gpu, method };
        const [ab, ba] = await Promise.all([convolve(a, b, o), convolve(b, a, o)]);
        assert.deepEqual(ab.shape, ba.shape);
        const ref = await convolve(
          { ...a, data: f64(a.data) },
          { ...b, data: f64(b.data) },
          { backend: 'cpu', method: 'direct' },
        );
        const scale = Math.max(1, Math.log2(ab.data.length));
        const e1 = relL2(ab.data, ba.data);
        const e2 = relL2(ab.data, ref.data);
        note(`${be.name} convolve commutativity`, ab.data.length, e1);
        note(`${be.name} convolve vs direct f64`, ab.data.length, e2);
        const tol = be.name === 'cpu' ? 1e-12 * scale : 1e-5 * scale;
        assert.ok(
          e1 <= tol && e2 <= tol,
          `[${sa}] * [${sb}] ${method}${complex ? ' complex' : ''}: commutativity ${e1}, vs direct ${e2}`,
        );
        // correlate(a, b) = convolve(a, reverse(conj(b))) in 'full' mode.
        const rb = new Float64Array(b.data.length);
        const nb = b.data.length / w;
        for (let i = 0; i < nb; i++) {
          // reverse every axis: flat index reversal of a row-major array reverses each coordinate.
          rb[w * (nb - 1 - i)] = b.data[w * i];
          if (complex) rb[w * (nb - 1 - i) + 1] = -b.data[w * i + 1];
        }
        const [corr, conv] = await Promise.all([
          correlate(a, b, o),
          convolve({ ...a, data: f64(a.data) }, { ...b, data: rb }, { backend: 'cpu', method: 'direct' }),
        ]);
        const e3 = relL2(corr.data, conv.data);
        note(`${be.name} correlate vs convolve`, corr.data.length, e3);
        assert.ok(e3 <= tol, `correlate [${sa}] [${sb}]: ${e3}`);
      },
    );
  }
});
