/**
 * Planner for grid convolutions (kernels: codegen/convolve-grid.ts): fused single kernel when a whole P×Q grid fits
 * the workgroup memory, otherwise three passes (row FFTs, column tiles, inverse row FFTs). Plain data
 * out, so the choices are testable without a GPU.
 *
 * Resource analysis (the seeds' p/s/l split, specialised to whole grids):
 *  - workgroup memory: G grids of P·pitch complex values; pitch = Q + 1 when it still fits (an odd
 *    pitch keeps column accesses on distinct banks), else Q;
 *  - work per workgroup: G = ⌈targetElements / (P·Q)⌉ grids (small grids are batched so a workgroup has
 *    enough butterflies for its invocations), capped by memory;
 *  - invocations: enough for about one butterfly of the widest stage each, ≤ maxThreads.
 */
import { DeviceLimitError, UnsupportedError } from '../errors.js';
import { factorRadices } from './fft-workgroup.js';

export type GridKernelKind = 'fused' | 'rows-fwd' | 'cols' | 'rows-inv';

export interface GridGeometry {
  P: number;
  Q: number;
  inRows: number;
  inCols: number;
  outRow0: number;
  outCol0: number;
  outRows: number;
  outCols: number;
  /** false: forward spectrum only (no multiply, no inverse); the output is the full P×Q grid. */
  inverse: boolean;
}

export interface GridKernelConfig {
  kind: GridKernelKind;
  /** Stage radices of the length-P (column) and length-Q (row) transforms. */
  radP: number[];
  radQ: number[];
  /** fused: grids (slices) per workgroup; rows-*: lines per workgroup; cols: columns per workgroup. */
  perWorkgroup: number;
  /** Invocations per workgroup. */
  threads: number;
  /** Row pitch of the workgroup arrays in complex elements (line length, or +1 against bank conflicts). */
  pitch: number;
  /** Output scale folded into the final store (1/(P·Q) for a normalised inverse). */
  scale: number;
  /** Fuse the spectrum multiply into the column transforms' middle stage (default true). */
  fuseMultiply?: boolean;
}

export interface GridPlanLimits {
  maxComputeWorkgroupStorageSize: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupSizeX: number;
}

export interface GridPlanOptions {
  /** Largest radix of a stage (default 8; 16 trades registers for one fewer exchange). */
  maxRadix?: number;
  /** Elements (complex) a workgroup should own (default 512). */
  targetElements?: number;
  /** Invocations per workgroup cap (default 512). */
  maxThreads?: number;
  /** Force the three-pass version even when a grid fits (tests, benchmarks). */
  split?: boolean;
  /** Pretend the device has this much workgroup memory (tests of the split path). */
  workgroupBytes?: number;
  /** Fuse the spectrum multiply into the column transforms (default true; false for comparisons). */
  fuseMultiply?: boolean;
}

export interface GridConvRecipe {
  geometry: GridGeometry;
  algorithm: 'fused' | 'split';
  kernels: GridKernelConfig[];
  /** Intermediate buffer sizes in complex elements per slice (split: T1, T2). */
  intermediates: number[];
}

const BYTES = 8;

function radicesFor(n: number, maxRadix: number): number[] {
  if (n === 1) return [];
  const r = factorRadices(n, maxRadix);
  for (const x of r) {
    if (x > 64)
      throw new UnsupportedError(
        `grid convolution: length ${n} has a prime factor ${x} > 64; use a 2·3·5·7-smooth padded size`,
      );
  }
  return r;
}

function threadsFor(maxButterflies: number, maxThreads: number, limits: GridPlanLimits): number {
  const cap = Math.min(maxThreads, limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  let t = 32;
  while (t < maxButterflies && t < cap) t *= 2;
  return Math.min(t, cap);
}

export function checkGeometry(g: GridGeometry): void {
  const bad = (what: string) => {
    throw new UnsupportedError(`grid convolution: ${what} (geometry ${JSON.stringify(g)})`);
  };
  for (const k of ['P', 'Q', 'inRows', 'inCols', 'outRows', 'outCols'] as const)
    if (!Number.isSafeInteger(g[k]) || g[k] < 1) bad(`${k} must be a positive integer`);
  if (g.inRows > g.P || g.inCols > g.Q) bad('the input block must fit the grid');
  if (g.inverse && (g.outRow0 < 0 || g.outCol0 < 0 || g.outRow0 + g.outRows > g.P || g.outCol0 + g.outCols > g.Q))
    bad('the crop window must lie inside the grid');
}

export function planGridConv(g: GridGeometry, limits: GridPlanLimits, options: GridPlanOptions = {}): GridConvRecipe {
  checkGeometry(g);
  const { P, Q } = g;
  const maxRadix = options.maxRadix ?? 8;
  const target = options.targetElements ?? 512;
  // 512 elements per workgroup, up to 512 invocations, radix 8: the fastest over the EDM cases
  // (docs/DECISIONS.md: targetElements, maxThreads, maxRadix).
  const maxThreads = options.maxThreads ?? 512;
  const smem = Math.min(options.workgroupBytes ?? Infinity, limits.maxComputeWorkgroupStorageSize);
  const radP = radicesFor(P, maxRadix);
  const radQ = radicesFor(Q, maxRadix);
  const minR = (r: number[]) => (r.length ? Math.min(...r) : 1);
  const scale = g.inverse ? 1 / (P * Q) : 1;
  const fuseMultiply = options.fuseMultiply ?? true;

  if (!options.split && P * Q * BYTES <= smem) {
    const pitch = P * (Q + 1) * BYTES <= smem && P > 1 ? Q + 1 : Q;
    const fit = Math.max(1, Math.floor(smem / (P * pitch * BYTES)));
    const G = Math.max(1, Math.min(fit, Math.ceil(target / (P * Q))));
    const widest = Math.max(G * Q * (P / minR(radP)), G * g.inRows * (Q / minR(radQ)));
    const threads = threadsFor(widest, maxThreads, limits);
    return {
      geometry: g,
      algorithm: 'fused',
      kernels: [{ kind: 'fused', radP, radQ, perWorkgroup: G, threads, pitch, scale, fuseMultiply }],
      intermediates: [],
    };
  }

  // Split: rows of Q, column tiles of W·P.
  if (Q * BYTES > smem)
    throw new DeviceLimitError(
      'maxComputeWorkgroupStorageSize',
      Q * BYTES,
      smem,
      `grid convolution: one row of ${Q} complex values`,
    );
  if (P * BYTES > smem)
    throw new DeviceLimitError(
      'maxComputeWorkgroupStorageSize',
      P * BYTES,
      smem,
      `grid convolution: one column of ${P} complex values`,
    );
  const rowPitch = Q;
  const Gr = Math.max(1, Math.min(Math.floor(smem / (rowPitch * BYTES)), Math.ceil(target / Q)));
  const rowThreads = threadsFor(Gr * (Q / minR(radQ)), maxThreads, limits);
  const colPitch = P > 1 ? P + 1 : 1;
  // W must divide Q: the tiles cover the columns exactly.
  let W = 1;
  const wCap = Math.min(Math.floor(smem / (colPitch * BYTES)), Math.max(1, Math.ceil(target / P)));
  for (let w = 1; w <= Math.min(Q, wCap); w++) if (Q % w === 0) W = w;
  const colThreads = threadsFor(Math.max(W * (P / minR(radP)), (W * P) / 4), maxThreads, limits);
  const base = { radP, radQ, fuseMultiply };
  const kernels: GridKernelConfig[] = [
    { kind: 'rows-fwd', ...base, perWorkgroup: Gr, threads: rowThreads, pitch: rowPitch, scale: 1 },
  ];
  if (g.inverse) {
    kernels.push({ kind: 'cols', ...base, perWorkgroup: W, threads: colThreads, pitch: colPitch, scale: 1 });
    kernels.push({ kind: 'rows-inv', ...base, perWorkgroup: Gr, threads: rowThreads, pitch: rowPitch, scale });
    return { geometry: g, algorithm: 'split', kernels, intermediates: [g.inRows * Q, g.outRows * Q] };
  }
  kernels.push({ kind: 'cols', ...base, perWorkgroup: W, threads: colThreads, pitch: colPitch, scale: 1 });
  return { geometry: g, algorithm: 'split', kernels, intermediates: [g.inRows * Q] };
}
