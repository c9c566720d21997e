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
  for (const conj of [false, true]) {
    const calls = r.colPasses.map((p, t) => {
      const inIo: Io = t === 0 ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' };
      const outIo: Io = t === last ? { kind: 'interleaved', conj, unit: sp } : { kind: 'split' };
      return fn(`${p.radix}/${p.l1}/${p.ido}/${p.generic ?? ''}/${JSON.stringify(inIo)}/${JSON.stringify(outIo)}`, () =>
        (p.generic ? genericPassFunction : passFunction)(p, e, inIo, outIo, scaleType),
      );
    });
    const params: ValType[] = [...I32(6), scaleType];
    const b = new Body(params);
    const [srcP, dstP, work, twP, k0, k1, scale] = [0, 1, 2, 3, 4, 5, 6];
    const [src, dst, k, work2, sIn, sOut] = [0, 1, 2, 3, 4, 5].map(() => b.local('i32'));
    b.get(work).i32(half).add().set(work2!);
    b.get(work).i32(stageIn).add().set(sIn!);
    b.get(work).i32(stageOut).add().set(sOut!);
    b.get(srcP).get(k0).i32(sp).mul().add().set(src!);
    b.get(dstP).get(k0).i32(sp).mul().add().set(dst!);
    b.get(k0).set(k!);
    b.block();
    b.get(k!).get(k1).op(0x4f /* i32.ge_u */).brIf(0);
    b.loop();
    b.get(src!).get(sIn!).i32(rows).i32(rowBytes).i32(sp).call(copy);
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
    b.get(sOut!).get(dst!).i32(rows).i32(sp).i32(rowBytes).call(copy);
    b.get(src!).i32(sp).add().set(src!);
    b.get(dst!).i32(sp).add().set(dst!);
    b.get(k!).i32(1).add().tee(k!).get(k1).op(0x49 /* i32.lt_u */).brIf(0);
    b.end();
    b.end();
    funcs.push({ params, body: b, export: conj ? 'cI' : 'cF' });
  }
  return {
    bytes: assembleModule(funcs, { initialPages: 1, maxPages: 65536, shared: sharedMemory }),
    twiddles: tw,
    workBytes:
      stageOut + sp * rows + Math.max(0, ...r.colPasses.map((p) => (p.generic ? genericScratchBytes(p.radix) : 0))),
    blocks: r.cols / (W * G),
  };
}
