/**
 * How every public entry point picks its backend, in one place: 'cpu' runs the CPU engine;
 * 'webgpu' runs on the given (or shared default) GPU context and never falls back; 'auto' uses the GPU
 * when a hardware adapter exists (or a context is given) and the CPU engine when none does, when the
 * only adapter is a software rasteriser, or when the GPU path cannot take the problem (device limits,
 * unsupported cases) — never on errors about the caller's arguments.
 */
import { ArgumentError, ButterflyError } from '../errors.js';
import { defaultGpuContext, hardwareAdapterAvailable, type GpuContext } from '../backends/webgpu/device.js';

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';

export function checkBackend(backend: unknown): BackendChoice {
  if (backend !== 'auto' && backend !== 'webgpu' && backend !== 'cpu')
    throw new ArgumentError('backend', backend, "'auto', 'webgpu' or 'cpu'");
  return backend;
}

/**
 * The GPU context to run on, or null when the CPU backend should run: at once where that is already known
 * ('cpu', a given context, or 'auto' settled below), else a promise.
 */
export function gpuFor(backend: BackendChoice, given?: GpuContext): GpuContext | null | Promise<GpuContext | null> {
  if (backend === 'cpu') return null;
  if (given) return given;
  return backend === 'auto' ? autoGpu() : defaultGpuContext();
}

/**
 * 'auto''s choice of the shared context, settled once per process: the CPU engine (null) when there is no adapter
 * or only a software one, else the hardware context, sought again only once lost or destroyed. Asking again on
 * every call cost each one-shot call a new adapter request where there is none (150 µs for a 64-point fft).
 */
let autoChoice: GpuContext | null | undefined;
let autoPending: Promise<GpuContext | null> | null = null;

function autoGpu(): GpuContext | null | Promise<GpuContext | null> {
  if (autoChoice === null) return null;
  if (autoChoice && !autoChoice.isLost && !autoChoice.isDestroyed) return autoChoice;
  return (autoPending ??= (async () => {
    try {
      // A software adapter (llvmpipe, SwiftShader, WARP) is slower than the CPU engine at every size, so
      // 'auto' never chooses it (nor creates its device); 'webgpu' (or an explicit context) still runs there.
      const ctx = (await hardwareAdapterAvailable()) ? await defaultGpuContext() : null;
      autoChoice = ctx && !ctx.adapter.software ? ctx : null;
    } catch {
      autoChoice = null;
    } finally {
      autoPending = null;
    }
    return autoChoice;
  })());
}

/** Whether 'auto' is known to run on the CPU engine with no context given (one-shot calls' synchronous path). */
export function autoSettledOnCpu(backend: BackendChoice | undefined, given: GpuContext | undefined): boolean {
  return backend === 'cpu' || (given === undefined && (backend ?? 'auto') === 'auto' && autoChoice === null);
}

/** Whether a GPU-path failure lets 'auto' run the CPU backend instead. */
export function fallsBack(e: unknown, backend: BackendChoice): boolean {
  return backend === 'auto' && e instanceof ButterflyError && !(e instanceof ArgumentError);
}

/** What 'auto' picks on this machine and why (for `butterfly info`). */
export async function describeAuto(): Promise<{ engine: 'webgpu' | 'cpu'; reason: string }> {
  try {
    const ctx = await defaultGpuContext();
    const name = ctx.adapter.device || ctx.adapter.description || ctx.adapter.vendor;
    if (ctx.adapter.software)
      return { engine: 'cpu', reason: `the only adapter is a software rasteriser (${name}); the CPU engine is faster` };
    return { engine: 'webgpu', reason: `hardware adapter ${name} (${ctx.adapter.backend})` };
  } catch (e) {
    return { engine: 'cpu', reason: `no WebGPU adapter: ${(e as Error).message}` };
  }
}
