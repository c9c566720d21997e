import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fftfreq, fftshift, ifftshift, rfftfreq } from '../../src/util/freq.js';
import { ArgumentError } from '../../src/errors.js';

const close = (a: ArrayLike<number>, b: number[]) => {
  assert.equal(a.length, b.length);
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) < 1e-15, `[${i}] ${a[i]} vs ${b[i]}`);
};

test('fftfreq / rfftfreq match numpy examples', () => {
  // numpy: np.fft.fftfreq(8, d=0.1) → [0, 1.25, 2.5, 3.75, -5, -3.75, -2.5, -1.25]
  close(fftfreq(8, 0.1), [0, 1.25, 2.5, 3.75, -5, -3.75, -2.5, -1.25]);
  // np.fft.fftfreq(5) → [0, 0.2, 0.4, -0.4, -0.2]
  close(fftfreq(5), [0, 0.2, 0.4, -0.4, -0.2]);
  close(fftfreq(1), [0]);
  close(fftfreq(2), [0, -0.5]);
  // np.fft.rfftfreq(8, d=0.1) → [0, 1.25, 2.5, 3.75, 5]
  close(rfftfreq(8, 0.1), [0, 1.25, 2.5, 3.75, 5]);
  // np.fft.rfftfreq(5) → [0, 0.2, 0.4]
  close(rfftfreq(5), [0, 0.2, 0.4]);
  assert.throws(() => fftfreq(0), ArgumentError);
  assert.throws(() => fftfreq(3.5), ArgumentError);
  assert.throws(() => rfftfreq(4, 0), ArgumentError);
});

test('fftshift / ifftshift match numpy examples', () => {
  // np.fft.fftshift(np.fft.fftfreq(10, 0.1)) → [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4]
  close(fftshift(fftfreq(10, 0.1)), [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4]);
  // odd length: fftshift([0,1,2,3,4]) → [3,4,0,1,2]; ifftshift → [2,3,4,0,1]
  assert.deepEqual(fftshift([0, 1, 2, 3, 4]), [3, 4, 0, 1, 2]);
  assert.deepEqual(ifftshift([0, 1, 2, 3, 4]), [2, 3, 4, 0, 1]);
  assert.deepEqual(ifftshift(fftshift([0, 1, 2, 3, 4])), [0, 1, 2, 3, 4]);
  // numpy docs: freqs = np.fft.fftfreq(9, d=1./9).reshape(3, 3) = [[0,1,2],[3,4,-4],[-3,-2,-1]]
  const f = Float64Array.from([0, 1, 2, 3, 4, -4, -3, -2, -1]);
  // np.fft.fftshift(freqs, axes=(1,)) → [[2,0,1],[-4,3,4],[-1,-3,-2]]
  close(fftshift(f, { shape: [3, 3], axes: [1] }), [2, 0, 1, -4, 3, 4, -1, -3, -2]);
  // np.fft.fftshift(freqs) (all axes) → [[-1,-3,-2],[2,0,1],[-4,3,4]]
  close(fftshift(f, { shape: [3, 3] }), [-1, -3, -2, 2, 0, 1, -4, 3, 4]);
  close(ifftshift(fftshift(f, { shape: [3, 3] }), { shape: [3, 3] }), Array.from(f));
  // 2×4, axes [-1] on interleaved complex data: pairs move together
  const c = Float64Array.from([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]); // 4 complex values
  close(fftshift(c, { elementSize: 2 }), [2, 2.5, 3, 3.5, 0, 0.5, 1, 1.5]);
  const out32 = fftshift(Float32Array.from([1, 2, 3]));
  assert.ok(out32 instanceof Float32Array);
  assert.throws(() => fftshift([1, 2, 3], { shape: [2, 2] }), ArgumentError);
  assert.throws(() => fftshift([1, 2, 3, 4], { shape: [2, 2], axes: [2] }), ArgumentError);
  assert.throws(() => fftshift([1, 2, 3], { elementSize: 2 }), ArgumentError);
});
