#!/usr/bin/env node
/**
 * `butterfly` command line: info (adapter, backend, limits), demo (FFTs of several sizes on the best
 * backend, checked against the float64 reference), plan (the planner's recipes for a length or shape).
 */
import { acquireGpu, type GpuContext } from '../backends/webgpu/device.js';
import { createFftPlan, rfft, fft2 } from '../api/fft.js';
import { dct, dht } from '../api/r2r.js';
import { describeRecipe } from '../planner/fft-multipass.js';
import { largestWorkgroupFft } from '../planner/fft-workgroup.js';
import type { FftRecipe } from '../planner/fft-recipe.js';
import { randomFloat32 } from '../util/random.js';
import { relativeL2 } from '../util/metrics.js';
import { ButterflyError } from '../errors.js';
import { extraCommands } from './commands.js';
import { flag } from './args.js';
import { planCommand } from './plan.js';

const HELP = `butterfly — index-digit FFTs (and friends) on WebGPU, with a float64 CPU reference

usage: butterfly <command> [options]
  info                 the WebGPU adapter, backend and limits the library would use
  demo [--sizes a,b]   batched FFTs of several sizes on the best backend, checked against float64
  plan <n | shape> [--axes a,b] [--kind c2c|r2c|c2r] [--batch b] [--cpu]
                       the WebGPU planner's recipes for a length or an N-D shape (e.g. 1024x1024):
                       passes, radices, mapping, workgroup memory, bytes moved (plan --help: all options)
${extraCommands.map((c) => `  ${c.usage.padEnd(20)} ${c.summary}`).join('\n')}
environment: BUTTERFLY_ADAPTER=hardware|software forces the adapter choice.`;

async function tryGpu(): Promise<GpuContext | null> {
  try {
    return await acquireGpu();
  } catch (e) {
    console.log(`WebGPU: unavailable (${(e as Error).message})`);
    return null;
  }
}

async function info(): Promise<void> {
  const ctx = await tryGpu();
  if (!ctx) {
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
}

async function demo(args: string[]): Promise<void> {
  const ctx = await tryGpu();
  const sizesArg = flag(args, '--sizes');
  const sizes = sizesArg ? sizesArg.split(',').map(Number) : [8, 64, 256, 1000, 1024, 4096, 8192, 65536, 1009];
  const total = ctx && !ctx.adapter.software ? 1 << 24 : 1 << 18;
  console.log(`butterfly demo — ${ctx ? `WebGPU (${ctx.adapter.device || ctx.adapter.description})` : 'CPU backend'}; ${total} complex values per size`);
  console.log('batched complex FFTs against the float64 CPU backend:');
  console.log('       n    batch  backend  recipe                                      rel. L2 error     time');
  let worst = 0;
  const row = (n: number, batch: number, backend: string, recipe: string, err: number, ms: number) => {
    worst = Math.max(worst, err / Math.log2(Math.max(2, n)));
    console.log(`${String(n).padStart(8)} ${String(batch).padStart(8)}  ${backend.padEnd(7)}  ${recipe.slice(0, 42).padEnd(42)} ${err.toExponential(2).padStart(10)}  ${ms.toFixed(1).padStart(7)} ms`);
  };
  for (const n of sizes) {
    const batch = Math.max(1, Math.floor(total / n));
    const x = randomFloat32(2 * n * batch, n);
    const plan = await createFftPlan({ n, batch, backend: ctx ? 'auto' : 'cpu', gpu: ctx ?? undefined });
    await plan.execute(x); // warm-up (pipeline compile)
    const t0 = performance.now();
    const y = await plan.execute(x);
    const ms = performance.now() - t0;
    const ref = await (await createFftPlan({ n, batch, backend: 'cpu' })).execute(Float64Array.from(x));
    const r = plan.recipe as { algorithm?: string; kind?: string };
    const recipe = r.algorithm ? (() => { const d = describeRecipe(plan.recipe as FftRecipe); return `${d.passes} pass${d.passes > 1 ? 'es' : ''}: ${d.radices}`; })() : String(r.kind);
    row(n, batch, plan.backend, recipe, relativeL2(y, ref), ms);
    plan.destroy();
  }
  // The rest of the family, same check.
  console.log('real, N-D and real-to-real transforms:');
  const gpuOpts = { backend: (ctx ? 'auto' : 'cpu') as 'auto' | 'cpu', gpu: ctx ?? undefined };
  const real = randomFloat32(64 * 4096, 7);
  const cases: [string, number, () => Promise<Float32Array | Float64Array>, () => Promise<Float32Array | Float64Array>][] = [
    ['rfft  64×4096', 4096, () => rfft(real, { shape: [64, 4096], ...gpuOpts }), () => rfft(Float64Array.from(real), { shape: [64, 4096] })],
    ['fft2  32×64×64', 4096, () => fft2(real.subarray(0, 2 * 64 * 64 * 32), { shape: [32, 64, 64], ...gpuOpts }), () => fft2(Float64Array.from(real.subarray(0, 2 * 64 * 64 * 32)), { shape: [32, 64, 64] })],
    ['dct-II 64×4096', 4096, () => dct(real, { shape: [64, 4096], ...gpuOpts }), () => dct(Float64Array.from(real), { shape: [64, 4096] })],
    ['dht   64×4096', 4096, () => dht(real, { shape: [64, 4096], ...gpuOpts }), () => dht(Float64Array.from(real), { shape: [64, 4096] })],
  ];
  for (const [name, n, g, c] of cases) {
    await g();
    const t0 = performance.now();
    const y = await g();
    const ms = performance.now() - t0;
    const err = relativeL2(y, await c());
    worst = Math.max(worst, err / Math.log2(n));
    console.log(`${name.padEnd(18)} ${ctx ? 'webgpu' : 'cpu'}   rel. L2 error ${err.toExponential(2)}   ${ms.toFixed(1)} ms`);
  }
  const ok = worst <= 1e-6;
  console.log(ok ? 'all results within 1e-6·log2(n) of the float64 reference' : `ERROR: error above 1e-6·log2(n) (${worst})`);
  console.log('more: butterfly plan <n | shape> | heat | edm | swe | sfft   (see butterfly help)');
  ctx?.destroy();
  if (!ok) process.exitCode = 1;
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  switch (cmd) {
    case 'info':
      return info();
    case 'demo':
      return demo(rest);
    case 'plan':
      return planCommand(rest);
    case undefined:
    case 'help':
    case '--help':
      console.log(HELP);
      return;
    default: {
      const extra = extraCommands.find((c) => c.name === cmd);
      if (extra) return extra.run(rest);
      console.error(`unknown command ${cmd}\n\n${HELP}`);
      process.exitCode = 2;
    }
  }
}

main()
  .catch((e: unknown) => {
    console.error(e instanceof ButterflyError ? `${e.name}: ${e.message}` : e);
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 0));
