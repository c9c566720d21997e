/**
 * WGSL for systems in the interleaved layout (gtsvInterleavedBatch's layout: row i of system j at
 * i·batch + j): one invocation solves one system by the Thomas algorithm, so neighbouring invocations
 * read neighbouring addresses for every row and no workgroup exchange is needed. thomasKernel keeps the
 * system in registers (interleaved systems of at most THOMAS_MAX_ROWS rows); thomasStreamKernel streams
 * larger ones through global memory (up to STREAM_MAX_ROWS rows by default, planner/tridiagonal.ts); the
 * Wang & Mou kernels stage systems through workgroup memory instead.
 *
 * thomasKernel: all rows are loaded first (unrolled over the padded size, guarded by the runtime n), so their loads are
 * in flight together; then the forward elimination and the back substitution run in registers. The same
 * bindings, uniforms and status bits as the Wang & Mou 'solve' kernel: 1 bad pivot, 2 non-finite result,
 * 4 not diagonally dominant (the checkRow test).
 */
import { stableKey, type KernelSource } from './kernel-source.js';
import { PARAMS_WGSL, ROW_WGSL, SYSTEM_BINDINGS_WGSL, addressWgsl, scalarHelpers } from './tridiagonal-wang-mou.js';
import { THOMAS_MAX_ROWS } from '../planner/tridiagonal.js';

export interface ThomasKernelSpec {
  complex: boolean;
  /** Padded rows (power of two ≤ THOMAS_MAX_ROWS): the unrolled length; prm.n ≤ rows. */
  rows: number;
  /** Invocations (systems) per workgroup. */
  threads: number;
  /** Store every system's status word (no clear beforehand; planner/tridiagonal.ts statusByStore). */
  statusStore?: boolean;
  /** n equals rows: the guards by the runtime n are left out (every row exists). */
  exact?: boolean;
}

/**
 * Scalar algebra, uniforms, row algebra, bindings (CP: the streamed kernel's c' scratch), addressing, and
 * main up to this invocation's system `sys` and the bases of its matrix and right-hand side (mBase, rBase).
 */
function perSystemHeader(complex: boolean, scratch: boolean, threads: number): string {
  return `${scalarHelpers(complex)}
${PARAMS_WGSL}
${ROW_WGSL}
${SYSTEM_BINDINGS_WGSL}
@group(0) @binding(6) var<storage, read_write> X: array<T>;${
    scratch
      ? `
@group(0) @binding(7) var<storage, read_write> CP: array<T>;`
      : ''
  }
${addressWgsl('interleaved')}
// Row i of this invocation's system from the bases of its matrix and right-hand side, computed once
// outside the loops rather than relying on the compiler to hoist matAddr / rhsAddr's integer divisions.
fn loadRow(mBase: u32, rBase: u32, i: u32) -> Row {
  let m = mBase + i * prm.stride;
  return Row(A[m], B[m], C[m], D[rBase + i * prm.stride]);
}

@compute @workgroup_size(${threads})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let wg = wid.x + wid.y * prm.gridX;
  if (wg >= prm.total) { return; }
  let sys = wg * ${threads}u + lid;
  if (sys >= prm.nsys) { return; }
  let n = prm.n;
  let mBase = matAddr(sys, 0u);
  let rBase = rhsAddr(sys, 0u);`;
}

export function thomasKernel(spec: ThomasKernelSpec): KernelSource {
  const { complex, rows: R, threads: T } = spec;
  if (R > THOMAS_MAX_ROWS) throw new Error(`thomasKernel: ${R} rows exceed ${THOMAS_MAX_ROWS}`);
  const exact = spec.exact ?? false;
  const L: string[] = [perSystemHeader(complex, false, T)];
  const e = (x: string) => L.push(x);
  // The guard of row i by the runtime n, none when every row exists (a load under a branch may wait for it).
  const has = (i: number) => (exact ? 'true' : `${i}u < n`);
  if (exact) e(`  // n = ${R}: every row exists.`);
  // Loads first: row i's four values for every i < n.
  for (let i = 0; i < R; i++) {
    if (exact) {
      e(`  var w${i} = loadRow(mBase, rBase, ${i}u);`);
      continue;
    }
    e(`  var w${i} = identityRow();`);
    e(`  if (${i}u < n) { w${i} = loadRow(mBase, rBase, ${i}u); }`);
  }
  // Boundary coefficients outside the matrix are ignored; dominance is checked as the other kernels do.
  e(`  w0.a = ZERO;`);
  for (let i = 0; i < R; i++) {
    if (exact) {
      if (i === R - 1) e(`  w${i}.c = ZERO;`);
      e(`  if (mag(w${i}.b) < mag(w${i}.a) + mag(w${i}.c)) { flags |= 4u; }`);
      continue;
    }
    e(`  if (${i + 1}u == n) { w${i}.c = ZERO; }`);
    e(`  if (${i}u < n && mag(w${i}.b) < mag(w${i}.a) + mag(w${i}.c)) { flags |= 4u; }`);
  }
  // Forward elimination: c'_i = c_i / (b_i − a_i c'_{i−1}), d'_i = (d_i − a_i d'_{i−1}) / (same).
  e(`  var cp = ZERO;`);
  e(`  var dp = ZERO;`);
  for (let i = 0; i < R; i++) {
    e(`  var c${i} = ZERO;`);
    e(`  var d${i} = ZERO;`);
    e(`  if (${has(i)}) {`);
    e(`    let den = w${i}.b - mul(w${i}.a, cp);`);
    e(`    if (badpivot(den)) { flags |= 1u; }`);
    e(`    let iv = dv(ONE, den); // one reciprocal a row instead of two divisions`);
    e(`    cp = mul(w${i}.c, iv);`);
    e(`    dp = mul(w${i}.d - mul(w${i}.a, dp), iv);`);
    e(`    c${i} = cp;`);
    e(`    d${i} = dp;`);
    e(`  }`);
  }
  // Back substitution, from the last row that exists.
  e(`  var x = ZERO;`);
  for (let i = R - 1; i >= 0; i--) {
    e(`  if (${has(i)}) {`);
    e(`    x = d${i} - mul(c${i}, x);`);
    e(`    X[rBase + ${i}u * prm.stride] = x;`);
    e(`    if (nonfinite(x)) { flags |= 2u; }`);
    e(`  }`);
  }
  e(statusEnd(spec.statusStore));
  return {
    name: `tridiagonal-thomas-${complex ? 'c' : 'r'}${R}${exact ? 'e' : ''}x${T}`,
    key: stableKey({ kind: 'tridiagonal-thomas', spec }),
    wgsl: L.join('\n'),
    entryPoint: 'main',
  };
}

export interface ThomasStreamKernelSpec {
  complex: boolean;
  /** Rows loaded together (unrolled) in each step of the two sweeps. */
  chunk: number;
  /** Invocations (systems) per workgroup. */
  threads: number;
  /** Store every system's status word (no clear beforehand; planner/tridiagonal.ts statusByStore). */
  statusStore?: boolean;
}

/**
 * The end of a per-system kernel: its flags OR-ed into the cleared status word, or, with statusStore
 * (this invocation is the only one that touches its system's word), stored whether set or not.
 */
function statusEnd(statusStore: boolean | undefined): string {
  return statusStore
    ? `  atomicStore(&status[prm.statusOff + sys], flags);\n}`
    : `  if (flags != 0u) { flagStatus(sys, flags); }\n}`;
}

/**
 * Interleaved systems of any size, one invocation a system, by the Thomas algorithm streamed through
 * global memory: the forward sweep writes c' to a scratch array (laid out like the interleaved input, so
 * neighbouring invocations still touch neighbouring addresses) and d' to X, the backward sweep reads them
 * back and overwrites X with x: 16 + 8 bytes a row forward, 8 + 4 backward. Rows are taken `chunk` at a
 * time and the next chunk's loads are issued before the current chunk is eliminated, so every invocation
 * keeps up to 2·chunk rows in flight: with one invocation per system there are few invocations (2^24
 * rows of N = 1024 are 16,384 systems), and the memory system must be fed by each one's own loads.
 */
export function thomasStreamKernel(spec: ThomasStreamKernelSpec): KernelSource {
  const { complex, chunk: K, threads: T } = spec;
  const L: string[] = [perSystemHeader(complex, true, T)];
  const e = (x: string) => L.push(x);
  e(`  let ns = prm.nsys;`);
  // Forward sweep.
  for (let j = 0; j < K; j++) {
    e(`  var q${j} = identityRow();`);
    e(`  if (${j}u < n) { q${j} = loadRow(mBase, rBase, ${j}u); }`);
  }
  e(`  var cp = ZERO;`);
  e(`  var dp = ZERO;`);
  e(`  var i0 = 0u;`);
  e(`  loop {`);
  e(`    if (i0 >= n) { break; }`);
  for (let j = 0; j < K; j++) e(`    var w${j} = q${j};`);
  e(`    let nx = i0 + ${K}u;`);
  for (let j = 0; j < K; j++) e(`    if (nx + ${j}u < n) { q${j} = loadRow(mBase, rBase, nx + ${j}u); }`);
  for (let j = 0; j < K; j++) {
    e(`    {`);
    e(`      let i = i0 + ${j}u;`);
    e(`      if (i < n) {`);
    e(`        if (i == 0u) { w${j}.a = ZERO; }`);
    e(`        if (i + 1u == n) { w${j}.c = ZERO; }`);
    e(`        if (mag(w${j}.b) < mag(w${j}.a) + mag(w${j}.c)) { flags |= 4u; }`);
    e(`        let den = w${j}.b - mul(w${j}.a, cp);`);
    e(`        if (badpivot(den)) { flags |= 1u; }`);
    e(`        let iv = dv(ONE, den);`);
    e(`        cp = mul(w${j}.c, iv);`);
    e(`        dp = mul(w${j}.d - mul(w${j}.a, dp), iv);`);
    e(`        CP[i * ns + sys] = cp;`);
    e(`        X[rBase + i * prm.stride] = dp;`);
    e(`      }`);
    e(`    }`);
  }
  e(`    i0 = nx;`);
  e(`  }`);
  // Backward sweep, last chunk first (the chunk grid of the forward sweep).
  e(`  var b0 = ((n - 1u) / ${K}u) * ${K}u;`);
  for (let j = 0; j < K; j++) {
    e(`  var pc${j} = ZERO;`);
    e(`  var pd${j} = ZERO;`);
    e(`  if (b0 + ${j}u < n) { pc${j} = CP[(b0 + ${j}u) * ns + sys]; pd${j} = X[rBase + (b0 + ${j}u) * prm.stride]; }`);
  }
  e(`  var x = ZERO;`);
  e(`  loop {`);
  for (let j = 0; j < K; j++) e(`    let c${j} = pc${j};\n    let d${j} = pd${j};`);
  e(`    if (b0 >= ${K}u) {`);
  for (let j = 0; j < K; j++)
    e(`      pc${j} = CP[(b0 - ${K - j}u) * ns + sys]; pd${j} = X[rBase + (b0 - ${K - j}u) * prm.stride];`);
  e(`    }`);
  for (let j = K - 1; j >= 0; j--) {
    e(`    if (b0 + ${j}u < n) {`);
    e(`      x = d${j} - mul(c${j}, x);`);
    e(`      X[rBase + (b0 + ${j}u) * prm.stride] = x;`);
    e(`      if (nonfinite(x)) { flags |= 2u; }`);
    e(`    }`);
  }
  e(`    if (b0 == 0u) { break; }`);
  e(`    b0 = b0 - ${K}u;`);
  e(`  }`);
  e(statusEnd(spec.statusStore));
  return {
    name: `tridiagonal-thomas-stream-${complex ? 'c' : 'r'}${K}x${T}`,
    key: stableKey({ kind: 'tridiagonal-thomas-stream', spec }),
    wgsl: L.join('\n'),
    entryPoint: 'main',
  };
}
