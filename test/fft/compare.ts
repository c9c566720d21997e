/**
 * Shared by the WebGPU C2C test files: runs a problem on the GPU into a NaN-poisoned buffer (so an element
 * the kernel fails to write cannot pass) and on the CPU backend in float64, and returns the relative error.
 */
import { createFftPlan } from '../../src/api/fft.js';
import { WebGpuFft } from '../../src/backends/webgpu/fft.js';
import { createStorageBuffer, readBuffer, type GpuContext } from '../../src/backends/webgpu/device.js';
import { fftProblem, layoutSpan, type FftProblemInit } from '../../src/planner/fft-problem.js';
import type { FftTuning } from '../../src/planner/fft-webgpu.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';

export const bound = (n: number) => 1e-6 * Math.max(1, Math.log2(n));

/** Runs `init` on the GPU into a NaN-poisoned buffer and on the CPU in float64; returns the error. */
export async function compare(
  ctx: GpuContext,
  init: FftProblemInit,
  seed: number,
  opts: { inPlace?: boolean; plan?: FftTuning } = {},
): Promise<number> {
  const p = fftProblem(init);
  const inLen = 2 * layoutSpan(p.input, p.n, p.batch);
  const outLen = 2 * layoutSpan(p.output, p.n, p.batch);
  const x = randomFloat32(inLen, seed);
  const plan = await WebGpuFft.create(ctx, p, { tuning: opts.plan, inPlace: opts.inPlace });
  const src = createStorageBuffer(ctx, x);
  const dst = opts.inPlace ? src : createStorageBuffer(ctx, new Float32Array(outLen).fill(NaN));
  await plan.execute(src, dst);
  const got = new Float32Array(await readBuffer(ctx, dst, 0, outLen * 4));
  src.destroy();
  if (dst !== src) dst.destroy();
  plan.destroy();
  const cpu = await createFftPlan({ ...init, backend: 'cpu' });
  const ref = await cpu.execute(Float64Array.from(x));
  // Compare only the elements the output layout covers (typed arrays: the 2^20-point cases hold millions).
  const a = new Float64Array(2 * p.n * p.batch);
  const r = new Float64Array(a.length);
  let i = 0;
  for (let b = 0; b < p.batch; b++) {
    for (let e = 0; e < p.n; e++, i += 2) {
      const at = 2 * (p.output.offset + b * p.output.dist + e * p.output.stride);
      a[i] = got[at];
      a[i + 1] = got[at + 1];
      r[i] = ref[at];
      r[i + 1] = ref[at + 1];
    }
  }
  return relativeL2(a, r);
}
