/**
 * The stage-to-stage exchanges of a workgroup FFT (workgroup-memory rounds, subgroup shuffles, row padding);
 * a file of its own because the pass copies and the fused R2C post-processing share its index maps.
 */
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import type { ShuffleExchange } from '../planner/fft-subgroup.js';

/** The stage read map j + k·(N/R) (core/stockham.ts: element k of butterfly j; nb = N/R butterflies). */
export function readIndex(j: string, k: number, nb: number): string {
  return `${j} + ${k * nb}u`;
}

/**
 * Index in the table of W_N^e of the stage twiddle W_{Ns·R}^{k·jm} (core/stockham.ts: twiddleExponent),
 * jm = j mod Ns: e = jm·k·N/(Ns·R).
 */
export function twiddleIndex(jm: string, k: number, n: number, ns: number, r: number): string {
  return `${jm} * ${k * (n / (ns * r))}u`;
}

/**
 * In-row index e of workgroup row `row` (default: the invocation's own, local_problem) through the kernel's
 * pad() (padding or swizzle, declared once per kernel), or as is. The caller adds the row's base.
 */
export type PadFn = (e: string, row?: string) => string;
export function padIndex(recipe: WorkgroupFftRecipe): PadFn {
  if (recipe.swizzle && recipe.swizzleRotate) return (e, row = 'local_problem') => `pad(${e}, ${row})`;
  return (e) => (recipe.padShift > 0 || recipe.swizzle ? `pad(${e})` : e);
}

export function writeIndex(j: string, k: number, ns: number, r: number, nb: number): string {
  // ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns; in the last stage Ns = N/R so this is j + k·N/R.
  if (ns === nb) return `${j} + ${k * ns}u`;
  if (ns === 1) return `${j} * ${r}u + ${k}u`;
  return `(${j} / ${ns}u) * ${ns * r}u + (${j} % ${ns}u) + ${k * ns}u`;
}

/** t with bits 0 and p exchanged (the first stage's butterfly index under the 'split4' exchange). */
export function swapBits0(t: string, p: number): string {
  return `((${t} & ${~(1 | (1 << p)) >>> 0}u) | ((${t} & 1u) << ${p}u) | ((${t} >> ${p}u) & 1u))`;
}

/** Exchange after stage s: write with stage s's write map, read with stage s+1's read map. */
export function exchangeCode(
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

/**
 * The 'rounds' exchange after stage s (planner/fft-rounds.ts): round q writes butterfly group q (j = t + q·L,
 * whose outputs fill block q of L·R values, in-block index = the write map of t), waits, and reads the next
 * stage's slots σ = q·R … q·R + R − 1 (position t + L·σ) into fresh values; after the last round they become
 * the next stage's registers (slot σ = m' + k'·P/R' is register m'·R' + k'). Reading into fresh values keeps
 * the registers of groups not yet written; the compiler maps both onto the same P registers.
 */
export function roundsExchangeCode(recipe: WorkgroupFftRecipe, s: number, pad: PadFn): string[] {
  const { n, stages, invocationsPerProblem: L, registers: P } = recipe;
  const cur = stages[s];
  const next = stages[s + 1];
  const R = cur.radix;
  const nextBpi = next.butterfliesPerInvocation;
  // Split rounds move real parts, then imaginary parts, through an f32 block.
  const parts = recipe.roundsSplit ? ['.x', '.y'] : [''];
  const lines: string[] = [`// exchange in ${cur.butterfliesPerInvocation * parts.length} rounds of ${L * R} values`];
  if (recipe.roundsSplit) for (let slot = 0; slot < P; slot++) lines.push(`var x${s}_${slot}: vec2<f32>;`);
  for (let q = 0; q < cur.butterfliesPerInvocation; q++) {
    parts.forEach((c, h) => {
      // Before overwriting the block, every invocation must have read the previous round's.
      if (s > 0 || q > 0 || h > 0) lines.push('workgroupBarrier();');
      const writes = Array.from(
        { length: R },
        (_, k) => `sh[sbase + ${pad(writeIndex('t', k, cur.stride, R, n / R))}] = v${q * R + k}${c};`,
      );
      lines.push(`{ ${writes.join(' ')} }`, 'workgroupBarrier();');
      for (let i = 0; i < R; i++) {
        const at = `sh[sbase + ${pad(`t + ${i * L}u`)}]`;
        lines.push(c ? `x${s}_${q * R + i}${c} = ${at};` : `let x${s}_${q * R + i} = ${at};`);
      }
    });
  }
  for (let slot = 0; slot < P; slot++) {
    const m = slot % nextBpi;
    const k = Math.floor(slot / nextBpi);
    lines.push(`v${m * next.radix + k} = x${s}_${slot};`);
  }
  return lines;
}

/** The part of j = butterflyBits(t + m·L) that t's bits give, as WGSL (runs of consecutive bits in one shift and mask). */
export function mappedSlotExpr(bits: readonly number[], t: string, L: number): string {
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
export function mappedSlotConstant(bits: readonly number[], m: number, L: number): number {
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
export function shuffleCode(ex: ShuffleExchange, P: number): string[] {
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
