/**
 * Float64 mixed-radix complex FFT for any length whose prime factors the planner allows (2, 3, 5, 7
 * with specialised butterflies, 11 and 13 — or any prime when asked — through a generic odd butterfly).
 *
 * Algorithm: Stockham autosort, decimation in frequency, as in FFTPACK/pocketfft. With factors
 * r_1 … r_m (N = Π r), pass t has l1 = r_1⋯r_{t−1} finished digits, radix ip = r_t and ido = N/(l1·ip)
 * points per remaining sub-problem. It reads CC(i, m, k) = in[i + ido·(m + ip·k)], does the radix-ip
 * butterfly over m, multiplies output j by W_N^{j·l1·i} and writes CH(i, k, j) = out[i + ido·(k + l1·j)].
 * Each pass is out-of-place between two buffers (ping-pong), so no bit/digit reversal pass exists: the
 * index-digit permutation is folded into each pass's store, which is also what the GPU kernels do.
 *
 * Twiddles come from `unitRoot` (exact integer range reduction), never from recurrences, so the error
 * stays at ~ε·log N.
 *
 * Data layout everywhere: interleaved complex float64 (re, im). Batched/strided layouts are handled by
 * `executeBatched`, which gathers each problem into a contiguous work buffer, transforms it, and
 * scatters it back (so in-place calls with identical in/out layouts are safe).
 */
import { ArgumentError } from '../../errors.js';
import { primeFactors } from '../../core/integers.js';
import { unitRoot } from './dft-naive.js';
import type { CpuEngineFftRecipe } from '../../planner/cpu-fft.js';

export type Norm = 'backward' | 'ortho' | 'forward';

/** Where problems live in a flat array, in units of complex elements (pairs of numbers). */
export interface StridedLayout {
  /** First element of problem 0 (default 0). */
  offset?: number;
  /** Distance between consecutive elements of one problem (default 1). */
  stride?: number;
  /** Distance between the first elements of consecutive problems (default n·stride, i.e. packed). */
  dist?: number;
}

export interface CpuFftExecOptions {
  /** Inverse transform (e^{+2πi…}). Default false. */
  inverse?: boolean;
  /** numpy normalisation; default 'backward' (none forward, 1/N inverse). */
  norm?: Norm;
  /** Number of problems (default 1). */
  batch?: number;
  input?: StridedLayout;
  output?: StridedLayout;
}

/** One butterfly pass of a mixed-radix recipe. */
export interface RadixStage {
  radix: number;
  /** Which butterfly code runs it: a specialised one or the generic odd-radix loop. */
  butterfly: string;
}

/** Plain-data description of how a length is computed (JSON-serialisable, unit-testable). */
export type CpuFftRecipe =
  | { kind: 'mixed-radix'; n: number; stages: RadixStage[] }
  | { kind: 'bluestein'; n: number; innerN: number; inner: CpuFftRecipe };

export interface CpuFftPlan {
  readonly n: number;
  /** The reference's recipe, or the CPU engine's (src/planner/cpu-fft.ts) inside an engine scope. */
  readonly recipe: CpuFftRecipe | CpuEngineFftRecipe;
  /**
   * Unnormalised transform of one contiguous problem at data[2·offset … 2·(offset+n)), in place,
   * then multiplied by `scale`. This is the building block the real and r2r adapters use.
   */
  transformInPlace(data: Float64Array, offset: number, inverse: boolean, scale?: number): void;
  /** Batched, strided, normalised transform; input and output may be float32 or float64 arrays. */
  execute(input: Float64Array | Float32Array, output: Float64Array | Float32Array, options?: CpuFftExecOptions): void;
}

/** Radices with hand-written butterflies. */
export const SPECIALISED_RADICES: readonly number[] = [2, 3, 4, 5, 7, 8];

/** Scale factor numpy applies for `norm` in the given direction, for a transform of length n. */
export function normScale(n: number, norm: Norm | undefined, inverse: boolean): number {
  const nm = norm ?? 'backward';
  if (nm === 'ortho') return 1 / Math.sqrt(n);
  if (nm === 'backward') return inverse ? 1 / n : 1;
  if (nm === 'forward') return inverse ? 1 : 1 / n;
  throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
}

export function checkLength(n: unknown, name = 'n', min = 1): asserts n is number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
    throw new ArgumentError(name, n, `an integer ≥ ${min}`);
  }
}

export { primeFactors };

/**
 * Radices for N in pass order: as many 8s as possible, then one 4 or 2 for the leftover power of two,
 * then the odd primes ascending. Higher radix = fewer passes over memory and fewer twiddle multiplies.
 */
export function chooseRadices(n: number): number[] {
  const out: number[] = [];
  let m = n;
  while (m % 8 === 0) {
    out.push(8);
    m /= 8;
  }
  if (m % 4 === 0) {
    out.push(4);
    m /= 4;
  }
  if (m % 2 === 0) {
    out.push(2);
    m /= 2;
  }
  for (const p of primeFactors(m)) out.push(p);
  return out;
}

export function mixedRadixRecipe(n: number): CpuFftRecipe {
  return {
    kind: 'mixed-radix',
    n,
    stages: chooseRadices(n).map((r) => ({
      radix: r,
      butterfly: SPECIALISED_RADICES.includes(r) ? `radix-${r}` : `generic-odd-${r}`,
    })),
  };
}

interface Pass {
  ip: number;
  l1: number;
  ido: number;
  /** tw[2·((j−1)·ido + i)] = cos, sin of 2π·j·l1·i/N (positive angle; sign applied at run time). */
  tw: Float64Array;
  /** Generic odd radix only: cos/sin of 2π·q/ip. */
  cs?: Float64Array;
}

/** The mixed-radix executor. Build with `planMixedRadix` (cached). */
export class MixedRadixFft implements CpuFftPlan {
  readonly recipe: CpuFftRecipe;
  private readonly passes: Pass[];
  private scratch: Float64Array;

  constructor(readonly n: number) {
    checkLength(n);
    this.recipe = mixedRadixRecipe(n);
    const radices = chooseRadices(n);
    this.passes = [];
    let l1 = 1;
    for (const ip of radices) {
      const ido = n / (l1 * ip);
      const tw = new Float64Array(2 * (ip - 1) * ido);
      for (let j = 1; j < ip; j++) {
        for (let i = 0; i < ido; i++) {
          const [c, s] = unitRoot(j * l1 * i, n);
          tw[2 * ((j - 1) * ido + i)] = c;
          tw[2 * ((j - 1) * ido + i) + 1] = s;
        }
      }
      const pass: Pass = { ip, l1, ido, tw };
      if (!SPECIALISED_RADICES.includes(ip)) {
        const cs = new Float64Array(2 * ip);
        for (let q = 0; q < ip; q++) {
          const [c, s] = unitRoot(q, ip);
          cs[2 * q] = c;
          cs[2 * q + 1] = s;
        }
        pass.cs = cs;
      }
      this.passes.push(pass);
      l1 *= ip;
    }
    this.scratch = new Float64Array(2 * n);
  }

  transformInPlace(data: Float64Array, offset: number, inverse: boolean, scale = 1): void {
    const n = this.n;
    const sgn = inverse ? 1 : -1;
    const np = this.passes.length;
    // Ping-pong between the caller's region and one scratch buffer. Passes write out-of-place, so with
    // an odd pass count the result ends in scratch and is copied back once.
    let src = offset === 0 && data.length === 2 * n ? data : data.subarray(2 * offset, 2 * (offset + n));
    let dst = this.scratch;
    for (let t = 0; t < np; t++) {
      runPass(this.passes[t]!, src, dst, sgn);
      const tmp = src;
      src = dst;
      dst = tmp;
    }
    const base = 2 * offset;
    if (np % 2 === 1) {
      if (scale === 1) data.set(src, base);
      else for (let i = 0; i < 2 * n; i++) data[base + i] = src[i]! * scale;
    } else if (scale !== 1) {
      for (let i = 0; i < 2 * n; i++) data[base + i]! *= scale;
    }
  }

  execute(
    input: Float64Array | Float32Array,
    output: Float64Array | Float32Array,
    options: CpuFftExecOptions = {},
  ): void {
    executeBatched(this, input, output, options);
  }
}

function runPass(p: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  switch (p.ip) {
    case 2:
      return pass2(p, cc, ch, sgn);
    case 3:
      return pass3(p, cc, ch, sgn);
    case 4:
      return pass4(p, cc, ch, sgn);
    case 5:
      return pass5(p, cc, ch, sgn);
    case 7:
      return pass7(p, cc, ch, sgn);
    case 8:
      return pass8(p, cc, ch, sgn);
    default:
      return passOdd(p, cc, ch, sgn);
  }
}

// In each pass: input element m of butterfly (k, i) is at complex index i + ido·(m + ip·k); output j goes
// to i + ido·(k + l1·j), multiplied by twiddle (j, i) unless j = 0. `sgn` is −1 forward, +1 inverse.

function pass2({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 2 * k);
      const a1 = a0 + 2 * ido;
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!,
        r1 = cc[a1]!,
        i1 = cc[a1 + 1]!;
      const o0 = 2 * (i + ido * k);
      const o1 = o0 + 2 * ido * l1;
      ch[o0] = r0 + r1;
      ch[o0 + 1] = i0 + i1;
      const br = r0 - r1,
        bi = i0 - i1;
      const wr = tw[2 * i]!,
        wi = sgn * tw[2 * i + 1]!;
      ch[o1] = br * wr - bi * wi;
      ch[o1 + 1] = br * wi + bi * wr;
    }
  }
}

const S3 = Math.sqrt(3) / 2;

function pass3({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const s = sgn * S3;
  const so = 2 * ido * l1; // output stride between j and j+1
  const tj = 2 * ido; // twiddle stride between j and j+1
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 3 * k);
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!;
      const r1 = cc[a0 + 2 * ido]!,
        i1 = cc[a0 + 2 * ido + 1]!;
      const r2 = cc[a0 + 4 * ido]!,
        i2 = cc[a0 + 4 * ido + 1]!;
      const tr = r1 + r2,
        ti = i1 + i2;
      const dr = r1 - r2,
        di = i1 - i2;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + tr;
      ch[o0 + 1] = i0 + ti;
      const cr = r0 - 0.5 * tr,
        ci = i0 - 0.5 * ti;
      // ± sgn·i·(√3/2)·d
      const er = -s * di,
        ei = s * dr;
      cmulStore(ch, o0 + so, cr + er, ci + ei, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, cr - er, ci - ei, tw, 2 * i + tj, sgn);
    }
  }
}

/** ch[o] = (br + i·bi)·(tw[t] + i·sgn·tw[t+1]). */
function cmulStore(
  ch: Float64Array,
  o: number,
  br: number,
  bi: number,
  tw: Float64Array,
  t: number,
  sgn: number,
): void {
  const wr = tw[t]!,
    wi = sgn * tw[t + 1]!;
  ch[o] = br * wr - bi * wi;
  ch[o + 1] = br * wi + bi * wr;
}

function pass4({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 4 * k);
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!;
      const r1 = cc[a0 + is]!,
        i1 = cc[a0 + is + 1]!;
      const r2 = cc[a0 + 2 * is]!,
        i2 = cc[a0 + 2 * is + 1]!;
      const r3 = cc[a0 + 3 * is]!,
        i3 = cc[a0 + 3 * is + 1]!;
      const t0r = r0 + r2,
        t0i = i0 + i2;
      const t1r = r0 - r2,
        t1i = i0 - i2;
      const t2r = r1 + r3,
        t2i = i1 + i3;
      const t3r = r1 - r3,
        t3i = i1 - i3;
      // (sgn·i)·t3
      const ur = -sgn * t3i,
        ui = sgn * t3r;
      const o0 = 2 * (i + ido * k);
      ch[o0] = t0r + t2r;
      ch[o0 + 1] = t0i + t2i;
      cmulStore(ch, o0 + so, t1r + ur, t1i + ui, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, t0r - t2r, t0i - t2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, t1r - ur, t1i - ui, tw, 2 * i + 2 * tj, sgn);
    }
  }
}

const C51 = Math.cos((2 * Math.PI) / 5),
  C52 = Math.cos((4 * Math.PI) / 5);
const S51 = Math.sin((2 * Math.PI) / 5),
  S52 = Math.sin((4 * Math.PI) / 5);

function pass5({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const s1 = sgn * S51,
    s2 = sgn * S52;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 5 * k);
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!;
      const r1 = cc[a0 + is]!,
        i1 = cc[a0 + is + 1]!;
      const r2 = cc[a0 + 2 * is]!,
        i2 = cc[a0 + 2 * is + 1]!;
      const r3 = cc[a0 + 3 * is]!,
        i3 = cc[a0 + 3 * is + 1]!;
      const r4 = cc[a0 + 4 * is]!,
        i4 = cc[a0 + 4 * is + 1]!;
      const t1r = r1 + r4,
        t1i = i1 + i4,
        d1r = r1 - r4,
        d1i = i1 - i4;
      const t2r = r2 + r3,
        t2i = i2 + i3,
        d2r = r2 - r3,
        d2i = i2 - i3;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + t1r + t2r;
      ch[o0 + 1] = i0 + t1i + t2i;
      // b1/b4 = a0 + c1 t1 + c2 t2 ± sgn·i(s1 d1 + s2 d2)
      const c1r = r0 + C51 * t1r + C52 * t2r,
        c1i = i0 + C51 * t1i + C52 * t2i;
      const e1r = -(s1 * d1i + s2 * d2i),
        e1i = s1 * d1r + s2 * d2r;
      // b2/b3 = a0 + c2 t1 + c1 t2 ± sgn·i(s2 d1 − s1 d2)
      const c2r = r0 + C52 * t1r + C51 * t2r,
        c2i = i0 + C52 * t1i + C51 * t2i;
      const e2r = -(s2 * d1i - s1 * d2i),
        e2i = s2 * d1r - s1 * d2r;
      cmulStore(ch, o0 + so, c1r + e1r, c1i + e1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, c2r + e2r, c2i + e2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, c2r - e2r, c2i - e2i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, c1r - e1r, c1i - e1i, tw, 2 * i + 3 * tj, sgn);
    }
  }
}

const C71 = Math.cos((2 * Math.PI) / 7),
  C72 = Math.cos((4 * Math.PI) / 7),
  C73 = Math.cos((6 * Math.PI) / 7);
const S71 = Math.sin((2 * Math.PI) / 7),
  S72 = Math.sin((4 * Math.PI) / 7),
  S73 = Math.sin((6 * Math.PI) / 7);

function pass7({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const s1 = sgn * S71,
    s2 = sgn * S72,
    s3 = sgn * S73;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 7 * k);
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!;
      const r1 = cc[a0 + is]!,
        i1 = cc[a0 + is + 1]!;
      const r2 = cc[a0 + 2 * is]!,
        i2 = cc[a0 + 2 * is + 1]!;
      const r3 = cc[a0 + 3 * is]!,
        i3 = cc[a0 + 3 * is + 1]!;
      const r4 = cc[a0 + 4 * is]!,
        i4 = cc[a0 + 4 * is + 1]!;
      const r5 = cc[a0 + 5 * is]!,
        i5 = cc[a0 + 5 * is + 1]!;
      const r6 = cc[a0 + 6 * is]!,
        i6 = cc[a0 + 6 * is + 1]!;
      const t1r = r1 + r6,
        t1i = i1 + i6,
        d1r = r1 - r6,
        d1i = i1 - i6;
      const t2r = r2 + r5,
        t2i = i2 + i5,
        d2r = r2 - r5,
        d2i = i2 - i5;
      const t3r = r3 + r4,
        t3i = i3 + i4,
        d3r = r3 - r4,
        d3i = i3 - i4;
      const o0 = 2 * (i + ido * k);
      ch[o0] = r0 + t1r + t2r + t3r;
      ch[o0 + 1] = i0 + t1i + t2i + t3i;
      // j = 1: cos (c1, c2, c3), sin (s1, s2, s3)
      const a1r = r0 + C71 * t1r + C72 * t2r + C73 * t3r,
        a1i = i0 + C71 * t1i + C72 * t2i + C73 * t3i;
      const e1r = -(s1 * d1i + s2 * d2i + s3 * d3i),
        e1i = s1 * d1r + s2 * d2r + s3 * d3r;
      // j = 2: cos (c2, c3, c1), sin (s2, −s3, −s1)
      const a2r = r0 + C72 * t1r + C73 * t2r + C71 * t3r,
        a2i = i0 + C72 * t1i + C73 * t2i + C71 * t3i;
      const e2r = -(s2 * d1i - s3 * d2i - s1 * d3i),
        e2i = s2 * d1r - s3 * d2r - s1 * d3r;
      // j = 3: cos (c3, c1, c2), sin (s3, −s1, s2)
      const a3r = r0 + C73 * t1r + C71 * t2r + C72 * t3r,
        a3i = i0 + C73 * t1i + C71 * t2i + C72 * t3i;
      const e3r = -(s3 * d1i - s1 * d2i + s2 * d3i),
        e3i = s3 * d1r - s1 * d2r + s2 * d3r;
      cmulStore(ch, o0 + so, a1r + e1r, a1i + e1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, a2r + e2r, a2i + e2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, a3r + e3r, a3i + e3i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, a3r - e3r, a3i - e3i, tw, 2 * i + 3 * tj, sgn);
      cmulStore(ch, o0 + 5 * so, a2r - e2r, a2i - e2i, tw, 2 * i + 4 * tj, sgn);
      cmulStore(ch, o0 + 6 * so, a1r - e1r, a1i - e1i, tw, 2 * i + 5 * tj, sgn);
    }
  }
}

const R2 = Math.SQRT1_2;

function pass8({ l1, ido, tw }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * 8 * k);
      const x0r = cc[a0]!,
        x0i = cc[a0 + 1]!;
      const x1r = cc[a0 + is]!,
        x1i = cc[a0 + is + 1]!;
      const x2r = cc[a0 + 2 * is]!,
        x2i = cc[a0 + 2 * is + 1]!;
      const x3r = cc[a0 + 3 * is]!,
        x3i = cc[a0 + 3 * is + 1]!;
      const x4r = cc[a0 + 4 * is]!,
        x4i = cc[a0 + 4 * is + 1]!;
      const x5r = cc[a0 + 5 * is]!,
        x5i = cc[a0 + 5 * is + 1]!;
      const x6r = cc[a0 + 6 * is]!,
        x6i = cc[a0 + 6 * is + 1]!;
      const x7r = cc[a0 + 7 * is]!,
        x7i = cc[a0 + 7 * is + 1]!;
      // E = DFT4(x0, x2, x4, x6)
      let t0r = x0r + x4r,
        t0i = x0i + x4i,
        t1r = x0r - x4r,
        t1i = x0i - x4i;
      let t2r = x2r + x6r,
        t2i = x2i + x6i,
        t3r = x2r - x6r,
        t3i = x2i - x6i;
      let ur = -sgn * t3i,
        ui = sgn * t3r;
      const e0r = t0r + t2r,
        e0i = t0i + t2i,
        e2r = t0r - t2r,
        e2i = t0i - t2i;
      const e1r = t1r + ur,
        e1i = t1i + ui,
        e3r = t1r - ur,
        e3i = t1i - ui;
      // O = DFT4(x1, x3, x5, x7)
      t0r = x1r + x5r;
      t0i = x1i + x5i;
      t1r = x1r - x5r;
      t1i = x1i - x5i;
      t2r = x3r + x7r;
      t2i = x3i + x7i;
      t3r = x3r - x7r;
      t3i = x3i - x7i;
      ur = -sgn * t3i;
      ui = sgn * t3r;
      const q0r = t0r + t2r,
        q0i = t0i + t2i,
        q2r = t0r - t2r,
        q2i = t0i - t2i;
      const q1r = t1r + ur,
        q1i = t1i + ui,
        q3r = t1r - ur,
        q3i = t1i - ui;
      // ω8^j·O_j with ω8 = (1 + sgn·i)/√2
      const w1r = R2 * (q1r - sgn * q1i),
        w1i = R2 * (q1i + sgn * q1r);
      const w2r = -sgn * q2i,
        w2i = sgn * q2r;
      const w3r = R2 * (-q3r - sgn * q3i),
        w3i = R2 * (-q3i + sgn * q3r);
      const o0 = 2 * (i + ido * k);
      ch[o0] = e0r + q0r;
      ch[o0 + 1] = e0i + q0i;
      cmulStore(ch, o0 + so, e1r + w1r, e1i + w1i, tw, 2 * i, sgn);
      cmulStore(ch, o0 + 2 * so, e2r + w2r, e2i + w2i, tw, 2 * i + tj, sgn);
      cmulStore(ch, o0 + 3 * so, e3r + w3r, e3i + w3i, tw, 2 * i + 2 * tj, sgn);
      cmulStore(ch, o0 + 4 * so, e0r - q0r, e0i - q0i, tw, 2 * i + 3 * tj, sgn);
      cmulStore(ch, o0 + 5 * so, e1r - w1r, e1i - w1i, tw, 2 * i + 4 * tj, sgn);
      cmulStore(ch, o0 + 6 * so, e2r - w2r, e2i - w2i, tw, 2 * i + 5 * tj, sgn);
      cmulStore(ch, o0 + 7 * so, e3r - w3r, e3i - w3i, tw, 2 * i + 6 * tj, sgn);
    }
  }
}

/**
 * Generic odd radix: pairs m and ip−m share one cosine and one sine multiply (t = a_m + a_{ip−m},
 * d = a_m − a_{ip−m}), so outputs j and ip−j come from the same two sums: ~ip²/2 multiplies.
 */
function passOdd({ ip, l1, ido, tw, cs }: Pass, cc: Float64Array, ch: Float64Array, sgn: number): void {
  const h = (ip - 1) / 2;
  const so = 2 * ido * l1;
  const tj = 2 * ido;
  const is = 2 * ido;
  const t = new Float64Array(2 * (h + 1));
  const d = new Float64Array(2 * (h + 1));
  const c = cs!;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = 2 * (i + ido * ip * k);
      const r0 = cc[a0]!,
        i0 = cc[a0 + 1]!;
      let sr = r0,
        si = i0;
      for (let m = 1; m <= h; m++) {
        const p = a0 + m * is,
          q = a0 + (ip - m) * is;
        const tr = cc[p]! + cc[q]!,
          ti = cc[p + 1]! + cc[q + 1]!;
        t[2 * m] = tr;
        t[2 * m + 1] = ti;
        d[2 * m] = cc[p]! - cc[q]!;
        d[2 * m + 1] = cc[p + 1]! - cc[q + 1]!;
        sr += tr;
        si += ti;
      }
      const o0 = 2 * (i + ido * k);
      ch[o0] = sr;
      ch[o0 + 1] = si;
      for (let j = 1; j <= h; j++) {
        let ar = r0,
          ai = i0,
          er = 0,
          ei = 0;
        let q = 0; // (j·m) mod ip
        for (let m = 1; m <= h; m++) {
          q += j;
          if (q >= ip) q -= ip;
          const cq = c[2 * q]!,
            sq = sgn * c[2 * q + 1]!;
          ar += cq * t[2 * m]!;
          ai += cq * t[2 * m + 1]!;
          er -= sq * d[2 * m + 1]!;
          ei += sq * d[2 * m]!;
        }
        cmulStore(ch, o0 + j * so, ar + er, ai + ei, tw, 2 * i + (j - 1) * tj, sgn);
        cmulStore(ch, o0 + (ip - j) * so, ar - er, ai - ei, tw, 2 * i + (ip - j - 1) * tj, sgn);
      }
    }
  }
}

const mixedCache = new Map<number, MixedRadixFft>();

/** Cached mixed-radix plan for n (any n ≥ 1; large primes run the O(p²) generic butterfly). */
export function planMixedRadix(n: number): MixedRadixFft {
  checkLength(n);
  let p = mixedCache.get(n);
  if (!p) {
    p = new MixedRadixFft(n);
    mixedCache.set(n, p);
  }
  return p;
}

/** A layout with its defaults filled in (packed problems), each field checked to be a non-negative integer. */
export function layoutOf(
  l: StridedLayout | undefined,
  n: number,
  name: string,
): { offset: number; stride: number; dist: number } {
  const offset = l?.offset ?? 0;
  const stride = l?.stride ?? 1;
  const dist = l?.dist ?? n * stride;
  // Checked one by one (no arrays): small transforms call this twice a call.
  checkIndex(offset, name, 'offset');
  checkIndex(stride, name, 'stride');
  checkIndex(dist, name, 'dist');
  return { offset, stride, dist };
}

function checkIndex(v: number, name: string, k: string): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new ArgumentError(`${name}.${k}`, v, 'a non-negative integer');
}

/** Validate that `batch` problems of n complex elements in layout l fit an array of `len` numbers. */
export function checkFits(
  len: number,
  n: number,
  batch: number,
  l: { offset: number; stride: number; dist: number },
  name: string,
  perElement = 2,
): void {
  if (batch === 0 || n === 0) return;
  const last = l.offset + (n - 1) * l.stride + (batch - 1) * l.dist;
  if (perElement * (last + 1) > len) {
    throw new ArgumentError(
      name,
      len,
      `an array of at least ${perElement * (last + 1)} numbers for ${batch} problem(s) of ${n} with offset ${l.offset}, stride ${l.stride}, dist ${l.dist}`,
    );
  }
}

/**
 * Batched, strided, normalised execution of any plan: gather → transformInPlace → scatter. The work
 * buffer makes float32 I/O, arbitrary strides and in-place use (same layout) all work.
 */
export function executeBatched(
  plan: CpuFftPlan,
  input: Float64Array | Float32Array,
  output: Float64Array | Float32Array,
  options: CpuFftExecOptions = {},
): void {
  const n = plan.n;
  const batch = options.batch ?? 1;
  checkLength(batch, 'batch', 0);
  const inverse = options.inverse ?? false;
  const scale = normScale(n, options.norm, inverse);
  const li = layoutOf(options.input, n, 'input');
  const lo = layoutOf(options.output, n, 'output');
  checkFits(input.length, n, batch, li, 'input');
  checkFits(output.length, n, batch, lo, 'output');
  const contiguousIn = li.stride === 1 && input instanceof Float64Array;
  const work = new Float64Array(2 * n);
  for (let b = 0; b < batch; b++) {
    const ib = li.offset + b * li.dist;
    if (contiguousIn) work.set((input as Float64Array).subarray(2 * ib, 2 * (ib + n)));
    else {
      for (let e = 0; e < n; e++) {
        const s = 2 * (ib + e * li.stride);
        work[2 * e] = input[s]!;
        work[2 * e + 1] = input[s + 1]!;
      }
    }
    plan.transformInPlace(work, 0, inverse, scale);
    const ob = lo.offset + b * lo.dist;
    if (lo.stride === 1) output.set(work, 2 * ob);
    else {
      for (let e = 0; e < n; e++) {
        const s = 2 * (ob + e * lo.stride);
        output[s] = work[2 * e]!;
        output[s + 1] = work[2 * e + 1]!;
      }
    }
  }
}
