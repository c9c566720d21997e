/**
 * Straight-line forward DFT butterflies (e^{−2πi·jk/r}) on vector complex values: radix 2, 4, 8 and any
 * odd radix. The inverse transform is never generated: the engine computes it as conj(FFT(conj x)),
 * folding both conjugations into loads and stores.
 */
import { mulNegI, mulPosI, neg, type Cx, type VecEmitter } from './vector-complex.js';
import { unitRoot } from '../../core/unit-root.js';

const SQRT_HALF = Math.SQRT1_2;

export function radix2(v: VecEmitter, x: readonly Cx[]): Cx[] {
  return [v.cadd(x[0]!, x[1]!), v.csub(x[0]!, x[1]!)];
}

export function radix4(v: VecEmitter, x: readonly Cx[]): Cx[] {
  const a = v.cadd(x[0]!, x[2]!);
  const b = v.csub(x[0]!, x[2]!);
  const c = v.cadd(x[1]!, x[3]!);
  const d = mulNegI(v.csub(x[1]!, x[3]!));
  return [v.cadd(a, c), v.cadd(b, d), v.csub(a, c), v.csub(b, d)];
}

/** x · e^{−2πi·k/8} for k = 1, 2, 3 with two multiplications where possible. */
function mulW8(v: VecEmitter, x: Cx, k: number): Cx {
  if (k === 2) return mulNegI(x);
  if (k === 1) {
    // (re + i·im)(c − i·c) = c(re + im) + i·c(im − re)
    return { re: v.mulConst(v.add(x.re, x.im), SQRT_HALF), im: v.mulConst(v.sub(x.im, x.re), SQRT_HALF) };
  }
  // (re + i·im)(−c − i·c) = c(im − re) − i·c(re + im)
  return { re: v.mulConst(v.sub(x.im, x.re), SQRT_HALF), im: v.mulConst(v.add(x.re, x.im), -SQRT_HALF) };
}

export function radix8(v: VecEmitter, x: readonly Cx[]): Cx[] {
  const a: Cx[] = [];
  const b: Cx[] = [];
  for (let j = 0; j < 4; j++) {
    a.push(v.cadd(x[j]!, x[j + 4]!));
    const d = v.csub(x[j]!, x[j + 4]!);
    b.push(j === 0 ? d : mulW8(v, d, j));
  }
  const even = radix4(v, a);
  const odd = radix4(v, b);
  const y: Cx[] = [];
  for (let k = 0; k < 4; k++) y.push(even[k]!, odd[k]!);
  return y;
}

const negC = (_v: VecEmitter, x: Cx): Cx => ({ re: neg(x.re), im: neg(x.im) });

/** x · e^{−2πi·m/n}, with the multiples of π/4 done by sign folding or two multiplications. */
function mulRoot(v: VecEmitter, x: Cx, m: number, n: number): Cx {
  const mm = ((m % n) + n) % n;
  if ((8 * mm) % n === 0) {
    const k = (8 * mm) / n;
    switch (k) {
      case 0:
        return x;
      case 2:
        return mulNegI(x);
      case 4:
        return negC(v, x);
      case 6:
        return mulPosI(x);
      case 1:
      case 3:
        return mulW8(v, x, k);
      default:
        return negC(v, mulW8(v, x, k - 4));
    }
  }
  const [c, s] = unitRoot(mm, n);
  return v.cmulConst(x, c, -s);
}

/**
 * Composite radix r1·r2 in registers (Cooley–Tukey): r2 DFTs of r1 points over x[j2 + r2·j1], the
 * internal twiddles e^{−2πi·j2·k1/r}, then r1 DFTs of r2 points; output k1 + r1·k2.
 */
export function radixComposite(v: VecEmitter, x: readonly Cx[], r1: number, r2: number): Cx[] {
  const r = r1 * r2;
  const a: Cx[][] = [];
  for (let j2 = 0; j2 < r2; j2++) {
    const col: Cx[] = [];
    for (let j1 = 0; j1 < r1; j1++) col.push(x[j2 + r2 * j1]!);
    a.push(butterfly(v, col).map((t, k1) => mulRoot(v, t, j2 * k1, r)));
  }
  const y: Cx[] = new Array(r);
  for (let k1 = 0; k1 < r1; k1++) {
    const z = butterfly(
      v,
      a.map((col) => col[k1]!),
    );
    z.forEach((t, k2) => (y[k1 + r1 * k2] = t));
  }
  return y;
}

/**
 * Odd radix p by the symmetric pairs t_j = x_j + x_{p−j}, u_j = x_j − x_{p−j}:
 * y_k = x_0 + Σ_j cos(2πjk/p)·t_j − i·Σ_j sin(2πjk/p)·u_j, and y_{p−k} with +i.
 */
export function radixOdd(v: VecEmitter, x: readonly Cx[]): Cx[] {
  const p = x.length;
  const h = (p - 1) / 2;
  const t: Cx[] = [];
  const u: Cx[] = [];
  for (let j = 1; j <= h; j++) {
    t.push(v.cadd(x[j]!, x[p - j]!));
    u.push(v.csub(x[j]!, x[p - j]!));
  }
  const y: Cx[] = new Array(p);
  let y0 = x[0]!;
  for (const tj of t) y0 = v.cadd(y0, tj);
  y[0] = y0;
  for (let k = 1; k <= h; k++) {
    let ar = x[0]!.re;
    let ai = x[0]!.im;
    let br: ReturnType<VecEmitter['add']> | null = null;
    let bi: ReturnType<VecEmitter['add']> | null = null;
    for (let j = 1; j <= h; j++) {
      const [c, s] = unitRoot(j * k, p);
      ar = v.macConst(ar, t[j - 1]!.re, c);
      ai = v.macConst(ai, t[j - 1]!.im, c);
      br = v.macConst(br, u[j - 1]!.re, s);
      bi = v.macConst(bi, u[j - 1]!.im, s);
    }
    // −i·B = (B.im, −B.re)
    y[k] = { re: v.add(ar, bi!), im: v.sub(ai, br!) };
    y[p - k] = { re: v.sub(ar, bi!), im: v.add(ai, br!) };
  }
  return y;
}

export function butterfly(v: VecEmitter, x: readonly Cx[]): Cx[] {
  switch (x.length) {
    case 1:
      return [...x];
    case 2:
      return radix2(v, x);
    case 4:
      return radix4(v, x);
    case 8:
      return radix8(v, x);
    case 16:
      return radixComposite(v, x, 4, 4);
    default:
      if (x.length % 2 === 1) return radixOdd(v, x);
      throw new Error(`no butterfly for radix ${x.length}`);
  }
}
