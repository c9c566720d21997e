/**
 * Which FFT the CPU families build on: the float64 reference (planCpuFft's mixed radix / Bluestein,
 * the oracle every result is checked against) or the WebAssembly SIMD engine in a given precision.
 *
 * The public API runs each CPU call inside `onCpuEngine(precision, …)`; everything it reaches
 * synchronously (N-D drivers, real FFTs, DCT/DST/DHT adapters, convolution, the sparse FFT's dense
 * steps) then plans on the engine, while direct calls outside a scope (tests, the GPU paths' host-side
 * helpers) keep the reference. Plans cached by the adapters include `cpuFftScopeKey()` in their keys.
 */
import type { CpuPrecision } from '../../planner/cpu-fft.js';

let current: CpuPrecision | null = null;

export function cpuEnginePrecision(): CpuPrecision | null {
  return current;
}

/** Cache-key prefix naming the FFT that plans made now are built on. */
export function cpuFftScopeKey(): string {
  return current ?? 'ref';
}

/** Runs a synchronous CPU computation with every FFT it plans on the engine in `precision`. */
export function onCpuEngine<T>(precision: CpuPrecision, fn: () => T): T {
  const prev = current;
  current = precision;
  try {
    return fn();
  } finally {
    current = prev;
  }
}
