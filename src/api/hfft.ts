/**
 * Hermitian FFTs (numpy.fft.hfft / ihfft, scipy.fft.hfft2 / ihfft2 / hfftn / ihfftn): the transforms of a signal
 * whose spectrum is real, i.e. the real FFTs run the other way. With the norm's direction swapped (numpy's
 * _swap_direction: 'backward' ↔ 'forward', 'ortho' kept),
 *
 *   hfftn(x)  = irfftn(conj(x))     (x: the Hermitian half, complex; result real)
 *   ihfftn(x) = conj(rfftn(x))      (x: real; result the Hermitian half)
 *
 * exactly as numpy and scipy define them, so every backend, length, axis and option of the real FFTs carries over.
 */
import { ArgumentError } from '../errors.js';
import type { FftNorm } from '../planner/fft-problem.js';
import { irfft, irfft2, irfftn, rfft, rfft2, rfftn, type ComplexArray, type FftCallOptions } from './fft.js';
import type { FftNdCallOptions } from './fft.js';
import { checkOptionNames, FFT_1D_OPTIONS, FFT_ND_OPTIONS } from './options.js';

const NORMS: readonly FftNorm[] = ['backward', 'ortho', 'forward'];

/** The norm of the real FFT run the other way: 'backward' ↔ 'forward', 'ortho' kept. */
function swapped(norm: FftNorm | null | undefined): FftNorm {
  // null is the default, as numpy's None and the other transforms here.
  if (norm !== undefined && norm !== null && !NORMS.includes(norm))
    throw new ArgumentError('norm', norm, "'backward', 'ortho' or 'forward'");
  return norm === 'forward' ? 'backward' : norm === 'ortho' ? 'ortho' : 'forward';
}

/** A conjugated copy of interleaved complex x (validated here, so errors name the caller's argument). */
function conjugated(x: ComplexArray): ComplexArray {
  if (!(x instanceof Float32Array) && !(x instanceof Float64Array))
    throw new ArgumentError('x', x, 'a Float32Array or Float64Array of interleaved complex values');
  const c = x.slice();
  for (let i = 1; i < c.length; i += 2) c[i] = -c[i]!;
  return c;
}

/** Negates the imaginary parts of an interleaved complex result in place. */
function conjugateInPlace<T extends ComplexArray>(y: T): T {
  for (let i = 1; i < y.length; i += 2) y[i] = -y[i]!;
  return y;
}

/**
 * numpy.fft.hfft: the m values of a Hermitian signal's first half (interleaved complex) → its n real spectrum values
 * (n defaults to 2·(m − 1)), along `axis`.
 */
export function hfft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function hfft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function hfft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function hfft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'hfft');
  const o = options ?? {};
  const norm = swapped(o.norm);
  return irfft(conjugated(x), { ...o, norm });
}

/** numpy.fft.ihfft: n real values → the n/2+1 first values of the Hermitian signal whose hfft they are. */
export function ihfft(x: Float32Array, options?: FftCallOptions): Promise<Float32Array>;
export function ihfft(x: Float64Array, options?: FftCallOptions): Promise<Float64Array>;
export function ihfft(x: ComplexArray, options?: FftCallOptions): Promise<ComplexArray>;
export async function ihfft(x: ComplexArray, options: FftCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_1D_OPTIONS, 'ihfft');
  const o = options ?? {};
  return conjugateInPlace(await rfft(x, { ...o, norm: swapped(o.norm) }));
}

/** scipy.fft.hfft2: hfftn over the last two axes (or `axes`). */
export function hfft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function hfft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function hfft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function hfft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'hfft2');
  const o = options ?? {};
  const norm = swapped(o.norm);
  return irfft2(conjugated(x), { ...o, norm });
}

/** scipy.fft.ihfft2: ihfftn over the last two axes (or `axes`). */
export function ihfft2(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function ihfft2(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function ihfft2(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function ihfft2(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'ihfft2');
  const o = options ?? {};
  return conjugateInPlace(await rfft2(x, { ...o, norm: swapped(o.norm) }));
}

/**
 * scipy.fft.hfftn: the N-D FFT of a signal Hermitian along the last of `axes` (its first half given, interleaved
 * complex); the result is real, its last axis's length s[-1] defaulting to 2·(m − 1).
 */
export function hfftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function hfftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function hfftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function hfftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'hfftn');
  const o = options ?? {};
  const norm = swapped(o.norm);
  return irfftn(conjugated(x), { ...o, norm });
}

/** scipy.fft.ihfftn: real input → the first half (last of `axes`) of the Hermitian signal whose hfftn it is. */
export function ihfftn(x: Float32Array, options?: FftNdCallOptions): Promise<Float32Array>;
export function ihfftn(x: Float64Array, options?: FftNdCallOptions): Promise<Float64Array>;
export function ihfftn(x: ComplexArray, options?: FftNdCallOptions): Promise<ComplexArray>;
export async function ihfftn(x: ComplexArray, options: FftNdCallOptions | null = {}): Promise<ComplexArray> {
  checkOptionNames(options, FFT_ND_OPTIONS, 'ihfftn');
  const o = options ?? {};
  return conjugateInPlace(await rfftn(x, { ...o, norm: swapped(o.norm) }));
}
