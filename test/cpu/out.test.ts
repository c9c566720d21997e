/**
 * numpy's `out` for the one-shot functions: the result lands in the caller's array (returned as is),
 * bit-identical to a call without `out`, for last-axis, N-D, cropped and padded calls, with `out` being
 * the input itself or overlapping it; a wrong type or length is refused naming `out`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fft,
  ifft,
  rfft,
  irfft,
  fft2,
  fftn,
  irfftn,
  dct,
  idct,
  dst,
  dht,
  dctn,
  ArgumentError,
} from '../../src/index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

type Arr = Float32Array | Float64Array;
type Call = (x: Arr, out?: Arr) => Promise<Arr>;

const cases: [string, number, Call][] = [
  ['fft', 2 * 3 * 100, (x, out) => fft(x, { shape: [3, 100], backend: 'cpu', out })],
  ['ifft n=64 (crop)', 2 * 4 * 100, (x, out) => ifft(x, { shape: [4, 100], n: 64, backend: 'cpu', out })],
  ['rfft', 5 * 96, (x, out) => rfft(x, { shape: [5, 96], backend: 'cpu', out })],
  ['rfft axis 0', 6 * 7, (x, out) => rfft(x, { shape: [6, 7], axis: 0, backend: 'cpu', out })],
  ['irfft', 2 * 3 * 49, (x, out) => irfft(x, { shape: [3, 49], backend: 'cpu', out })],
  ['irfft n=97', 2 * 3 * 49, (x, out) => irfft(x, { shape: [3, 49], n: 97, backend: 'cpu', out })],
  ['fft2', 2 * 3 * 8 * 12, (x, out) => fft2(x, { shape: [3, 8, 12], backend: 'cpu', out })],
  ['fftn s pad', 2 * 5 * 6, (x, out) => fftn(x, { shape: [5, 6], s: [8, 7], backend: 'cpu', out })],
  ['irfftn', 2 * 4 * 5, (x, out) => irfftn(x, { shape: [4, 5], backend: 'cpu', out })],
  ['dct', 3 * 128, (x, out) => dct(x, { shape: [3, 128], backend: 'cpu', out })],
  ['dct ortho odd', 3 * 45, (x, out) => dct(x, { shape: [3, 45], norm: 'ortho', backend: 'cpu', out })],
  ['idct type 4', 3 * 40, (x, out) => idct(x, { shape: [3, 40], type: 4, backend: 'cpu', out })],
  ['dst n=50 (pad)', 3 * 40, (x, out) => dst(x, { shape: [3, 40], n: 50, backend: 'cpu', out })],
  ['dht', 4 * 30, (x, out) => dht(x, { shape: [4, 30], backend: 'cpu', out })],
  ['dctn', 6 * 10, (x, out) => dctn(x, { shape: [6, 10], type: 1, backend: 'cpu', out })],
];

function same(a: Arr, b: Arr, what: string): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${what}: [${i}] ${a[i]} vs ${b[i]}`);
}

for (const [name, len, call] of cases) {
  test(`out: ${name}`, async () => {
    for (const Ctor of [Float32Array, Float64Array]) {
      const r = rng(len);
      const x = new Ctor(len).map(() => r());
      const keep = x.slice();
      const want = await call(x);
      assert.equal(want.constructor, Ctor);
      const out = new Ctor(want.length).fill(NaN);
      const got = await call(x, out);
      assert.equal(got, out, `${name}: returns out itself`);
      same(out, want, `${name} ${Ctor.name}`);
      same(x, keep, `${name} ${Ctor.name}: input untouched`);
      // out may be the input (same length) or overlap it: the result is still exact.
      if (want.length === len) {
        const y = x.slice();
        assert.equal(await call(y, y), y);
        same(y, want, `${name} ${Ctor.name}: out = input`);
      }
      const big = new Ctor(len + want.length + 3);
      big.set(x, 3);
      const o2 = big.subarray(0, want.length);
      await call(big.subarray(3, 3 + len), o2);
      same(o2, want, `${name} ${Ctor.name}: out overlapping the input`);
      // Wrong type, wrong length, not an array.
      const Other = Ctor === Float32Array ? Float64Array : Float32Array;
      for (const bad of [new Other(want.length), new Ctor(want.length + 1), new Ctor(want.length - 1), [1, 2]]) {
        await assert.rejects(
          call(x, bad as Arr),
          (e: unknown) => e instanceof ArgumentError && e.argument === 'out',
          `${name}: bad out refused`,
        );
      }
    }
  });
}
