/**
 * FFT convolution on WebGPU through grid convolutions: one batched grid pass over whole padded slices, or
 * overlap-add over blocks of them where a padded row or column does not fit the workgroup memory. The
 * planner (planner/convolve.ts) chooses the method, grid and block sizes; this runs them.
 */
import { nextFastLen } from '../../planner/convolve.js';
import { createStorageBuffer, readBuffer, type GpuContext } from './device.js';
import { GridConvolver } from './convolve-grid.js';

/**
 * The batched operand x (count slices of Hx×Wx) and the kernels (kernels slices of Hk×Wk), interleaved
 * complex float32; slice s uses kernel ⌊s / comps⌋ mod kernels.
 */
export interface GpuConvOperands {
  x: Float32Array;
  count: number;
  Hx: number;
  Wx: number;
  k: Float32Array;
  kernels: number;
  Hk: number;
  Wk: number;
}

/** The output window of the full convolution kept (rows r0…, columns c0…, Ho × Wo). */
export interface Crop {
  r0: number;
  c0: number;
  Ho: number;
  Wo: number;
}

/**
 * Batched FFT convolution on a P×Q grid: spectra of the kernels (a forward-only grid plan), then one
 * grid convolution whose slice s uses spectrum ⌊s / comps⌋ mod kernels. All on the device.
 */
export async function gridConvolveGpu(
  ctx: GpuContext,
  o: GpuConvOperands,
  P: number,
  Q: number,
  crop: Crop,
  comps: number,
): Promise<Float32Array> {
  const { x, count, Hx, Wx, k, kernels, Hk, Wk } = o;
  const spec = await GridConvolver.create(
    ctx,
    { P, Q, inRows: Hk, inCols: Wk, outRow0: 0, outCol0: 0, outRows: P, outCols: Q, inverse: false },
    kernels,
  );
  let conv: GridConvolver;
  try {
    conv = await GridConvolver.create(
      ctx,
      {
        P,
        Q,
        inRows: Hx,
        inCols: Wx,
        outRow0: crop.r0,
        outCol0: crop.c0,
        outRows: crop.Ho,
        outCols: crop.Wo,
        inverse: true,
      },
      count,
      { comps, layers: kernels },
    );
  } catch (e) {
    spec.destroy(); // 'auto' falls back to the CPU after this error: release what was made
    throw e;
  }
  const n = count * crop.Ho * crop.Wo;
  const bufs: GPUBuffer[] = [];
  try {
    const kb = createStorageBuffer(ctx, k, 'conv kernel');
    bufs.push(kb);
    const sb = createStorageBuffer(ctx, kernels * P * Q * 8, 'conv spectra');
    bufs.push(sb);
    const xb = createStorageBuffer(ctx, x, 'conv x');
    bufs.push(xb);
    const yb = createStorageBuffer(ctx, new Float32Array(2 * n).fill(NaN), 'conv y');
    bufs.push(yb);
    await ctx.checked('fftconvolve', () => {
      const enc = ctx.device.createCommandEncoder();
      spec.encode(enc, kb, sb);
      conv.encode(enc, xb, yb, sb);
      ctx.device.queue.submit([enc.finish()]);
    });
    return new Float32Array(await readBuffer(ctx, yb, 0, 8 * n));
  } finally {
    for (const b of bufs) b.destroy();
    spec.destroy();
    conv.destroy();
  }
}

/**
 * Overlap-add on WebGPU: x's slices are cut into Lr×Lc blocks (planGpuConvolution) on the host, every
 * block of every slice is one slice of a batched grid convolution (full mode, grid P×Q fitting the workgroup memory), and the
 * block results are added back at their offsets on the host before the mode's crop.
 */
export async function overlapAddGpu(
  ctx: GpuContext,
  o: GpuConvOperands,
  crop: Crop,
  Lr: number,
  Lc: number,
): Promise<Float32Array> {
  const { x, count, Hx, Wx, Hk, Wk } = o;
  const br = Math.ceil(Hx / Lr);
  const bc = Math.ceil(Wx / Lc);
  const nb = br * bc;
  const blocks = new Float32Array(2 * count * nb * Lr * Lc);
  for (let s = 0; s < count; s++) {
    for (let bi = 0; bi < br; bi++) {
      for (let bj = 0; bj < bc; bj++) {
        const base = (s * nb + bi * bc + bj) * Lr * Lc;
        for (let r = 0; r < Lr && bi * Lr + r < Hx; r++) {
          const src = (s * Hx + bi * Lr + r) * Wx + bj * Lc;
          const len = Math.min(Lc, Wx - bj * Lc);
          blocks.set(x.subarray(2 * src, 2 * (src + len)), 2 * (base + r * Lc));
        }
      }
    }
  }
  const Fr = Lr + Hk - 1;
  const Fc = Lc + Wk - 1;
  const part = await gridConvolveGpu(
    ctx,
    { ...o, x: blocks, count: count * nb, Hx: Lr, Wx: Lc },
    nextFastLen(Fr),
    nextFastLen(Fc),
    { r0: 0, c0: 0, Ho: Fr, Wo: Fc },
    nb,
  );
  const FH = Hx + Hk - 1;
  const FW = Wx + Wk - 1;
  const out = new Float32Array(2 * count * crop.Ho * crop.Wo);
  const full = new Float64Array(2 * FH * FW);
  for (let s = 0; s < count; s++) {
    full.fill(0);
    for (let bi = 0; bi < br; bi++) {
      for (let bj = 0; bj < bc; bj++) {
        const base = (s * nb + bi * bc + bj) * Fr * Fc;
        for (let r = 0; r < Fr && bi * Lr + r < FH; r++) {
          const dst = (bi * Lr + r) * FW + bj * Lc;
          const len = Math.min(Fc, FW - bj * Lc);
          for (let c = 0; c < len; c++) {
            full[2 * (dst + c)] += part[2 * (base + r * Fc + c)];
            full[2 * (dst + c) + 1] += part[2 * (base + r * Fc + c) + 1];
          }
        }
      }
    }
    for (let r = 0; r < crop.Ho; r++) {
      for (let c = 0; c < crop.Wo; c++) {
        const src = (crop.r0 + r) * FW + crop.c0 + c;
        const dst = (s * crop.Ho + r) * crop.Wo + c;
        out[2 * dst] = full[2 * src];
        out[2 * dst + 1] = full[2 * src + 1];
      }
    }
  }
  return out;
}
