/** Shared measures for the shallow-water tests. */
import type { SweState } from '../../src/apps/shallow-water/problem.js';

/** L1 relative difference Σ|a − ref| / Σ|ref|; NaN anywhere gives Infinity. */
export function l1Rel(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) return Infinity;
    num += Math.abs(a[i] - ref[i]);
    den += Math.abs(ref[i]);
  }
  return den === 0 ? (num === 0 ? 0 : Infinity) : num / den;
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Number.isFinite(a[i]) ? Math.abs(a[i]) : Infinity);
  return m;
}

export function minOf(a: ArrayLike<number>): number {
  let m = Infinity;
  for (let i = 0; i < a.length; i++) m = Number.isNaN(a[i]) ? -Infinity : Math.min(m, a[i]);
  return m;
}

export function allFinite(s: SweState): boolean {
  for (const f of [s.h, s.qx, s.qy, s.hc]) for (let i = 0; i < f.length; i++) if (!Number.isFinite(f[i])) return false;
  return true;
}
