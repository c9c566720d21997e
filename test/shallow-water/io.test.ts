/** Inputs (validation, .npy, raw) and outputs (PNG, colour maps). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { defineSweProblem } from '../../src/apps/shallow-water/problem.js';
import { damBreak } from '../../src/apps/shallow-water/scenarios.js';
import { renderField, SWE_FIELDS } from '../../src/apps/shallow-water/render.js';
import { encodeNpy, parseNpy, parseRaw } from '../../src/util/npy.js';
import { encodePng } from '../../src/util/png.js';
import { ArgumentError, UnsupportedError } from '../../src/errors.js';
import { SweCpuSolver } from '../../src/backends/cpu/shallow-water.js';

const base = { nx: 3, ny: 2, dx: 1, bathymetry: [1, 1, 1, 2, 2, 2], h: [1, 1, 1, 1, 1, 1] };

test('problem validation: shape, NaN, negative depth, boundaries, tide, parameters', () => {
  const err = (input: object, re: RegExp) =>
    assert.throws(
      () => defineSweProblem({ ...base, ...input } as never),
      (e: unknown) => e instanceof ArgumentError && re.test(e.message),
    );
  err({ bathymetry: [1, 2, 3] }, /bathymetry: expected 6 values \(ny × nx = 2 × 3/);
  err(
    {
      bathymetry: [
        [1, 1, 1],
        [2, 2],
      ],
    },
    /bathymetry\[1\]: expected a row of 3 values/,
  );
  err({ h: [1, 1, NaN, 1, 1, 1] }, /h\[0\]\[2\]: expected a finite number .*got NaN/);
  err({ h: [1, 1, 1, 1, -0.5, 1] }, /h\[1\]\[1\]: expected a value ≥ 0 .*negative depth/);
  err({ bathymetry: [1, 1, 1, 2, Infinity, 2] }, /bathymetry\[1\]\[1\]/);
  err({ concentration: [0, 0, 0, 0, 0, -1] }, /concentration\[1\]\[2\]/);
  err({ boundaries: { xmin: 'sponge' } }, /boundaries.xmin: expected one of wall, open, tide/);
  err({ boundaries: 'tide' }, /tide: expected a tide specification/);
  err({ params: { cfl: 1.5 } }, /params.cfl/);
  err({ nx: 1 }, /nx: expected an integer ≥ 2/);
  err({ dx: 0 }, /dx: expected a finite number > 0/);
  err({ h: undefined }, /h: expected initial depths/);
  // Rows are accepted; a surface gives h = max(0, ζ + H); dry cells carry no discharge.
  const p = defineSweProblem({
    nx: 3,
    ny: 2,
    dx: 1,
    bathymetry: [
      [1, -1, 1],
      [2, 2, 2],
    ],
    surface: 0,
    qx: [1, 1, 1, 1, 1, 1],
  });
  assert.deepEqual([...p.h], [1, 0, 1, 2, 2, 2]);
  assert.deepEqual([...p.qx], [1, 0, 1, 1, 1, 1]);
});

test('.npy round trip (float32, float64) and clear errors', () => {
  const a64 = Float64Array.from({ length: 12 }, (_, i) => i * 0.5 - 1);
  const r64 = parseNpy(encodeNpy([3, 4], a64));
  assert.deepEqual(r64.shape, [3, 4]);
  assert.equal(r64.dtype, 'float64');
  assert.deepEqual([...r64.data], [...a64]);
  const a32 = Float32Array.from([0.1, 0.2, 0.3]);
  const r32 = parseNpy(encodeNpy([3], a32));
  assert.deepEqual([...r32.data], [...a32]);
  assert.equal(encodeNpy([3, 4], a64).length % 64, (12 * 8) % 64, 'data aligned to 64 bytes');
  assert.throws(() => parseNpy(new Uint8Array(20)), ArgumentError);
  const bad = encodeNpy([3, 4], a64);
  const text = new TextDecoder('latin1').decode(bad);
  const swap = (from: string, to: string) => Uint8Array.from(text.replace(from, to), (c) => c.charCodeAt(0));
  assert.throws(() => parseNpy(swap("'<f8'", "'<i8'")), UnsupportedError);
  assert.throws(() => parseNpy(swap('False', 'True ')), /Fortran/);
  assert.throws(() => parseNpy(bad.subarray(0, bad.length - 8)), /data bytes/);
});

test('raw format: size checked against the shape and dtype', () => {
  const f = new Float32Array([1, 2, 3, 4, 5, 6]);
  assert.deepEqual([...parseRaw(new Uint8Array(f.buffer), 3, 2, 'float32')], [1, 2, 3, 4, 5, 6]);
  assert.throws(() => parseRaw(new Uint8Array(f.buffer), 3, 2, 'float64'), /48 bytes \(2 × 3 float64/);
});

test('PNG: valid signature, IHDR and image data that inflates to the pixels', () => {
  const px = Uint8Array.from({ length: 4 * 3 * 3 }, (_, i) => (i * 7) & 255);
  const png = encodePng(4, 3, px);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const v = new DataView(png.buffer, png.byteOffset);
  assert.equal(new TextDecoder().decode(png.subarray(12, 16)), 'IHDR');
  assert.equal(v.getUint32(16), 4);
  assert.equal(v.getUint32(20), 3);
  const idatLen = v.getUint32(33);
  assert.equal(new TextDecoder().decode(png.subarray(37, 41)), 'IDAT');
  const raw = inflateSync(png.subarray(41, 41 + idatLen));
  assert.equal(raw.length, 3 * (1 + 12));
  assert.deepEqual([...raw.subarray(1, 13)], [...px.subarray(0, 12)]);
  assert.throws(() => encodePng(4, 3, px.subarray(1)), ArgumentError);
});

test('renderField: every field gives nx·ny RGB pixels, north up', () => {
  const p = damBreak(16, { pollutant: 1 });
  const s = new SweCpuSolver(p);
  s.advance(0.2);
  for (const f of SWE_FIELDS) {
    const img = renderField(p, s.state(), f);
    assert.equal(img.rgb.length, 16 * 16 * 3);
    assert.ok(img.max > img.min, f);
  }
});
