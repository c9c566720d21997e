/** Relative L2 error ‖a − ref‖ / ‖ref‖; NaN anywhere gives Infinity so it can never pass a bound. */
export function relativeL2(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  if (a.length !== ref.length) throw new Error(`relativeL2: lengths differ (${a.length} vs ${ref.length})`);
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - ref[i];
    if (!Number.isFinite(a[i])) return Infinity;
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (den === 0) return num === 0 ? 0 : Infinity;
  return Math.sqrt(num / den);
}

/** Largest absolute difference. */
export function maxAbsDiff(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - ref[i]);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

/** Σ|a − ref| / Σ|ref| (the shallow-water comparisons' measure); Infinity if a holds a non-finite value. */
export function relativeL1(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let n = 0;
  let d = 0;
  for (let i = 0; i < ref.length; i++) {
    n += Math.abs(a[i] - ref[i]);
    d += Math.abs(ref[i]);
  }
  return Number.isFinite(n) ? n / d : Infinity;
}
