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
import { pairActions, rangeScale } from './pair-balance.js';
import { PAIR_BALANCE, PAIR_RANGE } from '../../codegen/wasm/row-max.js';

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
   * A_k = (Z_k + conj Z_{n−k}) / 2 and B_k = (Z_k − conj Z_{n−k}) / 2i: half the transforms of one row each. The
   * rows are balanced (unbalanced), as the fused modules' pairs are.
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
    const bytes = this.precision === 'f32' ? 4 : 8;
    const [least, most] = energyBounds(bytes, n);
    const slots = Math.ceil(count / 2);
    const w = this.work;
    const fixes: number[] = [];
    const alone: number[] = [];
    for (let p = 0; p < slots; p++) {
      const a = b0 + 2 * p;
      const ia = li.offset + a * li.dist;
      const second = 2 * p + 1 < count;
      // Without a second row, the first one is packed twice and the copy's outputs not written.
      packRealPair(x, ia, second ? ia + li.dist : ia, li.stride, n, w, 2 * n * p);
      // A zero input factor (a row left alone) packs zeros: 0 times NaN would not be.
      if (
        second &&
        !energiesBalanced(least, most) &&
        unbalanced(realMax(x, ia, li.stride, n), realMax(x, ia + li.dist, li.stride, n), bytes, fixes, alone, a)
      )
        packRealScaled(x, ia, ia + li.dist, li.stride, n, inScale[0]!, inScale[1]!, w, 2 * n * p);
      // A row beside zeros needs scaling only out of range.
      const s =
        second || bytes === 8 || (packed[0]! >= least && packed[0]! <= most)
          ? 1
          : rangeScale(realMax(x, ia, li.stride, n), bytes);
      if (s !== 1) {
        packRealScaled(x, ia, -1, li.stride, n, s, 0, w, 2 * n * p);
        fixes.push(a, 1 / s);
      }
    }
    inner.execute(w, w, { batch: slots, norm: 'backward' });
    for (let p = 0; p < slots; p++) {
      const a = b0 + 2 * p;
      const b = 2 * p + 1 < count ? a + 1 : -1;
      this.spectraOfPair(w, 2 * n * p, y, lo, a, b, scale);
    }
    // The balanced rows' outputs scaled back (complex values).
    for (let i = 0; i < fixes.length; i += 2)
      scaleLine(y, 2 * (lo.offset + fixes[i]! * lo.dist), 2 * lo.stride, this.nComplex, fixes[i + 1]!, 2);
    // Rows holding NaN or ±Inf (or out of a power of two's reach), each beside a zero row.
    for (const r of alone) {
      packRealScaled(x, li.offset + r * li.dist, -1, li.stride, n, 1, 0, w, 0);
      inner.execute(w, w, { batch: 1, norm: 'backward' });
      this.spectraOfPair(w, 0, y, lo, r, -1, scale);
    }
  }

  /** Rows a and b (b < 0: none) of the layout lo from Z = FFT(a + i·b) at w[base], times `scale`. */
  private spectraOfPair(w: AnyArray, base: number, y: AnyArray, lo: Layout, a: number, b: number, scale: number): void {
    const n = this.n;
    const nc = this.nComplex;
    const h = 0.5 * scale;
    const st = 2 * lo.stride;
    const oa = 2 * (lo.offset + a * lo.dist);
    const ob = 2 * (lo.offset + b * lo.dist);
    y[oa] = scale * w[base]!;
    y[oa + 1] = 0;
    if (b >= 0) {
      y[ob] = scale * w[base + 1]!;
      y[ob + 1] = 0;
    }
    for (let k = 1, z = base + 2, c = base + 2 * (n - 1); k < nc; k++, z += 2, c -= 2) {
      const zr = w[z]!,
        zi = w[z + 1]!,
        cr = w[c]!,
        ci = w[c + 1]!;
      y[oa + k * st] = h * (zr + cr);
      y[oa + k * st + 1] = h * (zi - ci);
      if (b < 0) continue;
      y[ob + k * st] = h * (zi + ci);
      y[ob + k * st + 1] = h * (cr - zr);
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
    else if (this.n % 2 === 0) this.inverseHalf(input, li, output, lo, batch, scale);
    else this.inversePairs(input, li, output, lo, batch, scale);
  }

  /**
   * Even n without the fused module: each row alone through the inverse complex FFT of h = n/2 (no pairs, so no
   * balance to keep): Z_k = (X_k + conj X_{h−k}) + i·e^{2πik/n}(X_k − conj X_{h−k}), z = IFFT_h(Z), x_{2j} + i·x_{2j+1}
   * = z_j (the halves of E and O folded into `scale`); the imaginary parts of X_0 and X_h are dropped as numpy does.
   */
  private inverseHalf(y: AnyArray, li: Layout, x: AnyArray, lo: Layout, batch: number, scale: number): void {
    const h = this.n / 2;
    const inner = engineFft(h, this.precision);
    const chunk = Math.max(1, Math.floor(CHUNK_VALUES / (2 * h)));
    const need = 2 * h * Math.min(chunk, batch);
    if (this.work.length < need) this.work = new (this.precision === 'f32' ? Float32Array : Float64Array)(need);
    const w = this.work;
    const tw = this.twiddles;
    const st = 2 * li.stride;
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      for (let q = 0; q < count; q++) {
        const i0 = 2 * (li.offset + (b0 + q) * li.dist);
        for (let k = 0, o = 2 * h * q; k < h; k++, o += 2) {
          const a = i0 + k * st;
          const c = i0 + (h - k) * st;
          const ar = y[a]!,
            ai = k === 0 ? 0 : y[a + 1]!;
          const br = y[c]!,
            bi = k === 0 ? 0 : -y[c + 1]!;
          const dr = ar - br,
            di = ai - bi;
          // e^{2πik/n} = (tw[2k], −tw[2k+1]); i·(that × d) added to the sum.
          const wr = tw[2 * k]!,
            wi = -tw[2 * k + 1]!;
          const tr = wr * dr - wi * di,
            ti = wr * di + wi * dr;
          w[o] = ar + br - ti;
          w[o + 1] = ai + bi + tr;
        }
      }
      inner.execute(w, w, { batch: count, inverse: true, norm: 'forward', scaleBy: scale });
      for (let q = 0; q < count; q++) {
        const o0 = lo.offset + (b0 + q) * lo.dist;
        for (let j = 0, z = 2 * h * q; j < h; j++, z += 2) {
          x[o0 + 2 * j * lo.stride] = w[z]!;
          x[o0 + (2 * j + 1) * lo.stride] = w[z + 1]!;
        }
      }
    }
  }

  /**
   * Without the fused module: two half spectra A, B at a time become the full spectrum Z = A + i·B
   * (Hermitian halves mirrored, the imaginary parts numpy ignores dropped), and one inverse complex FFT of
   * length n gives a + i·b.
   */
  private inversePairs(y: AnyArray, li: Layout, x: AnyArray, lo: Layout, batch: number, scale: number): void {
    const n = this.n;
    const bytes = this.precision === 'f32' ? 4 : 8;
    const nc = this.nComplex;
    const [least, most] = energyBounds(bytes, nc);
    const inner = engineFft(n, this.precision);
    const chunk = 2 * Math.max(1, Math.floor(CHUNK_VALUES / (2 * n)));
    const need = n * Math.min(chunk, batch + 1);
    if (this.work.length < need) this.work = new (this.precision === 'f32' ? Float32Array : Float64Array)(need);
    const w = this.work;
    const st = 2 * li.stride;
    const fixes: number[] = [];
    const alone: number[] = [];
    for (let b0 = 0; b0 < batch; b0 += chunk) {
      const count = Math.min(chunk, batch - b0);
      const slots = Math.ceil(count / 2);
      for (let p = 0; p < slots; p++) {
        const a = b0 + 2 * p;
        const ia = 2 * (li.offset + a * li.dist);
        // Without a second row, the first one is read twice and the second copy discarded after the transform.
        const second = 2 * p + 1 < count;
        const ib = second ? ia + 2 * li.dist : ia;
        packHalfPair(y, ia, ib, st, n, w, 2 * n * p);
        // Unbalanced: both rows scaled (zeros for one left alone) into a contiguous copy, and packed again.
        if (
          second &&
          !energiesBalanced(least, most) &&
          unbalanced(complexMax(y, ia, st, nc), complexMax(y, ib, st, nc), bytes, fixes, alone, a)
        ) {
          const rows = this.balanced(y, ia, ib, st, nc, inScale[0]!, inScale[1]!);
          packHalfPair(rows, 0, 2 * nc, 2, n, w, 2 * n * p);
        }
        // A row beside zeros (its copy's outputs are discarded) needs scaling only out of range.
        const s =
          second || bytes === 8 || (packed[0]! >= least && packed[0]! <= most)
            ? 1
            : rangeScale(complexMax(y, ia, st, nc), bytes);
        if (s !== 1) {
          packHalfPair(this.balanced(y, ia, -1, st, nc, s, 0), 0, 2 * nc, 2, n, w, 2 * n * p);
          fixes.push(a, 1 / s);
        }
      }
      // 'forward' leaves the inverse unscaled; the caller's norm comes in as scaleBy.
      inner.execute(w, w, { batch: slots, inverse: true, norm: 'forward', scaleBy: scale });
      for (let p = 0; p < slots; p++) {
        const base = 2 * n * p;
        const oa = lo.offset + (b0 + 2 * p) * lo.dist;
        const ob = oa + lo.dist;
        const second = 2 * p + 1 < count;
        for (let i = 0; i < n; i++) {
          x[oa + i * lo.stride] = w[base + 2 * i]!;
          if (second) x[ob + i * lo.stride] = w[base + 2 * i + 1]!;
        }
      }
      // The balanced rows' outputs scaled back.
      for (let i = 0; i < fixes.length; i += 2)
        scaleLine(x, lo.offset + fixes[i]! * lo.dist, lo.stride, n, fixes[i + 1]!, 1);
      fixes.length = 0;
    }
    // Rows holding NaN or ±Inf (or out of a power of two's reach), each beside a zero row.
    for (const r of alone) {
      const ia = 2 * (li.offset + r * li.dist);
      packHalfPair(this.balanced(y, ia, -1, st, nc, 1, 0), 0, 2 * nc, 2, n, w, 0);
      inner.execute(w, w, { batch: 1, inverse: true, norm: 'forward', scaleBy: scale });
      const o = lo.offset + r * lo.dist;
      for (let i = 0; i < n; i++) x[o + i * lo.stride] = w[2 * i]!;
    }
  }

  /** Rows at ia and ib (< 0: none) of nc complex values `st` numbers apart, times sa and sb (0: zeros), contiguous. */
  private balanced(y: AnyArray, ia: number, ib: number, st: number, nc: number, sa: number, sb: number): Float64Array {
    const rows = (this.pairRows = this.pairRows.length >= 4 * nc ? this.pairRows : new Float64Array(4 * nc));
    for (let k = 0; k < nc; k++) {
      rows[2 * k] = sa === 0 ? 0 : sa * y[ia + k * st]!;
      rows[2 * k + 1] = sa === 0 ? 0 : sa * y[ia + k * st + 1]!;
      rows[2 * nc + 2 * k] = sb === 0 || ib < 0 ? 0 : sb * y[ib + k * st]!;
      rows[2 * nc + 2 * k + 1] = sb === 0 || ib < 0 ? 0 : sb * y[ib + k * st + 1]!;
    }
    return rows;
  }
  private pairRows = new Float64Array(0);
}

/**
 * Two half spectra A (at y[ia]) and B (at y[ib]), nc complex values `st` numbers apart, as the full spectrum
 * Z = A + i·B of length n into w from element `base` (Hermitian halves mirrored; the imaginary parts of bins 0 and,
 * for even n, n/2, which a real signal cannot have, dropped as numpy does). Their energies go to `packed`.
 */
function packHalfPair(
  y: ArrayLike<number>,
  ia: number,
  ib: number,
  st: number,
  n: number,
  w: AnyArray,
  base: number,
): void {
  const nc = Math.floor(n / 2) + 1;
  const nyquist = n % 2 === 0 ? n / 2 : -1;
  w[base] = y[ia]!;
  w[base + 1] = y[ib]!;
  // The energies in the same loop as the packing (a separate scan of short rows cost more than their transform).
  let ma = y[ia]! * y[ia]!;
  let mb = y[ib]! * y[ib]!;
  const top = nyquist > 0 ? nyquist : nc;
  for (let k = 1, a = ia + st, b = ib + st, o = base + 2; k < top; k++, a += st, b += st, o += 2) {
    const ar = y[a]!,
      ai = y[a + 1]!,
      br = y[b]!,
      bi = y[b + 1]!;
    w[o] = ar - bi;
    w[o + 1] = ai + br;
    ma += ar * ar + ai * ai;
    mb += br * br + bi * bi;
  }
  if (nyquist > 0) {
    const ar = y[ia + nyquist * st]!,
      br = y[ib + nyquist * st]!;
    w[base + 2 * nyquist] = ar;
    w[base + 2 * nyquist + 1] = br;
    ma += ar * ar;
    mb += br * br;
  }
  packed[0] = ma;
  packed[1] = mb;
  // Upper half from the mirrored conjugates: Z_k = conj A_{n−k} + i·conj B_{n−k}.
  for (let k = nc, j = n - nc, o = base + 2 * nc; k < n; k++, j--, o += 2) {
    const a = ia + j * st,
      b = ib + j * st;
    w[o] = y[a]! + y[b + 1]!;
    w[o + 1] = y[b]! - y[a + 1]!;
  }
}

/**
 * The sums of squares of the last pair packed (NaN for a row holding NaN). In the packing loops they cost 1.5× a
 * plain copy, the largest magnitudes 6× (Math.max, or a compare that mispredicts); so they screen the pairs, and only
 * those they cannot pass take the exact scan (realMax, complexMax) and pair-balance.ts's rule.
 */
const packed = new Float64Array(2);

/** Whether the last pair packed is balanced by its energies: within PAIR_BALANCE² and finite, neither near 0. */
function energiesBalanced(least: number, most: number): boolean {
  const ea = packed[0]!;
  const eb = packed[1]!;
  // NaN fails every comparison.
  return (
    ea <= PAIR_BALANCE ** 2 * eb &&
    eb <= PAIR_BALANCE ** 2 * ea &&
    ea >= least &&
    eb >= least &&
    ea <= most &&
    eb <= most
  );
}

/**
 * The energies [least, most] between which a row of `len` values of `bytes` has its largest magnitude inside
 * PAIR_RANGE: max² ≥ energy / len ≥ low², max² ≤ energy ≤ high² (and finite). Below 1e-280 a float64 row's energy
 * may have underflowed.
 */
function energyBounds(bytes: 4 | 8, len: number): [number, number] {
  const [low, high] = PAIR_RANGE[bytes];
  return [Math.max(len * low * low, 1e-280), Math.min(high * high, Number.MAX_VALUE)];
}
/** The factors `unbalanced` gives the rows' inputs (returned as a pair, its destructuring was the hottest line). */
const inScale = new Float64Array(2);

/**
 * The pairs path's balance (pair-balance.ts) for rows a and a + 1 with largest magnitudes ma and mb: false where it
 * needs nothing; else true, with the factors their inputs take in inScale, and (row, factor its outputs take) added
 * to `fixes` (0 for a row left alone, which is listed in `alone`).
 */
function unbalanced(ma: number, mb: number, bytes: 4 | 8, fixes: number[], alone: number[], a: number): boolean {
  const actions = pairActions(ma, mb, bytes);
  if (actions.length === 0) return false;
  inScale[0] = inScale[1] = 1;
  for (const { line, kind, scaleBy, factor } of actions) {
    inScale[line] = kind === 'scale' ? scaleBy : 0;
    fixes.push(a + line, kind === 'scale' ? factor : 0);
    if (kind === 'alone') alone.push(a + line);
  }
  return true;
}

/** a + i·b into w from element `base`: n real values `stride` apart from x[ia] and x[ib]; energies to `packed`. */
function packRealPair(
  x: ArrayLike<number>,
  ia: number,
  ib: number,
  stride: number,
  n: number,
  w: AnyArray,
  base: number,
): void {
  let ma = 0;
  let mb = 0;
  for (let i = 0, a = ia, b = ib, o = base; i < n; i++, a += stride, b += stride, o += 2) {
    const va = x[a]!;
    const vb = x[b]!;
    w[o] = va;
    w[o + 1] = vb;
    ma += va * va;
    mb += vb * vb;
  }
  packed[0] = ma;
  packed[1] = mb;
}

/** a·sa + i·b·sb into w from element `base`: n real values `stride` apart from x[ia] and x[ib] (< 0 or 0: zeros). */
function packRealScaled(
  x: ArrayLike<number>,
  ia: number,
  ib: number,
  stride: number,
  n: number,
  sa: number,
  sb: number,
  w: AnyArray,
  base: number,
): void {
  for (let i = 0; i < n; i++) {
    w[base + 2 * i] = ia < 0 || sa === 0 ? 0 : sa * x[ia + i * stride]!;
    w[base + 2 * i + 1] = ib < 0 || sb === 0 ? 0 : sb * x[ib + i * stride]!;
  }
}

/** Largest magnitude of `len` reals `step` apart from x[start]; NaN if any is NaN. */
function realMax(x: ArrayLike<number>, start: number, step: number, len: number): number {
  let m = 0;
  for (let k = 0, i = start; k < len; k++, i += step) m = Math.max(m, Math.abs(x[i]!));
  return m;
}

/** Largest magnitude of the parts of `len` complex values `step` numbers apart from x[start]; NaN if any is NaN. */
function complexMax(x: ArrayLike<number>, start: number, step: number, len: number): number {
  let m = 0;
  for (let k = 0, i = start; k < len; k++, i += step) m = Math.max(m, Math.abs(x[i]!), Math.abs(x[i + 1]!));
  return m;
}

/** Multiplies `len` elements of `width` numbers, `step` numbers apart from x[start], by f. */
function scaleLine(x: AnyArray, start: number, step: number, len: number, f: number, width: 1 | 2): void {
  for (let k = 0, i = start; k < len; k++, i += step) {
    x[i] = f * x[i]!;
    if (width === 2) x[i + 1] = f * x[i + 1]!;
  }
}
