/**
 * One Stockham DIF pass of the CPU engine as a WebAssembly SIMD function, and the vector loads and stores
 * its first and last passes use to read and write the caller's layouts (src/codegen/wasm/fft-engine.ts and
 * fft-four-step.ts drive these passes).
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';
import { butterfly } from './fft-codelets.js';
import { EVEN_F32, HI_64, HI_F32, LO_64, LO_F32, ODD_F32 } from './lane-shuffles.js';
import { VecEmitter, type Cx, type Term } from './vector-complex.js';
import { unitRoot } from '../../core/unit-root.js';
import type { CpuFftPass } from '../../planner/cpu-fft.js';

/** How a pass reads its input or writes its output. */
export type Io =
  | { kind: 'split' }
  // W consecutive complex values are one vector element: a lane-split problem, or W adjacent columns (four-step)
  // whose elements lie `unit` bytes apart (default 32, packed).
  | { kind: 'interleaved'; conj: boolean; unit?: number }
  | { kind: 'gather' | 'scatter'; conj: boolean; laneStride: number }; // lane-batch: lane j is problem j

const INTERLEAVE_F32 = { lo: LO_F32, hi: HI_F32 };
const EVEN_ODD_F32 = { even: EVEN_F32, odd: ODD_F32 };
const LOW_HIGH_64 = { lo: LO_64, hi: HI_64 };

export class PassWriter {
  readonly v: VecEmitter;
  private sPos = -1;
  private sNeg = -1;
  constructor(
    readonly b: Body,
    readonly e: 4 | 8,
    /** Index of the scale parameter. */
    readonly scaleParam: number,
  ) {
    this.v = new VecEmitter(b, e);
  }
  private scaleLocals(): void {
    if (this.sPos >= 0) return;
    this.sPos = this.v.fresh();
    this.sNeg = this.v.fresh();
    this.b.inPrologue(() => {
      this.b.get(this.scaleParam).splat(this.e).tee(this.sPos).fneg(this.e).set(this.sNeg);
    });
  }
  private shuffle(x: number, y: number, bytes: readonly number[]): number {
    const t = this.v.fresh();
    this.b.get(x).get(y).shuffle(bytes).set(t);
    return t;
  }
  /** Splits two vectors of interleaved (re, im) pairs into real lanes and imaginary lanes. */
  private deinterleave(a: number, c: number, conj: boolean): Cx {
    const m = this.e === 4 ? { lo: EVEN_ODD_F32.even, hi: EVEN_ODD_F32.odd } : LOW_HIGH_64;
    return { re: { l: this.shuffle(a, c, m.lo), neg: false }, im: { l: this.shuffle(a, c, m.hi), neg: conj } };
  }
  load(io: Io, addr: number, off: number): Cx {
    const b = this.b;
    if (io.kind === 'split') {
      const re = this.v.fresh();
      const im = this.v.fresh();
      b.get(addr).v128Load(off).set(re);
      b.get(addr)
        .v128Load(off + 16)
        .set(im);
      return { re: { l: re, neg: false }, im: { l: im, neg: false } };
    }
    const a = this.v.fresh();
    const c = this.v.fresh();
    if (io.kind === 'interleaved') {
      b.get(addr).v128Load(off).set(a);
      b.get(addr)
        .v128Load(off + 16)
        .set(c);
    } else if (io.kind === 'gather' && this.e === 8) {
      b.get(addr).v128Load(off).set(a);
      b.get(addr)
        .v128Load(off + io.laneStride)
        .set(c);
    } else if (io.kind === 'gather') {
      const L = io.laneStride;
      b.get(addr).load64Zero(off).set(a);
      b.get(addr)
        .get(a)
        .load64Lane(off + L, 1)
        .set(a);
      b.get(addr)
        .load64Zero(off + 2 * L)
        .set(c);
      b.get(addr)
        .get(c)
        .load64Lane(off + 3 * L, 1)
        .set(c);
    } else throw new Error(`cannot load with ${io.kind}`);
    return this.deinterleave(a, c, io.conj);
  }
  /** Value of a term times the scale (negated when `negate`), materialised. */
  private scaled(t: Term, negate: boolean): number {
    this.scaleLocals();
    const r = this.v.fresh();
    this.b
      .get(t.l)
      .get(t.neg !== negate ? this.sNeg : this.sPos)
      .fmul(this.e)
      .set(r);
    return r;
  }
  store(io: Io, addr: number, off: number, y: Cx): void {
    const b = this.b;
    if (io.kind === 'split') {
      b.get(addr);
      this.v.push(y.re);
      b.v128Store(off);
      b.get(addr);
      this.v.push(y.im);
      b.v128Store(off + 16);
      return;
    }
    if (io.kind === 'gather') throw new Error('cannot store with gather');
    const re = this.scaled(y.re, false);
    const im = this.scaled(y.im, io.conj);
    const m = this.e === 4 ? INTERLEAVE_F32 : LOW_HIGH_64;
    const lo = this.shuffle(re, im, m.lo);
    const hi = this.shuffle(re, im, m.hi);
    if (io.kind === 'interleaved' || this.e === 8) {
      const L = io.kind === 'interleaved' ? 16 : io.laneStride;
      b.get(addr).get(lo).v128Store(off);
      b.get(addr)
        .get(hi)
        .v128Store(off + L);
      return;
    }
    const L = io.laneStride;
    b.get(addr).get(lo).store64Lane(off, 0);
    b.get(addr)
      .get(lo)
      .store64Lane(off + L, 1);
    b.get(addr)
      .get(hi)
      .store64Lane(off + 2 * L, 0);
    b.get(addr)
      .get(hi)
      .store64Lane(off + 3 * L, 1);
  }
  /** Transposes W vectors of W lanes (x[q] lane l → out[l] lane q), materialising pending signs. */
  transpose(x: readonly Term[]): Term[] {
    const mat = x.map((t) => {
      if (!t.neg) return t.l;
      const r = this.v.fresh();
      this.b.get(t.l).fneg(this.e).set(r);
      return r;
    });
    if (this.e === 8) {
      return [this.shuffle(mat[0]!, mat[1]!, LOW_HIGH_64.lo), this.shuffle(mat[0]!, mat[1]!, LOW_HIGH_64.hi)].map(
        (l) => ({ l, neg: false }),
      );
    }
    const t0 = this.shuffle(mat[0]!, mat[1]!, INTERLEAVE_F32.lo);
    const t1 = this.shuffle(mat[0]!, mat[1]!, INTERLEAVE_F32.hi);
    const t2 = this.shuffle(mat[2]!, mat[3]!, INTERLEAVE_F32.lo);
    const t3 = this.shuffle(mat[2]!, mat[3]!, INTERLEAVE_F32.hi);
    return [
      this.shuffle(t0, t2, LOW_HIGH_64.lo),
      this.shuffle(t0, t2, LOW_HIGH_64.hi),
      this.shuffle(t1, t3, LOW_HIGH_64.lo),
      this.shuffle(t1, t3, LOW_HIGH_64.hi),
    ].map((l) => ({ l, neg: false }));
  }
}

export const I32 = (n: number): ValType[] => new Array<ValType>(n).fill('i32');

/** Bytes per element index of a buffer read or written with `io`. */
export function unitOf(io: Io, e: 4 | 8): number {
  if (io.kind === 'interleaved') return io.unit ?? 32;
  return io.kind === 'gather' || io.kind === 'scatter' ? 2 * e : 32;
}

/**
 * The loops every Stockham pass shares: k over l1 outermost, i over ido innermost (both buffers walked
 * contiguously, `uIn` / `uOut` bytes a step, as FFTPACK does; the twiddles reloaded per i from a table read in
 * order), with `inB`, `outB`, `twB` at (i, k)'s input, output and twiddles when `body` runs. Parameters 0, 1, 2
 * are src, dst and tw.
 */
function emitPassLoops(
  b: Body,
  pass: CpuFftPass,
  e: 4 | 8,
  [uIn, uOut]: [number, number],
  body: (at: { inB: number; outB: number; twB: number }) => void,
): void {
  const { radix: r, l1, ido } = pass;
  const [src, dst, tw] = [0, 1, 2];
  const inB = b.local('i32'),
    outB = b.local('i32'),
    k = b.local('i32'),
    i = b.local('i32'),
    twB = b.local('i32');
  if (l1 > 1) {
    b.i32(l1).set(k);
    b.loop();
  }
  b.get(src).set(inB);
  b.get(dst).set(outB);
  b.get(tw).set(twB);
  if (ido > 1) {
    b.i32(ido).set(i);
    b.loop();
  }
  body({ inB, outB, twB });
  if (ido > 1) {
    b.get(inB).i32(uIn).add().set(inB);
    b.get(outB).i32(uOut).add().set(outB);
    b.get(twB)
      .i32(2 * (r - 1) * e)
      .add()
      .set(twB);
    b.get(i).i32(1).sub().tee(i).brIf(0);
    b.end();
  }
  if (l1 > 1) {
    b.get(src)
      .i32(uIn * ido * r)
      .add()
      .set(src);
    b.get(dst)
      .i32(uOut * ido)
      .add()
      .set(dst);
    b.get(k).i32(1).sub().tee(k).brIf(0);
    b.end();
  }
}

/**
 * One Stockham DIF pass (see src/backends/cpu/fft-mixed-radix.ts for the index maps):
 * reads x(i, m, k) = in[i + ido·(m + r·k)], butterflies over m, multiplies output j by W^{j·i}_{r·ido},
 * writes y(i, k, j) = out[i + ido·(k + l1·j)]. Twiddles: per i, (r − 1) complex scalars, splatted on load.
 */
export function passFunction(pass: CpuFftPass, e: 4 | 8, inIo: Io, outIo: Io, scaleType: ValType): WasmFunction {
  const params: ValType[] = [...I32(3), scaleType];
  const b = new Body(params);
  const w = new PassWriter(b, e, 3);
  const { radix: r, l1, ido } = pass;
  const uIn = unitOf(inIo, e);
  const uOut = unitOf(outIo, e);
  emitPassLoops(b, pass, e, [uIn, uOut], ({ inB, outB, twB }) => {
    const wr: number[] = [];
    const wi: number[] = [];
    if (ido > 1) {
      for (let j = 1; j < r; j++) {
        wr[j - 1] = w.v.fresh();
        wi[j - 1] = w.v.fresh();
        b.get(twB)
          .loadSplat(e, 2 * (j - 1) * e)
          .set(wr[j - 1]!);
        b.get(twB)
          .loadSplat(e, (2 * (j - 1) + 1) * e)
          .set(wi[j - 1]!);
      }
    }
    const x: Cx[] = [];
    for (let m = 0; m < r; m++) x.push(w.load(inIo, inB, uIn * ido * m));
    const y = butterfly(w.v, x);
    for (let j = 0; j < r; j++) {
      const yj = ido > 1 && j > 0 ? w.v.cmul(y[j]!, wr[j - 1]!, wi[j - 1]!) : y[j]!;
      w.store(outIo, outB, uOut * ido * l1 * j, yj);
    }
  });
  return { params, body: b };
}

export function passTwiddles(pass: CpuFftPass): Float64Array {
  const r = pass.radix;
  const perI = pass.ido === 1 ? 0 : 2 * (r - 1) * pass.ido;
  const out = new Float64Array(perI + (pass.generic ? 2 * ((r - 1) / 2) ** 2 : 0));
  if (pass.generic) genericCoefficients(r, out.subarray(perI));
  if (pass.ido === 1) return out;
  const len = r * pass.ido;
  for (let i = 0, p = 0; i < pass.ido; i++) {
    for (let j = 1; j < r; j++, p += 2) {
      const [c, s] = unitRoot(j * i, len);
      out[p] = c;
      out[p + 1] = -s;
    }
  }
  return out;
}

/**
 * Emits `calls` (pass functions) in turn over one problem: the first reads the local `first`, each later one
 * reads what the one before wrote, the passes alternate between the two halves of a work area (locals `work`,
 * `work2`), and the last writes the local `target` (or a work half where it is null). `twOffsets[t]` is pass t's
 * table offset from the local `tw`; `scale` pushes its scale argument. Returns the local holding the output.
 */
export function emitPassChain(
  b: Body,
  calls: readonly number[],
  o: {
    first: number;
    target: number | null;
    work: number;
    work2: number;
    tw: number;
    twOffsets: readonly number[];
    scale: (b: Body) => void;
    /** Pushes the scratch address of the passes marked in `generic` (genericPassFunction's last parameter). */
    scratch?: { generic: readonly boolean[]; push: (b: Body) => void };
  },
): number {
  let cur = o.first;
  let other = o.work;
  calls.forEach((c, t) => {
    const dest = t === calls.length - 1 && o.target !== null ? o.target : other;
    b.get(cur).get(dest).get(o.tw).i32(o.twOffsets[t]!).add();
    o.scale(b);
    if (o.scratch?.generic[t]) o.scratch.push(b);
    b.call(c);
    [cur, other] = [dest, cur === o.first ? o.work2 : cur];
  });
  return cur;
}

/** The generic pass's table after the per-i twiddles: [cos, sin](2π·j·k/p) for k = 1 … h, then j = 1 … h. */
function genericCoefficients(p: number, out: Float64Array): void {
  const h = (p - 1) / 2;
  for (let k = 1, at = 0; k <= h; k++)
    for (let j = 1; j <= h; j++, at += 2) {
      const [c, s] = unitRoot(j * k, p);
      out[at] = c;
      out[at + 1] = s;
    }
}

/** Bytes of scratch a generic pass of radix p needs: its (p − 1)/2 pairs t_j, u_j as split vectors. */
export const genericScratchBytes = (p: number): number => 32 * (p - 1);

/**
 * A Stockham pass of a large odd prime radix p (pass.generic) as loops instead of a straight-line codelet, whose
 * ~p² live values would spill: the symmetric pairs t_j = x_j + x_{p−j}, u_j = x_j − x_{p−j} go to `scratch` (an
 * extra i32 parameter, after the scale), then for each k ≤ (p − 1)/2 one loop over j accumulates
 * A = x_0 + Σ cos(2πjk/p)·t_j and B = Σ sin(2πjk/p)·u_j in four vectors from a table of coefficients, and
 * y_k = A − i·B, y_{p−k} = A + i·B are twiddled and stored as passFunction's are. Same maps and twiddles as
 * passFunction; the coefficients follow the per-i twiddles in the pass's table (passTwiddles).
 */
export function genericPassFunction(pass: CpuFftPass, e: 4 | 8, inIo: Io, outIo: Io, scaleType: ValType): WasmFunction {
  const params: ValType[] = [...I32(3), scaleType, 'i32'];
  const b = new Body(params);
  const w = new PassWriter(b, e, 3);
  const v = w.v;
  const { radix: p, l1, ido } = pass;
  const h = (p - 1) / 2;
  const uIn = unitOf(inIo, e);
  const uOut = unitOf(outIo, e);
  const [tw, scratch] = [2, 4];
  const slot = uOut * ido * l1;
  const coefOff = ido > 1 ? 2 * (p - 1) * ido * e : 0;
  const kk = b.local('i32'),
    jj = b.local('i32'),
    cp = b.local('i32'),
    sp = b.local('i32'),
    oK = b.local('i32'),
    oM = b.local('i32'),
    tK = b.local('i32'),
    tM = b.local('i32');
  const [ar, ai, br, bi, x0r, x0i, c, sn] = Array.from({ length: 8 }, () => v.fresh());
  const zero = v.fresh();
  b.inPrologue(() => b.vconst(e, new Array(16 / e).fill(0)).set(zero));
  const plain = (t: Term): number => {
    if (!t.neg) return t.l;
    const r = v.fresh();
    b.get(t.l).fneg(e).set(r);
    return r;
  };
  /** acc += coef · [sp + off] */
  const mac = (acc: number, coef: number, off: number): void => {
    if (v.fused) b.get(coef).get(sp).v128Load(off).get(acc).fmadd(e).set(acc);
    else b.get(acc).get(coef).get(sp).v128Load(off).fmul(e).fadd(e).set(acc);
  };
  const body = ({ inB, outB, twB }: { inB: number; outB: number; twB: number }): void => {
    // The pairs to scratch, y_0 = x_0 + Σ t_j to its slot.
    const x0 = w.load(inIo, inB, 0);
    b.get(plain(x0.re)).set(x0r);
    b.get(plain(x0.im)).set(x0i);
    let y0: Cx = { re: { l: x0r, neg: false }, im: { l: x0i, neg: false } };
    for (let j = 1; j <= h; j++) {
      const xa = w.load(inIo, inB, uIn * ido * j);
      const xb = w.load(inIo, inB, uIn * ido * (p - j));
      const t = v.cadd(xa, xb);
      const u = v.csub(xa, xb);
      y0 = v.cadd(y0, t);
      [t.re, t.im, u.re, u.im].forEach((x, q) => {
        b.get(scratch);
        v.push(x);
        b.v128Store(64 * (j - 1) + 16 * q);
      });
    }
    w.store(outIo, outB, 0, y0);
    // Outputs k and p − k, k = 1 … h.
    b.get(tw).i32(coefOff).add().set(cp);
    b.get(outB).i32(slot).add().set(oK);
    b.get(outB)
      .i32(slot * (p - 1))
      .add()
      .set(oM);
    if (ido > 1) {
      b.get(twB).set(tK);
      b.get(twB)
        .i32(2 * (p - 2) * e)
        .add()
        .set(tM);
    }
    b.i32(h).set(kk);
    b.loop();
    b.get(x0r).set(ar);
    b.get(x0i).set(ai);
    b.get(zero).set(br);
    b.get(zero).set(bi);
    b.get(scratch).set(sp);
    b.i32(h).set(jj);
    b.loop();
    b.get(cp).loadSplat(e, 0).set(c);
    b.get(cp).loadSplat(e, e).set(sn);
    mac(ar, c, 0);
    mac(ai, c, 16);
    mac(br, sn, 32);
    mac(bi, sn, 48);
    b.get(cp)
      .i32(2 * e)
      .add()
      .set(cp);
    b.get(sp).i32(64).add().set(sp);
    b.get(jj).i32(1).sub().tee(jj).brIf(0);
    b.end();
    const T = (l: number, neg = false): Term => ({ l, neg });
    let yk: Cx = { re: v.add(T(ar), T(bi)), im: v.sub(T(ai), T(br)) };
    let ym: Cx = { re: v.sub(T(ar), T(bi)), im: v.add(T(ai), T(br)) };
    if (ido > 1) {
      const twiddled = (y: Cx, at: number): Cx => {
        const wr = v.fresh(),
          wi = v.fresh();
        b.get(at).loadSplat(e, 0).set(wr);
        b.get(at).loadSplat(e, e).set(wi);
        return v.cmul(y, wr, wi);
      };
      yk = twiddled(yk, tK);
      ym = twiddled(ym, tM);
    }
    w.store(outIo, oK, 0, yk);
    w.store(outIo, oM, 0, ym);
    b.get(oK).i32(slot).add().set(oK);
    b.get(oM).i32(slot).sub().set(oM);
    if (ido > 1) {
      b.get(tK)
        .i32(2 * e)
        .add()
        .set(tK);
      b.get(tM)
        .i32(2 * e)
        .sub()
        .set(tM);
    }
    b.get(kk).i32(1).sub().tee(kk).brIf(0);
    b.end();
  };
  emitPassLoops(b, pass, e, [uIn, uOut], body);
  return { params, body: b };
}
