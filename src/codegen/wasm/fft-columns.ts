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
import {
  columnsPostFunction,
  columnsPreFunction,
  dctPostFunction,
  dctPreFunction,
  negatedRowsFunction,
} from './real-columns-pairs.js';

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
  const dst = dct && r.dst === true;
  const negCopy = dst ? fn('negCopy', () => negatedRowsFunction(sp, e)) : 0;
  /** Row of the DCT's k-th output (DST-II) or input (DST-III) row, and that row's step as k grows. */
  const yRow = (k: number): number => (dst ? rows - 1 - k : k);
  const yStep = dst ? -rowBytes : rowBytes;
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
  const halfConst = (b: Body): Body => (e === 4 ? b.op(0x43, 0, 0, 0, 0x3f) : b.op(0x44, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f));
  const oneConst = (b: Body): Body =>
    e === 4 ? b.op(0x43, 0, 0, 0x80, 0x3f) : b.op(0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f);
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
    if (pre && conj) {
      // Row 0 and (even rows) row rows/2 lose their imaginary parts; rows above rows/2 are conjugates of rows below.
      b.get(src!).get(sIn!).i32(1).i32(0).i32(0).call(pre.edge);
      b.get(src!)
        .i32(X)
        .add()
        .get(sIn!)
        .i32(sp)
        .add()
        .i32(Math.floor((rows - 1) / 2))
        .i32(X)
        .i32(sp)
        .call(pre.direct);
      if (rows % 2 === 0)
        b.get(src!)
          .i32(mid * X)
          .add()
          .get(sIn!)
          .i32(mid * sp)
          .add()
          .i32(1)
          .i32(0)
          .i32(0)
          .call(pre.edge);
      b.get(src!)
        .i32((rows - mid - 1) * X)
        .add()
        .get(sIn!)
        .i32((mid + 1) * sp)
        .add()
        .i32(rows - mid - 1)
        .i32(-X)
        .i32(sp)
        .call(pre.conj);
    } else if (dct && conj) {
      // Row 0 with the zero row as y_n, then rows k and n − k together.
      b.get(src!)
        .i32(yRow(0) * rowBytes)
        .add()
        .get(twP)
        .i32(zeroRow)
        .add()
        .get(sIn!)
        .get(sIn!)
        .i32(1)
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0);
      b.get(twP).i32(dctTw).add().get(first0!).call(dctPre);
      b.get(src!)
        .i32(yRow(1) * rowBytes)
        .add()
        .get(src!)
        .i32(yRow(rows - 1) * rowBytes)
        .add();
      b.get(sIn!)
        .i32(sp)
        .add()
        .get(sIn!)
        .i32((rows - 1) * sp)
        .add();
      b.i32(mid).i32(yStep).i32(-yStep).i32(sp).i32(-sp);
      oneConst(
        b
          .get(twP)
          .i32(dctTw + 2 * e)
          .add(),
      ).call(dctPre);
    } else if (dct) {
      // Makhoul's order: even rows ascending, then odd rows descending from the end.
      b.get(src!)
        .get(sIn!)
        .i32(rows - mid)
        .i32(X)
        .i32(sp)
        .call(copy);
      b.get(src!)
        .i32(rowBytes)
        .add()
        .get(sIn!)
        .i32((rows - 1) * sp)
        .add()
        .i32(mid)
        .i32(X)
        .i32(-sp)
        .call(dst ? negCopy : copy);
    } else b.get(src!).get(sIn!).i32(rows).i32(rowBytes).i32(sp).call(copy);
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
    if (dct && conj) {
      // Makhoul's order undone: x_2m = v_m, x_(2m+1) = v_(n−1−m).
      b.get(sOut!)
        .get(dst!)
        .i32(rows - mid)
        .i32(sp)
        .i32(X)
        .call(copy);
      b.get(sOut!)
        .i32((rows - 1) * sp)
        .add()
        .get(dst!)
        .i32(rowBytes)
        .add()
        .i32(mid)
        .i32(-sp)
        .i32(X)
        .call(dst ? negCopy : copy);
    } else if (dct) {
      b.get(sOut!)
        .get(sOut!)
        .get(dst!)
        .i32(yRow(0) * rowBytes)
        .add();
      b.get(dst!)
        .i32(yRow(0) * rowBytes)
        .add()
        .i32(1)
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0);
      b.get(twP).i32(dctTw).add().get(first0!).call(dctPost);
      b.get(sOut!)
        .i32(sp)
        .add()
        .get(sOut!)
        .i32((rows - 1) * sp)
        .add();
      b.get(dst!)
        .i32(yRow(1) * rowBytes)
        .add()
        .get(dst!)
        .i32(yRow(rows - 1) * rowBytes)
        .add();
      b.i32(mid).i32(sp).i32(-sp).i32(yStep).i32(-yStep);
      oneConst(
        b
          .get(twP)
          .i32(dctTw + 2 * e)
          .add(),
      ).call(dctPost);
    } else if (real && !conj) {
      // Row 0 pairs with itself, row k with row rows − k (rows/2 with itself for even rows).
      halfConst(b.get(sOut!).get(sOut!).get(dst!).i32(1).i32(0).i32(0).i32(0)).call(post);
      halfConst(
        b
          .get(sOut!)
          .i32(sp)
          .add()
          .get(sOut!)
          .i32((rows - 1) * sp)
          .add()
          .get(dst!)
          .i32(X)
          .add()
          .i32(mid)
          .i32(sp)
          .i32(-sp)
          .i32(X),
      ).call(post);
    } else b.get(sOut!).get(dst!).i32(rows).i32(sp).i32(rowBytes).call(copy);
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
