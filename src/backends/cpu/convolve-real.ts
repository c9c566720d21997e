/**
 * Real 1-D FFT and overlap-add convolution on the CPU engine, in the operands' precision (f32 when both are):
 * the engine's batched real FFT rows, no complex widening and no float64 copies, as planRealConvolution1d says.
 * FFT: the longer operand one row zero-padded to p, the shorter one another, the spectra multiplied, one inverse
 * row. Overlap-add (scipy.signal.oaconvolve): the longer operand cut into blocks of L, every block a row of one
 * batched call, each spectrum times the shorter operand's, one batched inverse, and the blocks added at their
 * offsets. Both return the mode's window of the full convolution.
 */
import { convGeometry, planRealConvolution1d, type ConvMode } from '../../planner/convolve.js';
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import { runRows } from './engine-rows.js';

type RealArray = Float32Array | Float64Array;

/** Rows of `rows` × p reals: each source at the start of its row, zeros after. */
function paddedRows(Type: typeof Float32Array | typeof Float64Array, sources: RealArray[], p: number): RealArray {
  const m = new Type(sources.length * p);
  sources.forEach((s, r) => m.set(s, r * p));
  return m;
}

/** Every half spectrum row of `spectra` (h complex values a row) times the one in `k`, in place. */
function multiplyRows(spectra: RealArray, k: RealArray, h: number): void {
  for (let o = 0; o < spectra.length; o += 2 * h) {
    for (let i = 0; i < 2 * h; i += 2) {
      const [xr, xi, kr, ki] = [spectra[o + i]!, spectra[o + i + 1]!, k[i]!, k[i + 1]!];
      spectra[o + i] = xr * kr - xi * ki;
      spectra[o + i + 1] = xr * ki + xi * kr;
    }
  }
}

export function convolveReal1d(
  a: RealArray,
  b: RealArray,
  mode: ConvMode,
  method: 'fft' | 'oa',
  precision: CpuPrecision,
): RealArray {
  const Type = precision === 'f32' ? Float32Array : Float64Array;
  const g = convGeometry([a.length], [b.length], mode);
  const { swap, L, p, blocks } = planRealConvolution1d(a.length, b.length, method, precision);
  const [x, k] = swap ? [b, a] : [a, b];
  const h = Math.floor(p / 2) + 1;
  const rfft = { kind: 'rfft', n: p, precision } as const;
  // The kernel's spectrum and the blocks' spectra.
  const kSpec = new Type(2 * h);
  runRows(rfft, paddedRows(Type, [k], p), kSpec, 1);
  const parts = Array.from({ length: blocks }, (_, j) => x.subarray(j * L, Math.min(x.length, (j + 1) * L)));
  const spectra = new Type(2 * h * blocks);
  runRows(rfft, paddedRows(Type, parts, p), spectra, blocks);
  multiplyRows(spectra, kSpec, h);
  const y = new Type(p * blocks);
  runRows({ kind: 'irfft', n: p, precision, norm: 'backward' }, spectra, y, blocks);
  if (blocks === 1) return y.slice(g.start[0], g.start[0]! + g.out[0]!);
  // Block j's full convolution (L + nk − 1 values) lands at j·L.
  const full = new Type(g.full[0]!);
  for (let j = 0; j < blocks; j++) {
    const len = Math.min(L + k.length - 1, full.length - j * L);
    for (let t = 0, s = j * p, d = j * L; t < len; t++) full[d + t] = full[d + t]! + y[s + t]!;
  }
  return full.slice(g.start[0], g.start[0]! + g.out[0]!);
}
