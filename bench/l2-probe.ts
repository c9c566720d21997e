/**
 * Probe of a two-pass FFT fused into one kernel whose intermediate goes through a small scratch area that
 * stays in the L2 cache, without the FFT: each workgroup owns one n = n1·n2 problem, moves it column by
 * column (runs of cols1 neighbouring columns, as a first pass reads) through workgroup memory into its
 * scratch slot, then reads the slot back in runs of K neighbouring k1 values (as a second pass reads) and
 * stores them n1 apart (as the last pass stores). Only the data movement of the fused kernel, to learn
 * whether a read and a write of DRAM per element (one device copy) is within reach before writing it.
 *
 * Scratch modes: 'full' (a slot a problem: the intermediate reaches DRAM), 'mod' (slot = workgroup mod S,
 * S·n·8 bytes = --scratchMB; unsafe for data, fine for traffic), 'ticket' (a problem and slot from an atomic
 * ticket; a workgroup waits until the slot's previous user has finished: the safe form), and 'twopass'
 * (the same movement as two dispatches through a full-size intermediate, today's structure).
 *
 *   node .gpu/bench-l2-probe.mjs [--n 128x128,256x256] [--wg 256] [--E 16] [--scratchMB 8,16,32]
 *                                [--modes full,mod,ticket,twopass] [--total 27] [--json out.jsonl]
 */
import { defaultGpuContext } from '../src/backends/webgpu/device.js';
import { getPipeline } from '../src/backends/webgpu/pipelines.js';
import { copyBandwidth, exactGrid, Output, parseArgs, table, timeGpu } from './common.js';

type Mode = 'full' | 'mod' | 'ticket' | 'twopass';

interface Shape {
  n1: number;
  n2: number;
  W: number;
  E: number;
  K: number;
}

/** Phase one: columns of n1 points, cols1 = W·E/n1 of them a round, into the slot as contiguous rows. */
function phase1(s: Shape, dstName: string, dstBase: string): string {
  const { n1, n2, W, E } = s;
  const cols = (W * E) / n1;
  const L = n1 / E;
  const ld = Array.from(
    { length: E },
    (_, k) => `      let v${k} = src[pbase + (t + ${k * L}u) * ${n2}u + r * ${cols}u + cc];`,
  ).join('\n');
  const ws = Array.from({ length: E }, (_, k) => `      sh[cc * ${n1 + 1}u + t + ${k * L}u] = v${k};`).join('\n');
  const st = Array.from(
    { length: E },
    (_, k) =>
      `      { let j = lid + ${k * W}u; ${dstName}[${dstBase} + r * ${cols * n1}u + j] = sh[(j / ${n1}u) * ${n1 + 1}u + j % ${n1}u]; }`,
  ).join('\n');
  return `  {
    let cc = lid % ${cols}u;
    let t = lid / ${cols}u;
    for (var r = 0u; r < ${n2 / cols}u; r++) {
${ld}
${ws}
      workgroupBarrier();
${st}
      workgroupBarrier();
    }
  }`;
}

/** Phase two: K neighbouring k1 a round, n2 points each, read n1 apart from the slot, stored n1 apart. */
function phase2(s: Shape, srcName: string, srcBase: string): string {
  const { n1, n2, E, K } = s;
  const L = n2 / E;
  const ld = Array.from(
    { length: E },
    (_, k) => `      let v${k} = ${srcName}[${srcBase} + (t + ${k * L}u) * ${n1}u + r * ${K}u + kk];`,
  ).join('\n');
  const ws = Array.from({ length: E }, (_, k) => `      sh[kk * ${n2 + 1}u + t + ${k * L}u] = v${k};`).join('\n');
  const rs = Array.from({ length: E }, (_, k) => `      let u${k} = sh[kk * ${n2 + 1}u + t * ${E}u + ${k}u];`).join(
    '\n',
  );
  const st = Array.from(
    { length: E },
    (_, k) => `      dst[pbase + r * ${K}u + kk + (t * ${E}u + ${k}u) * ${n1}u] = u${k};`,
  ).join('\n');
  return `  {
    let kk = lid % ${K}u;
    let t = lid / ${K}u;
    for (var r = 0u; r < ${n1 / K}u; r++) {
${ld}
${ws}
      workgroupBarrier();
${rs}
      workgroupBarrier();
${st}
    }
  }`;
}

function fusedKernel(s: Shape, mode: Exclude<Mode, 'twopass'>, S: number): string {
  const n = s.n1 * s.n2;
  const shLen = Math.max(((s.W * s.E) / s.n1) * (s.n1 + 1), s.K * (s.n2 + 1));
  const ticket = mode === 'ticket';
  const slot = mode === 'full' ? 'problem' : `(problem % ${S}u)`;
  return `@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read_write> scratch: array<vec2<f32>>;
@group(0) @binding(3) var<storage, read_write> sync: array<atomic<u32>>;
var<workgroup> sh: array<vec2<f32>, ${shLen}>;
var<workgroup> ticket: u32;
@compute @workgroup_size(${s.W})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
${
  ticket
    ? `  if (lid == 0u) {
    // sync[0]: the ticket counter; sync[1 + slot]: how many workgroups have finished with the slot.
    let tk = atomicAdd(&sync[0], 1u);
    loop {
      if (atomicLoad(&sync[1u + tk % ${S}u]) >= tk / ${S}u) { break; }
    }
    ticket = tk;
  }
  let problem = workgroupUniformLoad(&ticket);`
    : `  let problem = wid.x + wid.y * nw.x;`
}
  let pbase = problem * ${n}u;
  let sbase = ${slot} * ${n}u;
${phase1(s, 'scratch', 'sbase')}
  storageBarrier();
${phase2(s, 'scratch', 'sbase')}
${
  ticket
    ? `  storageBarrier();
  workgroupBarrier();
  if (lid == 0u) { atomicAdd(&sync[1u + problem % ${S}u], 1u); }`
    : ''
}
  _ = &sync;
}`;
}

/** The same movement as two dispatches (pass one writes `mid`, pass two reads it). */
function twoPassKernel(s: Shape, pass: 1 | 2): string {
  const n = s.n1 * s.n2;
  const shLen = pass === 1 ? ((s.W * s.E) / s.n1) * (s.n1 + 1) : s.K * (s.n2 + 1);
  return `@group(0) @binding(0) var<storage, read> src: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec2<f32>>;
var<workgroup> sh: array<vec2<f32>, ${shLen}>;
@compute @workgroup_size(${s.W})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let problem = wid.x + wid.y * nw.x;
  let pbase = problem * ${n}u;
${pass === 1 ? phase1(s, 'dst', 'pbase') : phase2(s, 'src', 'pbase')}
}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const ctx = await defaultGpuContext();
  const total = 2 ** Number(args.total ?? (ctx.adapter.software ? 18 : 27));
  const shapes = (args.n ?? '128x128,256x256').split(',').map((x) => x.split('x').map(Number));
  const W = Number(args.wg ?? 256);
  const E = Number(args.E ?? 16);
  const MBs = (args.scratchMB ?? '8,16,32').split(',').map(Number);
  const modes = (args.modes ?? 'full,mod,ticket,twopass').split(',') as Mode[];
  const reps = ctx.adapter.software ? 2 : 20;
  const out = new Output(args.json);
  const device = ctx.adapter.description || ctx.adapter.vendor;
  const bytes = total * 8;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const a = ctx.device.createBuffer({ size: bytes, usage });
  const b = ctx.device.createBuffer({ size: bytes, usage });
  const mid = ctx.device.createBuffer({ size: bytes, usage });
  const copy = await copyBandwidth(ctx, a, b, bytes, reps);
  out.record({ lib: 'device-copy', device, bytes, ms: copy.ms, GBps: copy.GBps });
  const rows: (string | number)[][] = [];
  for (const [n1, n2] of shapes) {
    const K = (W * E) / n2;
    const s: Shape = { n1, n2, W, E, K };
    const n = n1 * n2;
    const problems = total / n;
    if ((W * E) % n1 !== 0 || !Number.isInteger(K) || n1 % K !== 0) {
      console.log(`skip ${n1}x${n2}: W·E must be a multiple of n1 and of n2`);
      continue;
    }
    const [gx, gy] = exactGrid(ctx, problems);
    for (const mode of modes) {
      for (const MB of mode === 'mod' || mode === 'ticket' ? MBs : [0]) {
        const S = Math.max(1, Math.floor((MB * 2 ** 20) / (8 * n)));
        let ms: number;
        if (mode === 'twopass') {
          const p1 = await getPipeline(ctx, {
            name: 'l2probe-p1',
            key: `l2p1|${n1}|${n2}|${W}|${E}|${K}|${total}`,
            wgsl: twoPassKernel(s, 1),
            entryPoint: 'main',
          });
          const p2 = await getPipeline(ctx, {
            name: 'l2probe-p2',
            key: `l2p2|${n1}|${n2}|${W}|${E}|${K}|${total}`,
            wgsl: twoPassKernel(s, 2),
            entryPoint: 'main',
          });
          const bg1 = ctx.device.createBindGroup({
            layout: p1.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: { buffer: a } },
              { binding: 1, resource: { buffer: mid } },
            ],
          });
          const bg2 = ctx.device.createBindGroup({
            layout: p2.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: { buffer: mid } },
              { binding: 1, resource: { buffer: b } },
            ],
          });
          ms = await timeGpu(
            ctx,
            (enc) => {
              const p = enc.beginComputePass();
              p.setPipeline(p1);
              p.setBindGroup(0, bg1);
              p.dispatchWorkgroups(gx, gy);
              p.setPipeline(p2);
              p.setBindGroup(0, bg2);
              p.dispatchWorkgroups(gx, gy);
              p.end();
            },
            reps,
          );
        } else {
          const slots = mode === 'full' ? problems : S;
          const scratch = mode === 'full' ? mid : ctx.device.createBuffer({ size: slots * n * 8, usage });
          const sync = ctx.device.createBuffer({ size: 4 * (1 + slots), usage });
          const pipe = await getPipeline(ctx, {
            name: `l2probe-${mode}`,
            key: `l2|${n1}|${n2}|${W}|${E}|${K}|${mode}|${S}|${total}`,
            wgsl: fusedKernel(s, mode, S),
            entryPoint: 'main',
          });
          const bg = ctx.device.createBindGroup({
            layout: pipe.getBindGroupLayout(0),
            entries: [a, b, scratch, sync].map((buffer, binding) => ({ binding, resource: { buffer } })),
          });
          ms = await timeGpu(
            ctx,
            (enc) => {
              if (mode === 'ticket') enc.clearBuffer(sync);
              const p = enc.beginComputePass();
              p.setPipeline(pipe);
              p.setBindGroup(0, bg);
              p.dispatchWorkgroups(gx, gy);
              p.end();
            },
            reps,
          );
          if (scratch !== mid) scratch.destroy();
          sync.destroy();
        }
        const GBps = (2 * bytes) / (ms * 1e6);
        const label = mode === 'mod' || mode === 'ticket' ? `${mode} ${MB} MB (${S} slots)` : mode;
        rows.push([`${n1}x${n2}`, label, ms.toFixed(3), GBps.toFixed(0), (GBps / copy.GBps).toFixed(2)]);
        out.record({
          lib: 'l2-probe',
          device,
          n1,
          n2,
          W,
          E,
          K,
          mode,
          scratchMB: MB,
          slots: S,
          ms,
          GBps,
          fracCopy: GBps / copy.GBps,
        });
      }
    }
  }
  console.log(
    `fused two-pass probe on ${device}: ${total} complex64 elements, device copy ${copy.GBps.toFixed(0)} GB/s (${copy.ms.toFixed(3)} ms)`,
  );
  console.log(table(['n1 x n2', 'scratch', 'ms', 'GB/s', 'of copy'], rows));
  for (const x of [a, b, mid]) x.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
