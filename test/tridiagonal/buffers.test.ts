/**
 * Tridiagonal engine buffers (TridiagonalPlan.createBuffers): real float64 interleaved Thomas solves on the
 * kernel's own memory, against the same plan on ordinary arrays (x, status and backward errors bit for
 * bit): odd and even batches (every block solves an even number of systems), several blocks, n = 2, bad systems
 * and the 'auto' LU re-solve; every other plan gets ordinary arrays; the inputs survive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTridiagonalPlan, DestroyedError } from '../../src/index.js';
import { matIndex } from '../../src/planner/tridiagonal.js';
import { randomSystems, toLayout } from './helpers.js';

function same(a: ArrayLike<number>, b: ArrayLike<number>, tag: string): void {
  assert.equal(a.length, b.length, `${tag}: length`);
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) assert.fail(`${tag}: [${k}] ${a[k]} vs ${b[k]}`);
}

test('tridiagonal engine buffers: bit for bit the ordinary path', async () => {
  const cases: [number, number][] = [
    [2, 2],
    [2, 3], // one block, odd: two calls overlapping by a system
    [5, 7],
    [64, 101],
    [17, 1201], // several blocks, odd: the last one starts a system early
    [300, 258],
    [1000, 5],
  ];
  for (const [n, batch] of cases) {
    for (const backend of ['cpu', 'auto'] as const) {
      const tag = `n=${n} batch=${batch} ${backend}`;
      const layout = 'interleaved';
      const sys = toLayout(randomSystems(n, batch, 3 * n + batch, { dominance: batch % 2 ? 1 : 0.6 }), {
        n,
        batch,
        nrhs: 1,
        layout,
        complex: false,
      });
      if (batch > 6) {
        // Bad systems: a zero pivot, an infinite diagonal entry, a NaN right-hand side (auto re-solves them).
        const at = (j: number, i: number) => matIndex(layout, n, batch, j, i);
        sys.b[at(1, 0)] = 0;
        sys.b[at(3, n - 1)] = Infinity;
        sys.d[at(batch - 1, n >> 1)] = NaN;
      }
      const plan = await createTridiagonalPlan({ n, batch, layout, dtype: 'float64', backend });
      const buf = plan.createBuffers();
      buf.lower.set(sys.a);
      buf.diag.set(sys.b);
      buf.upper.set(sys.c);
      buf.rhs.set(sys.d);
      buf.out.fill(7);
      const r = await plan.solve(buf);
      assert.equal(r.x, buf.out, `${tag}: x is the out buffer`);
      const o = await plan.solve({ lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d });
      same(r.x, o.x, `${tag}: x`);
      same(r.status, o.status, `${tag}: status`);
      same(r.backwardError!, o.backwardError!, `${tag}: backward errors`);
      assert.equal(r.ok, o.ok, `${tag}: ok`);
      for (const [k, v] of [
        ['lower', sys.a],
        ['diag', sys.b],
        ['upper', sys.c],
        ['rhs', sys.d],
      ] as const)
        same(buf[k], v, `${tag}: ${k} kept`);
      // Again, with new right-hand sides in place.
      buf.rhs.reverse();
      const r2 = await plan.solve(buf);
      const o2 = await plan.solve({ lower: sys.a, diag: sys.b, upper: sys.c, rhs: Float64Array.from(buf.rhs) });
      same(r2.x, o2.x, `${tag}: second solve`);
    }
  }
});

test('tridiagonal engine buffers: other plans get ordinary arrays, other uses take the ordinary path', async () => {
  const n = 33,
    batch = 9;
  for (const desc of [
    { layout: 'interleaved' as const, dtype: 'float64' as const, batchOne: true },
    { layout: 'strided' as const, dtype: 'float64' as const },
    { layout: 'interleaved' as const, dtype: 'float32' as const },
    { layout: 'interleaved' as const, dtype: 'float64' as const, nrhs: 2 },
    { layout: 'interleaved' as const, dtype: 'float64' as const, complex: true },
    { layout: 'interleaved' as const, dtype: 'float64' as const, cyclic: true },
    { layout: 'interleaved' as const, dtype: 'float64' as const, cpuAlgorithm: 'lu' as const },
  ]) {
    // batchOne marks the case, not an option (createTridiagonalPlan refuses names it does not take).
    const { batchOne, ...options } = { batchOne: false, ...desc };
    const plan = await createTridiagonalPlan({ n, batch: batchOne ? 1 : batch, backend: 'cpu', ...options });
    const buf = plan.createBuffers();
    const tag = JSON.stringify(desc);
    const { matrix, rhs } = plan.sizes;
    assert.equal(buf.diag.length, matrix, tag);
    assert.equal(buf.rhs.length, rhs, tag);
    assert.ok(buf.diag instanceof (desc.dtype === 'float64' ? Float64Array : Float32Array), tag);
    // An ordinary array owns its buffer; engine buffers are views into a much larger memory.
    assert.equal(buf.diag.buffer.byteLength, matrix * buf.diag.BYTES_PER_ELEMENT, `${tag}: an ordinary array`);
  }
  // Engine buffers with another `out`, or passed as the wrong arguments: the ordinary path, and right.
  const plan = await createTridiagonalPlan({ n, batch, layout: 'interleaved', dtype: 'float64', backend: 'cpu' });
  const buf = plan.createBuffers();
  const sys = toLayout(randomSystems(n, batch, 11), { n, batch, nrhs: 1, layout: 'interleaved', complex: false });
  buf.lower.set(sys.a);
  buf.diag.set(sys.b);
  buf.upper.set(sys.c);
  buf.rhs.set(sys.d);
  const want = (await plan.solve({ lower: sys.a, diag: sys.b, upper: sys.c, rhs: sys.d })).x;
  same((await plan.solve({ ...buf, out: new Float64Array(n * batch) })).x, want, 'ordinary out');
  same((await plan.solve({ lower: buf.lower, diag: buf.diag, upper: buf.upper, rhs: buf.rhs })).x, want, 'no out');
  buf.lower.set(sys.c);
  buf.upper.set(sys.a);
  const swapped = await plan.solve({ ...buf, lower: buf.upper, upper: buf.lower });
  same(swapped.x, want, 'swapped arrays');
  plan.destroy();
  assert.throws(() => plan.createBuffers(), DestroyedError);
});
