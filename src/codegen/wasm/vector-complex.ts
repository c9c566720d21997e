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

export class VecEmitter {
  private readonly consts = new Map<number, number>();
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
  /** x · w for a twiddle w held in two plain locals. */
  cmul(x: Cx, wr: number, wi: number): Cx {
    const r = { l: wr, neg: false };
    const i = { l: wi, neg: false };
    return {
      re: this.sub(this.mul(x.re, r), this.mul(x.im, i)),
      im: this.add(this.mul(x.re, i), this.mul(x.im, r)),
    };
  }
  /** x · (c + i·s) for constants. */
  cmulConst(x: Cx, c: number, s: number): Cx {
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
