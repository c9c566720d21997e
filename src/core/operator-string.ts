/**
 * Operator strings: plain-data products of operators, read left to right (the first term acts first),
 * with a readable Unicode form and an ASCII form that round-trips through the parser.
 *
 *   Unicode: Γ[4,1] Γ²[6,3] Γ[8,6,2,1] σ[4,1] ρ[4,3] B²[3]
 *   ASCII:   G(4,1) G^2(6,3) G(8,6,2,1) S(4,1) R(4,3) B^2(3)
 *
 * The superscript is m (repetitions) on Γ/σ and r (digit count) on B; it is omitted when 1.
 */
import { ArgumentError } from '../errors.js';
import { type DigitLayout, layoutSize, validateLayout } from './digits.js';
import type { Grouping } from './grouping.js';
import { IndexMap } from './index-map.js';
import {
  type ButterflyTerm,
  type OperatorTerm,
  type PermutationTerm,
  applyOperator,
  butterfly,
  butterflyRadix,
  digitSource,
  validateTerm,
} from './operators.js';

export type OperatorString = readonly OperatorTerm[];

export type OperatorStringStyle = 'unicode' | 'ascii';

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const UNICODE_SYMBOL: Record<OperatorTerm['op'], string> = { G: 'Γ', S: 'σ', R: 'ρ', B: 'B' };
const FROM_UNICODE: Record<string, OperatorTerm['op']> = { Γ: 'G', σ: 'S', ρ: 'R', B: 'B', Υ: 'B' };

function superscript(v: number): string {
  return String(v)
    .split('')
    .map((c) => SUPERSCRIPT[Number(c)])
    .join('');
}

function termArgs(term: OperatorTerm): number[] {
  switch (term.op) {
    case 'B':
      return [term.i];
    case 'R':
      return [term.i, term.j];
    default:
      return term.k !== undefined && term.l !== undefined ? [term.i, term.j, term.k, term.l] : [term.i, term.j];
  }
}

function termPower(term: OperatorTerm): number {
  if (term.op === 'B') return term.r ?? 1;
  if (term.op === 'R') return 1;
  return term.m ?? 1;
}

export function formatTerm(term: OperatorTerm, style: OperatorStringStyle = 'unicode'): string {
  const args = termArgs(term).join(',');
  const power = termPower(term);
  if (style === 'ascii') return `${term.op}${power === 1 ? '' : `^${power}`}(${args})`;
  return `${UNICODE_SYMBOL[term.op]}${power === 1 ? '' : superscript(power)}[${args}]`;
}

export function formatOperatorString(terms: OperatorString, style: OperatorStringStyle = 'unicode'): string {
  return terms.map((t) => formatTerm(t, style)).join(' ');
}

/** Drops the optional fields that equal their defaults, so structurally equal terms compare equal. */
export function normalizeTerm(term: OperatorTerm): OperatorTerm {
  switch (term.op) {
    case 'B':
      return (term.r ?? 1) === 1 ? { op: 'B', i: term.i } : { op: 'B', i: term.i, r: term.r };
    case 'R':
      return { op: 'R', i: term.i, j: term.j };
    default: {
      const base =
        term.k !== undefined && term.l !== undefined
          ? { op: term.op, i: term.i, j: term.j, k: term.k, l: term.l }
          : { op: term.op, i: term.i, j: term.j };
      return (term.m ?? 1) === 1 ? base : { ...base, m: term.m };
    }
  }
}

const TERM_RE = /\s*([GSRBΓσρΥ])(?:\^(\d+)|([⁰¹²³⁴⁵⁶⁷⁸⁹]+))?\s*[([]\s*(\d+(?:\s*,\s*\d+)*)\s*[)\]]/y;

/**
 * Parses the ASCII form (and, for convenience, the Unicode form). Terms are separated by whitespace;
 * digit positions are validated only for shape here (no layout is known yet).
 */
export function parseOperatorString(text: string): OperatorTerm[] {
  if (typeof text !== 'string') throw new ArgumentError('text', text, 'an operator string');
  const terms: OperatorTerm[] = [];
  TERM_RE.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    if (text.slice(pos).trim() === '') break;
    TERM_RE.lastIndex = pos;
    const match = TERM_RE.exec(text);
    if (!match) {
      throw new ArgumentError('text', text, `an operator term like "G^2(4,1)", "R(4,3)" or "B(3)" at offset ${pos}`);
    }
    pos = TERM_RE.lastIndex;
    const [, symbol, asciiPower, unicodePower, argText] = match;
    const op = FROM_UNICODE[symbol] ?? (symbol as OperatorTerm['op']);
    const power =
      asciiPower !== undefined
        ? Number(asciiPower)
        : unicodePower !== undefined
          ? Number(
              unicodePower
                .split('')
                .map((c) => SUPERSCRIPT.indexOf(c))
                .join(''),
            )
          : undefined;
    const args = argText.split(',').map((s) => Number(s.trim()));
    terms.push(makeTerm(op, power, args, text));
  }
  return terms;
}

function makeTerm(op: OperatorTerm['op'], power: number | undefined, args: number[], text: string): OperatorTerm {
  const bad = (expected: string): never => {
    throw new ArgumentError('text', text, `${op} ${expected}`);
  };
  if (args.some((a) => a < 1)) bad('with digit positions ≥ 1');
  const withPower = <T extends object>(t: T, key: string): T =>
    power === undefined || power === 1 ? t : { ...t, [key]: power };
  switch (op) {
    case 'B':
      if (args.length !== 1) bad('with one digit position, e.g. B^2(3)');
      if (power === 0) bad('with a digit count ≥ 1');
      return withPower<ButterflyTerm>({ op, i: args[0] }, 'r');
    case 'R':
      if (args.length !== 2) bad('with two digit positions, e.g. R(4,3)');
      if (power !== undefined) bad('without an exponent');
      return { op, i: args[0], j: args[1] };
    default:
      if (args.length === 2) return withPower<PermutationTerm>({ op, i: args[0], j: args[1] }, 'm');
      if (args.length === 4) {
        return withPower<PermutationTerm>({ op, i: args[0], j: args[1], k: args[2], l: args[3] }, 'm');
      }
      return bad('with two or four digit positions, e.g. G(4,1) or G(8,6,2,1)');
  }
}

/** True when the term is a permutation that moves nothing (Γ_{i,i}, ρ_{i,i}, Γ^m with m ≡ 0 mod width). */
export function isIdentityTerm(term: OperatorTerm, n: number): boolean {
  if (term.op === 'B') return false;
  return digitSource(term, n).every((p, q) => p === q);
}

/** Removes identity permutations (Lemma 3) without changing what the string does. */
export function simplifyOperatorString(terms: OperatorString, n: number): OperatorTerm[] {
  return terms.filter((t) => !isIdentityTerm(t, n));
}

export interface ButterflyStep {
  /** Position of the B term in the string. */
  readonly termIndex: number;
  readonly radix: number;
  /** Groups in the coordinates current at that point of the string (what a kernel indexes). */
  readonly local: Grouping;
  /** The same groups in the coordinates of the string's input (what the algebra compares). */
  readonly original: Grouping;
}

export interface OperatorStringEvaluation {
  readonly input: DigitLayout;
  readonly output: DigitLayout;
  /** Net data permutation: the element at input index t ends at output index permutation.apply(t). */
  readonly permutation: IndexMap;
  readonly butterflies: readonly ButterflyStep[];
  /** Layout before each term (length terms.length + 1; the last entry is the output layout). */
  readonly layouts: readonly DigitLayout[];
}

/**
 * Runs an operator string over a layout. Pulling every permutation to the end (Lemma 2 applied
 * everywhere) gives a normal form — the butterflies in input coordinates, then one permutation — in
 * which two strings describe the same algorithm exactly when their normal forms agree.
 */
export function evaluateOperatorString(terms: OperatorString, layout: DigitLayout): OperatorStringEvaluation {
  validateLayout(layout, 'layout');
  let current: DigitLayout = [...layout];
  let permutation = IndexMap.identity(layoutSize(layout));
  let inverse: IndexMap | null = permutation;
  const butterflies: ButterflyStep[] = [];
  const layouts: DigitLayout[] = [current];
  terms.forEach((term, termIndex) => {
    validateTerm(term, current.length);
    if (term.op === 'B') {
      const local = butterfly(current, term.i, term.r ?? 1);
      inverse ??= permutation.inverse();
      butterflies.push({
        termIndex,
        radix: butterflyRadix(current, term.i, term.r ?? 1),
        local,
        original: local.mapThrough(inverse),
      });
    } else {
      const step = applyOperator(term, current);
      permutation = permutation.compose(step.map);
      inverse = null;
      current = step.output;
    }
    layouts.push(current);
  });
  return { input: [...layout], output: current, permutation, butterflies, layouts };
}
