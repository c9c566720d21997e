/**
 * 2-D FFT convolution benchmark: an H×W image with a K×K kernel (default 4096×4096 ⊛ 63×63, the
 * issue's comparison with cupyx.scipy.signal.fftconvolve), modes full and same, on WebGPU with data
 * resident on the device. Each timed run computes the kernel's spectrum and the convolution (as
 * cupyx's fftconvolve does per call). Values are complex f32 (real data has zero imaginary parts).
 * Correctness: 256 random output points against float64 direct sums.
 *
 *   npx tsx bench/convolve.ts [--n 4096] [--k 63] [--modes full,same] [--reps 5] [--json out.jsonl]
 */
import { defaultGpuContext, createStorageBuffer, readBuffer } from '../src/backends/webgpu/device.js';
import { GridConvolver } from '../src/backends/webgpu/convolve-grid.js';
import { convGeometry, nextFastLen, type ConvMode } from '../src/planner/convolve.js';
import { randomFloat64, rng } from '../src/util/random.js';
import { timeEncode } from '../src/apps/edm/run.js';
import { Output, parseArgs, table } from './common.js';

const args = parseArgs(process.argv.slice(2));
const n = Number(args.n ?? 4096);
const k = Number(args.k ?? 63);
const modes = (args.modes ?? 'full,same').split(',') as ConvMode[];
const reps = Number(args.reps ?? 5);
const ctx = await defaultGpuContext();
const out = new Output(args.json && args.json !== 'true' ? args.json : undefined);
const device =
  `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device || ctx.adapter.description}`.trim();

const img64 = randomFloat64(n * n, 1);
const ker64 = randomFloat64(k * k, 2);
const toComplex = (x: Float64Array) => {
  const c = new Float32Array(2 * x.length);
  for (let i = 0; i < x.length; i++) c[2 * i] = x[i];
  return c;
};
const imgBuf = createStorageBuffer(ctx, toComplex(img64), 'image');
const kerBuf = createStorageBuffer(ctx, toComplex(ker64), 'kernel');
const rows: (string | number)[][] = [];
for (const mode of modes) {
  const g = convGeometry([n, n], [k, k], mode);
  const P = nextFastLen(g.full[0]);
  const Q = nextFastLen(g.full[1]);
  const spec = await GridConvolver.create(
    ctx,
    { P, Q, inRows: k, inCols: k, outRow0: 0, outCol0: 0, outRows: P, outCols: Q, inverse: false },
    1,
  );
  const conv = await GridConvolver.create(
    ctx,
    {
      P,
      Q,
      inRows: n,
      inCols: n,
      outRow0: g.start[0],
      outCol0: g.start[1],
      outRows: g.out[0],
      outCols: g.out[1],
      inverse: true,
    },
    1,
  );
  const specBuf = createStorageBuffer(ctx, P * Q * 8, 'spectrum');
  const yBuf = createStorageBuffer(ctx, g.out[0] * g.out[1] * 8, 'y');
  const encode = (enc: GPUCommandEncoder) => {
    spec.encode(enc, kerBuf, specBuf);
    conv.encode(enc, imgBuf, yBuf, specBuf);
  };
  await ctx.checked('convolve bench', () => {
    const enc = ctx.device.createCommandEncoder();
    encode(enc);
    ctx.device.queue.submit([enc.finish()]);
  });
  const y = new Float32Array(await readBuffer(ctx, yBuf, 0, g.out[0] * g.out[1] * 8));
  // sampled check against float64 direct sums
  const r = rng(3);
  let num = 0;
  let den = 0;
  for (let t = 0; t < 256; t++) {
    const orow = Math.floor(r() * g.out[0]);
    const ocol = Math.floor(r() * g.out[1]);
    const fr = orow + g.start[0];
    const fc = ocol + g.start[1];
    let s = 0;
    for (let i = Math.max(0, fr - n + 1); i <= Math.min(k - 1, fr); i++) {
      for (let j = Math.max(0, fc - n + 1); j <= Math.min(k - 1, fc); j++)
        s += ker64[i * k + j] * img64[(fr - i) * n + (fc - j)];
    }
    const d = y[2 * (orow * g.out[1] + ocol)] - s;
    num += d * d;
    den += s * s;
  }
  const relL2 = Math.sqrt(num / den);
  const ms = await timeEncode(ctx, encode, reps, 5);
  const rec = {
    lib: 'butterfly',
    kind: 'fftconvolve2d',
    dtype: 'complex64',
    mode,
    shape: [n, n],
    kernel: [k, k],
    grid: [P, Q],
    algorithm: conv.recipe.algorithm,
    passes: spec.recipe.kernels.length + conv.recipe.kernels.length,
    ms,
    relL2Sampled: relL2,
    device,
  };
  out.record(rec);
  if (args.json === 'true') console.log(JSON.stringify(rec));
  rows.push([mode, `${P}×${Q}`, rec.algorithm, rec.passes, ms.toFixed(3), relL2.toExponential(2)]);
  spec.destroy();
  conv.destroy();
  specBuf.destroy();
  yBuf.destroy();
}
console.error(table(['mode', 'grid', 'algorithm', 'passes', 'ms', 'rel L2 (sampled)'], rows));
process.exit();
