/**
 * WGSL for small systems in the interleaved layout (gtsvInterleavedBatch's layout: row i of system j at
 * i·batch + j): one invocation solves one system by the Thomas algorithm, so neighbouring invocations
 * read neighbouring addresses for every row and no workgroup exchange is needed. It is the level the
 * planner picks for interleaved systems of at most THOMAS_MAX_ROWS rows (planner/tridiagonal.ts); the
 * Wang & Mou kernels stage such systems through workgroup memory instead.
 *
 * All rows are loaded first (unrolled over the padded size, guarded by the runtime n), so their loads are
 * in flight together; then the forward elimination and the back substitution run in registers. The same
 * bindings, uniforms and status bits as the Wang & Mou 'solve' kernel: 1 bad pivot, 2 non-finite result,
 * 4 not diagonally dominant (the checkRow test).
 */
import { stableKey, type KernelSource } from '../backends/webgpu/pipelines.js';
import { PARAMS_WGSL, ROW_WGSL, addressWgsl, scalarHelpers } from './tridiagonal-wang-mou.js';
import { THOMAS_MAX_ROWS } from '../planner/tridiagonal.js';

export interface ThomasKernelSpec {
  complex: boolean;
  /** Padded rows (power of two ≤ THOMAS_MAX_ROWS): the unrolled length; prm.n ≤ rows. */
  rows: number;
  /** Invocations (systems) per workgroup. */
  threads: number;
}

export function thomasKernel(spec: ThomasKernelSpec): KernelSource {
  const { complex, rows: R, threads: T } = spec;
  if (R > THOMAS_MAX_ROWS) throw new Error(`thomasKernel: ${R} rows exceed ${THOMAS_MAX_ROWS}`);
  const L: string[] = [];
  const e = (x: string) => L.push(x);
  e(scalarHelpers(complex));
  e(PARAMS_WGSL);
  e(ROW_WGSL);
  e(`@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read> A: array<T>;
@group(0) @binding(2) var<storage, read> B: array<T>;
@group(0) @binding(3) var<storage, read> C: array<T>;
@group(0) @binding(4) var<storage, read> D: array<T>;
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> X: array<T>;
${addressWgsl('interleaved')}

@compute @workgroup_size(${T})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let wg = wid.x + wid.y * prm.gridX;
  if (wg >= prm.total) { return; }
  let sys = wg * ${T}u + lid;
  if (sys >= prm.nsys) { return; }
  let n = prm.n;`);
  // Loads first: row i's four values for every i < n.
  for (let i = 0; i < R; i++) {
    e(`  var w${i} = identityRow();`);
    e(`  if (${i}u < n) { let m = matAddr(sys, ${i}u); w${i} = Row(A[m], B[m], C[m], D[rhsAddr(sys, ${i}u)]); }`);
  }
  // Boundary coefficients outside the matrix are ignored; dominance is checked as the other kernels do.
  e(`  w0.a = ZERO;`);
  for (let i = 0; i < R; i++) {
    e(`  if (${i + 1}u == n) { w${i}.c = ZERO; }`);
    e(`  if (${i}u < n && mag(w${i}.b) < mag(w${i}.a) + mag(w${i}.c)) { flags |= 4u; }`);
  }
  // Forward elimination: c'_i = c_i / (b_i − a_i c'_{i−1}), d'_i = (d_i − a_i d'_{i−1}) / (same).
  e(`  var cp = ZERO;`);
  e(`  var dp = ZERO;`);
  for (let i = 0; i < R; i++) {
    e(`  var c${i} = ZERO;`);
    e(`  var d${i} = ZERO;`);
    e(`  if (${i}u < n) {`);
    e(`    let den = w${i}.b - mul(w${i}.a, cp);`);
    e(`    if (badpivot(den)) { flags |= 1u; }`);
    e(`    cp = dv(w${i}.c, den);`);
    e(`    dp = dv(w${i}.d - mul(w${i}.a, dp), den);`);
    e(`    c${i} = cp;`);
    e(`    d${i} = dp;`);
    e(`  }`);
  }
  // Back substitution, from the last row that exists.
  e(`  var x = ZERO;`);
  for (let i = R - 1; i >= 0; i--) {
    e(`  if (${i}u < n) {`);
    e(`    x = d${i} - mul(c${i}, x);`);
    e(`    X[rhsAddr(sys, ${i}u)] = x;`);
    e(`    if (nonfinite(x)) { flags |= 2u; }`);
    e(`  }`);
  }
  e(`  if (flags != 0u) { flagStatus(sys, flags); }`);
  e(`}`);
  return { name: `tridiagonal-thomas-${complex ? 'c' : 'r'}${R}x${T}`, key: stableKey({ kind: 'tridiagonal-thomas', spec }), wgsl: L.join('\n'), entryPoint: 'main' };
}
