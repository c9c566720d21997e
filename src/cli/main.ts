#!/usr/bin/env node
/**
 * `butterfly` command line: one command per file (info, plan, heat, edm, swe, sfft; demo here), each declaring
 * its options to the shared parser of args.ts, which also generates every --help.
 */
import { acquireGpu, type GpuContext } from '../backends/webgpu/device.js';
import { createFftPlan, rfft, fft2 } from '../api/fft.js';
import { dct, dht } from '../api/r2r.js';
import { describeRecipe } from '../planner/fft-multipass.js';
import type { FftRecipe } from '../planner/fft-recipe.js';
import { randomFloat32 } from '../util/random.js';
import { relativeL2 } from '../util/metrics.js';
import { ButterflyError } from '../errors.js';
import { describeAuto } from '../api/backend.js';
import { planCpuFft } from '../backends/cpu/fft-plan.js';
import type { CliCommand } from './commands.js';
import { formatHelp, parseArgs } from './args.js';
import { planCommand } from './plan.js';
import { infoCommand } from './info.js';
import { heatCommand } from './heat.js';
import { edmCommand } from './edm.js';
import { sweCommand } from './swe.js';
import { sfftCommand } from './sfft.js';
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { fileURLToPath } from 'node:url';

const COMMANDS: CliCommand[] = [
  infoCommand,
  demoCommand(),
  planCommand,
  heatCommand,
  edmCommand,
  sweCommand,
  sfftCommand,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.spec.name.length)) + 2;
  return `butterfly — index-digit FFTs (and friends) on WebGPU, with a float64 CPU reference

usage: butterfly <command> [options]        butterfly <command> --help: the command's options
${COMMANDS.map((c) => `  ${c.spec.name.padEnd(width)}${c.spec.summary}`).join('\n')}

environment: BUTTERFLY_ADAPTER=hardware|software forces the adapter choice;
BUTTERFLY_DAWN_WARNINGS=1 shows Dawn's start-up warnings (hidden by default).`;
}

async function tryGpu(): Promise<GpuContext | null> {
  try {
    return await acquireGpu();
  } catch (e) {
    console.log(`WebGPU: unavailable (${(e as Error).message})`);
    return null;
  }
}

function demoCommand(): CliCommand {
  return {
    spec: {
      name: 'demo',
      summary: 'batched FFTs of several sizes and the real/N-D/real-to-real family on the best backend, vs float64',
      options: { '--sizes': { value: 'a,b,…', help: 'FFT lengths (default 8,64,256,1000,1024,4096,8192,65536,1009)' } },
    },
    run: (a) => demo(a.intList('--sizes', { min: 1, max: 1 << 24 })),
  };
}

async function demo(sizesArg: number[] | undefined): Promise<void> {
  const auto = await describeAuto();
  // 'auto' decides: a hardware adapter, else the CPU engine (a software adapter is slower than it).
  const ctx = auto.engine === 'webgpu' ? await tryGpu() : null;
  const sizes = sizesArg ?? [8, 64, 256, 1000, 1024, 4096, 8192, 65536, 1009];
  const total = ctx ? 1 << 24 : 1 << 18;
  console.log(
    `butterfly demo — auto picks ${auto.engine === 'cpu' ? 'the CPU engine (WebAssembly SIMD)' : 'WebGPU'}: ${auto.reason}; ${total} complex values per size`,
  );
  console.log('batched complex FFTs (float32) against the float64 reference:');
  console.log(
    '       n    batch  backend  recipe                                      rel. L2 error     time   GFLOPS',
  );
  let worst = 0;
  const row = (n: number, batch: number, backend: string, recipe: string, err: number, ms: number) => {
    worst = Math.max(worst, err / Math.log2(Math.max(2, n)));
    const gflops = (5 * n * Math.log2(Math.max(2, n)) * batch) / (ms * 1e6);
    console.log(
      `${String(n).padStart(8)} ${String(batch).padStart(8)}  ${backend.padEnd(7)}  ${recipe.slice(0, 42).padEnd(42)} ${err.toExponential(2).padStart(10)}  ${ms.toFixed(1).padStart(7)} ms ${gflops.toFixed(1).padStart(7)}`,
    );
  };
  for (const n of sizes) {
    const batch = Math.max(1, Math.floor(total / n));
    const x = randomFloat32(2 * n * batch, n);
    const plan = await createFftPlan({
      n,
      batch,
      backend: ctx ? 'webgpu' : 'cpu',
      gpu: ctx ?? undefined,
      precision: 'f32',
    });
    const y = new Float32Array(2 * n * batch);
    await plan.execute(x, y); // warm-up (pipeline compile)
    let ms = Infinity;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      await plan.execute(x, y);
      ms = Math.min(ms, performance.now() - t0);
    }
    const ref = new Float64Array(2 * n * batch);
    planCpuFft(n).execute(Float64Array.from(x), ref, { batch });
    const r = plan.recipe as {
      algorithm?: string;
      kind?: string;
      passes?: { radix: number }[];
      passes1?: { radix: number }[];
      passes2?: { radix: number }[];
    };
    const radices = (p: { radix: number }[]) => p.map((q) => q.radix).join('·');
    const recipe = r.algorithm
      ? (() => {
          const d = describeRecipe(plan.recipe as FftRecipe);
          return `${d.passes} pass${d.passes > 1 ? 'es' : ''}: ${d.radices}`;
        })()
      : r.passes1 && r.passes2
        ? `${r.kind}: (${radices(r.passes1)}) × (${radices(r.passes2)})`
        : `${r.kind}${r.passes ? ': ' + radices(r.passes) : ''}`;
    row(n, batch, plan.backend, recipe, relativeL2(y, ref), ms);
    plan.destroy();
  }
  // The rest of the family, same check.
  console.log('real, N-D and real-to-real transforms:');
  const gpuOpts = { backend: (ctx ? 'webgpu' : 'cpu') as 'webgpu' | 'cpu', gpu: ctx ?? undefined };
  const real = randomFloat32(64 * 4096, 7);
  const cases: [
    string,
    number,
    () => Promise<Float32Array | Float64Array>,
    () => Promise<Float32Array | Float64Array>,
  ][] = [
    [
      'rfft  64×4096',
      4096,
      () => rfft(real, { shape: [64, 4096], ...gpuOpts }),
      () => rfft(Float64Array.from(real), { shape: [64, 4096] }),
    ],
    [
      'fft2  32×64×64',
      4096,
      () => fft2(real.subarray(0, 2 * 64 * 64 * 32), { shape: [32, 64, 64], ...gpuOpts }),
      () => fft2(Float64Array.from(real.subarray(0, 2 * 64 * 64 * 32)), { shape: [32, 64, 64] }),
    ],
    [
      'dct-II 64×4096',
      4096,
      () => dct(real, { shape: [64, 4096], ...gpuOpts }),
      () => dct(Float64Array.from(real), { shape: [64, 4096] }),
    ],
    [
      'dht   64×4096',
      4096,
      () => dht(real, { shape: [64, 4096], ...gpuOpts }),
      () => dht(Float64Array.from(real), { shape: [64, 4096] }),
    ],
  ];
  for (const [name, n, g, c] of cases) {
    await g();
    const t0 = performance.now();
    const y = await g();
    const ms = performance.now() - t0;
    const err = relativeL2(y, await c());
    worst = Math.max(worst, err / Math.log2(n));
    console.log(
      `${name.padEnd(18)} ${ctx ? 'webgpu' : 'cpu'}   rel. L2 error ${err.toExponential(2)} (against float64)   ${ms.toFixed(1)} ms`,
    );
  }
  const ok = worst <= 1e-6;
  console.log(
    ok ? 'all results within 1e-6·log2(n) of the float64 reference' : `ERROR: error above 1e-6·log2(n) (${worst})`,
  );
  console.log('more: butterfly plan <n | shape> | heat | edm | swe | sfft   (see butterfly help)');
  ctx?.destroy();
  if (!ok) process.exitCode = 1;
}

// Dawn prints these from native code straight to file descriptor 2 when an adapter is requested: the Vulkan
// loader it tries first is missing, and the GLES backend trims two limits the library never uses. They are
// harmless and only confuse users, and JavaScript cannot intercept a native write to fd 2; so GPU commands
// run in a child process whose stderr passes through this filter (BUTTERFLY_DAWN_WARNINGS=1 shows them).
const DAWN_NOISE = [
  /^Warning: Couldn't load Vulkan: /,
  /^Warning: maxDynamic\w+PerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.$/,
];
const DAWN_NOISE_TRACE = /^\s+at operator\(\) \(.*dawn.*\)$/;

/** A line filter for the child's stderr: drops DAWN_NOISE lines with their trace line and blank line. */
export function dawnNoiseFilter(write: (s: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  let skipping = false;
  const line = (l: string) => {
    if (DAWN_NOISE.some((r) => r.test(l))) {
      skipping = true;
      return;
    }
    if (skipping && (DAWN_NOISE_TRACE.test(l) || l === '')) return;
    skipping = false;
    write(l + '\n');
  };
  return {
    push(chunk) {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        line(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
      // A progress bar redraws its line with \r and no newline: pass it on at once.
      const cr = pending.lastIndexOf('\r');
      if (cr >= 0) {
        write(pending.slice(0, cr + 1));
        pending = pending.slice(cr + 1);
        skipping = false;
      }
    },
    end() {
      if (pending) write(pending);
      pending = '';
    },
  };
}

function runFiltered(argv: string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...argv], {
    stdio: ['inherit', 'inherit', 'pipe'],
    env: { ...process.env, BUTTERFLY_CLI_CHILD: '1', BUTTERFLY_STDERR_TTY: process.stderr.isTTY ? '1' : '0' },
  });
  const filter = dawnNoiseFilter((s) => process.stderr.write(s));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => filter.push(c));
  // Ctrl-C reaches the child through the terminal's process group; wait for it to finish.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      filter.end();
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 128 + (osConstants.signals[signal] ?? 0) : 1));
    });
  });
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const sub = cmd === 'help' ? COMMANDS.find((c) => c.spec.name === rest[0]) : undefined;
    console.log(sub ? formatHelp(sub.spec) : mainHelp());
    return;
  }
  const command = COMMANDS.find((c) => c.spec.name === cmd);
  if (!command) {
    console.error(`unknown command ${JSON.stringify(cmd)}\n\n${mainHelp()}`);
    process.exitCode = 2;
    return;
  }
  const args = parseArgs(command.spec, rest);
  if (args.help || (rest.length === 0 && command.usageWithoutArgs)) {
    console.log(formatHelp(command.spec));
    return;
  }
  const gpu = command.usesGpu ? command.usesGpu(args) : true;
  if (gpu && !process.env.BUTTERFLY_CLI_CHILD && process.env.BUTTERFLY_DAWN_WARNINGS !== '1') {
    process.exitCode = await runFiltered(process.argv.slice(2));
    return;
  }
  await command.run(args);
}

// Run only as the program (the tests import dawnNoiseFilter).
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  main()
    .catch((e: unknown) => {
      console.error(e instanceof ButterflyError ? `${e.name}: ${e.message}` : e);
      process.exitCode = 1;
    })
    // Dawn keeps the event loop alive after the work is done.
    .finally(() => setTimeout(() => process.exit(), 0));
}
