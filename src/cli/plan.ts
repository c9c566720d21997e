/**
 * `butterfly plan`: the recipes the WebGPU backend would run for a 1-D length or an N-D shape, as plain
 * data. The same planning calls as WebGpuFft.create (planWebGpuFftPasses) and WebGpuFftNd.create (planFftNd),
 * for this machine's adapter's limits (only they are read from the device) or a default device model. Only
 * planner modules are imported: the device comes through the API layer.
 *
 *   butterfly plan 4096 [--batch b] [--cpu] [--default-limits]
 *   butterfly plan 1024x1024 [--axes 0,1] [--kind c2c|r2c|c2r] [--batch b]
 */
import { ArgumentError } from '../errors.js';
import { formatHelp, parseArgs, type CommandSpec, type ParsedArgs } from './args.js';
import { acquireGpu, type GpuContext } from '../api/device.js';
import type { CliCommand } from './commands.js';
import { fftProblem, type ComplexLayout, type FftProblem } from '../planner/fft-problem.js';
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import type { PlannerLimits } from '../planner/fft-workgroup.js';
import { exchangeConflicts, paddedPassLayout, passRowLayout } from '../planner/row-layout.js';
import { planCpuEngineFft } from '../planner/cpu-fft.js';
import type { WebGpuFftPlanOptions } from '../planner/fft-webgpu.js';
import { planWebGpuFftPasses, type WebGpuFftPass, type WebGpuFftPlan } from '../planner/fft-webgpu-passes.js';
import type { DeviceLimits } from '../planner/device-limits.js';
import { fftNdFallsBack, planFftNd, type FftNdKind, type FftNdPlanOptions, type FftNdStep } from '../planner/fft-nd.js';

export const PLAN_SPEC: CommandSpec = {
  name: 'plan',
  summary: "the WebGPU planner's recipes (passes, radices, mapping, workgroup memory, bytes moved)",
  positionals: {
    synopsis: '<n | shape>',
    max: 1,
    help: '<n>                  a 1-D length, e.g. 4096\n<shape>              an N-D shape, dims separated by x, e.g. 1024x1024 or 64x512x512',
  },
  options: {
    '--axes': { value: 'a,b,…', help: 'axes to transform (default: all; negative counts from the end, as numpy)' },
    '--kind': {
      value: 'c2c|r2c|c2r',
      help: "complex, real-to-complex (rfftn: the last of the axes is the real one) or\ncomplex-to-real (the shape is the real output's, as irfftn's s); default c2c",
    },
    '--batch': {
      value: 'b',
      help: 'b independent problems: a leading dimension of size b, not transformed (default 1)',
    },
    '--default-limits': {
      help: "plan for the default device model (48 KiB workgroup storage, 1024 invocations,\nunlimited binding) instead of this machine's WebGPU adapter",
    },
    '--storage': { value: 'B', help: 'workgroup storage of the device model in bytes' },
    '--invocations': { value: 'N', help: 'invocations per workgroup of the device model' },
    '--binding': {
      value: 'B',
      help: 'maxStorageBufferBindingSize of the device model (plans whose single problem does not\nfit one binding fall back as the library does)',
    },
    '--cpu': { help: "the CPU engine's recipes, f32 and f64, instead (1-D complex lengths only)" },
  },
  notes: `Limits: this machine's WebGPU adapter's when there is one, else (or with --default-limits) the default model;
--storage, --invocations and --binding override single limits of either.
N-D transforms print one recipe per step, in the order the WebGPU driver runs them, then the total of
global-memory bytes moved over all passes.`,
};

export const PLAN_USAGE = formatHelp(PLAN_SPEC);

/** How the operator strings and mappings printed by `plan` read (printed after every plan). */
export const PLAN_LEGEND = `notation (digit positions 1-based, t_1 the least significant digit of the element index; a stage's radices
are the digits' radices):
  B(i)      radix-R butterflies over the elements whose index differs only in digit i (B^r(i): digits i..i+r-1)
  S(i,j)    σ, the shuffle that moves digit i down to position j (the inverse of G(i,j)), i.e. the exchange
            through workgroup memory after a butterfly stage
  G(i,j)    Γ, cyclic shift right of digits i..j (digit j wraps to position i); G^m: m times
  R(i,j)    ρ, reversal of digits i..j
  operator strings read left to right: the first term acts first
  [b | l | p]  mapping: b problems per workgroup | l invocations per problem | p elements per invocation (registers)`;

/** The default device model: 48 KiB of workgroup storage, 1024 invocations (a desktop GPU's limits). */
const DEFAULT_LIMITS: PlannerLimits = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};

interface PlanArgs {
  help: boolean;
  shape: number[];
  /** A plain length without --axes: printed in the 1-D form when complex. */
  length: boolean;
  axes?: number[];
  kind: FftNdKind;
  batch: number;
  cpu: boolean;
  limits: PlannerLimits;
  binding?: number;
}

/** Where the device model's limits came from, for the header line. */
type LimitsSource = { kind: 'default' } | { kind: 'adapter'; name: string };

export interface PlanLimits {
  limits: PlannerLimits;
  binding?: number;
  source: LimitsSource;
}

/** Parses the arguments after `plan`; every problem is an ArgumentError naming the argument. */
export function parsePlanArgs(args: string[] | ParsedArgs): PlanArgs {
  const p = Array.isArray(args) ? parseArgs(PLAN_SPEC, args) : args;
  if (p.help) return { help: true, shape: [], length: true, kind: 'c2c', batch: 1, cpu: false, limits: DEFAULT_LIMITS };
  const positional = p.positionals[0];
  const cpu = p.flag('--cpu');

  const shapeWhat = 'a length or a shape: positive integers separated by x (e.g. 4096 or 1024x1024)';
  if (positional === undefined) throw new ArgumentError('shape', undefined, shapeWhat);
  const parts = positional.split(/[x×X]/);
  if (!parts.every((q) => /^\d+$/.test(q))) throw new ArgumentError('shape', positional, shapeWhat);
  const shape = parts.map(Number);
  if (!shape.every((v) => Number.isSafeInteger(v) && v >= 1)) throw new ArgumentError('shape', positional, shapeWhat);

  const kind = p.choice('--kind', ['c2c', 'r2c', 'c2r'] as const, 'c2c') as FftNdKind;
  const batch = p.int('--batch', 1, { min: 1 });
  if (!Number.isSafeInteger(shape.reduce((q, v) => q * v, batch))) {
    throw new ArgumentError('shape', positional, 'at most 2^53 elements in all (with the batch)');
  }

  let axes: number[] | undefined;
  const ndim = shape.length;
  const axesText = p.string('--axes');
  if (axesText !== undefined) {
    const axesWhat = `comma-separated axis indices in [${-ndim}, ${ndim}) for the ${ndim}-D shape ${positional}`;
    const list = axesText.split(',');
    if (!list.every((q) => /^-?\d+$/.test(q.trim()))) throw new ArgumentError('--axes', axesText, axesWhat);
    axes = list.map((q) => Number(q.trim()));
    if (!axes.every((x) => x >= -ndim && x < ndim)) throw new ArgumentError('--axes', axesText, axesWhat);
    const norm = axes.map((x) => (x < 0 ? x + ndim : x));
    if (kind !== 'c2c' && new Set(norm).size !== norm.length)
      throw new ArgumentError('--axes', axesText, `distinct axes for a ${kind} transform`);
  }

  if (cpu && (ndim > 1 || kind !== 'c2c' || axes)) {
    throw new ArgumentError('--cpu', positional, 'a 1-D complex length (butterfly plan <n> --cpu)');
  }
  const storage = p.int('--storage', DEFAULT_LIMITS.maxComputeWorkgroupStorageSize, { min: 1 });
  const invocations = p.int('--invocations', DEFAULT_LIMITS.maxComputeInvocationsPerWorkgroup, { min: 1 });
  const binding = p.int('--binding', Number.MAX_SAFE_INTEGER, { min: 1 });
  const limits = {
    maxComputeWorkgroupStorageSize: storage,
    maxComputeInvocationsPerWorkgroup: invocations,
    maxComputeWorkgroupSizeX: invocations,
  };
  return {
    help: false,
    shape,
    length: ndim === 1 && !axes,
    axes,
    kind,
    batch,
    cpu,
    limits,
    binding: p.has('--binding') ? binding : undefined,
  };
}

/**
 * The limits to plan for: the adapter's (unless --default-limits, or no adapter), with --storage,
 * --invocations and --binding overriding single values.
 */
export async function planLimits(p: ParsedArgs, parsed: PlanArgs): Promise<PlanLimits> {
  const base: PlanLimits = { limits: parsed.limits, binding: parsed.binding, source: { kind: 'default' } };
  if (p.flag('--default-limits') || parsed.cpu) return base;
  let ctx: GpuContext;
  try {
    ctx = await acquireGpu();
  } catch {
    return base;
  }
  try {
    const l = ctx.limits;
    const invocations = p.has('--invocations') ? parsed.limits.maxComputeInvocationsPerWorkgroup : undefined;
    return {
      limits: {
        maxComputeWorkgroupStorageSize: p.has('--storage')
          ? parsed.limits.maxComputeWorkgroupStorageSize
          : l.maxComputeWorkgroupStorageSize,
        maxComputeInvocationsPerWorkgroup: invocations ?? l.maxComputeInvocationsPerWorkgroup,
        maxComputeWorkgroupSizeX: invocations ?? l.maxComputeWorkgroupSizeX,
      },
      binding: parsed.binding ?? l.maxStorageBufferBindingSize,
      source: {
        kind: 'adapter',
        name:
          [ctx.adapter.vendor, ctx.adapter.device || ctx.adapter.description].filter(Boolean).join(' ') ||
          'WebGPU adapter',
      },
    };
  } finally {
    ctx.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------
// What a 1-D plan runs: its kernels (passes, then an R2C post-processing kernel where there is one) with
// the elements each reads and writes per problem, exactly as planWebGpuFftPasses gives them to WebGpuFft.

interface Program {
  /** The pass's recipe; null for the R2C post-processing kernel. */
  recipe: WorkgroupFftRecipe | null;
  /** Bluestein: 'forward' or 'inverse' L-point run. */
  phase?: 'forward' | 'inverse';
  inCount: number;
  inElem: number;
  outCount: number;
  outElem: number;
  /** Loads, stores and fused work of the kernel, and its dispatches, in words. */
  io: string;
}

export interface OneDPlan {
  problem: FftProblem;
  options: FftNdPlanOptions;
  planning: WebGpuFftPlan;
  programs: Program[];
  /** Problems per dispatch window group × groups (the N-D driver's second batch level). */
  problems: number;
  /** Global-memory bytes read + written over all kernels, all problems. */
  bytes: number;
}

/**
 * The device model the planner sees: the planner limits given, one storage binding of `binding` bytes
 * (unbounded when absent) and WebGPU's defaults for the dispatch limits.
 */
function deviceModel(limits: PlannerLimits, binding: number | undefined): DeviceLimits {
  return {
    maxComputeWorkgroupsPerDimension: 65535,
    maxBufferSize: Number.MAX_SAFE_INTEGER,
    minStorageBufferOffsetAlignment: 256,
    maxStorageBuffersPerShaderStage: 8,
    maxUniformBufferBindingSize: 65536,
    ...limits,
    maxStorageBufferBindingSize: binding ?? Number.MAX_SAFE_INTEGER,
  };
}

function passIoText(p: WebGpuFftPass): string {
  const k = p.kernel;
  const parts: string[] = [];
  if (k) {
    const io = k.io ?? { load: 'complex', store: 'complex' };
    parts.push(`${p.from} → ${p.to}, load ${io.load}, store ${io.store}`);
    if (k.io?.bluestein) {
      const b = k.io.bluestein;
      parts.push(
        `Bluestein ${[b.pre && 'input chirp', b.mid && 'filter spectrum', b.post && 'output chirp'].filter(Boolean).join(', ')}`,
      );
    }
    if (k.pairedR2c) parts.push('paired last stage');
    if (k.stagedR2cOut) parts.push('staged outputs');
    if (k.scale !== 1) parts.push(`scale ${k.scale}`);
  } else parts.push(`${p.from} → ${p.to}`);
  const n = p.chunks.length;
  parts.push(`${n} dispatch${n === 1 ? '' : 'es'} (grid ${p.chunks[0].grid.join('×')}${n > 1 ? ' first' : ''})`);
  return parts.join('; ');
}

/** The plan WebGpuFft.create would make for a problem and options, as data. */
export function planOneD(
  problem: FftProblem,
  options: FftNdPlanOptions,
  limits: PlannerLimits,
  binding?: number,
): OneDPlan {
  const planning = planWebGpuFftPasses(problem, deviceModel(limits, binding), options);
  const programs: Program[] = planning.passes.map((p) => ({
    recipe: p.kernel?.recipe ?? null,
    ...(planning.bluestein && p.kernel ? { phase: p.kernel.direction } : {}),
    ...p.sizes,
    io: passIoText(p),
  }));
  const problems = problem.batch * (options.outer?.count ?? 1);
  const bytes = programs.reduce((s, p) => s + (p.inCount * p.inElem + p.outCount * p.outElem) * problems, 0);
  return { problem, options, planning, programs, problems, bytes };
}

// ---------------------------------------------------------------------------------------------------
// Printing.

const join = (v: readonly number[], sep = 'x') => v.join(sep);

function passWhere(r: WorkgroupFftRecipe): string {
  if (!r.pass) return 'whole problem';
  if (!r.pass.outerTwiddle)
    return `${r.pass.total / r.n} neighbouring columns a problem (column stride ${r.pass.stride})`;
  return `columns of ${r.pass.total / r.n} with stride Ns = ${r.pass.stride}${r.pass.outerTwiddle && r.pass.stride > 1 ? ', outer twiddles' : ''}${r.pass.batchFastest ? ', batch-fastest' : ''}`;
}

function exchangeText(r: WorkgroupFftRecipe): string {
  const pass = r.pass
    ? (r.pass.loads === 'staged'
        ? ', column-staged load'
        : `, ${r.problemsPerWorkgroup} neighbouring columns loaded directly`) +
      (r.pass.store === 'column'
        ? ', column-staged store'
        : r.pass.store === 'rows'
          ? ', rows stored through workgroup memory'
          : '')
    : '';
  const shift = r.swizzleShift ?? 4;
  const swizzle = !r.swizzle
    ? ''
    : `, rows XOR-swizzled (i ^ ((i >> ${shift}) & 31))${r.swizzleRotate ? `, each column's blocks rotated by ${r.swizzleRotate} banks` : ''}`;
  // The bank-conflict model covers multi-pass kernels' exchanges (see planner/row-layout.ts).
  const conflicts =
    r.pass && (r.exchange === 'complex' || r.exchange === 'split') && r.stages.length > 1
      ? `; modelled bank conflicts ${exchangeConflicts(r, passRowLayout(r)).toFixed(2)}× (padded rows: ${exchangeConflicts(r, paddedPassLayout(r.n)).toFixed(2)}×)`
      : '';
  // Rounds: each exchange through one block of roundBlock values, P/R rounds (planner/fft-rounds.ts).
  const rounds =
    r.exchange === 'rounds'
      ? ` (fixed positions t + ${r.invocationsPerProblem}·σ; one block of ${r.roundBlock} values a round${r.roundsSplit ? ', real and imaginary parts in separate rounds' : ''})`
      : '';
  return `${r.exchange}${rounds}${r.padShift ? `, padded every ${1 << r.padShift}` : ''}${swizzle}${r.staging ? ', staged coalesced load/store' : ''}${pass}${conflicts}`;
}

function printPass(r: WorkgroupFftRecipe, label: string, indent: string, stages: boolean): void {
  console.log(`${indent}${label}: ${r.n}-point sub-transform over ${passWhere(r)}`);
  console.log(`${indent}  operator string: ${r.operators}`);
  console.log(
    `${indent}  mapping [b | l | p] = [${r.problemsPerWorkgroup} | ${r.invocationsPerProblem} | ${r.registers}], workgroup size ${r.workgroupSize}`,
  );
  console.log(
    `${indent}  exchange: ${exchangeText(r)}; workgroup memory ${r.workgroupBytes} B; twiddles: ${r.twiddles}`,
  );
  if (stages) {
    r.stages.forEach((s, k) =>
      console.log(
        `${indent}    stage ${k}: radix ${s.radix}, stride ${s.stride}, ${s.butterfliesPerInvocation} butterfl${s.butterfliesPerInvocation === 1 ? 'y' : 'ies'} per invocation`,
      ),
    );
  } else console.log(`${indent}  radices ${r.radices.join('·')}`);
}

function schemeText(plan: OneDPlan): string | null {
  const { planning, options, problem } = plan;
  const s = planning.scheme;
  const blu = planning.bluestein;
  const parts: string[] = [];
  if (s && options.real) {
    const N = problem.n;
    if (s.packed) {
      const post =
        options.real === 'c2r'
          ? 'Hermitian pre-processing fused into the first pass'
          : s.postKernel
            ? 'R2C post-processing as its own kernel'
            : planning.recipe.algorithm === 'stockham-multipass'
              ? 'R2C post-processing fused into the last pass'
              : 'R2C post-processing in the workgroup';
      parts.push(`real: ${N} reals packed as ${s.m} complex values (the N/2-point transform), ${post}`);
    } else
      parts.push(
        `real: ${N}-point complex transform with real ${options.real === 'r2c' ? 'input' : 'output'} (odd or unpackable length)`,
      );
  }
  if (blu) {
    parts.push(
      `Bluestein chirp-z: ${blu.m} has a prime factor > 64; cyclic convolution of length L = ${blu.L} (2^a·3^b ≥ 2·${blu.m}−1), the L-point recipe forward then inverse`,
    );
  }
  return parts.length ? parts.join('; ') : null;
}

function summary(plan: OneDPlan): string {
  const passes = plan.programs.filter((p) => p.recipe) as (Program & { recipe: WorkgroupFftRecipe })[];
  const post = plan.programs.length - passes.length;
  const radices = passes.map((p) => p.recipe.radices.join('·')).join(' | ');
  const mapping = passes
    .map((p) => `[${p.recipe.problemsPerWorkgroup}|${p.recipe.invocationsPerProblem}|${p.recipe.registers}]`)
    .join(' ');
  const wg = passes.map((p) => p.recipe.workgroupBytes).join(' | ');
  return `${passes.length} pass${passes.length === 1 ? '' : 'es'}${post ? ' + post-processing kernel' : ''}; radices ${radices}; mapping [b|l|p] ${mapping}; workgroup memory ${wg} B`;
}

function printPrograms(plan: OneDPlan, indent: string, stages: boolean): void {
  let k = 0;
  for (const p of plan.programs) {
    const perProblem = p.inCount * p.inElem + p.outCount * p.outElem;
    const label = `${p.recipe ? 'pass' : 'kernel'} ${k++}${p.phase ? ` (${p.phase} L-point)` : ''}`;
    if (p.recipe) printPass(p.recipe, label, indent, stages);
    else
      console.log(
        `${indent}${label}: R2C post-processing, ${p.inCount} complex values in, ${p.outCount} out per problem`,
      );
    console.log(`${indent}  runs: ${p.io}`);
    console.log(
      `${indent}  bytes moved: ${perProblem} per problem (${p.inCount}×${p.inElem} B read + ${p.outCount}×${p.outElem} B written), ${perProblem * plan.problems} in all`,
    );
  }
}

function layoutText(l: ComplexLayout): string {
  return `stride ${l.stride}, distance ${l.dist}`;
}

function stepLayout(
  mode: FftNdStep['candidates'][number]['mode'],
  problem: FftProblem,
  options: WebGpuFftPlanOptions,
): string {
  const io = (f: (l: ComplexLayout) => string) => {
    const a = f(problem.input);
    const b = f(problem.output);
    return a === b ? a : `in ${a}, out ${b}`;
  };
  if (mode === 'columns') {
    return `column blocks: ${problem.batch} block${problem.batch === 1 ? '' : 's'} (distance ${problem.input.dist}) of ${options.columns} neighbouring columns (element stride ${options.columns}), one column-staged pass`;
  }
  const outer = options.outer
    ? `; × ${options.outer.count} outer groups (distance in ${options.outer.inDist}, out ${options.outer.outDist})`
    : '';
  const what =
    mode === 'rows' ? 'rows' : mode === 'interleaved' ? 'strided batch, batch-fastest multi-pass' : 'strided batch';
  return `${what}: batch ${problem.batch}, ${io(layoutText)}${outer}`;
}

const MODE_NAMES = {
  columns: 'column blocks',
  interleaved: 'batch-fastest multi-pass',
  strided: 'strided batch',
  rows: 'rows',
} as const;

function printOneDLength(a: PlanArgs): void {
  const n = a.shape[0];
  const problem = fftProblem({ n, batch: a.batch });
  const plan = planOneD(problem, {}, a.limits, a.binding);
  const { recipe } = plan.planning;
  console.log(
    `n = ${n}, batch = ${a.batch} (workgroup storage ${a.limits.maxComputeWorkgroupStorageSize} B, ${a.limits.maxComputeInvocationsPerWorkgroup} invocations` +
      `${a.binding === undefined ? '' : `, storage binding ${a.binding} B`})`,
  );
  if (recipe.algorithm === 'bluestein') {
    console.log(
      `Bluestein chirp-z: n has a prime factor > 64; cyclic convolution of length L = ${recipe.L} (2^a·3^b ≥ 2n−1),`,
    );
    console.log('the L-point transform forward then inverse, chirps and the filter spectrum fused into the passes.');
  }
  const perProblem = plan.bytes / plan.problems;
  console.log(
    `passes over global memory: ${plan.programs.length}; bytes moved per problem: ${perProblem} (complex64 read + write per pass)`,
  );
  plan.programs.forEach((p, i) => {
    printPass(p.recipe!, `pass ${i}`, '', true);
    console.log(`  runs: ${p.io}`);
  });
  console.log(
    `total global-memory bytes moved: ${plan.bytes} (${plan.problems} problem${plan.problems === 1 ? '' : 's'})`,
  );
}

/**
 * The 1-D plan WebGpuFftNd.create runs for a step: its candidates in order, each but the last skipped
 * when refused as create() skips it. `refused` says why the skipped ones were.
 */
export function chooseStepPlan(
  step: FftNdStep,
  limits: PlannerLimits,
  binding?: number,
):
  | { plan: OneDPlan; mode: FftNdStep['candidates'][number]['mode']; refused: string[] }
  | { error: unknown; refused: string[] } {
  const refused: string[] = [];
  for (const [i, c] of step.candidates.entries()) {
    try {
      return { plan: planOneD(c.problem, c.options, limits, binding), mode: c.mode, refused };
    } catch (e) {
      if (i === step.candidates.length - 1 || !fftNdFallsBack(e)) return { error: e, refused };
      refused.push(`${MODE_NAMES[c.mode]}: ${(e as Error).message}`);
    }
  }
  throw new Error('unreachable: a step has at least one candidate');
}

function printNd(a: PlanArgs): void {
  // --batch: a leading dimension of that size, not transformed.
  const ndimUser = a.shape.length;
  const userAxes = a.axes ?? Array.from({ length: ndimUser }, (_, i) => i);
  const shift = a.batch > 1 ? 1 : 0;
  const shape = shift ? [a.batch, ...a.shape] : a.shape;
  const axes = userAxes.map((x) => (x < 0 ? x + ndimUser : x) + shift);
  const nd = planFftNd({ shape, axes, kind: a.kind });
  const elem = (real: boolean) => (real ? 'f32' : 'complex64');
  const bytesOf = (s: number[], real: boolean) => s.reduce((p, v) => p * v, 1) * (real ? 4 : 8);
  console.log(
    `shape ${join(a.shape)}${shift ? `, batch ${a.batch} (leading dimension)` : ''}: ${a.kind} ${nd.direction} over axes [${userAxes.join(', ')}], ${nd.steps.length} step${nd.steps.length === 1 ? '' : 's'}`,
  );
  console.log(
    `device model: workgroup storage ${a.limits.maxComputeWorkgroupStorageSize} B, ${a.limits.maxComputeInvocationsPerWorkgroup} invocations, storage binding ${a.binding === undefined ? 'unlimited' : `${a.binding} B`}`,
  );
  const inReal = nd.kind === 'r2c';
  const outReal = nd.kind === 'c2r';
  console.log(
    `input ${join(nd.inShape)} ${elem(inReal)} (${bytesOf(nd.inShape, inReal)} B) → output ${join(nd.outShape)} ${elem(outReal)} (${bytesOf(nd.outShape, outReal)} B)`,
  );
  let total = 0;
  let passes = 0;
  nd.steps.forEach((step, k) => {
    const chosen = chooseStepPlan(step, a.limits, a.binding);
    if ('error' in chosen) {
      console.log(
        `step ${k + 1}: axis ${step.axis - shift} (length ${step.candidates[0].problem.n}): no WebGPU plan (the library refuses it; backend 'auto' computes it on the CPU)`,
      );
      for (const r of chosen.refused) console.log(`  (skipped ${r})`);
      throw chosen.error;
    }
    const { plan: p, mode, refused } = chosen;
    const axisUser = step.axis - shift;
    const n = p.problem.n;
    const real = step.real
      ? `${step.real}, ${step.real === 'r2c' ? `${n} reals → ${Math.floor(n / 2) + 1} complex` : `${Math.floor(n / 2) + 1} complex → ${n} reals`}`
      : 'c2c';
    console.log(
      `step ${k + 1}: axis ${axisUser} (length ${n}, ${real}); ${join(step.inShape)} → ${join(step.outShape)}`,
    );
    for (const r of refused) console.log(`  (skipped ${r})`);
    console.log(`  layout: ${stepLayout(mode, p.problem, p.options)}`);
    const s = schemeText(p);
    if (s) console.log(`  ${s}`);
    console.log(`  ${summary(p)}; bytes moved ${p.bytes}`);
    printPrograms(p, '  ', false);
    total += p.bytes;
    passes += p.programs.length;
  });
  const minimum = bytesOf(nd.inShape, inReal) + bytesOf(nd.outShape, outReal);
  console.log(
    `total global-memory bytes moved: ${total} over ${passes} kernel pass${passes === 1 ? '' : 'es'} (${(total / minimum).toFixed(2)}× one read of the input and one write of the output)`,
  );
}

export const planCommand: CliCommand = {
  spec: PLAN_SPEC,
  usesGpu: (p) => !p.flag('--default-limits') && !p.flag('--cpu'),
  async run(p) {
    // Without a length or shape there is nothing to plan: the usage, and a non-zero exit.
    if (p.positionals.length === 0) {
      console.log(PLAN_USAGE);
      process.exitCode = 2;
      return;
    }
    const parsed = parsePlanArgs(p);
    if (parsed.cpu) {
      const n = parsed.shape[0];
      console.log(JSON.stringify({ f32: planCpuEngineFft(n, 'f32'), f64: planCpuEngineFft(n, 'f64') }, null, 2));
      return;
    }
    const L = await planLimits(p, parsed);
    const a = { ...parsed, limits: L.limits, binding: L.binding };
    console.log(
      L.source.kind === 'adapter'
        ? `limits of this machine's WebGPU adapter (${L.source.name}); --default-limits for the default model`
        : 'limits of the default device model (a desktop GPU: 48 KiB workgroup storage, 1024 invocations)',
    );
    if (a.length && a.kind === 'c2c') printOneDLength(a);
    else printNd(a);
    console.log('');
    console.log(PLAN_LEGEND);
  },
};
