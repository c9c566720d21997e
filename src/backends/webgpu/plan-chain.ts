/**
 * A sequence of WebGPU plans run back to back on the device (the axes of an N-D transform): step k reads
 * the previous step's output, intermediates ping-pong between two scratch buffers, the last step writes
 * the destination. Shared by the N-D FFT and the N-D real-to-real transforms.
 */
import { ArgumentError, DestroyedError } from '../../errors.js';
import { checkReadback, createStorageBuffer, readBuffer, type GpuContext } from './device.js';

export interface ChainStep {
  plan: { encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void; destroy(): void };
  inBytes: number;
  outBytes: number;
}

export class PlanChain {
  private destroyed = false;
  /** Intermediates between steps, created at the first encode (a refused run allocates nothing). */
  private scratch: [GPUBuffer | null, GPUBuffer | null] = [null, null];

  constructor(
    readonly ctx: GpuContext,
    private readonly steps: ChainStep[],
    private readonly label: string,
  ) {}

  private ensureScratch(): void {
    const K = this.steps.length;
    if (K < 2 || this.scratch[0]) return;
    const mid = Math.max(16, ...this.steps.slice(0, -1).map((s) => s.outBytes));
    const usage = GPUBufferUsage.STORAGE;
    this.scratch = [
      this.ctx.device.createBuffer({ size: mid, usage, label: `${this.label}-scratch0` }),
      K > 2 ? this.ctx.device.createBuffer({ size: mid, usage, label: `${this.label}-scratch1` }) : null,
    ];
  }

  get inputBytes(): number {
    return this.steps[0].inBytes;
  }

  get outputBytes(): number {
    return this.steps[this.steps.length - 1].outBytes;
  }

  /** The steps' plans, in order (benchmarks time them one by one). */
  get plans(): ChainStep['plan'][] {
    return this.steps.map((s) => s.plan);
  }

  encode(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): void {
    if (this.destroyed) throw new DestroyedError(`${this.label} plan was destroyed`);
    if (src === dst) throw new ArgumentError('dst', 'the source buffer', 'a different buffer');
    this.ctx.assertUsable(this.label);
    this.ctx.checkEncoder('encoder', encoder);
    this.ctx.checkBuffer('src', src, this.inputBytes);
    this.ctx.checkBuffer('dst', dst, this.outputBytes);
    this.ensureScratch();
    const K = this.steps.length;
    this.steps.forEach((s, k) =>
      s.plan.encode(encoder, k === 0 ? src : this.scratch[(k - 1) % 2]!, k === K - 1 ? dst : this.scratch[k % 2]!),
    );
  }

  /** Encodes, submits and waits; WebGPU errors surface as DeviceError. */
  async execute(src: GPUBuffer, dst: GPUBuffer): Promise<void> {
    await this.ctx.checked(this.label, () => {
      const enc = this.ctx.device.createCommandEncoder();
      this.encode(enc, src, dst);
      this.ctx.device.queue.submit([enc.finish()]);
    });
    await this.ctx.device.queue.onSubmittedWorkDone();
  }

  /** Typed array in, typed array out (`describe` names the expected input in errors). */
  async run(input: Float32Array, describe: string): Promise<Float32Array> {
    if (this.destroyed) throw new DestroyedError(`${this.label} plan was destroyed`);
    const need = this.inputBytes / 4;
    checkReadback(this.outputBytes, `the ${this.label} result of ${this.outputBytes} bytes for input ${describe}`);
    if (input.length !== need) throw new ArgumentError('input', input, `${need} float32 values (${describe})`);
    const src = createStorageBuffer(this.ctx, input, `${this.label}-input`);
    const dst = createStorageBuffer(this.ctx, this.outputBytes, `${this.label}-output`);
    try {
      await this.execute(src, dst);
      return new Float32Array(await readBuffer(this.ctx, dst, 0, this.outputBytes));
    } finally {
      src.destroy();
      dst.destroy();
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const s of this.steps) s.plan.destroy();
    for (const b of this.scratch) b?.destroy();
  }
}
