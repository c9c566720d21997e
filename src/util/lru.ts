/** Least-recently-used caches on a Map, whose iteration order is insertion order: the first key is the oldest. */

/** Each map's most recently used key: calls of one size in a loop then skip moving it to the end again. */
const newest = new WeakMap<Map<unknown, unknown>, unknown>();

/** The value at `key`, made the most recently used. */
export function lruGet<K, V>(m: Map<K, V>, key: K): V | undefined {
  const v = m.get(key);
  if (v !== undefined && newest.get(m) !== key) {
    m.delete(key);
    m.set(key, v);
    newest.set(m, key);
  }
  return v;
}

/** Sets `key` as the most recently used, dropping the oldest entries beyond `max`. */
export function lruSet<K, V>(m: Map<K, V>, key: K, v: V, max: number): void {
  m.delete(key);
  m.set(key, v);
  newest.set(m, key);
  while (m.size > max) m.delete(m.keys().next().value!);
}
