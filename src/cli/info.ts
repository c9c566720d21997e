/** `butterfly info`: which engine 'auto' picks and why, the CPU engine, and the WebGPU adapter's features and limits. */
import { availableParallelism } from 'node:os';
import type { CliCommand } from './commands.js';
import { acquireGpu } from '../backends/webgpu/device.js';
import { largestWorkgroupFft } from '../planner/fft-workgroup.js';
import { describeAuto } from '../api/backend.js';
import { planCpuEngineFft, SPLIT_FROM_BYTES, SPLIT_IN_PLACE_FROM_BYTES } from '../planner/cpu-fft.js';
import { WASM_SIMD } from '../backends/cpu/wasm-fft.js';
import { cpuFma, fourStepFromBytes, knownFourStepFrom } from '../planner/cpu-features.js';
import '../backends/cpu/four-step-choice.js';

export const infoCommand: CliCommand = {
  spec: {
    name: 'info',
    summary: 'the WebGPU adapter, backend, features and limits the library would use',
    options: {},
  },
  async run() {
    const auto = await describeAuto();
    console.log(`auto: ${auto.engine === 'cpu' ? 'CPU engine' : 'WebGPU'} — ${auto.reason}`);
    const simd = WASM_SIMD;
    const r = planCpuEngineFft(4096, 'f32');
    const from = fourStepFromBytes();
    const fromSource = knownFourStepFrom().source;
    const big = planCpuEngineFft(from / 8, 'f32');
    const mib = (b: number) => `${b / 2 ** 20} MiB`;
    console.log(
      `CPU engine: WebAssembly ${simd ? '128-bit SIMD' : 'SIMD unavailable: scalar float64 JavaScript'}, f32×4 and f64×2 lanes, ${simd ? (cpuFma() ? 'fused multiply-add (relaxed SIMD), ' : 'no fused multiply-add (relaxed SIMD unavailable or BUTTERFLY_RELAXED_SIMD=0), ') : ''}${availableParallelism()} thread(s) by default; 4096-point f32 recipe: ${r.kind}${r.kind === 'lane-split' ? ' ' + r.passes.map((p) => p.radix).join('·') + ' + lane combine' : ''}; from ${mib(from)} a problem ${big.kind}${big.kind === 'four-step' ? ` (${from / 8} f32 points = ${big.n1} × ${big.n2})` : ''} (${fromSource === 'measured' ? 'measured here' : fromSource === 'environment' ? 'BUTTERFLY_FOUR_STEP_FROM' : 'default'}); single transforms from ${mib(SPLIT_FROM_BYTES)} split across threads (from ${mib(SPLIT_IN_PLACE_FROM_BYTES)} in their engine buffers)`,
    );
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
