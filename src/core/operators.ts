/**
 * The operators of 000 §5.1.2 over a mixed-radix digit layout.
 *
 * Digit positions are 1-based, t_1 least significant, exactly as the seeds write them. The permutation
 * operators move digits between positions; on a mixed-radix layout a digit takes its radix with it, so
 * an operator maps a layout to a (possibly) new layout, and the index map goes from indices in the old
 * layout to indices in the new one. Index maps use the scatter convention of index-map.ts: the element
 * at t moves to map.apply(t).
 *
 *   Γ_{i,j}   (i ≥ j)  cyclic shift *right* of digits i..j:
 *                      [… t_i t_{i-1} … t_j …] → [… t_j t_i … t_{j+1} …]  (t_j wraps to position i)
 *   Γ^m_{i,j}          Γ_{i,j} m times; Γ^{i-j+1}_{i,j} = 1 (Lemma 3)
 *   Γ_{i,j,k,l} (i ≥ j > k ≥ l)  the same shift over the concatenation of fields i..j and k..l
 *                      (t_l wraps to position i, t_j drops to position k; digits j-1..k+1 stay)
 *   σ (shuffle)        the inverse of Γ with the same parameters (Lemma 4)
 *   ρ_{i,j}            reversal of digits i..j; an involution
 *   B^r_i              not a permutation: the grouping of indices that differ only in digits i..i+r-1
 *                      (r digits; the seeds' radix-2 superscript r = log2 R generalised to "digit count",
 *                      so the group size is the product of those digits' radices)
 */
import { ArgumentError } from '../errors.js';
import {
  type DigitLayout,
  digitStrides,
  layoutSize,
  sameLayout,
  formatLayout,
  checkDigitPosition,
  validateLayout,
} from './digits.js';
import { Grouping } from './grouping.js';
import { IndexMap } from './index-map.js';

/** Γ (op 'G') or σ (op 'S'), one field (i, j) or two fields (i, j, k, l); m repetitions (default 1). */
export interface ShiftTerm {
  readonly op: 'G' | 'S';
  readonly i: number;
  readonly j: number;
  readonly k?: number;
  readonly l?: number;
  readonly m?: number;
}

/** ρ_{i,j}. */
export interface ReversalTerm {
  readonly op: 'R';
  readonly i: number;
  readonly j: number;
}

/** B^r_i (Υ^r_i): a butterfly over digits i..i+r-1 (r defaults to 1). */
export interface ButterflyTerm {
  readonly op: 'B';
  readonly i: number;
  readonly r?: number;
}

export type PermutationTerm = ShiftTerm | ReversalTerm;
export type OperatorTerm = PermutationTerm | ButterflyTerm;

/** A permutation operator instantiated on a layout. */
export interface LayoutMap {
  readonly input: DigitLayout;
  readonly output: DigitLayout;
  readonly map: IndexMap;
}

function checkCount(v: unknown, argument: string, min: number): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new ArgumentError(argument, v, `an integer ≥ ${min}`);
  }
}

/** Validates a term against a layout of n digits (throws ArgumentError naming the bad field). */
export function validateTerm(term: OperatorTerm, n: number): void {
  const t = term as unknown as Record<string, unknown>;
  switch (term.op) {
    case 'B': {
      checkDigitPosition(term.i, n, 'B.i');
      const r = term.r ?? 1;
      checkCount(r, 'B.r', 1);
      if (term.i + r - 1 > n) throw new ArgumentError('B.r', r, `a digit count with i + r - 1 ≤ ${n}`);
      return;
    }
    case 'R':
      checkDigitPosition(term.i, n, 'R.i');
      checkDigitPosition(term.j, n, 'R.j');
      if (term.j > term.i) throw new ArgumentError('R.j', term.j, `j ≤ i = ${term.i}`);
      return;
    case 'G':
    case 'S': {
      checkDigitPosition(term.i, n, `${term.op}.i`);
      checkDigitPosition(term.j, n, `${term.op}.j`);
      if (term.j > term.i) throw new ArgumentError(`${term.op}.j`, term.j, `j ≤ i = ${term.i}`);
      checkCount(term.m ?? 1, `${term.op}.m`, 0);
      if ((term.k === undefined) !== (term.l === undefined)) {
        throw new ArgumentError(`${term.op}.k`, term.k, 'k and l given together (a two-field operator) or neither');
      }
      if (term.k !== undefined && term.l !== undefined) {
        checkDigitPosition(term.k, n, `${term.op}.k`);
        checkDigitPosition(term.l, n, `${term.op}.l`);
        if (term.k >= term.j) throw new ArgumentError(`${term.op}.k`, term.k, `k < j = ${term.j} (disjoint fields)`);
        if (term.l > term.k) throw new ArgumentError(`${term.op}.l`, term.l, `l ≤ k = ${term.k}`);
      }
      return;
    }
    default:
      throw new ArgumentError('op', t['op'], "one of 'G', 'S', 'R', 'B'");
  }
}

/**
 * The digit permutation of a permutation term on n digits: `src[p]` (0-based) is the old position whose
 * digit (and radix) lands at new position p.
 */
export function digitSource(term: PermutationTerm, n: number): number[] {
  validateTerm(term, n);
  const src = Array.from({ length: n }, (_, p) => p);
  if (term.op === 'R') {
    for (let p = term.j; p <= term.i; p++) src[p - 1] = term.i + term.j - p - 1;
    return src;
  }
  // Positions of the (concatenated) field, most significant first, 0-based.
  const field: number[] = [];
  for (let p = term.i; p >= term.j; p--) field.push(p - 1);
  if (term.k !== undefined && term.l !== undefined) for (let p = term.k; p >= term.l; p--) field.push(p - 1);
  const w = field.length;
  const m = term.m ?? 1;
  // A right shift by one takes field[q] from field[q-1]; m shifts take it from field[q-m]; σ goes the other way.
  const shift = (((term.op === 'G' ? m : -m) % w) + w) % w;
  for (let q = 0; q < w; q++) src[field[q]] = field[(q - shift + w) % w];
  return src;
}

/** Does the term keep the digit at (1-based) position i where it is? (Lemma 2's commuting condition.) */
export function leavesDigit(term: PermutationTerm, n: number, i: number): boolean {
  return digitSource(term, n)[i - 1] === i - 1;
}

export function permuteLayout(layout: DigitLayout, src: readonly number[]): number[] {
  return src.map((p) => layout[p]);
}

/** A digit permutation as a LayoutMap: new digit p = old digit src[p]. */
export function digitPermutation(layout: DigitLayout, src: readonly number[]): LayoutMap {
  validateLayout(layout, 'layout');
  const sorted = [...src].sort((a, b) => a - b);
  if (src.length !== layout.length || sorted.some((p, q) => p !== q)) {
    throw new ArgumentError('src', src, `a permutation of 0..${layout.length - 1}`);
  }
  const output = permuteLayout(layout, src);
  const digits: number[] = new Array<number>(src.length);
  const map = IndexMap.fromDigitFunction(layout, output, (d) => {
    for (let p = 0; p < src.length; p++) digits[p] = d[src[p]];
    return digits;
  });
  return { input: [...layout], output, map };
}

export function applyOperator(term: PermutationTerm, layout: DigitLayout): LayoutMap {
  validateLayout(layout, 'layout');
  return digitPermutation(layout, digitSource(term, layout.length));
}

/** "a, then b"; b must start from the layout a ends in. */
export function composeLayoutMaps(a: LayoutMap, b: LayoutMap): LayoutMap {
  if (!sameLayout(a.output, b.input)) {
    throw new ArgumentError('b.input', formatLayout(b.input), `the layout a produces, ${formatLayout(a.output)}`);
  }
  return { input: a.input, output: b.output, map: a.map.compose(b.map) };
}

export function gamma(layout: DigitLayout, i: number, j: number, m = 1): LayoutMap {
  return applyOperator({ op: 'G', i, j, m }, layout);
}

export function sigma(layout: DigitLayout, i: number, j: number, m = 1): LayoutMap {
  return applyOperator({ op: 'S', i, j, m }, layout);
}

export function gamma2(layout: DigitLayout, i: number, j: number, k: number, l: number, m = 1): LayoutMap {
  return applyOperator({ op: 'G', i, j, k, l, m }, layout);
}

export function sigma2(layout: DigitLayout, i: number, j: number, k: number, l: number, m = 1): LayoutMap {
  return applyOperator({ op: 'S', i, j, k, l, m }, layout);
}

export function rho(layout: DigitLayout, i: number, j: number): LayoutMap {
  return applyOperator({ op: 'R', i, j }, layout);
}

/** Group size of B^r_i on a layout: the product of the radices of digits i..i+r-1. */
export function butterflyRadix(layout: DigitLayout, i: number, r = 1): number {
  validateLayout(layout, 'layout');
  validateTerm({ op: 'B', i, r }, layout.length);
  let radix = 1;
  for (let p = i; p < i + r; p++) radix *= layout[p - 1];
  return radix;
}

/**
 * B^r_i as a grouping: indices that differ only in digits i..i+r-1, each group ordered by the value of
 * that digit field (the element number k a radix kernel sees).
 */
export function butterfly(layout: DigitLayout, i: number, r = 1): Grouping {
  const radix = butterflyRadix(layout, i, r);
  const size = layoutSize(layout);
  const stride = digitStrides(layout)[i - 1];
  const highCount = size / (stride * radix);
  const groups: number[][] = [];
  for (let high = 0; high < highCount; high++) {
    for (let low = 0; low < stride; low++) {
      const g: number[] = [];
      for (let f = 0; f < radix; f++) g.push(low + stride * (f + radix * high));
      groups.push(g);
    }
  }
  return Grouping.fromGroups(size, groups);
}
