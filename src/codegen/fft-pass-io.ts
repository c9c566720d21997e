/**
 * Copies between global memory and a workgroup's rows (multi-pass columns and rows, outer twiddles, staged
 * copies); a file of its own because it is memory layout, shared by the transform and its post-processing.
 */
import type { WorkgroupFftRecipe } from '../planner/fft-recipe.js';
import type { FftDirection } from '../planner/fft-problem.js';
import { unitRoot } from '../planner/twiddles.js';
import { padIndex } from './fft-exchange.js';

/**
 * Addressing of column problem `q` of a pass: q = b·cols + j (b: the batch index, j: the column).
 * Column j reads j + k·cols and writes ⌊j/Ns⌋·Ns·n + (j mod Ns) + k·Ns (cols = total/n), in the units of
 * the user's layout (offset, stride, dist).
 */
export function passAddressing(recipe: WorkgroupFftRecipe, q: string, suffix: string): string[] {
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
export function columnCopy(
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
export function rowStore(recipe: WorkgroupFftRecipe, rowStride: number): string[] {
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
export function outerTwiddleSplit(m: number): { lo: number; m: number } {
  return { lo: Math.ceil(Math.sqrt(m)), m };
}

/** The outer twiddle tables, [lo entries W_m^i | hi entries W_m^{i·lo}], float64-accurate, for `direction`. */
export function outerTwiddleTable(split: { lo: number; m: number }, direction: FftDirection): Float32Array {
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
export function stagedCopy(
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
