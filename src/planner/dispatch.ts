/** Dispatch shapes every WebGPU backend shares. */
import { DeviceLimitError } from '../errors.js';

/**
 * Splits a workgroup count over a 2-D grid when it exceeds maxComputeWorkgroupsPerDimension; kernels
 * recover the linear index as id.x + id.y * gridX and ignore ids ≥ count.
 */
export function dispatchGrid(count: number, maxPerDim: number): [number, number] {
  if (count <= maxPerDim) return [Math.max(1, count), 1];
  const y = Math.ceil(count / maxPerDim);
  if (y > maxPerDim) {
    // A limit of the device, not a WebGPU failure: DeviceLimitError names it (and 'auto' backends fall back).
    throw new DeviceLimitError(
      'maxComputeWorkgroupsPerDimension',
      y,
      maxPerDim,
      `a dispatch of ${count} workgroups (a 2-D grid of ${maxPerDim} × ${y})`,
    );
  }
  const x = Math.ceil(count / y);
  return [x, y];
}
