/**
 * R2C post-processing as its own kernel, for real transforms whose half-length complex transform needs
 * several passes (the pairs z_k, z_{M−k} then live in different workgroups of the last pass). Each
 * invocation turns one pair into the outputs y_k and y_{M−k}:
 *   y_k = ½(z_k + z̄_{M−k}) − ½i·W_N^k·(z_k − z̄_{M−k}),  M = N/2, indices mod M, y_M = Re z_0 − Im z_0.
 * Input: z, contiguous (problem b at b·M); output: the N/2+1 outputs in the caller's layout.
 */
import { stableKey } from './kernel-source.js';
import { R2C_POST_WORKGROUP } from '../planner/fft-webgpu-passes.js';
import { f32 } from './dft-small.js';
import type { FftCustomIo, FftKernelSource } from './fft-stockham-workgroup.js';
import { R2C_OUT_WGSL } from './fft-real-fused-post.js';

export function generateR2cPost(n: number, scale: number, custom?: FftCustomIo): FftKernelSource {
  const M = n / 2;
  const pairs = Math.floor(M / 2) + 1;
  const sc = scale === 1 ? '' : ` * ${f32(scale)}`;
  const usesAux = !!custom?.table && `${custom.wr ?? ''}${custom.outHelpers ?? ''}`.includes('aux[');
  const wgsl = `@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<${custom?.dstType ?? 'vec2<f32>'}>;
struct Params { batch: u32, grid_x: u32, in_offset: u32, in_stride: u32, in_dist: u32, out_offset: u32, out_stride: u32, out_dist: u32 }
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(5) var<storage, read> rtw: array<vec2<f32>>;
${usesAux ? '@group(0) @binding(6) var<storage, read> aux: array<vec2<f32>>;' : ''}
${custom?.wr ?? 'fn wr(base: u32, k: u32, v: vec2<f32>) { dst[base + k * params.out_stride] = v; }'}
${custom?.wr && custom.wrq ? custom.wrq : ''}
${custom?.outHelpers ?? ''}
fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
${R2C_OUT_WGSL}
fn post(a: vec2<f32>, y: vec2<f32>, k: u32) -> vec2<f32> { return r2cOut(a, vec2<f32>(y.x, -y.y), rtw[k])${sc}; }
@compute @workgroup_size(${R2C_POST_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let id = (wid.x + wid.y * params.grid_x) * ${R2C_POST_WORKGROUP}u + lid;
  if (id >= params.batch) { return; }
  let b = id / ${pairs}u;
  let k = id % ${pairs}u;
  let ib = params.in_offset + b * params.in_dist;
  let ob = params.out_offset + b * params.out_dist;
  let zk = src[ib + (k % ${M}u) * params.in_stride];
  let zm = src[ib + ((${M}u - k) % ${M}u) * params.in_stride];
  wr(ob, k, post(zk, zm, k));
  if (k != ${M}u - k) {
    wr(ob, ${M}u - k, post(zm, zk, ${M}u - k));
  }
}
`;
  const bindings: FftKernelSource['bindings'] = ['src', 'dst', 'params', 'real'];
  if (usesAux) bindings.push('aux');
  return {
    name: `r2c-post${n}`,
    key: stableKey({ k: 'r2c-post', n, scale, custom: custom?.key ?? null }),
    wgsl,
    entryPoint: 'main',
    bindings,
  };
}
