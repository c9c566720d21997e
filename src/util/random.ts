/** Small seeded PRNG (mulberry32) so tests, demos and benchmarks are reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform values in [-1, 1) from a seed. */
export function randomFloat64(length: number, seed: number): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = 2 * r() - 1;
  return out;
}

export function randomFloat32(length: number, seed: number): Float32Array {
  return Float32Array.from(randomFloat64(length, seed));
}
