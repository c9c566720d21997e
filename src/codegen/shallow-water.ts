/**
 * WGSL for the shallow-water scheme of src/backends/cpu/shallow-water.ts (read its header for the
 * numerics; the functions below mirror sweEdge / sweEdgeLambda / update in f32, with the arithmetic
 * reorganised only where said: per-cell velocities computed once, one reciprocal instead of divisions).
 *
 * One time step is three dispatches, recorded back to back with no host round trip:
 *   1. cfl:    per-cell rates Σ|E|λ/|V| from the edges' wave speeds, max-reduced in workgroup memory
 *              into one partial per tile (phase one of the Δt reduction).
 *   2. reduce: one workgroup max-reduces the partials (phase two), sets Δt = min(2γ / max rate,
 *              tEnd − t, dtMax) and advances the time, kept as a float-float pair (t_hi, t_lo) so that
 *              thousands of f32 steps still sum to the float64 reference's time; all in a small
 *              storage buffer the other kernels read, so Δt never visits the host.
 *   3. update: the full edge fluxes (with Δt known, the positivity cap applies), then the update,
 *              wet–dry clipping and semi-implicit Manning friction; writes the new state into the other
 *              buffer of a ping-pong pair.
 * Both tiled kernels use ghost-cell decoupling (seed 000 §2.2.4.1): each edge is computed once per tile
 * and its two halves reach their cells through workgroup memory. Three structures (SweKernelOptions):
 *   - staged: W×H invocations own W×H cells and stage them with a one-cell ring (see STAGED);
 *   - fused: the staged update kernel over a W×H block that owns (W−2)×(H−2) cells also
 *     recomputes the ring's new states and leaves the next step's rates in the partials, so steps after
 *     the first are reduce → update and read the state once (see sweUpdateStaged);
 *   - halo (default, the fastest measured): T×T invocations, each with a column of `rows` cells, whose
 *     tile's first row and column are halo cells owned by the neighbouring tiles; each invocation loads
 *     its cells and their right and lower neighbours from global memory (all loads first) and computes
 *     the edges with the staged structure's edge functions.
 * The staged and fused structures move fewer bytes, yet ran slower (see
 * SWE_DEFAULT_KERNEL_OPTIONS); they stay as options, tested against the reference like the default.
 * The depth may be held as an f32 pair (updateTail), which removes most of the q difference to float64.
 * Once t reaches tEnd, Δt = 0 and the kernels only copy the state, so the host may record more steps
 * than needed and check the time now and then.
 *
 * Cache key: structure, tile shape, rows and depth pair change the code; sizes, scheme constants, boundaries
 * and the tide travel in the uniform block.
 */
import type { KernelSource } from './kernel-source.js';
import { stableKey } from './kernel-source.js';
import { ArgumentError } from '../errors.js';
import { SWE_DEFAULT_KERNEL_OPTIONS, type SweKernelOptions } from '../planner/swe-problem.js';

/** Byte size of the Params uniform block below. */
export const SWE_PARAMS_BYTES = 176;

/**
 * Layout of Params (offsets in 4-byte words), shared with the executor that fills it:
 *  0 nx, 1 ny, 2 tilesX, 3 numPartials (u32) | 4..7 bc (xmin, xmax, ymin, ymax: 0 wall, 1 open, 2 tide)
 *  8 dx, 9 dy, 10 invDx, 11 invDy | 12 g, 13 alpha, 14 hEps, 15 eps | 16 gamma, 17 g·n², 18 tEndHi, 19 tEndLo
 *  20 tideMean, 21 nTide (u32), 22 hDry, 23 dtMax | 24..39 tide[4] = (amplitude, ω, phase, 0)
 *  40 zero (always 0.0; see twoSum) | 41..43 padding
 */
const PARAMS = /* wgsl */ `
struct Params {
  nx: u32, ny: u32, tilesX: u32, numPartials: u32,
  bc: vec4<u32>,
  dx: f32, dy: f32, invDx: f32, invDy: f32,
  g: f32, alpha: f32, hEps: f32, eps: f32,
  gamma: f32, fric: f32, tEndHi: f32, tEndLo: f32,
  tideMean: f32, nTide: u32, hDry: f32, dtMax: f32,
  tide: array<vec4<f32>, 4>,
  zero: f32, pad0: f32, pad1: f32, pad2: f32,
}
struct Sim { dt: f32, tHi: f32, tLo: f32, steps: u32 }

// a + b as s + err exactly (Knuth's two-sum). Shader compilers may treat float arithmetic as
// reassociable (Mesa's NIR folds (a + b) − a to b unless an operation is marked exact, and WGSL has no
// way to mark it), which would make err 0; adding P.zero, a uniform the compiler cannot see is 0,
// gives the sum a second name and keeps the folding patterns from matching.
fn twoSum(a: f32, b: f32) -> vec2<f32> {
  let s = a + b;
  let bb = (s + P.zero) - a;
  return vec2<f32>(s, (a - (s - bb)) + (b - bb));
}
`;

/** Shared helpers of the edge physics (mirrors the CPU reference) and of the kernels. */
const EDGE = /* wgsl */ `
// The desingularised reciprocal: 1/h, or √2·h/√(h⁴ + ε⁴) below ε, so that u = q·desingFactor(h) stays
// bounded as h → 0 (the CPU reference's desing(q, h)).
fn desingFactor(h: f32) -> f32 {
  if (h >= P.eps) { return 1.0 / h; }
  let e2 = P.eps * P.eps;
  return 1.41421356 * h * inverseSqrt(h * h * h * h + e2 * e2);
}

fn wallK() -> f32 {
  let a = 1.0 - 2.0 * P.alpha;
  return a * a - 1.0;
}

fn weight(l: f32) -> f32 {
  if (l < 0.0) { return 1.0; }
  if (l > 0.0) { return 0.0; }
  return 0.5;
}

fn tideAt(t: f32) -> f32 {
  var z = P.tideMean;
  for (var k = 0u; k < P.nTide; k++) {
    let c = P.tide[k];
    let cycles = c.y * t - c.z;
    z += c.x * cos(6.28318531 * (cycles - round(cycles)));
  }
  return z;
}

fn remaining() -> f32 {
  return (P.tEndHi - sim.tHi) + (P.tEndLo - sim.tLo);
}

fn doneThreshold() -> f32 {
  return 1e-7 * abs(P.tEndHi);
}
`;

/**
 * Phase one of the Δt reduction, shared by the CFL kernels: the tile's N rates (`rate`, one an
 * invocation `li`) max-reduced in two levels and written to the tile's partial. L = 2^⌈log2 √N⌉
 * invocations each take the max of every L-th rate, then one takes the max of those L: two barriers
 * instead of a tree's log2 N, which in a kernel this light cost more than the arithmetic around them.
 * tileMaxDecl declares the workgroup arrays it uses.
 */
function tileLanes(N: number): number {
  return 1 << Math.ceil(Math.log2(N) / 2);
}

function tileMaxDecl(N: number): string {
  return `var<workgroup> red: array<f32, ${N}>;
var<workgroup> red2: array<f32, ${tileLanes(N)}>;`;
}

function tileMaxToPartials(N: number): string {
  const L = tileLanes(N);
  const first: string[] = [];
  for (let k = 1; k * L < N; k++)
    first.push(
      k * L + L <= N
        ? `m = max(m, red[li + ${k * L}u]);`
        : `if (li + ${k * L}u < ${N}u) { m = max(m, red[li + ${k * L}u]); }`,
    );
  const second = Array.from({ length: L - 1 }, (_, k) => `m = max(m, red2[${k + 1}u]);`);
  return `red[li] = rate;
  workgroupBarrier();
  if (li < ${Math.min(L, N)}u) {
    var m = red[li];
    ${first.join('\n    ')}
    red2[li] = m;
  }
  workgroupBarrier();
  if (li == 0u) {
    var m = red2[0];
    ${second.join('\n    ')}
    partials[wid.y * P.tilesX + wid.x] = m;
  }`;
}

/**
 * The cell update shared by both structures: W_new = W − Δt·(a_x + a_y), clipping, friction, store.
 * With the depth pair, h is held as hi + lo (hi in the state's vec4, lo in its own buffer): the update
 * adds the increment to the pair exactly (two-sum) and stores the renormalised pair, so the depth does
 * not lose the part of each step's increment below half an ulp of h. Rounding h to f32 after every
 * step is what dominates the f32-vs-float64 difference of q (the momentum feels h through g·h̃·Δζ) and
 * makes it grow with the number of steps; the edges still read hi alone.
 */
function updateTail(pair: boolean): string {
  return `${updateCompute(pair)}
  ${storeCell(pair)}`;
}

/** updateTail's arithmetic: declares h, qx, qy, hc (and hLo with the pair) for cell i. */
function updateCompute(pair: boolean): string {
  const depth = pair
    ? `let sum = twoSum(w.x, -(dt * (ax.x + ay.x)));
  let lo1 = hLoIn + sum.y;
  var h = sum.x + lo1;
  var hLo = lo1 - ((h + P.zero) - sum.x);`
    : `var h = w.x - dt * (ax.x + ay.x);`;
  return `${depth}
  var qx = w.y - dt * (ax.y + ay.z);
  var qy = w.z - dt * (ax.z + ay.y);
  var hc = w.w - dt * (ax.w + ay.w);
  if (h <= 0.0) {
    h = 0.0; qx = 0.0; qy = 0.0; hc = 0.0;${pair ? ' hLo = 0.0;' : ''}
  } else if (P.fric > 0.0) {
    let r = desingFactor(h);
    let ux = qx * r;
    let uy = qy * r;
    // h^(−4/3) as exp2(−4/3·log2 h) (what pow computes anyway) and one reciprocal for both components,
    // instead of three divisions.
    let rf = 1.0 / (1.0 + dt * P.fric * sqrt(ux * ux + uy * uy) * exp2(-1.33333333 * log2(h)));
    qx = qx * rf;
    qy = qy * rf;
  }`;
}

function storeCell(pair: boolean): string {
  return `Wout[i] = vec4<f32>(h, qx, qy, hc);${pair ? ' HloOut[i] = hLo;' : ''}`;
}

/** The copy of a finished run (Δt = 0) for cell i: state and, with the depth pair, its low part. */
function copyCell(pair: boolean): string {
  return `Wout[i] = Win[i];${pair ? ' HloOut[i] = HloIn[i];' : ''}`;
}

function bindings(kind: 'cfl' | 'update', pair = false): string {
  if (kind === 'cfl') {
    return /* wgsl */ `
@group(0) @binding(0) var<storage, read> Win: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> Hb: array<f32>;
@group(0) @binding(2) var<storage, read_write> partials: array<f32>;
@group(0) @binding(3) var<storage, read> sim: Sim;
@group(0) @binding(4) var<uniform> P: Params;
`;
  }
  return /* wgsl */ `
@group(0) @binding(0) var<storage, read> Win: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> Hb: array<f32>;
@group(0) @binding(2) var<storage, read_write> Wout: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> sim: Sim;
@group(0) @binding(4) var<uniform> P: Params;
${
  pair
    ? `@group(0) @binding(5) var<storage, read> HloIn: array<f32>;
@group(0) @binding(6) var<storage, read_write> HloOut: array<f32>;
`
    : ''
}`;
}

function checkOptions(o: SweKernelOptions): void {
  if (o.structure !== 'staged' && o.structure !== 'fused' && o.structure !== 'halo')
    throw new ArgumentError('structure', o.structure, "'staged' | 'fused' | 'halo'");
  if (o.structure === 'halo' && (!Number.isInteger(o.tile) || o.tile < 2 || o.tile > 32))
    throw new ArgumentError('tile', o.tile, 'an integer in 2..32');
  if (!Number.isInteger(o.rows) || o.rows < 1 || o.rows > 8)
    throw new ArgumentError('rows', o.rows, 'an integer in 1..8');
  if (!Number.isInteger(o.cflRows) || o.cflRows < 1 || o.cflRows > 8)
    throw new ArgumentError('cflRows', o.cflRows, 'an integer in 1..8');
  if (o.structure !== 'halo') checkStaged(o);
  if (o.structure === 'fused' && (o.tileX < 4 || o.tileY < 4))
    throw new ArgumentError(
      o.tileX < 4 ? 'tileX' : 'tileY',
      Math.min(o.tileX, o.tileY),
      'at least 4 for the fused structure (a ring around ≥ 2×2 owned cells)',
    );
  if (typeof o.depthPair !== 'boolean') throw new ArgumentError('depthPair', o.depthPair, 'true or false');
  if (!Number.isInteger(o.reduceSize) || o.reduceSize < 1 || (o.reduceSize & (o.reduceSize - 1)) !== 0)
    throw new ArgumentError('reduceSize', o.reduceSize, 'a power of two');
}

/** Phase one: per-cell CFL rates, max-reduced per tile. */
export function sweCflKernel(options: SweKernelOptions = SWE_DEFAULT_KERNEL_OPTIONS): KernelSource {
  checkOptions(options);
  // The fused structure runs this kernel once, for the first step's rates, over its owned tiles.
  if (options.structure === 'fused')
    return sweCflStaged({ ...options, tileX: options.tileX - 2, tileY: options.tileY - 2 });
  return options.structure === 'staged' ? sweCflStaged(options) : sweCflHalo(options);
}

/** Phase three: fluxes, update, wet–dry handling, friction. */
export function sweUpdateKernel(options: SweKernelOptions = SWE_DEFAULT_KERNEL_OPTIONS): KernelSource {
  checkOptions(options);
  return options.structure === 'halo' ? sweUpdateHalo(options) : sweUpdateStaged(options);
}

/**
 * What both halo kernels share about an invocation's column of K cells (gx, gy0 + k) in a T × T·K
 * tile: its place (prologue), which of its edges and cells count, and its loads and staged cells: the
 * cells, their right neighbours and the cell below the column. The loads are all issued before any
 * boundary logic or arithmetic (unguarded: slotIndex is always in range): a load under a branch waits
 * for the branch, and the loads of one invocation then queue one memory latency after another.
 * Declares i{k} (the cells' indices), c{k}, r{k}, cB (stageFrom values) and, with the depth pair, lo{k}.
 */
function haloColumn(T: number, K: number, pair: boolean) {
  const ks = Array.from({ length: K }, (_, k) => k);
  // The invocation's place: li in the workgroup, gx its column, gy0 its first cell row (tiles of
  // T × T·K cells start one cell before the cells they own).
  const prologue = `let li = lid.y * ${T}u + lid.x;
  let gx = i32(wid.x * ${T - 1}u + lid.x) - 1;
  let gy0 = i32(wid.y * ${T * K - 1}u + lid.y * ${K}u) - 1; // the invocation's first cell row
  let nx = i32(P.nx); let ny = i32(P.ny);`;
  const loads = [
    ...ks.map((k) => `let i${k} = slotIndex(gx, gy0 + ${k}); let iR${k} = slotIndex(gx + 1, gy0 + ${k});`),
    `let iB = slotIndex(gx, gy0 + ${K});`,
    ...ks.map(
      (k) =>
        `let w${k} = Win[i${k}]; let wR${k} = Win[iR${k}]; let H${k} = Hb[i${k}]; let HR${k} = Hb[iR${k}];${pair ? ` let lo${k} = HloIn[i${k}];` : ''}`,
    ),
    `let wB = Win[iB]; let HB = Hb[iB];`,
  ].join('\n  ');
  const stage = [
    ...ks.map(
      (k) =>
        `let c${k} = stageFrom(w${k}, H${k}, gx, gy0 + ${k}, tideZ); let r${k} = stageFrom(wR${k}, HR${k}, gx + 1, gy0 + ${k}, tideZ);`,
    ),
    `let cB = stageFrom(wB, HB, gx, gy0 + ${K}, tideZ);`,
  ].join('\n  ');
  return {
    ks,
    prologue,
    loads,
    stage,
    /** Row of cell k in the tile (its index into the x-edge arrays is row·T + lid.x). */
    row: (k: number) => `lid.y * ${K}u + ${k}u`,
    /** The staged cell below cell k. */
    below: (k: number) => (k < K - 1 ? `c${k + 1}` : 'cB'),
    /** Cell k's right edge is needed: the cell is not in the halo row (row 0) nor beyond the mesh. */
    xEdge: (k: number) => `${k === 0 ? 'lid.y >= 1u && ' : ''}gy0 + ${k} < ny && gx < nx`,
    /** Cell k's lower edge is needed: the cell is not in the halo column nor beyond the mesh. */
    yEdge: (k: number) => `lid.x >= 1u && gx < nx && gy0 + ${k} < ny`,
    /** Cell k is one the tile owns (neither halo row nor halo column, inside the mesh). */
    owned: (k: number) => `lid.x >= 1u && ${k === 0 ? 'lid.y >= 1u && ' : ''}gx < nx && gy0 + ${k} < ny`,
  };
}

/**
 * Halo structure, phase one: T×T invocations, each with a column of K = cflRows cells, stage their cells (haloColumn), compute the wave speeds of every cell's right and
 * lower edge (the staged structure's sEdgeLambda), pass the halves for other invocations' cells through
 * workgroup memory, and max-reduce the owned cells' rates into the tile's partial.
 */
function sweCflHalo(options: SweKernelOptions): KernelSource {
  const T = options.tile;
  const K = options.cflRows;
  const N = T * T;
  const col = haloColumn(T, K, false);
  const { ks, row } = col;
  const edges = ks
    .map(
      (k) => `var er${k} = vec2<f32>(0.0);
  var ed${k} = vec2<f32>(0.0);
  if (${col.xEdge(k)}) { er${k} = sEdgeLambda(frame(c${k}[0], c${k}[1], true), frame(r${k}[0], r${k}[1], true)); }
  if (${col.yEdge(k)}) { ed${k} = sEdgeLambda(frame(c${k}[0], c${k}[1], false), frame(${col.below(k)}[0], ${col.below(k)}[1], false)); }
  lamR[(${row(k)}) * ${T}u + lid.x] = er${k}.y;`,
    )
    .join('\n  ');
  const rates = ks
    .map(
      (k) => `if (${col.owned(k)}) {
    rate = max(rate, (lamR[(${row(k)}) * ${T}u + lid.x - 1u] + er${k}.x) * P.invDx + (${k === 0 ? `lamD[li - ${T}u]` : `ed${k - 1}.y`} + ed${k}.x) * P.invDy);
  }`,
    )
    .join('\n  ');
  const wgsl = `${PARAMS}${bindings('cfl')}${EDGE}${STAGED}
var<workgroup> lamR: array<f32, ${N * K}>;
var<workgroup> lamD: array<f32, ${N}>;
${tileMaxDecl(N)}

@compute @workgroup_size(${T}, ${T})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  // Uniform early exit (sim is read-only here): once tEnd is reached there is nothing to compute.
  if (remaining() <= doneThreshold()) { return; }
  ${col.prologue}
  ${col.loads}
  let tideZ = tideAt(sim.tHi + sim.tLo);
  ${col.stage}
  // Right edges: needed by interior rows only; lower edges: by interior columns only.
  ${edges}
  lamD[li] = ed${K - 1}.y;
  workgroupBarrier();
  var rate = 0.0;
  ${rates}
  ${tileMaxToPartials(N)}
}
`;
  return {
    name: `swe-cfl-${T}${K > 1 ? `x${K}` : ''}`,
    key: stableKey({ kernel: 'swe-cfl', v: 5, tile: T, rows: K }),
    wgsl,
    entryPoint: 'main',
  };
}

/** Phase two: the global Δt and the time, in one workgroup. */
export function sweReduceKernel(options: SweKernelOptions = SWE_DEFAULT_KERNEL_OPTIONS): KernelSource {
  checkOptions(options);
  const R = options.reduceSize;
  const U = 16;
  const wgsl = `${PARAMS}
@group(0) @binding(0) var<storage, read> partials: array<f32>;
@group(0) @binding(1) var<storage, read_write> sim: Sim;
@group(0) @binding(2) var<uniform> P: Params;
var<workgroup> red: array<f32, ${R}>;

@compute @workgroup_size(${R})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  // ${U} independent loads in flight per invocation and iteration: a loop of one load waits a full memory
  // latency per partial, and this single workgroup is the whole GPU's work between the cfl and update
  // dispatches (4096²: 74,529 partials).
  ${Array.from({ length: U }, (_, u) => `var m${u} = 0.0;`).join(' ')}
  // Unguarded loads (an index past the end rereads the last partial: max is idempotent), so nothing stops
  // the compiler from issuing them together.
  let last = P.numPartials - 1u;
  for (var i = lid.x; i < P.numPartials; i += ${R * U}u) {
    ${Array.from({ length: U }, (_, u) => `m${u} = max(m${u}, partials[min(i + ${u * R}u, last)]);`).join('\n    ')}
  }
  red[lid.x] = max(${Array.from({ length: U }, (_, u) => `m${u}`).reduce((a, b) => `max(${a}, ${b})`)}, 0.0);
  workgroupBarrier();
  for (var s = ${R / 2}u; s > 0u; s = s >> 1u) {
    if (lid.x < s) { red[lid.x] = max(red[lid.x], red[lid.x + s]); }
    workgroupBarrier();
  }
  if (lid.x == 0u) {
    let rem = (P.tEndHi - sim.tHi) + (P.tEndLo - sim.tLo);
    var dt = 0.0;
    if (rem > 1e-7 * abs(P.tEndHi)) {
      dt = min(rem, P.dtMax);
      if (red[0] > 0.0) { dt = min(dt, 2.0 * P.gamma / red[0]); }
    }
    sim.dt = dt;
    if (dt > 0.0) {
      // t += dt as a float-float pair (Knuth's two-sum), so the f32 time tracks the float64 one.
      let st = twoSum(sim.tHi, dt);
      let lo = sim.tLo + st.y;
      let hi2 = st.x + lo;
      sim.tLo = lo - ((hi2 + P.zero) - st.x);
      sim.tHi = hi2;
      sim.steps = sim.steps + 1u;
    }
  }
}
`;
  return {
    name: `swe-reduce-${R}`,
    key: stableKey({ kernel: 'swe-reduce', v: 9, reduceSize: R }),
    wgsl,
    entryPoint: 'main',
  };
}

/**
 * Workgroup bytes of the halo kernels, the larger of the two: the update's x-edges' high halves of
 * T·T·rows cells and y-edges' of T·T (vec4), the cfl kernel's wave speeds of T·T·cflRows and T·T cells
 * and its tile maximum (f32).
 */
export function sweHaloWorkgroupBytes(tile: number, rows: number, cflRows: number): number {
  const N = tile * tile;
  return Math.max(16 * N * (rows + 1), 4 * (N * (cflRows + 2) + tileLanes(N)));
}

/**
 * Halo structure, phase three: fluxes with ghost-cell decoupling, update, wet–dry handling, friction.
 * T×T invocations, each owning a column of K = rows cells: tiles of T × T·K cells whose first row and
 * column are halo cells owned by the neighbouring tiles. Each invocation stages its cells once
 * (stageFrom, all loads issued first), computes every cell's right and lower edge (staged structure's
 * reciprocal form, sEdgeFlux), keeps the halves that stay within its column in registers and passes the
 * others through workgroup memory: x-edges' high halves to the invocation on the right, its last cell's
 * y-edge high half to the invocation below.
 */
function sweUpdateHalo(options: SweKernelOptions): KernelSource {
  const T = options.tile;
  const K = options.rows;
  const pair = options.depthPair;
  const col = haloColumn(T, K, pair);
  const { ks, row } = col;
  const zero = 'array<vec4<f32>, 2>(vec4<f32>(0.0), vec4<f32>(0.0))';
  const xEdges = ks
    .map(
      (k) => `var ex${k} = ${zero};
  if (${col.xEdge(k)}) { ex${k} = sEdgeFlux(frame(c${k}[0], c${k}[1], true), frame(r${k}[0], r${k}[1], true), capX); }
  flR[(${row(k)}) * ${T}u + lid.x] = ex${k}[1];`,
    )
    .join('\n  ');
  const yEdges = ks
    .map(
      (k) => `var ey${k} = ${zero};
  if (${col.yEdge(k)}) { ey${k} = sEdgeFlux(frame(c${k}[0], c${k}[1], false), frame(${col.below(k)}[0], ${col.below(k)}[1], false), capY); }`,
    )
    .join('\n  ');
  const updates = ks
    .map(
      (k) => `if (${col.owned(k)}) {
    let ax = (ex${k}[0] + flR[(${row(k)}) * ${T}u + lid.x - 1u]) * P.invDx;   // (mass, n = x, t = y, pollutant)
    let ay = (ey${k}[0] + ${k === 0 ? `flD[li - ${T}u]` : `ey${k - 1}[1]`}) * P.invDy; // (mass, n = y, t = x, pollutant)
    let i = i${k};
    let w = c${k}[0];${
      pair
        ? `
    let hLoIn = lo${k};`
        : ''
    }
    ${updateTail(pair)}
  }`,
    )
    .join('\n  ');
  const copies = ks
    .map((k) => `if (${col.owned(k)}) { let i = u32(gy0 + ${k}) * P.nx + u32(gx); ${copyCell(pair)} }`)
    .join('\n    ');
  const body = `// Start time of this step, for the tide.
  let tideZ = tideAt((sim.tHi - dt) + sim.tLo);
  let capX = P.dx / (4.0 * dt);
  let capY = P.dy / (4.0 * dt);
  ${col.stage}
  ${xEdges}
  ${yEdges}
  flD[li] = ey${K - 1}[1];
  workgroupBarrier();
  ${updates}`;
  const wgsl = `${PARAMS}${bindings('update', pair)}${EDGE}${STAGED}
var<workgroup> flR: array<vec4<f32>, ${T * T * K}>;
var<workgroup> flD: array<vec4<f32>, ${T * T}>;

@compute @workgroup_size(${T}, ${T})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  ${col.prologue}
  let dt = sim.dt;
  // Uniform branch: after tEnd the step is a copy, so the ping-pong pair stays consistent.
  if (dt == 0.0) {
    ${copies}
    return;
  }
  ${col.loads}
  ${body}
}
`;
  return {
    name: `swe-update-${T}${K > 1 ? `x${K}` : ''}${pair ? '-pair' : ''}`,
    key: stableKey({ kernel: 'swe-update', v: 7, tile: T, rows: K, pair }),
    wgsl,
    entryPoint: 'main',
  };
}

/**
 * Staged structure (and the base of the fused one): tiles of W×H invocations, one per updated cell, with no idle halo
 * invocations. The tile first stages its (W+2)×(H+2) cells (its own and a one-cell ring; corners
 * unused) in workgroup memory together with the per-cell values every edge needs, computed once per
 * cell instead of once per edge side: the velocities and concentration u_x, u_y, C (one desingularised
 * reciprocal per cell instead of three divisions). Beyond the domain the ring holds the boundary's ghost
 * (open: the cell's copy, tide: the tide's surface with clean water) or a wall marker (h < 0: depths
 * are never negative, the update clips them to zero). Each invocation then computes its cell's left and
 * top edges; the tile's last column and row also need their right and bottom edges, which the first
 * W + H invocations compute as a third edge (one warp's worth, instead of a third edge for the lanes of
 * every warp that hold a last column). The low-side halves go back through workgroup memory, reusing
 * the staging arrays.
 */
const STAGED = /* wgsl */ `
// Staged cell, global frame: s0 = (h, q_x, q_y, hC), s1 = (H, u_x, u_y, C).

fn derived(w: vec4<f32>, H: f32) -> vec4<f32> {
  let r = desingFactor(w.x);
  return vec4<f32>(H, w.y * r, w.z * r, w.w * r);
}

// A staged cell seen from an x-edge (n = x) or a y-edge (n = y).
struct SCell { h: f32, qn: f32, qt: f32, hc: f32, H: f32, un: f32, ut: f32, C: f32 }

fn frame(w: vec4<f32>, d: vec4<f32>, xdir: bool) -> SCell {
  if (xdir) { return SCell(w.x, w.y, w.z, w.w, d.x, d.y, d.z, d.w); }
  return SCell(w.x, w.z, w.y, w.w, d.x, d.z, d.y, d.w);
}

fn sWallLow(c: SCell) -> vec4<f32> {
  return vec4<f32>(0.0, c.qn * (sqrt(P.g * c.h) + wallK() * c.un), -c.qn * c.ut, 0.0);
}

fn sWallHigh(c: SCell) -> vec4<f32> {
  return vec4<f32>(0.0, c.qn * (sqrt(P.g * c.h) - wallK() * c.un), c.qn * c.ut, 0.0);
}

fn sEmerging(a: SCell, b: SCell) -> bool {
  return (b.h < P.hEps && a.h - a.H < -b.H) || (a.h < P.hEps && b.h - b.H < -a.H);
}

// edgeLambda on staged cells; a wall marker on either side gives the wall's speed to the real cell.
fn sEdgeLambda(a: SCell, b: SCell) -> vec2<f32> {
  if (b.h < 0.0) { return vec2<f32>(sqrt(P.g * a.h), 0.0); }
  if (a.h < 0.0) { return vec2<f32>(0.0, sqrt(P.g * b.h)); }
  if (sEmerging(a, b)) { return vec2<f32>(sqrt(P.g * a.h), sqrt(P.g * b.h)); }
  let ht = 0.5 * (a.h + b.h);
  if (ht < P.hDry) { return vec2<f32>(0.0); }
  let sqi = sqrt(a.h);
  let sqj = sqrt(b.h);
  let un = (sqi * a.un + sqj * b.un) / (sqi + sqj);
  let l = abs(un) + sqrt(P.g * ht);
  return vec2<f32>(l, l);
}

// The Roe edge flux of the CPU reference's sweEdge on staged cells (the cells' u_n, u_t, C come
// precomputed and the α states share one reciprocal each); cap = |V|/(4·dt·|E|), the most one edge may
// drain from a cell per unit depth. Returns (low-side, high-side) contributions (mass, n, t, pollutant),
// which enter as W −= dt/|E|·contribution. A wall marker (h < 0) on either side gives the real cell
// its wall flux.
fn sEdgeFlux(a: SCell, b: SCell, cap: f32) -> array<vec4<f32>, 2> {
  var e = array<vec4<f32>, 2>(vec4<f32>(0.0), vec4<f32>(0.0));
  if (b.h < 0.0) { e[0] = sWallLow(a); return e; }
  if (a.h < 0.0) { e[1] = sWallHigh(b); return e; }
  if (sEmerging(a, b)) {
    e[0] = sWallLow(a);
    e[1] = sWallHigh(b);
    return e;
  }
  let hi = a.h; let hj = b.h;
  let ht = 0.5 * (hi + hj);
  if (ht < P.hDry) { return e; }
  let g = P.g; let alpha = P.alpha;
  let uin = a.un; let uit = a.ut; let Ci = a.C;
  let ujn = b.un; let ujt = b.ut; let Cj = b.C;
  let sqi = sqrt(hi); let sqj = sqrt(hj);
  let rs = 1.0 / (sqi + sqj);
  let un = (sqi * uin + sqj * ujn) * rs;
  let ut = (sqi * uit + sqj * ujt) * rs;
  let C = (sqi * Ci + sqj * Cj) * rs;
  // c and 1/(2c) from one reciprocal square root instead of a square root and a division.
  let rc = inverseSqrt(g * ht);
  let c = g * ht * rc;
  let dzeta = (hj - hi) - (b.H - a.H);
  let v0 = b.qn - a.qn;
  let v1 = b.qn * ujn - a.qn * uin + g * ht * dzeta;
  let v2 = b.qn * ujt - a.qn * uit;
  let v3 = b.qn * Cj - a.qn * Ci;
  let inv2c = 0.5 * rc;
  let a1 = ((un + c) * v0 - v1) * inv2c;
  let a2 = (v1 - (un - c) * v0) * inv2c;
  let a3 = v2 - ut * v0;
  let a4 = v3 - C * v0;
  let l1 = un - c; let l2 = un + c;
  let w3 = weight(un);
  let b1 = weight(l1) * a1; let b2 = weight(l2) * a2;
  let pm0 = b1 + b2;
  let pm1 = b1 * l1 + b2 * l2;
  let pm2 = pm0 * ut + w3 * a3;
  let pm3 = pm0 * C + w3 * a4;
  let am = 1.0 - alpha;
  let ha = am * hi + alpha * hj; let qna = am * a.qn + alpha * b.qn; let qta = am * a.qt + alpha * b.qt; let ca = am * a.hc + alpha * b.hc;
  let hb = alpha * hi + am * hj; let qnb = alpha * a.qn + am * b.qn; let qtb = alpha * a.qt + am * b.qt; let cb = alpha * a.hc + am * b.hc;
  let ra = desingFactor(ha); let rb = desingFactor(hb);
  let uan = qna * ra; let uat = qta * ra; let Ca = ca * ra;
  let ubn = qnb * rb; let ubt = qtb * rb; let Cb = cb * rb;
  let corr0 = 0.5 * (qna + qnb) - 0.5 * (a.qn + b.qn);
  let corr1 = 0.5 * (qna * uan + qnb * ubn) - 0.5 * (a.qn * uin + b.qn * ujn) + 0.5 * g * alpha * am * dzeta * (hi - hj);
  let corr2 = 0.5 * (qna * uat + qnb * ubt) - 0.5 * (a.qn * uit + b.qn * ujt);
  let corr3 = 0.5 * (qna * Ca + qnb * Cb) - 0.5 * (a.qn * Ci + b.qn * Cj);
  var f0 = a.qn + pm0 + corr0;
  var f3 = a.qn * Ci + pm3 + corr3;
  if (hi < P.hEps && hj < P.hEps) {
    if (un < 0.0) { f3 = f0 * Cj; } else { f3 = f0 * Ci; }
  }
  let outI = hi * cap; let outJ = hj * cap;
  var theta = 1.0;
  if (f0 > outI) { theta = outI / f0; } else if (-f0 > outJ) { theta = outJ / -f0; }
  f0 = f0 * theta;
  f3 = f3 * theta;
  let d1 = pm1 + corr1;
  let d2 = pm2 + corr2;
  e[0] = vec4<f32>(f0, d1, d2, f3);
  e[1] = vec4<f32>(-f0, v1 - d1, v2 - d2, -f3);
  return e;
}

// The state a staging slot holds for global cell (gx, gy): the cell itself inside the domain, the
// boundary's ghost one cell beyond an edge of it (wall: h = -1 marker), zeros elsewhere (unused).
// Returns s0 and s1 packed as a mat2x4.
fn stageCell(gx: i32, gy: i32, tideZ: f32) -> mat2x4<f32> {
  let i = slotIndex(gx, gy);
  return stageFrom(Win[i], Hb[i], gx, gy, tideZ);
}

// The cell a staging slot reads: its own inside the domain, the nearest boundary cell for a ghost
// (which copies it), and some valid cell elsewhere; never out of range, so the loads need no guard and
// a kernel can issue all of them before any of the boundary logic.
fn slotIndex(gx: i32, gy: i32) -> u32 {
  return u32(clamp(gy, 0, i32(P.ny) - 1)) * P.nx + u32(clamp(gx, 0, i32(P.nx) - 1));
}

// stageCell's value from the state w and bottom depth H loaded at slotIndex(gx, gy).
fn stageFrom(w0: vec4<f32>, H: f32, gx: i32, gy: i32, tideZ: f32) -> mat2x4<f32> {
  let nx = i32(P.nx); let ny = i32(P.ny);
  let inX = gx >= 0 && gx < nx;
  let inY = gy >= 0 && gy < ny;
  if (inX && inY) { return mat2x4<f32>(w0, derived(w0, H)); }
  var side = 4u;
  if (inY && gx == -1) { side = 0u; }
  if (inY && gx == nx) { side = 1u; }
  if (inX && gy == -1) { side = 2u; }
  if (inX && gy == ny) { side = 3u; }
  if (side == 4u) { return mat2x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0)); }
  let kind = P.bc[side];
  if (kind == 0u) { return mat2x4<f32>(vec4<f32>(-1.0, 0.0, 0.0, 0.0), vec4<f32>(0.0)); }
  var w = w0;
  if (kind == 2u) { w = vec4<f32>(max(0.0, tideZ + H), w.y, w.z, 0.0); }
  return mat2x4<f32>(w, derived(w, H));
}
`;

function checkStaged(o: SweKernelOptions): void {
  for (const [name, v] of [
    ['tileX', o.tileX],
    ['tileY', o.tileY],
  ] as const) {
    // ≥ 2 both ways so that the W·H invocations cover the W + H extra edges of the last column and row.
    if (!Number.isInteger(v) || v < 2 || v > 256) throw new ArgumentError(name, v, 'an integer in 2..256');
  }
  if (o.tileX * o.tileY > 1024) throw new ArgumentError('tileX·tileY', o.tileX * o.tileY, 'at most 1024 invocations');
}

/** Workgroup bytes of the staged or fused update kernel for a W×H block (its two staging arrays, reused for everything after). */
export function sweStagedWorkgroupBytes(tileX: number, tileY: number): number {
  return 2 * 16 * (tileX + 2) * (tileY + 2);
}

/**
 * Staging prologue shared by both staged kernels: fills s0/s1 with the tile's cells and ring, then
 * a barrier. Slot (sx, sy) holds global cell (x0 + sx − 1, y0 + sy − 1); the ring's corners are skipped.
 */
function stageLoop(W: number, H: number, lambdaOnly: boolean): string {
  const SW = W + 2,
    SH = H + 2;
  const store = lambdaOnly
    ? 'st[k] = vec4<f32>(m[0].x, m[1].x, m[1].y, m[1].z);'
    : 's0[k] = m[0];\n      s1[k] = m[1];';
  return `
  for (var k = li; k < ${SW * SH}u; k += ${W * H}u) {
    let sx = k % ${SW}u; let sy = k / ${SW}u;
    let corner = (sx == 0u || sx == ${SW - 1}u) && (sy == 0u || sy == ${SH - 1}u);
    if (!corner) {
      let m = stageCell(x0 + i32(sx) - 1, y0 + i32(sy) - 1, tideZ);
      ${store}
    }
  }
  workgroupBarrier();`;
}

/** Staged phase one: per-cell CFL rates, max-reduced per tile. */
function sweCflStaged(o: SweKernelOptions): KernelSource {
  const W = o.tileX,
    H = o.tileY,
    N = W * H,
    SW = W + 2;
  const wgsl = `${PARAMS}${bindings('cfl')}${EDGE}${STAGED}
// Staged for the wave speeds only: (h, H, u_x, u_y).
var<workgroup> st: array<vec4<f32>, ${SW * (H + 2)}>;
var<workgroup> lamX: array<f32, ${N + H}>; // low-side speeds of left edges, then the last column's right edges
var<workgroup> lamY: array<f32, ${N + W}>; // low-side speeds of top edges, then the last row's bottom edges
${tileMaxDecl(N)}

fn stagedX(k: u32) -> SCell { let v = st[k]; return SCell(v.x, 0.0, 0.0, 0.0, v.y, v.z, 0.0, 0.0); }
fn stagedY(k: u32) -> SCell { let v = st[k]; return SCell(v.x, 0.0, 0.0, 0.0, v.y, v.w, 0.0, 0.0); }

@compute @workgroup_size(${W}, ${H})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  if (remaining() <= doneThreshold()) { return; }
  let li = lid.y * ${W}u + lid.x;
  let x0 = i32(wid.x * ${W}u); let y0 = i32(wid.y * ${H}u);
  let gx = x0 + i32(lid.x); let gy = y0 + i32(lid.y);
  let nx = i32(P.nx); let ny = i32(P.ny);
  let tideZ = tideAt(sim.tHi + sim.tLo);
  ${stageLoop(W, H, true)}
  let me = (lid.y + 1u) * ${SW}u + lid.x + 1u;
  // Left edge (cells gx−1 | gx) and top edge (gy−1 | gy); a side needs one real cell to exist.
  var el = vec2<f32>(0.0);
  var et = vec2<f32>(0.0);
  if (gy < ny && gx <= nx) { el = sEdgeLambda(stagedX(me - 1u), stagedX(me)); }
  if (gx < nx && gy <= ny) { et = sEdgeLambda(stagedY(me - ${SW}u), stagedY(me)); }
  lamX[li] = el.x;
  lamY[li] = et.x;
  // The last column's right edges and the last row's bottom edges, by the first W + H invocations.
  if (li < ${H}u) {
    let r = (li + 1u) * ${SW}u + ${W}u;
    var l = 0.0;
    if (y0 + i32(li) < ny && x0 + ${W - 1} < nx) { l = sEdgeLambda(stagedX(r), stagedX(r + 1u)).x; }
    lamX[${N}u + li] = l;
  } else if (li < ${H + W}u) {
    let cx = li - ${H}u;
    let r = ${H}u * ${SW}u + cx + 1u;
    var l = 0.0;
    if (x0 + i32(cx) < nx && y0 + ${H - 1} < ny) { l = sEdgeLambda(stagedY(r), stagedY(r + ${SW}u)).x; }
    lamY[${N}u + cx] = l;
  }
  workgroupBarrier();
  var rate = 0.0;
  if (gx < nx && gy < ny) {
    let right = select(lamX[li + 1u], lamX[${N}u + lid.y], lid.x == ${W - 1}u);
    let below = select(lamY[li + ${W}u], lamY[${N}u + lid.x], lid.y == ${H - 1}u);
    rate = (el.y + right) * P.invDx + (et.y + below) * P.invDy;
  }
  ${tileMaxToPartials(N)}
}
`;
  return {
    name: `swe-cfl-staged-${W}x${H}`,
    key: stableKey({ kernel: 'swe-cfl-staged', v: 2, W, H }),
    wgsl,
    entryPoint: 'main',
  };
}

/**
 * Staged phase three: fluxes, update, wet–dry handling, friction. With the fused structure the
 * workgroup's W×H block of cells is the (W−2)×(H−2) cells it owns plus a one-cell ring: the ring's new
 * states are computed too (the same edges and arithmetic as in the tiles that own them, so the same
 * values), which gives every owned cell the new state of all four neighbours. From those the kernel
 * computes the next step's wave speeds and CFL rates exactly as the staged cfl kernel would (same
 * functions, ghosts at the next step's tide) and max-reduces them into the tile's partial: the next
 * step needs no cfl pass, so a step reads the state once instead of twice.
 */
function sweUpdateStaged(o: SweKernelOptions): KernelSource {
  const fused = o.structure === 'fused';
  const W = o.tileX,
    H = o.tileY,
    N = W * H,
    SW = W + 2,
    S = SW * (H + 2);
  const p2 = 1 << Math.ceil(Math.log2(N));
  const pair = o.depthPair;
  // Global position of block cell (0, 0): staged blocks are the owned tiles; fused blocks start one
  // cell before their owned (W−2)×(H−2) tile.
  const origin = fused
    ? `i32(wid.x * ${W - 2}u) - 1; let y0 = i32(wid.y * ${H - 2}u) - 1`
    : `i32(wid.x * ${W}u); let y0 = i32(wid.y * ${H}u)`;
  const owned = fused ? `mine && lid.x >= 1u && lid.x <= ${W - 2}u && lid.y >= 1u && lid.y <= ${H - 2}u` : 'mine';
  const loadLo = pair ? 'let hLoIn = HloIn[i];' : '';
  const tail = fused
    ? `var nw = vec4<f32>(0.0);
  if (mine) {
    ${gather(W, H)}
    ${loadLo}
    ${updateCompute(pair)}
    nw = vec4<f32>(h, qx, qy, hc);
    if (owned) { ${storeCell(pair)} }
  }
  ${fusedRates(W, H, p2)}`
    : `if (!mine) { return; }
  ${gather(W, H)}
  ${loadLo}
  ${updateTail(pair)}`;
  const wgsl = `${PARAMS}${bindings('update', pair)}${fused ? '@group(0) @binding(7) var<storage, read_write> partials: array<f32>;\n' : ''}${EDGE}${STAGED}
// Staging (s0, s1 as in stageCell); after the edges they hold the low-side halves: s0 of left edges
// [0, N) and the last column's right edges [N, N + H), s1 of top edges and the last row's bottom edges.${
    fused
      ? `
// Then the new states: s0 = (h, q_x, q_y, H), s1 = (u_x, u_y); then the wave speeds (left edge λ pair, top edge λ pair) in s1.`
      : ''
  }
var<workgroup> s0: array<vec4<f32>, ${S}>;
var<workgroup> s1: array<vec4<f32>, ${S}>;
${
  fused
    ? `// A block cell's new state in an edge's frame (for the wave speeds only).
fn newCell(k: u32, xdir: bool) -> SCell {
  let v = s0[k]; let u = s1[k];
  if (xdir) { return SCell(v.x, v.y, v.z, 0.0, v.w, u.x, u.y, 0.0); }
  return SCell(v.x, v.z, v.y, 0.0, v.w, u.y, u.x, 0.0);
}

// The ghost beyond boundary side of block cell k, from its new state (as stageCell builds it).
fn newGhost(k: u32, side: u32, xdir: bool, tideZ: f32) -> SCell {
  let kind = P.bc[side];
  if (kind == 0u) { return SCell(-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0); }
  var c = newCell(k, xdir);
  if (kind == 2u) {
    c.h = max(0.0, tideZ + c.H);
    let r = desingFactor(c.h);
    c.un = c.qn * r;
    c.ut = c.qt * r;
  }
  return c;
}
`
    : ''
}
fn stagedCell(k: u32, xdir: bool) -> SCell { return frame(s0[k], s1[k], xdir); }

@compute @workgroup_size(${W}, ${H})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let li = lid.y * ${W}u + lid.x;
  let x0 = ${origin};
  let gx = x0 + i32(lid.x); let gy = y0 + i32(lid.y);
  let nx = i32(P.nx); let ny = i32(P.ny);
  let mine = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
  let owned = ${owned};
  let dt = sim.dt;
  if (dt == 0.0) {
    if (owned) { let i = u32(gy) * P.nx + u32(gx); ${copyCell(pair)} }
    return;
  }
  let tideZ = tideAt((sim.tHi - dt) + sim.tLo);
  let capX = P.dx / (4.0 * dt);
  let capY = P.dy / (4.0 * dt);
  ${stageLoop(W, H, false)}
  let me = (lid.y + 1u) * ${SW}u + lid.x + 1u;
  let w = s0[me];
  let Hme = s1[me].x;
  var el = array<vec4<f32>, 2>(vec4<f32>(0.0), vec4<f32>(0.0));
  var et = array<vec4<f32>, 2>(vec4<f32>(0.0), vec4<f32>(0.0));
  var ex = vec4<f32>(0.0);
  // Edges with a cell of the domain on at least one side.
  if (gy >= 0 && gy < ny && gx >= 0 && gx <= nx) { el = sEdgeFlux(stagedCell(me - 1u, true), stagedCell(me, true), capX); }
  if (gx >= 0 && gx < nx && gy >= 0 && gy <= ny) { et = sEdgeFlux(stagedCell(me - ${SW}u, false), stagedCell(me, false), capY); }
  if (li < ${H}u) {
    let r = (li + 1u) * ${SW}u + ${W}u;
    let ey = y0 + i32(li);
    if (ey >= 0 && ey < ny && x0 + ${W - 1} < nx) { ex = sEdgeFlux(stagedCell(r, true), stagedCell(r + 1u, true), capX)[0]; }
  } else if (li < ${H + W}u) {
    let r = ${H}u * ${SW}u + li - ${H}u + 1u;
    let ex0 = x0 + i32(li - ${H}u);
    if (ex0 >= 0 && ex0 < nx && y0 + ${H - 1} < ny) { ex = sEdgeFlux(stagedCell(r, false), stagedCell(r + ${SW}u, false), capY)[0]; }
  }
  workgroupBarrier(); // staging no longer read: reuse it for the low-side halves
  s0[li] = el[0];
  s1[li] = et[0];
  if (li < ${H}u) { s0[${N}u + li] = ex; } else if (li < ${H + W}u) { s1[${N}u + li - ${H}u] = ex; }
  workgroupBarrier();
  let i = u32(gy) * P.nx + u32(gx);
  ${tail}
}
`;
  const kind = fused ? 'fused' : 'staged';
  return {
    name: `swe-update-${kind}-${W}x${H}${pair ? '-pair' : ''}`,
    key: stableKey({ kernel: `swe-update-${kind}`, v: 2, W, H, pair }),
    wgsl,
    entryPoint: 'main',
  };
}

/** The gather of the update kernels: a_x and a_y of cell li from its four edges' halves. */
function gather(W: number, H: number): string {
  const N = W * H;
  return `let right = s0[select(li + 1u, ${N}u + lid.y, lid.x == ${W - 1}u)];
  let below = s1[select(li + ${W}u, ${N}u + lid.x, lid.y == ${H - 1}u)];
  let ax = (right + el[1]) * P.invDx; // (mass, n = x, t = y, pollutant)
  let ay = (below + et[1]) * P.invDy; // (mass, n = y, t = x, pollutant)`;
}

/** Fused tail: the next step's CFL rates of the owned cells from the block's new states, max-reduced. */
function fusedRates(W: number, H: number, p2: number): string {
  const N = W * H;
  return `workgroupBarrier(); // the low-side halves are read
  s0[li] = vec4<f32>(nw.x, nw.y, nw.z, Hme);
  let rn = desingFactor(nw.x);
  s1[li] = vec4<f32>(nw.y * rn, nw.z * rn, 0.0, 0.0);
  workgroupBarrier();
  let tideN = tideAt(sim.tHi + sim.tLo); // the next step starts at the time the reduce kernel advanced to
  var lx = vec2<f32>(0.0);
  var ly = vec2<f32>(0.0);
  // Left edges of block columns 1..W−1 and top edges of rows 1..H−1: every edge of an owned cell once.
  if (lid.x >= 1u && lid.y >= 1u && lid.y <= ${H - 2}u && gy < ny && gx <= nx) {
    var a: SCell; var b: SCell;
    if (gx >= 1) { a = newCell(li - 1u, true); } else { a = newGhost(li, 0u, true, tideN); }
    if (gx < nx) { b = newCell(li, true); } else { b = newGhost(li - 1u, 1u, true, tideN); }
    lx = sEdgeLambda(a, b);
  }
  if (lid.y >= 1u && lid.x >= 1u && lid.x <= ${W - 2}u && gx < nx && gy <= ny) {
    var a: SCell; var b: SCell;
    if (gy >= 1) { a = newCell(li - ${W}u, false); } else { a = newGhost(li, 2u, false, tideN); }
    if (gy < ny) { b = newCell(li, false); } else { b = newGhost(li - ${W}u, 3u, false, tideN); }
    ly = sEdgeLambda(a, b);
  }
  workgroupBarrier(); // new states read
  s1[li] = vec4<f32>(lx, ly);
  workgroupBarrier();
  var rate = 0.0;
  if (owned) {
    rate = (s1[li].y + s1[li + 1u].x) * P.invDx + (s1[li].w + s1[li + ${W}u].z) * P.invDy;
  }
  s0[li].x = rate; // the new states are read: s0 holds the reduction (N entries, no padding)
  workgroupBarrier();
  for (var s = ${p2 / 2}u; s > 0u; s = s >> 1u) {
    if (li < s && li + s < ${N}u) { s0[li].x = max(s0[li].x, s0[li + s].x); }
    workgroupBarrier();
  }
  if (li == 0u) { partials[wid.y * P.tilesX + wid.x] = s0[0].x; }`;
}
