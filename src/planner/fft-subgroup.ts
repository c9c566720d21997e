/**
 * Subgroup exchanges of single-workgroup FFTs: a Γ between two stages whose moved index bits stay inside one
 * subgroup becomes register swaps with subgroupShuffleXor instead of a round trip through workgroup memory.
 *
 * Everything is a permutation of index bits (powers of two only). After stage s (radix 2^r, stride 2^a) the
 * value of butterfly j, output k sits at position bits [j_lo (a bits) | k | j_hi]; stage s + 1 reads
 * [j' | k'] (k' the top digit). An invocation's "slot" u = t + m·L (t < L its index, m its butterfly) holds
 * registers m·R + k. Each stage's butterfly index j is a bit permutation of u (FftStage.butterflyBits), so
 * the planner can choose which position bits are lane bits (t bits 0 … 4), subgroup bits (t bits ≥ 5,
 * identical on both sides: nothing leaves its subgroup) and register bits on each side of an exchange.
 * A position bit that is a lane bit on one side and a register bit on the other costs one xor swap
 * (R/2 shuffles of vec2); a lane bit on both sides with the same lane index costs nothing.
 */
import type { FftStage, WorkgroupFftRecipe } from './fft-recipe.js';

/** One step of a shuffle exchange: lane bit `lane` and register bit `reg` trade places (see applyShuffleSteps). */
export interface ShuffleSwap {
  lane: number;
  reg: number;
}

/** What the code generator and the CPU executor both run for a shuffle exchange after a stage. */
export interface ShuffleExchange {
  swaps: ShuffleSwap[];
  /** Destination register i takes the value in register regFrom[i] after the swaps. */
  regFrom: number[];
}

const log2 = (x: number) => Math.round(Math.log2(x));

/** j of `stage` for slot u = t + m·L (identity without butterflyBits). */
export function butterflyIndex(stage: FftStage, u: number): number {
  const bits = stage.butterflyBits;
  if (!bits) return u;
  let j = 0;
  for (let b = 0; b < bits.length; b++) j |= ((u >>> bits[b]) & 1) << b;
  return j;
}

type Role = { kind: 'lane' | 'warp' | 'reg'; bit: number };

/** Roles of the position bits that hold stage s's outputs (after its write map). */
function writeRoles(n: number, L: number, st: FftStage, sub: number): Role[] {
  const N = log2(n);
  const a = log2(st.stride);
  const r = log2(st.radix);
  const lb = log2(sub);
  const l = log2(L);
  const roles: Role[] = new Array(N);
  for (let k = 0; k < r; k++) roles[a + k] = { kind: 'reg', bit: k };
  for (let b = 0; b < N - r; b++) {
    const u = st.butterflyBits ? st.butterflyBits[b] : b;
    const pos = b < a ? b : b + r;
    roles[pos] =
      u < lb ? { kind: 'lane', bit: u } : u < l ? { kind: 'warp', bit: u - lb } : { kind: 'reg', bit: r + u - l };
  }
  return roles;
}

/** Roles of the position bits stage s + 1 reads (j' + k'·n/R'). */
function readRoles(n: number, L: number, st: FftStage, sub: number): Role[] {
  const N = log2(n);
  const r = log2(st.radix);
  const lb = log2(sub);
  const l = log2(L);
  const roles: Role[] = new Array(N);
  for (let k = 0; k < r; k++) roles[N - r + k] = { kind: 'reg', bit: k };
  for (let b = 0; b < N - r; b++) {
    const u = st.butterflyBits ? st.butterflyBits[b] : b;
    roles[b] =
      u < lb ? { kind: 'lane', bit: u } : u < l ? { kind: 'warp', bit: u - lb } : { kind: 'reg', bit: r + u - l };
  }
  return roles;
}

/**
 * The swaps and register renaming of the shuffle exchange after stage s. Throws when the two stages' bit
 * maps move a value across subgroups or need a lane permutation (the planner never makes such recipes).
 */
type ShuffleRecipe = Pick<WorkgroupFftRecipe, 'n' | 'stages' | 'invocationsPerProblem' | 'subgroupSize'>;

export function shuffleExchange(recipe: ShuffleRecipe, s: number): ShuffleExchange {
  const { n, stages, invocationsPerProblem: L } = recipe;
  const sub = recipe.subgroupSize ?? 32;
  const src = writeRoles(n, L, stages[s], sub);
  const dst = readRoles(n, L, stages[s + 1], sub);
  const cur = src.map((r) => ({ ...r }));
  const swaps: ShuffleSwap[] = [];
  for (let p = 0; p < cur.length; p++) {
    if (
      (cur[p].kind === 'warp') !== (dst[p].kind === 'warp') ||
      (cur[p].kind === 'warp' && cur[p].bit !== dst[p].bit)
    ) {
      throw new Error(`shuffle exchange after stage ${s}: position bit ${p} changes subgroup`);
    }
  }
  // Each lane bit that must become a register bit trades places with a register bit that must become that lane.
  for (let p = 0; p < cur.length; p++) {
    if (cur[p].kind !== 'lane' || dst[p].kind !== 'reg') continue;
    const q = cur.findIndex((c, i) => c.kind === 'reg' && dst[i].kind === 'lane' && dst[i].bit === cur[p].bit);
    if (q < 0)
      throw new Error(`shuffle exchange after stage ${s}: lane bit ${cur[p].bit} has no register bit to trade with`);
    swaps.push({ lane: cur[p].bit, reg: cur[q].bit });
    [cur[p], cur[q]] = [cur[q], cur[p]];
  }
  for (let p = 0; p < cur.length; p++) {
    if (cur[p].kind === 'lane' && (dst[p].kind !== 'lane' || dst[p].bit !== cur[p].bit)) {
      throw new Error(`shuffle exchange after stage ${s}: lane bit ${cur[p].bit} would need a lane permutation`);
    }
  }
  const regs = n / L;
  const regFrom: number[] = [];
  for (let i = 0; i < regs; i++) {
    let from = 0;
    for (let p = 0; p < cur.length; p++) if (dst[p].kind === 'reg' && (i >>> dst[p].bit) & 1) from |= 1 << cur[p].bit;
    regFrom.push(from);
  }
  return { swaps, regFrom };
}

/**
 * The exchange on the registers of one subgroup, as the generated kernel does it: regs[lane][i]. Swap
 * (u, v): for each register pair (i, i | 2^v) with bit v of i clear, a lane with lane bit u clear sends
 * i | 2^v and keeps i, a lane with it set sends i and keeps i | 2^v; the value received from lane ^ 2^u
 * replaces the one sent. Then registers are renamed (regFrom).
 */
export function applyShuffleExchange(regs: Float64Array[][], ex: ShuffleExchange): void {
  const lanes = regs.length;
  for (const { lane: u, reg: v } of ex.swaps) {
    const sent = regs.map((rl, lane) => {
      const hi = (lane >>> u) & 1;
      return rl.map((_, i) => ((i >>> v) & 1 ? null : hi ? rl[i] : rl[i | (1 << v)]));
    });
    for (let lane = 0; lane < lanes; lane++) {
      const hi = (lane >>> u) & 1;
      const from = sent[lane ^ (1 << u)];
      regs[lane].forEach((_, i) => {
        if ((i >>> v) & 1) return;
        if (hi) regs[lane][i] = from[i]!;
        else regs[lane][i | (1 << v)] = from[i]!;
      });
    }
  }
  for (const rl of regs) {
    const copy = rl.slice();
    for (let i = 0; i < rl.length; i++) rl[i] = copy[ex.regFrom[i]];
  }
}

/**
 * Chooses the butterfly bit maps of stages s and s + 1 so that the exchange between them stays inside
 * subgroups of `sub` invocations, or returns null. The subgroup bits take the highest position bits that
 * neither stage keeps in registers (so the lanes of the following stage take the lowest ones: its stores,
 * or its workgroup-memory writes, stay contiguous); the earlier stage's lanes take the following stage's
 * lane positions where they can (those cost nothing), the rest from the bits of j that stage s + 1 keeps in
 * registers (one xor swap each). A first stage keeps its lanes on the lowest bits of j (coalesced loads).
 */
export function subgroupBitMaps(
  n: number,
  L: number,
  stages: readonly FftStage[],
  s: number,
  sub: number,
): { src: number[]; dst: number[]; swaps: number } | null {
  const N = log2(n);
  const lb = log2(sub);
  const l = log2(L);
  const st = stages[s];
  const nx = stages[s + 1];
  const a = log2(st.stride);
  const r = log2(st.radix);
  const r2 = log2(nx.radix);
  const wb = l - lb;
  if (wb < 0) return null;
  const inK = (p: number) => p >= a && p < a + r;
  const inK2 = (p: number) => p >= N - r2;
  const allowed = Array.from({ length: N }, (_, p) => p).filter((p) => !inK(p) && !inK2(p));
  if (allowed.length < wb) return null;
  const F = allowed.slice(allowed.length - wb);
  const inF = (p: number) => F.includes(p);
  // Destination: j' positions [0, N − r2); lanes the lowest non-subgroup ones, then the m' bits.
  const jPos2 = Array.from({ length: N - r2 }, (_, p) => p).filter((p) => !inF(p));
  const D = jPos2.slice(0, lb);
  const M2 = jPos2.slice(lb);
  // Source: j positions (not stage s's k digit).
  const jPos = Array.from({ length: N }, (_, p) => p).filter((p) => !inK(p));
  const posOfJ = (b: number) => (b < a ? b : b + r);
  let S: number[];
  if (s === 0) {
    S = Array.from({ length: lb }, (_, b) => posOfJ(b));
    if (S.some(inF)) return null;
  } else {
    const free = jPos.filter((p) => !inF(p));
    const shared = free.filter((p) => D.includes(p));
    const others = free.filter((p) => !D.includes(p));
    S = [...shared, ...others].slice(0, lb);
  }
  // Lane indices: a shared position keeps the destination's lane; the others take the lanes of the
  // destination positions that the source holds in registers, in order (each such pair is one swap).
  const laneOf = new Map<number, number>();
  D.forEach((p, u) => {
    if (S.includes(p)) laneOf.set(p, u);
  });
  const freeLanes = D.map((p, u) => (S.includes(p) ? -1 : u)).filter((u) => u >= 0);
  const movers = S.filter((p) => !D.includes(p));
  if (movers.length !== freeLanes.length) return null;
  movers.forEach((p, i) => laneOf.set(p, freeLanes[i]));
  // Slot bits: lanes 0 … lb − 1, subgroup bits lb … l − 1 (F in order), then m bits.
  const slotSrc = new Map<number, number>(laneOf);
  F.forEach((p, i) => slotSrc.set(p, lb + i));
  let mbit = l;
  for (const p of jPos) if (!slotSrc.has(p)) slotSrc.set(p, mbit++);
  const slotDst = new Map<number, number>();
  D.forEach((p, u) => slotDst.set(p, u));
  F.forEach((p, i) => slotDst.set(p, lb + i));
  M2.forEach((p, i) => slotDst.set(p, l + i));
  const src = Array.from({ length: N - r }, (_, b) => slotSrc.get(posOfJ(b))!);
  const dst = Array.from({ length: N - r2 }, (_, b) => slotDst.get(b)!);
  return { src, dst, swaps: movers.length };
}

/**
 * Whether the 'split4' exchange's rounds still work with butterfly bit maps: each workgroup exchange after
 * stage s moves, in round h, the values whose index bit p is h (p = log2 R0 after stage 0, else 0), and the
 * writing and the reading invocation must both hold that bit as the same bit of t (stage 0: bit p of the
 * reader's t; later: bit 0 of both). Stages without a bit map hold j = t + m·L, which satisfies it.
 */
export function split4RoundBits(stages: readonly FftStage[]): { ok: boolean } {
  for (let s = 0; s + 1 < stages.length; s++) {
    if (stages[s].exchange === 'shuffle') continue;
    const p = s === 0 ? log2(stages[0].radix) : 0;
    const rd = stages[s + 1].butterflyBits;
    if (rd && rd[p] !== p) return { ok: false };
    const wr = stages[s].butterflyBits;
    if (s > 0 && wr && wr[0] !== 0) return { ok: false };
    if (s === 0 && wr) return { ok: false };
  }
  return { ok: true };
}
