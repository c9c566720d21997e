/**
 * DCT-IV (and DST-IV) of odd length n through one real FFT of the same length n, by the prime-factor split of
 * the 8n-point DFT that underlies the DCT-IV (Chan and Ho, 1992):
 *
 *   y_k = 2 Σ_j x_j cos(2π·t·s / 8n),  t = 2j + 1, s = 2k + 1.
 *
 * With integers u, v such that u·n + 8·v = 1, ts/8n ≡ φσ/8 + p·q/n (mod 1), where φ = t·u mod 8, σ = s mod 8,
 * p = t·v mod n and q = s mod n. φ and σ are odd, so cos(πφσ/4) = ε1(φ)ε1(σ)/√2 and sin(πφσ/4) = ε2(φ)ε2(σ)/√2
 * with the real characters mod 8 ε1 = (+, −, −, +) and ε2 = (+, +, −, −) on (1, 3, 5, 7). Hence
 *
 *   y_k = √2 (ε1(σ)·Σ_p a_p cos(2πpq/n) − ε2(σ)·Σ_p b_p sin(2πpq/n)),  a_p = ε1(φ)·x_j, b_p = ε2(φ)·x_j,
 *
 * and since only the even part of a and the odd part of b survive, both sums come from the one real sequence
 * c_p = (a_p + a_{n−p} + b_p − b_{n−p}) / 2, a signed permutation of x: with X = FFT_n(c),
 *
 *   y_k = √2 (ε1(σ)·Re X_q + ε2(σ)·Im X_q),  X_q = conj(X_{n−q}) for q > (n − 1)/2.
 *
 * DST-IV(x)_k = (−1)^k DCT-IV(x reversed)_k folds into the same two maps.
 */
import { emptyGather, type GatherMap } from './gather-map.js';

const EPS1 = [0, 1, 0, -1, 0, -1, 0, 1];
const EPS2 = [0, 1, 0, 1, 0, -1, 0, -1];
const mod = (a: number, m: number): number => ((a % m) + m) % m;

/**
 * pre: n inputs → the real sequence c (n values); post: the half spectrum of c ((n + 1)/2 complex values,
 * interleaved) → the n outputs. `sine`: the DST-IV.
 */
export function dct4OddGathers(n: number, sine = false): { pre: GatherMap; post: GatherMap } {
  if (!Number.isSafeInteger(n) || n < 1 || n % 2 === 0) throw new Error(`dct4OddGathers: odd n, not ${n}`);
  // u = n⁻¹ mod 8 (n odd: n² ≡ 1 mod 8), v = (1 − u·n)/8, both reduced so that the products stay exact.
  const u = n % 8;
  const v = mod((1 - u * n) / 8, n);
  const pre = emptyGather(n, n);
  const jOf = new Int32Array(n);
  const phiOf = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    const t = 2 * j + 1;
    const p = Number((BigInt(t) * BigInt(v)) % BigInt(n));
    jOf[p] = j;
    phiOf[p] = (t * u) % 8;
  }
  const input = (j: number): number => (sine ? n - 1 - j : j);
  // c_p is ±x_j (φ = 1, 5) or ±x_{j'} (φ = 3, 7), j' the input of n − p: one term each (p = 0: j' = j, φ = 1).
  for (let p = 0; p < n; p++) {
    const r = p === 0 ? 0 : n - p;
    const [f, g] = [phiOf[p]!, phiOf[r]!];
    const a = (EPS1[f]! + EPS2[f]!) / 2;
    pre.ia[p] = pre.ib[p] = input(jOf[a !== 0 ? p : r]!);
    pre.wa[p] = a !== 0 ? a : (EPS1[g]! - EPS2[g]!) / 2;
  }
  const half = (n - 1) / 2;
  const post = emptyGather(2 * (half + 1), n);
  for (let k = 0; k < n; k++) {
    const s = 2 * k + 1;
    const sigma = s % 8;
    let q = s % n;
    let im = 1;
    if (q > half) {
      q = n - q;
      im = -1;
    }
    const sign = sine && k % 2 === 1 ? -1 : 1;
    post.ia[k] = 2 * q;
    post.wa[k] = sign * Math.SQRT2 * EPS1[sigma]!;
    post.ib[k] = 2 * q + 1;
    post.wb[k] = sign * im * Math.SQRT2 * EPS2[sigma]!;
  }
  return { pre, post };
}
