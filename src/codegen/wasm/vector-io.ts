/**
 * What the CPU engine's pre- and post-processing generators share: a function body with a vector emitter,
 * and the moves between interleaved complex memory and split real / imaginary vectors, lane reversal
 * included (the mirrored index k ↔ n − k of real-FFT symmetries is a block read backwards).
 */
import { Body, type ValType } from './assembler.js';
import { VecEmitter, type Term } from './vector-complex.js';
import { EVEN_F32, ODD_F32, LO_F32, HI_F32, LO_64, HI_64, REV_F32, REV_64 } from './lane-shuffles.js';

export interface VectorWriter {
  b: Body;
  v: VecEmitter;
  /** A new local holding shuffle(x, y) by the byte mask. */
  shuffle(x: number, y: number, mask: readonly number[]): number;
  /** A new local holding x with its lanes in reverse order. */
  reverse(x: number): number;
  /** A new local holding v128.load at addr + off. */
  load(addr: number, off: number): number;
  /** W interleaved complex values at addr + off as [real lanes, imaginary lanes]. */
  loadComplex(addr: number, off: number): [number, number];
  /** Real and imaginary lanes interleaved back into W complex values at addr + off. */
  storeComplex(addr: number, off: number, re: number, im: number): void;
  /** A term's value in a new local (its pending sign applied). */
  materialise(t: Term): number;
}

export const term = (l: number): Term => ({ l, neg: false });

export function vectorWriter(e: 4 | 8, params: ValType[]): VectorWriter {
  const b = new Body(params);
  const v = new VecEmitter(b, e);
  const shuffle = (x: number, y: number, mask: readonly number[]): number => {
    const t = v.fresh();
    b.get(x).get(y).shuffle(mask).set(t);
    return t;
  };
  const load = (addr: number, off: number): number => {
    const t = v.fresh();
    b.get(addr).v128Load(off).set(t);
    return t;
  };
  return {
    b,
    v,
    shuffle,
    reverse: (x) => shuffle(x, x, e === 4 ? REV_F32 : REV_64),
    load,
    loadComplex(addr, off) {
      const a = load(addr, off);
      const c = load(addr, off + 16);
      return e === 4 ? [shuffle(a, c, EVEN_F32), shuffle(a, c, ODD_F32)] : [shuffle(a, c, LO_64), shuffle(a, c, HI_64)];
    },
    storeComplex(addr, off, re, im) {
      b.get(addr)
        .get(shuffle(re, im, e === 4 ? LO_F32 : LO_64))
        .v128Store(off);
      b.get(addr)
        .get(shuffle(re, im, e === 4 ? HI_F32 : HI_64))
        .v128Store(off + 16);
    },
    materialise(t) {
      const r = v.fresh();
      v.push(t);
      b.set(r);
      return r;
    },
  };
}

/** A pointer local and the bytes it moves by on each step (negative: backwards). */
export type Step = readonly [local: number, bytes: number];

/** A new i32 local holding the local `from` plus `offset` bytes. */
export function pointer(b: Body, from: number, offset = 0): number {
  const p = b.local('i32');
  b.get(from);
  if (offset !== 0) b.i32(offset).add();
  b.set(p);
  return p;
}

function advance(b: Body, steps: readonly Step[]): void {
  for (const [l, d] of steps) {
    b.get(l).i32(Math.abs(d));
    if (d < 0) b.sub();
    else b.add();
    b.set(l);
  }
}

/** `body` run `times` (≥ 1) times, the pointers advanced after each run. */
export function repeat(b: Body, times: number, steps: readonly Step[], body: () => void): void {
  const g = b.local('i32');
  b.i32(times).set(g);
  counted(b, g, steps, body);
}

/** `body` run once per problem (the i32 parameter `count` ≥ 1 counts down), the pointers advanced after each. */
export function eachProblem(b: Body, count: number, steps: readonly Step[], body: () => void): void {
  counted(b, count, steps, body);
}

function counted(b: Body, counter: number, steps: readonly Step[], body: () => void): void {
  b.loop();
  body();
  advance(b, steps);
  b.get(counter).i32(1).sub().tee(counter).brIf(0);
  b.end();
}
