/**
 * DCT types 1–4, DST types 1–4 and the Hartley transform as hooks on the FFT generator: each adapter owns
 * an FFT recipe plus O(N) pre/post steps that run inside that FFT's own first and last pass (the seeds'
 * BPLG point: no separate filter kernel, no extra pass over global memory).
 *
 * Unnormalised kernels follow scipy.fft ('backward' forward direction); `scale` and the orthogonalize
 * factors (pre: on inputs, post: on outputs, by index) are folded into the hooks.
 *
 *   DCT-II  (Makhoul): v = [x0, x2, x4, …, …, x5, x3, x1], V = R2C_N(v), y_k = 2·Re(e^{−iπk/2N}·V_k);
 *           y_{N−k} from V̄_k. One R2C of length N.
 *   DCT-III: Z_k = e^{+iπk/2N}·(y_k − i·y_{N−k}) (y_N = 0) is Hermitian, so x' = C2R_N(Z) is real and
 *           x_{2k} = x'_k, x_{2k+1} = x'_{N−1−k}. One C2R of length N.
 *   DCT-I:  R2C of the even extension [x0 … x_{N−1}, x_{N−2} … x1] (length 2(N−1)); y_k = Re V_k.
 *   DST-I:  R2C of the odd extension [0, x0 … x_{N−1}, 0, −x_{N−1} … −x0] (length 2(N+1)); y_k = −Im V_{k+1}.
 *   DST-II: DCT-II of (−1)^n·x_n, outputs reversed.  DST-III: DCT-III of the reversed input, outputs ·(−1)^k.
 *   DCT-IV: y_k = 2·Re(e^{−iπ(2k+1)/4N}·Σ_n x_n e^{−iπn/2N} e^{−2πink/2N}): one C2C of length 2N.
 *   DST-IV: DCT-IV of the reversed input, outputs ·(−1)^k.
 *   DHT:    h_k = Re V_k − Im V_k, h_{N−k} = Re V_k + Im V_k from one R2C of length N.
 */
import { f32 } from './dft-small.js';
import type { FftCustomIo } from './fft-stockham-workgroup.js';
import { unitRoot } from '../planner/twiddles.js';
import type { R2rKind } from '../planner/r2r.js';

/** An adapter's hooks for the FFT that carries it (planner/r2r.ts: r2rCarrier gives that FFT). */
export interface R2rHookPlan {
  io: FftCustomIo;
}

/** e^{−iπ·num/den} for integer num, float64-accurate. */
function halfRoot(num: number, den: number): [number, number] {
  return unitRoot(num, 2 * den);
}

/** aux[k] = e^{−iπk/2N}, k < N: Makhoul's post-twiddles (DCT-II) and pre-twiddles (DCT-III). */
function quarterRoots(N: number): Float32Array {
  const table = new Float32Array(2 * N);
  for (let k = 0; k < N; k++) [table[2 * k], table[2 * k + 1]] = halfRoot(k, 2 * N);
  return table;
}

function factorsExpr(list: [number, number][], v: string): string {
  // Per-index factors folded as selects: only the orthogonalize corners (index 0, N−1) carry one.
  return list.reduce((acc, [i, f]) => `${acc} * select(1.0, ${f32(f)}, ${v} == ${i}u)`, '1.0');
}

export function r2rHooks(
  kind: R2rKind,
  n: number,
  scale: number,
  pre: [number, number][],
  post: [number, number][],
): R2rHookPlan {
  const N = n;
  const H = Math.ceil(N / 2);
  const xin = `fn xin(base: u32, j: u32) -> f32 { return src[base + j * params.in_stride] * (${factorsExpr(pre, 'j')}); }`;
  const yout = `fn yout(base: u32, k: u32, v: f32) { dst[base + k * params.out_stride] = v * ${f32(scale)} * (${factorsExpr(post, 'k')}); }`;
  const base = { srcType: 'f32' as const, dstType: 'f32' as const };
  const key = (extra: string) => `${kind}|${N}|${scale}|${JSON.stringify(pre)}|${JSON.stringify(post)}|${extra}`;
  // Makhoul's permutation: v_i = x_{2i} for i < ⌈N/2⌉, else x_{2(N−1−i)+1}.
  const perm = `fn perm(i: u32) -> u32 { if (i < ${H}u) { return 2u * i; } return 2u * (${N - 1}u - i) + 1u; }`;
  switch (kind) {
    case 'dct2':
    case 'dst2': {
      const table = quarterRoots(N);
      const sgn = kind === 'dst2' ? `select(1.0, -1.0, (j & 1u) == 1u)` : '1.0';
      const outIdx = (k: string) => (kind === 'dst2' ? `${N - 1}u - (${k})` : k);
      return {
        io: {
          ...base,
          key: key(''),
          table,
          inHelpers: [xin, perm].join('\n'),
          outHelpers: yout,
          rdr: `fn rdr(base: u32, i: u32) -> f32 { let j = perm(i); return xin(base, j) * ${sgn}; }`,
          // c = aux[k] = e^{−iπk/2N}; aux[N − k] = −i·conj(c) = (−c.y, −c.x) exactly, so one table entry
          // serves both outputs, and wrq lets a pass supply c without reading the table per output.
          wr: 'fn wr(base: u32, k: u32, v: vec2<f32>) { wrq(base, k, v, aux[k]); }',
          wrq: [
            'fn wrq(base: u32, k: u32, v: vec2<f32>, c: vec2<f32>) {',
            `  yout(base, ${outIdx('k')}, 2.0 * (c.x * v.x - c.y * v.y));`,
            `  if (k > 0u && k < ${N}u - k) {`,
            // V_{N−k} = conj(V_k), with d = aux[N − k] = (−c.y, −c.x).
            `    yout(base, ${outIdx(`${N}u - k`)}, -2.0 * (c.y * v.x + c.x * v.y));`,
            '  }',
            '}',
          ].join('\n'),
        },
      };
    }
    case 'dct3':
    case 'dst3': {
      const table = quarterRoots(N);
      const src = (j: string) => (kind === 'dst3' ? `xin(base, ${N - 1}u - (${j}))` : `xin(base, ${j})`);
      const sgn = kind === 'dst3' ? ' * select(1.0, -1.0, (d & 1u) == 1u)' : '';
      return {
        io: {
          ...base,
          key: key(''),
          table,
          inHelpers: xin,
          outHelpers: [yout, perm].join('\n'),
          rd: [
            'fn rd(base: u32, k: u32) -> vec2<f32> {',
            `  let a = ${src('k')};`,
            `  var b = 0.0;`,
            `  if (k > 0u) { b = ${src(`${N}u - k`)}; }`,
            // Z_k = conj(aux[k])·(a − i·b)
            '  let c = aux[k];',
            '  return vec2<f32>(c.x * a - c.y * b, -c.y * a - c.x * b);',
            '}',
          ].join('\n'),
          wrr: `fn wrr(base: u32, i: u32, v: f32) { let d = perm(i); yout(base, d, v${sgn}); }`,
        },
      };
    }
    case 'dct1': {
      const L = 2 * (N - 1);
      return {
        io: {
          ...base,
          key: key(''),
          inHelpers: xin,
          outHelpers: yout,
          rdr: `fn rdr(base: u32, i: u32) -> f32 { if (i < ${N}u) { return xin(base, i); } return xin(base, ${L}u - i); }`,
          wr: `fn wr(base: u32, k: u32, v: vec2<f32>) { if (k < ${N}u) { yout(base, k, v.x); } }`,
        },
      };
    }
    case 'dst1': {
      const L = 2 * (N + 1);
      return {
        io: {
          ...base,
          key: key(''),
          inHelpers: xin,
          outHelpers: yout,
          rdr: [
            'fn rdr(base: u32, i: u32) -> f32 {',
            `  if (i == 0u || i == ${N + 1}u) { return 0.0; }`,
            `  if (i <= ${N}u) { return xin(base, i - 1u); }`,
            `  return -xin(base, ${L - 1}u - i);`,
            '}',
          ].join('\n'),
          wr: `fn wr(base: u32, k: u32, v: vec2<f32>) { if (k >= 1u && k <= ${N}u) { yout(base, k - 1u, -v.y); } }`,
        },
      };
    }
    case 'dct4':
    case 'dst4': {
      // aux[0..N): e^{−iπn/2N}; aux[N..2N): e^{−iπ(2k+1)/4N}
      const table = new Float32Array(4 * N);
      for (let j = 0; j < N; j++) [table[2 * j], table[2 * j + 1]] = halfRoot(j, 2 * N);
      for (let k = 0; k < N; k++) [table[2 * (N + k)], table[2 * (N + k) + 1]] = halfRoot(2 * k + 1, 4 * N);
      const src = (j: string) => (kind === 'dst4' ? `xin(base, ${N - 1}u - (${j}))` : `xin(base, ${j})`);
      const sgn = kind === 'dst4' ? ' * select(1.0, -1.0, (k & 1u) == 1u)' : '';
      return {
        io: {
          ...base,
          key: key(''),
          table,
          inHelpers: xin,
          outHelpers: yout,
          rd: `fn rd(base: u32, j: u32) -> vec2<f32> { if (j >= ${N}u) { return vec2<f32>(0.0, 0.0); } return aux[j] * ${src('j')}; }`,
          wr: [
            'fn wr(base: u32, k: u32, v: vec2<f32>) {',
            `  if (k < ${N}u) { let c = aux[${N}u + k]; yout(base, k, 2.0 * (c.x * v.x - c.y * v.y)${sgn}); }`,
            '}',
          ].join('\n'),
        },
      };
    }
    case 'dht':
      return {
        io: {
          ...base,
          key: key(''),
          inHelpers: xin,
          outHelpers: yout,
          rdr: 'fn rdr(base: u32, i: u32) -> f32 { return xin(base, i); }',
          wr: [
            'fn wr(base: u32, k: u32, v: vec2<f32>) {',
            '  yout(base, k, v.x - v.y);',
            `  if (k > 0u && k < ${N}u - k) { yout(base, ${N}u - k, v.x + v.y); }`,
            '}',
          ].join('\n'),
        },
      };
  }
}
