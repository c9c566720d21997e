/**
 * Compute-pipeline cache. A kernel is identified by its WGSL source's cache key: the stable
 * serialisation of exactly the inputs the generator read (never a GPU object, never per-call sizes,
 * which travel in uniforms). Pipelines are cached per device, so a replaced device rebuilds them.
 */
import type { GpuContext } from './device.js';
import { DeviceError } from '../../errors.js';
import type { KernelSource } from '../../codegen/kernel-source.js';

const caches = new WeakMap<GPUDevice, Map<string, Promise<GPUComputePipeline>>>();

/**
 * Compiles (once per device and key) and returns the pipeline. WGSL compile errors are reported with the
 * kernel's name and the compiler's messages, since they are bugs of ours, not of the caller.
 */
export function getPipeline(ctx: GpuContext, src: KernelSource): Promise<GPUComputePipeline> {
  ctx.assertUsable(src.name);
  let cache = caches.get(ctx.device);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.device, cache);
  }
  const hit = cache.get(src.key);
  if (hit) return hit;
  const p = compile(ctx, src);
  cache.set(src.key, p);
  p.catch(() => cache!.delete(src.key));
  return p;
}

async function compile(ctx: GpuContext, src: KernelSource): Promise<GPUComputePipeline> {
  const d = ctx.device;
  d.pushErrorScope('validation');
  const module = d.createShaderModule({ code: src.wgsl, label: src.name });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  const pipeline = await d
    .createComputePipelineAsync({ layout: 'auto', label: src.name, compute: { module, entryPoint: src.entryPoint } })
    .catch((e: unknown) => e as Error);
  const scopeError = await d.popErrorScope();
  if (errors.length > 0 || pipeline instanceof Error || scopeError) {
    const msgs = errors.map((m) => `  line ${m.lineNum}:${m.linePos}: ${m.message}`).join('\n');
    const detail = pipeline instanceof Error ? pipeline.message : (scopeError?.message ?? '');
    throw new DeviceError(`kernel ${src.name} failed to compile:\n${msgs}\n${detail}`);
  }
  return pipeline;
}

/** Number of cached pipelines on a device (for tests of cache keys and resource hygiene). */
export function pipelineCacheSize(ctx: GpuContext): number {
  return caches.get(ctx.device)?.size ?? 0;
}
