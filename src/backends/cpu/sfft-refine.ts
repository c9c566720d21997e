/**
 * Candidate refinement of the robust sparse FFT, shared by both executors (the WebGPU one reads its bucket
 * values back for it). The median over loops of sFFT 1.0 breaks down for a located frequency that shares
 * buckets with a large one in about half the loops: a noise-only frequency then comes out with the size of
 * the tone it collided with and pushes a real tone out of the top k. Refinement removes that interference:
 * the leading candidates' contributions are subtracted from every loop's buckets, and each candidate is
 * re-estimated from what is left plus its own contribution (median over loops, real and imaginary parts
 * separately). A few such sweeps converge because collisions are rare for each frequency.
 */
import { bucketOffset, homeBucket, mulMod, type SfftFilter, type SfftLoop } from '../../planner/sfft.js';

export interface RefineInput {
  n: number;
  /** Buckets of every loop (interleaved complex, length 2·B of that loop); left unchanged. */
  U: Float64Array[];
  loops: SfftLoop[];
  filters: SfftFilter[];
  frequencies: Uint32Array;
  /** Initial estimates (interleaved complex); refined in place. */
  values: Float64Array;
  /** How many of the largest candidates are subtracted in each sweep. */
  active: number;
  sweeps: number;
}

const TWO_PI = 2 * Math.PI;

/**
 * Both executors' setting: the 2k largest candidates are subtracted (room for the k sought plus the noise
 * candidates that still look large before the first sweep), two sweeps after the first re-estimation.
 */
export const REFINE = (k: number) => ({ active: 2 * k, sweeps: 2 });

interface Tap {
  h: number;
  /** H(d)·e^{2πi f τ/n}: the bucket sees X_f times this. */
  re: number;
  im: number;
}

/** The home bucket of f in one loop and the factor X_f is seen with there. */
function tap(f: number, loop: SfftLoop, filt: SfftFilter, n: number): Tap {
  const g = mulMod(loop.sigma, f, n - 1);
  const h = homeBucket(g, n, loop.B);
  const hv = filt.freq[bucketOffset(h, g, n, loop.B) + filt.D];
  const ang = (TWO_PI * mulMod(f, loop.tau, n - 1)) / n;
  return { h, re: hv * Math.cos(ang), im: hv * Math.sin(ang) };
}

function subtract(R: Float64Array, f: number, xr: number, xi: number, loop: SfftLoop, filt: SfftFilter, n: number): void {
  const B = loop.B;
  const g = mulMod(loop.sigma, f, n - 1);
  const h0 = homeBucket(g, n, B);
  const reach = Math.ceil(filt.D / (n / B));
  const ang = (TWO_PI * mulMod(f, loop.tau, n - 1)) / n;
  const c = Math.cos(ang);
  const s = Math.sin(ang);
  const pr = xr * c - xi * s;
  const pi = xr * s + xi * c;
  for (let j = -reach; j <= reach; j++) {
    const h = (h0 + j + B) & (B - 1);
    const d = bucketOffset(h, g, n, B);
    if (d < -filt.D || d > filt.D) continue;
    const hv = filt.freq[d + filt.D];
    R[2 * h] -= pr * hv;
    R[2 * h + 1] -= pi * hv;
  }
}

function medianInPlace(a: Float64Array): number {
  a.sort();
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : 0.5 * (a[m - 1] + a[m]);
}

/** Indices of the `count` largest |values| (ties: lower index first). */
function largest(values: Float64Array, count: number): number[] {
  const m = values.length / 2;
  const idx = Array.from({ length: m }, (_, i) => i);
  const mag = (i: number) => values[2 * i] ** 2 + values[2 * i + 1] ** 2;
  idx.sort((a, b) => mag(b) - mag(a) || a - b);
  return idx.slice(0, count);
}

/**
 * Refines `values` in place; returns, per candidate, the fraction of loops whose own estimate lies within
 * half the candidate's magnitude of the refined value (1 for a clean tone, low for an estimate made of
 * interference).
 */
export function refineCandidates(o: RefineInput): Float64Array {
  const { n, U, loops, filters, frequencies: F, values } = o;
  const L = loops.length;
  const m = F.length;
  const taps: Tap[][] = loops.map((loop, l) => Array.from(F, (f) => tap(f, loop, filters[l], n)));
  const re = new Float64Array(L);
  const im = new Float64Array(L);
  const next = new Float64Array(2 * m);
  const agree = new Float64Array(m);
  for (let sweep = 0; sweep <= o.sweeps; sweep++) {
    const active = largest(values, o.active);
    const inActive = new Uint8Array(m);
    for (const i of active) inActive[i] = 1;
    const R = U.map((u) => Float64Array.from(u));
    for (let l = 0; l < L; l++) for (const i of active) subtract(R[l], F[i], values[2 * i], values[2 * i + 1], loops[l], filters[l], n);
    const last = sweep === o.sweeps;
    for (let i = 0; i < m; i++) {
      const own = inActive[i];
      for (let l = 0; l < L; l++) {
        const t = taps[l][i];
        const ur = R[l][2 * t.h];
        const ui = R[l][2 * t.h + 1];
        const d = t.re * t.re + t.im * t.im;
        // (ur + i ui)/(t.re + i t.im), plus the candidate's own subtracted contribution.
        re[l] = (ur * t.re + ui * t.im) / d + (own ? values[2 * i] : 0);
        im[l] = (ui * t.re - ur * t.im) / d + (own ? values[2 * i + 1] : 0);
      }
      const er = re.slice();
      const ei = im.slice();
      next[2 * i] = medianInPlace(re);
      next[2 * i + 1] = medianInPlace(im);
      if (last) {
        const tol2 = 0.25 * (next[2 * i] ** 2 + next[2 * i + 1] ** 2);
        let c = 0;
        for (let l = 0; l < L; l++) if ((er[l] - next[2 * i]) ** 2 + (ei[l] - next[2 * i + 1]) ** 2 <= tol2) c++;
        agree[i] = c / L;
      }
    }
    values.set(next);
  }
  return agree;
}
