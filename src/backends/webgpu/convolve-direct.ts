/**
 * Direct (sliding-window) convolution on WebGPU for rank ≤ 2, batched: one invocation per output
 * element, summing over the kernel points that overlap the input. Complex f32 accumulation.
 * Used by method 'direct' and by 'auto' for small kernels (see api/convolve.ts for the cost model).
 *
 * Layout: x [batch][H1][W1], k [kb][H2][W2] (kb = 1 shared or = batch), y [batch][Ho][Wo]; y covers rows
 * [r0, r0 + Ho) and columns [c0, c0 + Wo) of the full convolution.
 */
import { getPipeline } from './pipelines.js';
import { dispatchGrid } from '../../planner/dispatch.js';
import { stableKey } from '../../codegen/kernel-source.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';

export interface DirectGeometry {
  H1: number;
  W1: number;
  H2: number;
  W2: number;
  r0: number;
  c0: number;
  Ho: number;
  Wo: number;
}

const WG = 64;

function source(perSliceKernel: boolean) {
  const wgsl = `
struct Params { batch: u32, grid_x: u32, H1: u32, W1: u32, H2: u32, W2: u32, r0: u32, c0: u32, Ho: u32, Wo: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<storage, read> x: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read> k: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read_write> y: array<vec2<f32>>;
@group(0) @binding(3) var<uniform> p: Params;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let g = (wid.x + wid.y * p.grid_x) * ${WG}u + lid;
  let per = p.Ho * p.Wo;
  if (g >= p.batch * per) { return; }
  let s = g / per;
  let o = g % per;
  // full-convolution coordinates of this output
  let fr = i32(o / p.Wo + p.r0);
  let fc = i32(o % p.Wo + p.c0);
  let xb = s * p.H1 * p.W1;
  let kb = ${perSliceKernel ? 's * p.H2 * p.W2' : '0u'};
  // kernel rows i with 0 ≤ fr − i < H1
  let i0 = max(0, fr - i32(p.H1) + 1);
  let i1 = min(i32(p.H2) - 1, fr);
  let j0 = max(0, fc - i32(p.W1) + 1);
  let j1 = min(i32(p.W2) - 1, fc);
  var acc = vec2<f32>(0.0, 0.0);
  for (var i = i0; i <= i1; i++) {
    let xr = xb + u32(fr - i) * p.W1;
    let kr = kb + u32(i) * p.W2;
    for (var j = j0; j <= j1; j++) {
      let a = x[xr + u32(fc - j)];
      let b = k[kr + u32(j)];
      acc += vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
    }
  }
  y[g] = acc;
}`;
  return { name: 'conv-direct', key: stableKey({ k: 'conv-direct', perSliceKernel, WG }), wgsl, entryPoint: 'main' };
}

/** Runs a batched direct convolution of complex f32 data (host round trip). */
export async function directConvolveGpu(
  ctx: GpuContext,
  g: DirectGeometry,
  batch: number,
  kernels: number,
  x: Float32Array,
  k: Float32Array,
): Promise<Float32Array> {
  const pipeline = await getPipeline(ctx, source(kernels > 1));
  const count = batch * g.Ho * g.Wo;
  const grid = dispatchGrid(Math.ceil(count / WG), ctx.limits.maxComputeWorkgroupsPerDimension);
  const xb = createStorageBuffer(ctx, x, 'direct x');
  const kb = createStorageBuffer(ctx, k, 'direct k');
  const yb = createStorageBuffer(ctx, new Float32Array(2 * count).fill(NaN), 'direct y');
  const params = ctx.device.createBuffer({ size: 48, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  ctx.device.queue.writeBuffer(
    params,
    0,
    new Uint32Array([batch, grid[0], g.H1, g.W1, g.H2, g.W2, g.r0, g.c0, g.Ho, g.Wo, 0, 0]),
  );
  try {
    await ctx.checked('direct convolution', () => {
      const bg = ctx.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [xb, kb, yb, params].map((buffer, binding) => ({ binding, resource: { buffer } })),
      });
      const enc = ctx.device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bg);
      pass.dispatchWorkgroups(grid[0], grid[1]);
      pass.end();
      ctx.device.queue.submit([enc.finish()]);
    });
    return new Float32Array(await readBuffer(ctx, yb, 0, 8 * count));
  } finally {
    for (const b of [xb, kb, yb, params]) b.destroy();
  }
}
