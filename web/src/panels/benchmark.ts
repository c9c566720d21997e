/**
 * Benchmarks in the page, in the conventions of bench/ (DESIGN.md): total elements fixed, batch =
 * total / N, data resident on the device, GFLOPS = 5·N·log2N·batch / t for complex FFTs, Mrows/s =
 * N·batch / t for tridiagonal solves; the median of a few rounds, each round many transforms recorded
 * into one submission between two onSubmittedWorkDone waits (wall clock: a browser's timestamp
 * queries are quantised). On the CPU backend the same sizes run on float64 typed arrays.
 *
 * Each size is also checked for accuracy (batch 3, seeded random input) against the float64 CPU
 * backend; the rows go to window.__butterfly.demos.bench.
 *
 * URL options: ?bench=quick (small totals and fewer sizes, for tests and software adapters),
 * ?bench=off, ?benchTotal=LOG2 (FFT complex elements per run).
 */
import { createFftPlan, fft } from '../../../src/api/fft.js';
import { createTridiagonalPlan, type TridiagonalData } from '../../../src/api/tridiagonal.js';
import { createStorageBuffer, type GpuContext } from '../../../src/backends/webgpu/device.js';
import { TridiagonalGpuExecutor } from '../../../src/backends/webgpu/tridiagonal.js';
import { planTridiagonal } from '../../../src/planner/tridiagonal.js';
import { randomFloat32, randomFloat64, rng } from '../../../src/util/random.js';
import { DeviceLimitError, UnsupportedError } from '../../../src/errors.js';
import {
  animations,
  button,
  canvas,
  errorText,
  fmt,
  nextFrame,
  panel,
  relL2,
  state,
  type DemoResult,
  type Env,
} from '../common.js';
import { logLogPlot, type Series } from '../plot.js';

/** cpuGflops: the CPU engine in float32 (WebAssembly SIMD, one thread, engine buffers) on the same N, beside WebGPU. */
interface FftRow {
  n: number;
  batch: number;
  ms: number;
  gflops: number;
  relErr: number;
  bound: number;
  pass: boolean;
  skipped?: string;
  cpuGflops?: number;
  cpuRelErr?: number;
}
interface TriRow {
  n: number;
  batch: number;
  ms: number;
  mrows: number;
  relErr: number;
  bound: number;
  pass: boolean;
  skipped?: string;
}

const POW2_LOG = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const MIXED = [12, 60, 100, 360, 1000, 2187, 3125, 6000];
const TRI_LOG = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** ms per `encode`: k encodes per submission, k chosen so a round takes ≥ ~targetMs; median of rounds. */
async function timeGpu(
  ctx: GpuContext,
  encode: (enc: GPUCommandEncoder) => void,
  targetMs: number,
  rounds: number,
): Promise<number> {
  const d = ctx.device;
  const run = async (k: number) => {
    const enc = d.createCommandEncoder();
    for (let i = 0; i < k; i++) encode(enc);
    await d.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    d.queue.submit([enc.finish()]);
    await d.queue.onSubmittedWorkDone();
    return (performance.now() - t0) / k;
  };
  const first = await run(1); // warm-up: pipelines, first touch
  const k = Math.max(1, Math.min(64, Math.ceil(targetMs / Math.max(first, 1e-3))));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) times.push(await run(k));
  return median(times);
}

async function timeCpu(fn: () => void | Promise<unknown>, targetMs: number, rounds: number): Promise<number> {
  const t0 = performance.now();
  await fn();
  const first = performance.now() - t0;
  const k = Math.max(1, Math.min(32, Math.ceil(targetMs / Math.max(first, 1e-3))));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < k; i++) await fn();
    times.push((performance.now() - t) / k);
  }
  return median(times);
}

export async function start(env: Env): Promise<void> {
  const mode = env.params.get('bench') ?? 'auto'; // auto: quick on a software adapter
  const p = panel(
    'bench',
    'Benchmark: throughput against N',
    'Complex FFTs (GFLOPS = 5·N·log₂N·batch / t) and batched tridiagonal solves (Mrows/s), fixed total size, batch = total / N, data resident on the device. Every size is also checked against the float64 CPU backend.',
  );
  const fftCanvas = canvas(700, 300);
  const triCanvas = canvas(700, 260);
  const controls = document.createElement('div');
  controls.className = 'controls';
  const table = document.createElement('table');
  table.className = 'bench';
  p.body.append(controls, fftCanvas, triCanvas, table);

  const software = env.gpu?.adapter.software ?? false;
  const quick = mode === 'quick' || (mode === 'auto' && software);
  const gpu = env.backend === 'webgpu' ? env.gpu! : null;
  const totalLog2 = Number(env.params.get('benchTotal')) || (gpu ? (quick || software ? 16 : 22) : quick ? 14 : 16);
  const triTotalLog2 = gpu ? (quick || software ? 16 : 22) : quick ? 13 : 16;
  const targetMs = quick ? 15 : 60;
  const rounds = quick ? 3 : 5;
  const pow2 = POW2_LOG.filter((e) => e <= totalLog2 && (!quick || e % 2 === 1 || e === 12));
  const mixed = quick ? [60, 1000, 2187] : MIXED;
  const tri = TRI_LOG.filter((e) => e <= triTotalLog2 && (!quick || e % 2 === 0));

  const fftRows: FftRow[] = [];
  const triRows: TriRow[] = [];
  const result: DemoResult = {
    state: 'running',
    backend: env.backend,
    quick,
    totalLog2,
    triTotalLog2,
    fft: fftRows,
    tridiagonal: triRows,
  };
  let runs = 0;

  const redraw = () => {
    const s: Series[] = [
      {
        label: `FFT, N = 2^k (${env.backend})`,
        colour: '#7aa2ff',
        points: fftRows.filter((r) => !r.skipped && (r.n & (r.n - 1)) === 0).map((r) => ({ x: r.n, y: r.gflops })),
      },
      {
        label: 'FFT, mixed radix',
        colour: '#f0b84a',
        points: fftRows.filter((r) => !r.skipped && (r.n & (r.n - 1)) !== 0).map((r) => ({ x: r.n, y: r.gflops })),
      },
      {
        label: 'CPU engine (f32, WebAssembly SIMD, 1 thread, engine buffers)',
        colour: '#e07a9a',
        points: fftRows.filter((r) => r.cpuGflops !== undefined).map((r) => ({ x: r.n, y: r.cpuGflops! })),
      },
    ];
    logLogPlot(fftCanvas, s, `FFT length N (total 2^${totalLog2} complex elements)`, 'GFLOPS');
    logLogPlot(
      triCanvas,
      [
        {
          label: `tridiagonal (${env.backend}, float${gpu ? 32 : 64})`,
          colour: '#6fd08c',
          points: triRows.filter((r) => !r.skipped).map((r) => ({ x: r.n, y: r.mrows })),
        },
      ],
      `rows per system N (total 2^${triTotalLog2} rows)`,
      'Mrows/s',
    );
    table.innerHTML =
      '<tr><th>kind</th><th>N</th><th>batch</th><th>ms</th><th>throughput</th><th>rel. error</th></tr>' +
      fftRows
        .map(
          (r) =>
            `<tr><td>fft</td><td>${r.n}</td><td>${r.batch}</td><td>${r.skipped ? '' : fmt(r.ms)}</td><td>${r.skipped ? r.skipped : `${fmt(r.gflops)} GFLOPS`}${r.cpuGflops !== undefined ? ` (CPU engine f32: ${fmt(r.cpuGflops)})` : ''}</td><td>${r.skipped ? '' : fmt(r.relErr)}</td></tr>`,
        )
        .join('') +
      triRows
        .map(
          (r) =>
            `<tr><td>tridiag</td><td>${r.n}</td><td>${r.batch}</td><td>${r.skipped ? '' : fmt(r.ms)}</td><td>${r.skipped ? r.skipped : `${fmt(r.mrows)} Mrows/s`}</td><td>${r.skipped ? '' : fmt(r.relErr)}</td></tr>`,
        )
        .join('');
  };

  async function benchFft(n: number): Promise<FftRow> {
    const batch = Math.max(1, Math.floor(2 ** totalLog2 / n));
    // Accuracy: batch 3, seeded input, against float64.
    const x64 = randomFloat64(2 * 3 * n, n);
    const ref = (await fft(x64, { shape: [3, n], backend: 'cpu' })) as Float64Array;
    const got = gpu
      ? await fft(Float32Array.from(x64), { shape: [3, n], backend: 'webgpu', gpu })
      : await fft(x64, { shape: [3, n], backend: 'cpu' });
    const relErr = relL2(got, ref);
    const bound = gpu ? 1e-5 : 1e-12;
    const plan = await createFftPlan({ n, batch, direction: 'forward', backend: env.backend, gpu: gpu ?? undefined });
    let ms: number;
    try {
      if (gpu) {
        const src = createStorageBuffer(gpu, randomFloat32(2 * n * batch, 7), 'bench src');
        const dst = createStorageBuffer(gpu, 8 * n * batch, 'bench dst');
        try {
          ms = await timeGpu(gpu, (enc) => plan.encode(enc, src, dst), targetMs, rounds);
        } finally {
          src.destroy();
          dst.destroy();
        }
      } else {
        const data = randomFloat64(2 * n * batch, 7);
        ms = await timeCpu(() => plan.execute(data), targetMs, rounds);
      }
    } finally {
      plan.destroy();
    }
    // The CPU engine in float32 on the same length (smaller total: it runs on one core), checked too. It is
    // timed on the plan's engine buffers, its fastest path (no copies), which must agree with ordinary arrays.
    const cpuBatch = Math.max(1, Math.floor(2 ** (quick ? 14 : 16) / n));
    const cpuGot = await fft(Float32Array.from(x64), { shape: [3, n], backend: 'cpu' });
    const cpuRelErr = relL2(cpuGot, ref);
    const cpuPlan = await createFftPlan({ n, batch: cpuBatch, direction: 'forward', backend: 'cpu', threads: 1 });
    const cpuBuf = cpuPlan.createBuffers('f32');
    cpuBuf.input.set(randomFloat32(2 * n * cpuBatch, 7));
    const cpuWant = await cpuPlan.execute(cpuBuf.input.slice());
    await cpuPlan.execute(cpuBuf.input, cpuBuf.output);
    const cpuBuffersAgree = cpuBuf.output.every((v, i) => Object.is(v, cpuWant[i]));
    const cpuMs = await timeCpu(() => cpuPlan.execute(cpuBuf.input, cpuBuf.output), targetMs, rounds);
    cpuPlan.destroy();
    const cpuGflops = (5 * n * Math.log2(n) * cpuBatch) / (cpuMs * 1e6);
    return {
      n,
      batch,
      ms,
      gflops: (5 * n * Math.log2(n) * batch) / (ms * 1e6),
      relErr,
      bound,
      pass: relErr < bound && cpuRelErr < 1e-5 && cpuBuffersAgree,
      cpuGflops,
      cpuRelErr,
    };
  }

  async function benchTri(n: number): Promise<TriRow> {
    const rows = 2 ** triTotalLog2;
    const batch = Math.max(1, Math.floor(rows / n));
    // Accuracy: 3 random diagonally dominant systems through the public API, against float64 Thomas.
    const r = rng(n);
    const m = 3 * n;
    const a = new Float64Array(m),
      b = new Float64Array(m),
      c = new Float64Array(m),
      d = new Float64Array(m);
    // Values exactly representable in float32, so float32 and float64 solvers see the same system.
    const v = (x: number) => Math.fround(x);
    for (let i = 0; i < m; i++) {
      a[i] = v(2 * r() - 1);
      c[i] = v(2 * r() - 1);
      b[i] = v(3 + r());
      d[i] = v(2 * r() - 1);
    }
    const f32 = (v: Float64Array) => Float32Array.from(v);
    const ref = await createTridiagonalPlan({ n, batch: 3, backend: 'cpu', dtype: 'float64' });
    const refX = (await ref.solve({ lower: a, diag: b, upper: c, rhs: d })).x as Float64Array;
    ref.destroy();
    const plan = await createTridiagonalPlan({
      n,
      batch: 3,
      backend: env.backend,
      dtype: gpu ? 'float32' : 'float64',
      gpu: gpu ?? undefined,
    });
    const data: TridiagonalData<Float32Array | Float64Array> = gpu
      ? { lower: f32(a), diag: f32(b), upper: f32(c), rhs: f32(d) }
      : { lower: a, diag: b, upper: c, rhs: d };
    const gotX = (await plan.solve(data)).x as Float32Array | Float64Array;
    plan.destroy();
    const relErr = relL2(gotX, refX);
    const bound = gpu ? 1e-5 : 1e-12;
    let ms: number;
    if (gpu) {
      const recipe = planTridiagonal({ n, batch, nrhs: 1, complex: false, layout: 'strided' }, gpu.limits);
      const ex = await TridiagonalGpuExecutor.create(gpu, recipe);
      const rr = rng(5);
      const mk = (f: () => number) => createStorageBuffer(gpu, Float32Array.from({ length: n * batch }, f));
      const bufs = {
        lower: mk(() => 2 * rr() - 1),
        diag: mk(() => 3 + rr()),
        upper: mk(() => 2 * rr() - 1),
        rhs: mk(() => 2 * rr() - 1),
        out: createStorageBuffer(gpu, 4 * n * batch),
        status: createStorageBuffer(gpu, 4 * batch),
      };
      try {
        ms = await timeGpu(gpu, (enc) => ex.record(enc, bufs), targetMs, rounds);
      } finally {
        ex.destroy();
        for (const v of Object.values(bufs)) v.destroy();
      }
    } else {
      const A = new Float64Array(n * batch).fill(-1),
        B = new Float64Array(n * batch).fill(3.5),
        D = randomFloat64(n * batch, 3);
      const cpuPlan = await createTridiagonalPlan({ n, batch, backend: 'cpu', dtype: 'float64' });
      ms = await timeCpu(() => cpuPlan.solve({ lower: A, diag: B, upper: A, rhs: D }), targetMs, rounds);
      cpuPlan.destroy();
    }
    return { n, batch, ms, mrows: (n * batch) / (ms * 1e3), relErr, bound, pass: relErr < bound };
  }

  async function runAll(): Promise<void> {
    runBtn.disabled = true;
    animations.paused = true;
    try {
      await runSizes();
    } finally {
      animations.paused = false;
      runBtn.disabled = false;
    }
  }

  async function runSizes(): Promise<void> {
    fftRows.length = 0;
    triRows.length = 0;
    result.state = 'running';
    p.setResult({ ...result });
    const t0 = performance.now();
    const sizes = [...pow2.map((e) => 2 ** e), ...mixed].sort((a, b) => a - b);
    for (const n of sizes) {
      try {
        fftRows.push(await benchFft(n));
      } catch (e) {
        // Lengths this backend's planner does not take (over the device's workgroup memory, say) are
        // listed as not run; any other error fails the benchmark.
        const expected = e instanceof UnsupportedError || e instanceof DeviceLimitError;
        fftRows.push({
          n,
          batch: 0,
          ms: NaN,
          gflops: NaN,
          relErr: NaN,
          bound: NaN,
          pass: expected,
          skipped: errorText(e).slice(0, 160),
        });
      }
      redraw();
      await nextFrame();
    }
    for (const e of tri) {
      const n = 2 ** e;
      try {
        triRows.push(await benchTri(n));
      } catch (err) {
        const expected = err instanceof UnsupportedError || err instanceof DeviceLimitError;
        triRows.push({
          n,
          batch: 0,
          ms: NaN,
          mrows: NaN,
          relErr: NaN,
          bound: NaN,
          pass: expected,
          skipped: errorText(err).slice(0, 160),
        });
      }
      redraw();
      await nextFrame();
    }
    runs++;
    const measured = [...fftRows, ...triRows].filter((r) => !r.skipped);
    const pass =
      measured.length > 0 &&
      measured.every((r) => r.pass && r.ms > 0 && Number.isFinite(r.ms)) &&
      [...fftRows, ...triRows].every((r) => r.pass);
    Object.assign(result, { state: 'done', pass, runs, totalMs: performance.now() - t0 });
    p.setResult({ ...result });
    p.text.textContent =
      `${env.backend}${software ? ' (software adapter)' : ''}: ${fftRows.filter((r) => !r.skipped).length} FFT sizes, ${triRows.filter((r) => !r.skipped).length} tridiagonal sizes in ${fmt((performance.now() - t0) / 1000)} s` +
      (quick ? ' (quick mode: small totals)' : '') +
      `\nlargest FFT relative error vs float64: ${fmt(Math.max(0, ...fftRows.filter((r) => !r.skipped).map((r) => r.relErr)))}; tridiagonal: ${fmt(Math.max(0, ...triRows.filter((r) => !r.skipped).map((r) => r.relErr)))}` +
      (fftRows.some((r) => r.skipped)
        ? `\nnot run on this backend: N = ${fftRows
            .filter((r) => r.skipped)
            .map((r) => r.n)
            .join(', ')}`
        : '');
    state.demos.bench = { ...result };
  }

  const runBtn = button('Run benchmark again', () => void runAll());
  runBtn.dataset.action = 'bench';
  controls.append(runBtn);
  redraw();
  if (mode === 'off') {
    p.setResult({ state: 'done', pass: true, skipped: 'bench=off' });
    return;
  }
  await runAll();
}
