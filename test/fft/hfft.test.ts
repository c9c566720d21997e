/**
 * Hermitian FFTs (hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn) against direct float64 DFTs written here from numpy's
 * definitions: crop or zero-pad to the lengths asked for, complex DFTs along the other axes, and along the last axis
 * the real half-spectrum sum (imaginary parts of the zero and Nyquist terms ignored, as pocketfft's c2r does). CPU
 * engine in both precisions and threads on and off, batches ≥ 3, every norm; WebGPU where an adapter exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn, ArgumentError, type FftNorm } from '../../src/index.js';
import { rng, relErr, bound } from '../helpers/numeric.js';
import { testGpu } from '../helpers/gpu.js';

/** A complex array (separate parts) of a shape, row-major. */
interface Cx {
  re: Float64Array;
  im: Float64Array;
  shape: number[];
}

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function strides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length).fill(1);
  for (let a = shape.length - 2; a >= 0; a--) st[a] = st[a + 1]! * shape[a + 1]!;
  return st;
}

/** Crop or zero-pad axis `axis` to length `len`. */
function resize(x: Cx, axis: number, len: number): Cx {
  const shape = [...x.shape];
  shape[axis] = len;
  const re = new Float64Array(size(shape)),
    im = new Float64Array(size(shape));
  const [sIn, sOut] = [strides(x.shape), strides(shape)];
  for (let i = 0; i < re.length; i++) {
    let rest = i,
      src = 0,
      ok = true;
    for (let a = 0; a < shape.length; a++) {
      const idx = Math.floor(rest / sOut[a]!);
      rest -= idx * sOut[a]!;
      if (idx >= x.shape[a]!) ok = false;
      src += idx * sIn[a]!;
    }
    if (ok) [re[i], im[i]] = [x.re[src]!, x.im[src]!];
  }
  return { re, im, shape };
}

/** Lines along `axis`: calls f with the flat index of each line's first element and the axis stride. */
function lines(shape: readonly number[], axis: number, f: (base: number, step: number) => void): void {
  const st = strides(shape);
  for (let i = 0; i < size(shape); i++) if (Math.floor(i / st[axis]!) % shape[axis]! === 0) f(i, st[axis]!);
}

/** Complex DFT along `axis`, exponent sign `sign`, times `scale`. */
function dft(x: Cx, axis: number, sign: number, scale: number): Cx {
  const n = x.shape[axis]!;
  const re = new Float64Array(x.re.length),
    im = new Float64Array(x.re.length);
  lines(x.shape, axis, (b, s) => {
    for (let k = 0; k < n; k++) {
      let sr = 0,
        si = 0;
      for (let j = 0; j < n; j++) {
        const t = (sign * 2 * Math.PI * ((j * k) % n)) / n;
        sr += x.re[b + j * s]! * Math.cos(t) - x.im[b + j * s]! * Math.sin(t);
        si += x.re[b + j * s]! * Math.sin(t) + x.im[b + j * s]! * Math.cos(t);
      }
      re[b + k * s] = scale * sr;
      im[b + k * s] = scale * si;
    }
  });
  return { re, im, shape: [...x.shape] };
}

/** Real output of length n along `axis` from its first n/2+1 complex terms (x already that long there), sign +1. */
function halfToReal(x: Cx, axis: number, n: number, scale: number): Cx {
  const shape = [...x.shape];
  shape[axis] = n;
  const re = new Float64Array(size(shape));
  const h = Math.floor(n / 2) + 1;
  const stIn = strides(x.shape)[axis]!;
  lines(shape, axis, (b, s) => {
    // The same line in x: its index with the axis coordinate 0 maps across (only that axis's length differs).
    const st = strides(shape);
    let rest = b,
      src = 0;
    const stX = strides(x.shape);
    for (let a = 0; a < shape.length; a++) {
      const idx = Math.floor(rest / st[a]!);
      rest -= idx * st[a]!;
      src += idx * stX[a]!;
    }
    for (let j = 0; j < n; j++) {
      let sum = x.re[src]!;
      for (let k = 1; k < h; k++) {
        const t = (2 * Math.PI * ((j * k) % n)) / n;
        const w = 2 * k === n ? 1 : 2;
        sum += w * (x.re[src + k * stIn]! * Math.cos(t) - x.im[src + k * stIn]! * Math.sin(t));
      }
      re[b + j * s] = scale * sum;
    }
  });
  return { re, im: new Float64Array(re.length), shape };
}

/** Normalisation of a transform over N points in the given direction (numpy's norm). */
function normScale(norm: FftNorm, N: number, inverse: boolean): number {
  if (norm === 'ortho') return 1 / Math.sqrt(N);
  return (norm === 'backward') === inverse ? 1 / N : 1;
}

/** numpy's hfftn: the inverse real transform of conj(x) with the norm's direction swapped (unscaled for 'backward'). */
function hfftnRef(x: Cx, axes: number[], s: number[], norm: FftNorm): Cx {
  let y: Cx = { re: x.re, im: x.im.map((v) => -v), shape: x.shape };
  const last = axes.length - 1;
  const N = s.reduce((a, b) => a * b, 1);
  // hfft with norm 'backward' is the unscaled forward direction: the inverse scale of the swapped norm.
  const scale = normScale(norm, N, false);
  axes.forEach((a, i) => (y = resize(y, a, i === last ? Math.floor(s[i]! / 2) + 1 : s[i]!)));
  for (let i = 0; i < last; i++) y = dft(y, axes[i]!, 1, 1);
  return halfToReal(y, axes[last]!, s[last]!, scale);
}

/** numpy's ihfftn: conj(rfftn(x)) with the direction swapped: the +sign DFT's first half, scaled as an inverse. */
function ihfftnRef(x: Cx, axes: number[], s: number[], norm: FftNorm): Cx {
  let y: Cx = x;
  axes.forEach((a, i) => (y = resize(y, a, s[i]!)));
  const N = s.reduce((a, b) => a * b, 1);
  axes.forEach((a, i) => (y = dft(y, a, 1, i === 0 ? normScale(norm, N, true) : 1)));
  const last = axes[axes.length - 1]!;
  return resize(y, last, Math.floor(s[s.length - 1]! / 2) + 1);
}

const interleave = (c: Cx) => {
  const out = new Float64Array(2 * c.re.length);
  for (let i = 0; i < c.re.length; i++) [out[2 * i], out[2 * i + 1]] = [c.re[i]!, c.im[i]!];
  return out;
};

type Fn = 'hfft' | 'ihfft' | 'hfft2' | 'ihfft2' | 'hfftn' | 'ihfftn';
type Call = (x: Float32Array | Float64Array, options: Record<string, unknown>) => Promise<Float32Array | Float64Array>;
const FNS: Record<Fn, Call> = { hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn };

interface Case {
  fn: Fn;
  shape: number[];
  axes?: number[];
  s?: number[];
  n?: number;
  axis?: number;
}

const CASES: Case[] = [
  { fn: 'hfft', shape: [3, 9] }, // default n = 16
  { fn: 'hfft', shape: [4, 5], n: 9, axis: 0 }, // odd n, cropped input
  { fn: 'hfft', shape: [3, 1], n: 6 }, // one input value, padded
  { fn: 'hfft', shape: [3, 17], n: 17 },
  { fn: 'ihfft', shape: [3, 16] },
  { fn: 'ihfft', shape: [5, 3], n: 7, axis: 0 },
  { fn: 'ihfft', shape: [3, 12], n: 20 },
  { fn: 'hfft2', shape: [3, 4, 5] },
  { fn: 'hfft2', shape: [5, 3, 4], axes: [0, 2], s: [6, 7] },
  { fn: 'ihfft2', shape: [3, 6, 5] },
  { fn: 'ihfft2', shape: [4, 3, 6], axes: [2, 0], s: [5, 3] },
  { fn: 'hfftn', shape: [3, 4, 6] },
  { fn: 'hfftn', shape: [4, 3, 5], axes: [1], s: [8] },
  { fn: 'hfftn', shape: [3, 5, 4], axes: [2, 0], s: [6, 4] },
  { fn: 'ihfftn', shape: [3, 5, 6] },
  { fn: 'ihfftn', shape: [4, 6, 3], axes: [0, 1], s: [5, 9] },
];

/** The reference of a case: axes and lengths resolved as numpy does. */
function reference(c: Case, x: Float64Array, norm: FftNorm): Float64Array {
  const inverse = c.fn.startsWith('i');
  const N = size(c.shape);
  const cx: Cx = inverse
    ? { re: x, im: new Float64Array(N), shape: c.shape }
    : {
        re: Float64Array.from({ length: N }, (_, i) => x[2 * i]!),
        im: Float64Array.from({ length: N }, (_, i) => x[2 * i + 1]!),
        shape: c.shape,
      };
  const nd = c.shape.length;
  const axes = (
    c.fn === 'hfft' || c.fn === 'ihfft'
      ? [c.axis ?? -1]
      : (c.axes ?? (c.fn.endsWith('2') ? [-2, -1] : c.shape.map((_, i) => i)))
  ).map((a) => (a + nd) % nd);
  const lastDefault = (a: number) => (inverse ? c.shape[a]! : 2 * (c.shape[a]! - 1));
  const s =
    c.fn === 'hfft' || c.fn === 'ihfft'
      ? [c.n ?? lastDefault(axes[0]!)]
      : (c.s ?? axes.map((a, i) => (i === axes.length - 1 ? lastDefault(a) : c.shape[a]!)));
  const y = inverse ? ihfftnRef(cx, axes, s, norm) : hfftnRef(cx, axes, s, norm);
  return inverse ? interleave(y) : y.re;
}

function optionsOf(c: Case, norm: FftNorm | undefined): Record<string, unknown> {
  const o: Record<string, unknown> = { shape: c.shape, norm };
  for (const k of ['axes', 's', 'n', 'axis'] as const) if (c[k] !== undefined) o[k] = c[k];
  return o;
}

test('Hermitian FFTs on the CPU engine: numpy definitions, every norm, both precisions, threads on and off', async () => {
  let seed = 1;
  for (const c of CASES) {
    for (const norm of [undefined, 'backward', 'ortho', 'forward'] as const) {
      const inverse = c.fn.startsWith('i');
      const x = new Float64Array((inverse ? 1 : 2) * size(c.shape)).map(rng(seed++));
      const want = reference(c, x, norm ?? 'backward');
      for (const precision of ['f32', 'f64'] as const) {
        for (const threads of [1, 2]) {
          const tag = `${c.fn} ${JSON.stringify(optionsOf(c, norm))} ${precision} threads=${threads}`;
          const input = precision === 'f32' ? Float32Array.from(x) : x.slice();
          const got = await FNS[c.fn](input, { ...optionsOf(c, norm), backend: 'cpu', threads });
          assert.equal(got.constructor, input.constructor, `${tag}: the input's type`);
          assert.equal(got.length, want.length, `${tag}: length`);
          const b = 4 * bound(size(c.shape) + 64, precision);
          assert.ok(relErr(got, want) <= b, `${tag}: rel L2 ${relErr(got, want)} > ${b}`);
          if (precision === 'f64') assert.deepEqual(input, x, `${tag}: input kept`);
        }
      }
    }
  }
});

test('Hermitian FFTs: out, and errors naming the argument', async () => {
  const x = new Float64Array(2 * 3 * 5).map(rng(5));
  const want = await hfft(x, { shape: [3, 5], backend: 'cpu' });
  const out = new Float64Array(want.length);
  assert.equal(await hfft(x, { shape: [3, 5], backend: 'cpu', out }), out);
  assert.deepEqual(out, want);
  const r = new Float64Array(3 * 8).map(rng(6));
  const half = await ihfft(r, { shape: [3, 8], backend: 'cpu' });
  const out2 = new Float64Array(half.length);
  assert.equal(await ihfft(r, { shape: [3, 8], backend: 'cpu', out: out2 }), out2);
  assert.deepEqual(out2, half);
  const bad = (v: unknown) => v as never;
  const cases: [string, () => Promise<unknown>, string][] = [
    ['norm', () => hfft(x, { norm: bad('sideways') }), 'norm'],
    ['ihfftn norm', () => ihfftn(r, { norm: bad('none') }), 'norm'],
    ['x = number[]', () => hfft(bad([1, 2])), 'x'],
    ['x = null', () => hfft2(bad(null)), 'x'],
    ['odd complex length', () => hfft(new Float64Array(5)), 'x'],
    ['m = 1 without n', () => hfft(new Float64Array(2)), 'n'],
    ['ihfft x', () => ihfft(bad('abc')), 'x'],
    ['axis', () => hfft(x, { shape: [3, 5], axis: 2 }), 'axis'],
    ['out length', () => hfft(x, { shape: [3, 5], out: new Float64Array(3) }), 'out'],
  ];
  for (const [what, fn, arg] of cases)
    await assert.rejects(fn, (e: unknown) => e instanceof ArgumentError && e.message.includes(arg), what);
  // norm null is the default, as numpy's None (and the other transforms' null).
  assert.deepEqual(await hfft(x, { norm: bad(null), backend: 'cpu' }), await hfft(x, { backend: 'cpu' }));
  assert.deepEqual(await ihfftn(r, { norm: bad(null), backend: 'cpu' }), await ihfftn(r, { backend: 'cpu' }));
});

test('Hermitian FFTs on WebGPU (f32)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  let seed = 100;
  for (const c of [CASES[0]!, CASES[4]!, CASES[8]!, CASES[15]!]) {
    const inverse = c.fn.startsWith('i');
    const x = new Float64Array((inverse ? 1 : 2) * size(c.shape)).map(rng(seed++));
    const want = reference(c, x, 'ortho');
    const got = await FNS[c.fn](Float32Array.from(x), { ...optionsOf(c, 'ortho'), backend: 'webgpu', gpu: ctx });
    const b = 4 * bound(size(c.shape) + 64, 'f32');
    assert.ok(relErr(got, want) <= b, `${c.fn} webgpu: rel L2 ${relErr(got, want)} > ${b}`);
  }
});
