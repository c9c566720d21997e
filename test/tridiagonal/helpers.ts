/** Seeded random tridiagonal systems for the tridiagonal tests. */
import { rng } from '../../src/util/random.js';

export interface RandomSystems {
  a: Float64Array;
  b: Float64Array;
  c: Float64Array;
  d: Float64Array;
}

/**
 * `count` systems of n rows (complex: interleaved pairs), contiguous per system. Off-diagonals uniform in
 * [−1, 1); diagonal with |b| ≥ dominance·(|a| + |c|) + 0.5 (dominance 0 gives a non-dominant matrix).
 */
export function randomSystems(
  n: number,
  count: number,
  seed: number,
  opts: { complex?: boolean; dominance?: number; rhsCount?: number } = {},
): RandomSystems {
  const r = rng(seed);
  const w = opts.complex ? 2 : 1;
  const len = n * count * w;
  const a = new Float64Array(len),
    b = new Float64Array(len),
    c = new Float64Array(len);
  const d = new Float64Array(len * (opts.rhsCount ?? 1));
  const dom = opts.dominance ?? 1;
  for (let k = 0; k < len; k++) {
    a[k] = 2 * r() - 1;
    c[k] = 2 * r() - 1;
  }
  for (let row = 0; row < n * count; row++) {
    if (!opts.complex) {
      const mag = dom * (Math.abs(a[row]) + Math.abs(c[row])) + 0.5 + r();
      b[row] = r() < 0.5 ? -mag : mag;
    } else {
      const mag = dom * (Math.hypot(a[2 * row], a[2 * row + 1]) + Math.hypot(c[2 * row], c[2 * row + 1])) + 0.5 + r();
      const th = 2 * Math.PI * r();
      b[2 * row] = mag * Math.cos(th);
      b[2 * row + 1] = mag * Math.sin(th);
    }
  }
  for (let k = 0; k < d.length; k++) d[k] = 2 * r() - 1;
  return { a, b, c, d };
}

import {
  complexField,
  realField,
  thomasComplex,
  thomasReal,
  tridiagonalResidual,
} from '../../src/backends/cpu/thomas.js';
import { matIndex, rhsIndex, type TridiagonalLayout } from '../../src/planner/tridiagonal.js';

export interface Shape {
  n: number;
  batch: number;
  nrhs: number;
  layout: TridiagonalLayout;
  complex: boolean;
}

/** Rearranges contiguous systems (from randomSystems) into a layout: matrix arrays and rhs blocks. */
export function toLayout(s: RandomSystems, sh: Shape): RandomSystems {
  const { n, batch, nrhs, layout, complex } = sh;
  const w = complex ? 2 : 1;
  const a = new Float64Array(n * batch * w),
    b = a.slice(),
    c = a.slice(),
    d = new Float64Array(n * batch * nrhs * w);
  for (let j = 0; j < batch; j++) {
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, batch, j, i),
        src = j * n + i;
      for (let q = 0; q < w; q++) {
        a[e * w + q] = s.a[src * w + q];
        b[e * w + q] = s.b[src * w + q];
        c[e * w + q] = s.c[src * w + q];
      }
      for (let r = 0; r < nrhs; r++) {
        const er = rhsIndex(layout, n, batch, r, j, i);
        for (let q = 0; q < w; q++) d[er * w + q] = s.d[((r * batch + j) * n + i) * w + q];
      }
    }
  }
  return { a, b, c, d };
}

/**
 * Compares a solution in a layout against float64 Thomas on the (float32-rounded when f32) inputs:
 * returns the worst relative L2 error and the worst residual over all systems and right-hand sides.
 */
export function checkAgainstThomas(
  s: RandomSystems,
  x: ArrayLike<number>,
  sh: Shape,
  f32: boolean,
): { err: number; res: number } {
  const { n, batch, nrhs, layout, complex } = sh;
  const w = complex ? 2 : 1;
  const rd = f32 ? Math.fround : (v: number) => v;
  let err = 0,
    res = 0;
  const a = new Float64Array(n * w),
    b = a.slice(),
    c = a.slice(),
    d = a.slice(),
    ref = a.slice(),
    xs = a.slice();
  for (let j = 0; j < batch; j++) {
    for (let i = 0; i < n; i++) {
      const e = matIndex(layout, n, batch, j, i);
      for (let q = 0; q < w; q++) {
        a[i * w + q] = rd(s.a[e * w + q]);
        b[i * w + q] = rd(s.b[e * w + q]);
        c[i * w + q] = rd(s.c[e * w + q]);
      }
    }
    for (let r = 0; r < nrhs; r++) {
      for (let i = 0; i < n; i++) {
        const e = rhsIndex(layout, n, batch, r, j, i);
        for (let q = 0; q < w; q++) {
          d[i * w + q] = rd(s.d[e * w + q]);
          xs[i * w + q] = x[e * w + q];
        }
      }
      if (complex) thomasComplex(a, b, c, d, ref, n);
      else thomasReal(a, b, c, d, ref, n);
      let num = 0,
        den = 0;
      for (let k = 0; k < n * w; k++) {
        num += (xs[k] - ref[k]) ** 2;
        den += ref[k] ** 2;
      }
      const e1 = Number.isFinite(num) ? (den === 0 ? Math.sqrt(num) : Math.sqrt(num / den)) : Infinity;
      err = Math.max(err, Number.isNaN(e1) ? Infinity : e1);
      const r1 = tridiagonalResidual(a, b, c, d, xs, n, complex);
      res = Math.max(res, Number.isNaN(r1) ? Infinity : r1);
    }
  }
  return { err, res };
}

export { complexField, realField };
