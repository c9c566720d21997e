/**
 * `ok` means accurate: systems a non-pivoting solver gets wrong (tiny first pivot, small diagonals) are
 * flagged INACCURATE on every backend, and backend 'auto' re-solves them by pivoting LU. Every claim is
 * checked against float64 references computed here: the backward error from the rows themselves, and the
 * forward error against float64 LU with partial pivoting within cond₁(A) times the tolerance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import { createStorageBuffer, readBuffer } from '../../src/backends/webgpu/device.js';
import { solveTridiagonal, TRIDIAGONAL_STATUS as S, type TridiagonalResult } from '../../src/api/tridiagonal.js';
import { matIndex, rhsIndex, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';
import { rng } from '../../src/util/random.js';
import { randomSystems, toLayout } from './helpers.js';

const TOL64 = 1024 * 2 ** -53;
const TOL32 = 1024 * 2 ** -24;
const BAD = S.ZERO_PIVOT | S.NON_FINITE | S.INACCURATE;

interface Sys {
  a: Float64Array;
  b: Float64Array;
  c: Float64Array;
  d: Float64Array;
}
interface Sh {
  n: number;
  batch: number;
  nrhs: number;
  layout: TridiagonalLayout;
  complex: boolean;
  cyclic?: boolean;
}

/** Matrix j as contiguous arrays, and right-hand side r of it. */
function gather(s: Sys, sh: Sh, j: number) {
  const w = sh.complex ? 2 : 1;
  const a = new Float64Array(sh.n * w),
    b = a.slice(),
    c = a.slice();
  for (let i = 0; i < sh.n; i++) {
    const e = matIndex(sh.layout, sh.n, sh.batch, j, i);
    for (let q = 0; q < w; q++) {
      a[i * w + q] = s.a[e * w + q];
      b[i * w + q] = s.b[e * w + q];
      c[i * w + q] = s.c[e * w + q];
    }
  }
  const vec = (arr: ArrayLike<number>, r: number) => {
    const v = new Float64Array(sh.n * w);
    for (let i = 0; i < sh.n; i++)
      for (let q = 0; q < w; q++) v[i * w + q] = arr[rhsIndex(sh.layout, sh.n, sh.batch, r, j, i) * w + q];
    return v;
  };
  return { a, b, c, vec };
}

/** Dense float64 matrix of one system (real only), for the reference condition number. */
function dense(a: Float64Array, b: Float64Array, c: Float64Array, n: number, cyclic: boolean): Float64Array[] {
  const m = Array.from({ length: n }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    m[i][i] += b[i];
    if (i > 0) m[i][i - 1] += a[i];
    else if (cyclic && n > 1) m[0][n - 1] += a[0];
    if (i < n - 1) m[i][i + 1] += c[i];
    else if (cyclic && n > 1) m[n - 1][0] += c[n - 1];
  }
  return m;
}

/** Dense Gaussian elimination with partial pivoting (float64): solves M X = B for the columns of B. */
function denseSolve(M: Float64Array[], rhs: Float64Array[]): Float64Array[] {
  const n = M.length;
  const A = M.map((r) => r.slice());
  const X = rhs.map((r) => r.slice());
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(A[i][k]) > Math.abs(A[p][k])) p = i;
    [A[k], A[p]] = [A[p], A[k]];
    for (const x of X) [x[k], x[p]] = [x[p], x[k]];
    for (let i = k + 1; i < n; i++) {
      const f = A[i][k] / A[k][k];
      if (f === 0) continue;
      for (let q = k; q < n; q++) A[i][q] -= f * A[k][q];
      for (const x of X) x[i] -= f * x[k];
    }
  }
  for (const x of X) {
    for (let i = n - 1; i >= 0; i--) {
      let v = x[i];
      for (let q = i + 1; q < n; q++) v -= A[i][q] * x[q];
      x[i] = v / A[i][i];
    }
  }
  return X;
}

const refCache = new WeakMap<Sys, Map<string, { cond: number; x: Float64Array }>>();

/**
 * cond₁(A) = ‖A‖₁‖A⁻¹‖₁ and the float64 solution of A x = d, by dense Gaussian elimination with partial
 * pivoting (real systems), cached per system across the solves a test audits.
 */
function reference(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  n: number,
  cyclic: boolean,
  s: Sys,
  j: number,
  q: number,
) {
  const cache = refCache.get(s) ?? new Map();
  refCache.set(s, cache);
  const key = `${j}/${q}`;
  if (!cache.has(key)) cache.set(key, referenceDense(a, b, c, d, n, cyclic));
  return cache.get(key)!;
}

function referenceDense(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  n: number,
  cyclic: boolean,
) {
  const M = dense(a, b, c, n, cyclic);
  const eye = Array.from({ length: n }, (_, k) => {
    const e = new Float64Array(n);
    e[k] = 1;
    return e;
  });
  const inv = denseSolve(M, [...eye, d]);
  let nA = 0,
    nInv = 0;
  for (let k = 0; k < n; k++) {
    let sa = 0,
      si = 0;
    for (let i = 0; i < n; i++) {
      sa += Math.abs(M[i][k]);
      si += Math.abs(inv[k][i]);
    }
    nA = Math.max(nA, sa);
    nInv = Math.max(nInv, si);
  }
  return { cond: nA * nInv, x: inv[n] };
}

/** Normwise backward error of x for one system, computed row by row (real or complex). */
function backwardError(
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  d: Float64Array,
  x: Float64Array,
  n: number,
  complex: boolean,
  cyclic: boolean,
): number {
  const w = complex ? 2 : 1;
  let maxR = 0,
    nA = 0,
    nX = 0,
    nD = 0;
  const mul = (arr: Float64Array, i: number, k: number): [number, number] =>
    complex
      ? [arr[2 * i] * x[2 * k] - arr[2 * i + 1] * x[2 * k + 1], arr[2 * i] * x[2 * k + 1] + arr[2 * i + 1] * x[2 * k]]
      : [arr[i] * x[k], 0];
  const abs = (arr: Float64Array, i: number) => (complex ? Math.hypot(arr[2 * i], arr[2 * i + 1]) : Math.abs(arr[i]));
  for (let i = 0; i < n; i++) {
    let [rr, ri] = mul(b, i, i);
    let row = abs(b, i);
    const left = i > 0 ? i - 1 : cyclic && n > 1 ? n - 1 : -1;
    const right = i < n - 1 ? i + 1 : cyclic && n > 1 ? 0 : -1;
    if (left >= 0) {
      const [p, q] = mul(a, i, left);
      rr += p;
      ri += q;
      row += abs(a, i);
    }
    if (right >= 0) {
      const [p, q] = mul(c, i, right);
      rr += p;
      ri += q;
      row += abs(c, i);
    }
    rr -= d[i * w];
    if (complex) ri -= d[i * w + 1];
    maxR = Math.max(maxR, Math.hypot(rr, ri));
    nA = Math.max(nA, row);
    nX = Math.max(nX, abs(x, i));
    nD = Math.max(nD, abs(d, i));
  }
  const e = maxR / (nA * nX + nD);
  return Number.isFinite(e) ? e : Infinity;
}

/**
 * Checks a result system by system. Unflagged solutions must have a backward error within `tol` and a
 * forward error within cond₁(A)·tol·8 of the dense float64 solution (real systems). Returns how many
 * matrices were flagged (bits 1, 2 or 8).
 */
function audit(
  s: Sys,
  sh: Sh,
  r: { x: unknown; status: Uint32Array; ok: boolean; backwardError?: Float64Array },
  tol: number,
  what: string,
): number {
  let flagged = 0;
  for (let j = 0; j < sh.batch; j++) {
    const st = r.status[j];
    if (st & BAD) {
      flagged++;
      continue;
    }
    const { a, b, c, vec } = gather(s, sh, j);
    for (let q = 0; q < sh.nrhs; q++) {
      const d = vec(s.d, q),
        x = vec(r.x as ArrayLike<number>, q);
      const be = backwardError(a, b, c, d, x, sh.n, sh.complex, sh.cyclic ?? false);
      assert.ok(be <= tol, `${what}: matrix ${j} rhs ${q} unflagged (status ${st}) with backward error ${be}`);
      // Reported and measured agree, up to rounding noise (both are a few units of roundoff when tiny).
      assert.ok(
        r.backwardError![j] <= tol && r.backwardError![j] >= 0.25 * be - tol / 64,
        `${what}: reported ${r.backwardError![j]}, measured ${be}`,
      );
      if (!sh.complex) {
        const ref = reference(a, b, c, d, sh.n, sh.cyclic ?? false, s, j, q);
        let num = 0,
          den = 0;
        for (let i = 0; i < sh.n; i++) {
          num = Math.max(num, Math.abs(x[i] - ref.x[i]));
          den = Math.max(den, Math.abs(ref.x[i]));
        }
        const fe = num / den;
        assert.ok(
          fe <= Math.max(8 * ref.cond * tol, 1e-15),
          `${what}: matrix ${j} forward error ${fe}, cond ${ref.cond}`,
        );
      }
    }
  }
  assert.equal(r.ok, flagged === 0, `${what}: ok ${r.ok} with ${flagged} flagged`);
  return flagged;
}

/**
 * A well-conditioned system with a tiny first pivot: rows 0 and 1 are [ε 1; 1 1]-like (pivoting swaps
 * them), the rest diagonally dominant. Thomas divides by ε and loses ~u/ε of accuracy.
 */
function tinyPivot(
  n: number,
  batch: number,
  eps: number,
  seed: number,
  layout: TridiagonalLayout,
  complex = false,
): Sys {
  const s = randomSystems(n, batch, seed, { complex });
  const w = complex ? 2 : 1;
  for (let j = 0; j < batch; j++) {
    const o = j * n * w;
    s.b[o] = eps;
    s.c[o] = 1;
    s.a[o + w] = 1;
    s.b[o + w] = 1;
    if (complex) {
      s.b[o + 1] = 0;
      s.c[o + 1] = 0;
      s.a[o + w + 1] = 0;
      s.b[o + w + 1] = 0;
    }
  }
  return toLayout(s, { n, batch, nrhs: 1, layout, complex });
}

/** Random systems whose diagonal is small against the off-diagonals (|b| ≤ scale): pivoting needed. */
function smallDiagonal(n: number, batch: number, seed: number, layout: TridiagonalLayout, nrhs = 1, scale = 0.1): Sys {
  const s = randomSystems(n, batch, seed, { dominance: 0, rhsCount: nrhs });
  const r = rng(seed + 1);
  for (let k = 0; k < s.b.length; k++) s.b[k] = scale * (2 * r() - 1);
  return toLayout(s, { n, batch, nrhs, layout, complex: false });
}

/**
 * Small-diagonal systems in which every other matrix has, at a random row k, b_k chosen so that Thomas's
 * k-th pivot is ~1e-11 of its row: the leading k×k block is nearly singular, the matrix is not (pivoting
 * swaps rows k and k+1).
 */
function hiddenTinyPivot(n: number, batch: number, seed: number, layout: TridiagonalLayout, nrhs = 1): Sys {
  const s = randomSystems(n, batch, seed, { dominance: 0, rhsCount: nrhs });
  const r = rng(seed + 2);
  for (let k = 0; k < s.b.length; k++) s.b[k] = 0.1 * (2 * r() - 1);
  for (let j = 0; j < batch; j += 2) {
    const o = j * n,
      k = Math.floor(r() * (n - 1));
    let cp = 0;
    for (let i = 0; i < k; i++) cp = s.c[o + i] / (s.b[o + i] - (i > 0 ? s.a[o + i] * cp : 0));
    s.b[o + k] = (k > 0 ? s.a[o + k] * cp : 0) + 1e-11;
  }
  return toLayout(s, { n, batch, nrhs, layout, complex: false });
}

const f32 = (v: Float64Array) => Float32Array.from(v);

test('tiny first pivot, float64 CPU: Thomas flagged INACCURATE (ok false); auto re-solves by pivoting LU', async () => {
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const [n, batch] of [
      [2, 3],
      [3, 4],
      [40, 3],
      [1000, 5],
    ] as const) {
      const sh: Sh = { n, batch, nrhs: 1, layout, complex: false };
      const s = tinyPivot(n, batch, 1e-10, n + batch, layout);
      const plain = await solveTridiagonal({
        ...sh,
        dtype: 'float64',
        backend: 'cpu',
        lower: s.a,
        diag: s.b,
        upper: s.c,
        rhs: s.d,
      });
      assert.equal(plain.ok, false, `${layout} n=${n}`);
      for (let j = 0; j < batch; j++)
        assert.ok(plain.status[j] & S.INACCURATE, `${layout} n=${n} status[${j}] = ${plain.status[j]}`);
      assert.equal(audit(s, sh, plain, TOL64, `cpu ${layout} n=${n}`), batch);
      const auto = await solveTridiagonal({
        ...sh,
        dtype: 'float64',
        backend: 'auto',
        lower: s.a,
        diag: s.b,
        upper: s.c,
        rhs: s.d,
      });
      assert.equal(auto.backend, 'cpu');
      assert.ok(auto.ok, `auto ${layout} n=${n}: ${[...auto.status]}`);
      for (let j = 0; j < batch; j++) assert.ok(auto.status[j] & S.PIVOTED);
      assert.equal(audit(s, sh, auto, TOL64, `auto ${layout} n=${n}`), 0);
    }
  }
});

test('tiny first pivot: every CPU algorithm, float32 and complex, flagged without fallback (float32 Thomas, solved in float64, accurate)', async () => {
  const n = 30,
    batch = 3;
  for (const cpuAlgorithm of ['thomas', 'wang-mou'] as const) {
    for (const dtype of ['float64', 'float32'] as const) {
      const s = tinyPivot(n, batch, 1e-10, 7, 'strided');
      const r = await solveTridiagonal({
        n,
        batch,
        dtype,
        cpuAlgorithm,
        backend: 'cpu',
        lower: s.a,
        diag: s.b,
        upper: s.c,
        rhs: s.d,
      });
      // Real float32 Thomas on the CPU runs the float64 kernel and rounds x: there this pivot costs less than
      // float32 accuracy, so the result must be accurate and unflagged; everywhere else it must be flagged.
      const wide = cpuAlgorithm === 'thomas' && dtype === 'float32';
      assert.equal(r.ok, wide, `${cpuAlgorithm} ${dtype}`);
      assert.equal(
        audit(
          s,
          { n, batch, nrhs: 1, layout: 'strided', complex: false },
          r,
          dtype === 'float32' ? TOL32 : TOL64,
          `${cpuAlgorithm} ${dtype}`,
        ),
        wide ? 0 : batch,
      );
    }
  }
  // LU pivots: nothing to flag.
  const s = tinyPivot(n, batch, 1e-10, 8, 'interleaved');
  const lu = await solveTridiagonal({
    n,
    batch,
    layout: 'interleaved',
    dtype: 'float64',
    cpuAlgorithm: 'lu',
    backend: 'cpu',
    lower: s.a,
    diag: s.b,
    upper: s.c,
    rhs: s.d,
  });
  assert.equal(audit(s, { n, batch, nrhs: 1, layout: 'interleaved', complex: false }, lu, TOL64, 'lu'), 0);
  // Complex.
  const sc = tinyPivot(n, batch, 1e-10, 9, 'strided', true);
  const shc: Sh = { n, batch, nrhs: 1, layout: 'strided', complex: true };
  const rc = await solveTridiagonal({
    ...shc,
    dtype: 'float64',
    backend: 'cpu',
    lower: sc.a,
    diag: sc.b,
    upper: sc.c,
    rhs: sc.d,
  });
  assert.equal(audit(sc, shc, rc, TOL64, 'complex cpu'), batch);
  const ac = await solveTridiagonal({
    ...shc,
    dtype: 'float64',
    backend: 'auto',
    lower: sc.a,
    diag: sc.b,
    upper: sc.c,
    rhs: sc.d,
  });
  assert.equal(audit(sc, shc, ac, TOL64, 'complex auto'), 0);
  // onFailure: 'throw' now covers inaccurate results.
  await assert.rejects(
    solveTridiagonal({
      n,
      batch,
      dtype: 'float64',
      backend: 'cpu',
      onFailure: 'throw',
      lower: s.a,
      diag: s.b,
      upper: s.c,
      rhs: s.d,
      layout: 'interleaved',
    }),
    (e: unknown) => e instanceof Error && e.name === 'TridiagonalBreakdownError',
  );
});

test('random small-diagonal systems, float64 CPU: unflagged results are accurate, auto makes all ok', async () => {
  let flaggedTotal = 0;
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const [n, batch, nrhs] of [
      [5, 8, 1],
      [17, 6, 2],
      [64, 5, 1],
      [150, 4, 1],
    ] as const) {
      for (const seed of [1, 2, 3]) {
        const sh: Sh = { n, batch, nrhs, layout, complex: false };
        const s =
          seed === 1
            ? smallDiagonal(n, batch, 1000 * seed + n, layout, nrhs)
            : hiddenTinyPivot(n, batch, 1000 * seed + n, layout, nrhs);
        const what = `${layout} n=${n} batch=${batch} nrhs=${nrhs} seed=${seed}`;
        for (const cpuAlgorithm of ['thomas', 'wang-mou'] as const) {
          const r = await solveTridiagonal({
            ...sh,
            dtype: 'float64',
            backend: 'cpu',
            cpuAlgorithm,
            lower: s.a,
            diag: s.b,
            upper: s.c,
            rhs: s.d,
          });
          flaggedTotal += audit(s, sh, r, TOL64, `${cpuAlgorithm} ${what}`);
        }
        const auto = await solveTridiagonal({ ...sh, dtype: 'float64', lower: s.a, diag: s.b, upper: s.c, rhs: s.d });
        assert.ok(auto.ok, `auto ${what}: ${[...auto.status]}`);
        audit(s, sh, auto, TOL64, `auto ${what}`);
      }
    }
  }
  assert.ok(flaggedTotal > 20, `only ${flaggedTotal} systems flagged: the cases do not exercise the check`);
});

test('cyclic systems: the residual of the periodic system is checked; auto re-solves them by pivoting elimination', async () => {
  let total = 0;
  for (const [n, layout] of [
    [3, 'strided'],
    [12, 'interleaved'],
    [150, 'strided'],
  ] as const) {
    const sh: Sh = { n, batch: 4, nrhs: 1, layout, complex: false, cyclic: true };
    const s = smallDiagonal(n, 4, 50 + n, layout, 1, 1e-3);
    // Matrix 0: diagonally dominant, solved accurately by the plain path.
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, 4, 0, i);
      s.b[e] = 3;
    }
    // Matrix 1: a_1 = b_1 = 0, so the plain path's second pivot is exactly 0 whatever it made of row 0 (the matrix is
    // not singular: pivoting swaps rows 1 and 2).
    s.a[matIndex(layout, n, 4, 1, 1)] = 0;
    s.b[matIndex(layout, n, 4, 1, 1)] = 0;
    const plain = await solveTridiagonal({
      ...sh,
      dtype: 'float64',
      backend: 'cpu',
      lower: s.a,
      diag: s.b,
      upper: s.c,
      rhs: s.d,
    });
    assert.equal(plain.status[0] & BAD, 0);
    total += audit(s, sh, plain, TOL64, `cyclic cpu n=${n}`);
    const auto = await solveTridiagonal({ ...sh, dtype: 'float64', lower: s.a, diag: s.b, upper: s.c, rhs: s.d });
    assert.equal(audit(s, sh, auto, TOL64, `cyclic auto n=${n}`), 0);
  }
  assert.ok(total >= 1, 'no cyclic system flagged');
});

test('WebGPU (float32): tiny pivot and small diagonals flagged; auto re-solves them (typed arrays and GPUBuffers)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  // The case: a well-conditioned system with a tiny first pivot, and small-diagonal batches.
  const cases: [Sys, Sh, string][] = [];
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const n of [4, 40, 300])
      cases.push([
        tinyPivot(n, 3, 1e-6, n, layout),
        { n, batch: 3, nrhs: 1, layout, complex: false },
        `tiny ${layout} n=${n}`,
      ]);
    for (const [n, seed] of [
      [8, 1],
      [33, 2],
      [128, 3],
    ] as const) {
      cases.push([
        smallDiagonal(n, 6, seed, layout),
        { n, batch: 6, nrhs: 1, layout, complex: false },
        `small ${layout} n=${n}`,
      ]);
    }
  }
  let flagged = 0;
  for (const [s, sh, what] of cases) {
    const r: TridiagonalResult<Float32Array> = await solveTridiagonal<Float32Array>({
      ...sh,
      backend: 'webgpu',
      gpu: ctx,
      lower: f32(s.a),
      diag: f32(s.b),
      upper: f32(s.c),
      rhs: f32(s.d),
    });
    assert.equal(r.backend, 'webgpu');
    const k = audit(s, sh, r, TOL32, `webgpu ${what}`);
    // Small systems meet the tiny pivot in the Thomas / Wang & Mou elimination and fail; from n = 300 the
    // kernels' block order may avoid it (audit has then checked that x is accurate).
    if (what.startsWith('tiny') && sh.n <= 40) assert.equal(k, sh.batch, `${what}: every system flagged`);
    flagged += k;
    const auto: TridiagonalResult<Float32Array> = await solveTridiagonal<Float32Array>({
      ...sh,
      backend: 'auto',
      gpu: ctx,
      lower: f32(s.a),
      diag: f32(s.b),
      upper: f32(s.c),
      rhs: f32(s.d),
    });
    assert.equal(auto.backend, 'webgpu');
    assert.ok(auto.ok, `auto ${what}: ${[...auto.status]}`);
    audit(s, sh, auto, TOL32, `auto ${what}`);
  }
  assert.ok(flagged > 10, `only ${flagged} flagged`);
  // GPUBuffer inputs: the check reads them back; 'auto' writes the re-solved x into the output buffer.
  const [s, sh] = cases[1];
  const bufs = [s.a, s.b, s.c, s.d].map((v) => createStorageBuffer(ctx, f32(v)));
  const out = createStorageBuffer(ctx, new Float32Array(sh.n * sh.batch).fill(NaN));
  try {
    for (const backend of ['webgpu', 'auto'] as const) {
      const r = await solveTridiagonal({
        ...sh,
        backend,
        gpu: ctx,
        lower: bufs[0],
        diag: bufs[1],
        upper: bufs[2],
        rhs: bufs[3],
        out,
      });
      const x = new Float32Array(await readBuffer(ctx, out, 0, sh.n * sh.batch * 4));
      const k = audit(s, sh, { ...r, x }, TOL32, `GPUBuffer ${backend}`);
      assert.equal(k, backend === 'auto' ? 0 : sh.batch);
    }
  } finally {
    for (const b of [...bufs, out]) b.destroy();
  }
});

test('diagonally dominant systems stay ok on every path (no false alarms), backward errors far below the tolerance', async (t) => {
  for (const layout of ['strided', 'interleaved'] as const) {
    for (const [n, batch, nrhs] of [
      [1, 5, 1],
      [2, 3, 2],
      [33, 7, 3],
      [1000, 3, 1],
    ] as const) {
      const sh: Sh = { n, batch, nrhs, layout, complex: false };
      const s = toLayout(randomSystems(n, batch, n * 3 + batch, { rhsCount: nrhs, dominance: 1 }), sh);
      const r = await solveTridiagonal({
        ...sh,
        dtype: 'float64',
        backend: 'cpu',
        lower: s.a,
        diag: s.b,
        upper: s.c,
        rhs: s.d,
      });
      assert.equal(audit(s, sh, r, TOL64, `dd ${layout} n=${n}`), 0);
      assert.ok(
        Math.max(...r.backwardError!) < 16 * 2 ** -53,
        `dd ${layout} n=${n}: η ${Math.max(...r.backwardError!)}`,
      );
      assert.ok(r.status.every((v) => v === 0));
    }
  }
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [n, layout] of [
    [7, 'interleaved'],
    [500, 'strided'],
    [3000, 'strided'],
  ] as const) {
    const sh: Sh = { n, batch: 3, nrhs: 1, layout, complex: false };
    const s = toLayout(randomSystems(n, 3, n, { dominance: 1 }), sh);
    const r = await solveTridiagonal({
      ...sh,
      backend: 'webgpu',
      gpu: ctx,
      lower: f32(s.a),
      diag: f32(s.b),
      upper: f32(s.c),
      rhs: f32(s.d),
    });
    assert.ok(
      r.status.every((v) => v === 0),
      `gpu dd n=${n}: ${[...r.status]}`,
    );
    assert.ok(Math.max(...r.backwardError!) < TOL32 / 16, `gpu dd n=${n}: η ${Math.max(...r.backwardError!)}`);
  }
});

test('scaled systems (1e±160 … 1e±300), float64 CPU: the same x as unscaled on every algorithm, real and complex, plain and cyclic', async () => {
  // Complex division as u·conj(p)/|p|² overflowed |p|² from 1.3e154; the cyclic correction formed α·β before ÷ γ.
  const solve = (scale: number, complex: boolean, cyclic: boolean, alg: 'thomas' | 'lu' | 'wang-mou', n: number) => {
    const mk = (f: (i: number) => number) =>
      Float64Array.from({ length: n * (complex ? 2 : 1) }, (_, i) => f(i) * scale);
    return solveTridiagonal({
      backend: 'cpu',
      n,
      complex,
      cyclic,
      dtype: 'float64',
      cpuAlgorithm: alg,
      lower: mk((i) => 1 + 0.1 * i),
      upper: mk((i) => 1 - 0.05 * i),
      diag: mk(() => 4),
      rhs: mk((i) => i + 1),
    });
  };
  for (const complex of [false, true])
    for (const cyclic of [false, true])
      for (const alg of ['thomas', 'lu', 'wang-mou'] as const)
        for (const n of [1, 3, 40]) {
          const ref = await solve(1, complex, cyclic, alg, n);
          for (const scale of [1e160, 1e300, 1e-160, 1e-300]) {
            const r = await solve(scale, complex, cyclic, alg, n);
            const tag = `${complex ? 'complex' : 'real'} ${cyclic ? 'cyclic' : 'plain'} ${alg} n=${n} scale ${scale}`;
            assert.ok(r.ok, `${tag}: status ${Array.from(r.status)}`);
            r.x.forEach((v, i) =>
              assert.ok(Math.abs(v - ref.x[i]!) <= 1e-13, `${tag}: x[${i}] ${v} against ${ref.x[i]}`),
            );
          }
        }
});
