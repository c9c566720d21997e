/**
 * A browser's main thread refuses to compile modules over 4 KiB synchronously. The CPU engine's N-D paths (the 2-D
 * engine, the column module along other axes, real pairs of columns, the DCT's) compile theirs ahead,
 * asynchronously, there: under the emulation of that rule (setSyncCompileRestricted) every call must still match
 * the float64 reference and must have run on those modules, not fallen back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fft, fft2, rfft, rfft2, rfftn, irfftn, dctn } from '../../src/index.js';
import * as nd from '../../src/backends/cpu/fft-nd.js';
import * as dct from '../../src/backends/cpu/r2r-dct.js';
import { compileSync, setSyncCompileRestricted, SyncCompileRefused } from '../../src/backends/cpu/wasm-fft.js';
import { hasColumnsModule } from '../../src/backends/cpu/fft-2d.js';
import {
  planCpuEngineColumns,
  planCpuEngineDctColumns,
  planCpuEngineFft2,
  planCpuEngineRealColumns,
  type CpuColumnsRecipe,
} from '../../src/planner/cpu-fft.js';
import { generateColumnsModule } from '../../src/codegen/wasm/fft-columns.js';
import { rng } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { oneShotNowStats } from '../../src/api/one-shot-now.js';

/** A module too large to compile in place there, which has been compiled (ahead, then). */
const restricted = (r: CpuColumnsRecipe): boolean =>
  generateColumnsModule(r).bytes.length > 4096 && hasColumnsModule(r);

test('with synchronous compilation restricted, the N-D paths compile ahead and still run on the engine', async () => {
  // This file's process compiled nothing before: every module below has to come through the restricted path.
  setSyncCompileRestricted(true);
  try {
    const big = generateColumnsModule(planCpuEngineColumns(128, 32, 'f32')!).bytes;
    assert.ok(big.length > 4096);
    assert.throws(() => compileSync(big), SyncCompileRefused);
    const o = { backend: 'cpu', threads: 1 } as const;
    let seed = 5;
    for (const precision of ['f32', 'f64'] as const) {
      const Arr = precision === 'f32' ? Float32Array : Float64Array;
      const tol = precision === 'f32' ? 2e-6 : 1e-13;
      // Complex along axis 0 (the column module) and over two axes (the 2-D engine).
      const c = new Arr(2 * 128 * 32).map(rng(seed++));
      const want0 = nd.fft(Float64Array.from(c), { axis: 0 }, [128, 32]).data;
      assert.ok(relativeL2(await fft(c, { ...o, shape: [128, 32], axis: 0 }), want0) < tol);
      assert.ok(restricted(planCpuEngineColumns(128, 32, precision)!), `${precision} fft axis 0`);
      const want2 = nd.fftn(Float64Array.from(c), [128, 32]).data;
      assert.ok(relativeL2(await fft2(c, { ...o, shape: [128, 32] }), want2) < tol);
      assert.ok(restricted(planCpuEngineFft2(128, 32, precision, 1)!), `${precision} fft2`);
      // Real: pairs of columns along axis 0, the real 2-D engine, a volume's complex axes, the DCT's columns.
      const x = new Arr(48 * 64).map(rng(seed++));
      const wantR = nd.rfft(Float64Array.from(x), { axis: 0 }, [48, 64]).data;
      assert.ok(relativeL2(await rfft(x, { ...o, shape: [48, 64], axis: 0 }), wantR) < tol);
      assert.ok(restricted(planCpuEngineRealColumns(48, 64, precision)!), `${precision} rfft axis 0`);
      const wantR2 = nd.rfftn(Float64Array.from(x), [48, 64]).data;
      assert.ok(relativeL2(await rfft2(x, { ...o, shape: [48, 64] }), wantR2) < tol);
      const v = new Arr(24 * 16 * 10).map(rng(seed++));
      const wantV = nd.rfftn(Float64Array.from(v), [24, 16, 10], { axes: [0, 2] }).data;
      assert.ok(relativeL2(await rfftn(v, { ...o, shape: [24, 16, 10], axes: [0, 2] }), wantV) < tol);
      assert.ok(restricted(planCpuEngineColumns(24, 16 * 6, precision)!), `${precision} rfftn axis 0`);
      const h = new Arr(2 * 24 * 16 * 6).map(rng(seed++));
      const shapeH = [24, 16, 6];
      const wantI = nd.irfftn(Float64Array.from(h), shapeH, { axes: [0, 2], s: [24, 10] }).data;
      const gotI = await irfftn(h, { ...o, shape: shapeH, axes: [0, 2], s: [24, 10] });
      assert.ok(relativeL2(gotI, wantI) < tol);
      const wantD = dct.dctn(Float64Array.from(x), [48, 64], {}).data;
      assert.ok(relativeL2(await dctn(x, { ...o, shape: [48, 64] }), wantD) < tol);
      assert.ok(restricted(planCpuEngineDctColumns(48, 64, precision)!), `${precision} dctn`);
    }
  } finally {
    setSyncCompileRestricted(false);
  }
});

test('with synchronous compilation restricted, one-shot calls take the path without awaits once their plan is compiled', async () => {
  setSyncCompileRestricted(true);
  try {
    const n = 3000; // a module well over 4 KiB
    const r = rng(77);
    const x = Float64Array.from({ length: 2 * n }, () => r() - 0.5);
    const before = oneShotNowStats().taken;
    const first = await fft(x, { threads: 1 });
    assert.equal(oneShotNowStats().taken, before, 'the first call compiles ahead on the general path');
    const second = await fft(x, { threads: 1 });
    assert.equal(oneShotNowStats().taken, before + 1, 'the second runs the plan the first compiled');
    assert.deepEqual(second, first);
    assert.ok(relativeL2(second, nd.fftn(x, [n]).data) < 1e-13);
    // Rows (rfft) keep the general path there.
    const y = Float32Array.from({ length: n }, () => r() - 0.5);
    await rfft(y, { threads: 1 });
    await rfft(y, { threads: 1 });
    assert.equal(oneShotNowStats().taken, before + 1);
  } finally {
    setSyncCompileRestricted(false);
  }
});
