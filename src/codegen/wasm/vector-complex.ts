/**
 * Complex arithmetic on 128-bit vectors for the CPU engine's generators, with signs folded.
 *
 * A value is a pair of v128 locals (real lanes, imaginary lanes), each with a pending sign, so that the
 * multiplications by ±i and the negations inside butterflies cost no instruction: a pending sign is
 * absorbed by the next add/sub, and only a store materialises it.
 */
import type { Body } from './assembler.js';

export interface Term {
  l: number;
  neg: boolean;
}
export interface Cx {
  re: Term;
  im: Term;
}

export const neg = (t: Term): Term => ({ l: t.l, neg: !t.neg });
/** Multiplication by −i: (re, im) → (im, −re). */
export const mulNegI = (x: Cx): Cx => ({ re: x.im, im: neg(x.re) });
/** Multiplication by +i: (re, im) → (−im, re). */
export const mulPosI = (x: Cx): Cx => ({ re: neg(x.im), im: x.re });

let fusedScope = false;

/**
 * Runs a module's generator with fused multiply-adds on or off, as its recipe's `fma` says: every VecEmitter
 * made inside emits relaxed SIMD's madd/nmadd for a product and a sum. Generators are synchronous, so the
 * setting cannot leak into another module.
 */
export function withFma<T>(on: boolean, generate: () => T): T {
  const was = fusedScope;
  fusedScope = on;
  try {
    return generate();
  } finally {
    fusedScope = was;
  }
}

export class VecEmitter {
  private readonly consts = new Map<number, number>();
  /** Products and sums fused (withFma). */
  readonly fused = fusedScope;
  constructor(
    readonly b: Body,
    /** Bytes per float lane: 4 (f32x4) or 8 (f64x2). */
    readonly e: 4 | 8,
  ) {}
  get lanes(): number {
    return 16 / this.e;
  }
  fresh(): number {
    return this.b.local('v128');
  }
  /** A local holding splat(c), initialised once in the prologue. */
  constant(c: number): number {
    let l = this.consts.get(c);
    if (l === undefined) {
      const local = this.fresh();
      this.b.inPrologue(() => this.b.vconst(this.e, new Array(this.lanes).fill(c)).set(local));
      this.consts.set(c, local);
      l = local;
    }
    return l;
  }
  add(x: Term, y: Term): Term {
    const t = this.fresh();
    if (x.neg === y.neg) {
      this.b.get(x.l).get(y.l).fadd(this.e).set(t);
      return { l: t, neg: x.neg };
    }
    // One of them negated: plain − other.
    const [p, q] = x.neg ? [y, x] : [x, y];
    this.b.get(p.l).get(q.l).fsub(this.e).set(t);
    return { l: t, neg: false };
  }
  sub(x: Term, y: Term): Term {
    return this.add(x, neg(y));
  }
  mul(x: Term, y: Term): Term {
    const t = this.fresh();
    this.b.get(x.l).get(y.l).fmul(this.e).set(t);
    return { l: t, neg: x.neg !== y.neg };
  }
  mulConst(x: Term, c: number): Term {
    if (c === 1) return x;
    if (c === -1) return neg(x);
    const t = this.fresh();
    this.b
      .get(x.l)
      .get(this.constant(Math.abs(c)))
      .fmul(this.e)
      .set(t);
    return { l: t, neg: x.neg !== c < 0 };
  }
  cadd(x: Cx, y: Cx): Cx {
    return { re: this.add(x.re, y.re), im: this.add(x.im, y.im) };
  }
  csub(x: Cx, y: Cx): Cx {
    return { re: this.sub(x.re, y.re), im: this.sub(x.im, y.im) };
  }
  /** p ± x·y in one fused instruction (`plus` picks the sign); the result keeps p's pending sign. */
  private fma(x: Term, y: Term, p: Term, plus: boolean): Term {
    const t = this.fresh();
    // Value: ±P ± X·Y = sp·(P + τ·X·Y) with τ = ±sp·sx·sy, so the instruction sees only plain locals.
    const add = plus !== (p.neg !== (x.neg !== y.neg));
    this.b.get(x.l).get(y.l).get(p.l);
    if (add) this.b.fmadd(this.e);
    else this.b.fnmadd(this.e);
    this.b.set(t);
    return { l: t, neg: p.neg };
  }
  /** x · w for a twiddle w held in two plain locals. */
  cmul(x: Cx, wr: number, wi: number): Cx {
    const r = { l: wr, neg: false };
    const i = { l: wi, neg: false };
    return { re: this.mulAdd2(x.re, r, x.im, i, false), im: this.mulAdd2(x.re, i, x.im, r, true) };
  }
  /** x·y + u·z (`plus`) or x·y − u·z: one product and one fused multiply-add where withFma said so. */
  mulAdd2(x: Term, y: Term, u: Term, z: Term, plus: boolean): Term {
    const p = this.mul(x, y);
    if (this.fused) return this.fma(u, z, p, plus);
    const q = this.mul(u, z);
    return plus ? this.add(p, q) : this.sub(p, q);
  }
  /** acc + x·c for a constant c (acc null: x·c). */
  macConst(acc: Term | null, x: Term, c: number): Term {
    if (acc === null) return this.mulConst(x, c);
    if (!this.fused || c === 1 || c === -1) return this.add(acc, this.mulConst(x, c));
    return this.fma(x, { l: this.constant(Math.abs(c)), neg: c < 0 }, acc, true);
  }
  /** x · (c + i·s) for constants. */
  cmulConst(x: Cx, c: number, s: number): Cx {
    if (this.fused && s !== 0 && c !== 0) {
      return {
        re: this.macConst(this.mulConst(x.re, c), x.im, -s),
        im: this.macConst(this.mulConst(x.re, s), x.im, c),
      };
    }
    if (s === 0) return { re: this.mulConst(x.re, c), im: this.mulConst(x.im, c) };
    if (c === 0) return { re: this.mulConst(x.im, -s), im: this.mulConst(x.re, s) };
    return {
      re: this.sub(this.mulConst(x.re, c), this.mulConst(x.im, s)),
      im: this.add(this.mulConst(x.re, s), this.mulConst(x.im, c)),
    };
  }
  /** Pushes the term's value with its sign applied. */
  push(t: Term): void {
    this.b.get(t.l);
    if (t.neg) this.b.fneg(this.e);
  }
}
