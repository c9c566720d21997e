/**
 * Probe of the memory pattern of one multi-pass FFT pass, without the FFT: each workgroup owns B
 * neighbouring columns of an n-row array (column j at j + r·C, C columns in all), each invocation E rows
 * of one column (rows t + k·n/E, as the direct pass kernels read), and the kernel only moves data. It
 * separates what the access pattern costs from what the butterflies, twiddles and exchanges cost.
 *
 * Modes: 'strided' writes back to the same strided positions (a later pass's store); 'rows' writes each
 * column as a contiguous row (the first pass's store); 'exchange' adds one round trip through workgroup
 * memory with a barrier (as a stage boundary does) before a strided store.
 *
 *   node .gpu/bench-pass-probe.mjs [--n 128,256,1024] [--B 4,8,16] [--E 8,16] [--modes strided,rows,exchange]
 *                                 [--total 27] [--json out.jsonl]
 */
import { defaultGpuContext } from '../src/backends/webgpu/device.js';
import { getPipeline } from '../src/backends/webgpu/pipelines.js';
import { copyBandwidth, exactGrid, Output, parseArgs, table, timeGpu } from './common.js';

type Mode = 'strided' | 'rows' | 'exchange';

function kernel(n: number, B: number, E: number, C: number, mode: Mode): string {
  const L = n / E;
  const loads = Array.from({ length: E }, (_, k) => `  let v${k} = src[col + (t + ${k * L}u) * ${C}u];`).join('\n');
  let body: string;
  if (mode === 'exchange') {
    // Write in row order, read back transposed within the column (as a Stockham stage boundary does).
    const w = Array.from({ length: E }, (_, k) => `  sh[lp * ${n + 1}u + t * ${E}u + ${k}u] = v${k};`).join('\n');
    const r = Array.from({ length: E }, (_, k) => `  let u${k} = sh[lp * ${n + 1}u + t + ${k * L}u];`).join('\n');
    const s = Array.from({ length: E }, (_, k) => `  dst[col + (t + ${k * L}u) * ${C}u] = u${k};`).join('\n');
    body = `${w}\n  workgroupBarrier();\n${r}\n${s}`;
  } else if (mode === 'rows') {
    body = Array.from({ length: E }, (_, k) => `  dst[col * ${n}u + t + ${k * L}u] = v${k};`).join('\n');
  } else {
    body = Array.from({ length: E }, (_, k) => `  dst[col + (t + ${k * L}u) * ${C}u] = v${k};`).join('\n');
  }
  return `@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec2<f32>>;
${mode === 'exchange' ? `var<workgroup> sh: array<vec2<f32>, ${B * (n + 1)}>;` : ''}
@compute @workgroup_size(${L * B})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let wg = wid.x + wid.y * nw.x;
  let t = lid / ${B}u;
  let lp = lid % ${B}u;
  let col = wg * ${B}u + lp;
${loads}
${body}
}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const ctx = await defaultGpuContext();
  const total = 2 ** Number(args.total ?? (ctx.adapter.software ? 18 : 27));
  const ns = (args.n ?? '128,256,1024').split(',').map(Number);
  const Bs = (args.B ?? '4,8,16').split(',').map(Number);
  const Es = (args.E ?? '8,16').split(',').map(Number);
  const modes = (args.modes ?? 'strided,rows,exchange').split(',') as Mode[];
  const reps = ctx.adapter.software ? 2 : 20;
  const out = new Output(args.json);
  const device = ctx.adapter.description || ctx.adapter.vendor;
  const bytes = total * 8;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const a = ctx.device.createBuffer({ size: bytes, usage });
  const b = ctx.device.createBuffer({ size: bytes, usage });
  const copy = await copyBandwidth(ctx, a, b, bytes, reps);
  out.record({ lib: 'device-copy', device, bytes, ms: copy.ms, GBps: copy.GBps });
  const rows: (string | number)[][] = [];
  for (const n of ns) {
    for (const B of Bs) {
      for (const E of Es) {
        const L = n / E;
        if (!Number.isInteger(L) || L * B > ctx.limits.maxComputeInvocationsPerWorkgroup) continue;
        for (const mode of modes) {
          if (mode === 'exchange' && B * (n + 1) * 8 > ctx.limits.maxComputeWorkgroupStorageSize) continue;
          const C = total / n;
          const pipe = await getPipeline(ctx, {
            name: `probe-${mode}`,
            key: `probe|${n}|${B}|${E}|${C}|${mode}`,
            wgsl: kernel(n, B, E, C, mode),
            entryPoint: 'main',
          });
          const bg = ctx.device.createBindGroup({
            layout: pipe.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: { buffer: a } },
              { binding: 1, resource: { buffer: b } },
            ],
          });
          const groups = C / B;
          const grid = exactGrid(ctx, groups);
          const ms = await timeGpu(
            ctx,
            (enc) => {
              const p = enc.beginComputePass();
              p.setPipeline(pipe);
              p.setBindGroup(0, bg);
              p.dispatchWorkgroups(grid[0], grid[1]);
              p.end();
            },
            reps,
          );
          const GBps = (2 * bytes) / (ms * 1e6);
          rows.push([n, B, E, L * B, mode, ms.toFixed(3), GBps.toFixed(0), (GBps / copy.GBps).toFixed(2)]);
          out.record({ lib: 'probe', device, n, B, E, workgroup: L * B, mode, ms, GBps, fracCopy: GBps / copy.GBps });
        }
      }
    }
  }
  console.log(`pass probe on ${device}: ${total} complex64 elements, device copy ${copy.GBps.toFixed(0)} GB/s`);
  console.log(table(['n', 'B', 'E', 'wg', 'mode', 'ms', 'GB/s', 'of copy'], rows));
  a.destroy();
  b.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
