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
 * Only the 4k largest initial estimates are refined: interference mostly inflates an estimate, so the
 * rest (up to tens of thousands of located noise frequencies at k = 1000) cannot reach the top k.
 */
export const REFINE = (k: number) => ({ active: 2 * k, sweeps: 2, keep: 4 * k });

/** Refines the `keep` largest candidates (see REFINE) and returns them: the others are dropped (`o` is left unchanged). */
export function refineLargest(o: RefineInput & { keep: number }): { frequencies: Uint32Array; values: Float64Array } {
  const idx = largest(o.values, o.keep);
  const frequencies = Uint32Array.from(idx, (i) => o.frequencies[i]);
  const values = new Float64Array(2 * idx.length);
  idx.forEach((i, j) => {
    values[2 * j] = o.values[2 * i];
    values[2 * j + 1] = o.values[2 * i + 1];
  });
  refineCandidates({ ...o, frequencies, values });
  return { frequencies, values };
}

function subtract(
  R: Float64Array,
  f: number,
  xr: number,
  xi: number,
  loop: SfftLoop,
  filt: SfftFilter,
  n: number,
): void {
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

/** Refines `values` in place. */
export function refineCandidates(o: RefineInput): void {
  const { n, U, loops, filters, frequencies: F, values } = o;
  const L = loops.length;
  const m = F.length;
  // Per loop and candidate: home bucket and 1/(H(d)·e^{2πi f τ/n}), the factor that turns the bucket into X_f.
  const home = new Int32Array(L * m);
  const inv = new Float64Array(2 * L * m);
  for (let l = 0; l < L; l++) {
    const loop = loops[l];
    const filt = filters[l];
    for (let i = 0; i < m; i++) {
      const g = mulMod(loop.sigma, F[i], n - 1);
      const h = homeBucket(g, n, loop.B);
      const hv = filt.freq[bucketOffset(h, g, n, loop.B) + filt.D];
      const ang = (TWO_PI * mulMod(F[i], loop.tau, n - 1)) / n;
      const j = l * m + i;
      home[j] = h;
      inv[2 * j] = Math.cos(ang) / hv;
      inv[2 * j + 1] = -Math.sin(ang) / hv;
    }
  }
  const re = new Float64Array(L);
  const im = new Float64Array(L);
  const next = new Float64Array(2 * m);
  const inActive = new Uint8Array(m);
  for (let sweep = 0; sweep <= o.sweeps; sweep++) {
    const active = largest(values, o.active);
    inActive.fill(0);
    for (const i of active) inActive[i] = 1;
    const R = U.map((u) => Float64Array.from(u));
    for (let l = 0; l < L; l++)
      for (const i of active) subtract(R[l], F[i], values[2 * i], values[2 * i + 1], loops[l], filters[l], n);
    for (let i = 0; i < m; i++) {
      // The candidate's own subtracted contribution is added back.
      const ownR = inActive[i] ? values[2 * i] : 0;
      const ownI = inActive[i] ? values[2 * i + 1] : 0;
      for (let l = 0; l < L; l++) {
        const j = l * m + i;
        const h = home[j];
        const ur = R[l][2 * h];
        const ui = R[l][2 * h + 1];
        const cr = inv[2 * j];
        const ci = inv[2 * j + 1];
        re[l] = ur * cr - ui * ci + ownR;
        im[l] = ur * ci + ui * cr + ownI;
      }
      next[2 * i] = medianInPlace(re);
      next[2 * i + 1] = medianInPlace(im);
    }
    values.set(next);
  }
}
