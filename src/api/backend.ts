/**
 * How every public entry point picks its backend, in one place: 'cpu' runs the float64 backend;
 * 'webgpu' runs on the given (or shared default) GPU context and never falls back; 'auto' uses the GPU
 * when an adapter exists and falls back to the CPU when none does, or when the GPU path cannot take the
 * problem (device limits, unsupported cases) — never on errors about the caller's arguments.
 */
import { ArgumentError, ButterflyError } from '../errors.js';
import { defaultGpuContext, type GpuContext } from '../backends/webgpu/device.js';

export type BackendChoice = 'auto' | 'webgpu' | 'cpu';

export function checkBackend(backend: unknown): BackendChoice {
  if (backend !== 'auto' && backend !== 'webgpu' && backend !== 'cpu') throw new ArgumentError('backend', backend, "'auto', 'webgpu' or 'cpu'");
  return backend;
}

/** The GPU context to run on, or null when the CPU backend should run. */
export async function gpuFor(backend: BackendChoice, given?: GpuContext): Promise<GpuContext | null> {
  if (backend === 'cpu') return null;
  if (given) return given;
  try {
    return await defaultGpuContext();
  } catch (e) {
    if (backend === 'webgpu') throw e;
    return null;
  }
}

/** Whether a GPU-path failure lets 'auto' run the CPU backend instead. */
export function fallsBack(e: unknown, backend: BackendChoice): boolean {
  return backend === 'auto' && e instanceof ButterflyError && !(e instanceof ArgumentError);
}
