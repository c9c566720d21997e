/**
 * Batched tridiagonal benchmark (Wang & Mou / ID-TS on WebGPU), in the conventions of the seeds and of
 * ../shared/gpu-kit/anchor_cusparse.py: total rows fixed (2^24 by default), batch = total / N,
 * float32 diagonally dominant systems resident on the GPU, Mrows/s = N·batch / t, effective GB/s at
 * the minimum traffic of 20 bytes a row (4 arrays read, 1 written), median of repetitions. GPU time
 * comes from timestamp queries when the device has them, else from many solves between two
 * onSubmittedWorkDone waits. A device copy (copyBufferToBuffer) is timed in the same run as the
 * practical bandwidth ceiling.
 *
 *   node bench-tridiagonal.mjs [--total 24] [--sizes 2-24] [--layouts strided,interleaved]
 *                              [--reps 10] [--json] [--out file.jsonl] [--software]
 * On a software adapter the default total is 2^18 (--total overrides).
 */
import { writeFileSync, appendFileSync } from 'node:fs';
import { defaultGpuContext, readBuffer, type GpuContext } from '../src/backends/webgpu/device.js';
import { TridiagonalGpuExecutor, type TridiagonalGpuBuffers } from '../src/backends/webgpu/tridiagonal.js';
import { planTridiagonal, type TridiagonalLayout } from '../src/planner/tridiagonal.js';

interface Args {
  direct?: boolean;
  directMax?: number;
  ips?: number;
  alignChunks?: boolean;
  branchFree?: boolean;
  normalized?: boolean;
  chunksPerWg?: number;
  pingPong?: boolean;
  thomasThreads?: number;
  streamRows?: number;
  streamChunk?: number;
  swizzle?: boolean;
  interior?: 'wang-mou' | 'thomas';
  rowsPerThread?: number;
  maxRows?: number;
  targetRows?: number;
  partitionRows?: number;
  label?: string;
  total?: number;
  sizes: number[];
  layouts: TridiagonalLayout[];
  reps: number;
  json: boolean;
  out?: string;
  software: boolean;
  radix?: 2 | 4;
}

function parseRange(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    if (part.includes('-')) {
      const [a, b] = part.split('-').map(Number);
      for (let k = a; k <= b; k++) out.push(k);
    } else out.push(Number(part));
  }
  if (out.some((v) => !Number.isInteger(v) || v < 0 || v > 30))
    throw new Error(`--sizes: expected log2 sizes like 2-24, got ${spec}`);
  return out;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { sizes: [], layouts: ['strided', 'interleaved'], reps: 10, json: false, software: false };
  let sizes = '';
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${k} needs a value`);
      return x;
    };
    if (k === '--total') a.total = Number(v());
    else if (k === '--sizes') sizes = v();
    else if (k === '--layouts') a.layouts = v().split(',') as TridiagonalLayout[];
    else if (k === '--reps') a.reps = Number(v());
    else if (k === '--radix') a.radix = Number(v()) as 2 | 4;
    else if (k === '--rows-per-thread') a.rowsPerThread = Number(v());
    else if (k === '--no-swizzle') a.swizzle = false;
    else if (k === '--no-ping-pong') a.pingPong = false;
    else if (k === '--no-normalize') a.normalized = false;
    else if (k === '--branchy') a.branchFree = false;
    else if (k === '--align-chunks') a.alignChunks = true;
    else if (k === '--il-partition-systems') a.ips = Number(v());
    else if (k === '--chunks-per-wg') a.chunksPerWg = Number(v());
    else if (k === '--stream-rows') a.streamRows = Number(v());
    else if (k === '--stream-chunk') a.streamChunk = Number(v());
    else if (k === '--thomas-threads') a.thomasThreads = Number(v());
    else if (k === '--interior') a.interior = v() as 'wang-mou' | 'thomas';
    else if (k === '--max-rows') a.maxRows = Number(v());
    else if (k === '--no-direct') a.direct = false;
    else if (k === '--direct-max') a.directMax = Number(v());
    else if (k === '--target-rows') a.targetRows = Number(v());
    else if (k === '--partition-rows') a.partitionRows = Number(v());
    else if (k === '--label') a.label = v();
    else if (k === '--json') a.json = true;
    else if (k === '--out') a.out = v();
    else if (k === '--software') a.software = true;
    else if (k === '--help' || k === '-h') {
      console.log(
        'options: --total LOG2 --sizes 2-24 --layouts strided,interleaved --reps N --radix 2|4 --rows-per-thread R --interior wang-mou|thomas --no-swizzle --no-ping-pong --no-normalize --branchy --align-chunks --il-partition-systems G --chunks-per-wg G --stream-rows N --stream-chunk K --thomas-threads T --max-rows P --no-direct --direct-max P --target-rows T --partition-rows Q --label L --json --out FILE --software',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${k}`);
  }
  if (sizes) a.sizes = parseRange(sizes);
  return a;
}

function median(v: number[]): number {
  const s = [...v].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** Random diagonally dominant float32 data, generated once for the whole run (content does not depend on N). */
function randomData(rows: number, seed: number): Float32Array[] {
  let st = seed >>> 0;
  const rnd = () => {
    st = (st + 0x6d2b79f5) >>> 0;
    let t = st;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const a = new Float32Array(rows),
    b = new Float32Array(rows),
    c = new Float32Array(rows),
    d = new Float32Array(rows);
  for (let i = 0; i < rows; i++) {
    a[i] = 2 * rnd() - 1;
    c[i] = 2 * rnd() - 1;
    b[i] = 3 + rnd();
    d[i] = 2 * rnd() - 1;
  }
  return [a, b, c, d];
}

async function timeSolves(
  ctx: GpuContext,
  ex: TridiagonalGpuExecutor,
  bufs: TridiagonalGpuBuffers,
  reps: number,
): Promise<{ ms: number; method: string }> {
  const d = ctx.device;
  // Warm-up (compiles, first-touch).
  {
    const enc = d.createCommandEncoder();
    ex.record(enc, bufs);
    d.queue.submit([enc.finish()]);
    await d.queue.onSubmittedWorkDone();
  }
  if (ctx.timestamps) {
    const qs = d.createQuerySet({ type: 'timestamp', count: 2 });
    const resolve = d.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const times: number[] = [];
    let k = 20;
    try {
      // Dawn may quantise timestamps (~65 µs seen on the H200), so one measurement spans k solves: 20 for a
      // first estimate, then enough for ≥ 5 ms (at most 400), so the quantum is ≤ ~1.3% of a measurement.
      const span = async (k: number): Promise<number> => {
        const enc = d.createCommandEncoder();
        for (let i = 0; i < k; i++) {
          const tw: GPUComputePassTimestampWrites = { querySet: qs };
          if (i === 0) tw.beginningOfPassWriteIndex = 0;
          if (i === k - 1) tw.endOfPassWriteIndex = 1;
          ex.record(enc, bufs, i === 0 || i === k - 1 ? tw : undefined);
        }
        enc.resolveQuerySet(qs, 0, 2, resolve, 0);
        d.queue.submit([enc.finish()]);
        const t = new BigUint64Array(await readBuffer(ctx, resolve, 0, 16));
        return Number(t[1] - t[0]) / 1e6 / k;
      };
      const estimate = await span(k);
      k = Math.min(400, Math.max(20, Math.ceil(5 / Math.max(estimate, 1e-3))));
      for (let r = 0; r < reps; r++) times.push(await span(k));
    } finally {
      qs.destroy();
      resolve.destroy();
    }
    return { ms: median(times), method: `timestamp-query/${k}` };
  }
  // No timestamps: k solves per submit, between two onSubmittedWorkDone waits.
  const k = 8;
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const enc = d.createCommandEncoder();
    for (let i = 0; i < k; i++) ex.record(enc, bufs);
    await d.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    d.queue.submit([enc.finish()]);
    await d.queue.onSubmittedWorkDone();
    times.push((performance.now() - t0) / k);
  }
  return { ms: median(times), method: `submit-wait/${k}` };
}

async function timeCopy(ctx: GpuContext, src: GPUBuffer, dst: GPUBuffer, bytes: number, reps: number): Promise<number> {
  const d = ctx.device;
  const k = 64;
  const times: number[] = [];
  for (let r = 0; r <= reps; r++) {
    const enc = d.createCommandEncoder();
    for (let i = 0; i < k; i++) enc.copyBufferToBuffer(src, 0, dst, 0, bytes);
    await d.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    d.queue.submit([enc.finish()]);
    await d.queue.onSubmittedWorkDone();
    if (r > 0) times.push((performance.now() - t0) / k);
  }
  return median(times);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const ctx = await defaultGpuContext(args.software ? { adapter: 'software' } : {});
  const software = ctx.adapter.software;
  const totalLog2 = args.total ?? (software ? 18 : 24);
  const rows = 2 ** totalLog2;
  const sizes = args.sizes.length
    ? args.sizes.filter((s) => s <= totalLog2)
    : Array.from({ length: totalLog2 - 1 }, (_, i) => i + 2);
  const devName = `${ctx.adapter.vendor} ${ctx.adapter.device || ctx.adapter.description}`.trim();
  if (args.out) writeFileSync(args.out, '');
  const emit = (o: Record<string, unknown>) => {
    const line = JSON.stringify(o);
    if (args.json) console.log(line);
    if (args.out) appendFileSync(args.out, line + '\n');
  };
  const mk = (data: Float32Array | number, label: string) => {
    const size = typeof data === 'number' ? data : data.byteLength;
    const b = ctx.device.createBuffer({
      size,
      label,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    if (typeof data !== 'number')
      ctx.device.queue.writeBuffer(b, 0, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    return b;
  };
  const [ha, hb, hc, hd] = randomData(rows, 12345);
  const bufsBase = {
    lower: mk(ha, 'lower'),
    diag: mk(hb, 'diag'),
    upper: mk(hc, 'upper'),
    rhs: mk(hd, 'rhs'),
    out: mk(rows * 4, 'x'),
    status: mk(Math.max(16, rows), 'status'),
  };
  const copyMs = await timeCopy(ctx, bufsBase.rhs, bufsBase.out, rows * 4, args.reps);
  const copyGBps = (2 * rows * 4) / copyMs / 1e6;
  emit({ lib: 'butterfly', fn: 'device-copy', device: devName, bytes: rows * 4, ms: copyMs, GBps: copyGBps });
  if (!args.json) {
    console.log(
      `device: ${devName}${software ? ' (software)' : ''}; timestamps: ${ctx.timestamps}; total rows 2^${totalLog2}; device copy ${copyGBps.toFixed(1)} GB/s`,
    );
    console.log('layout       log2N         N     batch  levels  disp        ms      Mrows/s       GB/s  of-copy');
  }
  for (const layout of args.layouts) {
    for (const n of sizes) {
      const N = 2 ** n;
      const batch = rows / N;
      const recipe = planTridiagonal({ n: N, batch, nrhs: 1, complex: false, layout }, ctx.limits, {
        radix: args.radix,
        rowsPerThread: args.rowsPerThread,
        maxRowsPerWorkgroup: args.maxRows,
        targetRowsPerWorkgroup: args.targetRows,
        partitionRowsPerWorkgroup: args.partitionRows,
        interior: args.interior,
        swizzle: args.swizzle,
        interleavedStreamRows: args.streamRows,
        streamChunk: args.streamChunk,
        thomasThreads: args.thomasThreads,
        pingPong: args.pingPong,
        partitionChunksPerWorkgroup: args.chunksPerWg,
        normalizedRows: args.normalized,
        branchFree: args.branchFree,
        alignChunks: args.alignChunks,
        interleavedPartitionSystems: args.ips,
        directRows: args.direct,
        directMaxRows: args.directMax,
      });
      let ex: TridiagonalGpuExecutor | null = null;
      try {
        ex = await TridiagonalGpuExecutor.create(ctx, recipe);
        const { ms, method } = await timeSolves(ctx, ex, bufsBase, args.reps);
        const st = new Uint32Array(await readBuffer(ctx, bufsBase.status, 0, Math.min(batch, 1024) * 4));
        const mrows = rows / ms / 1e3;
        const gbps = (20 * rows) / ms / 1e6;
        emit({
          lib: 'butterfly',
          fn: `wang-mou-${layout}`,
          label: args.label ?? 'default',
          layout,
          device: devName,
          log2N: n,
          N,
          batch,
          ms,
          Mrows_per_s: mrows,
          GBps: gbps,
          fractionOfCopy: gbps / copyGBps,
          levels: recipe.levels
            .map(
              (l) =>
                `${l.mode}:${l.n}/${l.rowsPerWorkgroup}x${l.rowsPerThread}${l.interior === 'thomas' ? 't' : ''}${l.directRows ? 'd' : ''}${l.algorithm && l.algorithm !== 'wang-mou' ? ':' + l.algorithm : ''}`,
            )
            .join(' '),
          dispatches: ex.dispatches,
          timing: method,
          statusOk: st.every((s) => s === 0),
        });
        if (!args.json) {
          console.log(
            `${layout.padEnd(12)} ${String(n).padStart(5)} ${String(N).padStart(9)} ${String(batch).padStart(9)} ${String(recipe.levels.length).padStart(7)} ${String(ex.dispatches).padStart(5)} ${ms.toFixed(4).padStart(9)} ${mrows.toFixed(0).padStart(12)} ${gbps.toFixed(1).padStart(10)} ${(gbps / copyGBps).toFixed(2).padStart(8)}`,
          );
        }
      } catch (e) {
        emit({
          lib: 'butterfly',
          fn: `wang-mou-${layout}`,
          layout,
          device: devName,
          log2N: n,
          N,
          batch,
          error: String(e),
        });
        if (!args.json) console.log(`${layout.padEnd(12)} ${String(n).padStart(5)}  error: ${String(e)}`);
      } finally {
        ex?.destroy();
      }
    }
  }
  for (const b of Object.values(bufsBase)) b.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
