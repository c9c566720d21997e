/**
 * Shallow-water benchmark: cell updates per second of the WebGPU scheme (cfl → reduce → update per
 * step, data resident on the device, many steps per submission) at several mesh sizes, against the
 * bandwidth bound: a step must at least read the state (16 B) and bathymetry (4 B) and write the
 * state (16 B) of every cell, 36 B/cell, at the device-copy bandwidth measured in the same run. What the
 * kernels as built must move per cell and step (tile rings re-read neighbours, which the caches serve):
 * the CFL pass reads state + bathymetry (20 B), the update reads them again and writes the state (36 B),
 * and the depth pair adds its low part, read and written (8 B): 56 B/cell with an f32 depth (64% of the
 * bound at best), 64 B/cell with the pair (56%). The fused structure has no CFL pass: 36 B/cell, 44 with
 * the pair (82%), for more arithmetic (each tile recomputes a one-cell ring). The float64 CPU reference's rate on this machine's CPU
 * (one thread, JavaScript) is measured too, and --compare N runs the dam break at N² to t = 1 on both and
 * reports the L1 differences (the issue's 1000² check).
 *
 *   npx tsx bench/shallow-water.ts [--sizes 1000,2000,4096] [--steps 50] [--variants staged:16x16,halo:16:f32]
 *                                  [--cpu-size 1000] [--cpu-steps 3] [--compare 400] [--dump 1000 --dump-dir DIR]
 *                                  [--out results.jsonl]
 * --variants: comma-separated kernel variants, each STRUCTURE:SHAPE[:f32|:pair][:rK[cJ]][:probe-l2|:probe-move] with STRUCTURE staged or
 * fused (SHAPE = WxH, the workgroup's block, e.g. 16x16, 32x8) or halo (SHAPE = T, a T×T tile); :f32 holds the depth in one f32, :pair
 * (the default) as an f32 pair; :rKcJ (halo) gives each update invocation a column of K cells and each cfl invocation J (defaults: the library's). Default: the library's defaults. --tile T is short for --variants halo:T.
 * :probe-l2 / :probe-move time the benchmark probes of the halo update kernel (SweKernelOptions.probe: the
 * arithmetic with L2-resident loads, or the loads and stores without the arithmetic; wrong results).
 * A variant the device cannot run (limits) is reported and skipped. --compare and --dump use the first
 * variant. --cpu-steps 0 skips the CPU rate.
 * --breakdown also times each kernel alone (the same steps with only the cfl, only the reduce or only the
 * update dispatches recorded), in ms per dispatch.
 * --dump N runs the GPU dam break at N² to t = 1 and writes gpu_N_{h,qx,qy}.npy (float64: with the depth
 * pair h is hi + lo, which float32 would round away; q as read, f32 values) for an offline
 * comparison with a float64 run made elsewhere (the CPU reference at 1000² takes ~15 min).
 * Bundle: esbuild bench/shallow-water.ts --bundle --platform=node --format=esm --external:webgpu
 */
import { defaultGpuContext } from '../src/backends/webgpu/device.js';
import { SweGpuSolver, type SweGpuOptions, type SweKernelName } from '../src/backends/webgpu/shallow-water.js';
import { SWE_DEFAULT_KERNEL_OPTIONS } from '../src/planner/swe-problem.js';
import { ArgumentError, DeviceLimitError } from '../src/errors.js';
import { SweCpuSolver } from '../src/backends/cpu/shallow-water.js';
import { damBreak } from '../src/apps/shallow-water/scenarios.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { encodeNpy } from '../src/util/npy.js';
import { copyBandwidth, median, Output, parseArgs, table, timeGpu } from './common.js';
import { relativeL1 } from '../src/util/metrics.js';

const MIN_BYTES_PER_CELL = 36;
/** Bytes per cell and step the kernels must move (see the header). */
function builtBytesPerCell(o: SweGpuOptions): number {
  return (o.structure === 'fused' ? 36 : 56) + (o.depthPair ? 8 : 0);
}

interface Variant {
  name: string;
  options: SweGpuOptions;
}

/** Parses one --variants entry (STRUCTURE:SHAPE[:f32|:pair]). */
function parseVariant(spec: string): Variant {
  const parts = spec.split(':');
  const [structure, shape, depth, extra, ...rest] = parts;
  const options: SweGpuOptions = { ...SWE_DEFAULT_KERNEL_OPTIONS };
  const rows = extra === undefined ? [] : /^r([1-8])(?:c([1-8]))?$/.exec(extra)?.slice(1);
  if (
    rest.length ||
    (depth !== undefined && depth !== 'f32' && depth !== 'pair') ||
    rows === undefined ||
    (extra !== undefined && structure !== 'halo')
  ) {
    throw new ArgumentError('--variants', spec, 'STRUCTURE:SHAPE[:f32|:pair][:rK[cJ] (halo only, K, J = 1 … 8)]');
  }
  if (rows[0]) options.rows = Number(rows[0]);
  if (rows[1]) options.cflRows = Number(rows[1]);
  options.depthPair = depth === undefined ? SWE_DEFAULT_KERNEL_OPTIONS.depthPair : depth === 'pair';
  if (structure === 'halo') {
    options.structure = 'halo';
    options.tile = Number(shape ?? SWE_DEFAULT_KERNEL_OPTIONS.tile);
    if (!Number.isInteger(options.tile))
      throw new ArgumentError('--variants', spec, 'halo:T with an integer tile side T');
  } else if (structure === 'staged' || structure === 'fused') {
    options.structure = structure;
    const m = /^(\d+)x(\d+)$/.exec(shape ?? `${SWE_DEFAULT_KERNEL_OPTIONS.tileX}x${SWE_DEFAULT_KERNEL_OPTIONS.tileY}`);
    if (!m) throw new ArgumentError('--variants', spec, 'staged:WxH, e.g. staged:32x8');
    options.tileX = Number(m[1]);
    options.tileY = Number(m[2]);
  } else {
    throw new ArgumentError('--variants', spec, 'an entry starting with staged:, fused: or halo:');
  }
  return { name: variantName(options), options };
}

function variantName(o: SweGpuOptions): string {
  const shape = o.structure === 'halo' ? `halo:${o.tile}` : `${o.structure}:${o.tileX}x${o.tileY}`;
  return `${shape}:${o.depthPair ? 'pair' : 'f32'}${o.structure === 'halo' ? `:r${o.rows}c${o.cflRows}` : ''}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = new Output(args.out);
  const ctx = await defaultGpuContext();
  const software = ctx.adapter.software;
  const sizes = (args.sizes ?? (software ? '100,200' : '1000,2000,4096')).split(',').map(Number);
  const steps = Number(args.steps ?? (software ? 5 : 50));
  const variants = args.variants
    ? args.variants.split(',').map(parseVariant)
    : args.tile
      ? [parseVariant(`halo:${args.tile}`)]
      : [{ name: variantName(SWE_DEFAULT_KERNEL_OPTIONS), options: {} }];
  const first = variants[0].options;
  const device = ctx.adapter.description || ctx.adapter.device || ctx.adapter.vendor;
  console.log(
    `shallow-water bench on ${device} (${ctx.adapter.backend}${software ? ', software' : ''}); ${variants.map((v) => v.name).join(', ')}; ${steps} steps per timing`,
  );

  // Device-copy ceiling, measured once on a buffer as large as the biggest state.
  const maxCells = Math.max(...sizes) ** 2;
  const copyBytes = Math.min(maxCells * 16, Math.floor(ctx.limits.maxBufferSize / 256) * 256);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const a = ctx.device.createBuffer({ size: copyBytes, usage });
  const b = ctx.device.createBuffer({ size: copyBytes, usage });
  const copy = await copyBandwidth(ctx, a, b, copyBytes, software ? 2 : 20);
  a.destroy();
  b.destroy();
  console.log(
    `device copy: ${copy.GBps.toFixed(1)} GB/s (read + write) → bound ${(copy.GBps / MIN_BYTES_PER_CELL).toFixed(2)} G cell updates/s at ${MIN_BYTES_PER_CELL} B/cell`,
  );
  out.record({ kind: 'copy', device, bytes: copyBytes, GBps: copy.GBps });

  const rows: (string | number)[][] = [];
  for (const n of sizes) {
    const p = damBreak(n);
    for (const v of variants) {
      let solver: SweGpuSolver;
      try {
        solver = await SweGpuSolver.create(ctx, p, v.options);
      } catch (e) {
        if (!(e instanceof DeviceLimitError)) throw e;
        console.log(`${n}² ${v.name}: skipped (${e.message})`);
        out.record({ kind: 'skip', device, n, variant: v.name, reason: e.message });
        continue;
      }
      try {
        await solver.advance(1e9, { maxSteps: 2 }); // compile, warm up, and set a far end time so no step is a no-op
        const ms = await timeGpu(ctx, (enc) => solver.encodeSteps(enc, steps), 1, software ? 1 : 5);
        const perStep = ms / steps;
        const cells = n * n;
        const rate = cells / (perStep / 1e3);
        const bound = (copy.GBps * 1e9) / MIN_BYTES_PER_CELL;
        const built = builtBytesPerCell(solver.options);
        const effGBps = (cells * built) / (perStep / 1e3) / 1e9;
        const sim = await solver.readSim();
        const parts: Partial<Record<SweKernelName, number>> = {};
        if (args.breakdown) {
          for (const k of ['cfl', 'reduce', 'update'] as const)
            parts[k] = (await timeGpu(ctx, (enc) => solver.encodeSteps(enc, steps, [k]), 1, software ? 1 : 5)) / steps;
        }
        const part = (k: SweKernelName) => (parts[k] === undefined ? '' : parts[k]!.toFixed(4));
        rows.push([
          `${n}²`,
          v.name,
          perStep.toFixed(4),
          (rate / 1e9).toFixed(3),
          (bound / 1e9).toFixed(2),
          `${((100 * rate) / bound).toFixed(1)}%`,
          built,
          effGBps.toFixed(0),
          sim.steps,
          part('cfl'),
          part('reduce'),
          part('update'),
        ]);
        out.record({
          kind: 'gpu',
          device,
          n,
          cells,
          variant: v.name,
          structure: solver.options.structure,
          tile: solver.options.tile,
          tileX: solver.options.tileX,
          tileY: solver.options.tileY,
          depthPair: solver.options.depthPair,
          msPerStep: perStep,
          cellUpdatesPerSecond: rate,
          boundCellUpdatesPerSecond: bound,
          fractionOfBound: rate / bound,
          builtBytesPerCell: built,
          effectiveGBps: effGBps,
          copyGBps: copy.GBps,
          msPerDispatch: args.breakdown ? parts : undefined,
        });
      } finally {
        solver.destroy();
      }
    }
  }
  console.log(
    table(
      [
        'mesh',
        'variant',
        'ms/step',
        'G cell/s',
        'bound G/s',
        'of bound',
        'B/cell built',
        'GB/s moved',
        'steps run',
        'cfl ms',
        'reduce ms',
        'update ms',
      ],
      rows,
    ),
  );

  // The float64 reference on this machine's CPU.
  const cpuN = Number(args['cpu-size'] ?? (software ? 100 : 1000));
  const cpuSteps = Number(args['cpu-steps'] ?? 3);
  if (cpuSteps > 0) {
    const cpu = new SweCpuSolver(damBreak(cpuN));
    cpu.step(1e9);
    const times: number[] = [];
    for (let k = 0; k < cpuSteps; k++) {
      const t0 = performance.now();
      cpu.step(1e9);
      times.push(performance.now() - t0);
    }
    const cpuMs = median(times);
    const cpuRate = (cpuN * cpuN) / (cpuMs / 1e3);
    console.log(
      `CPU float64 reference (1 thread, JS) at ${cpuN}²: ${cpuMs.toFixed(0)} ms/step = ${(cpuRate / 1e6).toFixed(2)} M cell updates/s`,
    );
    out.record({ kind: 'cpu', n: cpuN, msPerStep: cpuMs, cellUpdatesPerSecond: cpuRate });
  }

  if (args.compare) {
    const cn = Number(args.compare);
    const p = damBreak(cn);
    const t0 = performance.now();
    const ref = new SweCpuSolver(p);
    ref.advance(1);
    const cpuS = (performance.now() - t0) / 1e3;
    const g = await SweGpuSolver.create(ctx, p, first);
    const t1 = performance.now();
    await g.advance(1);
    const s = await g.read();
    const gpuS = (performance.now() - t1) / 1e3;
    g.destroy();
    const e = { h: relativeL1(s.h, ref.h), qx: relativeL1(s.qx, ref.qx), qy: relativeL1(s.qy, ref.qy) };
    console.log(
      `dam break ${cn}² to t = 1 (${variants[0].name}): ${ref.steps} CPU steps (${cpuS.toFixed(1)} s), ${s.steps} GPU steps (${gpuS.toFixed(2)} s incl. read-back); ` +
        `L1 relative h ${e.h.toExponential(2)}, qx ${e.qx.toExponential(2)}, qy ${e.qy.toExponential(2)} (bound 1e-5: ${Math.max(e.h, e.qx, e.qy) <= 1e-5 ? 'met' : 'NOT met'})`,
    );
    out.record({
      kind: 'compare',
      variant: variants[0].name,
      n: cn,
      cpuSteps: ref.steps,
      gpuSteps: s.steps,
      cpuSeconds: cpuS,
      gpuSeconds: gpuS,
      l1: e,
    });
  }
  if (args.dump) {
    const dn = Number(args.dump);
    const dir = args['dump-dir'] ?? 'out';
    mkdirSync(dir, { recursive: true });
    const g = await SweGpuSolver.create(ctx, damBreak(dn), first);
    const t1 = performance.now();
    await g.advance(1);
    const s = await g.read();
    console.log(
      `dam break ${dn}² to t = 1 on the GPU: ${s.steps} steps, ${((performance.now() - t1) / 1e3).toFixed(2)} s incl. read-back; t = ${s.time}`,
    );
    for (const f of ['h', 'qx', 'qy'] as const) writeFileSync(`${dir}/gpu_${dn}_${f}.npy`, encodeNpy([dn, dn], s[f]));
    out.record({ kind: 'dump', n: dn, steps: s.steps, time: s.time });
    g.destroy();
  }
  ctx.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
