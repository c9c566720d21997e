/** Exact-argument unit roots, shared by every twiddle generator (CPU and WGSL). */
/**
 * cos and sin of 2π·m/n, accurate to about one ulp for any integer m and n ≥ 1.
 *
 * Why not `Math.cos(2 * Math.PI * m / n)`: the rounding of the angle grows with m, and quarter-period
 * points (cos π/2, sin π) come out as 6e-17 instead of 0. We reduce exactly in integers first:
 * 4m = j·n + r with |r| ≤ n/2, so θ = j·π/2 + φ, |φ| ≤ π/4, and rotate (cos φ, sin φ) by j quarter turns.
 * Exact as long as 4m and j·n are exact doubles (|m|, n < 2^50).
 */
export function unitRoot(m: number, n: number): [cos: number, sin: number] {
  let mm = m % n;
  if (mm < 0) mm += n;
  const j = Math.round((4 * mm) / n); // 0..4
  const r = 4 * mm - j * n; // exact integer, |r| ≤ n/2
  const phi = (Math.PI * r) / (2 * n);
  const c = r === 0 ? 1 : Math.cos(phi);
  const s = r === 0 ? 0 : Math.sin(phi);
  switch (j & 3) {
    case 0:
      return [c, s];
    // `+ 0` turns −0 into +0 so exact points compare equal to 0.
    case 1:
      return [-s + 0, c];
    case 2:
      return [-c + 0, -s + 0];
    default:
      return [s, -c + 0];
  }
}
