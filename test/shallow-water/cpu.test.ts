/** The float64 reference: conservation, symmetry, well-balancing, positivity, edge identities. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SweCpuSolver, sweEdge, sweEdgeLambda } from '../../src/backends/cpu/shallow-water.js';
import { damBreak, lakeAtRest, beach, estuary } from '../../src/apps/shallow-water/scenarios.js';
import { masses } from '../../src/apps/shallow-water/problem.js';
import { allFinite, maxAbs, minOf } from './helpers.js';

const P = { g: 9.81, alpha: 1 / 8, epsilon: 1e-6, hEps: 1e-4 };

test('dam break (64², t = 1): water and pollutant conserved to round-off with walls, 4-fold symmetric', () => {
  const p = damBreak(64, { pollutant: 1 });
  const s = new SweCpuSolver(p);
  const m0 = masses(p, s);
  s.advance(1);
  assert.equal(s.time, 1);
  const m1 = masses(p, s);
  assert.ok(Math.abs(m1.water - m0.water) / m0.water < 1e-13, `water drift ${(m1.water - m0.water) / m0.water}`);
  assert.ok(
    Math.abs(m1.pollutant - m0.pollutant) / m0.pollutant < 1e-13,
    `pollutant drift ${(m1.pollutant - m0.pollutant) / m0.pollutant}`,
  );
  const n = 64;
  let asym = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      asym = Math.max(
        asym,
        Math.abs(s.h[y * n + x] - s.h[x * n + y]),
        Math.abs(s.h[y * n + x] - s.h[y * n + n - 1 - x]),
      );
      asym = Math.max(
        asym,
        Math.abs(s.qx[y * n + x] + s.qx[y * n + n - 1 - x]),
        Math.abs(s.qx[y * n + x] - s.qy[x * n + y]),
      );
    }
  }
  assert.ok(asym < 1e-12, `asymmetry ${asym}`);
  assert.ok(minOf(s.h) > 1, 'no dry cells in the dam break');
  assert.ok(maxAbs(s.qx) > 0.1, 'the wave moved');
});

test('lake at rest over uneven bathymetry with dry islands: exactly at rest (surface 0), round-off (surface 0.25)', () => {
  for (const surface of [0, 0.25]) {
    const p = lakeAtRest(48, { surface });
    assert.ok(minOf(p.h) === 0, 'islands are dry');
    const s = new SweCpuSolver(p);
    s.advance(0.3);
    assert.ok(s.steps > 50);
    const q = Math.max(maxAbs(s.qx), maxAbs(s.qy));
    let dh = 0;
    for (let i = 0; i < s.h.length; i++) dh = Math.max(dh, Math.abs(s.h[i] - p.h[i]));
    if (surface === 0) {
      assert.equal(q, 0);
      assert.equal(dh, 0);
    } else {
      assert.ok(q < 1e-13 && dh < 1e-13, `q ${q}, dh ${dh}`);
    }
  }
});

test('beach run-up (wet–dry fronts): depths stay ≥ 0 without clipping, water and pollutant conserved', () => {
  const p = beach(48);
  const s = new SweCpuSolver(p);
  const m0 = masses(p, s);
  s.advance(0.6);
  assert.ok(allFinite(s.state()));
  assert.ok(minOf(s.h) >= 0);
  assert.equal(s.clippedWater, 0);
  const m1 = masses(p, s);
  assert.ok(Math.abs(m1.water - m0.water) / m0.water < 1e-13, `water drift ${(m1.water - m0.water) / m0.water}`);
  assert.ok(
    Math.abs(m1.pollutant - m0.pollutant) / m0.pollutant < 1e-10,
    `pollutant drift ${(m1.pollutant - m0.pollutant) / m0.pollutant}`,
  );
  let wetNow = 0,
    wet0 = 0;
  for (let i = 0; i < s.h.length; i++) {
    if (s.h[i] > 1e-4) wetNow++;
    if (p.h[i] > 1e-4) wet0++;
  }
  assert.notEqual(wetNow, wet0, 'the wet area changed (fronts moved)');
});

test('estuary (tides, open boundaries, friction): runs, stays finite and non-negative, water enters with the flood', () => {
  const p = estuary(40);
  const s = new SweCpuSolver(p);
  const m0 = masses(p, s);
  s.advance(3 * 3600);
  assert.ok(allFinite(s.state()));
  assert.ok(minOf(s.h) >= 0);
  const m1 = masses(p, s);
  assert.ok(m1.water > m0.water, 'rising tide fills the estuary');
  assert.ok(m1.pollutant > 0);
});

test('edge: lake at rest gives zero fluctuations; mirror symmetry; emerging bottom acts as a wall', () => {
  const e = new Float64Array(8);
  sweEdge(e, 2, 0, 0, 0, 1.5, 1.25, 0, 0, 0, 0.75, P);
  assert.deepEqual([e[0], e[1], e[2], e[3], e[4], e[5]], [0, 0, 0, 0, 0, 0]);
  // Mirror: swapping the sides and negating normal discharges negates the mass flux and swaps D⁻/D⁺ (negated).
  const a = [1.3, 0.4, -0.2, 0.5, 1.0] as const,
    b = [0.7, -0.1, 0.3, 0.2, 0.6] as const;
  sweEdge(e, ...a, ...b, P);
  const r = new Float64Array(8);
  sweEdge(r, b[0], -b[1], b[2], b[3], b[4], a[0], -a[1], a[2], a[3], a[4], P);
  assert.ok(Math.abs(e[0] + r[0]) < 1e-14, 'mass flux');
  assert.ok(Math.abs(e[3] + r[3]) < 1e-14, 'pollutant flux');
  assert.ok(Math.abs(e[1] + r[4]) < 1e-14 && Math.abs(e[4] + r[1]) < 1e-14, 'normal momentum');
  assert.ok(Math.abs(e[2] - r[5]) < 1e-14 && Math.abs(e[5] - r[2]) < 1e-14, 'tangential momentum');
  const l = new Float64Array(8);
  sweEdgeLambda(l, ...([a[0], a[1], a[4], b[0], b[1], b[4]] as const), P);
  assert.equal(l[6], e[6]);
  // Wet cell (surface 0) next to a dry cell whose bottom is 0.5 above: no mass crosses.
  sweEdge(e, 1, 0.3, 0, 0.2, 1, 0, 0, 0, 0, -0.5, P);
  assert.equal(e[0], 0);
  assert.equal(e[3], 0);
  assert.ok(e[1] > 0, 'the wall pushes back');
});
