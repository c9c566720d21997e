/**
 * The two-term gather (core/gather-map.ts) as the engine runs it in WebAssembly (codegen/wasm/gather.ts) against
 * the JavaScript loop, on random maps: one and two terms, output counts that do and do not fill the lanes, several
 * rows with padded strides, both precisions; and the odd DCT-IV maps against the direct definition.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyGather, emptyGather } from '../../src/core/gather-map.js';
import { gatherTable, gatherTerms, generateGatherModule, permutationTable } from '../../src/codegen/wasm/gather.js';
import { dct4OddGathers } from '../../src/core/dct4-odd-same-length.js';
import { dctDirect, dstDirect } from '../../src/backends/cpu/r2r-direct.js';
import { rng, relErr } from '../helpers/numeric.js';

type Fn = (src: number, dst: number, table: number, m: number, count: number, ss: number, ds: number) => void;

test('wasm gather against the same arithmetic in JavaScript: one and two terms, m = 1 … 23, rows with padded strides, f32 and f64', () => {
  const r = rng(41);
  const memory = new WebAssembly.Memory({ initial: 4 });
  const exports = new WebAssembly.Instance(new WebAssembly.Module(generateGatherModule() as BufferSource), {
    env: { memory },
  }).exports;
  for (const e of [4, 8] as const) {
    const Arr = e === 4 ? Float32Array : Float64Array;
    for (const terms of [1, 2] as const) {
      for (let m = 1; m <= 23; m++) {
        const inLength = m + 3;
        const g = emptyGather(inLength, m);
        for (let k = 0; k < m; k++) {
          g.ia[k] = Math.floor((r() + 0.5) * inLength);
          g.ib[k] = Math.floor((r() + 0.5) * inLength);
          g.wa[k] = r() - 0.5;
          g.wb[k] = terms === 2 ? r() - 0.5 : 0;
        }
        assert.equal(gatherTerms(g), terms);
        const rows = 3;
        const [ss, ds] = [inLength + 2, m + 1];
        const src = new Arr(rows * ss).map(() => r() - 0.5);
        // The kernel's arithmetic in its precision: weights, products and the sum each rounded to it.
        const round = e === 4 ? Math.fround : (v: number): number => v;
        const want = new Arr(rows * ds).fill(7);
        for (let row = 0; row < rows; row++)
          for (let k = 0; k < m; k++) {
            const a = round(round(g.wa[k]!) * src[row * ss + g.ia[k]!]!);
            want[row * ds + k] = terms === 1 ? a : round(a + round(round(g.wb[k]!) * src[row * ss + g.ib[k]!]!));
          }
        // The JavaScript loop (double arithmetic) to within the precision's rounding.
        const js = new Float64Array(rows * ds).fill(7);
        applyGather(g, src, 0, ss, js, 0, ds, rows);
        assert.ok(relErr(want, js) < (e === 4 ? 1e-6 : 1e-15));
        const heap = new Arr(memory.buffer);
        const table = gatherTable(g, e);
        const [tableAt, srcAt, dstAt] = [64, 64 + table.length + 64, 64 + table.length + 64 + 8 * rows * ss + 16];
        new Uint8Array(memory.buffer, tableAt, table.length).set(table);
        heap.set(src, srcAt / e);
        heap.fill(7, dstAt / e, dstAt / e + rows * ds);
        (exports[`${terms === 1 ? 'one' : 'two'}${e}`] as Fn)(srcAt, dstAt, tableAt, m, rows, ss * e, ds * e);
        const got = heap.subarray(dstAt / e, dstAt / e + rows * ds);
        for (let i = 0; i < got.length; i++)
          if (!Object.is(got[i], want[i])) assert.fail(`e=${e} terms=${terms} m=${m}: [${i}] ${got[i]} vs ${want[i]}`);
      }
    }
  }
});

test('odd DCT-IV and DST-IV through one real DFT of the same length: every odd n < 300 against the definition', () => {
  const r = rng(43);
  for (let n = 1; n < 300; n += 2) {
    const x = Float64Array.from({ length: n }, () => r() - 0.5);
    for (const sine of [false, true]) {
      const { pre, post } = dct4OddGathers(n, sine);
      const c = new Float64Array(n);
      applyGather(pre, x, 0, n, c, 0, n, 1);
      // The half spectrum of c by the definition.
      const X = new Float64Array(n + 1);
      for (let q = 0; q <= (n - 1) / 2; q++)
        for (let p = 0; p < n; p++) {
          const a = (-2 * Math.PI * ((p * q) % n)) / n;
          X[2 * q] += c[p]! * Math.cos(a);
          X[2 * q + 1] += c[p]! * Math.sin(a);
        }
      const y = new Float64Array(n);
      applyGather(post, X, 0, n + 1, y, 0, n, 1);
      const want = sine ? dstDirect(x, 4) : dctDirect(x, 4);
      assert.ok(relErr(y, want) < 1e-12, `n=${n} ${sine ? 'DST' : 'DCT'}-IV: ${relErr(y, want)}`);
    }
  }
});

test('wasm permutations of whole complex values (perm8, perm16): m = 1 … 19, rows with padded strides, bit for bit, NaN payloads and infinities kept', () => {
  const r = rng(43);
  const memory = new WebAssembly.Memory({ initial: 4 });
  const exports = new WebAssembly.Instance(new WebAssembly.Module(generateGatherModule() as BufferSource), {
    env: { memory },
  }).exports;
  for (const u of [8, 16] as const) {
    const perm = exports[`perm${u}`] as Fn;
    for (let m = 1; m <= 19; m++) {
      const inLength = m + 2;
      const from = Int32Array.from({ length: m }, () => Math.floor((r() + 0.5) * inLength));
      const rows = 3;
      const [ss, ds] = [inLength + 1, m + 2]; // in complex values
      const words = u / 4; // 32-bit words a complex value
      const src = new Uint32Array(rows * ss * words).map(() => Math.floor((r() + 0.5) * 2 ** 32));
      // A signalling-NaN pattern and an infinity, which any arithmetic would change.
      src[0] = 0x7f800001;
      src[1] = 0x7f800000;
      const want = new Uint32Array(rows * ds * words).fill(7);
      for (let q = 0; q < rows; q++)
        for (let k = 0; k < m; k++)
          for (let w = 0; w < words; w++) want[(q * ds + k) * words + w] = src[(q * ss + from[k]!) * words + w]!;
      const table = permutationTable(from, u);
      const [tP, sP, dP] = [0, 4096, 4096 + src.byteLength + 64];
      new Uint8Array(memory.buffer, tP, table.length).set(table);
      new Uint32Array(memory.buffer, sP, src.length).set(src);
      new Uint32Array(memory.buffer, dP, want.length).fill(7);
      perm(sP, dP, tP, m, rows, ss * u, ds * u);
      assert.deepEqual(new Uint32Array(memory.buffer, dP, want.length), want, `perm${u} m=${m}`);
    }
  }
});
