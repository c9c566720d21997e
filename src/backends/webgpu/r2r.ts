/**
 * DCT / DST / DHT on WebGPU: each axis is one FFT plan carrying the adapter's hooks (see
 * codegen/r2r-hooks.ts), so a transform costs the FFT's own passes and nothing more. N-D transforms chain
 * one such plan per axis through device buffers.
 */
import { ArgumentError } from '../../errors.js';
import { fftProblem, MAX_TYPED_ARRAY_LENGTH } from '../../planner/fft-problem.js';
import type { FftTuning } from '../../planner/fft-webgpu.js';
import { r2rHooks, type R2rKind } from '../../codegen/r2r-hooks.js';
import { WebGpuFft } from './fft.js';
import { normalizeAxes } from '../../planner/fft-nd.js';
import type { GpuContext } from './device.js';
import { PlanChain } from './plan-chain.js';

export type R2rFamily = 'dct' | 'dst' | 'dht';
export type R2rNorm = 'backward' | 'ortho' | 'forward';

export interface R2rDescriptor {
  family: R2rFamily;
  /** 1–4 for DCT/DST (ignored by the DHT). */
  type?: number;
  inverse?: boolean;
  norm?: R2rNorm;
  /** scipy's orthogonalize (default: norm === 'ortho'); not used by the DHT. */
  orthogonalize?: boolean;
  shape: readonly number[];
  axes?: readonly number[];
  /** Planner options for the underlying FFTs (benchmarks and tests explore variants with it). */
  /** Experimental planner overrides (see FftTuning). */
  tuning?: FftTuning;
}

const INVERSE_TYPE: Record<number, number> = { 1: 1, 2: 3, 3: 2, 4: 4 };
const SQ2 = Math.SQRT2;

interface R2rSpec {
  kind: R2rKind;
  minN: number;
  denom: (n: number) => number;
  pre: (n: number) => [number, number][];
  post: (n: number) => [number, number][];
}

/** scipy's unnormalised kernels, denominators and orthogonalize corner factors. */
export function r2rSpec(family: R2rFamily, type: number): R2rSpec {
  const none = () => [] as [number, number][];
  if (family === 'dht') return { kind: 'dht', minN: 1, denom: (n) => n, pre: none, post: none };
  if (family === 'dct') {
    switch (type) {
      case 1:
        return {
          kind: 'dct1',
          minN: 2,
          denom: (n) => 2 * (n - 1),
          pre: (n) => [
            [0, SQ2],
            [n - 1, SQ2],
          ],
          post: (n) => [
            [0, 1 / SQ2],
            [n - 1, 1 / SQ2],
          ],
        };
      case 2:
        return { kind: 'dct2', minN: 1, denom: (n) => 2 * n, pre: none, post: () => [[0, 1 / SQ2]] };
      case 3:
        return { kind: 'dct3', minN: 1, denom: (n) => 2 * n, pre: () => [[0, SQ2]], post: none };
      case 4:
        return { kind: 'dct4', minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  } else {
    switch (type) {
      case 1:
        return { kind: 'dst1', minN: 1, denom: (n) => 2 * (n + 1), pre: none, post: none };
      case 2:
        return { kind: 'dst2', minN: 1, denom: (n) => 2 * n, pre: none, post: (n) => [[n - 1, 1 / SQ2]] };
      case 3:
        return { kind: 'dst3', minN: 1, denom: (n) => 2 * n, pre: (n) => [[n - 1, SQ2]], post: none };
      case 4:
        return { kind: 'dst4', minN: 1, denom: (n) => 2 * n, pre: none, post: none };
    }
  }
  throw new ArgumentError('type', type, 'a transform type 1, 2, 3 or 4');
}

function overallScale(norm: R2rNorm, denom: number, inverse: boolean): number {
  if (norm === 'ortho') return 1 / Math.sqrt(denom);
  if (norm === 'backward') return inverse ? 1 / denom : 1;
  return inverse ? 1 : 1 / denom;
}

export class WebGpuR2r {
  private constructor(
    readonly shape: number[],
    private readonly chain: PlanChain,
  ) {}

  static async create(ctx: GpuContext, d: R2rDescriptor): Promise<WebGpuR2r> {
    const shape = [...d.shape];
    if (shape.length === 0 || !shape.every((v) => Number.isSafeInteger(v) && v >= 1)) {
      throw new ArgumentError('shape', d.shape, 'a non-empty array of positive integers');
    }
    const elements = shape.reduce((x, y) => x * y, 1);
    if (!(elements <= MAX_TYPED_ARRAY_LENGTH))
      throw new ArgumentError('shape', d.shape, `at most 2^32 elements in all (here ${elements})`);
    const inverse = d.inverse ?? false;
    const type = d.family === 'dht' ? 0 : (d.type ?? 2);
    if (d.family !== 'dht' && ![1, 2, 3, 4].includes(type))
      throw new ArgumentError('type', d.type, 'a transform type 1, 2, 3 or 4');
    const norm = d.norm ?? 'backward';
    if (!['backward', 'ortho', 'forward'].includes(norm))
      throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
    const orth = d.family !== 'dht' && (d.orthogonalize ?? norm === 'ortho');
    // The inverse of type t is the forward kernel of type INVERSE_TYPE[t] with the inverse scaling.
    const spec = r2rSpec(d.family, inverse && d.family !== 'dht' ? INVERSE_TYPE[type] : type);
    const axes = normalizeAxes(d.axes, shape.length, true);
    const steps: WebGpuFft[] = [];
    try {
      for (const a of [...axes].reverse()) {
        const n = shape[a];
        if (n < spec.minN)
          throw new ArgumentError(
            'n',
            n,
            `≥ ${spec.minN} along axis ${a} for ${d.family.toUpperCase()} type ${type || ''}`.trim(),
          );
        const hooks = r2rHooks(
          spec.kind,
          n,
          overallScale(norm, spec.denom(n), inverse),
          orth ? spec.pre(n) : [],
          orth ? spec.post(n) : [],
        );
        const inner = shape.slice(a + 1).reduce((x, y) => x * y, 1);
        const outer = shape.slice(0, a).reduce((x, y) => x * y, 1);
        const layout = inner === 1 ? { stride: 1, dist: n } : { stride: inner, dist: 1 };
        const problem = fftProblem({
          n: hooks.fftLength,
          batch: inner === 1 ? outer : inner,
          direction: hooks.direction,
          input: layout,
          output: layout,
        });
        steps.push(
          await WebGpuFft.create(ctx, problem, {
            tuning: d.tuning,
            real: hooks.real,
            // Multi-pass: the post-processing fused into the last pass for the DHT and for the hooks that take their
            // quarter-root twiddles from the pass (wrq: DCT-II, DST-II), where it measured faster (docs/DECISIONS.md: fusedPost).
            custom: {
              io: hooks.io,
              inCount: n,
              outCount: n,
              inElem: 4,
              outElem: 4,
              fusedPost: spec.kind === 'dht' || !!hooks.io.wrq,
            },
            ...(inner !== 1 && outer > 1 ? { outer: { count: outer, inDist: n * inner, outDist: n * inner } } : {}),
          }),
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
