/**
 * The whole WebGPU FFT plan as plain data: on top of planWebGpuFft's recipe, every kernel the backend
 * compiles (its recipe, direction, scale, load/store modes, fused R2C form), the buffer each reads and
 * writes, and the binding windows and dispatch grids it is run in. WebGpuFft only allocates, compiles,
 * binds and encodes what this returns, so `butterfly plan` shows exactly what runs.
 */
import { ArgumentError, DeviceLimitError } from '../errors.js';
import type { DeviceLimits } from './device-limits.js';
import { layoutSpan, normScale, type ComplexLayout, type FftDirection, type FftProblem } from './fft-problem.js';
import type { WorkgroupFftRecipe } from './fft-recipe.js';
import {
  planWebGpuFft,
  type FftTuning,
  type RealScheme,
  type WebGpuFftPlanOptions,
  type WebGpuFftPlanning,
} from './fft-webgpu.js';
import { passRowLayout } from './row-layout.js';
import { dispatchGrid } from './dispatch.js';

/** Bytes of one complex64 element. */
export const COMPLEX_BYTES = 8;

/** Invocations a workgroup of the separate R2C post-processing kernel (one mirror pair each). */
export const R2C_POST_WORKGROUP = 64;

/** The user's source and destination, and the two ping-pong intermediates of a multi-pass plan. */
export type FftBufferName = 'src' | 'dst' | 'tmp0' | 'tmp1';

/**
 * How a kernel reads its input and writes its output (real transforms' fused pre/post-processing; see
 * FftKernelIo in the code generator for what each mode computes).
 */
export interface FftPassIo {
  load: 'complex' | 'c2r' | 'real' | 'hermitian' | 'packed-real';
  store: 'complex' | 'r2c' | 'half' | 'real' | 'packed-real';
  /** N, the length of the real signal. */
  realLength: number;
  /** Bluestein's chirp multiplications folded into the first, middle and last pass (tables at binding 7). */
  bluestein?: { n: number; L: number; pre: boolean; mid: boolean; post: boolean; scale: number };
}

/** Element counts and sizes of one problem on each side of a kernel, for its binding windows. */
export interface FftPassSizes {
  inCount: number;
  outCount: number;
  inElem: number;
  outElem: number;
}

/**
 * One binding window of a kernel: byte ranges of its source and destination, the dispatch grid and the
 * uniforms (batch·units, grid x, in offset/stride/dist, out offset/stride/dist; offsets in elements past
 * the window's aligned start).
 */
export interface FftDispatchChunk {
  inByteOffset: number;
  inByteSize: number;
  outByteOffset: number;
  outByteSize: number;
  grid: [number, number];
  params: number[];
}

/** Everything the generator needs for one Stockham kernel, and nothing else. */
export interface FftPassKernel {
  recipe: WorkgroupFftRecipe;
  direction: FftDirection;
  /** Output scale folded into the last store. */
  scale: number;
  /** Source and destination are the same buffer. */
  inPlace: boolean;
  io?: FftPassIo;
  /** Which of an adapter's hooks this kernel carries: its input side, its output side, or both. */
  hooks?: { in: boolean; out: boolean };
  /** R2C stores: pair each invocation's last-stage butterflies with their mirrors (no exchange). */
  pairedR2c: boolean;
  /** Single-workgroup R2C: stage the outputs in workgroup memory and copy whole rows out. */
  stagedR2cOut: boolean;
}

export interface WebGpuFftPass {
  /** 'fft': a Stockham workgroup kernel; 'r2c-post': the separate R2C post-processing of a multi-pass R2C. */
  kind: 'fft' | 'r2c-post';
  /** kind 'fft' only. */
  kernel?: FftPassKernel;
  /** kind 'r2c-post' only: the real length N and the output scale. */
  post?: { n: number; scale: number };
  from: FftBufferName;
  to: FftBufferName;
  /** One problem's element counts and sizes on each side, and the layouts read and written (first group). */
  sizes: FftPassSizes;
  input: ComplexLayout;
  output: ComplexLayout;
  chunks: FftDispatchChunk[];
}

export interface WebGpuFftPlan extends WebGpuFftPlanning {
  inPlace: boolean;
  real: 'r2c' | 'c2r' | undefined;
  outer: { count: number; inDist: number; outDist: number };
  passes: WebGpuFftPass[];
  /** Bytes of each ping-pong intermediate, and which of them the passes use. */
  scratch: { bytes: number; tmp0: boolean; tmp1: boolean };
  /** Per-problem sizes of the user's arrays where they are not the transform's own (adapters, columns). */
  userSizes?: FftPassSizes;
}

/** Sizes of an adapter's (DCT, DST, DHT) user arrays per problem, beside WebGpuFftPlanOptions.custom. */
export interface FftCustomSizes {
  inCount: number;
  outCount: number;
  inElem: number;
  outElem: number;
}

export type WebGpuFftPassOptions = Omit<WebGpuFftPlanOptions, 'custom'> & {
  custom?: NonNullable<WebGpuFftPlanOptions['custom']> & FftCustomSizes;
};

/**
 * The full plan of WebGpuFft.create for a problem, the device limits and options. Throws what create()
 * throws before any GPU work (argument errors, device limits).
 */
export function planWebGpuFftPasses(
  problem: FftProblem,
  limits: DeviceLimits,
  options: WebGpuFftPassOptions = {},
): WebGpuFftPlan {
  const real = options.real;
  const inPlace = options.inPlace ?? false;
  if (inPlace && JSON.stringify(problem.input) !== JSON.stringify(problem.output)) {
    throw new ArgumentError('output', problem.output, 'the same layout as input for an in-place transform');
  }
  if (real && inPlace)
    throw new ArgumentError('inPlace', true, 'false for real transforms (input and output differ in size)');
  if (real === 'c2r' && problem.direction !== 'inverse')
    throw new ArgumentError('direction', problem.direction, "'inverse' for a C2R transform");
  if (real === 'r2c' && problem.direction !== 'forward')
    throw new ArgumentError('direction', problem.direction, "'forward' for an R2C transform");
  const N = problem.n;
  const custom = options.custom;
  const planning = planWebGpuFft(problem, limits, options);
  const { recipe, scheme, bluestein: blu } = planning;
  const unwrapped = recipe.algorithm === 'bluestein' ? recipe.inner : recipe;
  const fftPasses = unwrapped.algorithm === 'stockham-multipass' ? unwrapped.passes : [unwrapped];
  // Bluestein runs the L-point recipe forward, then inverse.
  const recipes = blu ? [...fftPasses, ...fftPasses] : fftPasses;
  const nFwd = fftPasses.length;
  const nFft = recipes.length;
  const P = nFft + (scheme?.postKernel ? 1 : 0);
  // Buffer chain: the last kernel writes the destination. In place, the first must not; for real
  // transforms (and Bluestein) the destination's size differs from the complex intermediate's.
  const to: FftBufferName[] = Array.from({ length: P }, (_, i) => {
    if (i === P - 1) return 'dst';
    if (inPlace || real || blu || custom) return i % 2 === 0 ? 'tmp0' : 'tmp1';
    return (P - 1 - i) % 2 === 0 ? 'dst' : 'tmp0';
  });
  const from: FftBufferName[] = to.map((_, i) => (i === 0 ? 'src' : to[i - 1]));
  const m = scheme ? scheme.m : N;
  const work = blu ? blu.L : m; // length of the complex intermediates
  const colsMode = !real && !blu && options.columns && options.columns > 1 ? options.columns : 0;
  const colSizes: FftPassSizes | undefined = colsMode
    ? { inCount: N * colsMode, outCount: N * colsMode, inElem: COMPLEX_BYTES, outElem: COMPLEX_BYTES }
    : undefined;
  const contiguous: ComplexLayout =
    options.interleavedBatch && !real
      ? { offset: 0, stride: problem.batch, dist: 1 }
      : { offset: 0, stride: 1, dist: work };
  const outer = options.outer ?? { count: 1, inDist: 0, outDist: 0 };
  if (!Number.isSafeInteger(outer.count) || outer.count < 1)
    throw new ArgumentError('outer.count', outer.count, 'a positive integer');
  const scratchBytes = work * problem.batch * outer.count * COMPLEX_BYTES;
  const needs = (b: FftBufferName) => to.includes(b);
  if ((needs('tmp0') || needs('tmp1')) && scratchBytes > limits.maxBufferSize) {
    throw new DeviceLimitError(
      'maxBufferSize',
      scratchBytes,
      limits.maxBufferSize,
      `the scratch buffer of a ${P}-pass FFT of n = ${problem.n}, batch ${problem.batch}`,
    );
  }
  // Layouts of the complex transform actually run (real sides of packed transforms read as complex).
  const half = (l: ComplexLayout): ComplexLayout => ({ offset: l.offset / 2, stride: 1, dist: l.dist / 2 });
  const firstIn = scheme?.packed && real === 'r2c' && !custom ? half(problem.input) : problem.input;
  const lastOut = scheme?.packed && real === 'c2r' && !custom ? half(problem.output) : problem.output;
  const realScale = custom ? 1 : normScale(N, problem.direction, problem.norm);
  const fftScale = !scheme
    ? realScale
    : scheme.packed && real === 'c2r'
      ? 2 * realScale
      : scheme.postKernel
        ? 1
        : realScale;
  const split = options.tuning?.splitLimits ?? {};
  const passes: WebGpuFftPass[] = recipes.map((r, i) => {
    const first = i === 0;
    const lastFft = i === nFft - 1 && !scheme?.postKernel;
    const io = passIo(scheme, real, !!custom, first, lastFft, N);
    const bluestein =
      blu && (first || lastFft || i === nFwd)
        ? { n: blu.m, L: blu.L, pre: first, mid: i === nFwd, post: lastFft, scale: fftScale }
        : undefined;
    const hooks = custom && (first || lastFft) ? { in: first, out: lastFft } : undefined;
    const plainIo = io.load === 'complex' && io.store === 'complex' && !hooks && !bluestein;
    const outElemBytes = lastFft && custom ? custom.outElem : COMPLEX_BYTES;
    const kernel: FftPassKernel = {
      recipe: r,
      direction: blu ? (i < nFwd ? 'forward' : 'inverse') : problem.direction,
      // Bluestein folds the output scale into its final chirp.
      scale: i === nFft - 1 && !blu ? fftScale : 1,
      inPlace: inPlace && P === 1,
      ...(plainIo ? {} : { io: { ...io, ...(bluestein ? { bluestein } : {}) } }),
      ...(hooks ? { hooks } : {}),
      pairedR2c: io.store === 'r2c' && r2cPairedLast(r, options.tuning?.r2cPaired),
      stagedR2cOut: io.store === 'r2c' && r2cStagedOut(r, outElemBytes, options.tuning?.r2cStagedOut),
    };
    // Element sizes of each side (real arrays hold f32) for the binding windows.
    const inElem = first && custom ? custom.inElem : first && real === 'r2c' && !scheme!.packed ? 4 : COMPLEX_BYTES;
    const outElem =
      i === P - 1 && custom ? custom.outElem : i === P - 1 && real === 'c2r' && !scheme!.packed ? 4 : COMPLEX_BYTES;
    const outCount =
      i === P - 1 && custom
        ? custom.outCount
        : i === P - 1 && real === 'r2c'
          ? Math.floor(N / 2) + 1
          : i === P - 1
            ? m
            : work;
    const inCount =
      first && custom ? custom.inCount : first && real === 'c2r' ? Math.floor(N / 2) + 1 : first ? m : work;
    const sizes = colSizes ?? { inCount, outCount, inElem, outElem };
    const units = colsMode ? colsMode : r.pass ? work / r.n : 1;
    const input = first ? firstIn : contiguous;
    const output = i === P - 1 ? lastOut : contiguous;
    const chunks = forOuter(outer, first, i === P - 1, work * problem.batch, input, output, (il, ol) =>
      planChunks(limits, problem.batch, il, ol, sizes, units, r.problemsPerWorkgroup, split),
    );
    return { kind: 'fft', kernel, from: from[i], to: to[i], sizes, input, output, chunks };
  });
  if (scheme?.postKernel) {
    const sizes = custom
      ? { inCount: m, outCount: custom.outCount, inElem: COMPLEX_BYTES, outElem: custom.outElem }
      : { inCount: m, outCount: m + 1, inElem: COMPLEX_BYTES, outElem: COMPLEX_BYTES };
    const pairs = Math.floor(m / 2) + 1;
    const chunks = forOuter(outer, false, true, m * problem.batch, contiguous, problem.output, (il, ol) =>
      planChunks(limits, problem.batch, il, ol, sizes, pairs, R2C_POST_WORKGROUP, split),
    );
    passes.push({
      kind: 'r2c-post',
      post: { n: N, scale: realScale },
      from: from[P - 1],
      to: to[P - 1],
      sizes,
      input: contiguous,
      output: problem.output,
      chunks,
    });
  }
  return {
    ...planning,
    inPlace,
    real,
    outer,
    passes,
    scratch: { bytes: scratchBytes, tmp0: needs('tmp0'), tmp1: needs('tmp1') },
    ...(custom || colSizes
      ? {
          userSizes: custom
            ? { inCount: custom.inCount, outCount: custom.outCount, inElem: custom.inElem, outElem: custom.outElem }
            : colSizes,
        }
      : {}),
  };
}

/** Load and store modes of kernel i of a real transform's scheme (complex for complex transforms). */
function passIo(
  scheme: RealScheme | null,
  real: 'r2c' | 'c2r' | undefined,
  custom: boolean,
  first: boolean,
  lastFft: boolean,
  N: number,
): FftPassIo {
  let load: FftPassIo['load'] = 'complex';
  let store: FftPassIo['store'] = 'complex';
  // Adapters' packed sides are real arrays their hooks read as pairs ('packed-real'); plain packed
  // transforms read the user's reals as complex elements directly.
  if (scheme && first)
    load =
      real === 'c2r'
        ? scheme.packed
          ? 'c2r'
          : 'hermitian'
        : scheme.packed
          ? custom
            ? 'packed-real'
            : 'complex'
          : 'real';
  if (scheme && lastFft)
    store =
      real === 'r2c' ? (scheme.packed ? 'r2c' : 'half') : scheme.packed ? (custom ? 'packed-real' : 'complex') : 'real';
  return { load, store, realLength: N };
}

/**
 * Paired last stage of a single-workgroup R2C (see r2cPostPaired in the generator): an invocation's last-
 * stage butterflies are mirror pairs, so the post-processing needs no exchange. Needs an even number of
 * butterflies per invocation in a last stage that reads workgroup memory and covers its butterflies
 * exactly. The 'split4' exchange has no unpaired form (its post-processing would need the whole row).
 */
export function r2cPairedLastFits(r: WorkgroupFftRecipe): boolean {
  const last = r.stages[r.stages.length - 1];
  return (
    !r.pass &&
    !r.staging &&
    // The rounds exchange reads fixed slots t + L·σ, which the mirror butterflies would break.
    r.exchange !== 'rounds' &&
    r.stages.length >= 2 &&
    last.butterfliesPerInvocation % 2 === 0 &&
    last.butterfliesPerInvocation * r.invocationsPerProblem === r.n / last.radix
  );
}

function r2cPairedLast(r: WorkgroupFftRecipe, option: boolean | undefined): boolean {
  return r2cPairedLastFits(r) && (option !== false || r.exchange === 'split4');
}

/**
 * Staged R2C outputs: rows of M + 1 outputs in workgroup memory, copied out whole. Only with a padded
 * complex exchange (whose rows hold the M + 1 outputs) in a single-workgroup kernel.
 */
export function r2cStagedOutFits(r: WorkgroupFftRecipe): boolean {
  return !r.pass && !r.staging && r.exchange === 'complex' && exchangeRowStride(r) >= r.n + 1;
}

/**
 * Staged outputs are the default where invocations a problem × output element size < 32 bytes, so that
 * neighbouring invocations' stores would leave 32-byte sectors partly written (DHT N = 64: 16-byte runs).
 */
function r2cStagedOut(r: WorkgroupFftRecipe, outElemBytes: number, option: boolean | undefined): boolean {
  return r2cStagedOutFits(r) && (option ?? r.invocationsPerProblem * outElemBytes < 32);
}

/** Values a problem's row of workgroup memory spans (0 without an exchange), padding included. */
export function exchangeRowStride(r: WorkgroupFftRecipe): number {
  // Staged rows are n+1 long: an odd stride in complex elements spreads a warp's rows over the banks.
  // 'split4' rows hold the half of the values one round exchanges.
  const rowN = r.exchange === 'split4' ? r.n / 2 : r.exchange === 'rounds' ? r.roundBlock! : r.n;
  if (r.pass) return passRowLayout(r).rowStride;
  if (r.staging) return r.n + 1;
  if (r.exchange === 'none') return 0;
  return r.padShift > 0 ? rowN + (rowN >> r.padShift) + 1 : rowN;
}

/**
 * Chunks for every outer group: user-side layouts shift by the group's distance, scratch-side layouts by
 * one group's worth of scratch (`scratchGroup` complex elements).
 */
function forOuter(
  outer: { count: number; inDist: number; outDist: number },
  userIn: boolean,
  userOut: boolean,
  scratchGroup: number,
  inLayout: ComplexLayout,
  outLayout: ComplexLayout,
  make: (inLayout: ComplexLayout, outLayout: ComplexLayout) => FftDispatchChunk[],
): FftDispatchChunk[] {
  const chunks: FftDispatchChunk[] = [];
  for (let g = 0; g < outer.count; g++) {
    const il = { ...inLayout, offset: inLayout.offset + g * (userIn ? outer.inDist : scratchGroup) };
    const ol = { ...outLayout, offset: outLayout.offset + g * (userOut ? outer.outDist : scratchGroup) };
    chunks.push(...make(il, ol));
  }
  return chunks;
}

/**
 * Splits the batch so each dispatch's bindings fit maxStorageBufferBindingSize. A chunk covers whole
 * problems; a kernel runs `units` invocation groups per problem (columns of a pass, pairs of the R2C post
 * kernel), `perWorkgroup` of them per workgroup.
 */
function planChunks(
  limits: DeviceLimits,
  batch: number,
  input: ComplexLayout,
  output: ComplexLayout,
  size: FftPassSizes,
  units: number,
  perWorkgroup: number,
  lower: NonNullable<FftTuning['splitLimits']>,
): FftDispatchChunk[] {
  const maxBinding = Math.min(limits.maxStorageBufferBindingSize, lower.maxStorageBufferBindingSize ?? Infinity);
  const maxDim = Math.min(limits.maxComputeWorkgroupsPerDimension, lower.maxComputeWorkgroupsPerDimension ?? Infinity);
  const align = limits.minStorageBufferOffsetAlignment;
  const oneIn = ((size.inCount - 1) * input.stride + 1) * size.inElem;
  const oneOut = ((size.outCount - 1) * output.stride + 1) * size.outElem;
  const room = maxBinding - align; // worst-case misalignment of a window start
  if (oneIn > room || oneOut > room) {
    throw new DeviceLimitError(
      'maxStorageBufferBindingSize',
      Math.max(oneIn, oneOut) + align,
      maxBinding,
      `one problem of ${Math.max(size.inCount, size.outCount)} elements`,
    );
  }
  const fit = (one: number, dist: number, elem: number) =>
    dist === 0 ? batch : Math.floor((room - one) / (dist * elem)) + 1;
  const perChunk = Math.max(
    1,
    Math.min(batch, fit(oneIn, input.dist, size.inElem), fit(oneOut, output.dist, size.outElem)),
  );
  const chunks: FftDispatchChunk[] = [];
  for (let first = 0; first < batch; first += perChunk) {
    const problems = Math.min(perChunk, batch - first);
    const inStart = (input.offset + first * input.dist) * size.inElem;
    const outStart = (output.offset + first * output.dist) * size.outElem;
    const inAligned = Math.floor(inStart / align) * align;
    const outAligned = Math.floor(outStart / align) * align;
    const inSpan =
      layoutSpan({ offset: 0, stride: input.stride, dist: input.dist }, size.inCount, problems) * size.inElem;
    const outSpan =
      layoutSpan({ offset: 0, stride: output.stride, dist: output.dist }, size.outCount, problems) * size.outElem;
    const grid = dispatchGrid(Math.ceil((problems * units) / perWorkgroup), maxDim);
    chunks.push({
      inByteOffset: inAligned,
      inByteSize: Math.ceil((inSpan + (inStart - inAligned)) / 4) * 4,
      outByteOffset: outAligned,
      outByteSize: Math.ceil((outSpan + (outStart - outAligned)) / 4) * 4,
      grid,
      params: [
        problems * units,
        grid[0],
        (inStart - inAligned) / size.inElem,
        input.stride,
        input.dist,
        (outStart - outAligned) / size.outElem,
        output.stride,
        output.dist,
      ],
    });
  }
  return chunks;
}
