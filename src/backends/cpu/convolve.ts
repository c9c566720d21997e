/**
 * Float64 convolution on the CPU: direct, FFT and overlap-add, N-D, real or complex, scipy's modes.
 *
 * This is the executable specification of src/api/convolve.ts and the reference the WebGPU results are
 * compared against. Every method computes (a ⊛ b)[k] = Σ_i a[i]·b[k − i] over the full support
 * (size na + nb − 1 per axis) and keeps the window the mode asks for, exactly as scipy.signal does:
 *   full  — everything, size na + nb − 1;
 *   same  — size na, centred: start ⌊(nb − 1)/2⌋ (scipy's `_centered`);
 *   valid — size |na − nb| + 1, start min(na, nb) − 1; one operand must be at least as large as the
 *           other in every axis (scipy raises otherwise, and so do we).
 *
 * Operands are float64, row-major, complex interleaved (re, im) when `complex` is set, real otherwise.
 */
import { fftn, ifftn, irfftn, rfftn, product } from './fft-nd.js';
import { convGeometry, nextFastLen, overlapAddBlock, type ConvMode } from '../../planner/convolve.js';

export interface Operand {
  data: Float64Array;
  shape: number[];
  complex: boolean;
}

function strides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

function asComplex(x: Operand): Float64Array {
  if (x.complex) return x.data;
  const out = new Float64Array(2 * x.data.length);
  for (let i = 0; i < x.data.length; i++) out[2 * i] = x.data[i];
  return out;
}

/**
 * Direct convolution: every pair (i, j) of input elements adds a[i]·b[j] at i + j when that lands inside
 * the output window. The innermost axis is a contiguous loop over the part of b's row that lands inside.
 * Cost Π(na)·Π(nb) complex multiply-adds (fewer for 'valid'/'same' windows that cut rows short).
 */
export function directConvolve(a: Operand, b: Operand, mode: ConvMode, broadcastOnes = false): Operand {
  const g = convGeometry(a.shape, b.shape, mode, broadcastOnes);
  const complex = a.complex || b.complex;
  const nd = a.shape.length;
  const ad = asComplex(a);
  const bd = asComplex(b);
  const outLen = product(g.out);
  const out = new Float64Array(2 * outLen);
  const os = strides(g.out);
  const last = nd - 1;
  const nbLast = b.shape[last];
  const bRows = product(b.shape) / nbLast;
  const aCount = product(a.shape);
  const ai = new Array<number>(nd).fill(0);
  const bi = new Array<number>(nd).fill(0);
  for (let ia = 0; ia < aCount; ia++) {
    // multi-index of ia
    let rem = ia;
    for (let d = last; d >= 0; d--) {
      ai[d] = rem % a.shape[d];
      rem = (rem - ai[d]) / a.shape[d];
    }
    const ar = ad[2 * ia];
    const aim = ad[2 * ia + 1];
    if (ar === 0 && aim === 0) continue;
    bi.fill(0);
    for (let row = 0; row < bRows; row++) {
      if (row > 0) {
        for (let d = last - 1; d >= 0; d--) {
          if (++bi[d] < b.shape[d]) break;
          bi[d] = 0;
        }
      }
      let base = 0;
      let inside = true;
      for (let d = 0; d < last; d++) {
        const o = ai[d] + bi[d] - g.start[d];
        if (o < 0 || o >= g.out[d]) {
          inside = false;
          break;
        }
        base += o * os[d];
      }
      if (!inside) continue;
      // o_last = ai[last] + j − start[last] ∈ [0, out[last])
      const off = ai[last] - g.start[last];
      const j0 = Math.max(0, -off);
      const j1 = Math.min(nbLast, g.out[last] - off);
      const bRow = row * nbLast;
      for (let j = j0; j < j1; j++) {
        const br = bd[2 * (bRow + j)];
        const bim = bd[2 * (bRow + j) + 1];
        const o = 2 * (base + off + j);
        out[o] += ar * br - aim * bim;
        out[o + 1] += ar * bim + aim * br;
      }
    }
  }
  return finish(out, g.out, complex);
}

function finish(interleaved: Float64Array, shape: number[], complex: boolean): Operand {
  if (complex) return { data: interleaved, shape, complex };
  const re = new Float64Array(interleaved.length / 2);
  for (let i = 0; i < re.length; i++) re[i] = interleaved[2 * i];
  return { data: re, shape, complex };
}

/** `src` (row-major `shape`) into the block of `padded` (each axis at least as long) at `dst[at…]`, at its origin. */
export function padInto(
  src: Float32Array | Float64Array,
  shape: readonly number[],
  dst: Float32Array | Float64Array,
  at: number,
  padded: readonly number[],
): void {
  const nd = shape.length;
  const ps = strides(padded);
  const row = shape[nd - 1]!;
  const idx = new Array<number>(nd).fill(0);
  for (let r = 0, rows = product(shape) / row; r < rows; r++) {
    if (r > 0) {
      for (let d = nd - 2; d >= 0; d--) {
        if (++idx[d]! < shape[d]!) break;
        idx[d] = 0;
      }
    }
    let o = at;
    for (let d = 0; d < nd - 1; d++) o += idx[d]! * ps[d]!;
    dst.set(src.subarray(r * row, (r + 1) * row), o);
  }
}

/** Copies the window [start, start + out) of a row-major array of `shape` (perElement numbers each), same type. */
export function cropWindow<T extends Float32Array | Float64Array>(
  data: T,
  shape: readonly number[],
  start: readonly number[],
  out: readonly number[],
  perElement: 1 | 2,
): T {
  const nd = shape.length;
  const res = new (data.constructor as { new (n: number): T })(perElement * product(out));
  const ss = strides(shape);
  const rowLen = out[nd - 1] * perElement;
  const rows = product(out) / out[nd - 1];
  const idx = new Array<number>(nd).fill(0);
  for (let r = 0; r < rows; r++) {
    if (r > 0) {
      for (let d = nd - 2; d >= 0; d--) {
        if (++idx[d] < out[d]) break;
        idx[d] = 0;
      }
    }
    let src = start[nd - 1];
    for (let d = 0; d < nd - 1; d++) src += (idx[d] + start[d]) * ss[d];
    res.set(data.subarray(src * perElement, src * perElement + rowLen), r * rowLen);
  }
  return res;
}

/**
 * FFT convolution: zero-pad both operands to P = nextFastLen(na + nb − 1) per axis, multiply the
 * spectra, transform back, crop the mode's window. Real operands go through rfftn/irfftn (half the work).
 */
export function fftConvolve(a: Operand, b: Operand, mode: ConvMode, broadcastOnes = false): Operand {
  const g = convGeometry(a.shape, b.shape, mode, broadcastOnes);
  const P = g.full.map(nextFastLen);
  const complex = a.complex || b.complex;
  if (!complex) {
    const fa = rfftn(a.data, a.shape, { s: P });
    const fb = rfftn(b.data, b.shape, { s: P });
    cmulInPlace(fa.data, fb.data);
    const y = irfftn(fa.data, fa.shape, { s: P });
    return { data: cropWindow(y.data, P, g.start, g.out, 1), shape: g.out, complex: false };
  }
  const fa = fftn(asComplex(a), a.shape, { s: P });
  const fb = fftn(asComplex(b), b.shape, { s: P });
  cmulInPlace(fa.data, fb.data);
  const y = ifftn(fa.data, P);
  return { data: cropWindow(y.data, P, g.start, g.out, 2), shape: g.out, complex: true };
}

export function cmulInPlace(x: Float32Array | Float64Array, y: Float32Array | Float64Array): void {
  for (let i = 0; i < x.length; i += 2) {
    const xr = x[i];
    const xi = x[i + 1];
    const yr = y[i];
    const yi = y[i + 1];
    x[i] = xr * yr - xi * yi;
    x[i + 1] = xr * yi + xi * yr;
  }
}

/**
 * Overlap-add convolution (scipy.signal.oaconvolve): split `a` into blocks of L (per axis, from
 * overlapAddBlock), convolve each block with `b` by FFT at size nextFastLen(L + nb − 1) (b's spectrum
 * computed once), add the block results into the full output at the block's offset, crop the mode's
 * window. Same result as fftConvolve; less work when b is much shorter than a.
 */
export function oaConvolve(a: Operand, b: Operand, mode: ConvMode, broadcastOnes = false): Operand {
  const g = convGeometry(a.shape, b.shape, mode, broadcastOnes);
  // Overlap-add splits the larger operand; convolution commutes.
  const swap = product(b.shape) > product(a.shape);
  const [x, k] = swap ? [b, a] : [a, b];
  const nd = x.shape.length;
  const L = x.shape.map((n, i) => overlapAddBlock(n, k.shape[i]));
  const P = L.map((l, i) => nextFastLen(l + k.shape[i] - 1));
  const complex = a.complex || b.complex;
  const kd = asComplex(k);
  const xd = asComplex(x);
  const K = fftn(kd, k.shape, { s: P }).data;
  const full = new Float64Array(2 * product(g.full));
  const fs = strides(g.full);
  const xs = strides(x.shape);
  const blocks = x.shape.map((n, i) => Math.ceil(n / L[i]));
  const nBlocks = product(blocks);
  const bi = new Array<number>(nd).fill(0);
  for (let blk = 0; blk < nBlocks; blk++) {
    if (blk > 0) {
      for (let d = nd - 1; d >= 0; d--) {
        if (++bi[d] < blocks[d]) break;
        bi[d] = 0;
      }
    }
    const start = bi.map((v, d) => v * L[d]);
    const size = start.map((s0, d) => Math.min(L[d], x.shape[d] - s0));
    // gather the block (complex) into a compact array, then FFT at size P
    const blockData = new Float64Array(2 * product(size));
    const rows = product(size) / size[nd - 1];
    const idx = new Array<number>(nd).fill(0);
    for (let r = 0; r < rows; r++) {
      if (r > 0) {
        for (let d = nd - 2; d >= 0; d--) {
          if (++idx[d] < size[d]) break;
          idx[d] = 0;
        }
      }
      let src = start[nd - 1];
      for (let d = 0; d < nd - 1; d++) src += (idx[d] + start[d]) * xs[d];
      blockData.set(xd.subarray(2 * src, 2 * (src + size[nd - 1])), 2 * r * size[nd - 1]);
    }
    const Y = fftn(blockData, size, { s: P });
    cmulInPlace(Y.data, K);
    const y = ifftn(Y.data, P).data;
    // add the block's full convolution (size + nb − 1 per axis) at `start`
    const ySize = size.map((s0, d) => s0 + k.shape[d] - 1);
    const yStrides = strides(P);
    const yRows = product(ySize) / ySize[nd - 1];
    idx.fill(0);
    for (let r = 0; r < yRows; r++) {
      if (r > 0) {
        for (let d = nd - 2; d >= 0; d--) {
          if (++idx[d] < ySize[d]) break;
          idx[d] = 0;
        }
      }
      let dst = start[nd - 1];
      let src = 0;
      for (let d = 0; d < nd - 1; d++) {
        dst += (idx[d] + start[d]) * fs[d];
        src += idx[d] * yStrides[d];
      }
      for (let j = 0; j < ySize[nd - 1]; j++) {
        full[2 * (dst + j)] += y[2 * (src + j)];
        full[2 * (dst + j) + 1] += y[2 * (src + j) + 1];
      }
    }
  }
  return finish(cropWindow(full, g.full, g.start, g.out, 2), g.out, complex);
}
