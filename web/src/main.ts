/**
 * Start-up: find WebGPU (navigator.gpu) through the library's own device acquisition, say clearly
 * which backend runs, then start the demos one after another (each runs its verified computation
 * first, then animates), the benchmark last so its timings are not disturbed by the others.
 */
import { defaultGpuContext, type GpuContext } from '../../src/backends/webgpu/device.js';
import { state, errorText, type Env } from './common.js';
import { DEMOS } from './demos.js';

async function chooseBackend(params: URLSearchParams): Promise<Env> {
  const banner = document.getElementById('backend-banner')!;
  const forced = params.get('backend');
  let gpu: GpuContext | null = null;
  let reason: string | null = null;
  if (forced === 'cpu') reason = 'the CPU backend was requested with ?backend=cpu';
  else if (!('gpu' in navigator) || !navigator.gpu) {
    reason =
      'this browser has no navigator.gpu (WebGPU is off or unsupported; in Chromium try chrome://flags/#enable-unsafe-webgpu, in Firefox dom.webgpu.enabled, in Safari the WebGPU feature flag)';
  } else {
    try {
      gpu = await defaultGpuContext();
    } catch (e) {
      reason = `WebGPU could not give a device: ${errorText(e)}`;
    }
  }
  if (gpu) {
    const a = gpu.adapter;
    const name = [a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' ') || 'unnamed adapter';
    state.backend = 'webgpu';
    state.adapter = { description: name, vendor: a.vendor, architecture: a.architecture, software: a.software };
    state.limits = { ...gpu.limits };
    banner.className = 'banner gpu';
    banner.dataset.state = 'webgpu';
    banner.textContent =
      `WebGPU is running on: ${name}${a.software ? ' (a software adapter: correct but slow; throughput numbers say little about a real GPU)' : ''}. ` +
      `Workgroup memory ${gpu.limits.maxComputeWorkgroupStorageSize / 1024} KiB, ${gpu.limits.maxComputeInvocationsPerWorkgroup} invocations per workgroup.`;
    gpu.onLost((why) => {
      banner.className = 'banner cpu';
      banner.textContent = `The WebGPU device was lost (${why}). Reload the page.`;
      state.errors.push(`device lost: ${why}`);
    });
  } else {
    state.backend = 'cpu';
    state.fallbackReason = reason;
    banner.className = 'banner cpu';
    banner.dataset.state = 'cpu';
    banner.textContent = `WebGPU is not available: ${reason}. Falling back to the CPU backend (float64 TypeScript): every demo still runs, more slowly, and the GPU-vs-CPU checks compare the CPU with itself.`;
  }
  return { backend: state.backend, gpu, params };
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const env = await chooseBackend(params);
  const only = params.get('demos')?.split(',');
  for (const demo of DEMOS) {
    if (only && !only.includes(demo.id)) continue;
    try {
      await demo.start(env);
    } catch (e) {
      state.errors.push(`${demo.id}: ${errorText(e)}`);
      state.demos[demo.id] = { state: 'error', pass: false, error: errorText(e) };
      console.error(e);
    }
  }
  state.status = 'ready';
  document.body.dataset.status = 'ready';
}

window.addEventListener('error', (ev) => state.errors.push(`uncaught: ${ev.message}`));
window.addEventListener('unhandledrejection', (ev) =>
  state.errors.push(`unhandled rejection: ${errorText(ev.reason)}`),
);
main().catch((e) => {
  state.status = 'error';
  state.errors.push(errorText(e));
  document.body.dataset.status = 'error';
  console.error(e);
});
