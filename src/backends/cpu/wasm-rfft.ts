/**
 * Real FFTs on the CPU engine. Even lengths whose half splits across the lanes run one module that
 * does the half-length complex FFT and the post-processing (src/codegen/wasm/rfft-post.ts) in one
 * call per chunk; every other case (odd n, short n, the inverse) uses the reference adapter's
 * arithmetic around an engine complex FFT (CpuRealFft built inside the engine scope).
 */
import { planCpuEngineRfft, type CpuPrecision } from '../../planner/cpu-fft.js';
import { checkFits, checkLength, normScale } from './fft-mixed-radix.js';
import { CpuRealFft, type CpuRealExecOptions, type CpuRealFftRecipe, type RealFftPlan } from './fft-real.js';
import { engineFft, layoutOf, tryFusedRealFft, type FusedRealFft } from './wasm-fft.js';
import { unitRoot } from '../../core/unit-root.js';

type Layout = { offset: number; stride: number; dist: number };
/** Values per chunk of the batched path (with the engine's own chunking, stays in L2). */
const CHUNK_VALUES = 1 << 15;
import type { CpuEngineFftRecipe } from '../../planner/cpu-fft.js';

type AnyArray = Float32Array | Float64Array;

export class EngineRealFft implements RealFftPlan {
  readonly nComplex: number;
  readonly recipe: CpuRealFftRecipe | { kind: 'real-fused'; n: number; inner: CpuEngineFftRecipe };
  private readonly fused: FusedRealFft | null;
  private readonly fusedInverse: FusedRealFft | null;
  private readonly generic: CpuRealFft;
  /** e^{−2πik/n}, k = 0 … n/2 (even n), for the batched post-processing. */
  private readonly twiddles: Float64Array;
  private work: AnyArray = new Float64Array(0);
  constructor(
    readonly n: number,
    readonly precision: CpuPrecision,
  ) {
    this.nComplex = Math.floor(n / 2) + 1;
    // Built inside the caller's engine scope, so its inner complex FFT is the engine's.
    this.generic = new CpuRealFft(n);
    const r = planCpuEngineRfft(n, precision);
    this.fused = r ? tryFusedRealFft(r) : null;
    // The inverse is fused for even lengths only (odd ones take the generic path).
    this.fusedInverse = r?.realPost ? this.fused : null;
    this.recipe = r && this.fused ? { kind: 'real-fused', n, inner: r } : this.generic.recipe;
    this.twiddles = new Float64Array(n % 2 === 0 ? n + 2 : 0);
    if (n % 2 === 0) {
      for (let k = 0; k <= n / 2; k++) {
        const [c, s] = unitRoot(k, n);
        this.twiddles[2 * k] = c;
        this.twiddles[2 * k + 1] = -s;
      }
    }
  }
  forward1(x: ArrayLike<number>, xo: number, y: AnyArray, yo: number, scale = 1): void {
    if (this.fused && (x instanceof Float32Array || x instanceof Float64Array)) {
      this.fused.forwardReal(x, { offset: xo, stride: 1, dist: 0 }, y, { offset: yo, stride: 1, dist: 0 }, 1, scale);
    } else this.generic.forward1(x, xo, y, yo, scale);
  }
  inverse1(y: ArrayLike<number>, yo: number, x: AnyArray, xo: number, scale = 1): void {
    if (this.fusedInverse && (y instanceof Float32Array || y instanceof Float64Array)) {
      // inverse1 is the unnormalised sum; the module's inverse is scaled by what it is given.
      this.fusedInverse.inverseReal(
        y,
        { offset: yo, stride: 1, dist: 0 },
        x,
        { offset: xo, stride: 1, dist: 0 },
        1,
        scale,
      );
    } else this.generic.inverse1(y, yo, x, xo, scale);
  }
  forward(input: ArrayLike<number> & { length: number }, output: AnyArray, options: CpuRealExecOptions = {}): void {
    const n = this.n;
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    const li = layoutOf(options.input, n, 'input');
    const lo = layoutOf(options.output, this.nComplex, 'output');
    checkFits(input.length, n, batch, li, 'input', 1);
    checkFits(output.length, this.nComplex, batch, lo, 'output', 2);
    const scale = normScale(n, options.norm, false);
    if (this.fused && (input instanceof Float32Array || input instanceof Float64Array))
      this.fused.forwardReal(input, li, output, lo, batch, scale);
    else this.forwardBatched(input, li, output, lo, batch, scale);
  }

  /**
   * Lengths without the fused module: a chunk of problems packed into one batched engine complex FFT
   * (half length for even n, full length with zero imaginary parts for odd n), then the post-processing.
   */
  private forwardBatched(
    x: ArrayLike<number>,
    li: Layout,
    y: AnyArray,
    lo: Layout,
    batch: number,
    scale: number,
  ): void {
    const n = this.n;
    const nc = this.nComplex;
    const even = n % 2 === 0;
    const m = even ? n / 2 : n;
    const inner = engineFft(m, this.precision);
    const chunk = Math.max(1, Math.floor(CHUNK_VALUES / (2 * m)));
    if (this.work.length < 2 * m * Math.min(chunk, batch))
      this.work = new (this.precision === 'f32' ? Float32Array : Float64Array)(2 * m * Math.min(chunk, batch));
    const w = this.work;
    const tw = this.twiddles;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      for (let q = 0; q < count; q++) {
        const s = li.offset + (b0 + q) * li.dist;
        const base = 2 * m * q;
        if (even) for (let i = 0; i < n; i++) w[base + i] = x[s + i * li.stride]!;
        else {
          for (let i = 0; i < n; i++) {
            w[base + 2 * i] = x[s + i * li.stride]!;
            w[base + 2 * i + 1] = 0;
          }
        }
      }
      inner.execute(w, w, { batch: count, norm: 'backward' });
      for (let q = 0; q < count; q++) {
        const base = 2 * m * q;
        const o = 2 * (lo.offset + (b0 + q) * lo.dist);
        const st = 2 * lo.stride;
        if (!even) {
          for (let k = 0; k < nc; k++) {
            y[o + k * st] = scale * w[base + 2 * k]!;
            y[o + k * st + 1] = scale * w[base + 2 * k + 1]!;
          }
          continue;
        }
        const h = m;
        const s = 0.5 * scale;
        for (let k = 0; k <= h; k++) {
          const a = base + 2 * (k === h ? 0 : k);
          const c = base + 2 * (k === 0 ? 0 : h - k);
          const zr = w[a]!,
            zi = w[a + 1]!;
          const cr = w[c]!,
            ci = -w[c + 1]!;
          const er = zr + cr,
            ei = zi + ci;
          const dr = zr - cr,
            di = zi - ci;
          const wr = tw[2 * k]!,
            wi = tw[2 * k + 1]!;
          const pr = wr * dr - wi * di,
            pi = wr * di + wi * dr;
          y[o + k * st] = s * (er + pi);
          y[o + k * st + 1] = s * (ei - pr);
        }
      }
    }
  }
  inverse(input: ArrayLike<number> & { length: number }, output: AnyArray, options: CpuRealExecOptions = {}): void {
    if (!this.fusedInverse || !(input instanceof Float32Array || input instanceof Float64Array))
      return this.generic.inverse(input, output, options);
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    const li = layoutOf(options.input, this.nComplex, 'input');
    const lo = layoutOf(options.output, this.n, 'output');
    checkFits(input.length, this.nComplex, batch, li, 'input', 2);
    checkFits(output.length, this.n, batch, lo, 'output', 1);
    this.fusedInverse.inverseReal(input, li, output, lo, batch, normScale(this.n, options.norm, true));
  }
}
