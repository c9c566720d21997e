/**
 * Float64 real FFTs: rfft (R2C, N/2+1 outputs in numpy's layout) and irfft (C2R).
 *
 * Even N uses one complex FFT of length N/2 (SEEDS.md, corrected forms): the real input read as
 * interleaved complex *is* the packing z_k = x_{2k} + i·x_{2k+1}, so no copy-permute is needed; then
 *   y_k = ½(Z_k + conj Z_{h−k}) − (i/2)·e^{−2πik/N}·(Z_k − conj Z_{h−k}),  k = 0..h, indices mod h = N/2,
 * which gives y_0 = Re Z_0 + Im Z_0 and y_h = Re Z_0 − Im Z_0 without special cases.
 * The inverse undoes it: E_k = ½(Y_k + conj Y_{h−k}), O_k = ½(Y_k − conj Y_{h−k})·e^{+2πik/N},
 * Z_k = E_k + i·O_k, z = IFFT_h(Z), x_{2k} = Re z_k, x_{2k+1} = Im z_k.
 * Odd N runs a full complex FFT (there is no half-length trick without an extra twiddle pass; odd
 * lengths are rare and this keeps the code obviously right).
 *
 * Like numpy, irfft ignores the imaginary parts of Y_0 and (for even N) Y_{N/2}.
 */
import { ArgumentError } from '../../errors.js';
import { unitRoot } from './dft-naive.js';
import {
  checkFits,
  checkLength,
  normScale,
  type CpuFftRecipe,
  type CpuFftPlan,
  type Norm,
  type StridedLayout,
} from './fft-mixed-radix.js';
import { planCpuFft } from './fft-plan.js';
import { cpuEnginePrecision, cpuFftScopeKey } from './engine-scope.js';
import { EngineRealFft } from './wasm-rfft.js';
import type { CpuEngineFftRecipe } from '../../planner/cpu-fft.js';

export interface CpuRealExecOptions {
  /** numpy normalisation (default 'backward'); scale counted with the real length n. */
  norm?: Norm;
  batch?: number;
  /** Real side: units of real numbers. Complex side: units of complex elements. */
  input?: StridedLayout;
  output?: StridedLayout;
}

export type CpuRealFftRecipe =
  | { kind: 'real-even-via-half-complex'; n: number; inner: CpuFftRecipe | CpuEngineFftRecipe }
  | { kind: 'real-via-full-complex'; n: number; inner: CpuFftRecipe | CpuEngineFftRecipe };

/** What the N-D driver and the r2r adapters use of a real FFT (the reference's or the engine's). */
export interface RealFftPlan {
  readonly n: number;
  readonly nComplex: number;
  readonly recipe: CpuRealFftRecipe | { kind: 'real-fused'; n: number; inner: CpuEngineFftRecipe };
  forward1(x: ArrayLike<number>, xo: number, y: Float64Array | Float32Array, yo: number, scale?: number): void;
  inverse1(y: ArrayLike<number>, yo: number, x: Float64Array | Float32Array, xo: number, scale?: number): void;
  forward(
    input: ArrayLike<number> & { length: number },
    output: Float64Array | Float32Array,
    options?: CpuRealExecOptions,
  ): void;
  inverse(
    input: ArrayLike<number> & { length: number },
    output: Float64Array | Float32Array,
    options?: CpuRealExecOptions,
  ): void;
}

export class CpuRealFft implements RealFftPlan {
  /** Number of complex outputs of rfft = floor(n/2) + 1. */
  readonly nComplex: number;
  readonly recipe: CpuRealFftRecipe;
  private readonly inner: CpuFftPlan;
  /** e^{−2πik/N}, k = 0..N/2 (even N only). */
  private readonly w: Float64Array;
  private readonly work: Float64Array;

  constructor(readonly n: number) {
    checkLength(n);
    this.nComplex = Math.floor(n / 2) + 1;
    const even = n % 2 === 0;
    this.inner = planCpuFft(even ? n / 2 : n);
    this.recipe = even
      ? { kind: 'real-even-via-half-complex', n, inner: this.inner.recipe }
      : { kind: 'real-via-full-complex', n, inner: this.inner.recipe };
    const h = n / 2;
    this.w = new Float64Array(even ? 2 * (h + 1) : 0);
    if (even) {
      for (let k = 0; k <= h; k++) {
        const [c, s] = unitRoot(k, n);
        this.w[2 * k] = c;
        this.w[2 * k + 1] = -s;
      }
    }
    this.work = new Float64Array(even ? n : 2 * n);
  }

  /**
   * Unnormalised rfft of one contiguous real vector x[xo … xo+n) into y[2·yo … 2·(yo+nComplex)),
   * times `scale`. x and y may not overlap.
   */
  forward1(x: ArrayLike<number>, xo: number, y: Float64Array | Float32Array, yo: number, scale = 1): void {
    const n = this.n,
      work = this.work;
    if (n % 2 === 1) {
      for (let i = 0; i < n; i++) {
        work[2 * i] = x[xo + i]!;
        work[2 * i + 1] = 0;
      }
      this.inner.transformInPlace(work, 0, false);
      for (let i = 0; i < 2 * this.nComplex; i++) y[2 * yo + i] = scale * work[i]!;
      return;
    }
    const h = n / 2,
      w = this.w;
    for (let i = 0; i < n; i++) work[i] = x[xo + i]!;
    this.inner.transformInPlace(work, 0, false);
    const s = 0.5 * scale;
    const base = 2 * yo;
    for (let k = 0; k <= h; k++) {
      const a = 2 * (k === h ? 0 : k);
      const b = 2 * (k === 0 ? 0 : h - k);
      const zr = work[a]!,
        zi = work[a + 1]!;
      const cr = work[b]!,
        ci = -work[b + 1]!; // conj Z_{h−k}
      const er = zr + cr,
        ei = zi + ci; // 2E
      const dr = zr - cr,
        di = zi - ci; // 2D
      const wr = w[2 * k]!,
        wi = w[2 * k + 1]!;
      const pr = wr * dr - wi * di,
        pi = wr * di + wi * dr; // 2·w·D
      // y = E − i·w·D
      y[base + 2 * k] = s * (er + pi);
      y[base + 2 * k + 1] = s * (ei - pr);
    }
  }

  /**
   * Unnormalised irfft (Σ_k Y_k e^{+2πik·i/N} over the Hermitian extension) of one contiguous
   * half spectrum y[2·yo … 2·(yo+nComplex)) into x[xo … xo+n), times `scale`.
   */
  inverse1(y: ArrayLike<number>, yo: number, x: Float64Array | Float32Array, xo: number, scale = 1): void {
    const n = this.n,
      work = this.work;
    const base = 2 * yo;
    if (n % 2 === 1) {
      work[0] = y[base]!;
      work[1] = 0;
      for (let k = 1; k < this.nComplex; k++) {
        const re = y[base + 2 * k]!,
          im = y[base + 2 * k + 1]!;
        work[2 * k] = re;
        work[2 * k + 1] = im;
        work[2 * (n - k)] = re;
        work[2 * (n - k) + 1] = -im;
      }
      this.inner.transformInPlace(work, 0, true);
      for (let i = 0; i < n; i++) x[xo + i] = scale * work[2 * i]!;
      return;
    }
    const h = n / 2,
      w = this.w;
    for (let k = 0; k < h; k++) {
      // Y_k and conj Y_{h−k}; imaginary parts of Y_0 and Y_h are ignored (numpy does the same).
      const yr = y[base + 2 * k]!,
        yi = k === 0 ? 0 : y[base + 2 * k + 1]!;
      const j = h - k;
      const cr = y[base + 2 * j]!,
        ci = j === h ? 0 : -y[base + 2 * j + 1]!;
      const er = yr + cr,
        ei = yi + ci; // 2E
      const dr = yr - cr,
        di = yi - ci; // 2·O·w
      const wr = w[2 * k]!,
        wi = -w[2 * k + 1]!; // conj(w^k) = e^{+2πik/N}
      const or = wr * dr - wi * di,
        oi = wr * di + wi * dr; // 2O
      // Z = E + i·O
      work[2 * k] = 0.5 * (er - oi);
      work[2 * k + 1] = 0.5 * (ei + or);
    }
    this.inner.transformInPlace(work, 0, true);
    // The half-length inverse sum is (N/2)·x; the N-length unnormalised sum is N·x: factor 2.
    const s = 2 * scale;
    for (let i = 0; i < n; i++) x[xo + i] = s * work[i]!;
  }

  /** Batched, strided rfft: real input (n per problem) → complex output (nComplex per problem). */
  forward(
    input: ArrayLike<number> & { length: number },
    output: Float64Array | Float32Array,
    options: CpuRealExecOptions = {},
  ): void {
    const n = this.n,
      nc = this.nComplex;
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    const scale = normScale(n, options.norm, false);
    const li = layout(options.input, n, 'input');
    const lo = layout(options.output, nc, 'output');
    checkFits(input.length, n, batch, li, 'input', 1);
    checkFits(output.length, nc, batch, lo, 'output', 2);
    const xin = li.stride === 1 ? null : new Float64Array(n);
    const yout = lo.stride === 1 ? null : new Float64Array(2 * nc);
    for (let b = 0; b < batch; b++) {
      const ib = li.offset + b * li.dist,
        ob = lo.offset + b * lo.dist;
      if (xin) for (let e = 0; e < n; e++) xin[e] = input[ib + e * li.stride]!;
      if (yout) {
        this.forward1(xin ?? input, xin ? 0 : ib, yout, 0, scale);
        for (let e = 0; e < nc; e++) {
          output[2 * (ob + e * lo.stride)] = yout[2 * e]!;
          output[2 * (ob + e * lo.stride) + 1] = yout[2 * e + 1]!;
        }
      } else this.forward1(xin ?? input, xin ? 0 : ib, output, ob, scale);
    }
  }

  /** Batched, strided irfft: complex input (nComplex per problem) → real output (n per problem). */
  inverse(
    input: ArrayLike<number> & { length: number },
    output: Float64Array | Float32Array,
    options: CpuRealExecOptions = {},
  ): void {
    const n = this.n,
      nc = this.nComplex;
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    // inverse1 is the unnormalised sum; numpy's inverse scale is relative to it.
    const scale = normScale(n, options.norm, true);
    const li = layout(options.input, nc, 'input');
    const lo = layout(options.output, n, 'output');
    checkFits(input.length, nc, batch, li, 'input', 2);
    checkFits(output.length, n, batch, lo, 'output', 1);
    const yin = li.stride === 1 ? null : new Float64Array(2 * nc);
    const xout = lo.stride === 1 ? null : new Float64Array(n);
    for (let b = 0; b < batch; b++) {
      const ib = li.offset + b * li.dist,
        ob = lo.offset + b * lo.dist;
      if (yin) {
        for (let e = 0; e < nc; e++) {
          yin[2 * e] = input[2 * (ib + e * li.stride)]!;
          yin[2 * e + 1] = input[2 * (ib + e * li.stride) + 1]!;
        }
      }
      if (xout) {
        this.inverse1(yin ?? input, yin ? 0 : ib, xout, 0, scale);
        for (let e = 0; e < n; e++) output[ob + e * lo.stride] = xout[e]!;
      } else this.inverse1(yin ?? input, yin ? 0 : ib, output, ob, scale);
    }
  }
}

function layout(
  l: StridedLayout | undefined,
  n: number,
  name: string,
): { offset: number; stride: number; dist: number } {
  const offset = l?.offset ?? 0;
  const stride = l?.stride ?? 1;
  const dist = l?.dist ?? n * stride;
  for (const [k, v] of [
    ['offset', offset],
    ['stride', stride],
    ['dist', dist],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new ArgumentError(`${name}.${k}`, v, 'a non-negative integer');
  }
  return { offset, stride, dist };
}

const cache = new Map<string, RealFftPlan>();

/** Cached real-FFT plan for real length n ≥ 1. */
export function planCpuRfft(n: number): RealFftPlan {
  checkLength(n);
  const key = `${cpuFftScopeKey()}/${n}`;
  let p = cache.get(key);
  if (!p) {
    const engine = cpuEnginePrecision();
    p = engine ? new EngineRealFft(n, engine) : new CpuRealFft(n);
    cache.set(key, p);
  }
  return p;
}
