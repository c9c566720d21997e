/**
 * A partition of 0..N-1 into groups: what a butterfly operator B^r_i *means* once twiddles are left out.
 *
 * B is not a permutation, it says which elements meet in one radix-R kernel. Keeping it as a partition
 * lets the lemmas be checked exactly: moving B past a permutation is mapping the partition, and "grouping
 * butterflies raises the radix" (Lemma 1) is the join of two partitions.
 *
 * Each group keeps its member order, because for a butterfly the order is the element number k that
 * the radix kernel sees (the value of the grouped digit field). Equality ignores that order.
 */
import { ArgumentError } from '../errors.js';
import { checkIndex } from './digits.js';
import type { IndexMap } from './index-map.js';

export class Grouping {
  private readonly label: Int32Array;

  private constructor(
    readonly size: number,
    readonly groups: readonly (readonly number[])[],
  ) {
    this.label = new Int32Array(size).fill(-1);
    groups.forEach((g, gi) => {
      for (const t of g) {
        if (!Number.isInteger(t) || t < 0 || t >= size) {
          throw new ArgumentError(`groups[${gi}]`, t, `indices in [0, ${size})`);
        }
        if (this.label[t] !== -1) {
          throw new ArgumentError(`groups[${gi}]`, t, 'disjoint groups (this index is in two groups)');
        }
        this.label[t] = gi;
      }
    });
    const missing = this.label.indexOf(-1);
    if (missing !== -1) throw new ArgumentError('groups', missing, 'groups covering every index');
  }

  static fromGroups(size: number, groups: readonly (readonly number[])[]): Grouping {
    return new Grouping(
      size,
      groups.map((g) => [...g]),
    );
  }

  /** The group containing t, in member order. */
  groupOf(t: number): readonly number[] {
    checkIndex(t, this.size);
    return this.groups[this.label[t]];
  }

  /** Common group size, or null when groups differ in size. */
  groupSize(): number | null {
    if (this.groups.length === 0) return null;
    const s = this.groups[0].length;
    return this.groups.every((g) => g.length === s) ? s : null;
  }

  /** Same partition (member order and group order ignored). */
  equals(other: Grouping): boolean {
    if (other.size !== this.size || other.groups.length !== this.groups.length) return false;
    // Same partition ⇔ the relabelling of one onto the other is a well-defined function.
    const map = new Int32Array(this.groups.length).fill(-1);
    for (let t = 0; t < this.size; t++) {
      const a = this.label[t];
      const b = other.label[t];
      if (map[a] === -1) map[a] = b;
      else if (map[a] !== b) return false;
    }
    return true;
  }

  /** Same partition and, in every group, the same member order. */
  equalsOrdered(other: Grouping): boolean {
    if (!this.equals(other)) return false;
    return this.groups.every((g) => {
      const h = other.groupOf(g[0]);
      return g.every((t, k) => h[k] === t);
    });
  }

  /** The finest partition coarser than both: two butterfly steps fused into one higher-radix step. */
  join(other: Grouping): Grouping {
    if (other.size !== this.size) throw new ArgumentError('other', other.size, `a grouping of size ${this.size}`);
    const parent = new Int32Array(this.size);
    for (let t = 0; t < this.size; t++) parent[t] = t;
    const find = (t: number): number => {
      while (parent[t] !== t) {
        parent[t] = parent[parent[t]];
        t = parent[t];
      }
      return t;
    };
    for (const g of [...this.groups, ...other.groups]) {
      for (let k = 1; k < g.length; k++) {
        const a = find(g[0]);
        const b = find(g[k]);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    const byRoot = new Map<number, number[]>();
    for (let t = 0; t < this.size; t++) {
      const r = find(t);
      const g = byRoot.get(r);
      if (g) g.push(t);
      else byRoot.set(r, [t]);
    }
    return new Grouping(this.size, [...byRoot.values()]);
  }

  /** The same groups seen through a permutation: member t becomes map.apply(t). */
  mapThrough(map: IndexMap): Grouping {
    if (map.size !== this.size) throw new ArgumentError('map', map.size, `an index map of size ${this.size}`);
    const table = map.toArray();
    return new Grouping(
      this.size,
      this.groups.map((g) => g.map((t) => table[t])),
    );
  }
}
