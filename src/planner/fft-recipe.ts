/**
 * Recipes: how an FFT is computed, as plain JSON data. A recipe holds no GPU object, so the planner's
 * choices can be printed (`butterfly plan`), serialised, unit-tested without a GPU, and executed by both
 * the WebGPU backend and the float64 CPU backend.
 */

/** One Stockham stage: a radix-`radix` butterfly on the top digit, then the digit shuffle Γ. */
export interface FftStage {
  radix: number;
  /** Ns: product of the radices of the earlier stages (the stride of this stage's write map). */
  stride: number;
  /** How many radix-`radix` butterflies each invocation computes in this stage (the last may be partial). */
  butterfliesPerInvocation: number;
  /**
   * How this stage's outputs reach the next stage: 'workgroup' (workgroup memory, the default when absent) or
   * 'shuffle' (subgroupShuffleXor inside subgroups of the recipe's subgroupSize; see planner/fft-subgroup.ts).
   */
  exchange?: 'shuffle' | 'workgroup';
  /**
   * Bit b of this stage's butterfly index j is bit butterflyBits[b] of the invocation's slot t + m·L (absent:
   * j = t + m·L). Set on the stages around a shuffle exchange, so each subgroup keeps the values it trades.
   */
  butterflyBits?: number[];
}

/**
 * A whole transform of length n inside one workgroup: data goes global → registers, is exchanged through
 * workgroup memory between stages (the Γ permutations become the write/read index maps), and is written
 * back registers → global. The resource factors are the seeds' mapping vector [b | l | p]:
 * problemsPerWorkgroup (b), invocationsPerProblem (l), registers (p), and s = p·l workgroup elements.
 */
export interface WorkgroupFftRecipe {
  algorithm: 'stockham-workgroup';
  n: number;
  radices: number[];
  stages: FftStage[];
  /** The operator string, ASCII form (Υ/B butterflies and Γ shuffles), for display and checking. */
  operators: string;
  /** p: most complex values an invocation holds in registers in a stage. */
  registers: number;
  /** l: invocations cooperating on one problem. */
  invocationsPerProblem: number;
  /** b: independent problems per workgroup (small n: fills the workgroup). */
  problemsPerWorkgroup: number;
  workgroupSize: number;
  /**
   * How stages exchange data: 'none' (one stage: all in registers), 'complex' (vec2 per element) or
   * 'split' (real parts, then imaginary parts, in two rounds: halves workgroup memory, the seeds'
   * "shared-memory multiplexing", to fit larger n), or 'split4' (each of those two rounds again in two,
   * half the invocations at a time, through workgroup memory for n/2 values: a quarter of the complex
   * exchange's; an option, see exchangeCode in the codegen), or 'rounds' (vec2 values at fixed positions, each
   * exchange through one block of `roundBlock` values a round: planner/fft-rounds.ts; the default for 8192 and
   * 16384 points).
   */
  exchange: 'none' | 'complex' | 'split' | 'split4' | 'rounds';
  /** 'rounds': values of the workgroup-memory block one round writes and reads (L·R of the widest writer). */
  roundBlock?: number;
  /** 'rounds': real and imaginary parts in separate rounds through an f32 block (half the workgroup memory). */
  roundsSplit?: boolean;
  /** Workgroup-memory index i is stored at i + (i >> padShift) against bank conflicts; 0 = no padding. */
  padShift: number;
  /**
   * Unpadded rows whose index i is stored at i ^ ((i >> 4) & 31) instead (padShift 0): the XOR form of the
   * padding's bank spread, with no extra workgroup memory (see WorkgroupPlanOptions.swizzle).
   */
  swizzle?: boolean;
  /**
   * Pass kernels' swizzled rows (see row-layout.ts): the XOR takes index bits from `swizzleShift` up (3, 4
   * or 5), and row r's 32-value blocks rotate by r·swizzleRotate banks. Absent: shift 4, no rotation.
   */
  swizzleShift?: number;
  swizzleRotate?: number;
  /**
   * Present when a stage exchanges through subgroup shuffles: the subgroup size the bit maps assume (invocations
   * t … t + size − 1, t a multiple of size, form one subgroup).
   */
  subgroupSize?: number;
  /** Workgroup memory the kernel declares, in bytes. */
  workgroupBytes: number;
  /**
   * 'table': each twiddle read from a float64-accurate table; 'recurrence': one read, then powers;
   * 'two-level': W^1 and W^B read (B² ≥ radix), W^k = (W^B)^a·W^b, for radices from 16 and odd radices
   * from 5 (twoLevelRadix in src/planner/fft-workgroup.ts); the others as 'recurrence'.
   */
  twiddles: 'table' | 'recurrence' | 'two-level';
  /**
   * One-stage transforms: global loads/stores go through workgroup memory (exchange 'complex'), so a
   * warp touches contiguous memory even though each invocation owns a whole problem.
   */
  staging: boolean;
  /** Present when this kernel is one pass of a multi-pass transform. */
  pass?: PassInfo;
  /** Global-memory bytes read + written per problem (complex64 in and out). */
  bytesPerProblem: number;
}

/**
 * One pass of a multi-pass transform (the seeds' MS-ID-FFT): a generalised Stockham stage whose radix is a
 * whole sub-transform of length `n` (the recipe's n) computed in one workgroup. Column j of the pass
 * (j < total/n) reads elements j + k·(total/n), is multiplied by the outer twiddles W_{Ns·n}^{k·(j mod Ns)},
 * transformed, and written to ⌊j/Ns⌋·Ns·n + (j mod Ns) + k·Ns. Loads go through workgroup memory in
 * column order (a warp reads neighbouring columns: contiguous addresses); stores too unless Ns = 1.
 */
export interface PassInfo {
  /** Length of the whole transform. */
  total: number;
  /** Ns: product of the earlier passes' lengths. */
  stride: number;
  /**
   * 'direct': straight from registers; 'column': through workgroup memory in column order (Ns > 1);
   * 'rows': through workgroup memory along each column's output row (Ns = 1, where column j writes the
   * contiguous j·n … j·n + n − 1), so a warp writes one contiguous run instead of one run per column.
   */
  store: 'direct' | 'column' | 'rows';
  /**
   * false: no outer twiddles — the kernel is a batch of independent column transforms (an N-D axis with
   * neighbouring columns contiguous), not a stage of a longer transform.
   */
  outerTwiddle: boolean;
  /**
   * 'direct': invocations are interleaved across the workgroup's columns and read/write global memory
   * straight from registers; 'staged': whole columns go through workgroup memory first.
   */
  loads: 'direct' | 'staged';
  /** Column problems ordered batch-fastest (q = j·P + b), for batches at distance 1 (strided axes). */
  batchFastest: boolean;
}

/** A transform too long for one workgroup, as ⌈log N / log Rmax⌉ passes over global memory. */
export interface MultiPassFftRecipe {
  algorithm: 'stockham-multipass';
  n: number;
  /** Sub-transform length of each pass (their product is n). */
  lengths: number[];
  passes: WorkgroupFftRecipe[];
  /** Global-memory bytes read + written per problem over all passes. */
  bytesPerProblem: number;
}

/**
 * Bluestein's chirp-z transform for lengths with a prime factor beyond the register radices: the length-n
 * DFT as a cyclic convolution of length L = the smallest 2^a·3^b ≥ 2n − 1, i.e. the `inner` recipe run
 * forward then inverse, with the chirp multiplications fused into the first and last passes and the
 * filter spectrum into the middle one.
 */
export interface BluesteinFftRecipe {
  algorithm: 'bluestein';
  n: number;
  L: number;
  inner: WorkgroupFftRecipe | MultiPassFftRecipe;
  bytesPerProblem: number;
}

export type FftRecipe = WorkgroupFftRecipe | MultiPassFftRecipe | BluesteinFftRecipe;
