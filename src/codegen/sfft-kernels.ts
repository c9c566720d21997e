/**
 * WGSL generators for the sparse FFT (executor: src/backends/webgpu/sfft.ts; float64 twin of every rule:
 * src/backends/cpu/sfft.ts). Sizes fixed by the plan (n, B, filter support W, reach D, loop counts) are
 * compile-time constants, so the key of each kernel is exactly those constants; values that change per
 * dispatch (which loop, which round, which slot) travel in a small uniform `P`.
 *
 * Index arithmetic is u32 with wrapping multiplication: n = 2^m, so (σ·t + τ) mod n is the low m bits of
 * the wrapped product. Phases e^{2πi·m/n} come from two f64-computed tables (high and low halves of m),
 * since WGSL's sin/cos only promise 2^-11 absolute accuracy.
 */
import type { KernelSource } from './kernel-source.js';
import { stableKey } from './kernel-source.js';
import { ArgumentError } from '../errors.js';

export const SFFT_WG = 64;
export const SFFT_REDUCE_WG = 256;
/** Bytes of one coefficient entry: f (u32), re, im (f32), tag (u32: exact path round | stage << 8). */
export const COEF_BYTES = 16;
/** Counter words: 0 found/hits, 1 overflow, 2 verify count, 3 unused (the exact path's bin counts follow). */
export const COUNTER_WORDS = 4;
export const P_BYTES = 32;

const f32 = (x: number) => {
  const s = Math.fround(x).toString();
  return /[.eE]/.test(s) ? s : `${s}.0`;
};

function header(n: number, twLoBits: number, withTw = true): string {
  const twFn = withTw
    ? `// e^{2πi·m/n} for m < n, from the high and low tables.
fn tw(m: u32) -> vec2<f32> { return cmul(twHi[m >> TW_LO_BITS], twLo[m & TW_LO_MASK]); }`
    : '';
  return `
const N: u32 = ${n}u;
const MASK: u32 = ${n - 1}u;
const TW_LO_BITS: u32 = ${twLoBits}u;
const TW_LO_MASK: u32 = ${(1 << twLoBits) - 1}u;
struct Coef { f: u32, re: f32, im: f32, tag: u32 }
struct P { sigma: u32, sigmaInv: u32, tau: u32, tau2: u32, uSlot: u32, vSlot: u32, round: u32, mode: u32 }
fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
fn cmulConj(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y); }
${twFn}
// Signed d = h·(n/B) − g wrapped to [−n/2, n/2).
fn offsetOf(h: u32, width: u32, g: u32) -> i32 {
  let d = (h * width - g) & MASK;
  if (d >= N / 2u) { return i32(d) - i32(N / 2u) - i32(N / 2u); }
  return i32(d);
}
fn homeOf(g: u32, width: u32, shift: u32, B: u32) -> u32 { return (((g + width / 2u) & MASK) >> shift) & (B - 1u); }
`;
}

const twBindings = (hi: number, lo: number) => `
@group(0) @binding(${hi}) var<storage, read> twHi: array<vec2<f32>>;
@group(0) @binding(${lo}) var<storage, read> twLo: array<vec2<f32>>;`;

const linearId = `let gid = (wid.x + wid.y * nwg.x) * ${SFFT_WG}u + lid.x;`;
const entry = `@compute @workgroup_size(${SFFT_WG}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid_i: u32) {
  let lid = vec3<u32>(lid_i, 0u, 0u);`;

function src(name: string, keyData: unknown, wgsl: string): KernelSource {
  return { name, key: `sfft-${name}:${stableKey(keyData)}`, wgsl, entryPoint: 'main' };
}

export interface HashConsts {
  n: number;
  B: number;
  W: number;
  slots: number;
  real: boolean;
  /**
   * Words of binding 4 (`zero`) that the invocations set to 0: the exact path's counters and bin counts,
   * so that no separate clear command precedes the chain. 0: no binding 4.
   */
  zeroWords?: number;
}

/**
 * Permutation + filter + aliasing: u[s·B + j] = Σ_{i ≡ j (mod B)} x[(σ_s (i − W/2) + τ_s) mod n]·G[i]. One
 * invocation per (slot, j): W/B random reads each. Bindings: 0 x, 1 G, 2 slots (σ, τ), 3 u, 4 zero (optional).
 */
export function hashKernel(c: HashConsts): KernelSource {
  const zero = c.zeroWords ?? 0;
  const wgsl = `
const MASK: u32 = ${c.n - 1}u;
const B: u32 = ${c.B}u;
const W: u32 = ${c.W}u;
const TOTAL: u32 = ${c.slots * c.B}u;
@group(0) @binding(0) var<storage, read> x: array<${c.real ? 'f32' : 'vec2<f32>'}>;
@group(0) @binding(1) var<storage, read> G: array<f32>;
@group(0) @binding(2) var<storage, read> slots: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> u: array<vec2<f32>>;
${zero ? '@group(0) @binding(4) var<storage, read_write> zero: array<u32>;' : ''}
${entry}
  ${linearId}
  if (gid >= TOTAL) { return; }
  ${zero ? `for (var z = gid; z < ${zero}u; z = z + TOTAL) { zero[z] = 0u; }` : ''}
  let s = gid / B;
  let j = gid % B;
  let sl = slots[s];
  var acc = vec2<f32>(0.0, 0.0);
  // A constant trip count (W/B taps per bucket) lets the compiler issue the random reads together.
  for (var q = 0u; q < W / B; q = q + 1u) {
    let i = j + q * B;
    // t = i − W/2 as a wrapped u32: σ·t + τ mod 2^32 keeps the low bits exact.
    let idx = (sl.x * (i - W / 2u) + sl.y) & MASK;
    ${c.real ? 'acc.x = acc.x + x[idx] * G[i];' : 'acc = acc + x[idx] * G[i];'}
  }
  u[gid] = acc;
}`;
  return src('hash', c, wgsl);
}

/**
 * Sorted gather, first half of the hashing: prod[dest[g]] = x[addr[g]] for the plan's list of taps in
 * ascending address order (addresses precomputed from σ, τ; taps with G = 0 left out, their prod stays 0).
 * Bindings: 0 x, 1 addr, 2 dest, 3 prod.
 */
export function gatherKernel(count: number, real: boolean): KernelSource {
  const t = real ? 'f32' : 'vec2<f32>';
  const wgsl = `
const COUNT: u32 = ${count}u;
@group(0) @binding(0) var<storage, read> x: array<${t}>;
@group(0) @binding(1) var<storage, read> addr: array<u32>;
@group(0) @binding(2) var<storage, read> dest: array<u32>;
@group(0) @binding(3) var<storage, read_write> prod: array<${t}>;
${entry}
  ${linearId}
  if (gid >= COUNT) { return; }
  prod[dest[gid]] = x[addr[gid]];
}`;
  return src('gather', { count, real }, wgsl);
}

/**
 * Sorted gather, second half: u[s·B + j] = Σ_q prod[s·W + j + qB]·G[j + qB] (the hashKernel's sum from
 * the gathered samples), and zeroes `zeroWords` words of binding 4. Bindings: 1 G, 3 u, 4 zero, 5 prod.
 */
export function aliasKernel(c: HashConsts): KernelSource {
  const zero = c.zeroWords ?? 0;
  const wgsl = `
const B: u32 = ${c.B}u;
const W: u32 = ${c.W}u;
const TOTAL: u32 = ${c.slots * c.B}u;
@group(0) @binding(1) var<storage, read> G: array<f32>;
@group(0) @binding(3) var<storage, read_write> u: array<vec2<f32>>;
${zero ? '@group(0) @binding(4) var<storage, read_write> zero: array<u32>;' : ''}
@group(0) @binding(5) var<storage, read> prod: array<${c.real ? 'f32' : 'vec2<f32>'}>;
${entry}
  ${linearId}
  if (gid >= TOTAL) { return; }
  ${zero ? `for (var z = gid; z < ${zero}u; z = z + TOTAL) { zero[z] = 0u; }` : ''}
  let s = gid / B;
  let j = gid % B;
  var acc = vec2<f32>(0.0, 0.0);
  for (var q = 0u; q < W / B; q = q + 1u) {
    let i = j + q * B;
    ${c.real ? 'acc.x = acc.x + prod[s * W + i] * G[i];' : 'acc = acc + prod[s * W + i] * G[i];'}
  }
  u[gid] = acc;
}`;
  return src('alias', c, wgsl);
}

export interface BucketConsts {
  n: number;
  B: number;
  /** Filter reach in frequency bins. */
  D: number;
  /** Slots per bucket of the binning table. */
  S: number;
  twLoBits: number;
}

/**
 * Bins the verification list's entries [0, counters[2]) by home bucket under loop P.sigma (a table of S
 * slots per bucket; overflow is flagged). Bindings: 0 list, 1 counters, 2 binCounts, 3 binTable, 4 P.
 */
export function binKernel(c: BucketConsts, cap: number): KernelSource {
  const wgsl = `${header(c.n, c.twLoBits, false)}
const B: u32 = ${c.B}u;
const WIDTH: u32 = ${c.n / c.B}u;
const SHIFT: u32 = ${Math.log2(c.n / c.B)}u;
const S: u32 = ${c.S}u;
const CAP: u32 = ${cap}u;
@group(0) @binding(0) var<storage, read> list: array<Coef>;
@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> binCounts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> binTable: array<u32>;
@group(0) @binding(4) var<uniform> p: P;
${entry}
  ${linearId}
  if (gid >= min(atomicLoad(&counters[2]), CAP)) { return; }
  let g = (p.sigma * list[gid].f) & MASK;
  let h = homeOf(g, WIDTH, SHIFT, B);
  let slot = atomicAdd(&binCounts[h], 1u);
  if (slot < S) { binTable[h * S + slot] = gid; } else { atomicStore(&counters[1], 1u); }
}`;
  return src('bin', { ...c, cap }, wgsl);
}

/**
 * Subtracts binned coefficients from bucket h of slot P.uSlot (phase τ) and, when P.vSlot ≠ ~0, of slot
 * P.vSlot (phase τ2), in place; writes |U_h|² before and after to energies[h], energies[B + h].
 * Bindings: 0 list, 2 binCounts, 3 binTable, 4 P, 5 U, 6 H, 7 energies, 8/9 twiddles.
 */
export function peelKernel(c: BucketConsts): KernelSource {
  const width = c.n / c.B;
  const reach = Math.ceil(c.D / width);
  const wgsl = `${header(c.n, c.twLoBits)}
const B: u32 = ${c.B}u;
const WIDTH: u32 = ${width}u;
const S: u32 = ${c.S}u;
const D: i32 = ${c.D};
const REACH: i32 = ${reach};
@group(0) @binding(0) var<storage, read> list: array<Coef>;
@group(0) @binding(2) var<storage, read> binCounts: array<u32>;
@group(0) @binding(3) var<storage, read> binTable: array<u32>;
@group(0) @binding(4) var<uniform> p: P;
@group(0) @binding(5) var<storage, read_write> U: array<vec2<f32>>;
@group(0) @binding(6) var<storage, read> H: array<f32>;
@group(0) @binding(7) var<storage, read_write> energies: array<f32>;
${twBindings(8, 9)}
${entry}
  ${linearId}
  if (gid >= B) { return; }
  let h = gid;
  let two = p.vSlot != 0xffffffffu;
  var a = U[p.uSlot * B + h];
  var b = vec2<f32>(0.0, 0.0);
  if (two) { b = U[p.vSlot * B + h]; }
  energies[h] = dot(a, a);
  for (var j = -REACH; j <= REACH; j = j + 1) {
    let hb = u32(i32(h) + j + i32(B)) & (B - 1u);
    let cnt = min(binCounts[hb], S);
    for (var s = 0u; s < cnt; s = s + 1u) {
      let e = list[binTable[hb * S + s]];
      let g = (p.sigma * e.f) & MASK;
      let d = offsetOf(h, WIDTH, g);
      if (d < -D || d > D) { continue; }
      let hv = H[u32(d + D)];
      let xv = vec2<f32>(e.re, e.im) * hv;
      a = a - cmul(xv, tw((e.f * p.tau) & MASK));
      if (two) { b = b - cmul(xv, tw((e.f * p.tau2) & MASK)); }
    }
  }
  U[p.uSlot * B + h] = a;
  if (two) { U[p.vSlot * B + h] = b; }
  energies[B + h] = dot(a, a);
}`;
  return src('peel', { ...c, reach }, wgsl);
}

/**
 * Sums energies[0..B) and energies[B..2B) into stats[2·P.round], stats[2·P.round + 1] (one workgroup).
 * Bindings: 4 P, 7 energies, 10 stats.
 */
export function reduceKernel(B: number): KernelSource {
  const wgsl = `
struct P { sigma: u32, sigmaInv: u32, tau: u32, tau2: u32, uSlot: u32, vSlot: u32, round: u32, mode: u32 }
const B: u32 = ${B}u;
@group(0) @binding(4) var<uniform> p: P;
@group(0) @binding(7) var<storage, read> energies: array<f32>;
@group(0) @binding(10) var<storage, read_write> stats: array<f32>;
var<workgroup> s0: array<f32, ${SFFT_REDUCE_WG}>;
var<workgroup> s1: array<f32, ${SFFT_REDUCE_WG}>;
@compute @workgroup_size(${SFFT_REDUCE_WG}) fn main(@builtin(local_invocation_index) lid: u32) {
  var a = 0.0;
  var b = 0.0;
  for (var i = lid; i < B; i = i + ${SFFT_REDUCE_WG}u) { a = a + energies[i]; b = b + energies[B + i]; }
  s0[lid] = a;
  s1[lid] = b;
  workgroupBarrier();
  for (var w = ${SFFT_REDUCE_WG / 2}u; w > 0u; w = w / 2u) {
    if (lid < w) { s0[lid] = s0[lid] + s0[lid + w]; s1[lid] = s1[lid] + s1[lid + w]; }
    workgroupBarrier();
  }
  if (lid == 0u) { stats[2u * p.round] = s0[0]; stats[2u * p.round + 1u] = s1[0]; }
}`;
  return src('reduce', { B }, wgsl);
}

export interface ExactStageConsts extends BucketConsts {
  rounds: number;
  /** threshold² / B: a bucket is decoded when |U_h|² > this × (round 0's total bucket energy). */
  thresh2PerB: number;
  tol: number;
  cap: number;
  /** Word offset of the bin counts in the counters buffer (bin set s ≥ 1 at binBase + (s − 1)·rounds·B). */
  binBase: number;
}

/** 'first': decode only (stage 0); 'peel': subtract the binned entries, then decode; 'final': subtract only. */
export type ExactStageKind = 'first' | 'peel' | 'final';

/**
 * One stage of the exact path for ALL rounds at once (rule: exactSfftCpu), P.round = stage s. Invocation
 * (r, h) takes bucket h of round r (hashings 2r and 2r + 1): reads it from Uin, subtracts the entries of
 * bin set s (what stage s − 1 found; table s − 1 mod 2) and writes it to Uout ('peel', 'final'). It then
 * decodes the bucket (rule: exactDecode); a frequency f decoded here is kept only if no lower round q
 * decodes f in this stage, which the invocation checks itself by decoding bucket home_q(f) of round q —
 * same input, same bins, same code, so the same answer as q's own invocation — instead of a separate
 * pass over a table of decodes. A kept f is appended (tag r | s << 8) and binned by home bucket in every
 * round into bin set s + 1 (table s mod 2), for the next stage. Stage 0 also writes per-workgroup sums of
 * round 0's |U_h|² (partials); later stages take the decode threshold from them (no reduction dispatch).
 * Bindings: 0 list (rw), 1 counters (+ bin counts), 2 loops, 3 table in, 4 P, 5 Uin, 6 H, 7 partials,
 * 8/9 twiddles, 10 table out, 11 Uout.
 */
export function exactStageKernel(c: ExactStageConsts, kind: ExactStageKind): KernelSource {
  const width = c.n / c.B;
  const reach = Math.ceil(c.D / width);
  const np = Math.ceil(c.B / SFFT_WG);
  const subtracts = kind !== 'first';
  const decodes = kind !== 'final';
  const residual = subtracts
    ? `
// Bucket h of round r minus the entries of bin set P.round (the previous stage's finds).
fn residual(r: u32, h: u32) -> array<vec2<f32>, 2> {
  let lp = loops[r];
  var a = Uin[2u * r * B + h];
  var b = Uin[(2u * r + 1u) * B + h];
  let binAt = ${c.binBase}u + (p.round - 1u) * R * B + r * B;
  for (var j = -REACH; j <= REACH; j = j + 1) {
    let hb = u32(i32(h) + j + i32(B)) & (B - 1u);
    let cnt = min(atomicLoad(&counters[binAt + hb]), S);
    for (var s = 0u; s < cnt; s = s + 1u) {
      let e = list[tin[(r * B + hb) * S + s]];
      let g = (lp.x * e.f) & MASK;
      let d = offsetOf(h, WIDTH, g);
      if (d < -D || d > D) { continue; }
      let xv = vec2<f32>(e.re, e.im) * H[u32(d + D)];
      a = a - cmul(xv, tw((e.f * lp.z) & MASK));
      b = b - cmul(xv, tw((e.f * lp.w) & MASK));
    }
  }
  return array<vec2<f32>, 2>(a, b);
}`
    : `
fn residual(r: u32, h: u32) -> array<vec2<f32>, 2> {
  return array<vec2<f32>, 2>(Uin[2u * r * B + h], Uin[(2u * r + 1u) * B + h]);
}`;
  const decodeFn = decodes
    ? `
struct Dec { ok: bool, f: u32, x: vec2<f32> }
// The singleton test of bucket h of round r holding (a, b) (rule: exactDecode).
fn decode(r: u32, h: u32, a: vec2<f32>, b: vec2<f32>, thr: f32) -> Dec {
  let none = Dec(false, 0u, vec2<f32>(0.0, 0.0));
  let lp = loops[r];
  let a2 = dot(a, a);
  let b2 = dot(b, b);
  if (!(a2 > thr) || abs(b2 - a2) > 2.0 * TOL * a2) { return none; }
  let rr = cmulConj(b, a);
  let theta = atan2(rr.y, rr.x);
  var q = f32(h & 3u) / 4.0 - theta / 6.283185307179586;
  q = q - round(q);
  let dReal = q * FOUR_N_OVER_B;
  let d = i32(round(dReal));
  if (abs(dReal - f32(d)) > 0.25 || d < -D || d > D) { return none; }
  let g = (h * WIDTH - bitcast<u32>(d)) & MASK;
  if (homeOf(g, WIDTH, SHIFT, B) != h) { return none; }
  let f = (lp.y * g) & MASK;
  let hv = H[u32(d + D)];
  let xv = cmulConj(a, tw((f * lp.z) & MASK)) / hv;
  let pred = cmul(xv, tw((f * lp.w) & MASK)) * hv - b;
  if (dot(pred, pred) > TOL * TOL * a2) { return none; }
  return Dec(true, f, xv);
}`
    : '';
  // Stage 0: per-workgroup energy of round 0 (workgroups never straddle rounds when B ≥ 64; for smaller B
  // only round-0 invocations contribute). Later stages: the sum of those partials. All invocations reach
  // the barriers (no early return before them).
  const energy =
    kind === 'first'
      ? `
  red[lid.x] = select(0.0, dot(ab[0], ab[0]), valid && r == 0u);
  workgroupBarrier();
  for (var w = ${SFFT_WG / 2}u; w > 0u; w = w / 2u) {
    if (lid.x < w) { red[lid.x] = red[lid.x] + red[lid.x + w]; }
    workgroupBarrier();
  }
  let wgi = gid / ${SFFT_WG}u;
  if (lid.x == 0u && wgi < NP) { partials[wgi] = red[0]; }
  let thr = 0.0;`
      : kind === 'peel'
        ? `
  var acc = 0.0;
  for (var i = lid.x; i < NP; i = i + ${SFFT_WG}u) { acc = acc + partials[i]; }
  red[lid.x] = acc;
  workgroupBarrier();
  for (var w = ${SFFT_WG / 2}u; w > 0u; w = w / 2u) {
    if (lid.x < w) { red[lid.x] = red[lid.x] + red[lid.x + w]; }
    workgroupBarrier();
  }
  let thr = THR * red[0];`
        : '';
  const decodeBody = decodes
    ? `
  if (!valid) { return; }
  let dec = decode(r, h, ab[0], ab[1], thr);
  if (!dec.ok) { return; }
  let f = dec.f;
  for (var q = 0u; q < r; q = q + 1u) {
    let hq = homeOf((loops[q].x * f) & MASK, WIDTH, SHIFT, B);
    let abq = residual(q, hq);
    let other = decode(q, hq, abq[0], abq[1], thr);
    if (other.ok && other.f == f) { return; }
  }
  let idx = atomicAdd(&counters[0], 1u);
  if (idx >= CAP) { atomicStore(&counters[1], 1u); return; }
  list[idx] = Coef(f, dec.x.x, dec.x.y, r | (p.round << 8u));
  let binOut = ${c.binBase}u + p.round * R * B;
  for (var q = 0u; q < R; q = q + 1u) {
    let hq = homeOf((loops[q].x * f) & MASK, WIDTH, SHIFT, B);
    let slot = atomicAdd(&counters[binOut + q * B + hq], 1u);
    if (slot < S) { tout[(q * B + hq) * S + slot] = idx; } else { atomicStore(&counters[1], 1u); }
  }`
    : '';
  const wgsl = `${header(c.n, c.twLoBits)}
const B: u32 = ${c.B}u;
const R: u32 = ${c.rounds}u;
const WIDTH: u32 = ${width}u;
const SHIFT: u32 = ${Math.log2(width)}u;
const S: u32 = ${c.S}u;
const D: i32 = ${c.D};
const REACH: i32 = ${reach};
const NP: u32 = ${np}u;
const CAP: u32 = ${c.cap}u;
const TOL: f32 = ${f32(c.tol)};
const THR: f32 = ${f32(c.thresh2PerB)};
const FOUR_N_OVER_B: f32 = ${f32((4 * c.n) / c.B)};
@group(0) @binding(0) var<storage, read_write> list: array<Coef>;
@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> loops: array<vec4<u32>>;
${subtracts ? '@group(0) @binding(3) var<storage, read> tin: array<u32>;' : ''}
@group(0) @binding(4) var<uniform> p: P;
@group(0) @binding(5) var<storage, read> Uin: array<vec2<f32>>;
@group(0) @binding(6) var<storage, read> H: array<f32>;
${decodes ? `@group(0) @binding(7) var<storage, ${kind === 'first' ? 'read_write' : 'read'}> partials: array<f32>;` : ''}
${twBindings(8, 9)}
${decodes ? '@group(0) @binding(10) var<storage, read_write> tout: array<u32>;' : ''}
${subtracts ? '@group(0) @binding(11) var<storage, read_write> Uout: array<vec2<f32>>;' : ''}
${decodes ? `var<workgroup> red: array<f32, ${SFFT_WG}>;` : ''}
${residual}
${decodeFn}
${entry}
  ${linearId}
  let valid = gid < R * B;
  let r = min(gid / B, R - 1u);
  let h = gid % B;
  let ab = residual(r, h);
  ${subtracts ? `if (valid) { Uout[2u * r * B + h] = ab[0]; Uout[(2u * r + 1u) * B + h] = ab[1]; }` : ''}
  ${energy}
  ${decodeBody}
}`;
  return src(`exact-${kind}`, { ...c, kind }, wgsl);
}

export interface EstimateGroup {
  B: number;
  D: number;
  /** First loop index and count of the group. */
  first: number;
  count: number;
}

/**
 * Median estimation of listed frequencies over loops (robust estimation, and the exact path's refinement):
 * for each loop, U_h·e^{−2πi f τ/n}/H(d) at f's home bucket, median of the real and imaginary parts.
 * Loops come in up to two groups (different B, H, U buffers). Bindings: 0 freqs (u32 list or Coef list), 1
 * counters, 2 loops (σ, σ^{-1}, τ, τ2 per loop; τ2 used when `pairs`), 3 out (vec2), 5 U0, 6 H0, 11 U1,
 * 12 H1, 8/9 twiddles.
 */
export function estimateKernel(
  n: number,
  twLoBits: number,
  groups: EstimateGroup[],
  cap: number,
  input: 'hits' | 'coefs',
  pairs: boolean,
): KernelSource {
  const L = groups.reduce((s, g) => s + g.count, 0) * (pairs ? 2 : 1);
  const body = groups
    .map((g, gi) => {
      const w = n / g.B;
      const U = gi === 0 ? 'U0' : 'U1';
      const Hn = gi === 0 ? 'H0' : 'H1';
      const one = (tauExpr: string, slotExpr: string) => `
      {
        let ph = tw((f * ${tauExpr}) & MASK);
        let v = cmulConj(${U}[(${slotExpr}) * ${g.B}u + h], ph) / hv;
        re[m] = v.x; im[m] = v.y; m = m + 1u;
      }`;
      return `
    for (var l = 0u; l < ${g.count}u; l = l + 1u) {
      let lp = loops[${g.first}u + l];
      let g = (lp.x * f) & MASK;
      let h = homeOf(g, ${w}u, ${Math.log2(w)}u, ${g.B}u);
      let d = offsetOf(h, ${w}u, g);
      let hv = ${Hn}[u32(d + ${g.D})];
      ${pairs ? one('lp.z', '2u * l') + one('lp.w', '2u * l + 1u') : one('lp.z', 'l')}
    }`;
    })
    .join('\n');
  const wgsl = `${header(n, twLoBits)}
const CAP: u32 = ${cap}u;
const L: u32 = ${L}u;
@group(0) @binding(0) var<storage, read> items: array<${input === 'hits' ? 'u32' : 'Coef'}>;
@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> loops: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> out: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read> U0: array<vec2<f32>>;
@group(0) @binding(6) var<storage, read> H0: array<f32>;
${
  groups.length > 1
    ? `@group(0) @binding(11) var<storage, read> U1: array<vec2<f32>>;
@group(0) @binding(12) var<storage, read> H1: array<f32>;`
    : ''
}
${twBindings(8, 9)}
fn median(a: ptr<function, array<f32, ${L}>>) -> f32 {
  for (var i = 1u; i < L; i = i + 1u) {
    let v = (*a)[i];
    var j = i;
    while (j > 0u && (*a)[j - 1u] > v) { (*a)[j] = (*a)[j - 1u]; j = j - 1u; }
    (*a)[j] = v;
  }
  if ((L & 1u) == 1u) { return (*a)[L / 2u]; }
  return 0.5 * ((*a)[L / 2u - 1u] + (*a)[L / 2u]);
}
${entry}
  ${linearId}
  let count = min(atomicLoad(&counters[0]), CAP);
  if (gid >= count) { return; }
  let f = items[gid]${input === 'hits' ? '' : '.f'};
  var re: array<f32, ${L}>;
  var im: array<f32, ${L}>;
  var m = 0u;
  ${body}
  out[gid] = vec2<f32>(median(&re), median(&im));
}`;
  return src('estimate', { n, twLoBits, groups, cap, input, pairs }, wgsl);
}

/**
 * Top-bucket cutoff of the location loops: one workgroup per loop finds the `kept`-th largest |U_h|² by a
 * 4-pass 8-bit radix select on the f32 bit patterns (non-negative floats order like their bits), then keeps
 * the buckets above it (and ties, up to `kept`) as a bitset and a list. `wg` invocations (up to the
 * device's 1024) share the B buckets, and the histogram has wg/256 copies indexed by invocation: the
 * magnitudes of an exactly sparse signal's empty buckets share a few exponents, and with one copy every
 * invocation would add to the same few counters. Bindings: 0 U, 1 keptBits, 2 keptList, 3 keptCount.
 */
export function cutoffKernel(B: number, kept: number, wg = 256): KernelSource {
  if (!Number.isInteger(Math.log2(wg)) || wg < 256 || wg > 1024)
    throw new ArgumentError('wg', wg, 'a power of two in [256, 1024]');
  const copies = wg / 256;
  const wgsl = `
const B: u32 = ${B}u;
const KEPT: u32 = ${kept}u;
const WG: u32 = ${wg}u;
const COPIES: u32 = ${copies}u;
@group(0) @binding(0) var<storage, read> U: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> keptBits: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> keptList: array<u32>;
@group(0) @binding(3) var<storage, read_write> keptCount: array<atomic<u32>>;
var<workgroup> hist: array<atomic<u32>, ${256 * copies}>;
var<workgroup> tot: array<u32, 256>;
var<workgroup> sel: array<u32, 2>;
var<workgroup> nList: atomic<u32>;
fn mag(l: u32, h: u32) -> u32 { let v = U[l * B + h]; return bitcast<u32>(dot(v, v)); }
@compute @workgroup_size(${wg}) fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let l = wid.x;
  let copy = (lid % COPIES) * 256u;
  var prefix = 0u;
  var rank = KEPT; // rank (1-based, from the top) still sought within the current prefix
  for (var step = 0u; step < 4u; step = step + 1u) {
    let shift = 24u - 8u * step;
    atomicStore(&hist[lid], 0u);
    workgroupBarrier();
    let hiMask = select(0xffffffffu << (shift + 8u), 0u, step == 0u);
    // Four loads before the four atomics: one memory latency per four buckets instead of one per bucket.
    for (var h = lid; h < B; h = h + 4u * WG) {
      var m: array<u32, 4>;
      for (var q = 0u; q < 4u; q = q + 1u) { m[q] = mag(l, min(h + q * WG, B - 1u)); }
      for (var q = 0u; q < 4u; q = q + 1u) {
        if (h + q * WG < B && (m[q] & hiMask) == (prefix & hiMask)) { atomicAdd(&hist[copy + ((m[q] >> shift) & 255u)], 1u); }
      }
    }
    workgroupBarrier();
    if (lid < 256u) {
      var t = 0u;
      for (var c = 0u; c < COPIES; c = c + 1u) { t = t + atomicLoad(&hist[c * 256u + lid]); }
      tot[lid] = t;
    }
    workgroupBarrier();
    if (lid == 0u) {
      var r = rank;
      var digit = 0u;
      for (var dgt = 255; dgt >= 0; dgt = dgt - 1) {
        let c = tot[u32(dgt)];
        if (c >= r) { digit = u32(dgt); break; }
        r = r - c;
      }
      sel[0] = digit;
      sel[1] = r;
    }
    workgroupBarrier();
    prefix = prefix | (sel[0] << shift);
    rank = sel[1];
    workgroupBarrier();
  }
  let cutoff = prefix;
  if (lid == 0u) { atomicStore(&nList, 0u); }
  workgroupBarrier();
  // Strictly above first, then ties at the cutoff while room remains.
  for (var h = lid; h < B; h = h + WG) {
    let m = mag(l, h);
    if (m > cutoff) {
      let i = atomicAdd(&nList, 1u);
      keptList[l * KEPT + i] = h;
      atomicOr(&keptBits[(l * B + h) / 32u], 1u << (h % 32u));
    }
  }
  workgroupBarrier();
  for (var h = lid; h < B; h = h + WG) {
    let m = mag(l, h);
    if (m == cutoff && m > 0u) {
      let i = atomicAdd(&nList, 1u);
      if (i < KEPT) {
        keptList[l * KEPT + i] = h;
        atomicOr(&keptBits[(l * B + h) / 32u], 1u << (h % 32u));
      }
    }
  }
  workgroupBarrier();
  if (lid == 0u) { atomicStore(&keptCount[l], min(atomicLoad(&nList), KEPT)); }
}`;
  return src('cutoff', { B, kept, wg }, wgsl);
}

/**
 * Location voting: invocation (l, i, c) takes candidate c of kept bucket i of location loop l, maps it back
 * through σ_l^{-1} and counts the location loops whose kept set holds its home bucket; the frequency is
 * listed by the first loop that keeps it when the votes reach `votes`. Bindings: 1 counters, 2 loops,
 * 4 keptBits, 5 keptList, 6 keptCount, 7 hits.
 */
export function voteKernel(
  n: number,
  B: number,
  kept: number,
  locLoops: number,
  votes: number,
  cap: number,
): KernelSource {
  const width = n / B;
  const wgsl = `
const MASK: u32 = ${n - 1}u;
const B: u32 = ${B}u;
const WIDTH: u32 = ${width}u;
const SHIFT: u32 = ${Math.log2(width)}u;
const KEPT: u32 = ${kept}u;
const LOC: u32 = ${locLoops}u;
const VOTES: u32 = ${votes}u;
const CAP: u32 = ${cap}u;
@group(0) @binding(1) var<storage, read_write> counters: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> loops: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> keptBits: array<u32>;
@group(0) @binding(5) var<storage, read> keptList: array<u32>;
@group(0) @binding(6) var<storage, read> keptCount: array<u32>;
@group(0) @binding(7) var<storage, read_write> hits: array<u32>;
${entry}
  ${linearId}
  if (gid >= LOC * KEPT * WIDTH) { return; }
  let c = gid % WIDTH;
  let i = (gid / WIDTH) % KEPT;
  let l = gid / (WIDTH * KEPT);
  if (i >= keptCount[l]) { return; }
  let h = keptList[l * KEPT + i];
  let g = (h * WIDTH - WIDTH / 2u + c) & MASK;
  let f = (loops[l].y * g) & MASK;
  var count = 0u;
  var first = LOC;
  for (var q = 0u; q < LOC; q = q + 1u) {
    let hq = ((((loops[q].x * f) & MASK) + WIDTH / 2u) & MASK) >> SHIFT;
    let bit = q * B + (hq & (B - 1u));
    if ((keptBits[bit / 32u] & (1u << (bit % 32u))) != 0u) {
      count = count + 1u;
      if (first == LOC) { first = q; }
    }
  }
  if (first != l || count < VOTES) { return; }
  let idx = atomicAdd(&counters[0], 1u);
  if (idx < CAP) { hits[idx] = f; } else { atomicStore(&counters[1], 1u); }
}`;
  return src('vote', { n, B, kept, locLoops, votes, cap }, wgsl);
}
