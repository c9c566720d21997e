/** Sparse FFT planner: parameter rules, permutations and the flat window (no GPU). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketOffset, homeBucket, inverseMod2k, mulMod, planSfft } from '../../src/planner/sfft.js';
import { buildSfftFilter } from '../../src/backends/cpu/sfft-filter.js';
import { ArgumentError } from '../../src/errors.js';

test('parameter rules: B from √(n k / log2 n), loop counts, kept buckets', () => {
  const r = planSfft({ n: 2 ** 22, k: 1000 });
  const base = Math.sqrt((2 ** 22 * 1000) / 22);
  assert.equal(r.robust!.bLoc, 2 ** Math.floor(Math.log2(2 * base)));
  assert.equal(r.robust!.bEst, 2 ** Math.floor(Math.log2(base)));
  assert.equal(r.robust!.kept, 2000);
  assert.equal(r.robust!.locLoops, 5);
  assert.equal(r.robust!.votes, 4);
  assert.equal(r.robust!.estLoops, 12);
  assert.equal(r.robust!.loops.length, 17);
  assert.equal(r.exact!.B, 4096);
  assert.equal(r.exact!.rounds, 4);
  assert.equal(r.exact!.stages, 1);
  assert.equal(planSfft({ n: 2 ** 22, k: 1000, bExactConst: 8 }).exact!.B, 8192);
  assert.equal(r.feasible, true);
  // Small n: B raised so that the 2k kept buckets are at most half.
  const s = planSfft({ n: 2 ** 14, k: 100 });
  assert.ok(s.robust!.bEst >= 400 && s.robust!.bLoc >= 400);
  // Overrides win; real input doubles k.
  const o = planSfft({ n: 2 ** 16, k: 10, bLoc: 256, locLoops: 3, votes: 2, estLoops: 5, rounds: 3, real: true });
  assert.equal(o.robust!.bLoc, 256);
  assert.equal(o.robust!.loops.length, 8);
  assert.equal(o.exact!.loops.length, 3);
  assert.equal(o.k, 20);
  // Plain data: JSON round trip.
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
});

test('k too large for n is reported, not planned blindly', () => {
  const r = planSfft({ n: 2 ** 14, k: 1000 });
  assert.equal(r.feasible, false);
  assert.match(r.reason, /n\/B ≥ 8/);
  assert.equal(planSfft({ n: 2 ** 14, k: 2 ** 14 / 32 }).feasible, true);
});

test('bad arguments throw ArgumentError', () => {
  assert.throws(() => planSfft({ n: 1000, k: 1 }), ArgumentError);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 0 }), ArgumentError);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, bLoc: 100 }), ArgumentError);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, locLoops: 3, votes: 4 }), ArgumentError);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, mode: 'fast' as never }), ArgumentError);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, rounds: 33 }), /rounds/);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, stages: 9 }), /stages/);
  assert.throws(() => planSfft({ n: 2 ** 16, k: 4, bExactConst: 0 }), /bExactConst/);
});

test('permutations: σ odd, σ·σ⁻¹ ≡ 1 (mod n), exact modular products', () => {
  const n = 2 ** 27;
  const r = planSfft({ n, k: 1000, seed: 9 });
  for (const l of [...r.robust!.loops, ...r.exact!.loops]) {
    assert.equal(l.sigma % 2, 1);
    assert.equal(mulMod(l.sigma, l.sigmaInv, n - 1), 1);
    assert.ok(l.tau >= 0 && l.tau < n);
  }
  assert.equal(Math.imul(inverseMod2k(12345), 12345) >>> 0, 1);
  assert.equal(
    mulMod(2 ** 26 + 3, 2 ** 26 + 5, n - 1),
    Number((BigInt(2 ** 26 + 3) * BigInt(2 ** 26 + 5)) % BigInt(n)),
  );
});

test('home bucket and offset: g = h·n/B − d with |d| ≤ n/2B', () => {
  const n = 4096;
  const B = 64;
  for (let g = 0; g < n; g += 7) {
    const h = homeBucket(g, n, B);
    const d = bucketOffset(h, g, n, B);
    assert.ok(Math.abs(d) <= n / B / 2);
    assert.equal((((h * (n / B) - d) % n) + n) % n, g);
  }
});

test('flat window: closed-form response equals the direct DFT of the time taps', () => {
  const n = 4096;
  for (const [B, tol, box] of [
    [64, 1e-8, 65],
    [32, 1e-6, 171],
  ] as const) {
    const f = buildSfftFilter({ n, B, tolerance: tol, boxcar: box });
    assert.equal(f.W % (2 * B), 0);
    assert.equal(f.freq[f.D], 1);
    let maxErr = 0;
    for (let d = -f.D - 40; d <= f.D + 40; d++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < f.W; i++) {
        const a = (-2 * Math.PI * d * (i - f.W / 2)) / n;
        re += f.time[i] * Math.cos(a);
        im += f.time[i] * Math.sin(a);
      }
      const want = Math.abs(d) <= f.D ? f.freq[d + f.D] : 0;
      maxErr = Math.max(maxErr, Math.hypot(re / n - want, im / n));
    }
    assert.ok(maxErr < 20 * tol, `response error ${maxErr}`);
    // Flat enough over the home bucket to divide by.
    for (let d = -n / B / 2; d <= n / B / 2; d++) assert.ok(f.freq[d + f.D] > 0.4);
  }
});
