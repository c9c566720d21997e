/**
 * The largest magnitudes of paired rows, for the pairs path (rfft-pairs.ts), whose two rows share one complex
 * transform and so its rounding: the backend scales a much smaller row up before pairing, and keeps a row holding
 * NaN or ±Inf out of its partner's transform (src/backends/cpu/wasm-fft.ts, balancePairs).
 *
 *   pairmax(x, len, pairs, out, flag): rows 2p and 2p+1 of `len` values from x (packed): their largest |x| at out
 *     (two values a pair, NaN for a row holding NaN or ±Inf), and at flag a value other than zero where any pair's
 *     two differ by more than a factor of BALANCE, either is NaN, or either is non-zero outside PAIR_RANGE. Balanced
 *     calls then cost the caller one read.
 *
 * Each row: two accumulators of pmax (a single instruction; wasm's max is several, for its NaN rule) and two masks
 * of |x| ≤ the largest finite value, which NaN and ±Inf fail; the lanes then reduced by the NaN-propagating max.
 * Needs len ≥ 2W: the last vectors of a row are taken apart from the loop over pairs of vectors (overlapping where W
 * does not divide len, harmless for a maximum).
 */
import { Body, type ValType, type WasmFunction } from './assembler.js';

/** How far apart (a factor) two paired rows' largest magnitudes may be before the caller balances them. */
export const PAIR_BALANCE = 4;

/**
 * Largest magnitudes a line may have without being scaled to about 1, by element bytes. Float32 lines beyond them
 * lose accuracy to subnormals (an inverse's 1/n comes first: irfft of 1e-40 gave 3e-2 relative error) or overflow in
 * the sums; inside them, an FFT of up to 2^27 points keeps every intermediate normal and finite. Float64 lines need
 * no range (its ends are 10^±300 away from any data an FFT sees; numpy does not scale them either).
 */
export const PAIR_RANGE: Record<4 | 8, readonly [number, number]> = { 4: [2 ** -96, 2 ** 96], 8: [0, Infinity] };

const bytesOf = (e: 4 | 8, lanes: readonly number[]): number[] =>
  lanes.flatMap((l) => Array.from({ length: e }, (_, i) => l * e + i));

export function pairMaxFunction(e: 4 | 8): WasmFunction {
  const W = 16 / e;
  const params: ValType[] = ['i32', 'i32', 'i32', 'i32', 'i32'];
  const b = new Body(params);
  const [x, len, pairs, out, flag] = [0, 1, 2, 3, 4];
  const [p, g, end] = [b.local('i32'), b.local('i32'), b.local('i32')];
  const [acc0, acc1, ok0, ok1, v, big, four, bad, mA, mB, low, high, zero] = Array.from({ length: 13 }, () =>
    b.local('v128'),
  );
  b.inPrologue(() => {
    b.vconst(e, new Array(W).fill(e === 4 ? 3.4028234663852886e38 : Number.MAX_VALUE)).set(big!);
    b.vconst(e, new Array(W).fill(PAIR_BALANCE)).set(four!);
    b.vconst(e, new Array(W).fill(0)).set(bad!);
    b.vconst(e, new Array(W).fill(0)).set(zero!);
    b.vconst(e, new Array(W).fill(PAIR_RANGE[e][0])).set(low!);
    b.vconst(e, new Array(W).fill(PAIR_RANGE[e][1])).set(high!);
  });
  /** The vector at the address on the stack (plus offset) into the accumulators (acc, ok). */
  const take = (acc: number, ok: number, offset = 0): void => {
    b.v128Load(offset).fabs(e).set(v!);
    b.get(acc).get(v!).fpmax(e).set(acc);
    b.get(ok).get(v!).get(big!).fle(e).v128And().set(ok);
  };
  /** The row at x into `m` (every lane its largest |x|, or NaN), x moved past it. */
  const rowMax = (m: number): void => {
    b.get(x).get(len).i32(e).mul().add().set(end);
    // The row's last W values first, which also start both accumulators.
    b.get(end).i32(-16).add().v128Load(0).fabs(e).tee(acc0!).set(acc1!);
    b.get(acc0!).get(big!).fle(e).tee(ok0!).set(ok1!);
    // The last whole vector (index ⌊len/W⌋ − 1), then ⌊len/2W⌋ pairs of vectors from the start.
    b.get(x).get(len).i32(W).op(0x6e).i32(16).mul().add().i32(-16).add(); // i32.div_u
    take(acc1!, ok1!);
    b.get(x).set(p);
    b.get(len)
      .i32(2 * W)
      .op(0x6e)
      .set(g);
    b.loop();
    b.get(p);
    take(acc0!, ok0!);
    b.get(p);
    take(acc1!, ok1!, 16);
    b.get(p).i32(32).add().set(p);
    b.get(g).i32(1).sub().tee(g).brIf(0);
    b.end();
    // Lanes that saw a non-finite value become NaN (all bits set), then every lane the maximum of all.
    b.get(acc0!).get(acc1!).fpmax(e).get(ok0!).get(ok1!).v128And().v128Not().v128Or().set(m);
    const swaps =
      e === 8
        ? [[1, 0]]
        : [
            [2, 3, 0, 1],
            [1, 0, 3, 2],
          ];
    for (const s of swaps) b.get(m).get(m).get(m).shuffle(bytesOf(e, s)).fmax(e).set(m);
    b.get(end).set(x);
  };
  b.loop();
  rowMax(mA!);
  rowMax(mB!);
  const lane0 = (offset: number): unknown => (e === 4 ? b.store32Lane(offset, 0) : b.store64Lane(offset, 0));
  b.get(out).get(mA!);
  lane0(0);
  b.get(out).get(mB!);
  lane0(e);
  b.get(out)
    .i32(2 * e)
    .add()
    .set(out);
  // Unbalanced: not (a ≤ 4b and b ≤ 4a), which NaN fails too.
  b.get(bad)
    .get(mA!)
    .get(four!)
    .get(mB!)
    .fmul(e)
    .fle(e)
    .get(mB!)
    .get(four!)
    .get(mA!)
    .fmul(e)
    .fle(e)
    .v128And()
    .v128Not()
    .v128Or()
    .set(bad!);
  // Out of range: not (low ≤ m ≤ high, or m ≤ 0), for either row.
  const inRange = (m: number): void => {
    b.get(low!).get(m).fle(e).get(m).get(high!).fle(e).v128And().get(m).get(zero!).fle(e).v128Or();
  };
  b.get(bad);
  inRange(mA!);
  inRange(mB!);
  b.v128And().v128Not().v128Or().set(bad!);
  b.get(pairs).i32(1).sub().tee(pairs).brIf(0);
  b.end();
  b.get(flag).get(bad!).v128Store(0);
  return { params, body: b, export: 'pairmax' };
}
