/**
 * Probe of how many workgroups the device keeps resident at once, as a function of the workgroup's size,
 * its workgroup memory and the registers its invocations keep live: the occupancy that decides whether
 * one workgroup's loads overlap another's butterflies and barriers. WebGPU reports none of this, and on
 * NVIDIA the split of each SM's 256 KiB between L1 and workgroup memory (the "carve-out") is the driver's
 * choice, so it is measured: every workgroup counts itself in on a global atomic (recording the peak),
 * spins long enough for all resident workgroups to overlap, and counts itself out. The peak over a
 * dispatch of many waves, divided by the SM count (--sms, 132 on an H200), is the resident workgroups an SM.
 *
 *   node .gpu/bench-occupancy-probe.mjs [--wg 128,256,512] [--smem 0,8192,17408,34816,49152]
 *                                       [--regs 8,64,128] [--spin 200000] [--sms 132] [--json out.jsonl]
 * --regs is the number of f32 values each invocation keeps live through the spin loop (independent
 * multiply-add chains), a stand-in for a kernel's register footprint; each invocation does about --spin
 * multiply-adds whatever --regs is.
 */
import { defaultGpuContext } from '../src/backends/webgpu/device.js';
import { getPipeline } from '../src/backends/webgpu/pipelines.js';
import { Output, parseArgs, parseRange, table } from './common.js';

function kernel(W: number, smemBytes: number, regs: number): string {
  const S = Math.max(1, smemBytes / 4);
  const vars = Array.from({ length: regs }, (_, k) => `var r${k} = x + ${k}.0;`).join('\n  ');
  const steps = Array.from({ length: regs }, (_, k) => `r${k} = r${k} * m + ${(k % 7) + 1}.0;`).join('\n    ');
  const sum = Array.from({ length: regs }, (_, k) => `r${k}`).join(' + ');
  return `@group(0) @binding(0) var<storage, read_write> counters: array<atomic<u32>, 4>;
@group(0) @binding(1) var<storage, read_write> sink: array<f32>;
@group(0) @binding(2) var<uniform> P: vec4<u32>;
var<workgroup> sh: array<f32, ${S}>;

@compute @workgroup_size(${W})
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  for (var k = li; k < ${S}u; k += ${W}u) { sh[k] = f32(k); }
  workgroupBarrier();
  if (li == 0u) {
    let v = atomicAdd(&counters[0], 1u) + 1u;
    atomicMax(&counters[1], v);
  }
  let x = sh[(li * 7u) % ${S}u];
  let m = 1.0 + f32(P.y) * 1e-9;
  ${vars}
  for (var i = 0u; i < P.x; i++) {
    ${steps}
  }
  workgroupBarrier();
  if (li == 0u) { atomicSub(&counters[0], 1u); }
  let s = ${sum};
  // Never true for the values used; keeps every chain live without a store per invocation.
  if (s == 1.2345e-30) { sink[wid.x * ${W}u + li] = s; }
}
`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = new Output(args.json);
  const ctx = await defaultGpuContext();
  const { device } = ctx;
  const wgs = parseRange(args.wg ?? '128,256,512');
  const smems = parseRange(args.smem ?? '0,8192,17408,34816,49152');
  const regsList = parseRange(args.regs ?? '8,64,128');
  const sms = Number(args.sms ?? 132);
  const spin = Number(args.spin ?? 200000);
  const name = ctx.adapter.description || ctx.adapter.device || ctx.adapter.vendor;
  const counters = device.createBuffer({
    size: 16,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
  });
  const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const sink = device.createBuffer({ size: 4 * 1024 * 64 * sms, usage: GPUBufferUsage.STORAGE });
  const uni = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const rows: (string | number)[][] = [];
  for (const W of wgs) {
    for (const smem of smems) {
      if (smem > ctx.limits.maxComputeWorkgroupStorageSize) continue;
      for (const regs of regsList) {
        const pipe = await getPipeline(ctx, {
          name: `occ-${W}-${smem}-${regs}`,
          key: `occ-${W}-${smem}-${regs}`,
          wgsl: kernel(W, smem, regs),
          entryPoint: 'main',
        });
        const bg = device.createBindGroup({
          layout: pipe.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: counters } },
            { binding: 1, resource: { buffer: sink } },
            { binding: 2, resource: { buffer: uni } },
          ],
        });
        // Enough workgroups for several waves at any occupancy (at most 64 an SM for workgroups ≥ 32).
        const groups = Math.min(sms * 64, Math.floor(sink.size / 4 / W));
        // The same multiply-adds an invocation whatever its live values: spin / regs iterations.
        device.queue.writeBuffer(uni, 0, new Uint32Array([Math.max(1, Math.round(spin / regs)), 1, 0, 0]));
        let peak = 0;
        let ms = 0;
        for (let rep = 0; rep < 2; rep++) {
          device.queue.writeBuffer(counters, 0, new Uint32Array(4));
          const enc = device.createCommandEncoder();
          const pass = enc.beginComputePass();
          pass.setPipeline(pipe);
          pass.setBindGroup(0, bg);
          pass.dispatchWorkgroups(groups);
          pass.end();
          enc.copyBufferToBuffer(counters, 0, read, 0, 16);
          const t0 = performance.now();
          device.queue.submit([enc.finish()]);
          await read.mapAsync(GPUMapMode.READ);
          ms = performance.now() - t0;
          peak = new Uint32Array(read.getMappedRange().slice(0))[1];
          read.unmap();
        }
        const perSm = peak / sms;
        rows.push([
          W,
          smem,
          regs,
          groups,
          peak,
          perSm.toFixed(2),
          (perSm * W).toFixed(0),
          ((perSm * smem) / 1024).toFixed(0),
          ms.toFixed(1),
        ]);
        out.record({
          kind: 'occupancy',
          device: name,
          wg: W,
          smem,
          regs,
          groups,
          peak,
          perSm,
          threadsPerSm: perSm * W,
          smemPerSmKiB: (perSm * smem) / 1024,
          ms,
        });
      }
    }
  }
  console.log(`occupancy probe on ${name} (${sms} SMs assumed, spin ${spin})`);
  console.log(
    table(['wg', 'smem B', 'live f32', 'groups', 'peak resident', 'per SM', 'threads/SM', 'smem KiB/SM', 'ms'], rows),
  );
  ctx.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
