/** Planner and recipe tests: no GPU needed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  factorRadices,
  largestWorkgroupFft,
  pairedLastRadices,
  planWorkgroupFft,
  type WorkgroupPlanOptions,
} from '../../src/planner/fft-workgroup.js';
import { roundsProblem, roundsRadices } from '../../src/planner/fft-rounds.js';
import { exchangeConflicts, passRowLayout, passRowStride, rowAddress } from '../../src/planner/row-layout.js';
import { executeFftRecipe } from '../../src/backends/cpu/fft-stockham.js';
import { dftNaive } from '../../src/backends/cpu/dft-naive.js';
import { fftProblem } from '../../src/planner/fft-problem.js';
import { generateWorkgroupFft } from '../../src/codegen/fft-stockham-workgroup.js';
import { randomFloat64 } from '../../src/util/random.js';
import { relativeL2 } from '../../src/util/metrics.js';
import { ArgumentError, DeviceLimitError, UnsupportedError } from '../../src/errors.js';

const H200 = {
  maxComputeWorkgroupStorageSize: 49152,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};
const LLVMPIPE = {
  maxComputeWorkgroupStorageSize: 32768,
  maxComputeInvocationsPerWorkgroup: 1024,
  maxComputeWorkgroupSizeX: 1024,
};
const WEBGPU_DEFAULT = {
  maxComputeWorkgroupStorageSize: 16384,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
};

test('radix factorisation: balanced powers of two, odd factors kept', () => {
  assert.deepEqual(factorRadices(4096), [16, 16, 16]);
  assert.deepEqual(factorRadices(8192), [16, 8, 8, 8]);
  assert.deepEqual(factorRadices(32), [8, 4]);
  assert.deepEqual(factorRadices(1000), [8, 5, 5, 5]);
  assert.deepEqual(factorRadices(7), [7]);
  assert.deepEqual(factorRadices(2 * 3 * 5 * 7), [2, 7, 5, 3]);
  assert.deepEqual(factorRadices(8192, 8), [8, 8, 8, 4, 4]);
});

test('recipes: mapping vector [b | l | p] and exchange chosen from the limits', () => {
  const small = planWorkgroupFft(16, 1 << 20, H200);
  assert.deepEqual(small.radices, [16]);
  assert.equal(small.invocationsPerProblem, 1);
  assert.equal(small.staging, true); // one invocation per problem: coalesced through workgroup memory
  const mid = planWorkgroupFft(256, 1 << 16, H200);
  assert.deepEqual(mid.radices, [16, 16]);
  assert.equal(mid.invocationsPerProblem, 16);
  assert.equal(mid.registers, 16);
  assert.equal(mid.exchange, 'split'); // real and imaginary parts in two rounds from n = 128
  assert.equal(planWorkgroupFft(64, 1 << 16, H200).exchange, 'complex');
  assert.equal(planWorkgroupFft(256, 1 << 16, H200, { splitExchangeFrom: 512 }).exchange, 'complex');
  assert.ok(mid.problemsPerWorkgroup >= 2);
  const big = planWorkgroupFft(8192, 16, H200, { exchange: 'split' });
  assert.equal(big.exchange, 'split');
  assert.equal(big.workgroupSize, 256); // radix 32 for the largest lengths
  assert.deepEqual(big.radices, [32, 32, 8]); // full 32-point stages first, the remainder last
  assert.ok(big.workgroupBytes <= H200.maxComputeWorkgroupStorageSize);
  // By default 8192 exchanges in rounds: 256 invocations × 32 registers, one 2048-value block a round.
  const rounds = planWorkgroupFft(8192, 16, H200);
  assert.equal(rounds.exchange, 'rounds');
  assert.deepEqual(rounds.radices, [8, 8, 8, 16]);
  assert.equal(rounds.workgroupSize, 256);
  assert.equal(rounds.registers, 32);
  assert.equal(rounds.roundBlock, 2048);
  assert.equal(rounds.workgroupBytes, 2048 * 8);
  // Batch 1 never gets idle problem slots.
  assert.equal(planWorkgroupFft(64, 1, H200).problemsPerWorkgroup, 1);
  // The operator string is the core algebra's Stockham string.
  assert.equal(mid.operators, 'B(2) S(2,1) B(2) S(2,2)');
});

test('largest single-workgroup FFT follows the device limits', () => {
  // 16384 in 32 KiB with the rounds exchange (512 invocations); WebGPU's default 256 invocations and 16 KiB hold
  // 8192 that way (4096 with the split exchange).
  assert.equal(largestWorkgroupFft(H200), 16384);
  assert.equal(largestWorkgroupFft(LLVMPIPE), 16384);
  assert.equal(largestWorkgroupFft(WEBGPU_DEFAULT), 8192);
  assert.equal(largestWorkgroupFft(WEBGPU_DEFAULT, { exchange: 'split' }), 4096);
  assert.equal(planWorkgroupFft(16384, 1, H200).exchange, 'rounds');
  assert.throws(() => planWorkgroupFft(16384, 1, H200, { exchange: 'split' }), DeviceLimitError);
  assert.throws(() => planWorkgroupFft(32768, 1, H200), DeviceLimitError);
  // 16384 in one workgroup only with the 'split4' exchange when asked for: n/2 f32 values of workgroup
  // memory, 1024 invocations.
  const q = planWorkgroupFft(16384, 1, H200, { exchange: 'split4' });
  assert.equal(q.exchange, 'split4');
  assert.deepEqual(q.radices, [16, 16, 8, 8]); // radix ≤ 16 first (its butterfly bits swap within a warp)
  assert.equal(q.workgroupSize, 1024);
  assert.ok(
    q.workgroupBytes <= H200.maxComputeWorkgroupStorageSize && q.workgroupBytes >= 8192 * 4,
    `${q.workgroupBytes}`,
  );
  assert.throws(() => planWorkgroupFft(32768, 1, H200, { exchange: 'split4' }), DeviceLimitError);
  // Two stages have no bit both sides of every exchange hold.
  assert.throws(() => planWorkgroupFft(256, 1, H200, { exchange: 'split4' }), ArgumentError);
});

test('rows of 4096 values or more are XOR-swizzled instead of padded (one more workgroup an SM on the H200)', () => {
  const r4096 = planWorkgroupFft(4096, 1, H200);
  assert.equal(r4096.exchange, 'split');
  assert.equal(r4096.swizzle, true);
  assert.equal(r4096.padShift, 0);
  assert.equal(r4096.workgroupBytes, 4096 * 4); // 3 × 16 KiB fit the 48 KiB an SM holds; padded rows (17412 B) 2
  assert.equal(planWorkgroupFft(8192, 1, H200).swizzle, true);
  // Below 4096 the padding stays (no faster swizzled), and explicit options win.
  const r2048 = planWorkgroupFft(2048, 1, H200);
  assert.equal(r2048.swizzle, undefined);
  assert.equal(r2048.padShift, 4);
  assert.equal(planWorkgroupFft(4096, 1, H200, { padding: true }).swizzle, undefined);
  assert.equal(planWorkgroupFft(4096, 1, H200, { swizzle: false }).padShift, 4);
  assert.equal(planWorkgroupFft(256, 1, H200, { swizzle: true }).swizzle, true);
  // Rows that are not a multiple of 32 values cannot be swizzled (the XOR permutes aligned blocks of 32).
  assert.equal(planWorkgroupFft(1000, 1, H200, { swizzle: true }).swizzle, undefined);
});

test('multi-pass kernels: swizzled rows rotated a column, chosen by the bank-conflict model', () => {
  // 8 columns of 256 points: unpadded rows, blocks rotated by 32/8 = 4 banks a column.
  const r = planWorkgroupFft(256, 64, H200, { minColumns: 8, pass: { total: 65536, stride: 256 } });
  assert.equal(r.problemsPerWorkgroup, 8);
  assert.deepEqual([r.swizzle, r.swizzleShift, r.swizzleRotate, r.padShift], [true, 4, 4, 0]);
  assert.equal(r.workgroupBytes, 8 * 256 * 4);
  const padded = exchangeConflicts(r, { kind: 'padded', rowStride: passRowStride(256), padShift: 4 });
  assert.equal(exchangeConflicts(r, passRowLayout(r)), 1); // one wavefront an access
  assert.equal(padded, 3); // the odd-length padded rows: their columns share banks
  // Radix-32 stages (writes j·32 + k step a block a butterfly) take the XOR from bit 5.
  const long = planWorkgroupFft(1024, 64, H200, { maxRadix: 32, minColumns: 4, pass: { total: 65536, stride: 1 } });
  assert.deepEqual([long.radices, long.swizzleShift, long.swizzleRotate, long.workgroupBytes], [[32, 32], 5, 8, 16384]);
  assert.equal(exchangeConflicts(long, passRowLayout(long)), 1);
  // passLayout 'padded' keeps the earlier rows; lengths that are not a multiple of 32 always do.
  const old = planWorkgroupFft(256, 64, H200, {
    minColumns: 8,
    passLayout: 'padded',
    pass: { total: 65536, stride: 256 },
  });
  assert.deepEqual([old.swizzle, old.padShift, old.workgroupBytes], [undefined, 4, 8 * passRowStride(256) * 4]);
  assert.equal(planWorkgroupFft(243, 243, H200, { pass: { total: 243 * 243, stride: 243 } }).swizzle, undefined);
  // Every layout is a permutation of the row: distinct addresses, all inside it.
  for (const layout of [
    passRowLayout(r),
    passRowLayout(long),
    { kind: 'swizzled', rowStride: 128, shift: 4, rotate: 1 } as const,
  ]) {
    const n = layout.rowStride;
    for (const row of [0, 1, 5, 31]) {
      const seen = new Set(Array.from({ length: n }, (_, i) => rowAddress(layout, row, i)));
      assert.equal(seen.size, n);
      for (const a of seen) assert.ok(a >= row * n && a < (row + 1) * n);
    }
  }
});

test('planner errors name the problem', () => {
  assert.throws(() => planWorkgroupFft(0, 1, H200), ArgumentError);
  assert.throws(() => planWorkgroupFft(2.5, 1, H200), ArgumentError);
  assert.throws(() => planWorkgroupFft(97, 1, H200), UnsupportedError);
  assert.throws(() => planWorkgroupFft(64, 1, H200, { maxRadix: 3 }), ArgumentError);
});

test('every recipe executes to the naive DFT in float64 (all powers of two, mixed radices)', () => {
  const sizes = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 6, 12, 15, 45, 60, 100, 105, 243, 343, 1000];
  for (const n of sizes) {
    for (const direction of ['forward', 'inverse'] as const) {
      const r = planWorkgroupFft(n, 3, H200);
      const p = fftProblem({ n, batch: 3, direction });
      const x = randomFloat64(2 * n * 3, n);
      const y = new Float64Array(2 * n * 3);
      executeFftRecipe(r, p, x, y);
      for (let b = 0; b < 3; b++) {
        const ref = dftNaive(x.subarray(2 * n * b, 2 * n * (b + 1)), direction === 'inverse');
        // dftNaive's inverse carries numpy's 1/n, as the 'backward' norm does.
        const got = y.subarray(2 * n * b, 2 * n * (b + 1));
        assert.ok(relativeL2(got, ref) < 1e-12, `n=${n} ${direction} batch ${b}`);
      }
    }
  }
});

test("'rounds' recipes: fixed-position radices, their conditions, and the float64 executor running the rounds", () => {
  // Radix-8 stages while they exchange, the last taking the rest (≤ 32 points and ≤ P).
  assert.deepEqual(roundsRadices(16384, 32), [8, 8, 8, 32]);
  assert.deepEqual(roundsRadices(8192, 32), [8, 8, 8, 16]);
  assert.deepEqual(roundsRadices(4096, 32), [8, 8, 8, 8]);
  assert.deepEqual(roundsRadices(256, 16), [8, 8, 4]);
  assert.deepEqual(roundsRadices(64, 8), [8, 8]);
  assert.equal(roundsRadices(32, 32), null); // one invocation: nothing to exchange
  assert.equal(roundsRadices(1000, 8), null);
  // A radix that does not divide P, and a writer whose stride does not divide L, are refused with the reason.
  assert.match(roundsProblem(1024, 32, [64, 16]) ?? '', /radix 64 does not divide/);
  assert.match(roundsProblem(1024, 32, [4, 16, 2, 8]) ?? '', /stage 2 \(stride 64\)/);
  assert.equal(roundsProblem(1024, 32, [8, 8, 16]), null);
  const R = { exchange: 'rounds' } as const;
  assert.throws(() => planWorkgroupFft(1024, 1, H200, { ...R, radices: [4, 16, 2, 8] }), ArgumentError);
  assert.throws(() => planWorkgroupFft(1024, 1, H200, { ...R, registers: 48 }), ArgumentError);
  assert.throws(() => planWorkgroupFft(1000, 1, H200, R), ArgumentError);
  assert.throws(() => planWorkgroupFft(32768, 1, H200, R), DeviceLimitError); // a 64 KiB block
  assert.throws(() => planWorkgroupFft(16384, 1, LLVMPIPE, { ...R, padding: true }), DeviceLimitError);
  assert.throws(() => planWorkgroupFft(1024, 1, H200, { ...R, pass: { total: 4096, stride: 4 } }), ArgumentError);
  // The executor runs each exchange in rounds as the kernel does and refuses a read outside the round's block;
  // every configuration gives the naive DFT.
  const cases: [number, WorkgroupPlanOptions][] = [
    [64, { registers: 8 }],
    [256, { registers: 16 }],
    [1024, {}],
    [4096, { radices: [4, 8, 8, 16] }],
    [4096, { registers: 64 }],
    [8192, {}],
    [16384, {}],
  ];
  for (const [n, opts] of cases) {
    const r = planWorkgroupFft(n, 3, H200, { ...R, ...opts });
    assert.equal(r.invocationsPerProblem * r.registers, n);
    assert.ok(r.stages.every((st) => st.butterfliesPerInvocation * st.radix === r.registers));
    for (const direction of ['forward', 'inverse'] as const) {
      const p = fftProblem({ n, batch: 3, direction });
      const x = randomFloat64(2 * n * 3, n + 1);
      const y = new Float64Array(2 * n * 3);
      executeFftRecipe(r, p, x, y);
      for (let b = 0; b < 3; b++) {
        const ref = dftNaive(x.subarray(2 * n * b, 2 * n * (b + 1)), direction === 'inverse');
        const got = y.subarray(2 * n * b, 2 * n * (b + 1));
        assert.ok(relativeL2(got, ref) < 1e-12, `n=${n} ${JSON.stringify(opts)} ${direction} batch ${b}`);
      }
    }
  }
  // A recipe whose writer stride does not divide L (edited past the planner) fails in the executor.
  const bad = planWorkgroupFft(1024, 1, H200, R);
  const radices = [4, 16, 2, 8];
  const strides = [1, 4, 64, 128];
  const edited = {
    ...bad,
    radices,
    stages: radices.map((radix, s) => ({ radix, stride: strides[s], butterfliesPerInvocation: 32 / radix })),
  };
  assert.throws(
    () => executeFftRecipe(edited, fftProblem({ n: 1024 }), new Float64Array(2048), new Float64Array(2048)),
    /outside round/,
  );
});

test('kernel cache keys hold exactly what changes the code', () => {
  const r = planWorkgroupFft(1024, 64, H200);
  const a = generateWorkgroupFft(r, { direction: 'forward', scale: 1, inPlace: false });
  const b = generateWorkgroupFft(r, { direction: 'forward', scale: 1, inPlace: false });
  assert.equal(a.key, b.key);
  assert.equal(a.wgsl, b.wgsl);
  const variants = [
    generateWorkgroupFft(r, { direction: 'inverse', scale: 1, inPlace: false }),
    generateWorkgroupFft(r, { direction: 'forward', scale: 0.5, inPlace: false }),
    generateWorkgroupFft(r, { direction: 'forward', scale: 1, inPlace: true }),
    generateWorkgroupFft(planWorkgroupFft(1024, 64, H200, { twiddles: 'table' }), {
      direction: 'forward',
      scale: 1,
      inPlace: false,
    }),
    generateWorkgroupFft(planWorkgroupFft(1024, 64, H200, { exchange: 'complex' }), {
      direction: 'forward',
      scale: 1,
      inPlace: false,
    }),
  ];
  for (const v of variants) {
    assert.notEqual(v.key, a.key);
    assert.notEqual(v.wgsl, a.wgsl);
  }
  assert.equal(new Set(variants.map((v) => v.key)).size, variants.length);
});

test('Bluestein recipes execute to the naive DFT in float64 (primes and large prime factors)', async () => {
  const { bluesteinLength } = await import('../../src/backends/webgpu/fft.js');
  for (const n of [67, 97, 101, 257, 1009, 2 * 131]) {
    const L = bluesteinLength(n);
    assert.ok(L >= 2 * n - 1 && L < 4 * n, `L=${L} for n=${n}`);
    for (const direction of ['forward', 'inverse'] as const) {
      const recipe = { algorithm: 'bluestein' as const, n, L, inner: planWorkgroupFft(L, 1, H200), bytesPerProblem: 0 };
      const x = randomFloat64(2 * n * 2, n);
      const y = new Float64Array(2 * n * 2);
      executeFftRecipe(recipe, fftProblem({ n, batch: 2, direction }), x, y);
      for (let b = 0; b < 2; b++) {
        const ref = dftNaive(x.subarray(2 * n * b, 2 * n * (b + 1)), direction === 'inverse');
        assert.ok(relativeL2(y.subarray(2 * n * b, 2 * n * (b + 1)), ref) < 1e-11, `n=${n} ${direction}`);
      }
    }
  }
});

test('pairedLastRadices: product n, radices ≤ maxRadix, an even number of last-stage butterflies per invocation', () => {
  for (const maxRadix of [4, 8, 16]) {
    for (let bits = Math.log2(maxRadix) + 1; bits <= 14; bits++) {
      const n = 2 ** bits;
      const r = pairedLastRadices(n, maxRadix);
      assert.equal(
        r.reduce((a, b) => a * b, 1),
        n,
        `${n}: ${r}`,
      );
      assert.ok(
        r.every((x) => x >= 2 && x <= maxRadix),
        `${n}: ${r}`,
      );
      const L = n / Math.max(...r);
      const lastB = n / r[r.length - 1] / L;
      assert.ok(
        Number.isInteger(lastB) && lastB % 2 === 0,
        `${n} (max radix ${maxRadix}): ${r}, last stage ${lastB} butterflies an invocation`,
      );
    }
  }
  const limits = {
    maxComputeWorkgroupStorageSize: 49152,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupSizeX: 1024,
  };
  assert.deepEqual(planWorkgroupFft(512, 64, limits, { maxRadix: 16 }).radices, [8, 8, 8]);
  const paired = planWorkgroupFft(512, 64, limits, { maxRadix: 16, evenLastButterflies: true });
  assert.deepEqual(paired.radices, [16, 16, 2]);
  assert.equal(paired.stages[2].butterfliesPerInvocation, 8);
  // A plan whose last stage already pairs is left as it is.
  assert.deepEqual(
    planWorkgroupFft(1024, 64, limits, { maxRadix: 16, evenLastButterflies: true }).radices,
    planWorkgroupFft(1024, 64, limits, { maxRadix: 16 }).radices,
  );
});

test('multi-pass defaults: split pass exchanges, a long first pass for 2^17 … 2^20, 16-column last pass from 2^21', async () => {
  const { planMultiPass } = await import('../../src/planner/fft-multipass.js');
  const p17 = planMultiPass(1 << 17, 4, H200);
  assert.deepEqual(p17.lengths, [512, 256]);
  assert.deepEqual(p17.passes[0].radices, [32, 16]); // the long first pass in two radix-32 stages
  assert.ok(
    p17.passes.every((p) => p.exchange === 'split'),
    p17.passes.map((p) => p.exchange).join(),
  );
  const p18 = planMultiPass(1 << 18, 4, H200);
  assert.deepEqual(p18.lengths, [1024, 256]);
  assert.deepEqual(p18.passes[0].radices, [32, 32]);
  assert.deepEqual(planMultiPass(1 << 19, 4, H200).lengths, [1024, 512]);
  assert.deepEqual(planMultiPass(1 << 20, 4, H200).lengths, [1024, 1024]); // two passes with swizzled rows
  assert.equal(planMultiPass(1 << 20, 4, H200, { longFirstRest: 512 }).lengths.length, 3);
  assert.equal(planMultiPass(1 << 21, 4, H200).lengths.length, 3);
  // Four passes become three: 2^25 = 512·256·256, 2^26 = 1024·256·256, 2^27 = 1024·512·256.
  assert.deepEqual(planMultiPass(1 << 25, 4, H200).lengths, [512, 256, 256]);
  assert.deepEqual(planMultiPass(1 << 26, 4, H200).lengths, [1024, 256, 256]);
  assert.deepEqual(planMultiPass(1 << 27, 1, H200).lengths, [1024, 512, 256]);
  assert.deepEqual(planMultiPass(1 << 27, 1, H200, { longFirstRest: 256 }).lengths.length, 4);
  assert.equal(planMultiPass(1 << 24, 4, H200).lengths.length, 3);
  const last = (n: number) => planMultiPass(n, 4, H200).passes.at(-1)!.problemsPerWorkgroup;
  assert.equal(last(1 << 19), 8);
  assert.equal(last(1 << 20), 4); // a 1024-point later pass: 16 KiB in 4 columns (8 would hold 32 KiB)
  assert.equal(last(1 << 21), 16);
  assert.equal(last(1 << 24), 16);
  // An explicit choice wins; vec2 rows where asked for.
  assert.equal(planMultiPass(1 << 21, 4, H200, { lastPassColumns: 8 }).passes.at(-1)!.problemsPerWorkgroup, 8);
  assert.ok(planMultiPass(1 << 16, 4, H200, { passExchange: 'complex' }).passes.every((p) => p.exchange === 'complex'));
});

test('multi-pass first pass: 4 columns unless its elements lie 8192 or more apart; N-D column passes', async () => {
  const { planMultiPass } = await import('../../src/planner/fft-multipass.js');
  const first = (n: number) => planMultiPass(n, 4, H200).passes[0].problemsPerWorkgroup;
  assert.equal(first(1 << 15), 4); // 256-point first pass, elements 128 apart
  assert.equal(first(1 << 16), 4); // long 1024-point first pass (the short last pass)
  assert.equal(first(1 << 19), 4);
  assert.equal(first(1 << 20), 4); // long (1024-point) first pass
  assert.equal(first(1 << 21), 8); // 128-point first pass, elements 16384 apart
  assert.equal(first(1 << 22), 8); // 256-point first pass, elements 16384 apart
  assert.equal(first(1 << 25), 8); // long 512-point first pass, elements 65536 apart: 8 columns hold 16 KiB
  assert.equal(first(1 << 17), 4); // 512-point first pass, elements 256 apart
  assert.equal(first(1 << 26), 4); // long 1024-point first pass: 8 columns would hold 32 KiB
  // Batch-fastest passes (non-last axes of N-D arrays) take 16 columns.
  assert.ok(planMultiPass(4096, 4096, H200, {}, true).passes.every((p) => p.problemsPerWorkgroup >= 16));
});

test('multi-pass short last pass: 64 points (else 128) where a first pass of ≤ 1024 takes the rest', async () => {
  const { planMultiPass } = await import('../../src/planner/fft-multipass.js');
  const { planWebGpuFft } = await import('../../src/planner/fft-webgpu.js');
  const { fftProblem } = await import('../../src/planner/fft-problem.js');
  const lengths = (n: number, o = {}) => planMultiPass(n, 4, H200, o).lengths;
  // C2C: where the balanced split is two equal passes.
  assert.deepEqual(lengths(1 << 14), [256, 64]);
  assert.deepEqual(lengths(1 << 15), [256, 128]);
  assert.deepEqual(lengths(1 << 16), [1024, 64]);
  assert.deepEqual(planMultiPass(1 << 16, 4, H200).passes[0].radices, [32, 32]); // planned as the long first pass
  assert.deepEqual(lengths(1 << 17), [512, 256]);
  assert.deepEqual(lengths(1 << 20), [1024, 1024]); // no first pass of ≤ 1024 leaves 128
  assert.deepEqual(lengths(1 << 16, { shortLastPass: false }), [256, 256]);
  assert.deepEqual(lengths(1 << 15, { shortLastPass: true }), [512, 64]);
  assert.deepEqual(lengths(1 << 17, { shortLastPass: true }), [1024, 128]);
  assert.deepEqual(lengths(1 << 18, { shortLastPass: true }), [1024, 256]);
  assert.deepEqual(lengths(3 ** 10, { shortLastPass: true }), [243, 243]); // powers of two only
  // The device's longest pass bounds the first (WebGPU's default 16 KiB: 512 points in 4 columns of split rows).
  assert.ok(lengths(1 << 16, { shortLastPass: true, minColumns: 4 }).length === 2);
  const small = planMultiPass(1 << 16, 4, WEBGPU_DEFAULT, { shortLastPass: true }).lengths;
  assert.ok(small[0] <= 512 && small.reduce((a, b) => a * b, 1) === 1 << 16, `${small}`);
  // The fused R2C (and the DHT / DCT-II built on it) asks for it wherever it applies.
  const half = (N: number) => {
    const { recipe } = planWebGpuFft(fftProblem({ n: N, batch: 4, direction: 'forward' }), H200, { real: 'r2c' });
    return recipe.algorithm === 'stockham-multipass' ? recipe.lengths : [];
  };
  // (A half-length of 16384 is one workgroup, with the rounds exchange.)
  assert.deepEqual(half(2 ** 15), []);
  assert.deepEqual(
    [16, 17, 18, 19].map((l) => half(2 ** l)),
    [
      [512, 64],
      [1024, 64],
      [1024, 128],
      [1024, 256],
    ],
  );
  // Three passes end in 64 points where the rest's later pass is ≤ 256 (2^22 … 2^25), not beyond.
  assert.deepEqual(
    [20, 21, 22, 23, 24, 25, 26, 27].map((l) => half(2 ** l)),
    [
      [128, 64, 64],
      [128, 128, 64],
      [256, 128, 64],
      [256, 256, 64],
      [512, 256, 64],
      [1024, 256, 64],
      [512, 256, 256],
      [1024, 256, 256],
    ],
  );
  assert.deepEqual(lengths(1 << 21), [128, 128, 128]); // C2C keeps its balanced three passes
  // Explicit pass lengths win; their product must be n.
  assert.deepEqual(lengths(1 << 16, { passLengths: [128, 512] }), [128, 512]);
  assert.throws(() => planMultiPass(1 << 16, 4, H200, { passLengths: [128, 256] }), ArgumentError);
  assert.throws(() => planMultiPass(1 << 16, 4, H200, { passLengths: [65536.5, 1] }), ArgumentError);
});

test('fused R2C last pass: 32 column slots where they fit, else 16; 64 when asked for', async () => {
  const { planWebGpuFft } = await import('../../src/planner/fft-webgpu.js');
  const { fftProblem } = await import('../../src/planner/fft-problem.js');
  const last = (N: number, limits = H200, o = {}) => {
    const { recipe } = planWebGpuFft(fftProblem({ n: N, batch: 4, direction: 'forward' }), limits, {
      real: 'r2c',
      tuning: o,
    });
    if (recipe.algorithm !== 'stockham-multipass') throw new Error('multi-pass expected');
    const p = recipe.passes[recipe.passes.length - 1];
    return [p.n, p.problemsPerWorkgroup];
  };
  // Half-lengths 2^15 … 2^18 end in 64, 64, 128 and 256 points; 2^19 … 2^24 in 64, 2^25 in 256 (2^14 is one
  // workgroup, with the rounds exchange).
  assert.throws(() => last(2 ** 15), /multi-pass expected/);
  assert.deepEqual(
    [16, 17, 18, 19, 20, 25, 26].map((l) => last(2 ** l)),
    [
      [64, 32],
      [64, 32],
      [128, 32],
      [256, 32],
      [64, 32],
      [64, 32],
      [256, 32],
    ],
  );
  // 64 slots (512 invocations) when asked for: the H200 holds them, WebGPU's default 256 invocations do not.
  assert.deepEqual(last(1 << 16, H200, { lastPassColumns: 64 }), [64, 64]);
  assert.deepEqual(last(1 << 16, LLVMPIPE, { lastPassColumns: 64 }), [64, 64]);
  assert.throws(() => last(1 << 16, WEBGPU_DEFAULT, { lastPassColumns: 64 }), DeviceLimitError);
  assert.deepEqual(last(1 << 16, WEBGPU_DEFAULT), [64, 32]);
  assert.deepEqual(last(1 << 16, H200, { lastPassColumns: 16 }), [64, 16]);
});

test('multi-pass long first pass: the rest it may leave (longFirstRest, the fused R2C: 256)', async () => {
  const { planMultiPass } = await import('../../src/planner/fft-multipass.js');
  assert.deepEqual(planMultiPass(1 << 18, 4, H200, { longFirstRest: 256 }).lengths, [1024, 256]);
  assert.equal(planMultiPass(1 << 19, 4, H200, { longFirstRest: 256 }).lengths.length, 3);
  assert.equal(planMultiPass(1 << 17, 4, H200, { longFirstRest: 0 }).lengths.length, 3);
});

test('multi-pass long first pass for other lengths: up to longFirstMax (default 1024) points where two passes then suffice', async () => {
  const { planMultiPass } = await import('../../src/planner/fft-multipass.js');
  assert.deepEqual(planMultiPass(5 ** 7, 4, H200).lengths, [625, 125]);
  assert.deepEqual(planMultiPass(3 ** 11, 4, H200).lengths, [729, 243]);
  assert.deepEqual(planMultiPass(3 ** 10, 4, H200).lengths, [243, 243]); // two short passes already
  assert.equal(planMultiPass(5 ** 7, 4, H200, { longFirstMax: 512 }).lengths.length, 3);
  assert.equal(planMultiPass(10 ** 6, 4, H200).lengths.length, 3); // 1000·1000 leaves no later pass of ≤ 480
  // Later passes of up to 480 points (7^6 = 343·343, 480·480); 500·500 stays in three passes.
  assert.deepEqual(planMultiPass(7 ** 6, 4, H200).lengths, [343, 343]);
  assert.deepEqual(planMultiPass(480 * 480, 4, H200).lengths, [480, 480]);
  assert.equal(planMultiPass(500 * 500, 4, H200).lengths.length, 3);
  assert.equal(planMultiPass(7 ** 6, 4, H200, { longFirstRest: 256 }).lengths.length, 3);
});

test('mergedRadices: twos and odd factors packed into fewest radices ≤ 16; the planner takes them where the workgroup fills its warps', async () => {
  const { mergedRadices } = await import('../../src/planner/fft-workgroup.js');
  assert.deepEqual(mergedRadices(100), [10, 10]);
  assert.deepEqual(mergedRadices(500), [10, 10, 5]);
  assert.deepEqual(mergedRadices(1000), [10, 10, 10]);
  assert.equal(mergedRadices(2 * 17), null);
  for (const n of [12, 96, 100, 160, 192, 360, 500, 800, 1000, 1500, 6000]) {
    const r = mergedRadices(n)!;
    assert.equal(
      r.reduce((a, b) => a * b, 1),
      n,
      `n=${n}`,
    );
    assert.ok(
      r.every((x) => x >= 2 && x <= 16),
      `n=${n}: ${r}`,
    );
  }
  assert.deepEqual(planWorkgroupFft(100, 1000, H200).radices, [10, 10]);
  assert.deepEqual(planWorkgroupFft(1500, 1000, H200).radices, [15, 10, 10]);
  // 10·10·10 would run 100 invocations a problem (100 of 128 lanes) against 125: the planner's radices stay.
  assert.deepEqual(planWorkgroupFft(1000, 1000, H200).radices, [8, 5, 5, 5]);
  assert.deepEqual(planWorkgroupFft(100, 1000, H200, { mergedRadixUpTo: 0 }).radices, [4, 5, 5]);
  // Every merged recipe executes to the naive DFT in float64.
  for (const n of [12, 100, 160, 500, 1500]) {
    const recipe = planWorkgroupFft(n, 2, H200, { radices: mergedRadices(n)! });
    const x = randomFloat64(2 * n * 2, n);
    const y = new Float64Array(2 * n * 2);
    executeFftRecipe(recipe, fftProblem({ n, batch: 2 }), x, y);
    for (let b = 0; b < 2; b++) {
      const ref = dftNaive(x.subarray(2 * n * b, 2 * n * (b + 1)), false);
      assert.ok(relativeL2(y.subarray(2 * n * b, 2 * n * (b + 1)), ref) < 1e-12, `n=${n}`);
    }
  }
});
