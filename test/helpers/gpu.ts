/**
 * The GPU context tests share. When CI is set and no adapter can be obtained the tests fail (never skip):
 * a CI run that silently skipped the WebGPU kernels would prove nothing.
 */
import { defaultGpuContext, type GpuContext } from '../../src/backends/webgpu/device.js';

let ctx: Promise<GpuContext | null> | null = null;

export async function testGpu(): Promise<GpuContext | null> {
  if (!ctx) {
    ctx = defaultGpuContext().catch((e: unknown) => {
      if (process.env.CI) throw new Error(`CI is set but no WebGPU adapter could be obtained: ${String(e)}`);
      console.warn(`WebGPU unavailable, GPU tests skipped: ${String(e)}`);
      return null;
    });
  }
  return ctx;
}
