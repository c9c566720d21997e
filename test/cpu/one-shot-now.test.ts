/**
 * One-shot calls along the last axis computed without awaiting (api/one-shot-now.ts): bit-identical to the general
 * path (setOneShotNow(false)) for every kind, precision, norm, a spread of lengths and batches of one and three,
 * into fresh results, `out`, and `out` being the input; the path is really taken; calls it must not
 * take (threads splitting a long row, 'webgpu', bad arguments) go to the general path and fail or run as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fft, ifft, rfft, irfft, dct, idct, dst, idst, dht, idht, ArgumentError } from '../../src/index.js';
import { oneShotNowStats, setOneShotNow } from '../../src/api/one-shot-now.js';
import { describeAuto } from '../../src/api/backend.js';
import { assertSame, bound, relErr, rng } from '../helpers/numeric.js';
import { dftNaive } from '../../src/backends/cpu/dft-naive.js';

type Arr = Float32Array | Float64Array;
type Opts = Record<string, unknown>;
type Call = (x: Arr, o: Opts) => Promise<Arr>;

const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 64, 100, 128, 243, 256, 1000, 1009, 1024, 4096, 6000];

/** Kind, values in for n, whether n suits it, the call. */
const KINDS: [string, (n: number) => number, (n: number) => boolean, Call][] = [
  ['fft', (n) => 2 * n, () => true, (x, o) => fft(x, o)],
  ['ifft', (n) => 2 * n, () => true, (x, o) => ifft(x, o)],
  ['rfft', (n) => n, () => true, (x, o) => rfft(x, o)],
  ['irfft', (n) => 2 * (Math.floor(n / 2) + 1), () => true, (x, o) => irfft(x, o)],
  ...[1, 2, 3, 4].flatMap((type): [string, (n: number) => number, (n: number) => boolean, Call][] => [
    [`dct${type}`, (n) => n, (n) => type !== 1 || n >= 2, (x, o) => dct(x, { ...o, type })],
    [`idct${type}`, (n) => n, (n) => type !== 1 || n >= 2, (x, o) => idct(x, { ...o, type })],
    [`dst${type}`, (n) => n, () => true, (x, o) => dst(x, { ...o, type })],
    [`idst${type}`, (n) => n, () => true, (x, o) => idst(x, { ...o, type })],
  ]),
  ['dht', (n) => n, () => true, (x, o) => dht(x, o)],
  ['idht', (n) => n, () => true, (x, o) => idht(x, o)],
];

for (const [name, valuesIn, suits, call] of KINDS) {
  test(`one-shot now: ${name} matches the general path bit for bit`, async () => {
    const before = oneShotNowStats().taken;
    for (const Ctor of [Float32Array, Float64Array]) {
      for (const n of LENGTHS) {
        if (!suits(n)) continue;
        for (const rows of [1, 3]) {
          const seed = n * 31 + Ctor.BYTES_PER_ELEMENT + rows;
          const x = new Ctor(rows * valuesIn(n)).map(rng(seed));
          const norm = (['backward', 'ortho', 'forward'] as const)[n % 3];
          // irfft's output length: n itself (odd n needs it given), else numpy's default 2(m − 1).
          const complexIn = name === 'fft' || name === 'ifft' || name === 'irfft';
          const shape = rows === 1 ? undefined : [rows, valuesIn(n) / (complexIn ? 2 : 1)];
          const o: Opts = { backend: 'cpu', norm, shape, ...(name === 'irfft' ? { n } : {}) };
          setOneShotNow(false);
          const general = await call(x, o);
          setOneShotNow(true);
          const what = `${name} ${Ctor.name} n=${n} rows=${rows}`;
          const taken = oneShotNowStats().taken;
          assertSame(await call(x, o), general, what);
          // Types 1, odd DHTs and the shortest lengths have no fused module and take the general path's other ways.
          const fused = n >= 16 && !name.endsWith('1') && !(name.endsWith('dht') && n % 2 === 1);
          if (complexIn || name === 'rfft' || fused) assert.equal(oneShotNowStats().taken, taken + 1, `${what}: taken`);
          const out = new Ctor(general.length).fill(-7);
          assert.equal(await call(x, { ...o, out }), out);
          assertSame(out, general, `${what} into out`);
          if (general.length === x.length) {
            const y = x.slice();
            assert.equal(await call(y, { ...o, out: y }), y);
            assertSame(y, general, `${what} in place`);
          }
          assertSame(x, new Ctor(rows * valuesIn(n)).map(rng(seed)), 'input untouched');
        }
      }
    }
    assert.ok(oneShotNowStats().taken > before, 'the path was taken');
  });
}

test('one-shot now: fft against the float64 DFT, default threads and one', async () => {
  for (const n of [1, 6, 64, 97, 1024, 3000]) {
    const r = rng(n);
    const x = new Float64Array(2 * n).map(() => r());
    const want = dftNaive(x);
    for (const threads of [undefined, 1]) {
      const before = oneShotNowStats().taken;
      const got = await fft(x, { threads });
      assert.equal(oneShotNowStats().taken, before + 1);
      assert.ok(relErr(got, want) < bound(n, 'f64'), `n=${n}: ${relErr(got, want)}`);
      const got32 = await fft(Float32Array.from(x), { threads, backend: 'cpu' });
      assert.ok(relErr(got32, want) < bound(n, 'f32'), `f32 n=${n}: ${relErr(got32, want)}`);
    }
  }
});

test("one-shot now: float32 under 'auto' once it has settled on the CPU engine", async (t) => {
  if ((await describeAuto()).engine !== 'cpu') return t.skip('auto runs on a hardware adapter here');
  const r = rng(9);
  const x = new Float32Array(2 * 256).map(() => r());
  const want = await fft(x, { backend: 'cpu', threads: 1 });
  await fft(x);
  const before = oneShotNowStats().taken;
  assertSame(await fft(x), want, 'auto');
  assert.equal(oneShotNowStats().taken, before + 1);
  // 'webgpu' runs the kernels on whatever adapter there is, never here.
  await fft(x, { backend: 'webgpu' }).catch(() => null);
  assert.equal(oneShotNowStats().taken, before + 1);
});

test('one-shot now: bad arguments still fail naming them', async () => {
  const x = new Float32Array(16);
  const cases: [() => Promise<unknown>, string][] = [
    [() => fft(new Float32Array(15)), 'x'],
    [() => fft(x, { n: 0 }), 'n'],
    [() => fft(x, { axis: 1 }), 'axis'],
    [() => fft(x, { norm: 'none' as never }), 'norm'],
    [() => fft(x, { threads: 0 }), 'threads'],
    [() => fft(x, { backend: 'gpu' as never }), 'backend'],
    [() => fft(x, { out: new Float32Array(15) }), 'out'],
    [() => fft(x, { out: new Float64Array(16) as never }), 'out'],
    [() => rfft(x, { out: new Float32Array(16) }), 'out'],
    [() => irfft(new Float32Array(2)), 'n'],
    [() => dct(x, { type: 5 }), 'type'],
    [() => dct(new Float32Array(1), { type: 1 }), 'x'],
    [() => dct(x, { out: new Float32Array(17) }), 'out'],
  ];
  for (const [call, arg] of cases) {
    await assert.rejects(call(), (e: unknown) => e instanceof ArgumentError && e.argument === arg, arg);
  }
});

test('one-shot now: a long row that threads split goes to the general path', async () => {
  const n = 1 << 20;
  const r = rng(5);
  const x = new Float32Array(2 * n).map(() => r());
  const before = oneShotNowStats().taken;
  const split = await fft(x, { backend: 'cpu' });
  assert.equal(oneShotNowStats().taken, before, 'not taken with the default threads');
  const single = await fft(x, { backend: 'cpu', threads: 1 });
  assert.equal(oneShotNowStats().taken, before + 1, 'taken with one thread');
  assert.ok(relErr(split, single) < bound(n, 'f32'));
});
