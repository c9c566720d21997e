/**
 * Planner for batched tridiagonal solves (Wang & Mou / ID-TS, seeds 000 §1.3.1 and 004 §4).
 *
 * Problem (what): N rows per system, a batch of systems, several right-hand sides sharing one matrix,
 * real or complex, strided or interleaved layout. Recipe (how, plain JSON): a list of levels.
 *
 * Level kinds
 * - 'solve': the whole system fits one workgroup. Systems are padded to `segment` = the next power of
 *   two ≥ n with identity rows (a=0, b=1, c=0, d=0 gives x=0 and decouples) and `systemsPerWorkgroup`
 *   of them share a workgroup of `rowsPerWorkgroup` rows, so small systems (N = 4) still fill a
 *   workgroup. Each invocation holds `rowsPerThread` consecutive rows in registers: the first
 *   log2(rowsPerThread) Wang & Mou stages run in registers without any exchange, the remaining ones
 *   exchange only the boundary (centre) equations of each block through workgroup memory, one barrier
 *   pair per radix-2 or radix-4 step (`exchangeRadices`). With the default 'thomas' interior an
 *   invocation first merges its rows into its block's first and last rows and only those two go through
 *   the exchange steps; its interior rows are solved by Thomas at the end.
 * - 'solve' with algorithm 'thomas' / 'thomas-stream' (interleaved layout): one invocation a system, the
 *   system in registers (≤ THOMAS_MAX_ROWS rows) or streamed through a global scratch array.
 * - 'partition': the system is larger than a workgroup. Rows are cut into chunks of
 *   `rowsPerWorkgroup` interior rows followed by one separator row (period rowsPerWorkgroup + 1). A
 *   workgroup reduces its chunk with Wang & Mou, which expresses every interior row through the two
 *   neighbouring separators only; the separators then satisfy a tridiagonal *coarse* system of
 *   `separators` rows (the next level). After the coarse system is solved, the same workgroups reload
 *   their chunk, recompute the reduction and substitute the separators. Global traffic is ≈ 2 reads +
 *   1 write a row (36 bytes in f32) instead of moving whole triads between stages (~116 bytes).
 * The last level is always 'solve'. The seeds' s1/s2 are the rows per workgroup of the levels.
 */
import { ArgumentError, DeviceLimitError } from '../errors.js';
import { isPowerOfTwo, nextPow2 } from '../core/integers.js';

/** Largest padded system size solved one system per invocation (registers: 4 scalars a row, plus c', d'). */
export const THOMAS_MAX_ROWS = 16;
/** Largest interleaved system solved by the streamed per-system Thomas by default. */
export const STREAM_MAX_ROWS = 2048;
/** Systems (invocations) a workgroup of the per-system Thomas level. */
const THOMAS_THREADS = 64;

/** Per-system status bits reported by every tridiagonal solver of the library. 0 means OK. */
export const TRIDIAGONAL_STATUS = {
  OK: 0,
  /** A pivot was zero, sub-normal or not finite: the elimination broke down; x is not reliable. */
  ZERO_PIVOT: 1,
  /** Some solution value is NaN or ±Infinity. */
  NON_FINITE: 2,
  /**
   * Some row has |b_i| < |a_i| + |c_i|: the matrix is not diagonally dominant, so the non-pivoting
   * algorithms (Thomas, Wang & Mou) give no stability guarantee. The result may still be accurate
   * (e.g. for symmetric positive definite matrices); check the residual or use the pivoting CPU solver.
   */
  NOT_DIAGONALLY_DOMINANT: 4,
  /**
   * The solution failed the residual check: its normwise backward error ‖Ax − d‖∞ / (‖A‖∞‖x‖∞ + ‖d‖∞)
   * exceeds the tolerance (default 2^10 units of roundoff of the output precision), or is not finite.
   */
  INACCURATE: 8,
  /**
   * Informative: the first solve of this matrix failed (bits 1, 2 or 8) and backend 'auto' solved it again
   * on the CPU by Gaussian elimination with partial pivoting (LAPACK gtsv's LU; for cyclic systems the same
   * elimination on the periodic matrix), in float64; the other bits describe
   * that second solve.
   */
  PIVOTED: 16,
} as const;

export type TridiagonalLayout = 'strided' | 'interleaved';

export interface TridiagonalProblem {
  /** Rows per system, ≥ 1. */
  n: number;
  /** Number of matrices, ≥ 1. */
  batch: number;
  /** Right-hand sides per matrix, ≥ 1. */
  nrhs: number;
  complex: boolean;
  layout: TridiagonalLayout;
}

export interface TridiagonalLimits {
  maxComputeWorkgroupStorageSize: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupsPerDimension: number;
}

export interface TridiagonalPlanOptions {
  /** Radix of the workgroup exchange steps (2: one level a step; 4: two levels a step). Default 4. */
  radix?: 2 | 4;
  /** Rows each invocation keeps in registers (power of two). Default 4 real, 2 complex. */
  rowsPerThread?: number;
  /** Cap on rows a workgroup holds (power of two), e.g. to force multi-stage runs in tests. */
  maxRowsPerWorkgroup?: number;
  /**
   * Interior rows of a 'partition' chunk (power of two). Default 128 real, 256 complex: small chunks (fewer
   * barriers a workgroup, more workgroups resident) beat large ones despite the larger coarse system
   * (docs/DECISIONS.md: partitionRowsPerWorkgroup).
   */
  partitionRowsPerWorkgroup?: number;
  /**
   * Partition chunks a workgroup reduces side by side (power of two; default 1). The level's segment is
   * the chunk, its rowsPerWorkgroup the chunks of a workgroup together, systemsPerWorkgroup their count.
   * 2, 4 and 8 measured slower than 1 (docs/DECISIONS.md: partitionChunksPerWorkgroup).
   */
  partitionChunksPerWorkgroup?: number;
  /** Rows a 'solve' workgroup aims for when systems are small (power of two). Default 1024 (512 complex). */
  targetRowsPerWorkgroup?: number;
  /**
   * Interleaved systems of at most THOMAS_MAX_ROWS rows: one invocation a system by the Thomas algorithm
   * (coalesced without workgroup memory) instead of Wang & Mou. Default true.
   */
  interleavedThomas?: boolean;
  /**
   * Interleaved systems of at least this many rows (default THOMAS_MAX_ROWS + 1; and at most
   * interleavedStreamMaxRows): one invocation a
   * system by the Thomas algorithm streamed through a global scratch array (codegen thomasStreamKernel)
   * instead of Wang & Mou in a workgroup, whose coalesced loads need many systems a workgroup and so
   * run out of workgroup memory for large N. Infinity turns it off.
   */
  interleavedStreamRows?: number;
  /** Interleaved systems of more rows than this use Wang & Mou again. Default STREAM_MAX_ROWS. */
  interleavedStreamMaxRows?: number;
  /** Invocations a workgroup of the per-system Thomas levels (registers and streamed). Default 64. */
  thomasThreads?: number;
  /** Rows the streamed Thomas loads together (unrolled) in each step. Default 8 (12 from N = 512). */
  streamChunk?: number;
  /**
   * How an invocation of a Wang & Mou level treats its rowsPerThread rows:
   * - 'wang-mou': every row goes through every stage (the seeds' ID-TS; O(N log N) work a system);
   * - 'thomas': the invocation reduces its rows to the block's first and last rows (one merge a row),
   *   only those two go through the exchange steps, and once their x is known the interior rows are
   *   solved by Thomas in registers (O(N) work; the structure of a partition method inside a workgroup).
   *   Default.
   */
  interior?: 'wang-mou' | 'thomas';
  /**
   * Workgroup memory of the Wang & Mou kernels as four bank-swizzled scalar arrays (default true) rather
   * than one array of row structs, which an invocation reading its R consecutive rows hits with an up to
   * 32-way bank conflict.
   */
  swizzle?: boolean;
  /** Two alternating exchange areas in workgroup memory, one barrier an exchange step (default true). */
  pingPong?: boolean;
  /**
   * 'thomas' interior: keep the block-boundary rows normalised (b = 1), so that a merge costs one
   * reciprocal and the row updates no division at all. Default true.
   */
  normalizedRows?: boolean;
  /** Normalised radix-2 exchange steps as one branch-free update of left and right rows. Default true. */
  branchFree?: boolean;
  /** Strided partition levels: chunk loads and stores start at a 32-byte boundary. Default false. */
  alignChunks?: boolean;
  /**
   * Interleaved partition level (the user's systems): a workgroup reduces the same chunk of this many
   * consecutive systems (power of two), so that its loads run across neighbouring systems, which are
   * neighbouring addresses in the interleaved layout. Default 8 for real systems, 1 for complex ones.
   */
  interleavedPartitionSystems?: number;
  /**
   * Real strided systems with n a multiple of 4, solved whole in a workgroup: each invocation loads and
   * stores its own rows as vec4s, with no staging through workgroup memory (TridiagonalLevel.directRows).
   * Default true.
   */
  directRows?: boolean;
  /**
   * Largest padded system a directRows workgroup solves whole (power of two); larger systems are
   * partitioned. Default DIRECT_MAX_ROWS, and never more than the invocation and workgroup-memory limits allow.
   */
  directMaxRows?: number;
}

/**
 * Default TridiagonalPlanOptions.directMaxRows: whole systems in one direct workgroup beat the partitioned
 * levels up to 16384 rows (docs/DECISIONS.md: DIRECT_MAX_ROWS).
 */
export const DIRECT_MAX_ROWS = 16384;
/**
 * Rows an invocation of direct workgroups, unless TridiagonalPlanOptions.rowsPerThread is set: 4 below 256
 * rows, 8 from 256, 16 from 4096 (…-sweep-tri23, -sweep-tri24: 1024 rows 151k → 197k Mrows/s with 8,
 * 2048 128k → 190k, 4096 96.6k → 165k with 8 and 177k with 16; 16 lost 4% at 1024 and 2048, 8 lost up to
 * 13% below 256).
 */
function directRowsPerThread(npad: number): number {
  return npad >= 4096 ? 16 : npad >= 256 ? 8 : 4;
}
/**
 * Rows a direct workgroup aims for when systems are small: 256 (…-sweep-tri24: N = 16 and 32 205k
 * against 190–197k Mrows/s with 128).
 */
const DIRECT_TARGET_ROWS = 256;

/**
 * Workgroup-memory rows of a directRows kernel's exchange area: the first and last row of every
 * invocation, twice with alternating areas (pingPong); none without exchange steps. Each row takes 3
 * scalars with normalised rows (b = 1 is not stored), else 4.
 */
export function directExchangeRows(threads: number, exchangeSteps: number, pingPong: boolean): number {
  if (exchangeSteps === 0) return 0;
  return (pingPong ? 4 : 2) * threads;
}

export interface TridiagonalLevel {
  mode: 'solve' | 'partition';
  /**
   * 'solve' levels: Wang & Mou in a workgroup (default), one invocation a system with the system in
   * registers ('thomas', rowsPerThread = padded rows) or streamed through global scratch ('thomas-stream',
   * rowsPerThread = rows loaded together).
   */
  algorithm?: 'wang-mou' | 'thomas' | 'thomas-stream';
  /** Wang & Mou levels: what goes through the stages (TridiagonalPlanOptions.interior). */
  interior?: 'wang-mou' | 'thomas';
  /** Wang & Mou levels: swizzled scalar arrays in workgroup memory (TridiagonalPlanOptions.swizzle). */
  swizzle?: boolean;
  /** Wang & Mou levels: alternating exchange areas (TridiagonalPlanOptions.pingPong). */
  pingPong?: boolean;
  /** Wang & Mou levels with the 'thomas' interior: normalised boundary rows (TridiagonalPlanOptions.normalizedRows). */
  normalized?: boolean;
  /** Branch-free normalised radix-2 exchange steps (TridiagonalPlanOptions.branchFree). */
  branchFree?: boolean;
  /** Partition levels: 32-byte aligned chunk loads (TridiagonalPlanOptions.alignChunks). */
  alignChunks?: boolean;
  /** Partition levels: the workgroup's chunks are one chunk of systemsPerWorkgroup consecutive systems. */
  acrossSystems?: boolean;
  /**
   * Real strided 'solve' level over the user's arrays (n a multiple of 4, rowsPerThread a multiple of 4):
   * every invocation loads and stores its own consecutive rows as vec4s, and workgroup memory holds only
   * the exchange area (TridiagonalPlanOptions.directRows).
   */
  directRows?: boolean;
  /** Rows per system at this level. */
  n: number;
  /** Independent right-hand-side systems at this level (level 0: batch·nrhs). */
  systems: number;
  /** Layout of this level's input (levels ≥ 1 are coarse systems in scratch, always strided). */
  layout: TridiagonalLayout;
  rowsPerWorkgroup: number;
  rowsPerThread: number;
  threads: number;
  /** log2(rowsPerThread) stages in registers, then these exchange steps (each 2 or 4). */
  localStages: number;
  exchangeRadices: number[];
  /** 'solve': padded system size (power of two); 'partition': the chunk's interior rows. */
  segment: number;
  /** 'solve': systems a workgroup; 'partition': chunks a workgroup. */
  systemsPerWorkgroup: number;
  /** 'partition' only: chunks per system and separator rows per system (= next level's n). */
  chunks: number;
  separators: number;
  workgroups: number;
}

export interface TridiagonalRecipe {
  kind: 'tridiagonal-wang-mou';
  problem: TridiagonalProblem;
  /** Bytes of workgroup memory one row takes (4 scalars: a, b, c, d). */
  rowBytes: number;
  maxRowsPerWorkgroup: number;
  levels: TridiagonalLevel[];
}

/**
 * Whether a recipe's solve writes every status word by a plain store instead of OR-ing bits into a
 * buffer the executor clears first: when one 'solve' level is the whole solve, there is one right-hand
 * side, and one invocation holds a whole system (per-system Thomas, or direct-rows Wang & Mou with a
 * system's rows in one invocation), that invocation stores its system's word. This saves a clear of 4
 * bytes a system and its barrier, 1/20 of the traffic at N = 4 (docs/DECISIONS.md: statusByStore).
 * Several right-hand sides share a matrix's word, and multi-stage solves touch a system in several
 * workgroups: those keep the clear.
 */
export function statusByStore(recipe: TridiagonalRecipe): boolean {
  const lv = recipe.levels[0];
  if (recipe.levels.length !== 1 || lv.mode !== 'solve' || recipe.problem.nrhs !== 1) return false;
  if (lv.algorithm === 'thomas' || lv.algorithm === 'thomas-stream') return true;
  return (lv.directRows ?? false) && lv.segment <= lv.rowsPerThread;
}

export function validateProblem(p: TridiagonalProblem): void {
  const posInt = (name: string, v: number) => {
    if (!Number.isSafeInteger(v) || v < 1) throw new ArgumentError(name, v, 'an integer ≥ 1');
  };
  posInt('n', p.n);
  posInt('batch', p.batch);
  posInt('nrhs', p.nrhs);
  if (p.layout !== 'strided' && p.layout !== 'interleaved') {
    throw new ArgumentError('layout', p.layout, "'strided' or 'interleaved'");
  }
}

/** The radix sequence for `levels` exchange levels: radix-4 steps, one radix-2 step if odd. */
export function exchangeRadices(levels: number, radix: 2 | 4): number[] {
  const out: number[] = [];
  let left = levels;
  if (radix === 4) {
    while (left >= 2) {
      out.push(4);
      left -= 2;
    }
  }
  while (left > 0) {
    out.push(2);
    left -= 1;
  }
  return out;
}

/** Chooses the levels of a Wang & Mou solve from the device limits. Pure: unit-tested without a GPU. */
export function planTridiagonal(
  problem: TridiagonalProblem,
  limits: TridiagonalLimits,
  options: TridiagonalPlanOptions = {},
): TridiagonalRecipe {
  validateProblem(problem);
  // Real strided: radix 2, 128-row workgroups for whole systems and 256-row partition chunks; the
  // interleaved layout keeps radix 4, 1024 and 512, where smaller workgroups hold one system each and load
  // 4 bytes a sector (docs/DECISIONS.md: radix, targetRowsPerWorkgroup).
  const stridedReal = !problem.complex && problem.layout === 'strided';
  const radix = options.radix ?? (stridedReal ? 2 : 4);
  if (radix !== 2 && radix !== 4) throw new ArgumentError('radix', radix, '2 or 4');
  const rowBytes = problem.complex ? 32 : 16;
  const rpt0 = options.rowsPerThread ?? (problem.complex ? 2 : 4);
  // ≥ 2 rows an invocation: the exchange area (first and last row of every invocation) then fits in the
  // workgroup array that staged the load.
  if (!isPowerOfTwo(rpt0) || rpt0 < 2 || rpt0 > 16)
    throw new ArgumentError('rowsPerThread', rpt0, 'a power of two from 2 to 16');
  // Workgroup memory holds one row (a, b, c, d) per row of the workgroup: the coalesced load is staged
  // through it and the same array then carries the exchanged boundary equations and the output.
  let maxRows = 1;
  while (maxRows * 2 * rowBytes <= limits.maxComputeWorkgroupStorageSize) maxRows *= 2;
  if (options.maxRowsPerWorkgroup !== undefined) {
    if (!isPowerOfTwo(options.maxRowsPerWorkgroup) || options.maxRowsPerWorkgroup < 2) {
      throw new ArgumentError('maxRowsPerWorkgroup', options.maxRowsPerWorkgroup, 'a power of two ≥ 2');
    }
    maxRows = Math.min(maxRows, options.maxRowsPerWorkgroup);
  }
  if (maxRows < 2) {
    throw new DeviceLimitError(
      'maxComputeWorkgroupStorageSize',
      2 * rowBytes,
      limits.maxComputeWorkgroupStorageSize,
      'tridiagonal solve',
    );
  }
  const target = Math.min(
    maxRows,
    options.targetRowsPerWorkgroup ?? (problem.complex ? 512 : stridedReal ? 128 : 1024),
  );
  const maxInv = limits.maxComputeInvocationsPerWorkgroup;
  // 'thomas' interior: faster than every row through every stage (docs/DECISIONS.md: interior).
  const interior = options.interior ?? 'thomas';
  if (interior !== 'wang-mou' && interior !== 'thomas')
    throw new ArgumentError('interior', interior, "'wang-mou' or 'thomas'");
  const swizzle = options.swizzle ?? true;
  const pingPong = options.pingPong ?? true;
  const normalized = options.normalizedRows ?? true;
  const branchFree = options.branchFree ?? true;
  const alignChunks = options.alignChunks ?? false;
  const thomasThreads = Math.min(options.thomasThreads ?? THOMAS_THREADS, maxInv);
  if (!isPowerOfTwo(thomasThreads)) throw new ArgumentError('thomasThreads', options.thomasThreads, 'a power of two');

  const levels: TridiagonalLevel[] = [];
  let n = problem.n;
  const systems = problem.batch * problem.nrhs;
  let layout: TridiagonalLayout = problem.layout;
  // One invocation a system (interleaved): `segment` rows, `rowsPerThread` = rows held or loaded together.
  const perSystemLevel = (
    algorithm: 'thomas' | 'thomas-stream',
    segment: number,
    rowsPerThread: number,
  ): TridiagonalLevel => ({
    mode: 'solve',
    algorithm,
    n,
    systems,
    layout,
    rowsPerWorkgroup: thomasThreads * segment,
    rowsPerThread,
    threads: thomasThreads,
    localStages: 0,
    exchangeRadices: [],
    segment,
    systemsPerWorkgroup: thomasThreads,
    chunks: 1,
    separators: 0,
    workgroups: Math.ceil(systems / thomasThreads),
  });
  // Direct rows (the user's real strided systems, n a multiple of 4): without the staged load a
  // workgroup's rows are limited by its invocations and its exchange area, not by one row of workgroup
  // memory each, so systems beyond maxRows can still be solved whole.
  const directMax = options.directMaxRows ?? DIRECT_MAX_ROWS;
  if (!isPowerOfTwo(directMax) || directMax < 4)
    throw new ArgumentError('directMaxRows', options.directMaxRows, 'a power of two ≥ 4');
  const directOk = stridedReal && problem.n % 4 === 0 && (options.directRows ?? true);
  const exchangeBytes = (threads: number, steps: number) =>
    directExchangeRows(threads, steps, pingPong) * (interior === 'thomas' && normalized ? 3 : 4) * 4;
  for (;;) {
    const npad = nextPow2(n);
    if (layout === 'interleaved' && npad <= THOMAS_MAX_ROWS && (options.interleavedThomas ?? true)) {
      // (Four systems an invocation as vec4 lanes measured no faster at N = 4 and 8, 197k Mrows/s either
      // way, and slower at 16: 171k against 190k; …-sweep-tri24.)
      levels.push(perSystemLevel('thomas', npad, npad));
      break;
    }
    // Streamed Thomas for interleaved N = 17 … 2048 (…-sweep-tri6, chunk 8: N = 32 122k, 256 102k, 1024
    // 45k Mrows/s against Wang & Mou's 100k, 37k, 12.6k). Beyond, 2^24 rows are too few systems to keep
    // the memory busy with one invocation each (N = 4096: 12.2k; Wang & Mou across systems 48.8k).
    const streamMin = options.interleavedStreamRows ?? THOMAS_MAX_ROWS + 1;
    if (
      layout === 'interleaved' &&
      npad > THOMAS_MAX_ROWS &&
      n >= streamMin &&
      n <= (options.interleavedStreamMaxRows ?? STREAM_MAX_ROWS)
    ) {
      // 12 rows a step from N = 512 (…-sweep-tri7: N = 512 82.6k against 74.2k Mrows/s with 8, 1024 51.2k
      // against 45.3k; fewer systems then, so each invocation must keep more loads in flight); 8 below.
      const chunk = options.streamChunk ?? (n >= 512 ? 12 : 8);
      if (!Number.isInteger(chunk) || chunk < 1 || chunk > 32)
        throw new ArgumentError('streamChunk', chunk, 'an integer from 1 to 32');
      levels.push(perSystemLevel('thomas-stream', n, chunk));
      break;
    }
    // Rows of a 'solve' workgroup: the whole system, or several small ones up to the target.
    const solveRows = (direct: boolean) => {
      const t = direct && options.targetRowsPerWorkgroup === undefined ? Math.min(maxRows, DIRECT_TARGET_ROWS) : target;
      return Math.max(npad, Math.min(t, nextPow2(npad * systems)));
    };
    // Rows an invocation: rowsPerThread, or more where the invocations (and, direct, the exchange area)
    // would not fit; a direct workgroup that needs more than 16 rows an invocation is not made.
    const fitRpt = (direct: boolean) => {
      const rows = solveRows(direct);
      let r = Math.min(direct && options.rowsPerThread === undefined ? directRowsPerThread(npad) : rpt0, npad);
      const steps = () => exchangeRadices(Math.log2(npad / r), radix).length;
      while (rows / r > maxInv || (direct && exchangeBytes(rows / r, steps()) > limits.maxComputeWorkgroupStorageSize))
        r *= 2;
      return r;
    };
    const direct =
      directOk &&
      levels.length === 0 &&
      rpt0 % 4 === 0 &&
      npad <= (options.maxRowsPerWorkgroup !== undefined ? maxRows : Math.max(directMax, maxRows)) &&
      fitRpt(true) <= Math.min(16, npad);
    if (npad <= maxRows || direct) {
      const rows = solveRows(direct);
      const rpt = fitRpt(direct);
      if (rpt > npad)
        throw new DeviceLimitError('maxComputeInvocationsPerWorkgroup', rows / npad, maxInv, 'tridiagonal solve');
      const spw = rows / npad;
      levels.push({
        mode: 'solve',
        n,
        systems,
        layout,
        interior,
        swizzle,
        pingPong,
        normalized,
        branchFree,
        alignChunks,
        directRows: direct,
        rowsPerWorkgroup: rows,
        rowsPerThread: rpt,
        threads: rows / rpt,
        localStages: Math.log2(rpt),
        exchangeRadices: exchangeRadices(Math.log2(npad / rpt), radix),
        segment: npad,
        systemsPerWorkgroup: spw,
        chunks: 1,
        separators: 0,
        workgroups: Math.ceil(systems / spw),
      });
      break;
    }
    // Real strided: 128-row chunks, 4–8% over 256 for N = 2^12 … 2^20 with the 'thomas' interior (…-sweep-tri6).
    const prow = options.partitionRowsPerWorkgroup ?? (problem.complex ? 256 : 128);
    if (!isPowerOfTwo(prow) || prow < 2)
      throw new ArgumentError('partitionRowsPerWorkgroup', prow, 'a power of two ≥ 2');
    const rows = Math.min(maxRows, prow);
    const cpw0 = options.partitionChunksPerWorkgroup ?? 1;
    if (!isPowerOfTwo(cpw0)) throw new ArgumentError('partitionChunksPerWorkgroup', cpw0, 'a power of two');
    let rpt = Math.min(rpt0, rows);
    while (rows / rpt > maxInv) rpt *= 2;
    // Several chunks a workgroup (each reduced on its own, like several small systems in a 'solve'
    // workgroup) while they fit the workgroup memory and invocation limits.
    // Real interleaved: the same 128-row chunk of 8 systems a workgroup (…-sweep-tri21: N = 4096 48.8k,
    // 2^17 37.9k, 2^20 42.7k Mrows/s against 14.5k, 4.6k, 7.6k with one 512-row chunk of one system).
    const ips = layout === 'interleaved' ? (options.interleavedPartitionSystems ?? (problem.complex ? 1 : 8)) : 1;
    if (!isPowerOfTwo(ips)) throw new ArgumentError('interleavedPartitionSystems', ips, 'a power of two');
    const across = ips > 1 && systems > 1;
    let cpw = across ? Math.min(ips, nextPow2(systems)) : cpw0;
    while (cpw > 1 && (rows * cpw > maxRows || (rows * cpw) / rpt > maxInv)) cpw /= 2;
    const chunks = Math.ceil(n / (rows + 1));
    const separators = Math.floor(n / (rows + 1));
    levels.push({
      mode: 'partition',
      n,
      systems,
      layout,
      interior,
      swizzle,
      pingPong,
      normalized,
      branchFree,
      alignChunks,
      acrossSystems: across && cpw > 1,
      rowsPerWorkgroup: rows * cpw,
      rowsPerThread: rpt,
      threads: (rows * cpw) / rpt,
      localStages: Math.log2(rpt),
      exchangeRadices: exchangeRadices(Math.log2(rows / rpt), radix),
      segment: rows,
      systemsPerWorkgroup: cpw,
      chunks,
      separators,
      workgroups: across && cpw > 1 ? chunks * Math.ceil(systems / cpw) : Math.ceil((systems * chunks) / cpw),
    });
    n = separators;
    layout = 'strided';
  }
  // Batches beyond a 2-D grid (or beyond one storage binding) are split into chunks of systems by the
  // WebGPU executor; only one system's workgroups must fit a grid.
  const maxWg = limits.maxComputeWorkgroupsPerDimension;
  for (const l of levels) {
    if (l.chunks > maxWg * maxWg) {
      throw new DeviceLimitError(
        'maxComputeWorkgroupsPerDimension',
        l.chunks,
        maxWg * maxWg,
        `one system of a tridiagonal solve (n ${problem.n}: ${l.chunks} partition workgroups, more than a 2-D grid holds)`,
      );
    }
  }
  return { kind: 'tridiagonal-wang-mou', problem: { ...problem }, rowBytes, maxRowsPerWorkgroup: maxRows, levels };
}

/** Element index of matrix entry (matrix j, row i) in a layout (complex: pair index). */
export function matIndex(layout: TridiagonalLayout, n: number, batch: number, j: number, i: number): number {
  return layout === 'strided' ? j * n + i : i * batch + j;
}

/**
 * Element index of right-hand side / solution entry (rhs r of matrix j, row i). Right-hand sides are
 * blocks of the size of one matrix array: [nrhs][batch][n] (strided) or [nrhs][n][batch] (interleaved).
 */
export function rhsIndex(layout: TridiagonalLayout, n: number, batch: number, r: number, j: number, i: number): number {
  return layout === 'strided' ? (r * batch + j) * n + i : (r * n + i) * batch + j;
}

/**
 * Rows (n · batch) from which a CPU Thomas solve shares its blocks with worker threads: below it a worker's round
 * trip (tens of microseconds) costs more than half the kernel (about 5 ns a row on one core).
 */
export const CPU_THOMAS_THREADED_ROWS = 1 << 16;

/** Threads a CPU Thomas solve of n · batch rows uses, of the plan's `threads` (1 below CPU_THOMAS_THREADED_ROWS). */
export function cpuThomasThreads(n: number, batch: number, threads: number): number {
  return n * batch >= CPU_THOMAS_THREADED_ROWS ? threads : 1;
}
