/**
 * DST types 1–4 in float64, scipy.fft definitions (unnormalised 'backward' forward):
 *   I:   y_k = 2 Σ x_n sin(π(k+1)(n+1)/(N+1))
 *   II:  y_k = 2 Σ x_n sin(π(k+1)(2n+1)/(2N))
 *   III: y_k = (−1)^k x_{N−1} + 2 Σ_{n=0}^{N−2} x_n sin(π(2k+1)(n+1)/(2N))
 *   IV:  y_k = 2 Σ x_n sin(π(2k+1)(2n+1)/(4N))
 * Adapters: DST-I via the odd extension of length 2(N+1) and an rfft (y_k = −Im Y_{k+1}); the others
 * via the DCT of the same type: DST-II(x)_k = DCT-II((−1)^n x_n)_{N−1−k},
 * DST-III(x)_k = (−1)^k DCT-III(x reversed)_k, DST-IV(x)_k = (−1)^k DCT-IV(x reversed)_k.
 * norm as the DCT with denominators 2(N+1) (type 1) and 2N. orthogonalize: type 2 scales y_{N−1} by
 * 1/√2, type 3 scales x_{N−1} by √2 — the orthonormal choice, as scipy ≥ 1.11 (scipy#18452; earlier
 * releases scaled index 0, which was not orthogonal).
 */
import {
  type R2rKernel,
  type R2rNdOptions,
  type R2rOptions,
  type R2rResult,
  type R2rSpec,
  type R2rType,
  cachedKernel,
  checkType,
  dct2Kernel,
  dct3Kernel,
  dct4Kernel,
  INVERSE_TYPE,
  runR2r,
  runR2rNd,
} from './r2r-dct.js';
import { planCpuRfft } from './fft-real.js';
import { type NdArray } from './fft-nd.js';

type Input = Float64Array | Float32Array | readonly number[];

export function dst1Kernel(n: number): R2rKernel {
  return cachedKernel(`dst1/${n}`, () => {
    const m = 2 * (n + 1);
    const plan = planCpuRfft(m);
    const nc = plan.nComplex;
    let ext = new Float64Array(0),
      spec = new Float64Array(0);
    return (src, dst, count) => {
      if (ext.length < count * m) {
        // Zeros at 0 and N+1 of every extension stay zero: only the other entries are rewritten.
        ext = new Float64Array(count * m);
        spec = new Float64Array(2 * nc * count);
      }
      for (let q = 0; q < count; q++) {
        // Odd extension: [0, x_0 … x_{N−1}, 0, −x_{N−1} … −x_0].
        const s = q * n,
          b = q * m;
        for (let i = 0; i < n; i++) {
          ext[b + i + 1] = src[s + i]!;
          ext[b + m - 1 - i] = -src[s + i]!;
        }
      }
      plan.forward(ext, spec, { batch: count });
      for (let q = 0; q < count; q++) for (let k = 0; k < n; k++) dst[q * n + k] = -spec[2 * (q * nc + k + 1) + 1]!;
    };
  });
}

export function dst2Kernel(n: number): R2rKernel {
  return cachedKernel(`dst2/${n}`, () => {
    const inner = dct2Kernel(n);
    let tmp = new Float64Array(0);
    return (src, dst, count) => {
      if (tmp.length < count * n) tmp = new Float64Array(count * n);
      for (let q = 0; q < count; q++) for (let i = q * n + 1; i < (q + 1) * n; i += 2) src[i] = -src[i]!;
      inner(src, tmp, count);
      for (let q = 0; q < count; q++) for (let k = 0, s = q * n; k < n; k++) dst[s + k] = tmp[s + n - 1 - k]!;
    };
  });
}

function reversedThenAlternate(innerOf: (n: number) => R2rKernel, key: string) {
  return (n: number): R2rKernel =>
    cachedKernel(`${key}/${n}`, () => {
      const inner = innerOf(n);
      let rev = new Float64Array(0);
      return (src, dst, count) => {
        if (rev.length < count * n) rev = new Float64Array(count * n);
        for (let q = 0; q < count; q++) for (let i = 0, s = q * n; i < n; i++) rev[s + i] = src[s + n - 1 - i]!;
        inner(rev, dst, count);
        for (let q = 0; q < count; q++) for (let k = q * n + 1; k < (q + 1) * n; k += 2) dst[k] = -dst[k]!;
      };
    });
}

export const dst3Kernel = reversedThenAlternate(dct3Kernel, 'dst3');
export const dst4Kernel = reversedThenAlternate(dct4Kernel, 'dst4');

const SQ2 = Math.SQRT2;

export function dstSpec(type: R2rType): R2rSpec {
  switch (type) {
    case 1:
      return { name: 'DST type 1', minN: 1, denom: (n) => 2 * (n + 1), kernel: dst1Kernel };
    case 2:
      return {
        name: 'DST type 2',
        minN: 1,
        denom: (n) => 2 * n,
        kernel: dst2Kernel,
        post: (b, n) => {
          b[n - 1]! /= SQ2;
        },
      };
    case 3:
      return {
        name: 'DST type 3',
        minN: 1,
        denom: (n) => 2 * n,
        kernel: dst3Kernel,
        pre: (b, n) => {
          b[n - 1]! *= SQ2;
        },
      };
    case 4:
      return { name: 'DST type 4', minN: 1, denom: (n) => 2 * n, kernel: dst4Kernel };
  }
}

const orth = (o: { norm?: string; orthogonalize?: boolean }) => o.orthogonalize ?? o.norm === 'ortho';

/** scipy.fft.dst along `axis` of x (row-major `shape`, default 1-D). */
export function dst(x: Input, options: R2rOptions = {}, shape?: readonly number[]): NdArray {
  const t = checkType(options.type ?? 2);
  return runR2r(x, shape, options.axis, options.n, dstSpec(t), options.norm, orth(options), false);
}

/** scipy.fft.idst: the DST of the inverse type with the inverse scaling. */
export function idst(x: Input, options: R2rOptions = {}, shape?: readonly number[]): NdArray {
  const t = checkType(options.type ?? 2);
  return runR2r(x, shape, options.axis, options.n, dstSpec(INVERSE_TYPE[t]), options.norm, orth(options), true);
}

export function dstn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): R2rResult {
  return runR2rNd(x, shape, options, dstSpec, false);
}

export function idstn(x: Input, shape: readonly number[], options: R2rNdOptions = {}): R2rResult {
  return runR2rNd(x, shape, options, (t) => dstSpec(INVERSE_TYPE[t]), true);
}
