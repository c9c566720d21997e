/**
 * A permutation of 0..N-1, the runtime form of an index-digit permutation.
 *
 * Convention (the seeds', checked against Lemma 2 of 000 §5.1.3): `apply(t)` is the position the element
 * now at t moves to, i.e. a data permutation y[apply(t)] = x[t]. Only this "scatter" reading makes
 * Γ_{k,j} B_i = B_{i+1} Γ_{k,j} hold; the "gather" reading would turn every lemma around.
 *
 * Composition follows operator strings, which the seeds read left to right: `a.compose(b)` is "a, then
 * b", so a.compose(b).apply(t) === b.apply(a.apply(t)).
 */
import { ArgumentError } from '../errors.js';
import {
  type DigitLayout,
  MAX_LAYOUT_SIZE,
  checkIndex,
  layoutSize,
  unsafeFromDigits,
  unsafeToDigits,
  validateLayout,
} from './digits.js';

export class IndexMap {
  private constructor(private readonly table: Int32Array) {}

  get size(): number {
    return this.table.length;
  }

  static identity(size: number): IndexMap {
    if (!Number.isInteger(size) || size < 0 || size > MAX_LAYOUT_SIZE) {
      throw new ArgumentError('size', size, 'an integer in [0, 2^30]');
    }
    const table = new Int32Array(size);
    for (let t = 0; t < size; t++) table[t] = t;
    return new IndexMap(table);
  }

  /** `targets[t]` is where element t goes; must be a bijection of 0..N-1. */
  static fromArray(targets: ArrayLike<number>): IndexMap {
    const n = targets.length;
    if (n > MAX_LAYOUT_SIZE) throw new ArgumentError('targets', targets, 'at most 2^30 entries');
    const table = new Int32Array(n);
    const seen = new Uint8Array(n);
    for (let t = 0; t < n; t++) {
      const v = targets[t];
      if (!Number.isInteger(v) || v < 0 || v >= n) {
        throw new ArgumentError(`targets[${t}]`, v, `an integer index in [0, ${n})`);
      }
      if (seen[v]) throw new ArgumentError(`targets[${t}]`, v, 'a permutation (this target appears twice)');
      seen[v] = 1;
      table[t] = v;
    }
    return new IndexMap(table);
  }

  static fromFunction(size: number, f: (t: number) => number): IndexMap {
    const targets = new Int32Array(size);
    for (let t = 0; t < size; t++) targets[t] = f(t);
    return IndexMap.fromArray(targets);
  }

  /**
   * Build the map from a digit-level rule: `f` receives the digits of t in `input` (least significant
   * first) and returns the digits of its new position in `output`. Layouts may differ, because a digit
   * permutation of a mixed-radix layout carries each radix along with its digit.
   */
  static fromDigitFunction(
    input: DigitLayout,
    output: DigitLayout,
    f: (digits: readonly number[]) => readonly number[],
  ): IndexMap {
    validateLayout(input, 'input');
    validateLayout(output, 'output');
    const size = layoutSize(input);
    if (layoutSize(output) !== size) {
      throw new ArgumentError('output', output, `a layout of the same size as the input (${size})`);
    }
    const targets = new Int32Array(size);
    const digits: number[] = [];
    for (let t = 0; t < size; t++) {
      const d = f(unsafeToDigits(t, input, digits));
      if (d.length !== output.length) {
        throw new ArgumentError('f', d, `a digit array of length ${output.length}`);
      }
      for (let i = 0; i < d.length; i++) {
        if (!Number.isInteger(d[i]) || d[i] < 0 || d[i] >= output[i]) {
          throw new ArgumentError(`f(digits)[${i}]`, d[i], `a digit in [0, ${output[i]})`);
        }
      }
      targets[t] = unsafeFromDigits(d, output);
    }
    return IndexMap.fromArray(targets);
  }

  apply(t: number): number {
    checkIndex(t, this.table.length);
    return this.table[t];
  }

  /** "this, then other" (left-to-right operator-string order). */
  compose(other: IndexMap): IndexMap {
    this.checkSameSize(other);
    const out = new Int32Array(this.table.length);
    for (let t = 0; t < out.length; t++) out[t] = other.table[this.table[t]];
    return new IndexMap(out);
  }

  inverse(): IndexMap {
    const out = new Int32Array(this.table.length);
    for (let t = 0; t < out.length; t++) out[this.table[t]] = t;
    return new IndexMap(out);
  }

  /** `this` applied m times in a row (m ≥ 0); negative m applies the inverse. */
  power(m: number): IndexMap {
    if (!Number.isInteger(m)) throw new ArgumentError('m', m, 'an integer exponent');
    let base: IndexMap = m < 0 ? this.inverse() : this;
    let result = IndexMap.identity(this.size);
    for (let e = Math.abs(m); e > 0; e >>= 1) {
      if (e & 1) result = result.compose(base);
      base = base.compose(base);
    }
    return result;
  }

  toArray(): number[] {
    return Array.from(this.table);
  }

  equals(other: IndexMap): boolean {
    if (other.table.length !== this.table.length) return false;
    for (let t = 0; t < this.table.length; t++) if (this.table[t] !== other.table[t]) return false;
    return true;
  }

  isIdentity(): boolean {
    for (let t = 0; t < this.table.length; t++) if (this.table[t] !== t) return false;
    return true;
  }

  private checkSameSize(other: IndexMap): void {
    if (other.size !== this.size) {
      throw new ArgumentError('other', other.size, `an index map of size ${this.size}`);
    }
  }
}
