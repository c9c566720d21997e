/**
 * CPU engine, the column transforms of a 2-D array (src/planner/cpu-fft.ts, planCpuEngineFft2): every column of
 * a rows × cols matrix of interleaved complex values, W adjacent columns in the lanes, so each butterfly is a
 * lane-wise vector operation and each row gives one contiguous run per group.
 *
 *   cF / cI(src, dst, work, tw, k0, k1, scale)
 *
 * transforms column blocks [k0, k1) of the matrix at src into the same place of the matrix at dst (which may be
 * src), times `scale`; cI is the inverse, conj(FFT(conj x)). A block is blockGroups groups of W columns: its rows
 * are copied into a stage first and its results out of a second stage after, so the matrix's rows, cols · cb
 * bytes apart, move as whole cache lines once. `work` holds the passes' two halves and the two stages.
 *
 * A real recipe (`realPairs`) takes the matrix as pairs of real columns (real-columns-pairs.ts): cF reads rows × 2·cols
 * reals and writes the ⌊rows/2⌋ + 1 rows of their half spectra (2·cols complex values a row) from its output stage,
 * cI reads such half spectra into its input stage and writes rows × 2·cols reals.
 */
import { assembleModule, Body, type ValType, type WasmFunction } from './assembler.js';
import {
  emitPassChain,
  genericPassFunction,
  genericScratchBytes,
  I32,
  passFunction,
  passTwiddles,
  type Io,
} from './stockham-pass.js';
import { copyRowsFunction } from './fft-four-step.js';
import { layTables } from './fft-engine.js';
import type { CpuColumnsRecipe } from '../../planner/cpu-fft.js';
import { withFma } from './vector-complex.js';
import { columnsPostFunction, columnsPreFunction, dctPostFunction, dctPreFunction } from './real-columns-pairs.js';

export interface ColumnsModule {
  bytes: Uint8Array;
  /** Twiddle values to write at the `tw` address. */
  twiddles: Float64Array;
  workBytes: number;
  /** Column blocks of the matrix (the k1 of a whole call). */
  blocks: number;
}

/** `sharedMemory`: the module imports a shared memory (the steps split across threads). */
export function generateColumnsModule(r: CpuColumnsRecipe, sharedMemory = false): ColumnsModule {
  return withFma(r.fma === true, () => columnsModule(r, sharedMemory));
}

function columnsModule(r: CpuColumnsRecipe, sharedMemory: boolean): ColumnsModule {
  const e: 4 | 8 = r.precision === 'f32' ? 4 : 8;
  const scaleType: ValType = e === 4 ? 'f32' : 'f64';
  const W = r.lanes;
  const cb = 2 * e;
  const G = r.blockGroups;
  const gb = W * cb; // a group's bytes in a row
  const sp = G * gb; // a block's bytes in a row: the stages' pitch
  const rows = r.rows;
  const rowBytes = r.cols * cb;
  const { values: tw, offsets } = layTables(r.colPasses.map(passTwiddles), e);
  const half = 32 * rows;
  const stageIn = 2 * half;
  const stageOut = stageIn + sp * rows;
  const funcs: WasmFunction[] = [];
  const keys = new Map<string, number>();
  const fn = (key: string, make: () => WasmFunction): number => {
    let i = keys.get(key);
    if (i === undefined) keys.set(key, (i = funcs.push(make()) - 1));
    return i;
  };
  const copy = fn('copy', () => copyRowsFunction(sp));
  const last = r.colPasses.length - 1;
  const real = r.realPairs === true;
  const dct = real && r.dct === true;
  // The DST-II / -III as the DCT's: odd input rows negated and the output rows reversed (and back for the inverse).
  const isDst = dct && r.dst === true;
  const negCopy = isDst ? fn('negCopy', () => copyRowsFunction(sp, e)) : 0;
  /** Row of the DCT's k-th output (DST-II) or input (DST-III) row, and that row's step as k grows. */
  const yRow = (k: number): number => (isDst ? rows - 1 - k : k);
  const yStep = isDst ? -rowBytes : rowBytes;
  // Real recipes: the half spectra's rows are twice a matrix row (X bytes), and their blocks twice a block's width.
  const X = 2 * rowBytes;
  const [inStep, outStep] =
    real && !dct
      ? [
          [sp, 2 * sp],
          [2 * sp, sp],
        ]
      : [
          [sp, sp],
          [sp, sp],
        ];
  const post = real && !dct ? fn('post', () => columnsPostFunction(e, sp)) : 0;
  const pre =
    real && !dct
      ? {
          direct: fn('pd', () => columnsPreFunction(e, sp, 'direct')),
          conj: fn('pc', () => columnsPreFunction(e, sp, 'conj')),
          edge: fn('pe', () => columnsPreFunction(e, sp, 'edge')),
        }
      : null;
  const dctPost = dct ? fn('dctPost', () => dctPostFunction(e, sp)) : 0;
  const dctPre = dct ? fn('dctPre', () => dctPreFunction(e, sp)) : 0;
  const mid = Math.floor(rows / 2);
  // The DCT's rotations (cos θ, sin θ for θ = πk/2n, k ≤ n/2) and a zero row (y_n) after the passes' twiddles.
  const dctTw = tw.length * e;
  const zeroRow = dctTw + 2 * (mid + 1) * e;
  const tables = dct ? new Float64Array(tw.length + 2 * (mid + 1) + sp / e) : tw;
  if (dct) {
    tables.set(tw);
    for (let k = 0; k <= mid; k++) {
      const theta = (Math.PI * k) / (2 * rows);
      tables[tw.length + 2 * k] = Math.cos(theta);
      tables[tw.length + 2 * k + 1] = Math.sin(theta);
    }
  }
  /**
   * A call's arguments: an i32 constant (a number), a local (`at(local)`), a local plus bytes (`at(local, bytes)`),
   * or a float constant of the module's precision ('one', 'half').
   */
  type Arg = number | readonly [number] | readonly [number, number] | 'one' | 'half';
  /** A local as a call argument, plus a byte offset where given. */
  const at = (local: number | undefined, plus?: number): Arg => (plus === undefined ? [local!] : [local!, plus]);
  const call = (b: Body, f: number, args: readonly Arg[]): void => {
    for (const a of args) {
      if (typeof a === 'number') b.i32(a);
      else if (a === 'one' || a === 'half') {
        const v = a === 'one' ? 1 : 0.5;
        const bytes = new Uint8Array(e === 4 ? new Float32Array([v]).buffer : new Float64Array([v]).buffer);
        b.op(e === 4 ? 0x43 : 0x44, ...bytes);
      } else {
        b.get(a[0]);
        if (a.length === 2) b.i32(a[1]).add();
      }
    }
    b.call(f);
  };
  for (const conj of [false, true]) {
    const [srcStep, dstStep] = conj ? outStep! : inStep!;
    const calls = r.colPasses.map((p, t) => {
      const inIo: Io = t === 0 ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' };
      const outIo: Io = t === last ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' };
      return fn(`${p.radix}/${p.l1}/${p.ido}/${p.generic ?? ''}/${JSON.stringify(inIo)}/${JSON.stringify(outIo)}`, () =>
        (p.generic ? genericPassFunction : passFunction)(p, e, inIo, outIo, scaleType),
      );
    });
    // DCT recipes take the factor of row 0 (its orthogonalisation) after the scale.
    const params: ValType[] = [...I32(6), scaleType, ...(dct ? [scaleType] : [])];
    const b = new Body(params);
    const [srcP, dstP, work, twP, k0, k1, scale, first0] = [0, 1, 2, 3, 4, 5, 6, 7];
    const [src, dst, k, work2, sIn, sOut] = [0, 1, 2, 3, 4, 5].map(() => b.local('i32'));
    b.get(work).i32(half).add().set(work2!);
    b.get(work).i32(stageIn).add().set(sIn!);
    b.get(work).i32(stageOut).add().set(sOut!);
    b.get(srcP).get(k0).i32(srcStep!).mul().add().set(src!);
    b.get(dstP).get(k0).i32(dstStep!).mul().add().set(dst!);
    b.get(k0).set(k!);
    b.block();
    b.get(k!).get(k1).op(0x4f /* i32.ge_u */).brIf(0);
    b.loop();
    // The stage's input: the matrix's rows, or the real steps' joins (rows k and n − k), or Makhoul's order.
    if (pre && conj) {
      // Row 0 and (even rows) row rows/2 lose their imaginary parts; rows above rows/2 are conjugates of rows below.
      call(b, pre.edge, [at(src), at(sIn), 1, 0, 0]);
      call(b, pre.direct, [at(src, X), at(sIn, sp), Math.floor((rows - 1) / 2), X, sp]);
      if (rows % 2 === 0) call(b, pre.edge, [at(src, mid * X), at(sIn, mid * sp), 1, 0, 0]);
      call(b, pre.conj, [at(src, (rows - mid - 1) * X), at(sIn, (mid + 1) * sp), rows - mid - 1, -X, sp]);
    } else if (dct && conj) {
      // Row 0 with the zero row as y_n, then rows k and n − k together.
      const row0 = [at(src, yRow(0) * rowBytes), at(twP, zeroRow), at(sIn), at(sIn)];
      call(b, dctPre, [...row0, 1, 0, 0, 0, 0, at(twP, dctTw), at(first0)]);
      const rows1 = [
        at(src, yRow(1) * rowBytes),
        at(src, yRow(rows - 1) * rowBytes),
        at(sIn, sp),
        at(sIn, (rows - 1) * sp),
      ];
      call(b, dctPre, [...rows1, mid, yStep, -yStep, sp, -sp, at(twP, dctTw + 2 * e), 'one']);
    } else if (dct) {
      // Makhoul's order: even rows ascending, then odd rows descending from the end.
      call(b, copy, [at(src), at(sIn), rows - mid, X, sp]);
      call(b, isDst ? negCopy : copy, [at(src, rowBytes), at(sIn, (rows - 1) * sp), mid, X, -sp]);
    } else call(b, copy, [at(src), at(sIn), rows, rowBytes, sp]);
    for (let q = 0; q < G; q++) {
      const first = b.local('i32');
      const target = b.local('i32');
      b.get(sIn!)
        .i32(q * gb)
        .add()
        .set(first);
      b.get(sOut!)
        .i32(q * gb)
        .add()
        .set(target);
      emitPassChain(b, calls, {
        first,
        target,
        work,
        work2: work2!,
        tw: twP,
        twOffsets: offsets,
        scale: (x) => x.get(scale),
        // A generic pass's scratch follows the second stage.
        scratch: {
          generic: r.colPasses.map((p) => p.generic === true),
          push: (x) =>
            x
              .get(work)
              .i32(stageOut + sp * rows)
              .add(),
        },
      });
    }
    // The stage's output: to the matrix's rows, or through the real steps' splits, or Makhoul's order undone.
    if (dct && conj) {
      // x_2m = v_m, x_(2m+1) = v_(n−1−m).
      call(b, copy, [at(sOut), at(dst), rows - mid, sp, X]);
      call(b, isDst ? negCopy : copy, [at(sOut, (rows - 1) * sp), at(dst, rowBytes), mid, -sp, X]);
    } else if (dct) {
      // Row 0 alone (its own partner), then rows k and n − k together.
      const row0 = [at(sOut), at(sOut), at(dst, yRow(0) * rowBytes), at(dst, yRow(0) * rowBytes)];
      call(b, dctPost, [...row0, 1, 0, 0, 0, 0, at(twP, dctTw), at(first0)]);
      const rows1 = [
        at(sOut, sp),
        at(sOut, (rows - 1) * sp),
        at(dst, yRow(1) * rowBytes),
        at(dst, yRow(rows - 1) * rowBytes),
      ];
      call(b, dctPost, [...rows1, mid, sp, -sp, yStep, -yStep, at(twP, dctTw + 2 * e), 'one']);
    } else if (real && !conj) {
      // Row 0 pairs with itself, row k with row rows − k (rows/2 with itself for even rows).
      call(b, post, [at(sOut), at(sOut), at(dst), 1, 0, 0, 0, 'half']);
      call(b, post, [at(sOut, sp), at(sOut, (rows - 1) * sp), at(dst, X), mid, sp, -sp, X, 'half']);
    } else call(b, copy, [at(sOut), at(dst), rows, sp, rowBytes]);
    b.get(src!).i32(srcStep!).add().set(src!);
    b.get(dst!).i32(dstStep!).add().set(dst!);
    b.get(k!).i32(1).add().tee(k!).get(k1).op(0x49 /* i32.lt_u */).brIf(0);
    b.end();
    b.end();
    funcs.push({ params, body: b, export: conj ? 'cI' : 'cF' });
  }
  return {
    bytes: assembleModule(funcs, { initialPages: 1, maxPages: 65536, shared: sharedMemory }),
    twiddles: tables,
    workBytes:
      stageOut + sp * rows + Math.max(0, ...r.colPasses.map((p) => (p.generic ? genericScratchBytes(p.radix) : 0))),
    blocks: r.cols / (W * G),
  };
}
