/**
 * CPU engine code generator: a lane-split or lane-batch recipe (src/planner/cpu-fft.ts) → one
 * WebAssembly SIMD module with two exports, `fwd` and `inv`:
 *
 *   fwd/inv(in, out, work, tw, count, scale)
 *
 * transforms `count` problems (lane-split) or groups of W problems (lane-batch) of interleaved complex
 * data at `in` into `out`, multiplied by `scale`; `in` is only read (so engine buffers keep their input),
 * `work` holds two problems' worth of vectors (the passes' ping-pong), `tw` is where the caller wrote
 * `twiddles`. The inverse is conj(FFT(conj x)), with both conjugations folded into the first load and the
 * last store, so the passes are shared.
 *
 * Inside the passes data is "split vector" layout: element e is 32 bytes at 32·e, the real lanes then
 * the imaginary lanes. Every address offset is a compile-time constant in the memarg, and loops run
 * over pointers.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';
import { butterfly } from './fft-codelets.js';
import { EVEN_F32, HI_64, HI_F32, LO_64, LO_F32, ODD_F32 } from './lane-shuffles.js';
import { r2cPostFunction, r2cTwiddles } from './rfft-post.js';
import { c2rPreFunction } from './irfft-pre.js';
import { pack2Function, split2Function } from './rfft-pairs.js';
import { dct2FusedPostFunction, dct2PostFunction, dct2PreFunction, dct2Twiddles } from './dct2-makhoul.js';
import { dct3PostFunction, dct3PreFunction, dct3Twiddles } from './dct3-makhoul.js';
import { cmulFunction } from './pointwise.js';
import { VecEmitter, type Cx, type Term } from './vector-complex.js';
import { unitRoot } from '../../core/unit-root.js';
import type { CpuEngineFftRecipe, CpuFftPass } from '../../planner/cpu-fft.js';

type LaneRecipe = Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' }>;

export interface EngineModule {
  bytes: Uint8Array;
  /** Twiddle values (in the recipe's precision) to write at the `tw` address. */
  twiddles: Float64Array;
  /** Bytes of one problem (lane-split) or one group of W problems (lane-batch) of interleaved complex data. */
  slotBytes: number;
  /** Problems per `count` unit: 1 (lane-split) or W (lane-batch). */
  problemsPerSlot: number;
  /** Bytes the `work` buffer needs. */
  workBytes: number;
  /** Byte offset (from `tw`) of the real post-processing's table, when the recipe has `realPost`. */
  r2cTwiddleOffset?: number;
  /** Byte offset (from `tw`) of the DCT-II post-rotation's table, when the recipe has `dct2`. */
  dct2TwiddleOffset?: number;
  /** Byte offset (from `tw`) of the DCT-III pre-rotation's table, when the recipe has `dct2`. */
  dct3TwiddleOffset?: number;
}

/** How a pass reads its input or writes its output. */
type Io =
  | { kind: 'split' }
  | { kind: 'interleaved'; conj: boolean } // lane-split: W consecutive complex values are one vector element
  | { kind: 'gather' | 'scatter'; conj: boolean; laneStride: number }; // lane-batch: lane j is problem j

const INTERLEAVE_F32 = { lo: LO_F32, hi: HI_F32 };
const EVEN_ODD_F32 = { even: EVEN_F32, odd: ODD_F32 };
const LOW_HIGH_64 = { lo: LO_64, hi: HI_64 };

class PassWriter {
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

const I32 = (n: number): ValType[] => new Array<ValType>(n).fill('i32');

/** Bytes per element index of a buffer read or written with `io`. */
function unitOf(io: Io, e: 4 | 8): number {
  return io.kind === 'gather' || io.kind === 'scatter' ? 2 * e : 32;
}

/**
 * One Stockham DIF pass (see src/backends/cpu/fft-mixed-radix.ts for the index maps):
 * reads x(i, m, k) = in[i + ido·(m + r·k)], butterflies over m, multiplies output j by W^{j·i}_{r·ido},
 * writes y(i, k, j) = out[i + ido·(k + l1·j)]. Twiddles: per i, (r − 1) complex scalars, splatted on load.
 */
function passFunction(pass: CpuFftPass, e: 4 | 8, inIo: Io, outIo: Io, scaleType: ValType): WasmFunction {
  const params: ValType[] = [...I32(3), scaleType];
  const b = new Body(params);
  const w = new PassWriter(b, e, 3);
  const { radix: r, l1, ido } = pass;
  const uIn = unitOf(inIo, e);
  const uOut = unitOf(outIo, e);
  const [src, dst, tw] = [0, 1, 2];
  const inB = b.local('i32');
  const outB = b.local('i32');
  const k = b.local('i32');
  const i = b.local('i32');
  const twB = b.local('i32');
  const wr: number[] = [];
  const wi: number[] = [];
  const body = (): void => {
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
  };
  // Loop order: i innermost walks both buffers contiguously (32 bytes a step), as FFTPACK does; the
  // twiddles are reloaded per i, from a table that is itself read in order.
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
  body();
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
  return { params, body: b };
}

/**
 * Lane-split finish: Y[k2] (lane l = sub-problem l) · w_n^{l·k2}, W×W transposes, then the W-point DFT
 * across the former lanes: X[k2 + n2·k1] = Σ_l w_W^{l·k1} · (w_n^{l·k2} Y_l[k2]). Groups of W
 * consecutive k2; when W ∤ n2 the last group overlaps the one before (it rewrites equal values).
 */
function combineFunction(n2: number, e: 4 | 8, conj: boolean, scaleType: ValType): WasmFunction {
  const params: ValType[] = [...I32(3), scaleType];
  const b = new Body(params);
  const w = new PassWriter(b, e, 3);
  const W = 16 / e;
  const cb = 2 * e;
  const [src, dst, tw] = [0, 1, 2];
  const out: Io = { kind: 'interleaved', conj };
  const group = (s: number, d: number, t: number, off: number, dOff: number): void => {
    const xs: Cx[] = [];
    for (let q = 0; q < W; q++) {
      const y = w.load({ kind: 'split' }, s, off + 32 * q);
      const tr = w.v.fresh();
      const ti = w.v.fresh();
      b.get(t)
        .v128Load(off + 32 * q)
        .set(tr);
      b.get(t)
        .v128Load(off + 32 * q + 16)
        .set(ti);
      xs.push(w.v.cmul(y, tr, ti));
    }
    const re = w.transpose(xs.map((x) => x.re));
    const im = w.transpose(xs.map((x) => x.im));
    const z = butterfly(
      w.v,
      re.map((r, l) => ({ re: r, im: im[l]! })),
    );
    for (let k1 = 0; k1 < W; k1++) w.store(out, d, dOff + cb * n2 * k1, z[k1]!);
  };
  const groups = Math.floor(n2 / W);
  const g = b.local('i32');
  b.i32(groups).set(g);
  // The tail group reads from the original pointers, so keep copies.
  const s0 = b.local('i32');
  const d0 = b.local('i32');
  const t0 = b.local('i32');
  b.get(src).set(s0).get(dst).set(d0).get(tw).set(t0);
  b.loop();
  group(src, dst, tw, 0, 0);
  b.get(src)
    .i32(32 * W)
    .add()
    .set(src);
  b.get(tw)
    .i32(32 * W)
    .add()
    .set(tw);
  b.get(dst)
    .i32(cb * W)
    .add()
    .set(dst);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  if (n2 % W !== 0) group(s0, d0, t0, 32 * (n2 - W), cb * (n2 - W));
  return { params, body: b };
}

function passTwiddles(pass: CpuFftPass): Float64Array {
  if (pass.ido === 1) return new Float64Array(0);
  const r = pass.radix;
  const out = new Float64Array(2 * (r - 1) * pass.ido);
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

function combineTwiddles(n: number, n2: number, W: number): Float64Array {
  const out = new Float64Array(2 * W * n2);
  for (let k2 = 0; k2 < n2; k2++) {
    for (let l = 0; l < W; l++) {
      const [c, s] = unitRoot(l * k2, n);
      out[2 * W * k2 + l] = c;
      out[2 * W * k2 + W + l] = -s;
    }
  }
  return out;
}

/** Concatenates tables, each starting 32-byte aligned; returns the values and each table's byte offset. */
function layTables(tables: readonly Float64Array[], e: number): { values: Float64Array; offsets: number[] } {
  const align = 32 / e;
  const offsets: number[] = [];
  let len = 0;
  for (const t of tables) {
    offsets.push(len * e);
    len = Math.ceil((len + t.length) / align) * align;
  }
  const values = new Float64Array(len);
  tables.forEach((t, i) => values.set(t, offsets[i]! / e));
  return { values, offsets };
}

/** `sharedMemory`: the module imports a shared memory (engine buffers that worker threads transform in place). */
export function generateEngineFft(recipe: LaneRecipe, sharedMemory = false): EngineModule {
  const e: 4 | 8 = recipe.precision === 'f32' ? 4 : 8;
  const W = recipe.lanes;
  const cb = 2 * e;
  const scaleType: ValType = e === 4 ? 'f32' : 'f64';
  const split = recipe.kind === 'lane-split';
  const n = recipe.n;
  const L = recipe.laneLength;
  const passes = recipe.passes;
  const slotBytes = split ? n * cb : W * n * cb;
  // Twiddle tables: one per pass, the combine's, the real post-processing's.
  const tables = passes.map(passTwiddles);
  tables.push(split ? combineTwiddles(n, L, W) : new Float64Array(0));
  tables.push(recipe.realPost ? r2cTwiddles(2 * n) : new Float64Array(0));
  // The real length: twice the complex one for the half-length path, the same for odd pairs.
  const realLength = recipe.realPairs ? n : 2 * n;
  // DCT-II for both real paths; DCT-III (the inverse) only around the half-length one.
  const dct3 = recipe.dct2 && recipe.realPost;
  tables.push(recipe.dct2 ? dct2Twiddles(realLength) : new Float64Array(0));
  tables.push(dct3 ? dct3Twiddles(2 * n) : new Float64Array(0));
  const { values: tw, offsets } = layTables(tables, e);
  const twOff = offsets.slice(0, passes.length);
  const combineOff = offsets[passes.length]!;

  const funcs: WasmFunction[] = [];
  const fnIndex = new Map<string, number>();
  const fn = (key: string, make: () => WasmFunction): number => {
    let i = fnIndex.get(key);
    if (i === undefined) {
      i = funcs.push(make()) - 1;
      fnIndex.set(key, i);
    }
    return i;
  };
  const laneStride = n * cb;
  const drivers: WasmFunction[] = [];
  for (const conj of [false, true]) {
    const inFirst: Io = split ? { kind: 'interleaved', conj } : { kind: 'gather', conj, laneStride };
    const outLast: Io = split ? { kind: 'split' } : { kind: 'scatter', conj, laneStride };
    const calls = passes.map((p, t) => {
      const inIo: Io = t === 0 ? inFirst : { kind: 'split' };
      const outIo: Io = t === passes.length - 1 ? outLast : { kind: 'split' };
      const key = `${p.radix}/${p.l1}/${p.ido}/${JSON.stringify(inIo)}/${JSON.stringify(outIo)}`;
      return fn(key, () => passFunction(p, e, inIo, outIo, scaleType));
    });
    const combine = split ? fn(`combine/${conj}`, () => combineFunction(L, e, conj, scaleType)) : -1;
    // Driver: params in, out, work, tw, count, scale.
    const params: ValType[] = [...I32(5), scaleType];
    const b = new Body(params);
    const [inP, outP, work, twP, count, scale] = [0, 1, 2, 3, 4, 5];
    b.loop();
    // Buffers: pass t reads `cur` and writes `other`; after the first pass the two halves of `work` take turns.
    const work2 = b.local('i32');
    b.inPrologue(() =>
      b
        .get(work)
        .i32(32 * L)
        .add()
        .set(work2),
    );
    let cur = inP;
    let other = work;
    passes.forEach((_, t) => {
      const last = t === passes.length - 1;
      const dest = last && !split ? outP : other;
      b.get(cur).get(dest).get(twP).i32(twOff[t]!).add().get(scale).call(calls[t]!);
      if (dest !== outP) [cur, other] = [dest, cur === inP ? work2 : cur];
    });
    if (split) b.get(cur).get(outP).get(twP).i32(combineOff).add().get(scale).call(combine);
    b.get(inP).i32(slotBytes).add().set(inP);
    b.get(outP).i32(slotBytes).add().set(outP);
    b.get(count).i32(1).sub().tee(count).brIf(0);
    b.end();
    drivers.push({ params, body: b, export: conj ? 'inv' : 'fwd' });
  }
  let r2cTwiddleOffset: number | undefined;
  if (recipe.realPost) {
    r2cTwiddleOffset = offsets[passes.length + 1]!;
    drivers.push(r2cPostFunction(2 * n, e), c2rPreFunction(2 * n, e));
  }
  if (recipe.realPairs) drivers.push(pack2Function(n, e), split2Function(n, e));
  if (recipe.pointwise) drivers.push(cmulFunction(e));
  let dct2TwiddleOffset: number | undefined;
  let dct3TwiddleOffset: number | undefined;
  if (recipe.dct2) {
    dct2TwiddleOffset = offsets[passes.length + 2]!;
    drivers.push(dct2PreFunction(realLength, e), dct2PostFunction(realLength, e));
    if (recipe.realPost) drivers.push(dct2FusedPostFunction(realLength, e));
  }
  if (dct3) {
    dct3TwiddleOffset = offsets[passes.length + 3]!;
    drivers.push(dct3PreFunction(2 * n, e), dct3PostFunction(2 * n, e));
  }
  const all = funcs.concat(drivers);
  const bytes = assembleModule(all, { initialPages: 1, maxPages: 65536, shared: sharedMemory });
  return {
    bytes,
    twiddles: tw,
    slotBytes,
    problemsPerSlot: split ? 1 : W,
    workBytes: 64 * L,
    r2cTwiddleOffset,
    dct2TwiddleOffset,
    dct3TwiddleOffset,
  };
}
