/**
 * Batched float64 tridiagonal solves on the CPU: Mrows/s (rows · batch / CPU time, best of the repetitions)
 * of solveTridiagonalBatchCpu (the kernel, its status bits and backward errors included; the WebAssembly kernel
 * and the JavaScript one it falls back to) and of the public
 * plan API (backend 'cpu', dtype 'float64', which adds the tolerance test), in the strided and interleaved
 * layouts. The
 * anchors are bench/tridiagonal_numpy.py (numpy Thomas vectorised across the batch, and
 * scipy.linalg.solve_banded per system) for the same cases; run both in the same job:
 *
 *   npx tsc -p tsconfig.json && node dist/bench/tridiagonal-cpu.js [--reps 7] [--json]
 *   python3 bench/tridiagonal_numpy.py
 *
 * Every solution is checked against float64 Thomas before it is timed.
 */
import { parseArgs } from './common.js';
import { createTridiagonalPlan } from '../src/api/tridiagonal.js';
import {
  createTridiagonalBatchScratch,
  solveTridiagonalBatchCpu,
  tridiagonalBackwardErrors,
} from '../src/backends/cpu/tridiagonal-batch.js';
import { thomasReal } from '../src/backends/cpu/thomas.js';
import { matIndex, rhsIndex, type TridiagonalLayout } from '../src/planner/tridiagonal.js';
import { rng } from '../src/util/random.js';

export const TRIDIAGONAL_CPU_CASES: [number, number][] = [
  [1024, 1024],
  [64, 16384],
  [16384, 8],
  [16, 65536],
  [256, 4096],
];

function systems(n: number, batch: number, seed: number, layout: TridiagonalLayout) {
  const r = rng(seed);
  const len = n * batch;
  const a = new Float64Array(len),
    b = new Float64Array(len),
    c = new Float64Array(len),
    d = new Float64Array(len);
  for (let j = 0; j < batch; j++) {
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, batch, j, i);
      a[e] = 2 * r() - 1;
      c[e] = 2 * r() - 1;
      const mag = Math.abs(a[e]) + Math.abs(c[e]) + 0.5 + r();
      b[e] = r() < 0.5 ? -mag : mag;
      d[rhsIndex(layout, n, batch, 0, j, i)] = 2 * r() - 1;
    }
  }
  return { a, b, c, d };
}

/** Largest relative difference from float64 Thomas over a few systems of the batch. */
function check(
  s: ReturnType<typeof systems>,
  x: Float64Array,
  n: number,
  batch: number,
  layout: TridiagonalLayout,
): number {
  let worst = 0;
  const a = new Float64Array(n),
    b = a.slice(),
    c = a.slice(),
    d = a.slice(),
    ref = a.slice();
  for (const j of [0, batch >> 1, batch - 1]) {
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, batch, j, i);
      a[i] = s.a[e];
      b[i] = s.b[e];
      c[i] = s.c[e];
      d[i] = s.d[rhsIndex(layout, n, batch, 0, j, i)];
    }
    thomasReal(a, b, c, d, ref, n);
    let num = 0,
      den = 0;
    for (let i = 0; i < n; i++) {
      num = Math.max(num, Math.abs(x[rhsIndex(layout, n, batch, 0, j, i)] - ref[i]));
      den = Math.max(den, Math.abs(ref[i]));
    }
    worst = Math.max(worst, num / den);
  }
  return worst;
}

/**
 * Best time of `reps` runs in ms: the process's CPU time (user + system), which stays meaningful when other
 * processes share the cores, and the wall time. Single-threaded work, so the two agree on an idle machine.
 */
async function best(fn: () => unknown | Promise<unknown>, reps: number, budgetMs = 2000): Promise<number> {
  let t = Infinity;
  const end = performance.now() + budgetMs;
  for (let k = 0; k < reps; k++) {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    t = Math.min(t, (c.user + c.system) / 1e3);
    if (performance.now() > end && k >= 2) break;
  }
  return t;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const reps = Number(args.reps ?? 7);
  const json = args.json === 'true';
  const withApi = args['no-api'] !== 'true';
  for (const [n, batch] of TRIDIAGONAL_CPU_CASES) {
    for (const layout of ['interleaved', 'strided'] as const) {
      const s = systems(n, batch, n + batch, layout);
      const shape = { n, batch, nrhs: 1, layout, complex: false };
      const scratch = createTridiagonalBatchScratch();
      const out = new Float64Array(n * batch);
      const eta = new Float64Array(batch);
      const kernel = () =>
        solveTridiagonalBatchCpu({ n, batch, layout, lower: s.a, diag: s.b, upper: s.c, rhs: s.d, out }, scratch, eta);
      kernel();
      const err = check(s, out, n, batch, layout);
      if (!(err < 1e-12)) throw new Error(`n ${n} batch ${batch} ${layout}: error ${err} against float64 Thomas`);
      // The fused check must agree with the stand-alone one (both are rounding noise here: to a factor).
      const eta2 = tridiagonalBackwardErrors(shape, s.a, s.b, s.c, s.d, out);
      if (
        eta.some((v, j) => Math.abs(v - eta2[j]) > 0.5 * Math.max(v, eta2[j]) + 1e-16) ||
        !(Math.max(...eta) < 1e-14)
      ) {
        throw new Error(`n ${n} batch ${batch} ${layout}: backward errors ${Math.max(...eta)} / ${Math.max(...eta2)}`);
      }
      const tk = await best(kernel, reps);
      // The JavaScript kernel (the fallback without WebAssembly SIMD) on the same data.
      const kernelJs = () =>
        solveTridiagonalBatchCpu(
          { n, batch, layout, lower: s.a, diag: s.b, upper: s.c, rhs: s.d, out, kernel: 'js' },
          scratch,
          eta,
        );
      const tj = await best(kernelJs, reps);
      let ta = NaN;
      if (withApi) {
        const plan = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend: 'cpu' });
        const r = await plan.solve({ lower: s.a, diag: s.b, upper: s.c, rhs: s.d, out });
        const e2 = check(s, r.x as Float64Array, n, batch, layout);
        if (!(e2 < 1e-12) || !r.ok)
          throw new Error(`plan API n ${n} batch ${batch} ${layout}: error ${e2}, ok ${r.ok}`);
        ta = await best(() => plan.solve({ lower: s.a, diag: s.b, upper: s.c, rhs: s.d, out }), reps);
        plan.destroy();
      }
      const m = (t: number) => (n * batch) / (t * 1e3);
      const row = { n, batch, layout, kernel_mrows: m(tk), js_kernel_mrows: m(tj), api_mrows: m(ta) };
      if (json) console.log(JSON.stringify(row));
      else {
        console.log(
          `n ${String(n).padStart(6)} x batch ${String(batch).padStart(6)} ${layout.padEnd(11)}: kernel ${m(tk).toFixed(1).padStart(7)}` +
            `  JS kernel ${m(tj).toFixed(1).padStart(7)}` +
            `  plan API ${m(ta).toFixed(1).padStart(7)} Mrows/s`,
        );
      }
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
