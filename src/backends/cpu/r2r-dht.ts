/**
 * Discrete Hartley transform, float64: h_k = Σ x_n cas(2πnk/N), cas = cos + sin. From one rfft
 * (SEEDS.md): h_k = Re Y_k − Im Y_k, with Y_k = conj Y_{N−k} for k > N/2. Self-inverse up to 1/N, so
 * idht is the same kernel with the inverse scaling; `norm` as numpy ('backward': 1/N on the inverse,
 * 'ortho': 1/√N both ways, 'forward': 1/N on the forward).
 */
import { type R2rKernel, type R2rSpec, runR2r } from './r2r-dct.js';
import { planCpuRfft } from './fft-real.js';
import { cpuFftScopeKey } from './engine-scope.js';
import { type NdArray } from './fft-nd.js';
import { type Norm } from './fft-mixed-radix.js';

type Input = Float64Array | Float32Array | readonly number[];

export interface DhtOptions {
  norm?: Norm;
  n?: number;
  axis?: number;
}

const cache = new Map<string, R2rKernel>();

export function dhtKernel(n: number): R2rKernel {
  const key = `${cpuFftScopeKey()}/${n}`;
  let k = cache.get(key);
  if (!k) {
    const plan = planCpuRfft(n);
    const nc = plan.nComplex;
    const y = new Float64Array(2 * nc);
    k = (src, dst) => {
      plan.forward1(src, 0, y, 0);
      for (let j = 0; j < nc; j++) dst[j] = y[2 * j]! - y[2 * j + 1]!;
      for (let j = nc; j < n; j++) dst[j] = y[2 * (n - j)]! + y[2 * (n - j) + 1]!;
    };
    cache.set(key, k);
  }
  return k;
}

export const DHT_SPEC: R2rSpec = { name: 'DHT', minN: 1, denom: (n) => n, kernel: dhtKernel };

export function dht(x: Input, options: DhtOptions = {}, shape?: readonly number[]): NdArray {
  return runR2r(x, shape, options.axis, options.n, DHT_SPEC, options.norm, false, false);
}

export function idht(x: Input, options: DhtOptions = {}, shape?: readonly number[]): NdArray {
  return runR2r(x, shape, options.axis, options.n, DHT_SPEC, options.norm, false, true);
}
