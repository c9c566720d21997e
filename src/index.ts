/** Butterfly: index-digit GPU algorithms on WebGPU, with a float64 CPU backend. */
// The public types use GPUDevice, GPUBuffer, …: consumers get them from @webgpu/types (a dependency) without
// configuring anything. preserve="true" keeps the directive in the emitted index.d.ts.
/// <reference types="@webgpu/types" preserve="true" />
// The CPU planner's four-step threshold is measured on this machine when first needed (registered on import).
import './backends/cpu/four-step-choice.js';
export * from './errors.js';
export {
  acquireGpu,
  defaultGpuContext,
  readBuffer,
  createStorageBuffer,
  GpuContext,
} from './backends/webgpu/device.js';
export type { AcquireOptions, AdapterDescription, DeviceLimits } from './backends/webgpu/device.js';
export { createFftPlan, fft, ifft } from './api/fft.js';
export type { FftPlan, FftPlanOptions, FftBuffers, FftCallOptions, BackendChoice, ComplexArray } from './api/fft.js';
export { fftProblem, normScale } from './planner/fft-problem.js';
export type { FftProblem, FftNorm, FftDirection, ComplexLayout } from './planner/fft-problem.js';
export { planWorkgroupFft, largestWorkgroupFft, factorRadices } from './planner/fft-workgroup.js';
export type { WorkgroupFftRecipe, FftRecipe, FftStage } from './planner/fft-recipe.js';
export { generateWorkgroupFft } from './codegen/fft-stockham-workgroup.js';
export { WebGpuFft } from './backends/webgpu/fft.js';
export { executeFftRecipe } from './backends/cpu/fft-stockham.js';
export { planCpuFft } from './backends/cpu/fft-plan.js';
export { disposeCpuWorkers } from './backends/cpu/worker-pool.js';
export * as core from './core/index.js';
export { fftfreq, rfftfreq, fftshift, ifftshift } from './util/freq.js';
export {
  solveTridiagonal,
  createTridiagonalPlan,
  TridiagonalPlan,
  TridiagonalBreakdownError,
  TRIDIAGONAL_STATUS,
  type TridiagonalSplitLimits,
} from './api/tridiagonal.js';
export type {
  TridiagonalPlanDescriptor,
  TridiagonalData,
  TridiagonalResult,
  TridiagonalBackend,
  TridiagonalDtype,
  TridiagonalCpuAlgorithm,
  TridiagonalLayout,
  TridiagonalRecipe,
  TridiagonalPlanOptions,
} from './api/tridiagonal.js';
export { planTridiagonal } from './planner/tridiagonal.js';
export { runHeatAdi, type HeatAdiOptions, type HeatAdiResult } from './apps/heat-adi.js';
export { convolve, fftconvolve, oaconvolve, correlate, chooseConvMethod, nextFastLen } from './api/convolve.js';
export type { ConvMode, ConvMethod, ConvOperand, ConvInput, ConvolveOptions, ConvResult } from './api/convolve.js';
export { createEdmPlan, EdmPlan, edmReference, edmProblem, resolveEdm, type EdmProblem } from './apps/edm/edm.js';
export { EDM_CASES, edmCase } from './apps/edm/cases.js';
export { GridConvolver } from './backends/webgpu/convolve-grid.js';
export { planGridConv } from './planner/convolve-grid.js';
export {
  rfft,
  irfft,
  fft2,
  ifft2,
  rfft2,
  irfft2,
  fftn,
  ifftn,
  rfftn,
  irfftn,
  fftnOutputShape,
  createFftNdPlan,
} from './api/fft.js';
export { hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn } from './api/hfft.js';
export type { FftNdPlanOptions } from './api/fft.js';
export type { FftNdCallOptions } from './api/fft.js';
export { WebGpuFftNd, type FftNdDescriptor, type FftNdKind } from './backends/webgpu/fft-nd.js';
export { planFft, planMultiPass, describeRecipe } from './planner/fft-multipass.js';
export type { MultiPassFftRecipe, PassInfo } from './planner/fft-recipe.js';
export * from './apps/shallow-water/problem.js';
export * from './apps/shallow-water/scenarios.js';
export * from './apps/shallow-water/simulation.js';
export * from './apps/shallow-water/render.js';
export { SweCpuSolver } from './backends/cpu/shallow-water.js';
export { SweGpuSolver } from './backends/webgpu/shallow-water.js';
export { parseNpy, encodeNpy, parseRaw } from './util/npy.js';
export { dct, idct, dst, idst, dht, idht, dctn, idctn, dstn, idstn } from './api/r2r.js';
export type { R2rCallOptions, R2rNdCallOptions, RealArray } from './api/r2r.js';
export { WebGpuR2r, type R2rDescriptor, type R2rFamily } from './backends/webgpu/r2r.js';
export type { FftProblemInit } from './planner/fft-problem.js';
export {
  sfft,
  createSfftPlan,
  sparseSignal,
  type SfftOptions,
  type SfftResult,
  type SfftPlan,
  type SfftStatus,
  type SfftDiagnostics,
  type SparseSignal,
} from './api/sfft.js';
export { planSfft, type SfftRecipe } from './planner/sfft.js';
