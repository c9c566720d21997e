/**
 * CPU engine code generator: a lane-split or lane-batch recipe (src/planner/cpu-fft.ts) → one
 * WebAssembly SIMD module with two exports, `fwd` and `inv`:
 *
 *   fwd/inv(in, out, work, tw, count, scale)
 *
 * transforms `count` problems (lane-split) or groups of W problems (lane-batch) of interleaved complex
 * data at `in` into `out`, multiplied by `scale`; `in` is only read (so engine buffers keep their input),
 * `work` holds two problems' worth of vectors (the passes' ping-pong), `tw` is where the caller wrote
 * `twiddles`. The inverse is conj(FFT(conj x)), with both conjugations folded into the first load and the
 * last store, so the passes are shared.
 *
 * Inside the passes data is "split vector" layout: element e is 32 bytes at 32·e, the real lanes then
 * the imaginary lanes. Every address offset is a compile-time constant in the memarg, and loops run
 * over pointers.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';
import { butterfly } from './fft-codelets.js';
import {
  I32,
  PassWriter,
  genericPassFunction,
  genericScratchBytes,
  passFunction,
  passTwiddles,
  type Io,
} from './stockham-pass.js';
import { fourStepDrivers, fourStepTables } from './fft-four-step.js';
import { r2cPostFunction, r2cSplitPostFunction, r2cTwiddles } from './rfft-post.js';
import { c2rPreFunction } from './irfft-pre.js';
import { pack2Function, split2Function, merge2Function, unpack2Function } from './rfft-pairs.js';
import { pairMaxFunction } from './row-max.js';
import {
  dct2FusedPostFunction,
  dct2PostFunction,
  dct2PreFunction,
  dct2SplitFunction,
  dct2Twiddles,
} from './dct2-makhoul.js';
import { dct3C2rFunction, dct3PostFunction, dct3PreFunction, dct3Twiddles } from './dct3-makhoul.js';
import { cmulFunction } from './pointwise.js';
import { dct4PostFunction, dct4PreFunction, dct4Twiddles } from './dct4-half-length.js';
import { dhtPostFunction } from './dht-post.js';
import { symmetricExtensionFunction, symmetricOutputFunction } from './dct1-extension.js';
import { withFma, type Cx } from './vector-complex.js';
import { unitRoot } from '../../core/unit-root.js';
import type { CpuLaneRecipe } from '../../planner/cpu-fft.js';

type LaneRecipe = CpuLaneRecipe;

export interface EngineModule {
  bytes: Uint8Array;
  /** Twiddle values (in the recipe's precision) to write at the `tw` address. */
  twiddles: Float64Array;
  /** Bytes of one problem (lane-split) or one group of W problems (lane-batch) of interleaved complex data. */
  slotBytes: number;
  /** Problems per `count` unit: 1 (lane-split) or W (lane-batch). */
  problemsPerSlot: number;
  /** Bytes the `work` buffer needs. */
  workBytes: number;
  /** Byte offset (from `tw`) of the real post-processing's table, when the recipe has `realPost`. */
  r2cTwiddleOffset?: number;
  /** Byte offset (from `tw`) of the DCT-II post-rotation's table, when the recipe has `dct2`. */
  dct2TwiddleOffset?: number;
  /** Byte offset (from `tw`) of the DCT-III pre-rotation's table, when the recipe has `dct2`. */
  dct3TwiddleOffset?: number;
  /** Byte offset (from `tw`) of the DCT-IV tables (dct4-half-length.ts), with `dct2` and even lengths. */
  dct4TwiddleOffset?: number;
}

/**
 * Lane-split finish: Y[k2] (lane l = sub-problem l) · w_n^{l·k2}, W×W transposes, then the W-point DFT
 * across the former lanes: X[k2 + n2·k1] = Σ_l w_W^{l·k1} · (w_n^{l·k2} Y_l[k2]). Groups of W
 * consecutive k2; when W ∤ n2 the last group overlaps the one before (it rewrites equal values).
 */
function combineFunction(n2: number, e: 4 | 8, conj: boolean, scaleType: ValType, split = false): WasmFunction {
  const params: ValType[] = [...I32(3), scaleType];
  const b = new Body(params);
  const w = new PassWriter(b, e, 3);
  const W = 16 / e;
  const cb = 2 * e;
  const [src, dst, tw] = [0, 1, 2];
  // Split output (r2cs reads it) has the same 32-byte blocks as interleaved when W | n2; the scale is not applied.
  if (split && (conj || n2 % W !== 0)) throw new Error('combine: split output is forward only and needs W | n2');
  const out: Io = split ? { kind: 'split' } : { kind: 'interleaved', conj };
  const group = (s: number, d: number, t: number, off: number, dOff: number): void => {
    const xs: Cx[] = [];
    for (let q = 0; q < W; q++) {
      const y = w.load({ kind: 'split' }, s, off + 32 * q);
      const tr = w.v.fresh();
      const ti = w.v.fresh();
      b.get(t)
        .v128Load(off + 32 * q)
        .set(tr);
      b.get(t)
        .v128Load(off + 32 * q + 16)
        .set(ti);
      xs.push(w.v.cmul(y, tr, ti));
    }
    const re = w.transpose(xs.map((x) => x.re));
    const im = w.transpose(xs.map((x) => x.im));
    const z = butterfly(
      w.v,
      re.map((r, l) => ({ re: r, im: im[l]! })),
    );
    for (let k1 = 0; k1 < W; k1++) w.store(out, d, dOff + cb * n2 * k1, z[k1]!);
  };
  const groups = Math.floor(n2 / W);
  const g = b.local('i32');
  b.i32(groups).set(g);
  // The tail group reads from the original pointers, so keep copies.
  const s0 = b.local('i32');
  const d0 = b.local('i32');
  const t0 = b.local('i32');
  b.get(src).set(s0).get(dst).set(d0).get(tw).set(t0);
  b.loop();
  group(src, dst, tw, 0, 0);
  b.get(src)
    .i32(32 * W)
    .add()
    .set(src);
  b.get(tw)
    .i32(32 * W)
    .add()
    .set(tw);
  b.get(dst)
    .i32(cb * W)
    .add()
    .set(dst);
  b.get(g).i32(1).sub().tee(g).brIf(0);
  b.end();
  if (n2 % W !== 0) group(s0, d0, t0, 32 * (n2 - W), cb * (n2 - W));
  return { params, body: b };
}

function combineTwiddles(n: number, n2: number, W: number): Float64Array {
  const out = new Float64Array(2 * W * n2);
  for (let k2 = 0; k2 < n2; k2++) {
    for (let l = 0; l < W; l++) {
      const [c, s] = unitRoot(l * k2, n);
      out[2 * W * k2 + l] = c;
      out[2 * W * k2 + W + l] = -s;
    }
  }
  return out;
}

/** Concatenates tables, each starting 32-byte aligned; returns the values and each table's byte offset. */
export function layTables(tables: readonly Float64Array[], e: number): { values: Float64Array; offsets: number[] } {
  const align = 32 / e;
  const offsets: number[] = [];
  let len = 0;
  for (const t of tables) {
    offsets.push(len * e);
    len = Math.ceil((len + t.length) / align) * align;
  }
  const values = new Float64Array(len);
  tables.forEach((t, i) => values.set(t, offsets[i]! / e));
  return { values, offsets };
}

/** `sharedMemory`: the module imports a shared memory (engine buffers that worker threads transform in place). */
export function generateEngineFft(recipe: LaneRecipe, sharedMemory = false): EngineModule {
  return withFma(recipe.fma === true, () => engineModule(recipe, sharedMemory));
}

function engineModule(recipe: LaneRecipe, sharedMemory: boolean): EngineModule {
  const e: 4 | 8 = recipe.precision === 'f32' ? 4 : 8;
  const W = recipe.lanes;
  const cb = 2 * e;
  const scaleType: ValType = e === 4 ? 'f32' : 'f64';
  const n = recipe.n;
  // Twiddle tables: the transform's (core), the real post-processing's, the DCT's.
  const core =
    recipe.kind === 'four-step'
      ? fourStepTables(recipe)
      : [
          ...recipe.passes.map(passTwiddles),
          recipe.kind === 'lane-split' ? combineTwiddles(n, recipe.laneLength, W) : new Float64Array(0),
        ];
  const tables = [...core];
  tables.push(recipe.realPost ? r2cTwiddles(2 * n) : new Float64Array(0));
  // The real length: twice the complex one for the half-length path, the same for odd pairs.
  const realLength = recipe.realPairs ? n : 2 * n;
  // DCT-II and DCT-III (its inverse) for both real paths; the DCT-IV and DHT steps only around the half-length one.
  const dct3 = recipe.dct2 === true;
  const dct4 = recipe.dct2 && recipe.realPost;
  tables.push(recipe.dct2 ? dct2Twiddles(realLength) : new Float64Array(0));
  tables.push(dct3 ? dct3Twiddles(realLength) : new Float64Array(0));
  tables.push(dct4 ? dct4Twiddles(2 * n) : new Float64Array(0));
  const { values: tw, offsets } = layTables(tables, e);
  const tail = core.length;

  const funcs: WasmFunction[] = [];
  const fnIndex = new Map<string, number>();
  const fn = (key: string, make: () => WasmFunction): number => {
    let i = fnIndex.get(key);
    if (i === undefined) {
      i = funcs.push(make()) - 1;
      fnIndex.set(key, i);
    }
    return i;
  };
  const t =
    recipe.kind === 'four-step'
      ? fourStepDrivers(recipe, e, scaleType, fn, offsets)
      : laneDrivers(recipe, e, scaleType, fn, offsets);
  const drivers = t.drivers;
  let r2cTwiddleOffset: number | undefined;
  if (recipe.realPost) {
    r2cTwiddleOffset = offsets[tail]!;
    drivers.push(r2cPostFunction(2 * n, e), c2rPreFunction(2 * n, e));
    if (splitPost(recipe)) drivers.push(r2cSplitPostFunction(2 * n, e));
  }
  if (recipe.realPairs)
    drivers.push(
      pack2Function(n, e),
      split2Function(n, e),
      merge2Function(n, e),
      unpack2Function(n, e),
      pairMaxFunction(e),
    );
  if (recipe.pointwise) drivers.push(cmulFunction(e));
  if (recipe.dct1 && recipe.realPost) {
    for (const sine of [false, true])
      drivers.push(symmetricExtensionFunction(2 * n, e, sine), symmetricOutputFunction(2 * n, e, sine));
  }
  let dct2TwiddleOffset: number | undefined;
  let dct3TwiddleOffset: number | undefined;
  let dct4TwiddleOffset: number | undefined;
  if (recipe.dct2) {
    dct2TwiddleOffset = offsets[tail + 1]!;
    // The DST-II's alternation and reversal folded into its own reorder and post step. Even n: the post step fused
    // with the real FFT's (dct2post, the unfused one, is its reference in test/cpu/dct2-fused.test.ts); odd n: with the
    // pairs' split.
    drivers.push(dct2PreFunction(realLength, e));
    if (recipe.realPost) drivers.push(dct2PostFunction(realLength, e));
    drivers.push(dct2PreFunction(realLength, e, true));
    if (recipe.realPost) drivers.push(dct2FusedPostFunction(realLength, e), dct2FusedPostFunction(realLength, e, true));
    else drivers.push(dct2SplitFunction(realLength, e), dct2SplitFunction(realLength, e, true));
  }
  if (dct3) {
    dct3TwiddleOffset = offsets[tail + 2]!;
    drivers.push(dct3PreFunction(realLength, e), dct3PostFunction(realLength, e));
    drivers.push(dct3PreFunction(realLength, e, true), dct3PostFunction(realLength, e, true));
    if (recipe.realPost) drivers.push(dct3C2rFunction(realLength, e), dct3C2rFunction(realLength, e, true));
  }
  if (dct4) {
    dct4TwiddleOffset = offsets[tail + 3]!;
    drivers.push(dct4PreFunction(2 * n, e), dct4PostFunction(2 * n, e), dhtPostFunction(2 * n, e));
    drivers.push(dct4PreFunction(2 * n, e, true), dct4PostFunction(2 * n, e, true));
  }
  const all = funcs.concat(drivers);
  const bytes = assembleModule(all, { initialPages: 1, maxPages: 65536, shared: sharedMemory });
  return {
    bytes,
    twiddles: tw,
    slotBytes: recipe.kind === 'lane-batch' ? W * n * cb : n * cb,
    problemsPerSlot: recipe.kind === 'lane-batch' ? W : 1,
    workBytes: t.workBytes,
    r2cTwiddleOffset,
    dct2TwiddleOffset,
    dct3TwiddleOffset,
    dct4TwiddleOffset,
  };
}

/**
 * Whether a real module also gets `fwds` and `r2cs` (the post step reading Z in split layout, without the
 * deinterleaving and re-interleaving shuffles): lane-split with realPost, W | laneLength.
 */
export function splitPost(recipe: LaneRecipe): boolean {
  return recipe.kind === 'lane-split' && recipe.realPost === true && recipe.laneLength % recipe.lanes === 0;
}

/** fwd / inv of the lane-split and lane-batch recipes: the Stockham passes (and the lane combine) per slot. */
function laneDrivers(
  recipe: Extract<LaneRecipe, { kind: 'lane-split' | 'lane-batch' }>,
  e: 4 | 8,
  scaleType: ValType,
  fn: (key: string, make: () => WasmFunction) => number,
  offsets: readonly number[],
): { drivers: WasmFunction[]; workBytes: number } {
  const W = recipe.lanes;
  const cb = 2 * e;
  const split = recipe.kind === 'lane-split';
  const n = recipe.n;
  const L = recipe.laneLength;
  const passes = recipe.passes;
  const slotBytes = split ? n * cb : W * n * cb;
  const twOff = offsets.slice(0, passes.length);
  const combineOff = offsets[passes.length]!;
  const laneStride = n * cb;
  const drivers: WasmFunction[] = [];
  // `fwds`: the forward transform with Z left in split layout for the real post step (r2cs), scale 1.
  const variants: ['fwd' | 'inv' | 'fwds', boolean][] = [
    ['fwd', false],
    ['inv', true],
  ];
  if (splitPost(recipe)) variants.push(['fwds', false]);
  for (const [name, conj] of variants) {
    const inFirst: Io = split ? { kind: 'interleaved', conj } : { kind: 'gather', conj, laneStride };
    const outLast: Io = split ? { kind: 'split' } : { kind: 'scatter', conj, laneStride };
    const calls = passes.map((p, t) => {
      const inIo: Io = t === 0 ? inFirst : { kind: 'split' };
      const outIo: Io = t === passes.length - 1 ? outLast : { kind: 'split' };
      const key = `${p.radix}/${p.l1}/${p.ido}/${p.generic ?? ''}/${JSON.stringify(inIo)}/${JSON.stringify(outIo)}`;
      return fn(key, () => (p.generic ? genericPassFunction : passFunction)(p, e, inIo, outIo, scaleType));
    });
    const combine = !split
      ? -1
      : name === 'fwds'
        ? fn('combine/split', () => combineFunction(L, e, false, scaleType, true))
        : fn(`combine/${conj}`, () => combineFunction(L, e, conj, scaleType));
    // Driver: params in, out, work, tw, count, scale.
    const params: ValType[] = [...I32(5), scaleType];
    const b = new Body(params);
    const [inP, outP, work, twP, count, scale] = [0, 1, 2, 3, 4, 5];
    b.loop();
    // Buffers: pass t reads `cur` and writes `other`; after the first pass the two halves of `work` take turns.
    const work2 = b.local('i32');
    b.inPrologue(() =>
      b
        .get(work)
        .i32(32 * L)
        .add()
        .set(work2),
    );
    let cur = inP;
    let other = work;
    passes.forEach((_, t) => {
      const last = t === passes.length - 1;
      const dest = last && !split ? outP : other;
      b.get(cur).get(dest).get(twP).i32(twOff[t]!).add().get(scale);
      // A generic pass's scratch follows the two halves of the work area.
      if (passes[t]!.generic)
        b.get(work)
          .i32(64 * L)
          .add();
      b.call(calls[t]!);
      if (dest !== outP) [cur, other] = [dest, cur === inP ? work2 : cur];
    });
    if (split) b.get(cur).get(outP).get(twP).i32(combineOff).add().get(scale).call(combine);
    b.get(inP).i32(slotBytes).add().set(inP);
    b.get(outP).i32(slotBytes).add().set(outP);
    b.get(count).i32(1).sub().tee(count).brIf(0);
    b.end();
    drivers.push({ params, body: b, export: name });
  }
  const scratch = Math.max(0, ...passes.map((p) => (p.generic ? genericScratchBytes(p.radix) : 0)));
  return { drivers, workBytes: 64 * L + scratch };
}

/**
 * The pairs path's row steps for odd n whose complex transform is not in a module of its own (Bluestein: the
 * backend runs it between these steps, src/backends/cpu/wasm-fft.ts BluesteinPairsFft): pack2, split2, merge2,
 * unpack2, and with `dct2` the DCT and DST rows (dct2pre, dct2split, dct3pre, dct3post and their DST forms), with
 * the same exports and tables as a realPairs lane module. No fwd or inv; slotBytes is one row of n complex values.
 */
export function generatePairsRows(n: number, precision: 'f32' | 'f64', dct2: boolean): EngineModule {
  const e: 4 | 8 = precision === 'f32' ? 4 : 8;
  const { values: tw, offsets } = layTables(
    dct2 ? [dct2Twiddles(n), dct3Twiddles(n)] : [new Float64Array(0), new Float64Array(0)],
    e,
  );
  const fns: WasmFunction[] = [
    pack2Function(n, e),
    split2Function(n, e),
    merge2Function(n, e),
    unpack2Function(n, e),
    pairMaxFunction(e),
  ];
  if (dct2) {
    fns.push(dct2PreFunction(n, e), dct3PreFunction(n, e), dct3PostFunction(n, e));
    fns.push(dct3PreFunction(n, e, true), dct3PostFunction(n, e, true));
    fns.push(dct2PreFunction(n, e, true));
    fns.push(dct2SplitFunction(n, e), dct2SplitFunction(n, e, true));
  }
  return {
    bytes: assembleModule(fns, { initialPages: 1, maxPages: 65536, shared: false }),
    twiddles: tw,
    slotBytes: 2 * e * n,
    problemsPerSlot: 1,
    workBytes: 0,
    dct2TwiddleOffset: dct2 ? offsets[0] : undefined,
    dct3TwiddleOffset: dct2 ? offsets[1] : undefined,
  };
}
