/** Independent naive references for convolution tests (written from the definition, no shared code). */
import { rng } from '../../src/util/random.js';

/** Full N-D convolution of complex interleaved arrays, straight from Σ a[i]·b[k − i]. */
export function naiveFull(
  a: Float64Array,
  sa: number[],
  b: Float64Array,
  sb: number[],
): { data: Float64Array; shape: number[] } {
  const nd = sa.length;
  const sf = sa.map((n, i) => n + sb[i] - 1);
  const count = (s: number[]) => s.reduce((x, y) => x * y, 1);
  const unravel = (i: number, s: number[]) => {
    const idx = new Array<number>(s.length);
    for (let d = s.length - 1; d >= 0; d--) {
      idx[d] = i % s[d];
      i = Math.floor(i / s[d]);
    }
    return idx;
  };
  const ravel = (idx: number[], s: number[]) => idx.reduce((acc, v, d) => acc * s[d] + v, 0);
  const out = new Float64Array(2 * count(sf));
  for (let i = 0; i < count(sa); i++) {
    const ia = unravel(i, sa);
    for (let j = 0; j < count(sb); j++) {
      const jb = unravel(j, sb);
      const o = ravel(
        ia.map((v, d) => v + jb[d]),
        sf,
      );
      out[2 * o] += a[2 * i] * b[2 * j] - a[2 * i + 1] * b[2 * j + 1];
      out[2 * o + 1] += a[2 * i] * b[2 * j + 1] + a[2 * i + 1] * b[2 * j];
    }
  }
  void nd;
  return { data: out, shape: sf };
}

/** scipy's mode window of a full result. */
export function naiveMode(
  full: { data: Float64Array; shape: number[] },
  sa: number[],
  sb: number[],
  mode: 'full' | 'same' | 'valid',
): { data: Float64Array; shape: number[] } {
  if (mode === 'full') return full;
  const out = mode === 'same' ? sa.slice() : sa.map((n, i) => Math.abs(n - sb[i]) + 1);
  const start = full.shape.map((n, i) => Math.floor((n - out[i]) / 2));
  const count = out.reduce((x, y) => x * y, 1);
  const data = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    let rem = i;
    let src = 0;
    const idx = new Array<number>(out.length);
    for (let d = out.length - 1; d >= 0; d--) {
      idx[d] = rem % out[d];
      rem = Math.floor(rem / out[d]);
    }
    for (let d = 0; d < out.length; d++) src = src * full.shape[d] + idx[d] + start[d];
    data[2 * i] = full.data[2 * src];
    data[2 * i + 1] = full.data[2 * src + 1];
  }
  return { data, shape: out };
}

export function randomComplex(n: number, seed: number, complex: boolean): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = 2 * r() - 1;
    out[2 * i + 1] = complex ? 2 * r() - 1 : 0;
  }
  return out;
}

export function realPart(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = x[2 * i];
  return out;
}

export function randomShape(r: () => number, nd: number, max: number): number[] {
  return Array.from({ length: nd }, () => 1 + Math.floor(r() * max));
}
