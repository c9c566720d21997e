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
   * "shared-memory multiplexing", to fit larger n).
   */
  exchange: 'none' | 'complex' | 'split';
  /** Workgroup-memory index i is stored at i + (i >> padShift) against bank conflicts; 0 = no padding. */
  padShift: number;
  /** Workgroup memory the kernel declares, in bytes. */
  workgroupBytes: number;
  /** 'table': each twiddle read from a float64-accurate table; 'recurrence': one read, then powers. */
  twiddles: 'table' | 'recurrence';
  /**
   * One-stage transforms: global loads/stores go through workgroup memory (exchange 'complex'), so a
   * warp touches contiguous memory even though each invocation owns a whole problem.
   */
  staging: boolean;
  /** Global-memory bytes read + written per problem (complex64 in and out). */
  bytesPerProblem: number;
}

export type FftRecipe = WorkgroupFftRecipe;
