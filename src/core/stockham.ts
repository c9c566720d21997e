/**
 * The Stockham autosort FFT as the code generator indexes it, and its operator string.
 *
 * Radices R_1 … R_k are applied in that order, N = ∏R. Stage s (0-based) has R = R_{s+1} and stride
 * Ns = R_1·…·R_s. Butterfly j ∈ [0, N/R), element k ∈ [0, R):
 *   read   j + k·(N/R)
 *   twiddle W_{Ns·R}^{k·(j mod Ns)}, W_M = e^{-2πi/M}, applied before the R-point DFT
 *   write  ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns
 *
 * In digit terms (see operators.ts for the conventions), stage s sees the layout
 *   L_s = [R_1 … R_s, R_k … R_{s+1}]   (least significant first; L_0 = the radices reversed)
 * its read groups are B_n on L_s (elements differing in the top digit, of radix R_{s+1}), and its write
 * map moves that top digit down to position s+1: σ_{n,s+1} = Γ^{n-s-1}_{n,s+1}, giving L_{s+1}.
 * The whole transform is therefore
 *   ∏_{s=0}^{n-1} B_n σ_{n,s+1}
 * which ends in the natural layout [R_1 … R_k] after a net mixed-radix digit reversal ρ_{n,1} of L_0.
 *
 * The seeds write Stockham as ∏_{i=1}^n Γ_{n,n-i+1} B_n (eq. 5.15): the same algorithm in the algebra —
 * both reduce (Lemma 2) to B_n B_{n-1} … B_1 ρ_{n,1} — but with the exchange placed before each butterfly
 * (a Γ on the read side) instead of after it (a σ on the write side). The generator's formulas are the
 * second form, so `stockhamOperatorString` emits that; `stockhamSeedOperatorString` gives eq. 5.15.
 */
import { ArgumentError } from '../errors.js';
import { type DigitLayout, layoutSize, validateLayout } from './digits.js';
import type { OperatorTerm } from './operators.js';

/** A twiddle W_den^num = e^{-2πi·num/den}, unreduced so den is the same for a whole stage. */
export interface TwiddleExponent {
  readonly num: number;
  readonly den: number;
}

export interface StockhamStageMaps {
  readonly stage: number;
  readonly size: number;
  readonly radix: number;
  /** Ns = R_1·…·R_s. */
  readonly stride: number;
  /** N/R: butterflies (invocations) in this stage. */
  readonly butterflies: number;
  /** Layout of the indices this stage reads (L_s) and writes (L_{s+1}). */
  readonly readLayout: DigitLayout;
  readonly writeLayout: DigitLayout;
  read(j: number, k: number): number;
  write(j: number, k: number): number;
  twiddleExponent(j: number, k: number): TwiddleExponent;
}

function checkStage(radices: DigitLayout, s: number): void {
  validateLayout(radices, 'radices');
  if (radices.length === 0) throw new ArgumentError('radices', radices, 'at least one radix');
  if (!Number.isInteger(s) || s < 0 || s >= radices.length) {
    throw new ArgumentError('s', s, `a stage in [0, ${radices.length})`);
  }
}

/** L_s for s = 0..k: the layout before stage s (L_k is the natural output layout). */
export function stockhamLayouts(radices: DigitLayout): number[][] {
  validateLayout(radices, 'radices');
  const k = radices.length;
  const layouts: number[][] = [];
  for (let s = 0; s <= k; s++) layouts.push([...radices.slice(0, s), ...radices.slice(s).reverse()]);
  return layouts;
}

export function stockhamStageMaps(radices: DigitLayout, s: number): StockhamStageMaps {
  checkStage(radices, s);
  const size = layoutSize(radices);
  const radix = radices[s];
  let stride = 1;
  for (let q = 0; q < s; q++) stride *= radices[q];
  const butterflies = size / radix;
  const layouts = stockhamLayouts(radices);
  const check = (j: number, k: number): void => {
    if (!Number.isInteger(j) || j < 0 || j >= butterflies) {
      throw new ArgumentError('j', j, `a butterfly index in [0, ${butterflies})`);
    }
    if (!Number.isInteger(k) || k < 0 || k >= radix)
      throw new ArgumentError('k', k, `an element index in [0, ${radix})`);
  };
  return {
    stage: s,
    size,
    radix,
    stride,
    butterflies,
    readLayout: layouts[s],
    writeLayout: layouts[s + 1],
    read(j, k) {
      check(j, k);
      return j + k * butterflies;
    },
    write(j, k) {
      check(j, k);
      const low = j % stride;
      return (j - low) * radix + low + k * stride;
    },
    twiddleExponent(j, k) {
      check(j, k);
      return { num: k * (j % stride), den: stride * radix };
    },
  };
}

/** ∏_{s=0}^{n-1} B_n σ_{n,s+1} over L_0 (n = radices.length; the last σ_{n,n} is the identity). */
export function stockhamOperatorString(radices: DigitLayout): OperatorTerm[] {
  validateLayout(radices, 'radices');
  const n = radices.length;
  const terms: OperatorTerm[] = [];
  for (let s = 0; s < n; s++) terms.push({ op: 'B', i: n }, { op: 'S', i: n, j: s + 1 });
  return terms;
}

/** The seeds' eq. 5.15, ∏_{i=1}^n Γ_{n,n-i+1} B_n, for n digits. */
export function stockhamSeedOperatorString(n: number): OperatorTerm[] {
  if (!Number.isInteger(n) || n < 1) throw new ArgumentError('n', n, 'a digit count ≥ 1');
  const terms: OperatorTerm[] = [];
  for (let i = 1; i <= n; i++) terms.push({ op: 'G', i: n, j: n - i + 1 }, { op: 'B', i: n });
  return terms;
}

export interface IdFftOptions {
  /**
   * Where the radix-2^m step (m = n mod r) goes when r does not divide n. 'first' (default, as the
   * thesis' code does it): ρ_{n,n-m+1} B^m_{n-m+1} ∏_{i=1}^{⌊n/r⌋} Γ^r_{n,n-m-ir+1} ρ_{n,n-r+1} B^r_{n-r+1}.
   * 'last': eq. 5.28 followed by eq. 5.29, Γ^m_{n,1} ρ_{n,n-m+1} B^m_{n-m+1}. Eq. 5.29 only works as the
   * *last* step: as a first step its Γ^m_{n,1} would butterfly the lowest digits first, which no FFT
   * on natural-order input can do; the first-step form needs no Γ (it would be Γ^m_{n,n-m+1} = 1).
   */
  readonly mixedStep?: 'first' | 'last';
}

/**
 * The ID-FFT operator string (000 eq. 5.28) for N = 2^n with radix-2^r steps, over a radix-2 layout of
 * n digits. Both placements are Stockham (eq. 5.15) regrouped by Lemmas 1, 2, 3 and 5, so they have
 * the same normal form as `stockhamSeedOperatorString(n)` once consecutive radix-2 butterflies are
 * joined. Identity terms (Γ^r_{n,n-r+1}) are kept so the string reads like the formula.
 */
export function idFftOperatorString(n: number, r: number, options: IdFftOptions = {}): OperatorTerm[] {
  if (!Number.isInteger(n) || n < 1) throw new ArgumentError('n', n, 'a digit count ≥ 1');
  if (!Number.isInteger(r) || r < 1) throw new ArgumentError('r', r, 'a digits-per-step count ≥ 1');
  const mixedStep = options.mixedStep ?? 'first';
  if (mixedStep !== 'first' && mixedStep !== 'last') {
    throw new ArgumentError('options.mixedStep', mixedStep, "'first' or 'last'");
  }
  const q = Math.floor(n / r);
  const m = n % r;
  const block = (lowest: number, width: number): OperatorTerm[] => [
    { op: 'G', i: n, j: lowest, m: width },
    { op: 'R', i: n, j: n - width + 1 },
    { op: 'B', i: n - width + 1, r: width },
  ];
  const terms: OperatorTerm[] = [];
  if (m !== 0 && mixedStep === 'first') {
    terms.push({ op: 'R', i: n, j: n - m + 1 }, { op: 'B', i: n - m + 1, r: m });
    for (let i = 1; i <= q; i++) terms.push(...block(n - m - i * r + 1, r));
  } else {
    for (let i = 1; i <= q; i++) terms.push(...block(n - i * r + 1, r));
    if (m !== 0) terms.push(...block(1, m));
  }
  return terms;
}
