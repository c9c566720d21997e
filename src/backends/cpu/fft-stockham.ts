/**
 * Executes an FFT recipe on the CPU in float64: the same stages, index maps and twiddle exponents as the
 * generated WGSL (both taken from core/stockham.ts's stage maps), with exact arithmetic in place of f32. It is the executable specification of the GPU
 * kernels (a wrong recipe fails here, without a GPU) and the float64 result for recipe-shaped problems.
 */
import type { BluesteinFftRecipe, FftRecipe, FftStage, WorkgroupFftRecipe } from '../../planner/fft-recipe.js';
import type { FftProblem } from '../../planner/fft-problem.js';
import { fftProblem, normScale } from '../../planner/fft-problem.js';
import { bluesteinChirp, bluesteinFilter, unitRoot } from '../../planner/twiddles.js';
import { applyShuffleExchange, butterflyIndex, shuffleExchange } from '../../planner/fft-subgroup.js';
import { stockhamStageMaps, type StockhamStageMaps } from '../../core/stockham.js';

/** Runs `problem` as planned by `recipe` on interleaved complex data (float64 or float32 arrays). */
export function executeFftRecipe(
  recipe: FftRecipe,
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
): void {
  if (recipe.algorithm === 'stockham-multipass') {
    executeMultiPass(recipe.passes, problem, input, output);
    return;
  }
  if (recipe.algorithm === 'bluestein') {
    executeBluestein(recipe, problem, input, output);
    return;
  }
  executeWorkgroup(recipe, problem, input, output);
}

/**
 * A multi-pass recipe is a Stockham transform whose stage radices are whole sub-transforms: pass p is
 * the stage of radix R_p = pass.n and stride Ns = pass.pass.stride, its R_p-point DFT computed by the
 * pass's own stages — exactly what each pass kernel does.
 */
function executeMultiPass(
  passes: WorkgroupFftRecipe[],
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
): void {
  const { direction } = problem;
  // The pass's sub-transform, unscaled ('forward' norm leaves an inverse unscaled).
  const sub = (r: number) => fftProblem({ n: r, direction, norm: direction === 'inverse' ? 'forward' : 'backward' });
  const stages = passes.map((pass) => {
    const p = sub(pass.n);
    return {
      radix: pass.n,
      stride: pass.pass!.stride,
      dft: (v: Float64Array, w: Float64Array) => executeWorkgroup(pass, p, v, w),
    };
  });
  runStages(problem, input, output, stages);
}

function executeWorkgroup(
  recipe: WorkgroupFftRecipe,
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
): void {
  if (recipe.stages.some((st) => st.exchange === 'shuffle') || recipe.exchange === 'rounds') {
    executeWorkgroupInvocations(recipe, problem, input, output);
    return;
  }
  const sign = problem.direction === 'forward' ? -1 : 1;
  const stages = recipe.stages.map((st) => ({
    radix: st.radix,
    stride: st.stride,
    dft: (v: Float64Array, w: Float64Array) => smallDft(v, w, st.radix, sign),
  }));
  runStages(problem, input, output, stages);
}

interface Stage {
  radix: number;
  stride: number;
  /** The radix-point DFT of one butterfly's gathered, twiddled values (v → w). */
  dft(v: Float64Array, w: Float64Array): void;
}

/**
 * Every problem of the batch through the Stockham stages: butterfly j of a stage of radix R and stride
 * Ns gathers x[j + k·n/R]·W_{Ns·R}^{k·(j mod Ns)} (conjugated for the inverse), transforms them, and
 * scatters to ⌊j/Ns⌋·Ns·R + (j mod Ns) + k·Ns; then the output is scaled by the norm.
 */
function runStages(
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
  stages: Stage[],
): void {
  const { n, batch, direction } = problem;
  const sign = direction === 'forward' ? -1 : 1;
  const scale = normScale(n, direction, problem.norm);
  const maps = stageMaps(stages);
  let x = new Float64Array(2 * n);
  let y = new Float64Array(2 * n);
  const rmax = Math.max(...stages.map((s) => s.radix));
  const v = new Float64Array(2 * rmax);
  const w = new Float64Array(2 * rmax);
  for (let b = 0; b < batch; b++) {
    const ib = problem.input.offset + b * problem.input.dist;
    for (let e = 0; e < n; e++) {
      const at = 2 * (ib + e * problem.input.stride);
      x[2 * e] = input[at];
      x[2 * e + 1] = input[at + 1];
    }
    for (const [s, st] of stages.entries()) {
      const map = maps[s];
      for (let j = 0; j < map.butterflies; j++) {
        for (let k = 0; k < st.radix; k++) {
          const src = 2 * map.read(j, k);
          const tw = map.twiddleExponent(j, k);
          const [c, sn] = unitRoot(tw.num, tw.den);
          const si = sign === -1 ? sn : -sn;
          v[2 * k] = x[src] * c - x[src + 1] * si;
          v[2 * k + 1] = x[src] * si + x[src + 1] * c;
        }
        st.dft(v, w);
        for (let k = 0; k < st.radix; k++) {
          const dst = 2 * map.write(j, k);
          y[dst] = w[2 * k];
          y[dst + 1] = w[2 * k + 1];
        }
      }
      [x, y] = [y, x];
    }
    const ob = problem.output.offset + b * problem.output.dist;
    for (let e = 0; e < n; e++) {
      const at = 2 * (ob + e * problem.output.stride);
      output[at] = x[2 * e] * scale;
      output[at + 1] = x[2 * e + 1] * scale;
    }
  }
}

/**
 * A recipe with subgroup exchanges, invocation by invocation as the kernel runs it: each invocation's
 * registers (slot m·R + k), butterflies j from the stage's bit map, workgroup exchanges through a row in the
 * stages' write/read maps, and shuffle exchanges as register swaps between the lanes of each subgroup
 * (applyShuffleExchange), so a wrong bit map or swap list gives a wrong transform here too.
 */
function executeWorkgroupInvocations(
  recipe: WorkgroupFftRecipe,
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
): void {
  const { n, stages, invocationsPerProblem: L } = recipe;
  const sub = recipe.subgroupSize!;
  const P = n / L;
  const sign = problem.direction === 'forward' ? -1 : 1;
  const scale = normScale(n, problem.direction, problem.norm);
  const row = new Float64Array(2 * n);
  const v = new Float64Array(128);
  const w = new Float64Array(128);
  const exchanges = stages.map((st, s) => (st.exchange === 'shuffle' ? shuffleExchange(recipe, s) : null));
  const maps = stageMaps(stages);
  for (let b = 0; b < problem.batch; b++) {
    const ib = problem.input.offset + b * problem.input.dist;
    const ob = problem.output.offset + b * problem.output.dist;
    // regs[t][i]: invocation t's register i as [re, im].
    let regs: Float64Array[][] = Array.from({ length: L }, () => Array.from({ length: P }, () => new Float64Array(2)));
    stages.forEach((st, s) => {
      const R = st.radix;
      const map = maps[s];
      for (let t = 0; t < L; t++) {
        for (let m = 0; m < st.butterfliesPerInvocation; m++) {
          const j = butterflyIndex(st, t + m * L);
          for (let k = 0; k < R; k++) {
            let re: number;
            let im: number;
            if (s === 0) {
              const at = 2 * (ib + map.read(j, k) * problem.input.stride);
              re = input[at];
              im = input[at + 1];
            } else [re, im] = regs[t][m * R + k];
            const tw = map.twiddleExponent(j, k);
            const [c, s0] = unitRoot(tw.num, tw.den);
            const si = sign === -1 ? s0 : -s0;
            v[2 * k] = re * c - im * si;
            v[2 * k + 1] = re * si + im * c;
          }
          smallDft(v, w, R, sign);
          for (let k = 0; k < R; k++) {
            if (s === stages.length - 1) {
              const at = 2 * (ob + map.write(j, k) * problem.output.stride);
              output[at] = w[2 * k] * scale;
              output[at + 1] = w[2 * k + 1] * scale;
            } else regs[t][m * R + k].set([w[2 * k], w[2 * k + 1]]);
          }
        }
      }
      if (s === stages.length - 1) return;
      const ex = exchanges[s];
      if (ex) {
        for (let t0 = 0; t0 < L; t0 += sub) applyShuffleExchange(regs.slice(t0, t0 + sub), ex);
        return;
      }
      if (recipe.exchange === 'rounds') {
        regs = roundsExchange(regs, st, stages[s + 1], map, maps[s + 1], L);
        return;
      }
      // Workgroup exchange: write with this stage's map, read with the next stage's.
      for (let t = 0; t < L; t++) {
        for (let m = 0; m < st.butterfliesPerInvocation; m++) {
          const j = butterflyIndex(st, t + m * L);
          for (let k = 0; k < R; k++) row.set(regs[t][m * R + k], 2 * map.write(j, k));
        }
      }
      const nx = stages[s + 1];
      const next = maps[s + 1];
      for (let t = 0; t < L; t++) {
        for (let m = 0; m < nx.butterfliesPerInvocation; m++) {
          const j = butterflyIndex(nx, t + m * L);
          for (let k = 0; k < nx.radix; k++) {
            const at = 2 * next.read(j, k);
            regs[t][m * nx.radix + k].set(row.subarray(at, at + 2));
          }
        }
      }
    });
  }
}

/**
 * The 'rounds' exchange as the kernel runs it (planner/fft-rounds.ts): round q writes every invocation's group q
 * into one block of L·R values, then each invocation reads the next stage's values that block holds. A write
 * or read outside the round's block, or a read of a value no invocation wrote in that round, is a planner bug.
 */
function roundsExchange(
  regs: Float64Array[][],
  st: FftStage,
  nx: FftStage,
  map: StockhamStageMaps,
  next: StockhamStageMaps,
  L: number,
): Float64Array[][] {
  const R = st.radix;
  const size = L * R;
  const block = new Float64Array(2 * size);
  const out = regs.map((r) => r.map(() => new Float64Array(2)));
  const taken = regs.map((r) => r.map(() => false));
  const inBlock = (pos: number, q: number, what: string) => {
    const at = pos - q * size;
    if (at < 0 || at >= size) throw new Error(`rounds exchange: ${what} position ${pos} is outside round ${q}'s block`);
    return at;
  };
  for (let q = 0; q < st.butterfliesPerInvocation; q++) {
    block.fill(NaN);
    for (let t = 0; t < L; t++) {
      for (let k = 0; k < R; k++) block.set(regs[t][q * R + k], 2 * inBlock(map.write(t + q * L, k), q, 'write'));
    }
    // As the kernel: round q reads slots q·R … q·R + R − 1 (slot σ = m + k·P/R' is butterfly m's element k).
    for (let t = 0; t < L; t++) {
      for (let slot = q * R; slot < (q + 1) * R; slot++) {
        const m = slot % nx.butterfliesPerInvocation;
        const k = Math.floor(slot / nx.butterfliesPerInvocation);
        const at = inBlock(next.read(t + m * L, k), q, 'read');
        if (Number.isNaN(block[2 * at])) throw new Error(`rounds exchange: round ${q} reads an unwritten value`);
        out[t][m * nx.radix + k].set(block.subarray(2 * at, 2 * at + 2));
        taken[t][m * nx.radix + k] = true;
      }
    }
  }
  if (taken.some((r) => r.includes(false))) throw new Error('rounds exchange: a register was never read');
  return out;
}

const UNIT_STAGE: StockhamStageMaps = {
  stage: 0,
  size: 1,
  radix: 1,
  stride: 1,
  butterflies: 1,
  readLayout: [],
  writeLayout: [],
  read: () => 0,
  write: () => 0,
  twiddleExponent: () => ({ num: 0, den: 1 }),
};

/**
 * The core's Stockham stage maps for a recipe's stages (read, write and twiddle exponents); a stage whose
 * recorded stride is not the product of the earlier radices is a planner bug, refused here.
 */
function stageMaps(stages: readonly { radix: number; stride: number }[]): StockhamStageMaps[] {
  const radices = stages.map((st) => st.radix);
  // n = 1: one radix-1 stage, the identity (digit layouts start at radix 2).
  if (radices.length === 1 && radices[0] === 1) return [UNIT_STAGE];
  return stages.map((st, s) => {
    const map = stockhamStageMaps(radices, s);
    if (map.stride !== st.stride) throw new Error(`stage ${s}: stride ${st.stride}, the radices give ${map.stride}`);
    return map;
  });
}

/** Direct R-point DFT (R ≤ 64) with accurate roots of unity. */
function smallDft(v: Float64Array, out: Float64Array, r: number, sign: number): void {
  for (let k = 0; k < r; k++) {
    let re = 0;
    let im = 0;
    for (let i = 0; i < r; i++) {
      const [c, s0] = unitRoot(i * k, r);
      const s = sign === -1 ? s0 : -s0;
      re += v[2 * i] * c - v[2 * i + 1] * s;
      im += v[2 * i] * s + v[2 * i + 1] * c;
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
}

/** Bluestein as the GPU runs it: chirp, L-point forward, multiply by the filter spectrum, inverse, chirp. */
function executeBluestein(
  recipe: BluesteinFftRecipe,
  problem: FftProblem,
  input: ArrayLike<number>,
  output: Float64Array | Float32Array,
): void {
  const { n, L } = recipe;
  const scale = normScale(n, problem.direction, problem.norm);
  const w = bluesteinChirp(n, problem.direction);
  const contiguous = { offset: 0, stride: 1, dist: L };
  const fwd = {
    n: L,
    batch: 1,
    direction: 'forward' as const,
    norm: 'backward' as const,
    input: contiguous,
    output: contiguous,
  };
  const inv = { ...fwd, direction: 'inverse' as const };
  const b = bluesteinFilter(w, n, L);
  const B = new Float64Array(2 * L);
  executeFftRecipe(recipe.inner, fwd, b, B);
  const a = new Float64Array(2 * L);
  const A = new Float64Array(2 * L);
  const c = new Float64Array(2 * L);
  for (let p = 0; p < problem.batch; p++) {
    a.fill(0);
    for (let j = 0; j < n; j++) {
      const at = 2 * (problem.input.offset + p * problem.input.dist + j * problem.input.stride);
      const xr = input[at],
        xi = input[at + 1];
      a[2 * j] = xr * w[2 * j] - xi * w[2 * j + 1];
      a[2 * j + 1] = xr * w[2 * j + 1] + xi * w[2 * j];
    }
    executeFftRecipe(recipe.inner, fwd, a, A);
    for (let k = 0; k < L; k++) {
      const re = A[2 * k] * B[2 * k] - A[2 * k + 1] * B[2 * k + 1];
      const im = A[2 * k] * B[2 * k + 1] + A[2 * k + 1] * B[2 * k];
      A[2 * k] = re;
      A[2 * k + 1] = im;
    }
    executeFftRecipe(recipe.inner, inv, A, c); // 'backward' inverse carries the 1/L
    for (let k = 0; k < n; k++) {
      const at = 2 * (problem.output.offset + p * problem.output.dist + k * problem.output.stride);
      output[at] = scale * (c[2 * k] * w[2 * k] - c[2 * k + 1] * w[2 * k + 1]);
      output[at + 1] = scale * (c[2 * k] * w[2 * k + 1] + c[2 * k + 1] * w[2 * k]);
    }
  }
}
