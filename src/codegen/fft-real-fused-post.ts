/**
 * R2C post-processing fused into an FFT kernel (exchange, split, staged-out, paired, pass-fused forms); kept
 * beside fft-real-post.ts (the same outputs as a kernel of its own) and out of the transform's generator.
 */
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import { unitRoot } from '../planner/twiddles.js';
import { f32 } from './dft-small.js';
import { writeIndex, type PadFn } from './fft-exchange.js';
import { stagedCopy } from './fft-pass-io.js';

/**
 * One R2C output from the half-length transform z: y_k = ½(z_k + z̄_{M−k}) − ½i·W_N^k·(z_k − z̄_{M−k}),
 * with a = z_k, cb = z̄_{M−k}, w = W_N^k (−i·d = (d.y, −d.x)). Every post-processing path calls it.
 */
export const R2C_OUT_WGSL = `fn r2cOut(a: vec2<f32>, cb: vec2<f32>, w: vec2<f32>) -> vec2<f32> {
  let d = cmul(w, (a - cb) * 0.5);
  return (a + cb) * 0.5 + vec2<f32>(d.y, -d.x);
}`;

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

/** Slots of an R2C last pass: low slots take columns p, high slots their mirrors Ns − p (see r2cPassFusable). */
export function r2cPassAddressing(recipe: WorkgroupFftRecipe): string[] {
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
export function r2cPassPost(
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
export function pairedHigh(m: number, L: number, nb: number): string {
  return m === 0 ? `select(${nb}u - t, ${nb / 2}u, t == 0u)` : `(${nb - m * L}u - t)`;
}

/**
 * R2C post-processing of a paired last stage, in registers. The last stage's butterfly b holds z_k for
 * k = b + nb·e (e < R). Slot m holds b = t + m·L < nb/2 and slot B/2 + m its mirror nb − b, whose element
 * R − 1 − e is z_{M−k}: each invocation owns both partners of all its outputs and writes y_k and y_{M−k}
 * with no exchange and no barrier. Invocation 0 holds b = 0 and nb/2, each its own mirror (z_{M−k} is
 * element (R − e) mod R, resp. R − 1 − e, of the same butterfly), and writes y_M = Re z_0 − Im z_0.
 */
export function r2cPostPaired(recipe: WorkgroupFftRecipe, scale: number, stagedRow = 0): string[] {
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
export function r2cPostSplit(recipe: WorkgroupFftRecipe, pad: PadFn, scale: number): string[] {
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
export function r2cPostCode(
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
 * R2C post-processing after a 'rounds' recipe (planner/fft-rounds.ts): the last stage leaves z_k in invocation t's
 * slot σ for k = t + L·σ, and z_{M−k} sits in invocation L − t's slot P − 1 − σ (invocation 0: its own slot
 * P − σ, mod P). Round q gathers the partners of slots q·c … q·c + c − 1 (c = block / L): every invocation writes
 * its slots P − (q+1)·c + i (invocation 0 the next slot up) at the index of their mirror, (L − t) mod L +
 * L·(c − 1 − i), waits, and reads the partner of k at k − q·c·L; then it writes y_k (invocation 0 also y_M from
 * z_0). Stores of consecutive invocations are contiguous, and the block is the exchanges' own.
 */
export function r2cPostRounds(recipe: WorkgroupFftRecipe, pad: PadFn, scale: number): string[] {
  const { n: M, stages, invocationsPerProblem: L, registers: P } = recipe;
  const st = stages[stages.length - 1];
  const bpi = st.butterfliesPerInvocation;
  const c = recipe.roundBlock! / L;
  const reg = (slot: number) => `v${(slot % bpi) * st.radix + Math.floor(slot / bpi)}`;
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  const lines = ['let p0 = t == 0u;', `let mt = (${L}u - t) & ${L - 1}u;`, ...realTwiddleBase()];
  // Split rounds gather real parts, then imaginary parts, through an f32 block.
  const parts = recipe.roundsSplit ? ['.x', '.y'] : [''];
  for (let q = 0; q < P / c; q++) {
    if (recipe.roundsSplit) for (let i = 0; i < c; i++) lines.push(`var y${q}_${i}: vec2<f32>;`);
    for (const part of parts) {
      lines.push('workgroupBarrier();');
      const writes: string[] = [];
      for (let i = 0; i < c; i++) {
        const slot = P - (q + 1) * c + i;
        writes.push(
          `sh[sbase + ${pad(`mt + ${L * (c - 1 - i)}u`)}] = select(${reg(slot)}, ${reg((slot + 1) % P)}, p0)${part};`,
        );
      }
      lines.push(`{ ${writes.join(' ')} }`, 'workgroupBarrier();');
      for (let i = 0; i < c; i++) {
        const at = `sh[sbase + ${pad(`t + ${L * i}u`)}]`;
        lines.push(part ? `y${q}_${i}${part} = ${at};` : `let y${q}_${i} = ${at};`);
      }
    }
    lines.push('if (live) {');
    for (let i = 0; i < c; i++) {
      const slot = q * c + i;
      lines.push(
        `  st(out_base, t + ${L * slot}u, r2cOut(${reg(slot)}, conj2(y${q}_${i}), ${rootTimes('wt', L * slot, 2 * M)})${sc});`,
      );
    }
    if (q === 0) lines.push(`  if (p0) { st(out_base, ${M}u, vec2<f32>(${reg(0)}.x - ${reg(0)}.y, 0.0)${sc}); }`);
    lines.push('}');
  }
  return lines;
}
