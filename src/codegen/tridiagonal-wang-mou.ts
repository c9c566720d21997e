/**
 * WGSL generation for the Wang & Mou tridiagonal levels of planner/tridiagonal.ts. The CPU file
 * backends/cpu/wang-mou.ts executes the same structure in float64 and is the specification of what
 * these kernels compute (same merges in the same order; with the default normalised rows of the 'thomas'
 * interior the kernels divide each merged row by its diagonal, the same values up to rounding).
 *
 * One kernel family, three modes, per level:
 *  - 'solve':  load → reduce all levels → x = d / b → store.
 *  - 'reduce': load chunk → reduce → store the normalised first and last rows of the chunk
 *              (x_i + a'·x_{sep left} + c'·x_{sep right} = d'), 6 scalars a chunk.
 *  - 'expand': load chunk → reduce again (recomputing is cheaper than storing the reduced chunk) →
 *              x = (d − a·xL − c·xR) / b with the separators' solution → store (and the separator).
 * plus 'form': one invocation per separator builds the coarse system's row from the separator's own
 * equation and the two neighbouring chunks' boundary rows.
 *
 * Memory pattern: every row is read from global memory once per kernel and written once, coalesced:
 * invocation `lid` loads rows lid, lid+T, lid+2T, … (for interleaved batches of small systems, the
 * fastest-varying index walks the systems instead, which is what is contiguous there) into one
 * workgroup array of rows; after a barrier each invocation takes its R *consecutive* rows into
 * registers (the index-digit permutation happens in this exchange, at no extra cost). The first log2 R
 * levels run in registers. Every later level needs, from other invocations, only the boundary rows of
 * the blocks being merged (the "centre equations"): each invocation publishes its first and last row
 * in the same workgroup array and reads the 2 (radix 2) or 6 (radix 4: two levels per barrier pair)
 * boundary rows it needs. The output goes back through the array for a coalesced store.
 */
import { stableKey, type KernelSource } from './kernel-source.js';
import { directExchangeRows, type TridiagonalLevel } from '../planner/tridiagonal.js';

export type WangMouMode = 'solve' | 'reduce' | 'expand';

/** Exactly what the generated code depends on (and so the pipeline cache key). */
export interface WangMouKernelSpec {
  mode: WangMouMode;
  complex: boolean;
  layout: 'strided' | 'interleaved';
  rowsPerWorkgroup: number;
  rowsPerThread: number;
  exchangeRadices: number[];
  segment: number;
  systemsPerWorkgroup: number;
  /** How an invocation treats its own rows (see TridiagonalLevel.interior). */
  interior: 'wang-mou' | 'thomas';
  /** Workgroup memory as four swizzled scalar arrays (true) or one array of Row structs. */
  swizzle: boolean;
  /** Alternate two exchange areas (one barrier an exchange step instead of two) when R ≥ 4. */
  pingPong: boolean;
  /** 'thomas' interior: block-boundary rows kept normalised (rowNormalizedWgsl). */
  normalized: boolean;
  /** Normalised radix-2 exchange steps without a branch between the left and right rows of a merge. */
  branchFree: boolean;
  /** Partition levels with one chunk a workgroup: loads and stores start at a 32-byte boundary. */
  alignChunks: boolean;
  /**
   * Partition levels with G > 1: the workgroup's chunks are the same chunk of G consecutive systems
   * (interleaved input: neighbouring invocations then read neighbouring systems, which are neighbouring
   * addresses) rather than G consecutive chunks of one system.
   */
  acrossSystems: boolean;
  /**
   * Strided real 'solve' levels over the user's arrays with n a multiple of 4 and R a multiple of 4: each
   * invocation loads its own R consecutive rows as vec4s straight from global memory and stores its R
   * solutions the same way (a warp then reads and writes whole 512-byte runs), with no staging through
   * workgroup memory. Workgroup memory then holds only the exchange area (2 or 4 rows an invocation), so
   * systems of up to 4·R·(invocations) rows fit one workgroup.
   */
  directRows: boolean;
  /**
   * Direct-rows 'solve' levels that are the whole solve, one invocation a system and one right-hand side
   * (planner/tridiagonal.ts statusByStore): the invocation gathers its system's bits in `flags` and
   * stores the status word, flagged or not, so the executor does not clear the status buffer first.
   */
  statusStore: boolean;
}

export function wangMouSpec(
  level: TridiagonalLevel,
  mode: WangMouMode,
  complex: boolean,
  statusStore = false,
): WangMouKernelSpec {
  return {
    mode,
    complex,
    layout: level.layout,
    rowsPerWorkgroup: level.rowsPerWorkgroup,
    rowsPerThread: level.rowsPerThread,
    exchangeRadices: level.exchangeRadices,
    segment: level.segment,
    systemsPerWorkgroup: level.systemsPerWorkgroup,
    interior: level.interior ?? 'wang-mou',
    swizzle: level.swizzle ?? true,
    pingPong: level.pingPong ?? true,
    normalized: (level.interior ?? 'wang-mou') === 'thomas' && (level.normalized ?? true),
    branchFree: level.branchFree ?? true,
    alignChunks: level.alignChunks ?? false,
    acrossSystems: level.acrossSystems ?? false,
    directRows: level.directRows ?? false,
    statusStore: mode === 'solve' && statusStore,
  };
}

/** Uniform block shared by all tridiagonal kernels (12 × u32 = PARAMS_BYTES). */
export const PARAMS_WGSL = `struct Params {
  n: u32,           // rows per system at this level
  batch: u32,       // matrices at this level (systems sharing a matrix: sys % batch)
  nsys: u32,        // right-hand-side systems = batch * nrhs
  statusBatch: u32, // status word of a system: statusOff + sys % statusBatch (the user's matrix index)
  chunks: u32,      // partition: chunks per system
  seps: u32,        // partition: separators per system
  gridX: u32,       // workgroups (or form blocks) along x of the 2-D grid
  total: u32,       // workgroups (or invocations, for form) that have work
  stride: u32,      // interleaved layout: distance between rows (the user's whole batch)
  matOff: u32,      // elements between the start of the bound window of A, B, C and its first element
  rhsOff: u32,      // the same for D and X
  statusOff: u32,   // the same for status (a u32 per matrix)
}`;

/** Bindings 0–5 of every tridiagonal kernel: the uniforms, the four input arrays and the status words. */
export const SYSTEM_BINDINGS_WGSL = `@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> A: array<T>;
@group(0) @binding(2) var<storage, read> B: array<T>;
@group(0) @binding(3) var<storage, read> C: array<T>;
@group(0) @binding(4) var<storage, read> D: array<T>;
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;`;

/** Bindings 0–5 with the matrix and right-hand-side arrays as vec4s (directRows kernels; real only). */
const SYSTEM_BINDINGS_VEC4_WGSL = `@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> B: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> C: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> D: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;`;

/** Bytes of the uniform block (PARAMS_WGSL). */
export const PARAMS_BYTES = 48;

export function scalarHelpers(complex: boolean): string {
  const T = complex ? 'vec2<f32>' : 'f32';
  const common = `
fn nonfinite1(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) == 0x7f800000u; }
fn tiny1(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) == 0u; }`;
  if (!complex) {
    return `alias T = f32;
const ZERO: T = 0.0;
const ONE: T = 1.0;
fn mul(x: T, y: T) -> T { return x * y; }
fn dv(x: T, y: T) -> T { return x / y; }
fn mag(x: T) -> f32 { return abs(x); }
fn nonfinite(v: T) -> bool { return nonfinite1(v); }
// A pivot is bad when zero/sub-normal (exponent field 0) or Inf/NaN (exponent field all ones). Bit
// tests, not comparisons, so that fast-math assumptions of the shader compiler cannot hide a NaN.
fn badpivot(p: T) -> bool { return tiny1(p) || nonfinite1(p); }${common}`;
  }
  return `alias T = ${T};
const ZERO: T = vec2<f32>(0.0, 0.0);
const ONE: T = vec2<f32>(1.0, 0.0);
fn mul(x: T, y: T) -> T { return vec2<f32>(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x); }
fn dv(x: T, y: T) -> T {
  // x / y = x · conj(y) / |y|²; scaled by the larger component of y against overflow of |y|².
  let s = max(abs(y.x), abs(y.y));
  let ys = y / s;
  let den = dot(ys, ys);
  let xs = x / s;
  return vec2<f32>(xs.x * ys.x + xs.y * ys.y, xs.y * ys.x - xs.x * ys.y) / den;
}
fn mag(x: T) -> f32 { return length(x); }
fn nonfinite(v: T) -> bool { return nonfinite1(v.x) || nonfinite1(v.y); }
fn badpivot(p: T) -> bool { return (tiny1(p.x) && tiny1(p.y)) || nonfinite(p); }${common}`;
}

/** Row algebra (see backends/cpu/wang-mou.ts for the derivation). */
export const ROW_WGSL = `
struct Row { a: T, b: T, c: T, d: T }

var<private> flags: u32 = 0u;

// L' = L − (a_L / b_R)·R: the first row of the right block, over the merged block.
fn mergeL(R: Row, L: Row) -> Row {
  if (badpivot(R.b)) { flags |= 1u; }
  let f = dv(L.a, R.b);
  let o = Row(-mul(f, R.a), L.b - mul(f, R.c), L.c, L.d - mul(f, R.d));
  if (badpivot(o.b)) { flags |= 1u; }
  return o;
}
// Rows of the left block (R included): eliminate x_{m+1} with L'.
fn updLeft(w: Row, Lp: Row) -> Row {
  let g = dv(w.c, Lp.b);
  return Row(w.a - mul(g, Lp.a), w.b, -mul(g, Lp.c), w.d - mul(g, Lp.d));
}
// Rows of the right block other than L: eliminate x_m with R, then x_{m+1} with L'.
fn updRight(w: Row, R: Row, Lp: Row) -> Row {
  let f = dv(w.a, R.b);
  let g = dv(-mul(f, R.c), Lp.b);
  return Row(-mul(f, R.a) - mul(g, Lp.a), w.b, w.c - mul(g, Lp.c), (w.d - mul(f, R.d)) - mul(g, Lp.d));
}
fn identityRow() -> Row { return Row(ZERO, ONE, ZERO, ZERO); }
`;

/**
 * Row algebra over normalised rows (b = 1), for the 'thomas' interior: a merge then costs one reciprocal
 * (normalising L') and the updates of other rows are multiply-adds only, where the general forms divide
 * once or twice a row. Same names and results as ROW_WGSL up to rounding.
 */
export function rowNormalizedWgsl(checkPivots: boolean): string {
  return `
struct Row { a: T, b: T, c: T, d: T }

var<private> flags: u32 = 0u;

fn normRow(w: Row) -> Row {
${checkPivots ? '  if (badpivot(w.b)) { flags |= 1u; }\n' : ''}  let s = dv(ONE, w.b);
  return Row(mul(w.a, s), ONE, mul(w.c, s), mul(w.d, s));
}
// R normalised: L' = L − a_L·R, normalised (L need not be).
fn mergeL(R: Row, L: Row) -> Row {
  let f = L.a;
  return normRow(Row(-mul(f, R.a), L.b - mul(f, R.c), L.c, L.d - mul(f, R.d)));
}
// Lp normalised: eliminate x_{m+1}.
fn updLeft(w: Row, Lp: Row) -> Row {
  let g = w.c;
  return Row(w.a - mul(g, Lp.a), w.b, -mul(g, Lp.c), w.d - mul(g, Lp.d));
}
// R and Lp normalised: eliminate x_m with R, then x_{m+1} with L'.
fn updRight(w: Row, R: Row, Lp: Row) -> Row {
  let f = w.a;
  let g = -mul(f, R.c);
  return Row(-mul(f, R.a) - mul(g, Lp.a), w.b, w.c - mul(g, Lp.c), (w.d - mul(f, R.d)) - mul(g, Lp.d));
}
fn identityRow() -> Row { return Row(ZERO, ONE, ZERO, ZERO); }
`;
}

/**
 * Addresses of matrix element (sys, i) and of right-hand-side / solution element (sys, i) within the
 * bound windows (the executor binds aligned windows of the user's arrays and passes the remainders), and
 * the status word of a system.
 */
export function addressWgsl(layout: 'strided' | 'interleaved', ownStatus = false): string {
  const mat = layout === 'strided' ? 'return prm.matOff + j * prm.n + i;' : 'return prm.matOff + i * prm.stride + j;';
  const rhs =
    layout === 'strided'
      ? 'return prm.rhsOff + sys * prm.n + i;'
      : 'var r = 0u;\n  var j = sys;\n  if (sys >= prm.batch) { r = sys / prm.batch; j = sys - r * prm.batch; }\n  return prm.rhsOff + (r * prm.n + i) * prm.stride + j;';
  return `fn matAddr(sys: u32, i: u32) -> u32 {
  // The matrix of a right-hand side: sys mod batch, the division skipped when there is one right-hand
  // side (an integer division by a runtime value costs tens of instructions, per row loaded).
  var j = sys;
  if (j >= prm.batch) { j = j % prm.batch; }
  ${mat}
}
fn rhsAddr(sys: u32, i: u32) -> u32 {
  ${rhs}
}
${
  ownStatus
    ? `// Status by store (statusByStore): every row this invocation checks is its own system's, so its
// bits gather in flags, and the kernel stores the word at the end, flagged or not (no clear beforehand).
fn flagStatus(sys: u32, bits: u32) {
  flags |= bits;
}`
    : `fn flagStatus(sys: u32, bits: u32) {
  atomicOr(&status[prm.statusOff + sys % prm.statusBatch], bits);
}`
}`;
}

/** What the emit sections of a level's kernel derive from its spec (computed once, by wangMouContext). */
interface WangMouContext {
  /** Rows a workgroup (P), rows an invocation (R), invocations a workgroup (Tn). */
  P: number;
  R: number;
  Tn: number;
  /** Rows of a ('solve') system, padded, or of a partition chunk. */
  seg: number;
  /** Systems ('solve') or chunks (partition levels) a workgroup. */
  G: number;
  /** 'reduce' and 'expand' levels: the workgroup's rows are chunks of partitioned systems. */
  partition: boolean;
  direct: boolean;
  store: boolean;
  /** Normalised rows of the 'thomas' interior (rowNormalizedWgsl). */
  nrm: boolean;
  thomas: boolean;
  /** Partition levels whose G chunks are the same chunk of G consecutive systems (spec.acrossSystems). */
  across: boolean;
  /** Aligned chunk loads (partition levels, one chunk a workgroup), alignElems elements = 32 bytes. */
  aligned: boolean;
  alignElems: number;
  /** Rounds of the staged load and store. */
  rounds: number;
  /**
   * The variables holding the first and last row of this invocation's block through the exchange steps,
   * and the rows an exchange step updates: every row (Wang & Mou), or only those two ('thomas').
   */
  first: string;
  last: string;
  upd: string[];
}

function wangMouContext(spec: WangMouKernelSpec): WangMouContext {
  const { mode, complex, layout } = spec;
  const P = spec.rowsPerWorkgroup;
  const R = spec.rowsPerThread;
  const Tn = P / R;
  const seg = spec.segment;
  const G = spec.systemsPerWorkgroup;
  const partition = mode !== 'solve';
  const direct = spec.directRows;
  const store = spec.statusStore;
  if (store && (mode !== 'solve' || !spec.directRows || seg > R)) {
    throw new Error(
      `wangMouKernel: statusStore needs a direct-rows 'solve' level with one invocation a system (got ${mode}, ${seg} rows a system, ${R} an invocation)`,
    );
  }
  if (direct && (partition || complex || layout !== 'strided' || R % 4 !== 0)) {
    throw new Error(
      `wangMouKernel: directRows needs a real strided 'solve' level with rows per invocation a multiple of 4 (got ${mode}, ${complex ? 'complex' : 'real'}, ${layout}, R = ${R})`,
    );
  }
  const aligned = partition && G === 1 && spec.alignChunks && layout === 'strided';
  const alignElems = complex ? 4 : 8;
  const thomas = spec.interior === 'thomas';
  return {
    P,
    R,
    Tn,
    seg,
    G,
    partition,
    direct,
    store,
    nrm: spec.normalized && thomas,
    thomas,
    across: partition && G > 1 && spec.acrossSystems,
    aligned,
    alignElems,
    // Aligned chunk loads need more (partial) rounds for the chunk's last off (< alignElems) rows.
    rounds: aligned ? R + Math.ceil((alignElems - 1) / Tn) : R,
    first: thomas ? 'bF' : 'r0',
    last: thomas ? 'bL' : `r${R - 1}`,
    upd: thomas ? ['bF', 'bL'] : Array.from({ length: R }, (_, j) => `r${j}`),
  };
}

/** A section's lines and the function that appends one (an entry may hold several lines). */
function emitter(): { L: string[]; e: (s: string) => void } {
  const L: string[] = [];
  return { L, e: (s) => void L.push(s) };
}

/** Generates one level's kernel: the sections below, in order. */
export function wangMouKernel(spec: WangMouKernelSpec): KernelSource {
  const { mode, complex, layout } = spec;
  const c = wangMouContext(spec);
  const L = [
    ...wmDeclarations(spec, c),
    ...wmWorkgroupMemory(spec, c),
    ...wmRowAccess(spec, c),
    ...wmSlots(spec, c),
    ...wmEntry(c),
    ...wmLoad(c),
    ...wmLocalReduction(c),
    ...wmExchangeSteps(spec, c),
    ...wmOwnRows(c),
    ...(mode === 'reduce' ? wmBoundaryStore(c) : [...wmSeparators(spec, c), ...wmSolutions(spec, c), ...wmStore(c)]),
    `}`, // closes main (opened by wmEntry)
  ];
  const wgsl = L.join('\n');
  return {
    name: `tridiagonal-wm-${mode}-${complex ? 'c' : 'r'}${c.P}x${c.R}-${layout}`,
    key: stableKey({ kind: 'tridiagonal-wm', spec }),
    wgsl,
    entryPoint: 'main',
  };
}

/** Header comments, scalar helpers, uniforms, row algebra and the storage bindings. */
function wmDeclarations(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { mode, complex, layout } = spec;
  const { L, e } = emitter();
  e(`// Wang & Mou tridiagonal, mode ${mode}, ${complex ? 'complex' : 'real'} f32, ${layout} layout.`);
  e(
    `// ${c.P} rows per workgroup, ${c.R} rows per invocation, ${c.Tn} invocations, exchange radices [${spec.exchangeRadices.join(', ')}].`,
  );
  e(scalarHelpers(complex));
  e(PARAMS_WGSL);
  // 'expand' repeats its level's 'reduce' merges on the same rows, whose pivots 'reduce' has checked.
  e(c.nrm ? rowNormalizedWgsl(mode !== 'expand') : ROW_WGSL);
  e(c.direct ? SYSTEM_BINDINGS_VEC4_WGSL : SYSTEM_BINDINGS_WGSL);
  if (c.direct) e(`@group(0) @binding(6) var<storage, read_write> X: array<vec4<f32>>;`);
  else if (mode === 'reduce') e(`@group(0) @binding(6) var<storage, read_write> BND: array<T>;`);
  else e(`@group(0) @binding(6) var<storage, read_write> X: array<T>;`);
  if (mode === 'expand') e(`@group(0) @binding(7) var<storage, read> XC: array<T>;`);
  return L;
}

/**
 * Workgroup memory: the staged load, then the exchanged boundary rows, then the staged store.
 * Swizzled (default): four scalar arrays, row v at v ^ ((v >> b) & (2^b − 1)) with 2^b = the banks one
 * access spans (32 four-byte words; 16 eight-byte complex values). An invocation's R consecutive rows
 * (lid·R + j for fixed j) then fall in distinct banks for every power-of-two R, and so do the coalesced
 * staged rows (consecutive v): a Row struct array at a stride of R rows put R·4 words between the lanes,
 * an up to 32-way bank conflict on every access.
 */
function wmWorkgroupMemory(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { P, Tn, nrm } = c;
  const { L, e } = emitter();
  const sb = spec.complex ? 4 : 5;
  if (c.direct) {
    // Only the exchange area: unswizzled (written at lid and T + lid, read by whole blocks), and b = 1 not
    // stored for normalised rows.
    const E = directExchangeRows(Tn, spec.exchangeRadices.length, spec.pingPong);
    if (E > 0) {
      e(`var<workgroup> shA: array<T, ${E}>;
${
  nrm
    ? ''
    : `var<workgroup> shB: array<T, ${E}>;
`
}var<workgroup> shC: array<T, ${E}>;
var<workgroup> shD: array<T, ${E}>;
fn shPutE(v: u32, r: Row) { shA[v] = r.a;${nrm ? '' : ' shB[v] = r.b;'} shC[v] = r.c; shD[v] = r.d; }
fn shGetE(v: u32) -> Row { return Row(shA[v], ${nrm ? 'ONE' : 'shB[v]'}, shC[v], shD[v]); }`);
    }
  } else if (spec.swizzle) {
    e(`var<workgroup> shA: array<T, ${P}>;
var<workgroup> shB: array<T, ${P}>;
var<workgroup> shC: array<T, ${P}>;
var<workgroup> shD: array<T, ${P}>;
fn sw(v: u32) -> u32 { return v ^ ((v >> ${sb}u) & ${(1 << sb) - 1}u); }
fn shPut(v: u32, r: Row) { let p = sw(v); shA[p] = r.a; shB[p] = r.b; shC[p] = r.c; shD[p] = r.d; }
fn shGet(v: u32) -> Row { let p = sw(v); return Row(shA[p], shB[p], shC[p], shD[p]); }
fn shPutX(v: u32, x: T) { shA[sw(v)] = x; }
fn shGetX(v: u32) -> T { return shA[sw(v)]; }
// Exchanged rows of the normalised algebra: b = 1 is neither stored nor loaded, and no swizzle: the
// exchange area is written at consecutive indices (lid, T + lid) and read by whole blocks at once.
fn shPutE(v: u32, r: Row) { shA[v] = r.a; shC[v] = r.c; shD[v] = r.d; }
fn shGetE(v: u32) -> Row { return Row(shA[v], ONE, shC[v], shD[v]); }`);
  } else {
    e(`var<workgroup> sh: array<Row, ${P}>;
fn shPut(v: u32, r: Row) { sh[v] = r; }
fn shGet(v: u32) -> Row { return sh[v]; }
fn shPutX(v: u32, x: T) { sh[v].a = x; }
fn shGetX(v: u32) -> T { return sh[v].a; }
fn shPutE(v: u32, r: Row) { sh[v] = r; }
fn shGetE(v: u32) -> Row { return sh[v]; }`);
  }
  return L;
}

/** Addresses and status words, the raw row loads, and checkRow (the matrix's ends, diagonal dominance). */
function wmRowAccess(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { mode, layout } = spec;
  const { direct, G } = c;
  return [
    `
// Addresses within the bound windows of the arrays, and status words (see addressWgsl).
${addressWgsl(layout, c.store)}${
      direct
        ? ''
        : `
fn rawRow(sys: u32, i: u32) -> Row {
  let m = matAddr(sys, i);
  return Row(A[m], B[m], C[m], D[rhsAddr(sys, i)]);
}`
    }${
      G === 1 && !direct
        ? `
// One system a workgroup: the addresses of its rows from two bases computed once (baseM, baseR).
var<private> baseM: u32;
var<private> baseR: u32;
fn rowStep(i: u32) -> u32 { return ${layout === 'strided' ? 'i' : 'i * prm.stride'}; }
fn rawRowB(i: u32) -> Row {
  let m = baseM + rowStep(i);
  return Row(A[m], B[m], C[m], D[baseR + rowStep(i)]);
}`
        : ''
    }
// a_0 and c_{N-1} are outside the matrix (x_{-1} = x_N = 0): ignored, whatever the arrays hold.${
      mode === 'expand'
        ? `
// 'expand' reloads rows its level's 'reduce' kernel has already checked for dominance: not again.`
        : ''
    }
fn checkRow(sys: u32, i: u32, r: Row) -> Row {
  var w = r;
  if (i == 0u) { w.a = ZERO; }
  if (i + 1u == prm.n) { w.c = ZERO; }${
    mode === 'expand'
      ? ''
      : `
  if (mag(w.b) < mag(w.a) + mag(w.c)) { flagStatus(sys, 4u); }`
  }
  return w;
}
`,
  ];
}

/**
 * Mapping of a flat load index (k*T + lid) to (virtual row v in the workgroup array, sys, i), for the
 * staged load and store; directRows kernels have neither.
 */
function wmSlots(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { layout } = spec;
  const { seg, G, partition, across, aligned } = c;
  if (c.direct) return [];
  const { L, e } = emitter();
  e(`struct Slot { v: u32, sys: u32, i: u32, valid: bool, keep: bool }`);
  // Partition levels: the system and index of each of the workgroup's G chunks are computed once in main
  // (chunkSys{g}, chunkK{g}), not with an integer division by a runtime value for every row loaded and stored.
  if (partition)
    for (let g = 0; g < (across ? 1 : G); g++) e(`var<private> chunkSys${g}: u32;\nvar<private> chunkK${g}: u32;`);
  if (aligned) e(`var<private> chunkA0: u32;\nvar<private> chunkOff: u32;`);
  e(`fn slot(wg: u32, flat: u32) -> Slot {`);
  if (across) {
    // Chunk chunkK0 of systems chunkSys0 … chunkSys0 + G − 1; neighbouring flats are neighbouring systems.
    e(`  let sl = flat % ${G}u;`);
    e(`  let r = flat / ${G}u;`);
    e(`  let sys = chunkSys0 + sl;`);
    e(`  let i = chunkK0 * ${seg + 1}u + r;`);
    e(`  return Slot(sl * ${seg}u + r, sys, i, sys < prm.nsys && i < prm.n, true);`);
  } else if (partition) {
    if (G === 1 && aligned) {
      // Loads start at the chunk's first row rounded down to 32 bytes (chunks are seg + 1 rows apart, so
      // a warp's rows would otherwise straddle one more sector): flat = off + v, the first off flats and
      // those beyond the chunk are not the chunk's rows.
      e(`  let sys = chunkSys0;`);
      e(`  let i = chunkA0 + flat;`);
      e(`  let v = flat - chunkOff;`);
      e(`  let keep = flat >= chunkOff && v < ${seg}u;`);
      e(`  return Slot(v, sys, i, keep && sys < prm.nsys && i < prm.n, keep);`);
      e(`}`);
    } else if (G === 1) {
      e(`  let sys = chunkSys0;`);
      e(`  let i = chunkK0 * ${seg + 1}u + flat;`);
    } else {
      // Chunk g = flat / seg of the workgroup, picked from the precomputed ones by a select chain.
      e(`  let g = flat / ${seg}u;`);
      let sys = 'chunkSys0',
        k = 'chunkK0';
      for (let g = 1; g < G; g++) {
        sys = `select(${sys}, chunkSys${g}, g == ${g}u)`;
        k = `select(${k}, chunkK${g}, g == ${g}u)`;
      }
      e(`  let sys = ${sys};`);
      e(`  let i = ${k} * ${seg + 1}u + flat % ${seg}u;`);
    }
    // One chunk a workgroup: its system exists (the grid holds only workgroups with work).
    if (!(G === 1 && aligned)) e(`  return Slot(flat, sys, i, ${G === 1 ? '' : 'sys < prm.nsys && '}i < prm.n, true);`);
  } else if (layout === 'interleaved' && G > 1) {
    // Consecutive invocations take consecutive systems: contiguous in the interleaved layout.
    e(`  let sl = flat % ${G}u;`);
    e(`  let i = flat / ${G}u;`);
    e(`  let sys = wg * ${G}u + sl;`);
    e(`  return Slot(sl * ${seg}u + i, sys, i, sys < prm.nsys && i < prm.n, true);`);
  } else {
    e(`  let sl = flat / ${seg}u;`);
    e(`  let i = flat % ${seg}u;`);
    e(`  let sys = wg * ${G}u + sl;`);
    e(`  return Slot(flat, sys, i, ${G === 1 ? '' : 'sys < prm.nsys && '}i < prm.n, true);`);
  }
  if (!(partition && G === 1 && aligned)) e(`}`);
  return L;
}

/** The entry point's opening: the workgroup's index, and the system and index of its chunks. */
function wmEntry(c: WangMouContext): string[] {
  const { Tn, seg, G, partition, across, aligned, alignElems } = c;
  return [
    `
@compute @workgroup_size(${Tn})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let wg = wid.x + wid.y * prm.gridX;
  // Uniform for the whole workgroup (built from workgroup_id and uniforms), so the barriers below stay
  // in uniform control flow.
  if (wg >= prm.total) { return; }
${across ? `  { let grp = wg / prm.chunks; chunkK0 = wg - grp * prm.chunks; chunkSys0 = grp * ${G}u; }\n` : partition ? Array.from({ length: G }, (_, g) => `  chunkSys${g} = (wg * ${G}u + ${g}u) / prm.chunks;\n  chunkK${g} = wg * ${G}u + ${g}u - chunkSys${g} * prm.chunks;\n`).join('') : ''}${aligned ? `  { let st = chunkK0 * ${seg + 1}u; let r = matAddr(chunkSys0, st) & ${alignElems - 1}u; chunkA0 = st - r; chunkOff = r; }\n` : ''}`,
  ];
}

/**
 * The invocation's R rows into registers r0 … r_{R−1}. Coalesced, staged load, unrolled with every global
 * load issued before any is used (a rolled loop waits one memory latency per row; the same change sped up
 * the FFT's staged copies). directRows: the invocation's own R rows as R/4 vec4s of each array,
 * no staging (see the spec).
 */
function wmLoad(c: WangMouContext): string[] {
  const { R, Tn, seg, G, partition, direct, aligned, rounds } = c;
  const { L, e } = emitter();
  if (direct) {
    e(`  let mySys = wg * ${G}u + (lid * ${R}u) / ${seg}u;`);
    e(`  let i0 = (lid * ${R}u) % ${seg}u;`);
    e(`  let live = mySys < prm.nsys;`);
    // n and the window remainders are multiples of 4 (planner and executor), so a vec4 lies wholly
    // inside the system or wholly beyond its n rows (identity rows there, as in the staged load).
    e(`  let dirM = matAddr(mySys, i0) / 4u;`);
    e(`  let dirX = rhsAddr(mySys, i0) / 4u;`);
    for (let q = 0; q < R / 4; q++) {
      e(`  var va${q} = vec4<f32>(0.0);`);
      e(`  var vb${q} = vec4<f32>(1.0);`);
      e(`  var vc${q} = vec4<f32>(0.0);`);
      e(`  var vd${q} = vec4<f32>(0.0);`);
      e(`  let in${q} = live && i0 + ${4 * q}u < prm.n;`);
      e(
        `  if (in${q}) { va${q} = A[dirM + ${q}u]; vb${q} = B[dirM + ${q}u]; vc${q} = C[dirM + ${q}u]; vd${q} = D[dirX + ${q}u]; }`,
      );
    }
    for (let j = 0; j < R; j++) {
      const q = j >> 2;
      const ch = 'xyzw'[j & 3];
      e(`  var r${j} = Row(va${q}.${ch}, vb${q}.${ch}, vc${q}.${ch}, vd${q}.${ch});`);
      e(`  if (in${q}) { r${j} = checkRow(mySys, i0 + ${j}u, r${j}); }`);
    }
    return L;
  }
  if (G === 1) {
    // The workgroup's system: chunkSys0 (partition) or wg (solve). Out-of-range systems load nothing.
    const sys0 = partition ? 'chunkSys0' : 'wg';
    e(`  baseM = matAddr(${sys0}, 0u);`);
    e(`  baseR = rhsAddr(${sys0}, 0u);`);
  }
  for (let k = 0; k < rounds; k++) {
    e(`  let s${k} = slot(wg, ${k * Tn}u + lid);`);
    e(`  var w${k} = identityRow();`);
    e(
      G === 1
        ? `  if (s${k}.valid) { w${k} = rawRowB(s${k}.i); }`
        : `  if (s${k}.valid) { w${k} = rawRow(s${k}.sys, s${k}.i); }`,
    );
  }
  for (let k = 0; k < rounds; k++) {
    e(`  if (s${k}.valid) { w${k} = checkRow(s${k}.sys, s${k}.i, w${k}); }`);
    e(aligned ? `  if (s${k}.keep) { shPut(s${k}.v, w${k}); }` : `  shPut(s${k}.v, w${k});`);
  }
  e(`  workgroupBarrier();`);
  for (let j = 0; j < R; j++) e(`  var r${j} = shGet(lid * ${R}u + ${j}u);`);
  return L;
}

/** Reduction of the invocation's own rows in registers, before any exchange. */
function wmLocalReduction(c: WangMouContext): string[] {
  const { R, nrm } = c;
  const { L, e } = emitter();
  if (c.thomas) {
    // The block's first and last rows over the block's neighbours (x_{p−1}, x_{p+R}), by merging one row
    // at a time: O(R) work instead of the O(R log R) of the Wang & Mou local stages; the original rows
    // r0 … r_{R−1} stay untouched for the interior solve at the end.
    e(`  var bF = ${nrm ? 'normRow(r0)' : 'r0'};`);
    e(`  var bL = bF;`);
    for (let j = 1; j < R; j++) {
      e(`  {`);
      e(`    let Lp = mergeL(bL, r${j});`);
      e(`    bF = updLeft(bF, Lp);`);
      e(`    bL = Lp;`);
      e(`  }`);
    }
  } else {
    // Local stages in registers.
    for (let s = 1; s < R; s *= 2) {
      e(`  // local stage, block size ${s}`);
      for (let p = 0; p < R; p += 2 * s) {
        const m = p + s - 1;
        e(`  {`);
        e(`    let Rr = r${m};`);
        e(`    let Lp = mergeL(Rr, r${m + 1});`);
        for (let i = p; i < p + 2 * s; i++) {
          if (i <= m) e(`    r${i} = updLeft(r${i}, Lp);`);
          else if (i === m + 1) e(`    r${i} = Lp;`);
          else e(`    r${i} = updRight(r${i}, Rr, Lp);`);
        }
        e(`  }`);
      }
    }
  }
  return L;
}

/** The exchange steps: blocks of invocations merged through their boundary rows in workgroup memory. */
function wmExchangeSteps(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { R, Tn, direct, first, last } = c;
  const { L, e } = emitter();
  let s = R;
  const xput = c.nrm || direct ? 'shPutE' : 'shPut';
  const xget = c.nrm || direct ? 'shGetE' : 'shGet';
  spec.exchangeRadices.forEach((radix, step) => {
    const q = s / R; // invocations per block
    // Exchange area of this step: [0, 2T) or, alternating from the second step when the array has room
    // (R ≥ 4), [2T, 4T). Nobody can still be reading the area a step writes (every invocation finished
    // reading it two steps ago, before the barrier of the step in between), so one barrier a step suffices.
    const pp = spec.pingPong && R >= 4;
    const X0 = pp && step % 2 === 1 ? 2 * Tn : 0;
    const at = (v: string) => (X0 ? `${X0}u + ${v}` : v);
    e(`  // exchange step, radix ${radix}, block size ${s} rows (${q} invocations)`);
    // (directRows kernels read nothing from workgroup memory before the first step.)
    if (step === 0 ? !direct : !pp) e(`  workgroupBarrier(); // everyone is done reading sh`);
    e(`  ${xput}(${at('lid')}, ${first});`);
    e(`  ${xput}(${at(`${Tn}u + lid`)}, ${last});`);
    e(`  workgroupBarrier();`);
    e(`  {`);
    L.push(...(radix === 2 ? wmRadix2Step(spec, c, q, at, xget) : wmRadix4Step(c, q, at, xget)));
    e(`  }`);
    s *= radix === 2 ? 2 : 4;
  });
  if (s !== c.seg) throw new Error(`wangMouKernel: stages cover ${s} rows, segment is ${c.seg}`);
  return L;
}

/** One radix-2 exchange step: blocks of q invocations merged in pairs. */
function wmRadix2Step(
  spec: WangMouKernelSpec,
  c: WangMouContext,
  q: number,
  at: (v: string) => string,
  xget: string,
): string[] {
  const { Tn, upd } = c;
  const { L, e } = emitter();
  e(`    let base = (lid / ${2 * q}u) * ${2 * q}u;`);
  e(`    let Rr = ${xget}(${at(`${Tn}u + base + ${q - 1}u`)});`);
  e(`    let Lp = mergeL(Rr, ${xget}(${at(`base + ${q}u`)}));`);
  if (c.nrm && spec.branchFree) {
    // Left and right rows in one form, w' = (keepA·a + α·R.a + β·L'.a, b, keepC·c + β·L'.c, d + α·R.d + β·L'.d):
    // left α = 0, β = −c, keepA; right α = −a, β = a·R.c, keepC. While blocks are smaller than a warp
    // both halves of a merge share warps, and a branch would run both updates one after the other.
    e(`    let right = lid >= base + ${q}u;`);
    for (const v of upd) {
      e(`    {`);
      e(`      let al = select(ZERO, -${v}.a, right);`);
      e(`      let be = select(-${v}.c, mul(${v}.a, Rr.c), right);`);
      e(`      let na = select(${v}.a, ZERO, right) + mul(al, Rr.a) + mul(be, Lp.a);`);
      e(`      let nc = select(ZERO, ${v}.c, right) + mul(be, Lp.c);`);
      e(`      let nd = (${v}.d + mul(al, Rr.d)) + mul(be, Lp.d);`);
      e(`      ${v} = Row(na, ${v}.b, nc, nd);`);
      e(`    }`);
    }
    e(`    if (lid == base + ${q}u) { ${upd[0]} = Lp; }`);
    return L;
  }
  e(`    if (lid < base + ${q}u) {`);
  for (const v of upd) e(`      ${v} = updLeft(${v}, Lp);`);
  e(`    } else {`);
  e(`      if (lid == base + ${q}u) { ${upd[0]} = Lp; } else { ${upd[0]} = updRight(${upd[0]}, Rr, Lp); }`);
  for (const v of upd.slice(1)) e(`      ${v} = updRight(${v}, Rr, Lp);`);
  e(`    }`);
  return L;
}

/** One radix-4 exchange step: blocks of q invocations merged four at a time (two levels a barrier pair). */
function wmRadix4Step(c: WangMouContext, q: number, at: (v: string) => string, xget: string): string[] {
  const { Tn, upd } = c;
  const { L, e } = emitter();
  e(`    let qb = (lid / ${4 * q}u) * ${4 * q}u;`);
  e(`    let last0 = ${xget}(${at(`${Tn}u + qb + ${q - 1}u`)});`);
  e(`    let first1 = ${xget}(${at(`qb + ${q}u`)});`);
  e(`    let last1 = ${xget}(${at(`${Tn}u + qb + ${2 * q - 1}u`)});`);
  e(`    let first2 = ${xget}(${at(`qb + ${2 * q}u`)});`);
  e(`    let last2 = ${xget}(${at(`${Tn}u + qb + ${3 * q - 1}u`)});`);
  e(`    let first3 = ${xget}(${at(`qb + ${3 * q}u`)});`);
  e(`    let L01 = mergeL(last0, first1);`);
  e(`    let L23 = mergeL(last2, first3);`);
  // s ≥ R ≥ 2, so last1 is never first1 (the CPU spec's s = 1 case cannot occur here).
  e(`    let last1u = updRight(last1, last0, L01);`);
  e(`    let first2u = updLeft(first2, L23);`);
  e(`    let L2 = mergeL(last1u, first2u);`);
  e(`    let bi = (lid - qb) / ${q}u; // block of this invocation within the quad`);
  e(`    let lead = (lid - qb) % ${q}u == 0u; // holds the first row of its block`);
  e(`    var R1 = last0;`);
  e(`    var Lp1 = L01;`);
  e(`    if (bi >= 2u) { R1 = last2; Lp1 = L23; }`);
  e(`    let right1 = (bi & 1u) == 1u;`);
  e(`    let right2 = bi >= 2u;`);
  for (let j = 0; j < upd.length; j++) {
    e(`    {`);
    e(`      var w = ${upd[j]};`);
    if (j === 0)
      e(
        `      if (right1 && lead) { w = Lp1; } else if (right1) { w = updRight(w, R1, Lp1); } else { w = updLeft(w, Lp1); }`,
      );
    else e(`      if (right1) { w = updRight(w, R1, Lp1); } else { w = updLeft(w, Lp1); }`);
    if (j === 0)
      e(
        `      if (right2 && bi == 2u && lead) { w = L2; } else if (right2) { w = updRight(w, last1u, L2); } else { w = updLeft(w, L2); }`,
      );
    else e(`      if (right2) { w = updRight(w, last1u, L2); } else { w = updLeft(w, L2); }`);
    e(`      ${upd[j]} = w;`);
    e(`    }`);
  }
  return L;
}

/** The system (or chunk) of this invocation's register rows. */
function wmOwnRows(c: WangMouContext): string[] {
  const { R, Tn, seg, G } = c;
  const { L, e } = emitter();
  if (c.across) {
    e(`  let mySys = chunkSys0 + (lid * ${R}u) / ${seg}u;`);
    e(`  let myK = chunkK0;`);
    e(`  let myChunk = mySys * prm.chunks + myK;`);
    e(`  let cl = lid % ${Tn / G}u; // invocation within its chunk`);
  } else if (c.partition) {
    e(`  let myChunk = wg * ${G}u + (lid * ${R}u) / ${seg}u;`);
    e(`  let mySys = myChunk / prm.chunks;`);
    e(`  let myK = myChunk - mySys * prm.chunks;`);
    e(`  let cl = lid % ${Tn / G}u; // invocation within its chunk`);
  } else if (!c.direct) {
    e(`  let mySys = wg * ${G}u + (lid * ${R}u) / ${seg}u;`);
  }
  return L;
}

/** 'reduce': the chunk's first and last rows out, normalised by their diagonal, and the status. */
function wmBoundaryStore(c: WangMouContext): string[] {
  const { Tn, G, nrm, first, last } = c;
  const { L, e } = emitter();
  // First row (invocation 0, r0) and last row (invocation T−1, r_{R−1}), normalised by their diagonal.
  e(`  let bo = myChunk * 6u;`);
  e(`  if (cl == 0u && mySys < prm.nsys) {`);
  e(`    let w = ${first};`);
  e(`    if (badpivot(w.b)) { flags |= 1u; }`);
  if (nrm) e(`    BND[bo] = w.a; BND[bo + 1u] = w.c; BND[bo + 2u] = w.d;`);
  else e(`    BND[bo] = dv(w.a, w.b); BND[bo + 1u] = dv(w.c, w.b); BND[bo + 2u] = dv(w.d, w.b);`);
  e(`  }`);
  e(`  if (cl == ${Tn / G - 1}u && mySys < prm.nsys) {`);
  e(`    let w = ${last};`);
  e(`    if (badpivot(w.b)) { flags |= 1u; }`);
  if (nrm) e(`    BND[bo + 3u] = w.a; BND[bo + 4u] = w.c; BND[bo + 5u] = w.d;`);
  else e(`    BND[bo + 3u] = dv(w.a, w.b); BND[bo + 4u] = dv(w.c, w.b); BND[bo + 5u] = dv(w.d, w.b);`);
  e(`  }`);
  e(`  if (flags != 0u && mySys < prm.nsys) { flagStatus(mySys, flags); }`);
  return L;
}

/** 'expand': the chunk's separators xL, xR from the coarse solution; the first invocation stores xR. */
function wmSeparators(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  if (spec.mode !== 'expand') return [];
  return [
    `  var xL = ZERO;`,
    `  var xR = ZERO;`,
    `  let live = mySys < prm.nsys;`,
    `  if (live && myK > 0u) { xL = XC[mySys * prm.seps + myK - 1u]; }`,
    `  if (live && myK < prm.seps) { xR = XC[mySys * prm.seps + myK]; }`,
    `  if (live && cl == 0u && myK < prm.seps) { X[rhsAddr(mySys, myK * ${c.seg + 1}u + ${c.seg}u)] = xR; }`,
  ];
}

/**
 * 'solve' and 'expand': x of every row of the invocation, into registers x0 … x_{R−1} (directRows) or
 * the workgroup's rows for the staged store.
 */
function wmSolutions(spec: WangMouKernelSpec, c: WangMouContext): string[] {
  const { mode } = spec;
  const { R, nrm, direct } = c;
  const { L, e } = emitter();
  if (!direct) e(`  workgroupBarrier(); // everyone is done reading sh`);
  // x of a row over the block's outer neighbours: 0 beyond a whole system, the separators in 'expand'.
  const xOf = (w: string) =>
    nrm
      ? mode === 'expand'
        ? `(${w}.d - mul(${w}.a, xL)) - mul(${w}.c, xR)`
        : `${w}.d`
      : mode === 'expand'
        ? `dv((${w}.d - mul(${w}.a, xL)) - mul(${w}.c, xR), ${w}.b)`
        : `dv(${w}.d, ${w}.b)`;
  if (!c.thomas) {
    if (direct) for (let j = 0; j < R; j++) e(`  var x${j} = ZERO;`);
    for (let j = 0; j < R; j++) {
      e(`  {`);
      e(`    let w = r${j};`);
      e(`    if (badpivot(w.b)) { flags |= 1u; }`);
      e(`    let x = ${xOf('w')};`);
      e(direct ? `    x${j} = x;` : `    shPutX(lid * ${R}u + ${j}u, x);`);
      e(`  }`);
    }
    return L;
  }
  // The exchange steps leave this block's first and last rows over the outer neighbours of the
  // workgroup's system (or chunk), so their x is known here; the interior rows 1 … R−2 are then a
  // tridiagonal system with known ends x_first, x_last: Thomas in registers on the original rows.
  if (!nrm) e(`  if (badpivot(bF.b) || badpivot(bL.b)) { flags |= 1u; }`);
  e(`  let x0 = ${xOf('bF')};`);
  if (R > 1) e(`  let x${R - 1} = ${xOf('bL')};`);
  if (R > 2) L.push(...wmInteriorThomas(c));
  if (!direct) for (let j = 0; j < R; j++) e(`  shPutX(lid * ${R}u + ${j}u, x${j});`);
  return L;
}

/** Thomas on the interior rows r1 … r_{R−2}, with x0 and x_{R−1} known: x1 … x_{R−2}. */
function wmInteriorThomas(c: WangMouContext): string[] {
  const { R, nrm } = c;
  const { L, e } = emitter();
  e(`  var cp0 = ZERO;`);
  e(`  var dp0 = x0;`);
  for (let j = 1; j <= R - 2; j++) {
    const dj = j === R - 2 ? `r${j}.d - mul(r${j}.c, x${R - 1})` : `r${j}.d`;
    e(`  let m${j} = r${j}.b - mul(r${j}.a, cp${j - 1});`);
    e(`  if (badpivot(m${j})) { flags |= 1u; }`);
    if (nrm) {
      // One reciprocal a row instead of two divisions.
      e(`  let iv${j} = dv(ONE, m${j});`);
      e(`  let cp${j} = ${j === R - 2 ? 'ZERO' : `mul(r${j}.c, iv${j})`};`);
      e(`  let dp${j} = mul((${dj}) - mul(r${j}.a, dp${j - 1}), iv${j});`);
    } else {
      e(`  let cp${j} = ${j === R - 2 ? 'ZERO' : `dv(r${j}.c, m${j})`};`);
      e(`  let dp${j} = dv((${dj}) - mul(r${j}.a, dp${j - 1}), m${j});`);
    }
  }
  e(`  let x${R - 2} = dp${R - 2};`);
  for (let j = R - 3; j >= 1; j--) e(`  let x${j} = dp${j} - mul(cp${j}, x${j + 1});`);
  return L;
}

/** 'solve' and 'expand': the solutions out (vec4 stores or the coalesced staged store), then the status. */
function wmStore(c: WangMouContext): string[] {
  const { R, Tn, G, direct } = c;
  const { L, e } = emitter();
  if (direct) {
    // The invocation's R solutions as R/4 vec4 stores, where its load found rows.
    for (let q = 0; q < R / 4; q++) {
      e(`  if (in${q}) {`);
      e(`    let x = vec4<f32>(x${4 * q}, x${4 * q + 1}, x${4 * q + 2}, x${4 * q + 3});`);
      e(`    X[dirX + ${q}u] = x;`);
      e(`    if (nonfinite(x.x) || nonfinite(x.y) || nonfinite(x.z) || nonfinite(x.w)) { flags |= 2u; }`);
      e(`  }`);
    }
  } else {
    e(`  workgroupBarrier();`);
    // Coalesced store, unrolled like the load.
    for (let k = 0; k < c.rounds; k++) {
      e(`  {`);
      e(`    let s = slot(wg, ${k * Tn}u + lid);`);
      e(`    if (s.valid) {`);
      e(`      let x = shGetX(s.v);`);
      e(G === 1 ? `      X[baseR + rowStep(s.i)] = x;` : `      X[rhsAddr(s.sys, s.i)] = x;`);
      e(`      if (nonfinite(x)) { flagStatus(s.sys, 2u); }`);
      e(`    }`);
      e(`  }`);
    }
  }
  e(
    c.store
      ? `  if (mySys < prm.nsys) { atomicStore(&status[prm.statusOff + mySys], flags); }`
      : `  if (flags != 0u && mySys < prm.nsys) { flagStatus(mySys, flags); }`,
  );
  return L;
}

/** Exactly what the coarse-system kernel depends on. */
export interface FormKernelSpec {
  complex: boolean;
  layout: 'strided' | 'interleaved';
  chunkRows: number;
}

export const FORM_WORKGROUP = 64;

/**
 * One invocation per separator k of a partitioned level: the separator's equation
 *   a_s x_{s−1} + b_s x_s + c_s x_{s+1} = d_s,
 * with x_{s−1} (last interior row of chunk k) and x_{s+1} (first interior row of chunk k+1) replaced by
 * their reduced forms x = d' − a'·x_{sep left} − c'·x_{sep right}, is a tridiagonal row over the
 * separators: (−a_s a'_last, b_s − a_s c'_last − c_s a'_first, −c_s c'_first, d_s − a_s d'_last − c_s d'_first).
 */
export function formCoarseKernel(spec: FormKernelSpec): KernelSource {
  const P = spec.chunkRows;
  const wgsl = `// Coarse (separator) system of a partitioned Wang & Mou level; ${spec.layout} input, chunk ${P} rows.
${scalarHelpers(spec.complex)}
${PARAMS_WGSL}
${SYSTEM_BINDINGS_WGSL}
@group(0) @binding(6) var<storage, read> BND: array<T>;
@group(0) @binding(7) var<storage, read_write> CA: array<T>;
@group(0) @binding(8) var<storage, read_write> CB: array<T>;
@group(0) @binding(9) var<storage, read_write> CC: array<T>;
@group(0) @binding(10) var<storage, read_write> CD: array<T>;

${addressWgsl(spec.layout)}

@compute @workgroup_size(${FORM_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let g = (wid.x + wid.y * prm.gridX) * ${FORM_WORKGROUP}u + lid;
  if (g >= prm.total) { return; }
  let sys = g / prm.seps;
  let k = g - sys * prm.seps;
  let s = k * ${P + 1}u + ${P}u;
  let m = matAddr(sys, s);
  let as_ = A[m];
  let bs = B[m];
  var cs = C[m];
  if (s + 1u >= prm.n) { cs = ZERO; }
  let ds = D[rhsAddr(sys, s)];
  if (mag(bs) < mag(as_) + mag(cs)) { flagStatus(sys, 4u); }
  let lo = (sys * prm.chunks + k) * 6u + 3u; // last row of chunk k
  var ca = -mul(as_, BND[lo]);
  var cb = bs - mul(as_, BND[lo + 1u]);
  var cc = ZERO;
  var cd = ds - mul(as_, BND[lo + 2u]);
  if (s + 1u < prm.n) {
    let fo = (sys * prm.chunks + k + 1u) * 6u; // first row of chunk k + 1
    cb = cb - mul(cs, BND[fo]);
    cc = -mul(cs, BND[fo + 1u]);
    cd = cd - mul(cs, BND[fo + 2u]);
  }
  if (k == 0u) { ca = ZERO; }
  let o = sys * prm.seps + k;
  CA[o] = ca;
  CB[o] = cb;
  CC[o] = cc;
  CD[o] = cd;
}
`;
  return {
    name: `tridiagonal-form-${spec.complex ? 'c' : 'r'}${P}-${spec.layout}`,
    key: stableKey({ kind: 'tridiagonal-form', spec }),
    wgsl,
    entryPoint: 'main',
  };
}
