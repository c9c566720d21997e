/**
 * DCT/DST types 1–4 and the DHT on WebGPU (pre/post-processing fused into the FFT passes) against the
 * float64 CPU definitions, which are themselves tested against the O(N²) sums; every type, direction and
 * norm; round trips; axes; clear errors. Relative L2 bound 1e-6·log2(N).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testGpu } from '../helpers/gpu.js';
import * as r2r from '../../src/api/r2r.js';
import { randomFloat32 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError } from '../../src/errors.js';
import { WebGpuR2r } from '../../src/backends/webgpu/r2r.js';
import { createStorageBuffer, readBuffer, type GpuContext } from '../../src/backends/webgpu/device.js';

const bound = (n: number) => 1e-6 * Math.max(1, Math.log2(n));
const NORMS = ['backward', 'ortho', 'forward'] as const;

test('every DCT/DST type, both directions, all norms, a spread of sizes (batch 3)', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const sizes = [2, 3, 4, 5, 8, 15, 16, 31, 64, 100, 256, 1000, 4096, 1 << 16];
  let count = 0;
  for (const fam of ['dct', 'dst'] as const) {
    for (const type of [1, 2, 3, 4])
      await t.test(`${fam}-${type}`, async () => {
        for (const [i, n] of sizes.entries()) {
          // DCT-I and DST-I extend to 2(N∓1): lengths like 2·101 go through Bluestein.
          if (type === 1 && n > 4096) continue;
          // Skipped, each a kernel of a path already run here that takes seconds to compile cold on the software
          // adapter: DCT-I at 1000 (1998 = 2·27·37 adds only a radix-37 stage, some 20 s alone), and the DST
          // family at 31 (the radix-31 FFTs of the DCT family at 31, with the hooks DST runs at 15 and 5).
          if ((fam === 'dct' && type === 1 && n === 1000) || (fam === 'dst' && n === 31)) continue;
          // One direction a size (each pipeline compiles cold in about a second). The inverse of type 2 runs the
          // type-3 kernel and vice versa, and types 1 and 4 are their own inverses' kernels, so every kernel
          // still runs at (almost) every size; (i mod 2, i mod 3) gives each type every direction with every norm.
          const inverse = i % 2 === 1;
          const norm = NORMS[(i + type) % 3];
          const x = randomFloat32(3 * n, n * 7 + type);
          const f = r2r[((inverse ? 'i' : '') + fam) as 'dct'];
          const g = await f(x, { type, norm, shape: [3, n], gpu, backend: 'webgpu' });
          const c = await f(Float64Array.from(x), { type, norm, shape: [3, n], backend: 'cpu' });
          assert.ok(
            relativeL2(g, c) <= bound(n),
            `${inverse ? 'i' : ''}${fam}${type} n=${n} ${norm}: ${relativeL2(g, c)}`,
          );
          count++;
        }
      });
  }
  t.diagnostic(`r2r: ${count} GPU transforms checked against float64`);
});

test('DHT and its inverse; round trips of every type', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  // One norm a size, in rotation (each norm three times, tiny to multi-pass); DHT and inverse both run.
  for (const [i, n] of [1, 2, 3, 8, 15, 64, 1000, 8192, 1 << 15].entries())
    await t.test(`dht n=${n}`, async () => {
      const x = randomFloat32(3 * n, n);
      const norm = NORMS[i % 3];
      const h = await r2r.dht(x, { norm, shape: [3, n], gpu, backend: 'webgpu' });
      const c = await r2r.dht(Float64Array.from(x), { norm, shape: [3, n], backend: 'cpu' });
      assert.ok(relativeL2(h, c) <= bound(n), `dht n=${n} ${norm}`);
      const back = await r2r.idht(h, { norm, shape: [3, n], gpu, backend: 'webgpu' });
      assert.ok(relativeL2(back, x) <= 2 * bound(n), `dht round trip n=${n} ${norm}`);
    });
  // n = 16, batch 3: the sweep above ran types 1 and 4 there with norm 'ortho' (whose inverses are the same
  // kernels), so only the type-2 and type-3 kernels compile here.
  for (const fam of ['dct', 'dst'] as const) {
    for (const type of [1, 2, 3, 4]) {
      const n = 16;
      const x = randomFloat32(3 * n, type);
      const y = await r2r[fam](x, { type, norm: 'ortho', shape: [3, n], gpu, backend: 'webgpu' });
      const z = await r2r[`i${fam}`](y, { type, norm: 'ortho', shape: [3, n], gpu, backend: 'webgpu' });
      assert.ok(relativeL2(z, x) <= 2 * bound(n), `${fam}${type} round trip`);
    }
  }
});

test('axes, n (crop / pad), N-D transforms, orthogonalize off', async (t) => {
  const gpu = await testGpu();
  if (!gpu) return t.skip('no WebGPU adapter');
  const cases: [keyof typeof r2r, Record<string, unknown>, number[]][] = [
    ['dct', { axis: 0 }, [16, 5]],
    ['dst', { type: 3, axis: 1 }, [4, 9, 6]],
    ['dct', { n: 40 }, [3, 32]],
    ['idct', { n: 20, type: 4 }, [3, 32]],
    ['dctn', {}, [8, 12]],
    ['dstn', { type: 1, axes: [0, 2] }, [6, 5, 7]],
    ['idctn', { type: 3, s: [10, 9] }, [8, 8]],
    ['dct', { norm: 'ortho', orthogonalize: false }, [3, 33]],
  ];
  for (const [fn, o, shape] of cases) {
    const x = randomFloat32(
      shape.reduce((a, b) => a * b, 1),
      3,
    );
    const f = r2r[fn] as (
      x: Float32Array | Float64Array,
      o: Record<string, unknown>,
    ) => Promise<Float32Array | Float64Array>;
    const g = await f(x, { ...o, shape, gpu, backend: 'webgpu' });
    const c = await f(Float64Array.from(x), { ...o, shape, backend: 'cpu' });
    assert.equal(g.length, c.length, `${fn} ${JSON.stringify(o)} length`);
    assert.ok(relativeL2(g, c) <= 1e-5, `${fn} ${JSON.stringify(o)}: ${relativeL2(g, c)}`);
  }
});

test('r2r errors name the argument', async () => {
  await assert.rejects(r2r.dct(new Float32Array(4), { type: 5 }), ArgumentError);
  // The input's own length is blamed where no n was given; n where it was.
  await assert.rejects(r2r.dct(new Float32Array(1), { type: 1, backend: 'cpu' }), /^ArgumentError: x: .*axis 0/);
  await assert.rejects(r2r.dct(new Float32Array(3), { type: 1, n: 1, backend: 'cpu' }), /^ArgumentError: n: /);
  await assert.rejects(r2r.dctn(new Float32Array(6), { shape: [3, 2], s: [1, 2], type: 1 }), /^ArgumentError: s: /);
  // numpy's −1 (keep the length) belongs to s only: a 1-D n of −1 or 0 is refused, as scipy does.
  for (const f of [r2r.dct, r2r.idct, r2r.dst, r2r.idst, r2r.dht, r2r.idht])
    for (const n of [-1, 0]) await assert.rejects(f(new Float64Array(3), { n, backend: 'cpu' }), /^ArgumentError: n: /);
  await assert.rejects(r2r.dst(new Float32Array(6), { shape: [4] }), ArgumentError);
  await assert.rejects(r2r.dht(new Float32Array(0)), ArgumentError);
  await assert.rejects(r2r.dct(new Float32Array(4), { norm: 'none' as 'ortho' }), ArgumentError);
  await assert.rejects(r2r.dctn(new Float32Array(4), { shape: [2, 2], axes: [3] }), ArgumentError);
});

/** Runs a type-2 (or DHT) plan on x into a NaN-filled buffer and returns its relative L2 error against float64. */
async function type2Error(
  ctx: GpuContext,
  plan: WebGpuR2r,
  family: 'dct' | 'dst' | 'dht',
  x: Float32Array,
  batch: number,
  n: number,
): Promise<number> {
  const src = createStorageBuffer(ctx, x);
  const dst = createStorageBuffer(ctx, new Float32Array(batch * n).fill(NaN));
  await plan.execute(src, dst);
  const got = new Float32Array(await readBuffer(ctx, dst, 0, batch * n * 4));
  src.destroy();
  dst.destroy();
  plan.destroy();
  const cpu = { shape: [batch, n], backend: 'cpu' as const };
  const ref =
    family === 'dht'
      ? await r2r.dht(Float64Array.from(x), cpu)
      : await r2r[family](Float64Array.from(x), { type: 2, ...cpu });
  return relativeL2(got, ref);
}

test("DCT-II / DST-II / DHT of 2^15 in one workgroup ('split4' with the paired last stage, and 'rounds'), against float64", async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  const n = 1 << 15;
  const batch = 3;
  const x = randomFloat32(batch * n, 77);
  for (const exchange of ['split4', 'rounds'] as const) {
    for (const family of ['dct', 'dst', 'dht'] as const) {
      const plan = await WebGpuR2r.create(ctx, {
        family,
        type: 2,
        shape: [batch, n],
        axes: [-1],
        tuning: { exchange },
      });
      const kernels = plan.axisPlans[0].kernelNames;
      assert.deepEqual(kernels, ['fft16384-forward-wg'], `${family} ${exchange}: ${kernels}`);
      const err = await type2Error(ctx, plan, family, x, batch, n);
      assert.ok(err <= bound(n), `${family} ${exchange}: ${err}`);
    }
  }
});

test('multi-pass DCT-II / DHT with the post-processing fused into the last pass (wider last pass)', async (t) => {
  const ctx = await testGpu();
  if (!ctx) return t.skip('no WebGPU adapter');
  for (const [family, n] of [
    ['dct', 1 << 16],
    ['dht', 1 << 16],
    ['dct', 1 << 17],
    ['dst', 1 << 16],
  ] as const)
    await t.test(`${family} n=${n}`, async () => {
      const batch = 3;
      const x = randomFloat32(batch * n, n + 5);
      // Fused is the default for all three; r2cPostKernel keeps the separate post-processing kernel; 64
      // column slots (32 mirror pairs) where the last pass is 64 points. The explicit 16 and 64 columns each run
      // at two of the three 2^16 cases (the DCT-II at both: their pass kernels take seconds each to compile).
      const narrow = family === 'dht' ? [] : [{ r2cFused: true, lastPassColumns: 16 }];
      const wide = n === 1 << 16 && family !== 'dst' ? [{ r2cFused: true, lastPassColumns: 64 }] : [];
      for (const tuning of [{}, ...narrow, ...wide, { r2cPostKernel: true }]) {
        const plan = await WebGpuR2r.create(ctx, { family, type: 2, shape: [batch, n], axes: [-1], tuning });
        const kernels = plan.axisPlans[0].kernelNames;
        assert.ok(kernels.length >= 2, `${family} n=${n}: multi-pass (${kernels})`);
        // The default fuses where the last pass can hold 16 columns (here up to 2^16; 2^17 needs more than
        // this adapter's workgroup memory and keeps the separate kernel); r2cPostKernel never fuses.
        const post = kernels.some((k) => k.startsWith('r2c-post'));
        if ('r2cPostKernel' in tuning) assert.ok(post, `${family} n=${n}: ${kernels}`);
        else if (n <= 1 << 16) assert.ok(!post, `${family} n=${n} ${JSON.stringify(tuning)}: ${kernels}`);
        const err = await type2Error(ctx, plan, family, x, batch, n);
        assert.ok(err <= bound(n), `${family} n=${n} ${JSON.stringify(tuning)}: ${err}`);
      }
    });
});
