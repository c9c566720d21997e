/**
 * Discrete Hartley transform, float64: h_k = Σ x_n cas(2πnk/N), cas = cos + sin. From one rfft
 * (SEEDS.md): h_k = Re Y_k − Im Y_k, with Y_k = conj Y_{N−k} for k > N/2. Self-inverse up to 1/N, so
 * idht is the same kernel with the inverse scaling; `norm` as numpy ('backward': 1/N on the inverse,
 * 'ortho': 1/√N both ways, 'forward': 1/N on the forward).
 */
import { type R2rKernel, type R2rSpec, cachedKernel, runR2r } from './r2r-dct.js';
import { planCpuRfft } from './fft-real.js';
import { type NdArray } from './fft-nd.js';
import { type Norm } from './fft-mixed-radix.js';

type Input = Float64Array | Float32Array | readonly number[];

export interface DhtOptions {
  norm?: Norm;
  n?: number;
  axis?: number;
  /** Array type of the result (default Float64Array). */
  output?: 'float32' | 'float64';
}

export function dhtKernel(n: number): R2rKernel {
  return cachedKernel(`dht/${n}`, () => {
    const plan = planCpuRfft(n);
    const nc = plan.nComplex;
    let y = new Float64Array(0);
    return (src, dst, count) => {
      if (y.length < 2 * nc * count) y = new Float64Array(2 * nc * count);
      plan.forward(src, y, { batch: count });
      for (let q = 0; q < count; q++) {
        const s = q * n,
          b = 2 * nc * q;
        for (let j = 0; j < nc; j++) dst[s + j] = y[b + 2 * j]! - y[b + 2 * j + 1]!;
        for (let j = nc; j < n; j++) dst[s + j] = y[b + 2 * (n - j)]! + y[b + 2 * (n - j) + 1]!;
      }
    };
  });
}

export const DHT_SPEC: R2rSpec = { name: 'DHT', minN: 1, denom: (n) => n, kernel: dhtKernel };

export function dht(x: Input, options: DhtOptions = {}, shape?: readonly number[]): NdArray {
  return runR2r(
    x,
    shape,
    options.axis,
    options.n,
    DHT_SPEC,
    options.norm,
    false,
    false,
    options.output ?? 'float64',
  ) as NdArray;
}

export function idht(x: Input, options: DhtOptions = {}, shape?: readonly number[]): NdArray {
  return runR2r(
    x,
    shape,
    options.axis,
    options.n,
    DHT_SPEC,
    options.norm,
    false,
    true,
    options.output ?? 'float64',
  ) as NdArray;
}
