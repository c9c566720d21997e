/**
 * DCT / DST / DHT on WebGPU: each axis is one FFT plan carrying the adapter's hooks (see
 * codegen/r2r-hooks.ts), so a transform costs the FFT's own passes and nothing more. N-D transforms chain
 * one such plan per axis through device buffers. planR2r (src/planner/r2r.ts) makes every choice.
 */
import { planR2r, type R2rDescriptor } from '../../planner/r2r.js';
import { r2rHooks } from '../../codegen/r2r-hooks.js';
import { WebGpuFft } from './fft.js';
import type { GpuContext } from './device.js';
import { PlanChain } from './plan-chain.js';

export class WebGpuR2r {
  private constructor(
    readonly shape: number[],
    private readonly chain: PlanChain,
  ) {}

  static async create(ctx: GpuContext, d: R2rDescriptor): Promise<WebGpuR2r> {
    const { shape, steps: planned } = planR2r(d);
    const steps: WebGpuFft[] = [];
    try {
      for (const step of planned) {
        const { io } = r2rHooks(step.kind, step.n, step.scale, step.pre, step.post);
        steps.push(
          await WebGpuFft.create(ctx, step.problem, { ...step.options, custom: { ...step.options.custom, io } }),
        );
      }
    } catch (e) {
      for (const s of steps) s.destroy();
      throw e;
    }
    const bytes = 4 * shape.reduce((x, y) => x * y, 1);
    return new WebGpuR2r(
      shape,
      new PlanChain(
        ctx,
        steps.map((plan) => ({ plan, inBytes: bytes, outBytes: bytes })),
        'r2r',
      ),
    );
  }

  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void {
    this.chain.encode(encoder, src, dst);
  }

  /** The FFT plan of each transformed axis, in the order they run (benchmarks time their kernels). */
  get axisPlans(): WebGpuFft[] {
    return this.chain.plans as WebGpuFft[];
  }

  execute(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    return this.chain.execute(src, dst);
  }

  run(input: Float32Array): Promise<Float32Array> {
    return this.chain.run(input, `shape [${this.shape.join(', ')}], real`);
  }

  destroy(): void {
    this.chain.destroy();
  }
}

export { r2rSpec, type R2rDescriptor, type R2rFamily, type R2rNorm } from '../../planner/r2r.js';
