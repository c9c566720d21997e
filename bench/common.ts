/**
 * Shared benchmark plumbing: argument parsing, GPU timing, the device-copy ceiling, tables and JSON lines.
 * Benchmarks print tables and write JSON; they assert nothing about speed.
 */
import { writeFileSync, appendFileSync } from 'node:fs';
import type { GpuContext } from '../src/backends/webgpu/device.js';
import { getPipeline } from '../src/backends/webgpu/pipelines.js';
import { median, timeSubmission } from '../src/util/gpu-timing.js';

export function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[a.slice(2)] = argv[++i];
    else out[a.slice(2)] = 'true';
  }
  return out;
}

/** "1-13" or "4,8,12" → [1..13] / [4,8,12]. */
export function parseRange(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (b === undefined) out.push(a);
    else for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

export { median } from '../src/util/gpu-timing.js';

/**
 * GPU time of `encode` (ms per repetition): `reps` repetitions recorded into one submission between two
 * onSubmittedWorkDone waits, so the ~50 µs submit round trip is amortised; median over `rounds`.
 */
export async function timeGpu(
  ctx: GpuContext,
  encode: (enc: GPUCommandEncoder) => void,
  reps: number,
  rounds = 5,
): Promise<number> {
  const run = (k: number) => timeSubmission(ctx, encode, k);
  // Warm up for at least 300 ms of GPU time: on an H200 a plan timed right after its creation (new buffers,
  // new pipelines, an idle GPU) ran up to 3× slower for the first ~100 ms and at full speed when timed again
  // later (bench/results/2026-11-24-h200-sweep45: R2C 2^26 1.26–3.98 ms first, 1.256–1.262 every plan again).
  let warm = await run(1);
  for (let k = 0; k < 100 && warm < 300; k++) warm += await run(reps);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) times.push((await run(reps)) / reps);
  return median(times);
}

/**
 * An exact 2-D grid for `groups` workgroups (every workgroup real, so probe kernels need no bounds check):
 * the largest divisor of the count that fits one dimension, times the rest.
 */
export function exactGrid(ctx: GpuContext, groups: number): [number, number] {
  let gx = Math.min(groups, ctx.limits.maxComputeWorkgroupsPerDimension);
  while (groups % gx !== 0) gx--;
  return [gx, groups / gx];
}

/** Device-to-device copy bandwidth with a vec4 copy kernel: the practical ceiling for a memory-bound pass. */
export async function copyBandwidth(
  ctx: GpuContext,
  src: GPUBuffer,
  dst: GPUBuffer,
  bytes: number,
  reps: number,
): Promise<{ ms: number; GBps: number }> {
  const wgsl = `@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> b: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> n: vec4<u32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * 256u;
  if (i < n.x) { b[i] = a[i]; }
}`;
  const pipe = await getPipeline(ctx, { name: 'copy', key: 'bench-copy', wgsl, entryPoint: 'main' });
  const maxBinding = Math.floor(ctx.limits.maxStorageBufferBindingSize / 256) * 256;
  const groups: { bg: GPUBindGroup; grid: [number, number] }[] = [];
  for (let off = 0; off < bytes; off += maxBinding) {
    const size = Math.min(maxBinding, bytes - off);
    const vec4s = size / 16;
    const u = ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    ctx.device.queue.writeBuffer(u, 0, new Uint32Array([vec4s, 0, 0, 0]));
    const wgs = Math.ceil(vec4s / 256);
    const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
    const grid: [number, number] = wgs <= maxDim ? [wgs, 1] : [maxDim, Math.ceil(wgs / maxDim)];
    const bg = ctx.device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: src, offset: off, size } },
        { binding: 1, resource: { buffer: dst, offset: off, size } },
        { binding: 2, resource: { buffer: u } },
      ],
    });
    groups.push({ bg, grid });
  }
  const ms = await timeGpu(
    ctx,
    (enc) => {
      const pass = enc.beginComputePass();
      pass.setPipeline(pipe);
      for (const g of groups) {
        pass.setBindGroup(0, g.bg);
        pass.dispatchWorkgroups(g.grid[0], g.grid[1]);
      }
      pass.end();
    },
    reps,
  );
  return { ms, GBps: (2 * bytes) / ms / 1e6 };
}

export class Output {
  constructor(private readonly jsonPath: string | undefined) {
    if (jsonPath) writeFileSync(jsonPath, '');
  }
  record(obj: Record<string, unknown>): void {
    if (this.jsonPath) appendFileSync(this.jsonPath, JSON.stringify(obj) + '\n');
  }
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const w = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padStart(w[i])).join('  ');
  return [line(headers), line(w.map((x) => '-'.repeat(x))), ...cells.map(line)].join('\n');
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

/** A one-line progress bar on stderr (so piping stdout stays clean). */
export function progress(done: number, total: number, label: string): void {
  if (!process.stderr.isTTY) return;
  const w = 30;
  const f = Math.round((done / total) * w);
  process.stderr.write(`\r[${'#'.repeat(f)}${'.'.repeat(w - f)}] ${done}/${total} ${label}`.padEnd(70));
  if (done === total) process.stderr.write('\n');
}
