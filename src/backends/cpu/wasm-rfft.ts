/**
 * Real FFTs on the CPU engine. Where the planner fuses them (planCpuEngineRfftForward), one module does the
 * complex FFT and the pre/post-processing per chunk, forward and inverse. Otherwise batched engine complex FFTs with the
 * processing in JS: even n through the half-length FFT, odd n two rows per full-length FFT; the inverse
 * likewise two rows at a time. Plain number arrays take the reference adapter (CpuRealFft built inside
 * the engine scope).
 */
import {
  planCpuEngineRfftForward,
  singleRealOf,
  singleRowsBelow,
  type CpuPrecision,
  type CpuRealRecipe,
} from '../../planner/cpu-fft.js';
import { checkFits, checkLength, layoutOf, normScale } from './fft-mixed-radix.js';
import { CpuRealFft, type CpuRealExecOptions, type CpuRealFftRecipe, type RealFftPlan } from './fft-real.js';
import { engineFft, tryFusedRealFft, type FusedRealFft } from './wasm-fft.js';
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
  private readonly fusedRecipe: CpuRealRecipe | null;
  constructor(
    readonly n: number,
    readonly precision: CpuPrecision,
  ) {
    this.nComplex = Math.floor(n / 2) + 1;
    // Built inside the caller's engine scope, so its inner complex FFT is the engine's.
    this.generic = new CpuRealFft(n);
    const r = planCpuEngineRfftForward(n, precision);
    this.fused = r ? tryFusedRealFft(r) : null;
    this.fusedRecipe = r;
    // The inverse runs on the same module: the half-length one, or two rows a complex transform of n (pairs).
    this.fusedInverse = this.fused;
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
    const fused = this.fusedFor(1);
    if (fused && (x instanceof Float32Array || x instanceof Float64Array)) {
      fused.forwardReal(x, { offset: xo, stride: 1, dist: 0 }, y, { offset: yo, stride: 1, dist: 0 }, 1, scale);
    } else this.generic.forward1(x, xo, y, yo, scale);
  }
  inverse1(y: ArrayLike<number>, yo: number, x: AnyArray, xo: number, scale = 1): void {
    const fused = this.fusedInverse && this.fusedFor(1);
    if (fused && (y instanceof Float32Array || y instanceof Float64Array)) {
      // inverse1 is the unnormalised sum; the module's inverse is scaled by what it is given.
      fused.inverseReal(y, { offset: yo, stride: 1, dist: 0 }, x, { offset: xo, stride: 1, dist: 0 }, 1, scale);
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
    const fused = this.fusedFor(batch);
    if (fused && (input instanceof Float32Array || input instanceof Float64Array))
      fused.forwardReal(input, li, output, lo, batch, scale);
    else this.forwardBatched(input, li, output, lo, batch, scale);
  }

  /**
   * The fused module for a call of `batch` rows: the recipe's own, or for fewer than singleRowsBelow(W) rows of a
   * lane-batch length the same row steps around its partial four-step (singleRealOf), which fills the lanes with one
   * problem.
   */
  private fusedFor(batch: number): FusedRealFft | null {
    const r = this.fusedRecipe;
    if (!this.fused || !r || batch >= singleRowsBelow(r.lanes)) return this.fused;
    if (this.fusedSingle === undefined) {
      const single = singleRealOf(r);
      this.fusedSingle = single ? tryFusedRealFft(single) : null;
    }
    return this.fusedSingle ?? this.fused;
  }
  private fusedSingle?: FusedRealFft | null;

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
    const even = n % 2 === 0;
    const m = even ? n / 2 : n;
    const inner = engineFft(m, this.precision);
    // Odd n packs two rows per complex transform, so a chunk holds twice the rows.
    const chunk = (even ? 1 : 2) * Math.max(1, Math.floor(CHUNK_VALUES / (2 * m)));
    if (this.work.length < 2 * m * Math.min(chunk, batch))
      this.work = new (this.precision === 'f32' ? Float32Array : Float64Array)(2 * m * Math.min(chunk, batch));
    const w = this.work;
    const tw = this.twiddles;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      if (!even) {
        this.forwardPairs(x, li, y, lo, b0, count, scale, inner);
        continue;
      }
      for (let q = 0; q < count; q++) {
        const s = li.offset + (b0 + q) * li.dist;
        const base = 2 * m * q;
        for (let i = 0; i < n; i++) w[base + i] = x[s + i * li.stride]!;
      }
      inner.execute(w, w, { batch: count, norm: 'backward' });
      for (let q = 0; q < count; q++) {
        const base = 2 * m * q;
        const o = 2 * (lo.offset + (b0 + q) * lo.dist);
        const st = 2 * lo.stride;
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
  /**
   * Odd n: two real rows a, b as one complex row a + i·b through the full-length complex FFT Z, then
   * A_k = (Z_k + conj Z_{n−k}) / 2 and B_k = (Z_k − conj Z_{n−k}) / 2i: half the transforms of one row each.
   */
  private forwardPairs(
    x: ArrayLike<number>,
    li: Layout,
    y: AnyArray,
    lo: Layout,
    b0: number,
    count: number,
    scale: number,
    inner: ReturnType<typeof engineFft>,
  ): void {
    const n = this.n;
    const nc = this.nComplex;
    const pairs = Math.ceil(count / 2);
    const w = this.work;
    for (let p = 0; p < pairs; p++) {
      const sa = li.offset + (b0 + 2 * p) * li.dist;
      const sb = sa + li.dist;
      const base = 2 * n * p;
      if (2 * p + 1 < count) {
        for (let i = 0; i < n; i++) {
          w[base + 2 * i] = x[sa + i * li.stride]!;
          w[base + 2 * i + 1] = x[sb + i * li.stride]!;
        }
      } else {
        for (let i = 0; i < n; i++) {
          w[base + 2 * i] = x[sa + i * li.stride]!;
          w[base + 2 * i + 1] = 0;
        }
      }
    }
    inner.execute(w, w, { batch: pairs, norm: 'backward' });
    const h = 0.5 * scale;
    const st = 2 * lo.stride;
    for (let p = 0; p < pairs; p++) {
      const base = 2 * n * p;
      const oa = 2 * (lo.offset + (b0 + 2 * p) * lo.dist);
      // A missing second row (odd count) is written over the first, which is then written again.
      const ob = 2 * p + 1 < count ? oa + 2 * lo.dist : oa;
      y[ob] = h * 2 * w[base + 1]!;
      y[ob + 1] = 0;
      y[oa] = h * 2 * w[base]!;
      y[oa + 1] = 0;
      for (let k = 1, z = base + 2, c = base + 2 * (n - 1); k < nc; k++, z += 2, c -= 2) {
        const zr = w[z]!,
          zi = w[z + 1]!;
        const cr = w[c]!,
          ci = w[c + 1]!;
        y[ob + k * st] = h * (zi + ci);
        y[ob + k * st + 1] = h * (cr - zr);
        y[oa + k * st] = h * (zr + cr);
        y[oa + k * st + 1] = h * (zi - ci);
      }
    }
  }

  inverse(input: ArrayLike<number> & { length: number }, output: AnyArray, options: CpuRealExecOptions = {}): void {
    if (!(input instanceof Float32Array || input instanceof Float64Array))
      return this.generic.inverse(input, output, options);
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    const li = layoutOf(options.input, this.nComplex, 'input');
    const lo = layoutOf(options.output, this.n, 'output');
    checkFits(input.length, this.nComplex, batch, li, 'input', 2);
    checkFits(output.length, this.n, batch, lo, 'output', 1);
    const scale = normScale(this.n, options.norm, true);
    const fused = this.fusedInverse && this.fusedFor(batch);
    if (fused) fused.inverseReal(input, li, output, lo, batch, scale);
    else this.inversePairs(input, li, output, lo, batch, scale);
  }

  /**
   * Without the fused module: two half spectra A, B at a time become the full spectrum Z = A + i·B
   * (Hermitian halves mirrored, the imaginary parts numpy ignores dropped), and one inverse complex FFT of
   * length n gives a + i·b.
   */
  private inversePairs(y: AnyArray, li: Layout, x: AnyArray, lo: Layout, batch: number, scale: number): void {
    const n = this.n;
    const nc = this.nComplex;
    const inner = engineFft(n, this.precision);
    const chunk = 2 * Math.max(1, Math.floor(CHUNK_VALUES / (2 * n)));
    const need = n * Math.min(chunk, batch + 1);
    if (this.work.length < need) this.work = new (this.precision === 'f32' ? Float32Array : Float64Array)(need);
    const w = this.work;
    const st = 2 * li.stride;
    // The bins whose imaginary part a real signal cannot have: 0, and n/2 for even n.
    const nyquist = n % 2 === 0 ? n / 2 : -1;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      const pairs = Math.ceil(count / 2);
      for (let p = 0; p < pairs; p++) {
        const ia = 2 * (li.offset + (b0 + 2 * p) * li.dist);
        // A missing second row (odd count) reads the first one and is discarded after the transform.
        const ib = 2 * p + 1 < count ? ia + 2 * li.dist : ia;
        const base = 2 * n * p;
        // Bins 0 and n/2 (even n) are real: their imaginary parts are dropped, as numpy does.
        w[base] = y[ia]!;
        w[base + 1] = y[ib]!;
        const top = nyquist > 0 ? nyquist : nc;
        for (let k = 1, a = ia + st, b = ib + st, o = base + 2; k < top; k++, a += st, b += st, o += 2) {
          w[o] = y[a]! - y[b + 1]!;
          w[o + 1] = y[a + 1]! + y[b]!;
        }
        if (nyquist > 0) {
          w[base + 2 * nyquist] = y[ia + nyquist * st]!;
          w[base + 2 * nyquist + 1] = y[ib + nyquist * st]!;
        }
        // Upper half from the mirrored conjugates: Z_k = conj A_{n−k} + i·conj B_{n−k}.
        for (let k = nc, j = n - nc, o = base + 2 * nc; k < n; k++, j--, o += 2) {
          const a = ia + j * st,
            b = ib + j * st;
          w[o] = y[a]! + y[b + 1]!;
          w[o + 1] = y[b]! - y[a + 1]!;
        }
      }
      // 'forward' leaves the inverse unscaled; the caller's norm comes in as scaleBy.
      inner.execute(w, w, { batch: pairs, inverse: true, norm: 'forward', scaleBy: scale });
      for (let p = 0; p < pairs; p++) {
        const base = 2 * n * p;
        const oa = lo.offset + (b0 + 2 * p) * lo.dist;
        const ob = oa + lo.dist;
        const second = 2 * p + 1 < count;
        for (let i = 0; i < n; i++) {
          x[oa + i * lo.stride] = w[base + 2 * i]!;
          if (second) x[ob + i * lo.stride] = w[base + 2 * i + 1]!;
        }
      }
    }
  }
}
