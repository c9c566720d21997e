/**
 * Elementwise complex product on the CPU engine, for Bluestein's chirp and filter multiplications:
 *
 *   cmul(dst, a, b, count):  dst_i = a_i · b_i,  interleaved complex, count a multiple of W
 *
 * dst may equal a or b. Each step deinterleaves W values of both operands, multiplies and
 * re-interleaves them.
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';
import { VecEmitter, type Term } from './vector-complex.js';
import { EVEN_F32, ODD_F32, LO_F32, HI_F32, LO_64, HI_64 } from './lane-shuffles.js';

export function cmulFunction(e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const v = new VecEmitter(b, e);
  const [dst, a, c, count] = [0, 1, 2, 3];
  const shuffle = (x: number, y: number, m: readonly number[]): number => {
    const t = v.fresh();
    b.get(x).get(y).shuffle(m).set(t);
    return t;
  };
  const split = (addr: number): [Term, Term] => {
    const p = v.fresh();
    const q = v.fresh();
    b.get(addr).v128Load(0).set(p);
    b.get(addr).v128Load(16).set(q);
    const [lo, hi] = e === 4 ? [EVEN_F32, ODD_F32] : [LO_64, HI_64];
    return [
      { l: shuffle(p, q, lo), neg: false },
      { l: shuffle(p, q, hi), neg: false },
    ];
  };
  const g = b.local('i32');
  b.get(count).i32(W).op(0x6e).set(g); // i32.div_u
  b.loop();
  const [ar, ai] = split(a);
  const [cr, ci] = split(c);
  const re = v.mulAdd2(ar, cr, ai, ci, false);
  const im = v.mulAdd2(ar, ci, ai, cr, true);
  const r = v.fresh();
  const i = v.fresh();
  v.push(re);
  b.set(r);
  v.push(im);
  b.set(i);
  const [lo, hi] = e === 4 ? [LO_F32, HI_F32] : [LO_64, HI_64];
  b.get(dst)
    .get(shuffle(r, i, lo))
    .v128Store(0);
  b.get(dst)
    .get(shuffle(r, i, hi))
    .v128Store(16);
  b.get(dst).i32(32).add().set(dst);
  b.get(a).i32(32).add().set(a);
  b.get(c).i32(32).add().set(c);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  return { params, body: b, export: 'cmul' };
}
