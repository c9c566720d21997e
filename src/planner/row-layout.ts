/**
 * Row layouts of workgroup memory, and a model of their bank conflicts in the exchanges of an FFT kernel,
 * used by the planner to choose the layout of multi-pass kernels and printed by `butterfly plan`.
 *
 * Workgroup memory has 32 banks of 4 bytes; a warp's access takes as many wavefronts as the most distinct
 * words any one bank must deliver (8-byte vec2 accesses: per half-warp, over 16 bank pairs). A pass kernel
 * holds B columns a workgroup with invocations interleaved across them (t = lid / B, column lid mod B), so a
 * warp mixes 32/B butterfly indices of B columns: the row layout must separate the columns as well as the
 * butterflies. Padded rows of odd length (the earlier layout) do not: their 4 … 16 columns fall on
 * neighbouring banks, 2–3.5 wavefronts an access. Unpadded rows whose 32-value blocks are XOR-swizzled and
 * then rotated by 32/B banks a column give each column its own bank range: 1–1.5.
 *
 * The model covers the exchanges between stages (exchangeCode in the codegen: writes through stage s's
 * write map, reads through stage s+1's read map), which are most of a pass kernel's workgroup-memory traffic.
 */
import type { WorkgroupFftRecipe } from './fft-recipe.js';

/** Where in-row index i of column (row) r lives in workgroup memory, in elements. */
export type RowLayout =
  | { kind: 'padded'; rowStride: number; padShift: number }
  /** s = i ^ ((i >> shift) & 31), then (s & ~31) | ((s + r·rotate) & 31); rows of `rowStride` (= n). */
  | { kind: 'swizzled'; rowStride: number; shift: number; rotate: number };

export function rowAddress(layout: RowLayout, row: number, i: number): number {
  if (layout.kind === 'padded') return row * layout.rowStride + (layout.padShift ? i + (i >> layout.padShift) : i);
  const s = i ^ ((i >> layout.shift) & 31);
  return row * layout.rowStride + ((s & ~31) | ((s + row * layout.rotate) & 31));
}

/** Padded row length of a multi-pass column: n + n/16 + 1, made odd. */
export function passRowStride(n: number): number {
  const p = n + (n >> 4) + 1;
  return p % 2 === 0 ? p + 1 : p;
}

/** The padded rows of a multi-pass column of n values (the layout before the swizzled ones). */
export function paddedPassLayout(n: number, padShift = 4): RowLayout {
  return { kind: 'padded', rowStride: passRowStride(n), padShift };
}

/** A pass recipe's own layout: swizzled rows per its swizzle fields, else padded ones of passRowStride. */
export function passRowLayout(r: WorkgroupFftRecipe): RowLayout {
  if (r.swizzle) return { kind: 'swizzled', rowStride: r.n, shift: r.swizzleShift ?? 4, rotate: r.swizzleRotate ?? 0 };
  return paddedPassLayout(r.n, r.padShift);
}

/**
 * Mean wavefronts per warp access of the exchanges of a pass recipe under `layout`, relative to a
 * conflict-free access (1 = none; 2 = every access twice as slow). 1 for recipes without an exchange.
 */
export function exchangeConflicts(r: WorkgroupFftRecipe, layout: RowLayout): number {
  const { n, stages, invocationsPerProblem: L, problemsPerWorkgroup: B, workgroupSize: W } = r;
  if (r.exchange !== 'complex' && r.exchange !== 'split') return 1;
  const wide = r.exchange === 'complex';
  // Direct pass kernels interleave columns (see generateWorkgroupFft); others give each column L neighbours.
  const interleaved = !!r.pass && r.pass.loads === 'direct';
  const lane = (lid: number) =>
    interleaved ? { t: Math.floor(lid / B), row: lid % B } : { t: lid % L, row: Math.floor(lid / L) };
  let wavefronts = 0;
  let ideal = 0;
  const access = (index: (t: number) => number | null) => {
    for (let g = 0; g < W; g += wide ? 16 : 32) {
      const words = new Map<number, Set<number>>();
      for (let lid = g; lid < Math.min(W, g + (wide ? 16 : 32)); lid++) {
        const { t, row } = lane(lid);
        const i = index(t);
        if (i === null) continue;
        const a = rowAddress(layout, row, i);
        const bank = a % (wide ? 16 : 32);
        if (!words.has(bank)) words.set(bank, new Set());
        words.get(bank)!.add(a);
      }
      if (words.size === 0) continue;
      wavefronts += Math.max(...[...words.values()].map((s) => s.size));
      ideal += 1;
    }
  };
  const writeIndex = (j: number, k: number, ns: number, R: number) => Math.floor(j / ns) * ns * R + (j % ns) + k * ns;
  for (let s = 0; s + 1 < stages.length; s++) {
    const cur = stages[s];
    const next = stages[s + 1];
    const nbCur = n / cur.radix;
    const nbNext = n / next.radix;
    for (let m = 0; m < cur.butterfliesPerInvocation; m++) {
      for (let k = 0; k < cur.radix; k++)
        access((t) => (t + m * L < nbCur ? writeIndex(t + m * L, k, cur.stride, cur.radix) : null));
    }
    for (let m = 0; m < next.butterfliesPerInvocation; m++) {
      for (let k = 0; k < next.radix; k++) access((t) => (t + m * L < nbNext ? t + m * L + k * nbNext : null));
    }
  }
  return ideal ? wavefronts / ideal : 1;
}
