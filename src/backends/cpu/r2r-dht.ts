/**
 * Discrete Hartley transform, float64: h_k = Σ x_n cas(2πnk/N), cas = cos + sin. From one rfft
 * (SEEDS.md): h_k = Re Y_k − Im Y_k, with Y_k = conj Y_{N−k} for k > N/2. Self-inverse up to 1/N, so
 * idht is the same kernel with the inverse scaling; `norm` as numpy ('backward': 1/N on the inverse,
 * 'ortho': 1/√N both ways, 'forward': 1/N on the forward).
 */
import { type R2rKernel, type R2rOutput, type R2rSpec, cachedKernel, runR2r } from './r2r-dct.js';
import { planCpuRfft } from './fft-real.js';
import { type Norm } from './fft-mixed-radix.js';

type Input = Float64Array | Float32Array | readonly number[];

export interface DhtOptions<O extends R2rOutput = R2rOutput> {
  norm?: Norm;
  n?: number;
  axis?: number;
  /** Array type of the result (default Float64Array). */
  output?: O;
}

/**
 * h = scale · (Re Y − Im Y) for `count` rows of n from their half spectra y (n/2 + 1 complex values a row,
 * interleaved), using Y_k = conj Y_{n−k} past n/2.
 */
export function hartleyFromSpectra(
  y: Float32Array | Float64Array,
  dst: Float32Array | Float64Array,
  n: number,
  count: number,
  scale = 1,
): void {
  const nc = Math.floor(n / 2) + 1;
  for (let q = 0; q < count; q++) {
    const d = q * n,
      b = 2 * nc * q;
    for (let j = 0; j < nc; j++) dst[d + j] = scale * (y[b + 2 * j]! - y[b + 2 * j + 1]!);
    for (let j = nc; j < n; j++) dst[d + j] = scale * (y[b + 2 * (n - j)]! + y[b + 2 * (n - j) + 1]!);
  }
}

export function dhtKernel(n: number): R2rKernel {
  return cachedKernel(`dht/${n}`, () => {
    const plan = planCpuRfft(n);
    const nc = plan.nComplex;
    let y = new Float64Array(0);
    return (src, dst, count) => {
      if (y.length < 2 * nc * count) y = new Float64Array(2 * nc * count);
      plan.forward(src, y, { batch: count });
      hartleyFromSpectra(y, dst, n, count);
    };
  });
}

export const DHT_SPEC: R2rSpec = { name: 'DHT', minN: 1, denom: (n) => n, kernel: dhtKernel };

/** Forward DHT; `output` picks the result's array type (default Float64Array). */
export function dht<O extends R2rOutput = 'float64'>(x: Input, options: DhtOptions<O> = {}, shape?: readonly number[]) {
  return hartley(x, options, shape, false);
}

/** Inverse DHT (the same kernel, scaled as numpy's inverse norms). */
export function idht<O extends R2rOutput = 'float64'>(
  x: Input,
  options: DhtOptions<O> = {},
  shape?: readonly number[],
) {
  return hartley(x, options, shape, true);
}

function hartley<O extends R2rOutput>(
  x: Input,
  o: DhtOptions<O>,
  shape: readonly number[] | undefined,
  inverse: boolean,
) {
  return runR2r(x, shape, o.axis, o.n, DHT_SPEC, o.norm, false, inverse, o.output ?? ('float64' as O));
}
