/** `butterfly info`: the WebGPU adapter, backend, features and limits the library would use. */
import type { CliCommand } from './commands.js';
import { acquireGpu } from '../backends/webgpu/device.js';
import { largestWorkgroupFft } from '../planner/fft-workgroup.js';

export const infoCommand: CliCommand = {
  spec: { name: 'info', summary: 'the WebGPU adapter, backend, features and limits the library would use', options: {} },
  async run() {
    let ctx;
    try {
      ctx = await acquireGpu();
    } catch (e) {
      console.log(`WebGPU: unavailable (${(e as Error).message})`);
      console.log('backend: cpu (float64 reference and fallback)');
      return;
    }
    const a = ctx.adapter;
    console.log(`backend: webgpu via ${a.backend}${a.software ? ' (software adapter)' : ''}`);
    console.log(`adapter: ${[a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' | ')}`);
    console.log(`features: ${[...ctx.features].sort().join(', ') || '(none)'}`);
    console.log('limits:');
    for (const [k, v] of Object.entries(ctx.limits)) console.log(`  ${k.padEnd(36)} ${v}`);
    console.log(`largest single-workgroup FFT: ${largestWorkgroupFft(ctx.limits)}`);
    ctx.destroy();
  },
};
