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
 */
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import type { FftDirection } from '../planner/fft-problem.js';
import { stableKey } from './kernel-source.js';
import { dftEmitter, emitDft, f32 } from './dft-small.js';
import { unitRoot } from '../planner/twiddles.js';
import { shuffleExchange, split4RoundBits, type ShuffleExchange } from '../planner/fft-subgroup.js';
import { r2cPassFusable } from '../planner/fft-webgpu.js';
import {
  exchangeRowStride,
  r2cPairedLastFits,
  r2cStagedOutFits,
  type FftPassIo,
} from '../planner/fft-webgpu-passes.js';
import { twoLevelRadix } from '../planner/fft-workgroup.js';

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

/**
 * One R2C output from the half-length transform z: y_k = ½(z_k + z̄_{M−k}) − ½i·W_N^k·(z_k − z̄_{M−k}),
 * with a = z_k, cb = z̄_{M−k}, w = W_N^k (−i·d = (d.y, −d.x)). Every post-processing path calls it.
 */
export const R2C_OUT_WGSL = `fn r2cOut(a: vec2<f32>, cb: vec2<f32>, w: vec2<f32>) -> vec2<f32> {
  let d = cmul(w, (a - cb) * 0.5);
  return (a + cb) * 0.5 + vec2<f32>(d.y, -d.x);
}`;

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
    const ty = exchange === 'complex' ? 'vec2<f32>' : 'f32';
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
  stages.forEach((st, s) => {
    const R = st.radix;
    const nb = n / R; // butterflies in the stage
    const exact = st.butterfliesPerInvocation * L === nb;
    const last = s === stages.length - 1;
    body.push(`// stage ${s}: radix ${R}, stride ${st.stride}`);
    const preLoads: string[] = [];
    const blocks: string[][] = [];
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
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, pj + (${j} + ${k * nb}u) * ${cols}u);`);
        if (outer) {
          lines.push(`let jo${m} = pj % ${pass!.stride}u;`);
          for (let k = 0; k < R; k++) {
            lines.push(
              `{ let ex = (${j} + ${k * nb}u) * jo${m}; ${regs[k]} = cmul(${regs[k]}, cmul(outer[ex % ${outer.lo}u], outer[${outer.lo}u + ex / ${outer.lo}u])); }`,
            );
          }
        }
      } else if (s === 0 && pass) {
        // Read into registers in a block of its own: a single-stage pass with a column store must pass a
        // barrier between every invocation's reads and the first write.
        const reads = regs.map((r, k) => `${r} = sh[sbase + ${pad(`${j} + ${k * nb}u`)}];`);
        preLoads.push(guard ? `if (${guard}) { ${reads.join(' ')} }` : `{ ${reads.join(' ')} }`);
      } else if (s === 0 && staging) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = sh[sbase + ${k}u];`);
      } else if (s === 0) {
        for (let k = 0; k < R; k++) lines.push(`${regs[k]} = ld(in_base, ${j} + ${k * nb}u);`);
      } // (later stages were loaded by the previous stage's exchange)
      if (st.stride > 1) {
        const scale = n / (st.stride * R);
        lines.push(`let jm${m} = ${j} % ${st.stride}u;`);
        const tw = (idx: string) => (sign === -1 ? `twiddles[${idx}]` : `conj2(twiddles[${idx}])`);
        if (recipe.twiddles === 'recurrence' || (recipe.twiddles === 'two-level' && !twoLevelRadix(R))) {
          // One table read per butterfly; W^k by binary powering (error grows like log k, not k).
          lines.push(`let w${m}_1 = ${tw(`jm${m} * ${scale}u`)};`);
          for (let k = 2; k < R; k++) lines.push(`let w${m}_${k} = cmul(w${m}_${k >> 1}, w${m}_${k - (k >> 1)});`);
          for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, w${m}_${k});`);
        } else if (recipe.twiddles === 'two-level') {
          // Two reads, W^1 and W^B (B = 2^⌈log2(R)/2⌉, so B² ≥ R); W^k = (W^B)^a·W^b raises the rounded reads
          // to at most the 2B−2nd power together, where the recurrence raises one to the R−1st.
          const B = 2 ** Math.ceil(Math.log2(R) / 2);
          const base = B < R ? [1, B] : [1];
          for (const p of base) lines.push(`let w${m}_${p} = ${tw(`jm${m} * ${p * scale}u`)};`);
          for (let k = 2; k < R; k++) {
            if (base.includes(k)) continue;
            const top = k >= B && B < R ? B : 1;
            lines.push(`let w${m}_${k} = cmul(w${m}_${k - top}, w${m}_${top});`);
          }
          for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, w${m}_${k});`);
        } else {
          for (let k = 1; k < R; k++) lines.push(`${regs[k]} = cmul(${regs[k]}, ${tw(`jm${m} * ${k * scale}u`)});`);
        }
      }
      em.lines.length = 0;
      const outs = emitDft(em, regs, sign);
      lines.push(...em.lines);
      // Write outputs back into the same registers, in natural order.
      const tmp = outs.map((o, k) => (o === regs[k] ? null : o));
      for (let k = 0; k < R; k++) if (tmp[k] !== null) lines.push(`${regs[k]} = ${tmp[k]};`);
      const sc = variant.scale === 1 ? '' : ` * ${f32(variant.scale)}`;
      const columnStore = pass?.store === 'column' || pass?.store === 'rows';
      if (last && (splitPost || pairedLast)) {
        // Values stay in registers: r2cPostSplit moves them through workgroup memory in two rounds,
        // r2cPostPaired needs no exchange.
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
    // The last stage has read workgroup memory (exchange or staged load) before a column store overwrites it.
    if (
      last &&
      (pass?.store === 'column' || pass?.store === 'rows' || (r2cPost && !staging && !splitPost && !pairedLast))
    )
      body.push('workgroupBarrier();');
    for (const b of blocks) body.push(...b);
    if (last && r2cPass)
      body.push(...r2cPassPost(recipe, paddedN, pad, variant.scale, io.custom?.wrq ? io.realLength : 0, splitPost));
    else if (last && pairedLast) body.push(...r2cPostPaired(recipe, variant.scale, stageOut ? paddedN : 0));
    else if (last && splitPost) body.push(...r2cPostSplit(recipe, pad, variant.scale));
    else if (last && r2cPost) body.push(...r2cPostCode(recipe, paddedN, staging, pad, variant.scale, stageOut));
    else if (last && staging) body.push(...stagedCopy(recipe, paddedN, 'store', DST));
    if (last && pass?.store === 'column') body.push(...columnCopy(recipe, paddedN, 'store', DST, sign, null));
    if (last && pass?.store === 'rows') body.push(...rowStore(recipe, paddedN));
    if (!last && st.exchange === 'shuffle') body.push(...shuffleCode(shuffleExchange(recipe, s), P));
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

/** W_N^k = e^{−2πik/N} for k = 0 … N/2 (float64-accurate, rounded to f32). */
export function realTwiddleTable(n: number): Float32Array {
  const m = Math.floor(n / 2);
  const t = new Float32Array(2 * (m + 1));
  for (let k = 0; k <= m; k++) {
    const [c, s] = unitRoot(k, n);
    t[2 * k] = c;
    t[2 * k + 1] = s;
  }
  return t;
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

/** Slots of an R2C last pass: low slots take columns p, high slots their mirrors Ns − p (see r2cPassFusable). */
function r2cPassAddressing(recipe: WorkgroupFftRecipe): string[] {
  const { problemsPerWorkgroup: B } = recipe;
  const ns = recipe.pass!.stride;
  const H = B / 2;
  return [
    `let hi_slot = local_problem >= ${H}u;`,
    `let problem = wg * ${H}u + local_problem % ${H}u;`,
    `let pb = problem / ${ns / 2}u;`,
    `let pp = problem % ${ns / 2}u;`,
    // params.batch counts columns (problems × Ns); a pair is live while its problem is.
    `let live = pb < params.batch / ${ns}u;`,
    `var pj = pp;`,
    `if (hi_slot) { pj = select(${ns}u - pp, ${ns / 2}u, pp == 0u); }`,
    'let in_base = params.in_offset + pb * params.in_dist;',
    'let out_base = params.out_offset + pb * params.out_dist;',
    'let ocol = pj;',
  ];
}

/**
 * What both forms of a fused last pass's post-processing share: the pass geometry, the output guards, the
 * one table read an invocation (W^(pj + t·Ns), then constant factors: output k = pj + (t + iL)·Ns uses
 * W^(pj + t·Ns) · W^(iL·Ns); a rolled loop with a read per output waited one global-memory latency per
 * iteration, which made the fused pass slower than a separate post-processing kernel), each
 * output's mirror slot, and the output writes (through wrq, with the quarter-root twiddle formed the same
 * way, for hooks that have it).
 */
function r2cPassParts(recipe: WorkgroupFftRecipe, scale: number, quarterN: number) {
  const { n, invocationsPerProblem: L, problemsPerWorkgroup: B } = recipe;
  const ns = recipe.pass!.stride;
  const M = n * ns;
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  const guard = (i: number) => ((i + 1) * L <= n ? 'live' : `live && t + ${i * L}u < ${n}u`);
  const out = (k: string, v: string, q: string) =>
    quarterN ? `wrq(out_base, ${k}, ${v}, ${q});` : `st(out_base, ${k}, ${v});`;
  const quarter = (e: number, v: string) => rootTimes(v, e, 4 * quarterN);
  return {
    count: Math.ceil(n / L),
    guard,
    partner: `let partner = select(local_problem + ${B / 2}u, local_problem - ${B / 2}u, hi_slot);`,
    realTwiddle: ['var wt = vec2<f32>(0.0);', `if (${guard(0)}) { wt = rtw[pj + t * ${ns}u]; }`],
    quarterTwiddle: quarterN ? ['var qt = vec2<f32>(0.0);', `if (${guard(0)}) { qt = aux[pj + t * ${ns}u]; }`] : [],
    /** W^(pj + (t + iL)·Ns) from wt. */
    twiddle: (i: number) => rootTimes('wt', i * L * ns, 2 * M),
    /** Output e of column pj pairs with element pe of column slot ps (see r2cPassFusable). */
    mirror: (e: string, ps: string, pe: string, indent: string) => [
      `${indent}var ${ps} = partner;`,
      `${indent}var ${pe} = ${n - 1}u - ${e};`,
      `${indent}if (pj == 0u) { ${ps} = local_problem; ${pe} = (${n}u - ${e}) % ${n}u; } else if (pj == ${ns / 2}u) { ${ps} = local_problem; }`,
    ],
    /** Output k from z_k = a and z_{M−k} = y; y_M = Re z_0 − Im z_0 (the k = M output, W_N^M = −1). */
    outputs: (i: number, a: string, y: string, w: string) => [
      `  ${out('k', `r2cOut(${a}, vec2<f32>(${y}.x, -${y}.y), ${w})${sc}`, quarter(i * L * ns, 'qt'))}`,
      `  if (k == 0u) { ${out(`${M}u`, `vec2<f32>(${a}.x - ${a}.y, 0.0)${sc}`, quarter(M, 'vec2<f32>(1.0, 0.0)'))} }`,
    ],
  };
}

/** The R2C post-processing of a fused last pass: output k = j + e·Ns from z_k and its mirror. */
function r2cPassPost(
  recipe: WorkgroupFftRecipe,
  rowStride: number,
  pad: PadFn,
  scale: number,
  quarterN = 0,
  split = false,
): string[] {
  if (split) return r2cPassPostSplit(recipe, rowStride, pad, scale, quarterN);
  const { invocationsPerProblem: L } = recipe;
  const ns = recipe.pass!.stride;
  const P = r2cPassParts(recipe, scale, quarterN);
  const lines = ['workgroupBarrier();', P.partner, ...P.realTwiddle];
  for (let i = 0; i < P.count; i++) lines.push(`let w${i} = ${P.twiddle(i)};`);
  lines.push(...P.quarterTwiddle);
  for (let i = 0; i < P.count; i++) {
    lines.push(
      `if (${P.guard(i)}) {`,
      `  let e = t + ${i * L}u;`,
      `  let k = pj + e * ${ns}u;`,
      ...P.mirror('e', 'ps', 'pe', '  '),
      `  let a = sh[sbase + ${pad('e')}];`,
      `  let y = sh[ps * ${rowStride}u + ${pad('pe', 'ps')}];`,
      ...P.outputs(i, 'a', 'y', `w${i}`),
      '}',
    );
  }
  return lines;
}

/**
 * r2cPassPost with a split exchange: the last stage's values stay in registers and go through workgroup
 * memory one component at a time (rows of f32, half the memory of vec2 rows, so more workgroups stay
 * resident); each invocation gathers z_k and its mirror for its outputs in the two rounds, then writes them.
 */
function r2cPassPostSplit(
  recipe: WorkgroupFftRecipe,
  rowStride: number,
  pad: PadFn,
  scale: number,
  quarterN: number,
): string[] {
  const { invocationsPerProblem: L } = recipe;
  const ns = recipe.pass!.stride;
  const P = r2cPassParts(recipe, scale, quarterN);
  const lines = [P.partner];
  for (let i = 0; i < P.count; i++) {
    lines.push(
      `let e${i} = t + ${i * L}u;`,
      ...P.mirror(`e${i}`, `ps${i}`, `pe${i}`, ''),
      `var pa${i} = vec2<f32>(0.0);`,
      `var pb${i} = vec2<f32>(0.0);`,
    );
  }
  for (const comp of ['x', 'y']) {
    // Every invocation has finished reading workgroup memory (the last exchange or the previous round).
    lines.push('workgroupBarrier();', ...lastStageWrites(recipe, pad, `.${comp}`), 'workgroupBarrier();');
    for (let i = 0; i < P.count; i++) {
      lines.push(
        `if (${P.guard(i)}) { pa${i}.${comp} = sh[sbase + ${pad(`e${i}`)}]; pb${i}.${comp} = sh[ps${i} * ${rowStride}u + ${pad(`pe${i}`, `ps${i}`)}]; }`,
      );
    }
  }
  // The twiddles are formed inline in each output's block, to keep registers for the gathered pairs.
  lines.push(...P.realTwiddle, ...P.quarterTwiddle);
  for (let i = 0; i < P.count; i++) {
    lines.push(
      `if (${P.guard(i)}) {`,
      `  let k = pj + e${i} * ${ns}u;`,
      `  let w = ${P.twiddle(i)};`,
      ...P.outputs(i, `pa${i}`, `pb${i}`, 'w'),
      '}',
    );
  }
  return lines;
}

/** The last stage's values (component comp, '' for vec2) written into the row in natural order. */
function lastStageWrites(recipe: WorkgroupFftRecipe, pad: PadFn, comp: string): string[] {
  const { n, stages, invocationsPerProblem: L } = recipe;
  const st = stages[stages.length - 1];
  const nb = n / st.radix;
  const lines: string[] = [];
  for (let m = 0; m < st.butterfliesPerInvocation; m++) {
    const j = `(t + ${m * L}u)`;
    const guard = st.butterfliesPerInvocation * L === nb ? '' : `if (${j} < ${nb}u) `;
    const stmts = [];
    for (let k = 0; k < st.radix; k++)
      stmts.push(`sh[sbase + ${pad(writeIndex(j, k, st.stride, st.radix, nb))}] = v${m * st.radix + k}${comp};`);
    lines.push(`${guard}{ ${stmts.join(' ')} }`);
  }
  return lines;
}

/** The one real-twiddle table read of an R2C post-processing: wt = W_N^t (t < M, always in the table). */
function realTwiddleBase(): string[] {
  return ['var wt = vec2<f32>(0.0);', 'if (live) { wt = rtw[t]; }'];
}

/**
 * W_n^(j + e) from w = W_n^j read from a table: the constant W_n^e as a complex factor (exact for e = 0).
 * Every post-processing forms its twiddles this way from one table read an invocation.
 */
function rootTimes(w: string, e: number, n: number): string {
  if (e === 0) return w;
  const [c, s] = unitRoot(e, n);
  return `cmul(${w}, vec2<f32>(${f32(c)}, ${f32(s)}))`;
}

/**
 * The upper butterflies of a paired last stage: slot B/2 + m holds the mirror of slot m's butterfly
 * b = t + m·L, that is nb − b, except that b = 0 is its own mirror, and that slot holds nb/2 (likewise its own).
 */
function pairedHigh(m: number, L: number, nb: number): string {
  return m === 0 ? `select(${nb}u - t, ${nb / 2}u, t == 0u)` : `(${nb - m * L}u - t)`;
}

/**
 * R2C post-processing of a paired last stage, in registers. The last stage's butterfly b holds z_k for
 * k = b + nb·e (e < R). Slot m holds b = t + m·L < nb/2 and slot B/2 + m its mirror nb − b, whose element
 * R − 1 − e is z_{M−k}: each invocation owns both partners of all its outputs and writes y_k and y_{M−k}
 * with no exchange and no barrier. Invocation 0 holds b = 0 and nb/2, each its own mirror (z_{M−k} is
 * element (R − e) mod R, resp. R − 1 − e, of the same butterfly), and writes y_M = Re z_0 − Im z_0.
 */
function r2cPostPaired(recipe: WorkgroupFftRecipe, scale: number, stagedRow = 0): string[] {
  const { n: M, stages, invocationsPerProblem: L } = recipe;
  const st = stages[stages.length - 1];
  const R = st.radix;
  const nb = M / R;
  const half = st.butterfliesPerInvocation / 2;
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  const tw = (w: string, e: number) => rootTimes(w, e, 2 * M);
  // Staged outputs: into the problem's row (once every invocation has read its last-stage inputs), then
  // the coalesced copy.
  const put = (k: string, v: string) => (stagedRow ? `sh[sbase + ${k}] = ${v};` : `st(out_base, ${k}, ${v});`);
  const lines = stagedRow ? ['workgroupBarrier();', 'let p0 = t == 0u;'] : ['let p0 = t == 0u;'];
  for (let m = 0; m < half; m++) {
    const lo = (e: number) => `v${m * R + e}`;
    const hi = (e: number) => `v${(m + half) * R + e}`;
    const bLo = `(t + ${m * L}u)`;
    const bHi = pairedHigh(m, L, nb);
    lines.push('if (live) {', `  let bl = ${bLo};`, `  let bh = ${bHi};`, '  let wl = rtw[bl];', '  let wh = rtw[bh];');
    for (let e = 0; e < R; e++) {
      const a = lo(e);
      const c = hi(R - 1 - e);
      // Only slot 0 of invocation 0 pairs within its butterflies.
      const pa = m === 0 ? `select(${c}, ${lo((R - e) % R)}, p0)` : c;
      const pc = m === 0 ? `select(${a}, ${hi(e)}, p0)` : a;
      lines.push(
        `  ${put(`bl + ${nb * e}u`, `r2cOut(${a}, conj2(${pa}), ${tw('wl', nb * e)})${sc}`)}`,
        `  ${put(`bh + ${nb * (R - 1 - e)}u`, `r2cOut(${c}, conj2(${pc}), ${tw('wh', nb * (R - 1 - e))})${sc}`)}`,
      );
    }
    if (m === 0) lines.push(`  if (p0) { ${put(`${M}u`, `vec2<f32>(${lo(0)}.x - ${lo(0)}.y, 0.0)${sc}`)} }`);
    lines.push('}');
  }
  if (stagedRow) lines.push(...stagedCopy(recipe, stagedRow, 'store', 'dst', M + 1));
  return lines;
}

/**
 * R2C post-processing with a split (f32) exchange: the last stage's outputs go to workgroup memory one
 * component at a time; each invocation gathers, for its outputs k, the real parts of z_k and z_{M−k}, then
 * the imaginary parts, and writes y_k. Half the workgroup memory of a complex row, so larger N stay in one
 * workgroup and more workgroups stay resident.
 */
function r2cPostSplit(recipe: WorkgroupFftRecipe, pad: PadFn, scale: number): string[] {
  const { n: M, invocationsPerProblem: L } = recipe;
  // An invocation takes the pairs (k, M − k), k ≤ M/2, and writes both outputs: half the registers of
  // gathering both partners for every k (those spilled at M = 8192), and each z read once per round.
  const half = M >> 1;
  const count = Math.ceil((half + 1) / L);
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`var pa${i}: vec2<f32>;`, `var pb${i}: vec2<f32>;`);
  for (const comp of ['x', 'y']) {
    // Every invocation has finished reading workgroup memory (exchange or the previous round).
    lines.push('workgroupBarrier();', ...lastStageWrites(recipe, pad, `.${comp}`), 'workgroupBarrier();');
    for (let i = 0; i < count; i++) {
      const k = `(t + ${i * L}u)`;
      lines.push(
        `if (${k} <= ${half}u) { pa${i}.${comp} = sh[sbase + ${pad(k)}]; pb${i}.${comp} = sh[sbase + ${pad(`(${M}u - ${k}) % ${M}u`)}]; }`,
      );
    }
  }
  // One table read an invocation: W^(t + iL) = W^t · W^(iL), the second factor a constant, and the
  // partner's W^(M − k) = −conj(W^k) (W^M = −1). The twiddles are formed inline, in each output's block:
  // preloading them costs 4 registers a pair and measured much slower (docs/DECISIONS.md: realTwiddleBase).
  lines.push(...realTwiddleBase());
  for (let i = 0; i < count; i++) {
    const k = `(t + ${i * L}u)`;
    lines.push(
      `if (live && ${k} <= ${half}u) {`,
      `  let k = ${k};`,
      `  let w = ${rootTimes('wt', i * L, 2 * M)};`,
      `  let ca = vec2<f32>(pa${i}.x, -pa${i}.y);`,
      `  let cb = vec2<f32>(pb${i}.x, -pb${i}.y);`,
      `  st(out_base, k, r2cOut(pa${i}, cb, w)${sc});`,
      // The partner output M − k (k = 0 gives y_M from z_0 with itself).
      `  if (k != ${M}u - k) {`,
      `    st(out_base, ${M}u - k, r2cOut(pb${i}, ca, vec2<f32>(-w.x, w.y))${sc});`,
      '  }',
      '}',
    );
  }
  return lines;
}

/**
 * R2C post-processing inside the workgroup: the row holds z (natural order); output k = 0 … M pairs z_k
 * with z̄_{M−k} (indices mod M), so the N/2+1 outputs are written straight from workgroup memory.
 */
function r2cPostCode(
  recipe: WorkgroupFftRecipe,
  rowStride: number,
  staging: boolean,
  pad: PadFn,
  scale: number,
  stagedOut = false,
): string[] {
  const M = recipe.n;
  if (staging) {
    // One invocation owns a row: turn the pairs (k, M − k) into outputs in place (the row has M + 1
    // slots), then store all rows with the coalesced staged copy.
    const sc1 = scale === 1 ? '' : ` * ${f32(scale)}`;
    // Unrolled with constant indices (M ≤ 16 here): a rolled loop waited for its two table reads on every
    // iteration, which made N = 32 the slowest real length.
    const lines: string[] = [];
    for (let k = 0; k <= M >> 1; k++) lines.push(`let ra${k} = rtw[${k}u];`, `let rb${k} = rtw[${M - k}u];`);
    for (let k = 0; k <= M >> 1; k++) {
      lines.push(
        '{',
        `  let a = sh[sbase + ${k}u];`,
        `  let y = sh[sbase + ${(M - k) % M}u];`,
        '  let ca = vec2<f32>(a.x, -a.y);',
        '  let cb = vec2<f32>(y.x, -y.y);',
        `  sh[sbase + ${k}u] = r2cOut(a, cb, ra${k})${sc1};`,
      );
      if (k !== M - k) lines.push(`  sh[sbase + ${M - k}u] = r2cOut(y, ca, rb${k})${sc1};`);
      lines.push('}');
    }
    return [...lines, ...stagedCopy(recipe, rowStride, 'store', 'dst', M + 1)];
  }
  const L = recipe.invocationsPerProblem;
  const lines: string[] = ['workgroupBarrier();'];
  const at = (e: string) => (staging ? e : pad(e));
  const count = Math.ceil((M + 1) / L);
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  // Unrolled. One table read an invocation, W^t; output t + iL uses W^t · W^(iL), a constant factor (a
  // rolled loop waited one memory latency per iteration, and one read per output queued as many).
  const guard = (i: number) => ((i + 1) * L <= M + 1 ? 'live' : `live && t + ${i * L}u <= ${M}u`);
  lines.push(...realTwiddleBase());
  for (let i = 0; i < count; i++) lines.push(`let w${i} = ${rootTimes('wt', i * L, 2 * M)};`);
  if (stagedOut) {
    // Every output is formed before any is written back into the rows the others still read; then the
    // rows (M + 1 outputs, unpadded) go out by the coalesced copy.
    for (let i = 0; i < count; i++) {
      lines.push(`var y${i} = vec2<f32>(0.0);`, `if (${guard(i)}) {`, `  let k = t + ${i * L}u;`);
      lines.push(`  let a = sh[sbase + ${at(`k % ${M}u`)}];`, `  let y = sh[sbase + ${at(`(${M}u - k) % ${M}u`)}];`);
      lines.push(`  y${i} = r2cOut(a, vec2<f32>(y.x, -y.y), w${i})${sc};`, '}');
    }
    lines.push('workgroupBarrier();');
    for (let i = 0; i < count; i++) lines.push(`if (${guard(i)}) { sh[sbase + t + ${i * L}u] = y${i}; }`);
    return [...lines, ...stagedCopy(recipe, rowStride, 'store', 'dst', M + 1)];
  }
  for (let i = 0; i < count; i++) {
    lines.push(`if (${guard(i)}) {`);
    lines.push(`  let k = t + ${i * L}u;`);
    lines.push(`  let a = sh[sbase + ${at(`k % ${M}u`)}];`);
    lines.push(`  let y = sh[sbase + ${at(`(${M}u - k) % ${M}u`)}];`);
    lines.push(`  st(out_base, k, r2cOut(a, vec2<f32>(y.x, -y.y), w${i})${sc});`);
    lines.push('}');
  }
  return lines;
}

/**
 * Addressing of column problem `q` of a pass: q = b·cols + j (b: the batch index, j: the column).
 * Column j reads j + k·cols and writes ⌊j/Ns⌋·Ns·n + (j mod Ns) + k·Ns (cols = total/n), in the units of
 * the user's layout (offset, stride, dist).
 */
function passAddressing(recipe: WorkgroupFftRecipe, q: string, suffix: string): string[] {
  const { n } = recipe;
  const { total, stride: ns } = recipe.pass!;
  const cols = total / n;
  const v = (name: string) => `${name}${suffix}`;
  // in_base / out_base: the problem's base; column j reads logical elements j + e·cols and writes
  // ocol + e·Ns (the ld/st functions apply the layout strides and any real-transform processing).
  // batchFastest: neighbouring column problems are neighbouring problems of the batch (q = j·P + b), for
  // batches laid out with distance 1 (the non-last axes of N-D arrays): neighbouring invocations then
  // touch neighbouring addresses in every pass.
  const lines = recipe.pass!.batchFastest
    ? [
        `let ${v('np')} = params.batch / ${cols}u;`,
        `let ${v('pb')} = ${q} % ${v('np')};`,
        `let ${v('pj')} = ${q} / ${v('np')};`,
      ]
    : [`let ${v('pb')} = ${q} / ${cols}u;`, `let ${v('pj')} = ${q} % ${cols}u;`];
  lines.push(
    `let ${v('in_base')} = params.in_offset + ${v('pb')} * params.in_dist;`,
    `let ${v('out_base')} = params.out_offset + ${v('pb')} * params.out_dist;`,
  );
  const outCol = ns === 1 ? `${v('pj')} * ${n}u` : `(${v('pj')} / ${ns}u) * ${ns * n}u + ${v('pj')} % ${ns}u`;
  lines.push(`let ${v('ocol')} = ${outCol};`);
  return lines;
}

/**
 * Column-order copy between global memory and the workgroup's rows for a pass: flat element f = lid + i·W
 * belongs to column f mod B, element f / B, so neighbouring invocations read neighbouring columns, which
 * are neighbouring addresses. The load also applies the pass's outer twiddles.
 */
function columnCopy(
  recipe: WorkgroupFftRecipe,
  rowStride: number,
  dir: 'load' | 'store',
  _buf: string,
  sign: 1 | -1,
  outer: { lo: number; m: number } | null,
): string[] {
  const { n, problemsPerWorkgroup: B, invocationsPerProblem: L } = recipe;
  const ns = recipe.pass!.stride;
  const cols = recipe.pass!.total / n;
  // W = L·B, so invocation lid always serves column lid mod B, elements lid / B + i·L: the addressing is
  // computed once, and the copy is unrolled with every global load issued before any is used, so each
  // invocation keeps ⌈n/L⌉ loads in flight (a rolled loop waits a full memory latency per element).
  const count = Math.ceil(n / L);
  const exact = count * L === n;
  const lines: string[] = [];
  if (dir === 'store') lines.push('workgroupBarrier();');
  lines.push('{');
  lines.push(`  let lp = lid % ${B}u;`, `  let e0 = lid / ${B}u;`, `  let q = wg * ${B}u + lp;`);
  lines.push('  if (q < params.batch) {');
  lines.push(...passAddressing(recipe, 'q', '_c').map((l) => '    ' + l));
  const pad = padIndex(recipe);
  const guard = (i: number) => (exact ? '' : `if (e0 + ${i * L}u < ${n}u) `);
  if (dir === 'load') {
    for (let i = 0; i < count; i++) {
      lines.push(`    var a${i}: vec2<f32>;`);
      lines.push(`    ${guard(i)}{ a${i} = ld(in_base_c, pj_c + (e0 + ${i * L}u) * ${cols}u); }`);
    }
    if (outer) {
      // W_M^{e·(j mod Ns)} from two small tables: W^{hi·lo} · W^{lo}.
      lines.push(`    let jm_c = pj_c % ${ns}u;`);
      for (let i = 0; i < count; i++) {
        lines.push(
          `    { let ex = (e0 + ${i * L}u) * jm_c; a${i} = cmul(a${i}, cmul(outer[ex % ${outer.lo}u], outer[${outer.lo}u + ex / ${outer.lo}u])); }`,
        );
      }
    }
    for (let i = 0; i < count; i++)
      lines.push(`    ${guard(i)}{ sh[lp * ${rowStride}u + ${pad(`e0 + ${i * L}u`, 'lp')}] = a${i}; }`);
  } else {
    for (let i = 0; i < count; i++) {
      lines.push(
        `    ${guard(i)}{ st(out_base_c, ocol_c + (e0 + ${i * L}u) * ${ns}u, sh[lp * ${rowStride}u + ${pad(`e0 + ${i * L}u`, 'lp')}]); }`,
      );
    }
  }
  lines.push('  }', '}');
  if (dir === 'load') lines.push('workgroupBarrier();');
  void sign;
  return lines;
}

/**
 * Row store of a first pass (Ns = 1): column j's outputs are the contiguous j·n … j·n + n − 1, so flat
 * element f = lid + i·W of the workgroup's rows is element f mod n of row f / n — neighbouring invocations
 * write neighbouring addresses (a direct store from registers writes one short run per column instead).
 */
function rowStore(recipe: WorkgroupFftRecipe, rowStride: number): string[] {
  const { n, problemsPerWorkgroup: B, workgroupSize: W } = recipe;
  const count = Math.ceil((n * B) / W);
  const exact = count * W === n * B;
  const pad = padIndex(recipe);
  const lines: string[] = ['workgroupBarrier();'];
  for (let i = 0; i < count; i++) {
    lines.push('{');
    lines.push(
      `  let f = lid + ${i * W}u;`,
      `  let lp = f / ${n}u;`,
      `  let e = f % ${n}u;`,
      `  let q = wg * ${B}u + lp;`,
    );
    lines.push(`  if (${exact ? '' : `f < ${n * B}u && `}q < params.batch) {`);
    lines.push(...passAddressing(recipe, 'q', '_r').map((l) => '    ' + l));
    lines.push(`    st(out_base_r, ocol_r + e, sh[lp * ${rowStride}u + ${pad('e', 'lp')}]);`);
    lines.push('  }', '}');
  }
  return lines;
}

/** Splits the outer twiddle exponent range [0, m) into lo·hi tables of about √m entries each. */
function outerTwiddleSplit(m: number): { lo: number; m: number } {
  return { lo: Math.ceil(Math.sqrt(m)), m };
}

/** The outer twiddle tables, [lo entries W_m^i | hi entries W_m^{i·lo}], float64-accurate, for `direction`. */
function outerTwiddleTable(split: { lo: number; m: number }, direction: FftDirection): Float32Array {
  const hi = Math.ceil(split.m / split.lo);
  const t = new Float32Array(2 * (split.lo + hi));
  const sgn = direction === 'forward' ? 1 : -1; // unitRoot gives e^{−2πi·e/m}; conjugate for the inverse
  for (let i = 0; i < split.lo; i++) {
    const [c, s] = unitRoot(i, split.m);
    t[2 * i] = c;
    t[2 * i + 1] = sgn * s;
  }
  for (let i = 0; i < hi; i++) {
    const [c, s] = unitRoot(i * split.lo, split.m);
    t[2 * (split.lo + i)] = c;
    t[2 * (split.lo + i) + 1] = sgn * s;
  }
  return t;
}

/**
 * Coalesced copy between global memory and the workgroup's rows: flat element f = lid + i·W of the
 * workgroup's B·n elements belongs to problem f / n, element f mod n, so consecutive invocations touch
 * consecutive addresses whatever n is.
 */
function stagedCopy(
  recipe: WorkgroupFftRecipe,
  rowStride: number,
  dir: 'load' | 'store',
  buf: string,
  count = recipe.n,
): string[] {
  const { workgroupSize: W, problemsPerWorkgroup: B } = recipe;
  const n = count;
  // n·B elements over W = B invocations: n per invocation. Unrolled, with every global load issued before
  // any is used (a rolled loop waited one memory latency per element: DCT-II N = 32, whose 16-element rows
  // took this path, ran at half the speed of N = 16 and N = 64).
  const iters = Math.ceil((n * B) / W);
  const exact = iters * W === n * B;
  const lines: string[] = [];
  if (dir === 'store') lines.push('workgroupBarrier();');
  lines.push('{');
  for (let i = 0; i < iters; i++) {
    lines.push(
      `let cf${i} = lid + ${i * W}u;`,
      `let clp${i} = cf${i} / ${n}u;`,
      `let ce${i} = cf${i} % ${n}u;`,
      `let cgp${i} = wg * ${B}u + clp${i};`,
    );
    lines.push(`let cok${i} = ${exact ? '' : `cf${i} < ${n * B}u && `}cgp${i} < params.batch;`);
  }
  if (dir === 'load') {
    for (let i = 0; i < iters; i++)
      lines.push(
        `var ca${i} = vec2<f32>(0.0);`,
        `if (cok${i}) { ca${i} = ld(params.in_offset + cgp${i} * params.in_dist, ce${i}); }`,
      );
    for (let i = 0; i < iters; i++) lines.push(`if (cok${i}) { sh[clp${i} * ${rowStride}u + ce${i}] = ca${i}; }`);
    lines.push('}', 'workgroupBarrier();');
  } else {
    for (let i = 0; i < iters; i++)
      lines.push(
        `if (cok${i}) { st(params.out_offset + cgp${i} * params.out_dist, ce${i}, sh[clp${i} * ${rowStride}u + ce${i}]); }`,
      );
    lines.push('}');
  }
  void buf;
  return lines;
}

/**
 * In-row index e of workgroup row `row` (default: the invocation's own, local_problem) through the kernel's
 * pad() (padding or swizzle, declared once per kernel), or as is. The caller adds the row's base.
 */
type PadFn = (e: string, row?: string) => string;
function padIndex(recipe: WorkgroupFftRecipe): PadFn {
  if (recipe.swizzle && recipe.swizzleRotate) return (e, row = 'local_problem') => `pad(${e}, ${row})`;
  return (e) => (recipe.padShift > 0 || recipe.swizzle ? `pad(${e})` : e);
}

function writeIndex(j: string, k: number, ns: number, r: number, nb: number): string {
  // ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns; in the last stage Ns = N/R so this is j + k·N/R.
  if (ns === nb) return `${j} + ${k * ns}u`;
  if (ns === 1) return `${j} * ${r}u + ${k}u`;
  return `(${j} / ${ns}u) * ${ns * r}u + (${j} % ${ns}u) + ${k * ns}u`;
}

/** t with bits 0 and p exchanged (the first stage's butterfly index under the 'split4' exchange). */
function swapBits0(t: string, p: number): string {
  return `((${t} & ${~(1 | (1 << p)) >>> 0}u) | ((${t} & 1u) << ${p}u) | ((${t} >> ${p}u) & 1u))`;
}

/** Exchange after stage s: write with stage s's write map, read with stage s+1's read map. */
function exchangeCode(
  recipe: WorkgroupFftRecipe,
  s: number,
  pad: PadFn,
  stagedLoad: boolean,
  curBfly: (m: number) => string,
  nextBfly: (m: number) => string,
): string[] {
  const { n, stages, invocationsPerProblem: L } = recipe;
  const cur = stages[s];
  const next = stages[s + 1];
  const lines: string[] = [];
  // 'split4': each component in two rounds, round h moving the elements whose index bit p is h, through
  // workgroup memory for n/2 values (the index with bit p removed). An invocation must write all its
  // elements of a round before it reads any (the reads overwrite its registers), so every element's writer
  // and reader must have the same bit of t, the round's:
  // - after stage 0 (stride 1) the writer's index is j·R0 + k, so bit p = log2 R0 is bit 0 of its j; the
  //   reader (stage 1, not the last: R0·R1 < n) holds bit p in j' (j' + k'·n/R1), bit p of t. Stage 0
  //   therefore runs butterfly j = t with bits 0 and p exchanged (swapBits0; with p < 5 a warp still
  //   loads the same contiguous run, in another order);
  // - after a later stage (stride ≥ 2) index bit 0 is bit 0 of both j and j', bit 0 of t (j = t + m·L
  //   with L even; a paired last stage's mirrors nb − j keep the parity).
  const quarter = recipe.exchange === 'split4';
  const p = s === 0 ? Math.log2(cur.radix) : 0;
  const squeeze = (i: string) =>
    !quarter ? i : p === 0 ? `((${i}) >> 1u)` : `((((${i}) >> ${p + 1}u) << ${p}u) | ((${i}) & ${(1 << p) - 1}u))`;
  const roundBit = p === 0 ? '(t & 1u)' : `((t >> ${p}u) & 1u)`;
  const rounds: ['' | '.x' | '.y', number][] =
    recipe.exchange === 'complex'
      ? [['', -1]]
      : quarter
        ? [
            ['.x', 0],
            ['.x', 1],
            ['.y', 0],
            ['.y', 1],
          ]
        : [
            ['.x', -1],
            ['.y', -1],
          ];
  rounds.forEach(([comp, half], round) => {
    // Before overwriting workgroup memory, every invocation must have finished reading it.
    if (s > 0 || round > 0 || stagedLoad) lines.push('workgroupBarrier();');
    const nbCur = n / cur.radix;
    const writes: string[] = [];
    for (let m = 0; m < cur.butterfliesPerInvocation; m++) {
      const j = curBfly(m);
      const guard = cur.butterfliesPerInvocation * L === nbCur ? '' : `if (${j} < ${nbCur}u) `;
      const stmts = [];
      for (let k = 0; k < cur.radix; k++) {
        stmts.push(
          `sh[sbase + ${pad(squeeze(writeIndex(j, k, cur.stride, cur.radix, nbCur)))}] = v${m * cur.radix + k}${comp};`,
        );
      }
      writes.push(`${guard}{ ${stmts.join(' ')} }`);
    }
    lines.push(...(half < 0 ? writes : [`if (${roundBit} == ${half}u) {`, ...writes.map((w) => '  ' + w), '}']));
    lines.push('workgroupBarrier();');
    const nbNext = n / next.radix;
    const reads: string[] = [];
    for (let m = 0; m < next.butterfliesPerInvocation; m++) {
      const j = nextBfly(m);
      const guard = next.butterfliesPerInvocation * L === nbNext ? '' : `if (${j} < ${nbNext}u) `;
      const stmts = [];
      for (let k = 0; k < next.radix; k++) {
        stmts.push(`v${m * next.radix + k}${comp} = sh[sbase + ${pad(squeeze(`${j} + ${k * nbNext}u`))}];`);
      }
      reads.push(`${guard}{ ${stmts.join(' ')} }`);
    }
    lines.push(...(half < 0 ? reads : [`if (${roundBit} == ${half}u) {`, ...reads.map((r) => '  ' + r), '}']));
  });
  return lines;
}

/** The part of j = butterflyBits(t + m·L) that t's bits give, as WGSL (runs of consecutive bits in one shift and mask). */
function mappedSlotExpr(bits: readonly number[], t: string, L: number): string {
  const l = Math.log2(L);
  const terms: string[] = [];
  for (let b = 0; b < bits.length; ) {
    if (bits[b] >= l) {
      b++;
      continue;
    }
    let e = b + 1;
    while (e < bits.length && bits[e] === bits[e - 1] + 1 && bits[e] < l) e++;
    const mask = (1 << (e - b)) - 1;
    const shift = bits[b] - b;
    const part = shift > 0 ? `(${t} >> ${shift}u)` : shift < 0 ? `(${t} << ${-shift}u)` : t;
    terms.push(`(${part} & ${mask << b}u)`);
    b = e;
  }
  return terms.length ? terms.join(' | ') : '0u';
}

/** The part of j = butterflyBits(t + m·L) that butterfly m's bits give (a constant). */
function mappedSlotConstant(bits: readonly number[], m: number, L: number): number {
  const l = Math.log2(L);
  let c = 0;
  bits.forEach((sb, b) => {
    if (sb >= l) c |= ((m >>> (sb - l)) & 1) << b;
  });
  return c;
}

/**
 * A shuffle exchange (see applyShuffleExchange in planner/fft-subgroup.ts): per swap (lane bit u, register bit
 * v), each register pair sends one value to lane ^ 2^u with subgroupShuffleXor and keeps the other; then the
 * registers are renamed. No workgroup memory, no barrier.
 */
function shuffleCode(ex: ShuffleExchange, P: number): string[] {
  const lines: string[] = [`// shuffle exchange: ${ex.swaps.map((w) => `lane ${w.lane} <-> reg ${w.reg}`).join(', ')}`];
  for (const { lane: u, reg: v } of ex.swaps) {
    lines.push('{', `  let hi = (lane & ${1 << u}u) != 0u;`);
    for (let i = 0; i < P; i++) {
      if ((i >>> v) & 1) continue;
      const a = `v${i}`;
      const b = `v${i | (1 << v)}`;
      lines.push(
        `  { let q = subgroupShuffleXor(select(${b}, ${a}, hi), ${1 << u}u); ${a} = select(${a}, q, hi); ${b} = select(q, ${b}, hi); }`,
      );
    }
    lines.push('}');
  }
  if (ex.regFrom.some((f, i) => f !== i)) {
    lines.push('{');
    for (let i = 0; i < P; i++) lines.push(`  let c${i} = v${i};`);
    for (let i = 0; i < P; i++) if (ex.regFrom[i] !== i) lines.push(`  v${i} = c${ex.regFrom[i]};`);
    lines.push('}');
  }
  return lines;
}
