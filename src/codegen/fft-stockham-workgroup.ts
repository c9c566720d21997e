/**
 * WorkgroupFftRecipe → WGSL compute kernel (the seeds' ID-FFT inside one workgroup).
 *
 * Each stage s of the recipe is Υ^R on the top digit followed by the shuffle Γ (see core/stockham.ts):
 * butterfly j of the stage reads elements j + k·N/R (k < R) and writes them to
 * ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns. The permutation therefore costs nothing by itself: it is the address
 * pattern of the workgroup-memory write between two stages. The first stage reads global memory directly
 * (consecutive invocations read consecutive elements: coalesced) and the last stage's write map reduces to
 * j + k·N/R, so the store is coalesced too. All register indices are compile-time constants (the code is
 * fully unrolled), so the values stay in registers.
 *
 * Bindings: 0 src (read), 1 dst (read_write) — or one read_write buffer when in place —, 2 twiddle table
 * W_N^e (e < N, float64-accurate values rounded to f32; only when a stage has twiddles), 3 uniforms.
 *
 * This file holds the stages and the choices between forms; the exchanges are in fft-exchange.ts, the
 * copies between global memory and rows in fft-pass-io.ts, the R2C post-processing in fft-real-fused-post.ts.
 */
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import type { FftDirection } from '../planner/fft-problem.js';
import { stableKey } from './kernel-source.js';
import { dftEmitter, emitDft, f32 } from './dft-small.js';
import { shuffleExchange, split4RoundBits } from '../planner/fft-subgroup.js';
import { r2cPassFusable } from '../planner/fft-webgpu.js';
import {
  exchangeRowStride,
  r2cPairedLastFits,
  r2cStagedOutFits,
  type FftPassIo,
} from '../planner/fft-webgpu-passes.js';
import { twoLevelRadix } from '../planner/fft-workgroup.js';
import {
  exchangeCode,
  mappedSlotConstant,
  mappedSlotExpr,
  padIndex,
  roundsExchangeCode,
  shuffleCode,
  swapBits0,
  readIndex,
  twiddleIndex,
  writeIndex,
} from './fft-exchange.js';
import {
  columnCopy,
  outerTwiddleSplit,
  outerTwiddleTable,
  passAddressing,
  rowStore,
  stagedCopy,
} from './fft-pass-io.js';
import {
  pairedHigh,
  R2C_OUT_WGSL,
  r2cPassAddressing,
  r2cPassPost,
  r2cPostCode,
  r2cPostPaired,
  r2cPostRounds,
  r2cPostSplit,
  realTwiddleTable,
} from './fft-real-fused-post.js';

export interface FftKernelSource {
  name: string;
  key: string;
  wgsl: string;
  entryPoint: string;
  /** Multi-pass kernels: the outer twiddle table to bind at 'outer' (direction already applied). */
  outerTable?: Float32Array;
  /** Which resources the kernel declares, in binding order. */
  bindings: ('src' | 'dst' | 'data' | 'twiddles' | 'params' | 'outer' | 'real' | 'aux' | 'blu')[];
  /** Real-transform kernels: the table W_N^k (k ≤ N/2) to bind at 'real'. */
  realTable?: Float32Array;
}

/**
 * How a kernel reads its input and writes its output (the planner's FftPassIo), for real transforms
 * (fused pre/post-processing):
 * - load 'c2r': the input is the N/2+1 half spectrum Y of a real signal of even length N; element e of
 *   the N/2-point complex transform is z_e = E_e + i·O_e with E = ½(Y_e + Ȳ_{M−e}), O = ½(Y_e − Ȳ_{M−e})·W_N^{−e}
 *   (M = N/2), so the inverse transform of z is the real output, interleaved (x_2k, x_2k+1).
 * - load 'real': real input (f32 array), imaginary part 0 (odd N).
 * - load 'hermitian': the N/2+1 half spectrum, expanded by Y_{N−e} = Ȳ_e (odd N).
 * - store 'r2c': the N/2-point transform z of the packed real signal x_2k + i·x_2k+1 is turned into the
 *   N/2+1 outputs y_k = ½(z_k + z̄_{M−k}) − ½i·W_N^k·(z_k − z̄_{M−k}) before the store (even N).
 * - store 'half': only outputs 0 … ⌊N/2⌋ are written (odd N R2C).
 * - store 'real': only real parts are written, to an f32 array (odd N C2R).
 * - 'packed-real': an adapter's real array read or written as pairs through its hooks.
 * Bluestein's chirp-z transform of length n through L-point FFTs: `pre` multiplies the user's input by
 * the chirp (zero beyond n), `mid` multiplies the forward transform by the chirp filter's spectrum,
 * `post` multiplies by the chirp, scales, and keeps the first n outputs. Tables at binding 7.
 */
export interface FftKernelIo extends FftPassIo {
  /** Virtual inputs/outputs (r2r transforms): WGSL replacing the raw element access. */
  custom?: FftCustomIo;
}

/**
 * Hooks an adapter (DCT, DST, DHT) gives the generator: WGSL functions that replace raw element access,
 * so the adapter's pre/post-processing runs inside the FFT's own first/last pass (no extra pass over
 * global memory). Any hook left out keeps the default (a plain read/write with the layout's stride).
 */
export interface FftCustomIo {
  /** Everything that changes the hooks' code (goes into the pipeline cache key). */
  key: string;
  srcType: 'f32' | 'vec2<f32>';
  dstType: 'f32' | 'vec2<f32>';
  /** fn rdr(base: u32, i: u32) -> f32: element i of the virtual real input. */
  rdr?: string;
  /** fn rd(base: u32, k: u32) -> vec2<f32>: element k of the virtual complex input. */
  rd?: string;
  /** fn wr(base: u32, k: u32, v: vec2<f32>): receives complex output k. */
  wr?: string;
  /**
   * fn wrq(base: u32, k: u32, v: vec2<f32>, q: vec2<f32>): wr given q = aux[k] of a quarter-root table
   * (aux[k] = e^{−iπk/(2N)}, N the real length). The fused last pass of a multi-pass R2C, whose outputs
   * are far apart, forms q from one table read an invocation instead of one an output (see r2cPassPost).
   */
  wrq?: string;
  /** fn wrr(base: u32, i: u32, v: f32): receives real output i. */
  wrr?: string;
  /** Extra WGSL the input hooks need (emitted only in the kernel that reads the user's input). */
  inHelpers?: string;
  /** Extra WGSL the output hooks need (emitted only in the kernel that writes the user's output). */
  outHelpers?: string;
  /** Table bound at binding 6 as `aux: array<vec2<f32>>`. */
  table?: Float32Array;
}

export interface FftKernelVariant {
  direction: FftDirection;
  /** Output scale (normalisation), folded into the last store. */
  scale: number;
  /** Source and destination are the same buffer (one read_write binding). */
  inPlace: boolean;
  /** Real-transform loads/stores (default: complex in, complex out). */
  io?: FftKernelIo;
  /**
   * R2C stores: pair each invocation's last-stage butterflies with their mirrors so the post-processing
   * needs no exchange (see r2cPostPaired). The planner decides (FftPassKernel.pairedR2c); the recipe must
   * allow it (r2cPairedLastFits).
   */
  pairedR2c?: boolean;
  /**
   * Single-workgroup R2C (and the r2r transforms built on it): the post-processed outputs go to workgroup
   * memory and then out by a coalesced copy of whole rows, instead of each invocation storing its own
   * outputs. The planner decides (FftPassKernel.stagedR2cOut); the recipe must allow it (r2cStagedOutFits).
   */
  stagedR2cOut?: boolean;
}

/** Size of the uniform block, in bytes (8 u32). */
export const FFT_PARAMS_BYTES = 32;

export function generateWorkgroupFft(recipe: WorkgroupFftRecipe, variant: FftKernelVariant): FftKernelSource {
  const { n, stages, invocationsPerProblem: L, problemsPerWorkgroup: B, exchange, padShift } = recipe;
  const sign: 1 | -1 = variant.direction === 'forward' ? -1 : 1;
  const needsTwiddles = stages.some((s) => s.stride > 1);
  const P = recipe.registers;
  const staging = recipe.staging;
  const pass = recipe.pass;
  const directPass = !!pass && pass.loads === 'direct';
  const outer = pass && pass.stride > 1 && pass.outerTwiddle ? outerTwiddleSplit(pass.stride * n) : null;
  const paddedN = exchangeRowStride(recipe);
  const pad = padIndex(recipe);
  const SRC = variant.inPlace ? 'data' : 'src';
  const DST = variant.inPlace ? 'data' : 'dst';
  const io: FftKernelIo = variant.io ?? { load: 'complex', store: 'complex', realLength: 0 };
  const realIn = io.load === 'real';
  const realOut = io.store === 'real';
  const srcType = io.custom?.srcType ?? (realIn ? 'f32' : 'vec2<f32>');
  const dstType = io.custom?.dstType ?? (realOut ? 'f32' : 'vec2<f32>');
  const r2cPost = io.store === 'r2c';
  // The last pass of a multi-pass R2C does the post-processing itself when its workgroups hold whole
  // mirror pairs of columns (see r2cPassFusable); other passes cannot.
  const r2cPass = r2cPost && !!pass;
  if (r2cPass && !r2cPassFusable(recipe))
    throw new Error('r2c post-processing needs a single-workgroup recipe or a fusable last pass');
  // Paired last stage (see r2cPostPaired) and staged outputs, as the planner decided them.
  const lastStage = stages[stages.length - 1];
  const pairedLast = r2cPost && !!variant.pairedR2c;
  if (pairedLast && !r2cPairedLastFits(recipe)) throw new Error('pairedR2c: the recipe has no paired last stage');
  // With a split exchange the post-processing gathers real and imaginary parts in two rounds.
  const splitPost = r2cPost && exchange === 'split' && !pairedLast;
  if (r2cPost && exchange === 'split4' && !pairedLast)
    throw new Error("an R2C with the 'split4' exchange needs the paired last stage");
  if (exchange === 'rounds' && (pass || staging || stages.some((st) => st.exchange || st.butterflyBits)))
    throw new Error("the 'rounds' exchange needs a plain single-workgroup recipe (no pass or shuffles)");
  // An R2C after the rounds exchange gathers mirror pairs through the same block (r2cPostRounds).
  const roundsPost = r2cPost && exchange === 'rounds';
  const stageOut = r2cPost && !!variant.stagedR2cOut;
  if (stageOut && !r2cStagedOutFits(recipe)) throw new Error('stagedR2cOut: the recipe has no padded complex row');
  // Butterfly m of stage s: t + m·L, except the upper half of a paired last stage (mirror butterflies).
  // Stages with a butterfly bit map (around subgroup exchanges): j = jt_s (the invocation's bits) + a constant.
  const subgroups = stages.some((st) => st.exchange === 'shuffle');
  if (subgroups && (r2cPost || pass || staging))
    throw new Error('subgroup exchanges need a plain single-workgroup recipe');
  if (subgroups && exchange === 'split4' && !split4RoundBits(stages).ok)
    throw new Error("the 'split4' rounds need their bit in t on both sides");
  const bfly = (s: number, m: number): string => {
    if (stages[s].butterflyBits) return `(jt${s} + ${mappedSlotConstant(stages[s].butterflyBits!, m, L)}u)`;
    const half = lastStage.butterfliesPerInvocation / 2;
    if (s === 0 && exchange === 'split4') return `(${swapBits0('t', Math.log2(stages[0].radix))} + ${m * L}u)`;
    if (!pairedLast || s !== stages.length - 1 || m < half) return `(t + ${m * L}u)`;
    return pairedHigh(m - half, L, n / lastStage.radix);
  };
  const needsRealTable = io.load === 'c2r' || r2cPost;

  const out: string[] = [];
  const bindings: FftKernelSource['bindings'] = [];
  if (variant.inPlace) {
    out.push('@group(0) @binding(0) var<storage, read_write> data: array<vec2<f32>>;');
    bindings.push('data');
  } else {
    out.push(`@group(0) @binding(0) var<storage, read> src: array<${srcType}>;`);
    out.push(`@group(0) @binding(1) var<storage, read_write> dst: array<${dstType}>;`);
    bindings.push('src', 'dst');
  }
  if (needsTwiddles) {
    out.push('@group(0) @binding(2) var<storage, read> twiddles: array<vec2<f32>>;');
    bindings.push('twiddles');
  }
  if (outer) {
    out.push('@group(0) @binding(4) var<storage, read> outer: array<vec2<f32>>;');
    bindings.push('outer');
  }
  if (needsRealTable) {
    out.push('@group(0) @binding(5) var<storage, read> rtw: array<vec2<f32>>;');
    bindings.push('real');
  }
  // Declared only where a hook of this kernel reads it: 'auto' layouts drop unused bindings.
  const hookCode = [
    io.custom?.rd,
    io.custom?.rdr,
    io.custom?.wr,
    io.custom?.wrr,
    io.custom?.inHelpers,
    io.custom?.outHelpers,
  ].join('\n');
  if (io.custom?.table && hookCode.includes('aux[')) {
    out.push('@group(0) @binding(6) var<storage, read> aux: array<vec2<f32>>;');
    bindings.push('aux');
  }
  if (io.bluestein) {
    out.push('@group(0) @binding(7) var<storage, read> blu: array<vec2<f32>>;');
    bindings.push('blu');
  }
  out.push(...ioFunctions(io, SRC, DST));
  out.push(
    'struct Params { batch: u32, grid_x: u32, in_offset: u32, in_stride: u32, in_dist: u32, out_offset: u32, out_stride: u32, out_dist: u32 }',
    '@group(0) @binding(3) var<uniform> params: Params;',
  );
  bindings.push('params');
  if (exchange !== 'none') {
    const ty = exchange === 'complex' || (exchange === 'rounds' && !recipe.roundsSplit) ? 'vec2<f32>' : 'f32';
    out.push(`var<workgroup> sh: array<${ty}, ${paddedN * B}>;`);
  }
  out.push(
    'fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }',
  );
  if (padShift > 0) out.push(`fn pad(i: u32) -> u32 { return i + (i >> ${padShift}u); }`);
  // The swizzle permutes each aligned block of 32 values (rows are multiples of 32), so rows stay in place;
  // pass kernels also rotate row r's blocks by r·swizzleRotate banks (see planner/row-layout.ts).
  else if (recipe.swizzle && recipe.swizzleRotate) {
    out.push(
      `fn pad(i: u32, r: u32) -> u32 { let s = i ^ ((i >> ${recipe.swizzleShift ?? 4}u) & 31u); return (s & ~31u) | ((s + r * ${recipe.swizzleRotate}u) & 31u); }`,
    );
  } else if (recipe.swizzle)
    out.push(`fn pad(i: u32) -> u32 { return i ^ ((i >> ${recipe.swizzleShift ?? 4}u) & 31u); }`);
  if (r2cPost) out.push(R2C_OUT_WGSL);

  const body: string[] = [];
  body.push(
    'let wg = wid.x + wid.y * params.grid_x;',
    // Direct pass kernels interleave columns: neighbouring invocations serve neighbouring columns, so a
    // load of element e by every invocation touches consecutive addresses without staging.
    directPass ? `let t = lid / ${B}u;` : `let t = lid % ${L}u;`,
    directPass ? `let local_problem = lid % ${B}u;` : `let local_problem = lid / ${L}u;`,
  );
  if (r2cPass) {
    body.push(...r2cPassAddressing(recipe));
  } else {
    body.push(
      `let problem = wg * ${B}u + local_problem;`,
      // Invocations past the batch still run every barrier (uniform control flow) but touch no memory.
      'let live = problem < params.batch;',
    );
  }
  if (r2cPass) {
    // (addressing done above)
  } else if (pass) {
    body.push(...passAddressing(recipe, 'problem', ''));
  } else {
    body.push(
      'let in_base = params.in_offset + problem * params.in_dist;',
      'let out_base = params.out_offset + problem * params.out_dist;',
    );
  }
  if (exchange !== 'none') body.push(`let sbase = local_problem * ${paddedN}u;`);
  stages.forEach((st, s) => st.butterflyBits && body.push(`let jt${s} = ${mappedSlotExpr(st.butterflyBits, 't', L)};`));
  if (subgroups) body.push(`let lane = t & ${recipe.subgroupSize! - 1}u;`);
  for (let i = 0; i < P; i++) body.push(`var v${i}: vec2<f32>;`);

  const em = dftEmitter();
  const tw = (idx: string) => (sign === -1 ? `twiddles[${idx}]` : `conj2(twiddles[${idx}])`);
  /**
   * The stage twiddles W^k (k < R) of a butterfly with jm = j mod Ns: the lines that form them (named w<tag>_k) and
   * each factor's expression. 'recurrence' (and 'two-level' below its radices): one table read, W^k by binary
   * powering (error like log k, not k); 'two-level': W^1 and W^B read (B = 2^⌈log2(R)/2⌉, B² ≥ R), W^k = (W^B)^a·W^b
   * raises the rounded reads to at most the 2B−2nd power together; 'table': every factor read.
   */
  const twiddleFactors = (tag: string, jm: string, R: number, ns: number) => {
    const lines: string[] = [];
    const w = (k: number) => `w${tag}_${k}`;
    if (recipe.twiddles === 'table') return { lines, factor: (k: number) => tw(twiddleIndex(jm, k, n, ns, R)) };
    if (recipe.twiddles === 'recurrence' || !twoLevelRadix(R)) {
      lines.push(`let ${w(1)} = ${tw(twiddleIndex(jm, 1, n, ns, R))};`);
      for (let k = 2; k < R; k++) lines.push(`let ${w(k)} = cmul(${w(k >> 1)}, ${w(k - (k >> 1))});`);
    } else {
      const B = 2 ** Math.ceil(Math.log2(R) / 2);
      const base = B < R ? [1, B] : [1];
      for (const p of base) lines.push(`let ${w(p)} = ${tw(twiddleIndex(jm, p, n, ns, R))};`);
      for (let k = 2; k < R; k++) {
        if (base.includes(k)) continue;
        const top = k >= B && B < R ? B : 1;
        lines.push(`let ${w(k)} = cmul(${w(k - top)}, ${w(top)});`);
      }
    }
    return { lines, factor: w };
  };
  stages.forEach((st, s) => {
    const R = st.radix;
    const nb = n / R; // butterflies in the stage
    const exact = st.butterfliesPerInvocation * L === nb;
    const last = s === stages.length - 1;
    body.push(`// stage ${s}: radix ${R}, stride ${st.stride}`);
    const preLoads: string[] = [];
    const blocks: string[][] = [];
    // Rounds recipes: where Ns divides L, j mod Ns = t mod Ns for every butterfly t + m·L of the invocation, so the
    // stage's twiddles are read and formed once, not once a butterfly. Only there: the compiler already merged most
    // of the repeated reads (≤ 2% measured), and the other recipes' kernels stay as their benchmarks timed them.
    const shared =
      exchange === 'rounds' && st.stride > 1 && L % st.stride === 0
        ? twiddleFactors(`h${s}`, `(t % ${st.stride}u)`, R, st.stride)
        : null;
    for (let m = 0; m < st.butterfliesPerInvocation; m++) {
      const j = bfly(s, m);
      const guard = exact ? '' : `${j} < ${nb}u`;
      const regs = Array.from({ length: R }, (_, k) => `v${m * R + k}`);
      const lines: string[] = [];
      // Load: stage 0 from global memory, later stages from workgroup memory.
      if (s === 0 && directPass) {
        // Columns read straight into registers (interleaved invocations make the reads contiguous); the
        // outer twiddles W_{Ns·n}^{idx·(j mod Ns)} multiply each element as it arrives.
        const cols = pass!.total / n;
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, pj + (${readIndex(j, k, nb)}) * ${cols}u);`);
        if (outer) {
          lines.push(`let jo${m} = pj % ${pass!.stride}u;`);
          for (let k = 0; k < R; k++) {
            lines.push(
              `{ let ex = (${readIndex(j, k, nb)}) * jo${m}; ${regs[k]} = cmul(${regs[k]}, cmul(outer[ex % ${outer.lo}u], outer[${outer.lo}u + ex / ${outer.lo}u])); }`,
            );
          }
        }
      } else if (s === 0 && pass) {
        // Read into registers in a block of its own: a single-stage pass with a column store must pass a
        // barrier between every invocation's reads and the first write.
        const reads = regs.map((r, k) => `${r} = sh[sbase + ${pad(readIndex(j, k, nb))}];`);
        preLoads.push(guard ? `if (${guard}) { ${reads.join(' ')} }` : `{ ${reads.join(' ')} }`);
      } else if (s === 0 && staging) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = sh[sbase + ${k}u];`);
      } else if (s === 0) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, ${readIndex(j, k, nb)});`);
      } // (later stages were loaded by the previous stage's exchange)
      if (st.stride > 1) {
        let f = shared;
        if (!f) {
          lines.push(`let jm${m} = ${j} % ${st.stride}u;`);
          f = twiddleFactors(`${m}`, `jm${m}`, R, st.stride);
          lines.push(...f.lines);
        }
        for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, ${f.factor(k)});`);
      }
      em.lines.length = 0;
      const outs = emitDft(em, regs, sign);
      lines.push(...em.lines);
      // Write outputs back into the same registers, in natural order.
      const tmp = outs.map((o, k) => (o === regs[k] ? null : o));
      for (let k = 0; k < R; k++) if (tmp[k] !== null) lines.push(`${regs[k]} = ${tmp[k]};`);
      const sc = variant.scale === 1 ? '' : ` * ${f32(variant.scale)}`;
      const columnStore = pass?.store === 'column' || pass?.store === 'rows';
      if (last && (splitPost || pairedLast || roundsPost)) {
        // Values stay in registers: r2cPostSplit moves them through workgroup memory in two rounds,
        // r2cPostRounds through the rounds block, r2cPostPaired needs no exchange.
      } else if (last && r2cPost) {
        // Natural order into the row; the post-processing pairs k with M − k after a barrier.
        const at = (k: number) => (staging ? `${k}u` : pad(writeIndex(j, k, st.stride, R, nb)));
        for (let k = 0; k < R; k++) lines.push(`sh[sbase + ${at(k)}] = ${regs[k]};`);
      } else if (last && columnStore) {
        for (let k = 0; k < R; k++)
          lines.push(`sh[sbase + ${pad(writeIndex(j, k, st.stride, R, nb))}] = ${regs[k]}${sc};`);
      } else if (last && staging) {
        for (let k = 0; k < R; k++) lines.push(`sh[sbase + ${k}u] = ${regs[k]}${sc};`);
      } else if (last) {
        for (let k = 0; k < R; k++) {
          const idx = writeIndex(j, k, st.stride, R, nb);
          const logical = pass ? `ocol + (${idx}) * ${pass.stride}u` : idx;
          lines.push(`st(out_base, ${logical}, ${regs[k]}${sc});`);
        }
      }
      const staged = staging || (!!pass && !directPass);
      const g = [(s === 0 && !staged) || (last && !staging && !columnStore && !r2cPost) ? 'live' : '', guard]
        .filter(Boolean)
        .join(' && ');
      blocks.push(g ? [`if (${g}) {`, ...lines.map((l) => '  ' + l), '}'] : ['{', ...lines.map((l) => '  ' + l), '}']);
    }
    if (s === 0 && staging) body.push(...stagedCopy(recipe, paddedN, 'load', SRC));
    if (s === 0 && pass && !directPass) body.push(...columnCopy(recipe, paddedN, 'load', SRC, sign, outer));
    body.push(...preLoads);
    if (shared) body.push(...shared.lines);
    // The last stage has read workgroup memory (exchange or staged load) before a column store overwrites it.
    if (
      last &&
      (pass?.store === 'column' ||
        pass?.store === 'rows' ||
        (r2cPost && !staging && !splitPost && !pairedLast && !roundsPost))
    )
      body.push('workgroupBarrier();');
    for (const b of blocks) body.push(...b);
    if (last && r2cPass)
      body.push(...r2cPassPost(recipe, paddedN, pad, variant.scale, io.custom?.wrq ? io.realLength : 0, splitPost));
    else if (last && pairedLast) body.push(...r2cPostPaired(recipe, variant.scale, stageOut ? paddedN : 0));
    else if (last && roundsPost) body.push(...r2cPostRounds(recipe, pad, variant.scale));
    else if (last && splitPost) body.push(...r2cPostSplit(recipe, pad, variant.scale));
    else if (last && r2cPost) body.push(...r2cPostCode(recipe, paddedN, staging, pad, variant.scale, stageOut));
    else if (last && staging) body.push(...stagedCopy(recipe, paddedN, 'store', DST));
    if (last && pass?.store === 'column') body.push(...columnCopy(recipe, paddedN, 'store', DST, sign, null));
    if (last && pass?.store === 'rows') body.push(...rowStore(recipe, paddedN));
    if (!last && st.exchange === 'shuffle') body.push(...shuffleCode(shuffleExchange(recipe, s), P));
    else if (!last && exchange === 'rounds') body.push(...roundsExchangeCode(recipe, s, pad));
    else if (!last)
      body.push(
        ...exchangeCode(
          recipe,
          s,
          pad,
          !!pass && !directPass,
          (m) => bfly(s, m),
          (m) => bfly(s + 1, m),
        ),
      );
  });

  const wgsl = [
    ...(subgroups ? ['enable subgroups;'] : []),
    ...out,
    'fn conj2(a: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x, -a.y); }',
    `@compute @workgroup_size(${recipe.workgroupSize})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    ...body.map((l) => '  ' + l),
    '}',
    '',
  ].join('\n');
  const key = stableKey({
    k: 'fft-stockham-workgroup',
    n,
    radices: recipe.radices,
    L,
    B,
    exchange,
    ...(recipe.roundsSplit ? { roundsSplit: true } : {}),
    padShift,
    swizzle: recipe.swizzle ?? false,
    swizzleShift: recipe.swizzleShift ?? null,
    swizzleRotate: recipe.swizzleRotate ?? null,
    staging,
    pass: pass ?? null,
    twiddles: recipe.twiddles,
    io: variant.io
      ? {
          load: variant.io.load,
          store: variant.io.store,
          realLength: variant.io.realLength,
          custom: variant.io.custom?.key ?? null,
          bluestein: variant.io.bluestein ?? null,
        }
      : null,
    direction: variant.direction,
    scale: variant.scale,
    inPlace: variant.inPlace,
    paired: pairedLast,
    stagedOut: stageOut,
    ...(subgroups
      ? { subgroup: recipe.subgroupSize, maps: stages.map((st) => [st.exchange ?? null, st.butterflyBits ?? null]) }
      : {}),
  });
  const name = pass
    ? `fft${pass.total}-pass${n}x${pass.stride}-${variant.direction}`
    : `fft${n}-${variant.direction}-wg`;
  return {
    name,
    key,
    wgsl,
    entryPoint: 'main',
    bindings,
    outerTable: outer ? outerTwiddleTable(outer, variant.direction) : undefined,
    realTable: needsRealTable ? realTwiddleTable(io.realLength) : undefined,
  };
}

/** The ld/st functions every load and store goes through: layout strides and real-transform processing. */
function ioFunctions(io: FftKernelIo, SRC: string, DST: string): string[] {
  const N = io.realLength;
  const M = N >> 1;
  const c = io.custom;
  // Raw element access: rd/wr complex elements, rdr/wrr reals. Custom hooks (r2r transforms) replace
  // them, so every load mode below composes with a virtual input or output.
  const lines: string[] = [];
  const realSrc = (c?.srcType ?? (io.load === 'real' ? 'f32' : 'vec2<f32>')) === 'f32';
  const realDst = (c?.dstType ?? (io.store === 'real' ? 'f32' : 'vec2<f32>')) === 'f32';
  // Defaults only where the binding has the matching element type (a real array has no rd/wr).
  if (c?.rd) lines.push(c.rd);
  else if (!realSrc)
    lines.push(`fn rd(base: u32, k: u32) -> vec2<f32> { return ${SRC}[base + k * params.in_stride]; }`);
  if (c?.wr) lines.push(c.wr);
  if (c?.wr && c.wrq) lines.push(c.wrq);
  else if (!c?.wr && !realDst)
    lines.push(`fn wr(base: u32, k: u32, v: vec2<f32>) { ${DST}[base + k * params.out_stride] = v; }`);
  if (io.load === 'real' || io.load === 'packed-real')
    lines.push(c?.rdr ?? `fn rdr(base: u32, i: u32) -> f32 { return ${SRC}[base + i * params.in_stride]; }`);
  if (io.store === 'real' || io.store === 'packed-real')
    lines.push(c?.wrr ?? `fn wrr(base: u32, i: u32, v: f32) { ${DST}[base + i * params.out_stride] = v; }`);
  if (c?.inHelpers) lines.push(c.inHelpers);
  if (c?.outHelpers) lines.push(c.outHelpers);
  switch (io.load) {
    case 'complex':
      lines.push('fn ld(base: u32, idx: u32) -> vec2<f32> { return rd(base, idx); }');
      break;
    case 'real':
      lines.push('fn ld(base: u32, idx: u32) -> vec2<f32> { return vec2<f32>(rdr(base, idx), 0.0); }');
      break;
    case 'packed-real':
      lines.push(
        'fn ld(base: u32, idx: u32) -> vec2<f32> { return vec2<f32>(rdr(base, 2u * idx), rdr(base, 2u * idx + 1u)); }',
      );
      break;
    case 'hermitian':
      lines.push(
        `fn ld(base: u32, idx: u32) -> vec2<f32> {`,
        `  if (idx <= ${M}u) { return rd(base, idx); }`,
        `  let y = rd(base, ${N}u - idx);`,
        '  return vec2<f32>(y.x, -y.y);',
        '}',
      );
      break;
    case 'c2r':
      lines.push(
        `fn ld(base: u32, idx: u32) -> vec2<f32> {`,
        '  var a = rd(base, idx);',
        `  let y = rd(base, ${M}u - idx);`,
        '  var b = vec2<f32>(y.x, -y.y);',
        // As numpy: the imaginary parts of Y_0 and Y_{N/2} are ignored (a real signal has none).
        '  if (idx == 0u) { a.y = 0.0; b.y = 0.0; }',
        '  let e = (a + b) * 0.5;',
        '  let w = rtw[idx];',
        '  let d = (a - b) * 0.5;',
        // O = d · W_N^{−idx} = d · conj(w); z = E + i·O
        '  let o = vec2<f32>(d.x * w.x + d.y * w.y, d.y * w.x - d.x * w.y);',
        '  return vec2<f32>(e.x - o.y, e.y + o.x);',
        '}',
      );
      break;
  }
  switch (io.store) {
    case 'complex':
    case 'r2c':
      lines.push('fn st(base: u32, idx: u32, v: vec2<f32>) { wr(base, idx, v); }');
      break;
    case 'half':
      lines.push(`fn st(base: u32, idx: u32, v: vec2<f32>) { if (idx <= ${M}u) { wr(base, idx, v); } }`);
      break;
    case 'real':
      lines.push('fn st(base: u32, idx: u32, v: vec2<f32>) { wrr(base, idx, v.x); }');
      break;
    case 'packed-real':
      lines.push(
        'fn st(base: u32, idx: u32, v: vec2<f32>) { wrr(base, 2u * idx, v.x); wrr(base, 2u * idx + 1u, v.y); }',
      );
      break;
  }
  const b = io.bluestein;
  if (!b) return lines;
  // Bluestein wraps the user-facing ld/st: chirp in, filter spectrum in the middle, chirp out.
  const wrapped = lines
    .map((l) => (b.pre ? l.replace('fn ld(', 'fn ld_user(') : l))
    .map((l) => (b.post ? l.replace('fn st(', 'fn st_user(') : l));
  if (b.mid) {
    // The middle pass reads the forward transform (complex scratch) and multiplies by B/L.
    const i = wrapped.findIndex((l) => l.startsWith('fn ld('));
    wrapped[i] = `fn ld(base: u32, idx: u32) -> vec2<f32> { return cmul(rd(base, idx), blu[${b.n}u + idx]); }`;
  }
  if (b.pre)
    wrapped.push(
      `fn ld(base: u32, idx: u32) -> vec2<f32> { if (idx >= ${b.n}u) { return vec2<f32>(0.0, 0.0); } return cmul(ld_user(base, idx), blu[idx]); }`,
    );
  if (b.post)
    wrapped.push(
      `fn st(base: u32, idx: u32, v: vec2<f32>) { if (idx < ${b.n}u) { st_user(base, idx, cmul(v, blu[idx]) * ${f32(b.scale)}); } }`,
    );
  return wrapped;
}
