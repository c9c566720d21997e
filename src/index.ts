/** Butterfly: index-digit GPU algorithms on WebGPU, with a float64 CPU backend. */
export * from './errors.js';
export { acquireGpu, defaultGpuContext, readBuffer, createStorageBuffer, GpuContext } from './backends/webgpu/device.js';
export type { AcquireOptions, AdapterDescription, DeviceLimits } from './backends/webgpu/device.js';
export { createFftPlan, fft, ifft } from './api/fft.js';
export type { FftPlan, FftPlanOptions, FftCallOptions, BackendChoice, ComplexArray } from './api/fft.js';
export { fftProblem, normScale } from './planner/fft-problem.js';
export type { FftProblem, FftNorm, FftDirection, ComplexLayout } from './planner/fft-problem.js';
export { planWorkgroupFft, largestWorkgroupFft, factorRadices } from './planner/fft-workgroup.js';
export type { WorkgroupFftRecipe, FftRecipe, FftStage } from './planner/fft-recipe.js';
export { generateWorkgroupFft } from './codegen/fft-stockham-workgroup.js';
export { WebGpuFft } from './backends/webgpu/fft.js';
export { executeFftRecipe } from './backends/cpu/fft-stockham.js';
export { planCpuFft } from './backends/cpu/fft-plan.js';
export * as core from './core/index.js';
export { fftfreq, rfftfreq, fftshift, ifftshift } from './util/freq.js';
