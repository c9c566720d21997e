/** Subgroup shuffle exchanges: planner bit maps, the swaps' index maps, the CPU executor and the WGSL. No GPU needed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planWorkgroupFft } from '../../src/planner/fft-workgroup.js';
import { applyShuffleExchange, butterflyIndex, shuffleExchange } from '../../src/planner/fft-subgroup.js';
import { executeFftRecipe } from '../../src/backends/cpu/fft-stockham.js';
import { dftNaive } from '../../src/backends/cpu/dft-naive.js';
import { fftProblem } from '../../src/planner/fft-problem.js';
import { generateWorkgroupFft } from '../../src/codegen/fft-stockham-workgroup.js';
import { planWebGpuFft } from '../../src/planner/fft-webgpu.js';
import type { WorkgroupFftRecipe } from '../../src/planner/fft-recipe.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};
const SHUFFLE = { subgroupSize: 32, subgroupShuffle: true };
const variant = { direction: 'forward' as const, scale: 1, inPlace: false };

test('without subgroups (or by default) the recipes and kernels are the earlier ones', () => {
  for (const n of [512, 1024, 4096, 8192]) {
    const plain = planWorkgroupFft(n, 64, H200);
    // llvmpipe has no 'subgroups': no subgroupSize reaches the planner, whatever subgroupShuffle says.
    assert.deepEqual(planWorkgroupFft(n, 64, H200, { subgroupShuffle: true }), plain);
    // A device with subgroups: shuffles only when asked for (they measured slower, docs/DECISIONS.md).
    assert.deepEqual(planWorkgroupFft(n, 64, H200, { subgroupSize: 32 }), plain);
    assert.ok(plain.stages.every((st) => st.exchange === undefined && st.butterflyBits === undefined));
    const wgsl = generateWorkgroupFft(plain, variant).wgsl;
    assert.ok(!wgsl.includes('subgroup'));
  }
  // Real transforms never get them (their post-processing reads the plain butterfly order).
  const real = planWebGpuFft(fftProblem({ n: 8192, batch: 4 }), H200, {
    real: 'r2c',
    subgroupSize: 32,
    tuning: { subgroupShuffle: true },
  }).recipe as WorkgroupFftRecipe;
  assert.equal(real.subgroupSize, undefined);
});

test('8192 = 32·32·8: the last exchange in subgroups, three lane/register swaps', () => {
  const r = planWorkgroupFft(8192, 64, H200, SHUFFLE);
  assert.equal(r.subgroupSize, 32);
  assert.deepEqual(
    r.stages.map((st) => st.exchange),
    ['workgroup', 'shuffle', undefined],
  );
  // Stage 1: lanes on j bits 0, 1 and 5 … 7, subgroups on j bits 2 … 4; stage 2: lanes on the lowest output
  // bits left (0, 1, 5, 6, 7), so each store instruction still fills whole 32-byte sectors.
  assert.deepEqual(r.stages[1].butterflyBits, [0, 1, 5, 6, 7, 2, 3, 4]);
  assert.deepEqual(r.stages[2].butterflyBits, [0, 1, 5, 6, 7, 2, 3, 4, 8, 9]);
  assert.deepEqual(shuffleExchange(r, 1).swaps, [
    { lane: 2, reg: 0 },
    { lane: 3, reg: 1 },
    { lane: 4, reg: 2 },
  ]);
  // The workgroup memory still holds the one cross-subgroup exchange: the same bytes as before.
  assert.equal(r.workgroupBytes, planWorkgroupFft(8192, 64, H200, { exchange: 'split' }).workgroupBytes);
  // With 'split4', the last exchange of 16·8·8·8 goes to shuffles; the two earlier ones keep their rounds.
  const q = planWorkgroupFft(8192, 64, H200, { ...SHUFFLE, exchange: 'split4' });
  assert.deepEqual(
    q.stages.map((st) => st.exchange),
    ['workgroup', 'workgroup', 'shuffle', undefined],
  );
  // Two warps' worth of invocations or fewer per problem: no subgroup exchange (lanes would hold problems).
  assert.equal(planWorkgroupFft(256, 64, H200, SHUFFLE).subgroupSize, undefined);
});

test('each shuffle exchange delivers exactly the positions the next stage reads', () => {
  const split4 = { exchange: 'split4' as const };
  for (const [n, opts] of [
    [512, {}],
    [1024, {}],
    [2048, {}],
    [4096, {}],
    [8192, {}],
    [8192, split4],
    [16384, split4],
  ] as const) {
    const r = planWorkgroupFft(n, 64, H200, { ...SHUFFLE, ...opts });
    const L = r.invocationsPerProblem;
    const s = r.stages.findIndex((st) => st.exchange === 'shuffle');
    assert.ok(s >= 0, `n=${n}: a shuffle exchange`);
    const st = r.stages[s];
    const nx = r.stages[s + 1];
    const P = n / L;
    // Label each register with the position stage s writes it to, run the swaps, compare with stage s + 1's reads.
    const regs = Array.from({ length: L }, (_, t) =>
      Array.from({ length: P }, (_, i) => {
        const j = butterflyIndex(st, t + Math.floor(i / st.radix) * L);
        const k = i % st.radix;
        const pos = Math.floor(j / st.stride) * st.stride * st.radix + (j % st.stride) + k * st.stride;
        return Float64Array.of(pos, 0);
      }),
    );
    const ex = shuffleExchange(r, s);
    for (let t0 = 0; t0 < L; t0 += 32) applyShuffleExchange(regs.slice(t0, t0 + 32), ex);
    for (let t = 0; t < L; t++) {
      for (let i = 0; i < P; i++) {
        const j = butterflyIndex(nx, t + Math.floor(i / nx.radix) * L);
        assert.equal(regs[t][i][0], j + (i % nx.radix) * (n / nx.radix), `n=${n} t=${t} register ${i}`);
      }
    }
    // Without its last swap the exchange delivers wrong values.
    const short = { ...ex, swaps: ex.swaps.slice(0, -1) };
    const again = regs.slice(0, 32).map((rl) => rl.map((v) => Float64Array.from(v)));
    applyShuffleExchange(again, short);
    assert.notDeepEqual(
      again.map((rl) => rl.map((v) => v[0])),
      regs.slice(0, 32).map((rl) => rl.map((v) => v[0])),
    );
  }
});

test('CPU executor runs shuffle recipes invocation by invocation: equal to the DFT, strided batches, both directions', () => {
  for (const [n, opts] of [
    [512, {}],
    [1024, {}],
    [2048, {}],
    [8192, {}],
    [8192, { exchange: 'split4' as const }],
  ] as const) {
    const r = planWorkgroupFft(n, 64, H200, { ...SHUFFLE, ...opts });
    assert.ok(r.stages.some((st) => st.exchange === 'shuffle'));
    for (const direction of ['forward', 'inverse'] as const) {
      const batch = 3;
      const dist = n + 5;
      const p = fftProblem({ n, batch, direction, input: { offset: 3, dist }, output: { offset: 1, dist } });
      const x = randomFloat64(2 * (3 + batch * dist), n + 1);
      const y = new Float64Array(2 * (1 + batch * dist));
      executeFftRecipe(r, p, x, y);
      for (let b = 0; b < batch; b++) {
        const ref = dftNaive(x.subarray(2 * (3 + b * dist), 2 * (3 + b * dist + n)), direction === 'inverse');
        assert.ok(
          relativeL2(y.subarray(2 * (1 + b * dist), 2 * (1 + b * dist + n)), ref) < 1e-12,
          `n=${n} ${direction} batch ${b}`,
        );
      }
    }
    // A bit map that moves values across subgroups (a lane bit and a subgroup bit traded on one side) is refused.
    const bad = structuredClone(r);
    const s = bad.stages.findIndex((st) => st.exchange === 'shuffle');
    const bits = bad.stages[s + 1].butterflyBits!;
    const [a, b] = [bits.indexOf(0), bits.indexOf(5)];
    [bits[a], bits[b]] = [bits[b], bits[a]];
    assert.throws(
      () => executeFftRecipe(bad, fftProblem({ n, batch: 1 }), new Float64Array(2 * n), new Float64Array(2 * n)),
      /changes subgroup/,
    );
  }
});

test('WGSL: enable subgroups and shuffles only where the recipe says so', () => {
  const r = planWorkgroupFft(8192, 64, H200, SHUFFLE);
  const k = generateWorkgroupFft(r, variant);
  assert.ok(k.wgsl.startsWith('enable subgroups;'));
  // 3 swaps × 16 register pairs, one subgroupShuffleXor each.
  assert.equal(k.wgsl.match(/subgroupShuffleXor/g)!.length, 48);
  // One workgroup exchange left, in two rounds (split): 3 barriers instead of the earlier kernel's 7.
  const barriers = (wgsl: string) => wgsl.match(/workgroupBarrier/g)!.length;
  assert.equal(barriers(k.wgsl), 3);
  const split = planWorkgroupFft(8192, 64, H200, { exchange: 'split' });
  assert.equal(barriers(generateWorkgroupFft(split, variant).wgsl), 7);
  assert.notEqual(k.key, generateWorkgroupFft(split, variant).key);
  assert.throws(() =>
    generateWorkgroupFft(r, { ...variant, io: { load: 'complex', store: 'r2c', realLength: 16384 } }),
  );
});
