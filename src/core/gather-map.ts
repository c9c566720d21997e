/**
 * A linear map in which every output reads at most two inputs: out[k] = wa[k]·in[ia[k]] + wb[k]·in[ib[k]].
 * Signed permutations, the real-FFT folds k ↔ n − k and Makhoul's rotations are all of this form, so one
 * scalar gather kernel (codegen/wasm/gather.ts) and one JavaScript loop (applyGather) carry them out.
 */
export interface GatherMap {
  /** Inputs a row and outputs a row (ia.length). */
  readonly inLength: number;
  readonly ia: Int32Array;
  readonly ib: Int32Array;
  readonly wa: Float64Array;
  readonly wb: Float64Array;
}

export function emptyGather(inLength: number, outLength: number): GatherMap {
  return {
    inLength,
    ia: new Int32Array(outLength),
    ib: new Int32Array(outLength),
    wa: new Float64Array(outLength),
    wb: new Float64Array(outLength),
  };
}

/** `rows` rows: dst[d + r·ds + k] = wa·src[s + r·ss + ia] + wb·src[s + r·ss + ib]. */
export function applyGather(
  g: GatherMap,
  src: ArrayLike<number>,
  s: number,
  ss: number,
  dst: { [i: number]: number },
  d: number,
  ds: number,
  rows: number,
): void {
  const { ia, ib, wa, wb } = g;
  const m = ia.length;
  for (let r = 0; r < rows; r++, s += ss, d += ds)
    for (let k = 0; k < m; k++) dst[d + k] = wa[k]! * src[s + ia[k]!]! + wb[k]! * src[s + ib[k]!]!;
}
