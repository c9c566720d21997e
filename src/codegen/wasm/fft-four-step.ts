/**
 * CPU engine, four-step recipe (src/planner/cpu-fft.ts, kind 'four-step'): a long transform of
 * n = n1 · n2 points as two phases of short lane-batch transforms, each on a block that stays in cache.
 *
 * With x[n1·N2 + n2] (row n1, column n2 of an N1 × N2 matrix) and k = k1 + N1·k2:
 *
 *   A[k1][n2] = Σ_n1 x[n1·N2 + n2] w_N1^{n1·k1} · w_N^{n2·k1}        (phase A: columns, twiddled)
 *   X[k1 + N1·k2] = Σ_n2 A[k1][n2] w_N2^{n2·k2}                         (phase B: rows of A)
 *
 * Phase A takes W adjacent columns at a time into the lanes (each input row gives one 32-byte run), runs the
 * N1-point passes in the work area, multiplies by the twiddles and scatters the W columns as rows of the
 * scratch matrix T = Aᵀ (rows n2, padded pitch). Phase B takes W adjacent columns of T (W values of k1) into
 * the lanes, runs the N2-point passes and stores each k2 as W adjacent outputs X[k1 + N1·k2]: the natural
 * order, with no transpose pass. Groups of either phase are independent, so threads can split each phase
 * between a barrier.
 *
 * Twiddles w_N^{n2·k1} with n2 = g·W + l factor as w_N^{l·k1} (one lane vector a k1, the same for every
 * group) times w_N^{g·W·k1} (one complex scalar a group and k1), so the tables hold n/W + W·N1 values, not n.
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';
import {
  emitPassChain,
  genericPassFunction,
  genericScratchBytes,
  I32,
  PassWriter,
  passFunction,
  passTwiddles,
  type Io,
} from './stockham-pass.js';
import { unitRoot } from '../../core/unit-root.js';
import type { CpuLaneRecipe } from '../../planner/cpu-fft.js';

type FourStep = Extract<CpuLaneRecipe, { kind: 'four-step' }>;

/** Pitch in bytes of a row of the scratch matrix T (N1 complex values and the padding). */
export function fourStepPitch(r: FourStep): number {
  return r.n1 * (r.precision === 'f32' ? 8 : 16) + r.pitchPad;
}

/**
 * Tables in order: the N1 passes', the N2 passes', w_N^{l·k1} as split lane vectors (re lanes, im lanes) a
 * k1, and w_N^{g·W·k1} as complex scalars, group-major.
 */
export function fourStepTables(r: FourStep): Float64Array[] {
  const { n, n1, n2, lanes: W } = r;
  const lane = new Float64Array(2 * W * n1);
  for (let k1 = 0; k1 < n1; k1++) {
    for (let l = 0; l < W; l++) {
      const [c, s] = unitRoot((l * k1) % n, n);
      lane[2 * W * k1 + l] = c;
      lane[2 * W * k1 + W + l] = -s;
    }
  }
  const groups = Math.ceil(n2 / W);
  const group = new Float64Array(2 * groups * n1);
  for (let g = 0, p = 0; g < groups; g++) {
    for (let k1 = 0; k1 < n1; k1++, p += 2) {
      const [c, s] = unitRoot((g * W * k1) % n, n);
      group[p] = c;
      group[p + 1] = -s;
    }
  }
  return [...r.passes1.map(passTwiddles), ...r.passes2.map(passTwiddles), lane, group];
}

/**
 * twiddle(src, dst, lane, grp, scale): the N1 split-layout values of one group at src, times the lane and
 * group twiddles, scattered as W rows of T from dst (element k1 at dst + k1·cb, lane l at + l·pitch).
 */
function twiddleScatterFunction(n1: number, e: 4 | 8, pitch: number, scaleType: ValType): WasmFunction {
  const params: ValType[] = [...I32(4), scaleType];
  const b = new Body(params);
  const w = new PassWriter(b, e, 4);
  const [src, dst, lane, grp] = [0, 1, 2, 3];
  const k = b.local('i32');
  b.i32(n1).set(k);
  b.loop();
  const x = w.load({ kind: 'split' }, src, 0);
  const [tr, ti, gr, gi] = [w.v.fresh(), w.v.fresh(), w.v.fresh(), w.v.fresh()];
  b.get(lane).v128Load(0).set(tr);
  b.get(lane).v128Load(16).set(ti);
  b.get(grp).loadSplat(e, 0).set(gr);
  b.get(grp).loadSplat(e, e).set(gi);
  const y = w.v.cmul(w.v.cmul(x, tr, ti), gr, gi);
  w.store({ kind: 'scatter', conj: false, laneStride: pitch }, dst, 0, y);
  b.get(src).i32(32).add().set(src);
  b.get(lane).i32(32).add().set(lane);
  b.get(grp)
    .i32(2 * e)
    .add()
    .set(grp);
  b.get(dst)
    .i32(2 * e)
    .add()
    .set(dst);
  b.get(k).i32(1).sub().tee(k).brIf(0);
  b.end();
  return { params, body: b };
}

/**
 * copy(src, dst, rows, srcStride, dstStride): `bytes` (a multiple of 8) of each of `rows` (≥ 1) rows, as whole
 * vectors and a last half vector; the strides are parameters because one side is the caller's matrix. With `negate`
 * (the element size) every value is negated on the way (the DST's signs in the column module).
 */
export function copyRowsFunction(bytes: number, negate?: 4 | 8): WasmFunction {
  const params: ValType[] = I32(5);
  const b = new Body(params);
  const [src, dst, rows, ss, ds] = [0, 1, 2, 3, 4];
  const load = (o: number): Body =>
    negate ? b.get(dst).get(src).v128Load(o).fneg(negate) : b.get(dst).get(src).v128Load(o);
  b.loop();
  for (let o = 0; o + 16 <= bytes; o += 16) load(o).v128Store(o);
  // A last 8 bytes (a partial group's odd complex value in f32): a vector read, its low half stored.
  if (bytes % 16 === 8) {
    const o = bytes - 8;
    load(o).store64Lane(o, 0);
  }
  b.get(src).get(ss).add().set(src);
  b.get(dst).get(ds).add().set(dst);
  b.get(rows).i32(1).sub().tee(rows).brIf(0);
  b.end();
  return { params, body: b };
}

export interface FourStepDrivers {
  /** fwd / inv(in, out, work, tw, count, scale), as the other engine recipes export. */
  drivers: WasmFunction[];
  workBytes: number;
}

/** Bytes of one thread's work area: the passes' two halves, the stage of a block, then a generic pass's scratch. */
export function fourStepOwnWork(r: FourStep): number {
  const m = Math.max(r.n1, r.n2);
  return 64 * m + 32 * r.blockGroups * m + genericScratch(r);
}

/** Scratch of the phases' generic passes (primes from GENERIC_FROM_PRIME in partial recipes), 0 without any. */
function genericScratch(r: FourStep): number {
  return Math.max(0, ...[...r.passes1, ...r.passes2].map((p) => (p.generic ? genericScratchBytes(p.radix) : 0)));
}

/**
 * The phases as exported functions, for threads that split them (a barrier between):
 *   aF / aI(in, t, work, tw, k0, k1)          phase A, blocks of columns [k0, k1), into T at t
 *   bF / bI(t, out, work, tw, k0, k1, scale)  phase B, blocks of k1 [k0, k1), into out
 * A block is blockGroups groups of W columns. Phase A copies a block's rows from the input into a stage
 * first, and phase B writes a block's outputs to a stage and copies them out after, so the caller's
 * power-of-two strided rows move as whole cache lines once. `work` is one thread's fourStepOwnWork bytes;
 * aI/bI conjugate on load / store (the inverse is conj(FFT(conj x)), so the tables are the forward ones).
 * fwd / inv run both phases per problem with T in `work` after the thread's area.
 */
export function fourStepDrivers(
  r: FourStep,
  e: 4 | 8,
  scaleType: ValType,
  fn: (key: string, make: () => WasmFunction) => number,
  offsets: readonly number[],
): FourStepDrivers {
  const { n1, n2, passes1, passes2, blockGroups: G } = r;
  const W = r.lanes;
  // Partial groups (n1 or n2 not a multiple of W; the planner then takes blockGroups 1): phase A's last group reads
  // past its rows (finite data of the next slot or region, whose lanes land in T's spare rows) and phase B's last
  // group writes only its valid k1 values.
  const groupsA = Math.ceil(n2 / W);
  const groupsB = Math.ceil(n1 / W);
  const validB = n1 - (groupsB - 1) * W;
  if ((n1 % W !== 0 || n2 % W !== 0) && G !== 1)
    throw new Error('internal: partial four-step groups need blockGroups 1');
  const cb = 2 * e;
  const gb = W * cb; // bytes of a group's W values in a row
  const sp = G * gb; // stage pitch: a block's bytes in a row
  const pitch = fourStepPitch(r);
  const m = Math.max(n1, n2);
  const stageOff = 64 * m;
  const ownWork = fourStepOwnWork(r);
  const laneOff = offsets[passes1.length + passes2.length]!;
  const groupOff = offsets[passes1.length + passes2.length + 1]!;
  const twist = fn('four-step/twiddle', () => twiddleScatterFunction(n1, e, pitch, scaleType));
  const copy = fn('four-step/copy', () => copyRowsFunction(sp));
  const copyLast = validB < W ? fn(`four-step/copy/${validB}`, () => copyRowsFunction(validB * cb)) : copy;
  const passCall = (p: (typeof passes1)[number], inIo: Io, outIo: Io): number =>
    fn(`${p.radix}/${p.l1}/${p.ido}/${p.generic ? 'g/' : ''}${JSON.stringify(inIo)}/${JSON.stringify(outIo)}`, () =>
      (p.generic ? genericPassFunction : passFunction)(p, e, inIo, outIo, scaleType),
    );
  // A generic pass's scratch follows the stage in the thread's work area (`work`: the phase's parameter).
  const scratchOf = (passes: typeof passes1, work: number) =>
    genericScratch(r) > 0
      ? {
          generic: passes.map((p) => p.generic === true),
          push: (x: Body) =>
            x
              .get(work)
              .i32(64 * m + 32 * G * m)
              .add(),
        }
      : undefined;
  // f32.const 1 / f64.const 1
  const one = (b: Body): Body => (e === 4 ? b.op(0x43, 0, 0, 0x80, 0x3f) : b.op(0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f));
  const mulAdd = (b: Body, base: number, k: number, bytes: number, to: number): void => {
    b.get(base).get(k).i32(bytes).mul().add().set(to);
  };
  /** Block loop over [k0, k1): `body` once a block, then each pointer advanced by its step. */
  const blocks = (b: Body, k0: number, k1: number, steps: [number, number][], body: (k: number) => void): void => {
    const k = b.local('i32');
    b.get(k0).set(k);
    b.block();
    b.get(k).get(k1).op(0x4f /* i32.ge_u */).brIf(0);
    b.loop();
    body(k);
    for (const [ptr, step] of steps) b.get(ptr).i32(step).add().set(ptr);
    b.get(k).i32(1).add().tee(k).get(k1).op(0x49 /* i32.lt_u */).brIf(0);
    b.end();
    b.end();
  };
  const phases: number[] = [];
  for (const conj of [false, true]) {
    // Phase A: params in, t, work, tw, k0, k1.
    {
      const calls = passes1.map((p, i) =>
        passCall(p, i === 0 ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' }, { kind: 'split' }),
      );
      const params: ValType[] = I32(6);
      const b = new Body(params);
      const [inP, tP, work, tw, k0, k1] = [0, 1, 2, 3, 4, 5];
      const [src, dst, grp, stage, work2] = [
        b.local('i32'),
        b.local('i32'),
        b.local('i32'),
        b.local('i32'),
        b.local('i32'),
      ];
      b.get(work)
        .i32(32 * n1)
        .add()
        .set(work2);
      b.get(work).i32(stageOff).add().set(stage);
      mulAdd(b, inP, k0, sp, src);
      mulAdd(b, tP, k0, G * W * pitch, dst);
      b.get(tw).i32(groupOff).add().set(grp);
      mulAdd(b, grp, k0, G * n1 * cb, grp);
      blocks(
        b,
        k0,
        k1,
        [
          [src, sp],
          [dst, G * W * pitch],
          [grp, G * n1 * cb],
        ],
        () => {
          b.get(src)
            .get(stage)
            .i32(n1)
            .i32(n2 * cb)
            .i32(sp)
            .call(copy);
          for (let q = 0; q < G; q++) {
            const first = b.local('i32');
            b.get(stage)
              .i32(q * gb)
              .add()
              .set(first);
            const cur = emitPassChain(b, calls, {
              first,
              target: null,
              work,
              work2,
              tw,
              twOffsets: offsets,
              scale: one,
              scratch: scratchOf(passes1, work),
            });
            b.get(cur)
              .get(dst)
              .i32(q * W * pitch)
              .add()
              .get(tw)
              .i32(laneOff)
              .add()
              .get(grp)
              .i32(q * n1 * cb)
              .add();
            one(b).call(twist);
          }
        },
      );
      const f: WasmFunction = { params, body: b, export: conj ? 'aI' : 'aF' };
      phases.push(fn(`four-step/a/${conj}`, () => f));
    }
    // Phase B: params t, out, work, tw, k0, k1, scale.
    {
      const last = passes2.length - 1;
      const calls = passes2.map((p, i) =>
        passCall(
          p,
          i === 0 ? { kind: 'interleaved', conj: false, unit: pitch } : { kind: 'split' },
          i === last ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' },
        ),
      );
      const params: ValType[] = [...I32(6), scaleType];
      const b = new Body(params);
      const [tP, outP, work, tw, k0, k1, scale] = [0, 1, 2, 3, 4, 5, 6];
      const [src, dst, stage, work2] = [b.local('i32'), b.local('i32'), b.local('i32'), b.local('i32')];
      b.get(work)
        .i32(32 * n2)
        .add()
        .set(work2);
      b.get(work).i32(stageOff).add().set(stage);
      mulAdd(b, tP, k0, sp, src);
      mulAdd(b, outP, k0, sp, dst);
      blocks(
        b,
        k0,
        k1,
        [
          [src, sp],
          [dst, sp],
        ],
        (k) => {
          for (let q = 0; q < G; q++) {
            const first = b.local('i32');
            const target = b.local('i32');
            b.get(src)
              .i32(q * gb)
              .add()
              .set(first);
            b.get(stage)
              .i32(q * gb)
              .add()
              .set(target);
            emitPassChain(b, calls, {
              first,
              target,
              work,
              work2,
              tw,
              twOffsets: offsets.slice(passes1.length),
              scale: (x) => x.get(scale),
              scratch: scratchOf(passes2, work),
            });
          }
          const copyOut = (f: number) =>
            b
              .get(stage)
              .get(dst)
              .i32(n2)
              .i32(sp)
              .i32(n1 * cb)
              .call(f);
          if (copyLast === copy) copyOut(copy);
          else {
            // The last block (of one group) holds validB k1 values: its own copy.
            b.get(k)
              .i32(groupsB - 1)
              .op(0x46 /* i32.eq */)
              .op(0x04, 0x40 /* if, no result */);
            copyOut(copyLast);
            b.op(0x05 /* else */);
            copyOut(copy);
            b.end();
          }
        },
      );
      const f: WasmFunction = { params: [...params], body: b, export: conj ? 'bI' : 'bF' };
      phases.push(fn(`four-step/b/${conj}`, () => f));
    }
  }
  // fwd / inv: params in, out, work, tw, count, scale; T after the thread's work area.
  const drivers: WasmFunction[] = [];
  const slotBytes = r.n * cb;
  for (const conj of [false, true]) {
    const [a, bPhase] = conj ? [phases[2]!, phases[3]!] : [phases[0]!, phases[1]!];
    const params: ValType[] = [...I32(5), scaleType];
    const b = new Body(params);
    const [inP, outP, work, tw, count, scale] = [0, 1, 2, 3, 4, 5];
    const t = b.local('i32');
    b.get(work).i32(ownWork).add().set(t);
    b.loop();
    b.get(inP)
      .get(t)
      .get(work)
      .get(tw)
      .i32(0)
      .i32(groupsA / G)
      .call(a);
    b.get(t)
      .get(outP)
      .get(work)
      .get(tw)
      .i32(0)
      .i32(groupsB / G)
      .get(scale)
      .call(bPhase);
    b.get(inP).i32(slotBytes).add().set(inP);
    b.get(outP).i32(slotBytes).add().set(outP);
    b.get(count).i32(1).sub().tee(count).brIf(0);
    b.end();
    drivers.push({ params, body: b, export: conj ? 'inv' : 'fwd' });
  }
  // T holds a partial group's spare rows too.
  return { drivers, workBytes: ownWork + pitch * groupsA * W };
}
