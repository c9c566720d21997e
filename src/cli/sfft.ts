/**
 * `butterfly sfft`: sparse FFT of a generated test signal (k random frequencies, optional noise) or of a
 * file; prints the recovered frequencies, their error (against the planted coefficients, or against a
 * dense FFT of the same data with --check), the status/diagnostics, and the time against a dense FFT on
 * the same backend.
 *
 *   butterfly sfft --log2n 20 --k 100 [--snr 20] [--real] [--mode auto|exact|robust] [--backend webgpu|cpu]
 *   butterfly sfft --input x.npy --k 50       (.npy float32/float64: shape [n] real, [n, 2] complex)
 *   butterfly sfft --input x.c64 --k 50       (raw little-endian: .c64/.c128 complex, .f32/.f64 real)
 */
import { readFileSync } from 'node:fs';
import type { CliCommand } from './commands.js';
import { ArgumentError } from '../errors.js';
import { createSfftPlan, sparseSignal, type SfftResult } from '../api/sfft.js';
import { createFftPlan } from '../api/fft.js';
import { defaultGpuContext, createStorageBuffer, type GpuContext } from '../backends/webgpu/device.js';
import { planCpuFft } from '../backends/cpu/fft-plan.js';
import { parseNpy } from '../util/npy.js';
import { fmt } from './args.js';
import { progress } from './progress.js';

function readSignal(path: string): { x: Float64Array; real: boolean } {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new ArgumentError(
      '--input',
      path,
      `a readable file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (path.endsWith('.npy')) {
    const a = parseNpy(bytes, path);
    if (a.shape.length === 1) return { x: a.data, real: true };
    if (a.shape.length === 2 && a.shape[1] === 2) return { x: a.data, real: false };
    throw new ArgumentError(
      '--input',
      path,
      `an array of shape [n] (real) or [n, 2] (complex), not [${a.shape.join(', ')}]`,
    );
  }
  const ext = path.slice(path.lastIndexOf('.') + 1);
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  if (ext === 'c64' || ext === 'f32') return { x: Float64Array.from(new Float32Array(buf)), real: ext === 'f32' };
  if (ext === 'c128' || ext === 'f64') return { x: new Float64Array(buf), real: ext === 'f64' };
  throw new ArgumentError('--input', path, 'a file ending in .npy, .c64, .c128, .f32 or .f64');
}

const median = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];

export const sfftCommand: CliCommand = {
  spec: {
    name: 'sfft',
    summary: 'sparse FFT: the k largest frequencies without a dense FFT; error and time vs a dense FFT',
    options: {
      '--log2n': { value: 'L', help: 'generated signal of n = 2^L samples (default 20)' },
      '--k': { value: 'K', help: 'frequencies to recover (default 100)' },
      '--snr': { value: 'dB', help: 'add complex white noise at this signal-to-noise ratio (default: none)' },
      '--real': { help: 'a real signal (generated), or read the file as real' },
      '--seed': { value: 'S', help: 'seed of the generated signal (default 1)' },
      '--mode': { value: 'auto|exact|robust', help: 'algorithm: exact (noiseless) or robust (noisy) (default auto)' },
      '--backend': { value: 'auto|webgpu|cpu', help: 'where both transforms run (default auto)' },
      '--input': {
        value: 'file',
        help: '.npy float32/float64 ([n] real, [n, 2] complex), or raw little-endian\n.c64/.c128 (complex) or .f32/.f64 (real)',
      },
      '--check': { help: 'errors against a float64 dense FFT of the data (instead of the planted values)' },
      '--reps': { value: 'N', help: 'timed repetitions, the median is reported (default 3)' },
      '--show': { value: 'N', help: 'print the first N recovered frequencies (default 10)' },
      '--json': { help: 'one JSON record instead of the text report' },
    },
  },
  usesGpu: (a) => a.string('--backend') !== 'cpu',
  async run(a) {
    const k = a.int('--k', 100, { min: 1 });
    const seed = a.int('--seed', 1, { min: 0 });
    const reps = a.int('--reps', 3, { min: 1 });
    const show = a.int('--show', 10, { min: 0 });
    const json = a.flag('--json');
    const snrDb = a.number('--snr');
    const log2n = a.int('--log2n', 20, { min: 1, max: 30 });
    const input = a.string('--input');
    if (input !== undefined && (a.has('--log2n') || a.has('--snr') || a.has('--seed'))) {
      throw new ArgumentError('--input', input, 'a file alone: --log2n, --snr and --seed describe a generated signal');
    }
    let x: Float64Array;
    let real: boolean;
    let planted: ReturnType<typeof sparseSignal> | null = null;
    if (input !== undefined) {
      ({ x, real } = readSignal(input));
      if (a.flag('--real') && !real)
        throw new ArgumentError('--real', input, 'a real file (.npy of shape [n], .f32 or .f64)');
    } else {
      const n = 2 ** log2n;
      real = a.flag('--real');
      planted = sparseSignal({ n, k, seed, real, snrDb });
      x = planted.x;
    }
    const n = real ? x.length : x.length / 2;
    let backend = a.choice('--backend', ['auto', 'webgpu', 'cpu'] as const, 'auto');
    let gpu: GpuContext | null = null;
    if (backend !== 'cpu') {
      try {
        gpu = await defaultGpuContext();
        backend = 'webgpu';
      } catch (e) {
        if (backend === 'webgpu') throw e;
        backend = 'cpu';
      }
    }
    const mode = a.choice('--mode', ['auto', 'exact', 'robust'] as const, 'auto');
    // Sparse runs, then dense runs: 2·reps steps for the progress bar.
    const bar = progress('sfft');
    let stepsDone = 0;
    const step = (what: string) => bar.update(++stepsDone / (2 * reps), what);
    const plan = await createSfftPlan({ n, k, real, mode, seed: seed + 1, backend, gpu: gpu ?? undefined });
    const x32 = Float32Array.from(x);
    const xbuf = gpu ? createStorageBuffer(gpu, x32, 'sfft-cli-input') : null;
    let result: SfftResult | null = null;
    const sparseMs: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      result = xbuf ? await plan.executeGpu(xbuf) : await plan.execute(x);
      sparseMs.push(performance.now() - t0);
      step(`sparse FFT ${i + 1} of ${reps}`);
    }
    const r = result!;
    // Dense FFT on the same backend (complex transform of the same data) for time and, with --check, error.
    const dense = await createFftPlan({ n, backend: gpu ? 'webgpu' : 'cpu', gpu: gpu ?? undefined });
    const complex64 = new Float32Array(2 * n);
    const complexF64 = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      complexF64[2 * i] = real ? x[i] : x[2 * i];
      complexF64[2 * i + 1] = real ? 0 : x[2 * i + 1];
    }
    complex64.set(complexF64);
    const denseMs: number[] = [];
    if (gpu) {
      const src = createStorageBuffer(gpu, complex64, 'dense-src');
      const dst = createStorageBuffer(gpu, 8 * n, 'dense-dst');
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        await dense.executeGpu(src, dst);
        denseMs.push(performance.now() - t0);
        step(`dense FFT ${i + 1} of ${reps}`);
      }
      src.destroy();
      dst.destroy();
    } else {
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        await dense.execute(complexF64);
        denseMs.push(performance.now() - t0);
        step(`dense FFT ${i + 1} of ${reps}`);
      }
    }
    dense.destroy();
    bar.done();
    // Error: against the planted coefficients, or (--check, or file input) a float64 dense FFT.
    const ref = new Map<number, [number, number]>();
    if (planted && !a.flag('--check'))
      planted.frequencies.forEach((q, i) => ref.set(q, [planted!.values[2 * i], planted!.values[2 * i + 1]]));
    else {
      const spec = new Float64Array(2 * n);
      planCpuFft(n).execute(complexF64, spec);
      const mags = Array.from({ length: real ? n / 2 + 1 : n }, (_, q) => q).sort(
        (a, b) => spec[2 * b] ** 2 + spec[2 * b + 1] ** 2 - spec[2 * a] ** 2 - spec[2 * a + 1] ** 2,
      );
      for (const q of mags.slice(0, k)) ref.set(q, [spec[2 * q], spec[2 * q + 1]]);
    }
    let found = 0;
    let l1 = 0;
    let maxRel = 0;
    r.frequencies.forEach((q, i) => {
      const v = ref.get(q);
      if (!v) return;
      found++;
      const e = Math.hypot(r.values[2 * i] - v[0], r.values[2 * i + 1] - v[1]);
      l1 += e;
      maxRel = Math.max(maxRel, e / Math.hypot(v[0], v[1]));
    });
    const record = {
      n,
      k,
      real,
      snrDb: snrDb ?? null,
      backend: r.backend,
      algorithm: r.algorithm,
      status: r.status,
      message: r.message,
      found,
      reference: ref.size,
      recoveredFraction: found / Math.max(1, ref.size),
      l1PerCoefficient: found ? l1 / found : null,
      maxRelError: maxRel,
      sparseMs: median(sparseMs),
      denseMs: median(denseMs),
      diagnostics: r.diagnostics,
      device: gpu ? `${gpu.adapter.vendor} ${gpu.adapter.device || gpu.adapter.description}`.trim() : 'cpu',
    };
    xbuf?.destroy();
    plan.destroy();
    if (json) {
      console.log(JSON.stringify(record));
      return;
    }
    console.log(
      `sparse FFT n = ${n} (2^${Math.log2(n)}), k = ${k}${real ? ', real' : ''}${record.snrDb !== null ? `, SNR ${record.snrDb} dB` : ''} on ${record.backend} (${record.device})`,
    );
    console.log(`status: ${r.status} — ${r.message}`);
    console.log(
      `algorithm: ${r.algorithm}; residual energy fraction ${fmt(r.diagnostics.residualFraction, 3)}; samples read ${r.diagnostics.samples} (${((100 * r.diagnostics.samples) / n).toFixed(2)}% of n)`,
    );
    console.log(
      `recovered ${found} of ${ref.size} reference frequencies; L1 error per coefficient ${record.l1PerCoefficient?.toExponential(2) ?? '-'}; max relative error ${maxRel.toExponential(2)}`,
    );
    console.log(
      `time: sparse ${fmt(record.sparseMs, 3)} ms vs dense FFT ${fmt(record.denseMs, 3)} ms (median of ${reps}; host-measured, includes submission and readback)`,
    );
    const m = Math.min(show, r.frequencies.length);
    if (m > 0) {
      console.log(`first ${m} frequencies:`);
      for (let i = 0; i < m; i++) {
        const q = r.frequencies[i];
        const v = ref.get(q);
        console.log(
          `  ${String(q).padStart(10)}  ${r.values[2 * i].toPrecision(7).padStart(14)} ${r.values[2 * i + 1].toPrecision(7).padStart(14)}i${v ? '' : '   (not in reference)'}`,
        );
      }
    }
    if (r.status !== 'ok') process.exitCode = 2;
  },
};
