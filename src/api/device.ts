/** Device access for the layers above the API (CLI, applications): the WebGPU backend's, re-exported. */
export { acquireGpu, defaultGpuContext, type GpuContext } from '../backends/webgpu/device.js';
