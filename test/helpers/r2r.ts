/** The public DCT and DST functions beside their float64 references, for tests that check every type of each. */
import { dct, dst, idct, idst } from '../../src/index.js';
import * as cpuDct from '../../src/backends/cpu/r2r-dct.js';
import * as cpuDst from '../../src/backends/cpu/r2r-dst.js';

export const R2R_AND_REFERENCES = [
  ['dct', dct, cpuDct.dct],
  ['idct', idct, cpuDct.idct],
  ['dst', dst, cpuDst.dst],
  ['idst', idst, cpuDst.idst],
] as const;
