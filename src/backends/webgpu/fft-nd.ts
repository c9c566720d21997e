/**
 * N-D FFTs on WebGPU: a sequence of batched 1-D plans, one per axis (src/planner/fft-nd.ts lists them),
 * chained through device buffers (no host round trip). The first candidate of each step that plans is run.
 */
import { WebGpuFft } from './fft.js';
import type { GpuContext } from './device.js';
import { PlanChain, type ChainStep } from './plan-chain.js';
import { fftNdFallsBack, planFftNd, type FftNdDescriptor, type FftNdKind } from '../../planner/fft-nd.js';

export type { FftNdDescriptor, FftNdKind } from '../../planner/fft-nd.js';

type Step = ChainStep & { plan: WebGpuFft };

export class WebGpuFftNd {
  private constructor(
    readonly kind: FftNdKind,
    readonly inShape: number[],
    readonly outShape: number[],
    private readonly chain: PlanChain,
  ) {}

  static async create(ctx: GpuContext, d: FftNdDescriptor): Promise<WebGpuFftNd> {
    const nd = planFftNd(d);
    const steps: Step[] = [];
    try {
      for (const step of nd.steps) {
        let plan: WebGpuFft | null = null;
        for (const [i, c] of step.candidates.entries()) {
          if (plan) break;
          const last = i === step.candidates.length - 1;
          plan = await WebGpuFft.create(ctx, c.problem, c.options).catch((e: unknown) => {
            if (!last && fftNdFallsBack(e)) return null;
            throw e;
          });
        }
        steps.push({ plan: plan!, inBytes: step.inBytes, outBytes: step.outBytes });
      }
    } catch (e) {
      for (const s of steps) s.plan.destroy();
      throw e;
    }
    return new WebGpuFftNd(nd.kind, nd.inShape, nd.outShape, new PlanChain(ctx, steps, 'fftn'));
  }

  /** Bytes of the input and output buffers (f32 for real arrays, complex64 otherwise). */
  get inputBytes(): number {
    return this.chain.inputBytes;
  }

  get outputBytes(): number {
    return this.chain.outputBytes;
  }

  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void {
    this.chain.encode(encoder, src, dst);
  }

  execute(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    return this.chain.execute(src, dst);
  }

  /** Typed array in (f32: real or interleaved complex), typed array out. */
  run(input: Float32Array): Promise<Float32Array> {
    return this.chain.run(
      input,
      `shape [${this.inShape.join(', ')}], ${this.kind === 'r2c' ? 'real' : 'complex, interleaved'}`,
    );
  }

  destroy(): void {
    this.chain.destroy();
  }
}
