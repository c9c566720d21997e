/**
 * Straight-line WGSL for a small DFT held in registers (the radix-R butterfly Υ^R).
 *
 * Powers of two are split recursively (radix-2 decimation in time) so radix 4, 8, 16 (and up to 64) come
 * out with every twiddle a folded literal and the trivial ones (±1, ±i, (±1±i)/√2) turned into swaps and
 * sign changes instead of multiplications. Odd radices use the symmetric-pair form
 * out_k = x0 + Σ (x_i + x_{R−i})·cos θ_ik ± i·(x_i − x_{R−i})·sin θ_ik, which halves the multiplies;
 * composite odd radices split into their prime factors first (emitSplit).
 * Values are vec2<f32> (re, im).
 */

export interface DftEmitter {
  lines: string[];
  fresh(prefix?: string): string;
}

export function dftEmitter(prefix = 't'): DftEmitter {
  let counter = 0;
  const lines: string[] = [];
  return { lines, fresh: (p = prefix) => `${p}${counter++}` };
}

/** Formats a float literal for WGSL with full f32 precision. */
export function f32(x: number): string {
  if (Object.is(x, -0) || x === 0) return '0.0';
  const s = x.toPrecision(9);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

/**
 * Multiplies the complex value `x` (an expression) by e^{sign·2πi·k/m}; returns an expression or a fresh
 * variable name. sign = −1 for the forward transform.
 */
export function twiddleExpr(_em: DftEmitter, x: string, k: number, m: number, sign: 1 | -1): string {
  const g = gcd(k, m);
  k /= g;
  m /= g;
  k %= m;
  if (k === 0) return x;
  // Exact eighth-turns: use swaps and sign flips, and one shared multiply by √½.
  if (8 % m === 0) {
    const e = ((k * (8 / m)) % 8) * sign; // multiples of 45°, signed
    const q = ((e % 8) + 8) % 8;
    switch (q) {
      case 2:
        return `vec2<f32>(-(${x}).y, (${x}).x)`; // ·i
      case 4:
        return `(-(${x}))`;
      case 6:
        return `vec2<f32>((${x}).y, -(${x}).x)`; // ·(−i)
      case 1:
        return `(vec2<f32>((${x}).x - (${x}).y, (${x}).x + (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 3:
        return `(vec2<f32>(-(${x}).x - (${x}).y, (${x}).x - (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 5:
        return `(vec2<f32>((${x}).y - (${x}).x, -(${x}).x - (${x}).y) * ${f32(Math.SQRT1_2)})`;
      case 7:
        return `(vec2<f32>((${x}).x + (${x}).y, (${x}).y - (${x}).x) * ${f32(Math.SQRT1_2)})`;
    }
  }
  const a = (sign * 2 * Math.PI * k) / m;
  return `cmul(${x}, vec2<f32>(${f32(Math.cos(a))}, ${f32(Math.sin(a))}))`;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}

/**
 * Emits the DFT of the values named in `inputs` (natural order), returning the names holding the outputs
 * in natural order. `sign` = −1 forward, +1 inverse (unscaled).
 */
export function emitDft(em: DftEmitter, inputs: string[], sign: 1 | -1): string[] {
  const r = inputs.length;
  if (r === 1) return inputs.slice();
  if ((r & (r - 1)) === 0) return emitPow2(em, inputs, sign);
  // Composites split by their smallest prime factor (decimation in time), the rest recursively: even ones
  // (6, 10, 12, …) by 2, odd ones (9, 15, 25, 27, …) by 3, 5, …, so a 27-point DFT is three levels of
  // 3-point ones with folded twiddles instead of the O(r²) symmetric-pair sums of an odd prime.
  const p = smallestPrimeFactor(r);
  return p === r ? emitOdd(em, inputs, sign) : emitSplit(em, inputs, sign, p);
}

function emitPow2(em: DftEmitter, x: string[], sign: 1 | -1): string[] {
  const r = x.length;
  if (r === 2) {
    const a = em.fresh();
    const b = em.fresh();
    em.lines.push(`let ${a} = ${x[0]} + ${x[1]};`, `let ${b} = ${x[0]} - ${x[1]};`);
    return [a, b];
  }
  return emitSplit(em, x, sign, 2);
}

function smallestPrimeFactor(n: number): number {
  for (let p = 2; p * p <= n; p++) if (n % p === 0) return p;
  return n;
}

/**
 * Decimation in time by a factor p of r = p·q: the p interleaved subsequences x[j + p·m] as q-point DFTs
 * Y_j, then for each k the p values W_r^{jk}·Y_j[k] through a p-point DFT, whose output l is X[k + q·l]
 * (p = 2: the radix-2 butterflies of the power-of-two split, trivial twiddles as swaps and sign changes).
 */
function emitSplit(em: DftEmitter, x: string[], sign: 1 | -1, p: number): string[] {
  const r = x.length;
  const q = r / p;
  const sub = Array.from({ length: p }, (_, j) =>
    emitDft(
      em,
      x.filter((_, i) => i % p === j),
      sign,
    ),
  );
  const out: string[] = new Array(r);
  for (let k = 0; k < q; k++) {
    const col = sub.map((y, j) => {
      const tw = twiddleExpr(em, y[k], j * k, r, sign);
      if (tw === y[k]) return tw;
      const t = em.fresh();
      em.lines.push(`let ${t} = ${tw};`);
      return t;
    });
    const y = emitDft(em, col, sign);
    for (let l = 0; l < p; l++) out[k + q * l] = y[l];
  }
  return out;
}

function emitOdd(em: DftEmitter, x: string[], sign: 1 | -1): string[] {
  const r = x.length;
  const half = (r - 1) / 2;
  const s: string[] = [];
  const d: string[] = [];
  for (let i = 1; i <= half; i++) {
    const si = em.fresh('s');
    const di = em.fresh('d');
    em.lines.push(`let ${si} = ${x[i]} + ${x[r - i]};`, `let ${di} = ${x[i]} - ${x[r - i]};`);
    s.push(si);
    d.push(di);
  }
  const out: string[] = [];
  const y0 = em.fresh();
  em.lines.push(`let ${y0} = ${[x[0], ...s].join(' + ')};`);
  out.push(y0);
  // For each output pair (k, r−k): a = x0 + Σ s_i cos θ_ik, b = Σ d_i sin θ_ik; y_k = a + sign·i·b, y_{r−k} = a − sign·i·b.
  const pairs: [string, string][] = [];
  for (let k = 1; k <= half; k++) {
    const a = em.fresh('a');
    const b = em.fresh('b');
    const cosTerms = s.map((si, i) => `${si} * ${f32(Math.cos((2 * Math.PI * (i + 1) * k) / r))}`);
    const sinTerms = d.map((di, i) => `${di} * ${f32(Math.sin((2 * Math.PI * (i + 1) * k) / r))}`);
    em.lines.push(`let ${a} = ${x[0]} + ${cosTerms.join(' + ')};`, `let ${b} = ${sinTerms.join(' + ')};`);
    const yk = em.fresh();
    const yr = em.fresh();
    // i·b = (−b.y, b.x)
    const ib = `vec2<f32>(-${b}.y, ${b}.x)`;
    if (sign === 1) em.lines.push(`let ${yk} = ${a} + ${ib};`, `let ${yr} = ${a} - ${ib};`);
    else em.lines.push(`let ${yk} = ${a} - ${ib};`, `let ${yr} = ${a} + ${ib};`);
    pairs.push([yk, yr]);
  }
  for (let k = 1; k <= half; k++) out[k] = pairs[k - 1][0];
  for (let k = 1; k <= half; k++) out[r - k] = pairs[k - 1][1];
  return out;
}
