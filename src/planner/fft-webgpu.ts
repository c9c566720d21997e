/**
 * The WebGPU FFT planner's top level: for a 1-D problem and the device's planner limits, the recipe WebGpuFft
 * runs (real-transform scheme, Bluestein, column and batch-fastest modes), as plain data without a device.
 */
import { ArgumentError, DeviceLimitError, UnsupportedError } from '../errors.js';
import type { FftProblem } from './fft-problem.js';
import type { FftRecipe, WorkgroupFftRecipe } from './fft-recipe.js';
import { planWorkgroupFft, type PlannerLimits, type WorkgroupPlanOptions } from './fft-workgroup.js';
import { planFft, planMultiPass } from './fft-multipass.js';
import { bluesteinLength, isPowerOfTwo, isSmooth } from '../core/integers.js';

/**
 * Experimental planner overrides, for benchmarks and tests. Each changes only how a transform is computed
 * (results agree within float32 rounding) or, for splitLimits, how the work is split; names and effects
 * may change in any release. The planner's defaults are what the benchmarks measured fastest
 * (docs/DECISIONS.md); nothing here is needed for correct results.
 */
export interface FftTuning extends Omit<WorkgroupPlanOptions, 'pass' | 'subgroupSize'> {
  /**
   * Lower the binding and dispatch limits used to split the work (never above the device's). Lets tests
   * exercise multi-binding chunks and 2-D grids with small data.
   */
  splitLimits?: { maxStorageBufferBindingSize?: number; maxComputeWorkgroupsPerDimension?: number };
  /**
   * Multi-pass R2C: run the post-processing as its own kernel instead of inside the last pass (the
   * unfused form, kept for comparison in benchmarks and tests).
   */
  r2cPostKernel?: boolean;
  /** Multi-pass R2C: fuse the post-processing whenever the last pass allows it (benchmarks explore it). */
  r2cFused?: boolean;
  /** Single-workgroup R2C: false keeps the post-processing's exchange (see FftKernelVariant.pairedR2c). */
  r2cPaired?: boolean;
  /** Single-workgroup R2C: force the staged (coalesced) output copy on or off (see FftKernelVariant.stagedR2cOut). */
  r2cStagedOut?: boolean;
  /**
   * Single-workgroup R2C: plan powers of two so that the last stage can pair (WorkgroupPlanOptions.
   * evenLastButterflies): true for every length, false for none; default for half-lengths 256 … 2048.
   */
  r2cPairAll?: boolean;
}

export interface WebGpuFftPlanOptions {
  /** Source and destination are the same buffer (requires identical input and output layouts). */
  inPlace?: boolean;
  /**
   * Real transforms: problem.n is the real length N. 'r2c': real input (layout in real elements) →
   * N/2+1 complex outputs; 'c2r': N/2+1 complex inputs → N real outputs (direction must be 'inverse').
   */
  real?: 'r2c' | 'c2r';
  /**
   * A second batch level, for axes of N-D arrays that are neither first nor last: `count` groups of
   * `problem.batch` problems, group g offset by g·inDist / g·outDist elements. Each group is its own
   * dispatch window (the kernels keep one batch level in their addressing).
   */
  outer?: { count: number; inDist: number; outDist: number };
  /**
   * Adapters (DCT, DST, DHT) read and write through their own hooks (the backend's WebGpuFftOptions.custom
   * carries them); the planner needs only that they exist and whether their output may be fused.
   */
  custom?: {
    /**
     * The output hook writes neighbouring outputs to neighbouring addresses, so a multi-pass R2C may run it
     * inside its last pass (see r2cPassFusable). Hooks that scatter (a DCT's k and N − k real outputs)
     * measured faster from the separate post-processing kernel, which walks k contiguously.
     */
    fusedPost?: boolean;
  };
  /**
   * Column mode for N-D axes that are not the last: each problem is a block of n·columns complex values
   * (element e of column j at j + e·columns) and all its columns are transformed; neighbouring columns are
   * neighbouring addresses, so one column-staged pass reads and writes contiguous memory. Complex
   * transforms whose length fits one pass with ≥ 4 columns (else DeviceLimitError: use strides).
   */
  columns?: number;
  /**
   * The batch is laid out at distance 1 (element e of problem b at b + e·stride, the non-last axes of
   * N-D arrays): run a multi-pass recipe whose passes order column problems batch-fastest and keep their
   * intermediates in the same interleaved layout, so every pass reads and writes contiguous memory.
   */
  interleavedBatch?: boolean;
  /** The device's fixed subgroup size, where it has one (see WorkgroupPlanOptions.subgroupSize). */
  subgroupSize?: number;
  /** Experimental planner overrides (see FftTuning). */
  tuning?: FftTuning;
}

/**
 * Column slots of a fused R2C last pass (mirror pairs: half as many): 32 where they fit, else 16, else the
 * default; 64 measured faster on one GPU and slower on the other (docs/DECISIONS.md: FUSED_R2C_COLUMNS).
 */
export const FUSED_R2C_COLUMNS = [32, 16];

/** How a real transform is computed, chosen in create() (planWebGpuFft). */
export interface RealScheme {
  /** Length of the complex transform actually run. */
  m: number;
  /** Packed: even N through the N/2-point transform (pre/post-processing fused); else N-point with real I/O. */
  packed: boolean;
  /** Packed R2C whose half-length transform takes several passes: post-processing as its own kernel. */
  postKernel: boolean;
}

/** What create() runs for a problem: plain data, no device (`butterfly plan` prints it). */
export interface WebGpuFftPlanning {
  /** The recipe of the plan (a Bluestein recipe wraps the L-point one). */
  recipe: FftRecipe;
  /** Real transforms: how they are computed; null for complex ones. */
  scheme: RealScheme | null;
  /** Lengths whose prime factors the register radices do not cover: Bluestein's m and L. */
  bluestein: { m: number; L: number } | null;
}

/**
 * The recipe choice of WebGpuFft.create for a problem, options and the planner limits, without a device:
 * real-transform scheme, Bluestein, column and batch-fastest modes. Throws what create() throws there.
 */
export function planWebGpuFft(
  problem: FftProblem,
  limits: PlannerLimits,
  options: WebGpuFftPlanOptions = {},
): WebGpuFftPlanning {
  const real = options.real;
  const inPlace = options.inPlace ?? false;
  const N = problem.n;
  // Packed real transforms need the real side in unit stride with even offsets and distances, so that
  // pairs of reals are complex elements.
  const realSide = real === 'r2c' ? problem.input : problem.output;
  const custom = options.custom;
  // What the 1-D planners see: the overrides, and the subgroup size except for real transforms, whose fused
  // pre/post-processing assumes the plain butterfly order (no subgroup exchanges there).
  const {
    splitLimits: _split,
    r2cPostKernel,
    r2cFused,
    r2cPaired,
    r2cPairAll,
    r2cStagedOut: _staged,
    ...rest
  } = options.tuning ?? {};
  const t: WorkgroupPlanOptions = {
    ...rest,
    ...(real || !options.subgroupSize ? {} : { subgroupSize: options.subgroupSize }),
  };
  // Lengths with a prime factor the register radices do not cover go through Bluestein's chirp-z
  // transform (two FFTs of a smooth length L ≥ 2m − 1); real transforms then take the unpacked path.
  const bluesteinFor = (len: number) => !isSmooth(len, 64);
  let scheme: RealScheme | null = null;
  let recipe: FftRecipe;
  let blu: { m: number; L: number } | null = null;
  if (real) {
    // With custom hooks the adapter reads and writes through its own functions, in any layout.
    let packed =
      N % 2 === 0 &&
      N >= 4 &&
      (custom !== undefined || (realSide.stride === 1 && realSide.offset % 2 === 0 && realSide.dist % 2 === 0));
    if (packed && bluesteinFor(N / 2)) packed = false;
    const m = packed ? N / 2 : N;
    let postKernel = false;
    if (bluesteinFor(m)) {
      blu = { m, L: bluesteinLength(m) };
      recipe = planFft(blu.L, problem.batch, limits, t);
    } else if (packed && real === 'r2c') {
      try {
        // In-workgroup post-processing (complex rows, or split rows in two rounds). Radix 16 up to m = 4096 (the
        // post-processing's registers made 32 slower), 32 from 8192; the last stage re-split to pair mirror
        // butterflies for m = 256 … 2048, where it measured faster (docs/DECISIONS.md: maxRadix, r2cPairAll).
        const pairAll = (r2cPairAll ?? (m >= 256 && m <= 2048)) && r2cPaired !== false;
        // The 'split4' exchange needs the paired last stage (the post-processing has no row to exchange through).
        const evenLast = pairAll || t.exchange === 'split4';
        // The split exchange from a half-length of 256 (C2C: from 128); R2C 256 lost 2% (docs/DECISIONS.md: splitExchangeFrom).
        recipe = planWorkgroupFft(m, problem.batch, limits, {
          maxRadix: m >= 8192 ? 32 : 16,
          evenLastButterflies: evenLast,
          splitExchangeFrom: 256,
          ...t,
        });
      } catch (e) {
        if (e instanceof ArgumentError) throw e;
        // The last pass does the post-processing when its workgroups can hold mirror column pairs, with 16 columns
        // (8 pairs: 64-byte output runs) where they fit: faster than the separate kernel (docs/DECISIONS.md: r2cFused).
        const fuse = !r2cPostKernel && (r2cFused || !custom || !!custom.fusedPost);
        // The widest last pass of FUSED_R2C_COLUMNS that fits, else the default columns.
        let wide: FftRecipe | null = null;
        // The long radix-32 first pass where the fused last pass stays ≤ 256 points (longFirstRest 256); the fused
        // last pass keeps padded rows, where swizzled ones measured slower (docs/DECISIONS.md: lastPassLayout = 'padded').
        // A short fused last pass (64 or 128 points) where a first pass of ≤ 1024 takes the rest: see planMultiPass.
        const fusedOptions: WorkgroupPlanOptions = fuse
          ? { longFirstRest: 256, lastPassLayout: 'padded', shortLastPass: true, ...t }
          : t;
        for (const columns of fuse && !t.lastPassColumns ? FUSED_R2C_COLUMNS : []) {
          try {
            wide = planFft(m, problem.batch, limits, { ...fusedOptions, lastPassColumns: columns });
            break;
          } catch (e2) {
            if (!(e2 instanceof DeviceLimitError)) throw e2;
          }
        }
        recipe = wide ?? planFft(m, problem.batch, limits, fusedOptions);
        postKernel = !(
          fuse &&
          recipe.algorithm === 'stockham-multipass' &&
          r2cPassFusable(recipe.passes[recipe.passes.length - 1])
        );
      }
    } else recipe = planFft(m, problem.batch, limits, t);
    scheme = { m, packed, postKernel };
  } else if (options.interleavedBatch) {
    if (custom || inPlace || bluesteinFor(N))
      throw new UnsupportedError('interleavedBatch: plain complex out-of-place transforms of smooth lengths only');
    recipe = planMultiPass(N, problem.batch, limits, t, true);
  } else if (options.columns && options.columns > 1) {
    if (custom || inPlace)
      throw new ArgumentError('columns', options.columns, 'a plain out-of-place complex transform');
    // Radix-32 stages for column passes of 512 points and more, as for the long first passes of planMultiPass
    // (docs/DECISIONS.md: maxRadix).
    const maxRadix = t.maxRadix ?? (isPowerOfTwo(N) && N >= 512 ? 32 : undefined);
    // Column passes take 8 columns a workgroup up to 256 points and for radix-32 ones of 512, 4 beyond
    // (docs/DECISIONS.md: minColumns).
    const minColumns = t.minColumns ?? (N <= 256 || (maxRadix === 32 && N <= 512) ? 8 : 4);
    recipe = planWorkgroupFft(N, problem.batch * options.columns, limits, {
      ...t,
      minColumns,
      ...(maxRadix ? { maxRadix } : {}),
      pass: { total: N * options.columns, stride: options.columns, outerTwiddle: false },
    });
  } else if (bluesteinFor(N)) {
    blu = { m: N, L: bluesteinLength(N) };
    recipe = planFft(blu.L, problem.batch, limits, t);
  } else recipe = planFft(N, problem.batch, limits, t);
  if (blu)
    recipe = {
      algorithm: 'bluestein',
      n: blu.m,
      L: blu.L,
      inner: recipe as Exclude<FftRecipe, { algorithm: 'bluestein' }>,
      bytesPerProblem: 2 * recipe.bytesPerProblem,
    };
  return { recipe, scheme, bluestein: blu };
}

/**
 * Whether the last pass of a multi-pass half-length transform can do the R2C post-processing. Its
 * column j (0 ≤ j < Ns, Ns = cols) computes z_{j + e·Ns}, e < n, and the mirror z_{M−j−e·Ns} is element
 * n−1−e of column Ns−j (for j = 0: element (n−e) mod n of column 0; column Ns/2 mirrors itself). A
 * workgroup of B = 2H column slots takes H mirror pairs {p, Ns−p} (pair 0 = {0, Ns/2}), so every pair
 * meets in its workgroup memory: no separate post-processing kernel, no extra pass over global memory.
 */
export function r2cPassFusable(r: WorkgroupFftRecipe): boolean {
  const p = r.pass;
  return (
    !!p &&
    p.loads === 'direct' &&
    !p.batchFastest &&
    p.stride > 1 &&
    p.stride * r.n === p.total &&
    p.stride % 2 === 0 &&
    r.problemsPerWorkgroup % 2 === 0 &&
    (r.exchange === 'complex' || r.exchange === 'split')
  );
}
