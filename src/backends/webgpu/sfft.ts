/**
 * WebGPU executor of sparse FFT recipes. All steps of a path are recorded into one command encoder —
 * hashing (permutation + filter + aliasing), batched B-point FFTs (our Stockham FFT), cutoff, voting,
 * estimation, or the exact path's stages of subtraction and decoding — and only the result lists come
 * back to the host. The verification hashing runs in the same hash dispatch; subtracting the final result
 * from it is a second, small submission (the result must exist first).
 *
 * On a GPU every dependent dispatch costs a few microseconds however small, so the exact path is a short
 * fixed chain (6 dispatches with one peeling stage, no clear commands): all rounds hashed in one dispatch,
 * one batched FFT, one dispatch per stage (subtract, decode all rounds, keep each frequency once, bin for
 * the next stage), a final subtraction and the estimation. Nothing in it grows with n but the range of
 * the hashing's reads.
 *
 * Buffers are made once per plan; the input buffer is bound per call (bind groups cached per buffer).
 */
import { ArgumentError, DestroyedError, DeviceLimitError } from '../../errors.js';
import type { GpuContext } from './device.js';
import { createStorageBuffer } from './device.js';
import { getPipeline } from './pipelines.js';
import { dispatchGrid } from '../../planner/dispatch.js';
import type { KernelSource } from '../../codegen/kernel-source.js';
import { WebGpuFft } from './fft.js';
import { fftProblem } from '../../planner/fft-problem.js';
import type { SfftFilter, SfftLoop, SfftRecipe } from '../../planner/sfft.js';
import { buildSfftFilter } from '../cpu/sfft-filter.js';
import {
  binKernel,
  COEF_BYTES,
  COUNTER_WORDS,
  cutoffKernel,
  aliasKernel,
  estimateKernel,
  gatherKernel,
  exactStageKernel,
  hashKernel,
  P_BYTES,
  peelKernel,
  reduceKernel,
  SFFT_WG,
  voteKernel,
  type BucketConsts,
} from '../../codegen/sfft-kernels.js';
import { refineLargest, REFINE } from '../cpu/sfft-refine.js';
import {
  exactTau2,
  mergeCoefficients,
  residualStats,
  topK,
  type SfftCoefficients,
  type SfftResidual,
  type SfftPathResult,
  type SignalArray,
} from '../cpu/sfft.js';
import { planCpuFft } from '../cpu/fft-plan.js';

const NONE = 0xffffffff;

interface Program {
  pipeline: GPUComputePipeline;
  src: KernelSource;
}

interface Step {
  prog: Program;
  bind: Record<number, GPUBuffer>;
  grid: [number, number];
}

/** Two-level phase tables e^{2πi m/n}: high part (m >> lo) and low part (m & (2^lo − 1)), f64 → f32. */
function twiddleTables(n: number): { lo: number; hi: Float32Array; low: Float32Array } {
  const lo = Math.ceil(Math.log2(n) / 2);
  const nLo = 2 ** lo;
  const nHi = n / nLo;
  const hi = new Float32Array(2 * nHi);
  const low = new Float32Array(2 * nLo);
  for (let i = 0; i < nHi; i++) {
    const a = (2 * Math.PI * i * nLo) / n;
    hi[2 * i] = Math.cos(a);
    hi[2 * i + 1] = Math.sin(a);
  }
  for (let i = 0; i < nLo; i++) {
    const a = (2 * Math.PI * i) / n;
    low[2 * i] = Math.cos(a);
    low[2 * i + 1] = Math.sin(a);
  }
  return { lo, hi, low };
}

/**
 * The sorted gather's tables: for every hashing (σ, τ) and non-zero filter tap i, the signal index
 * (σ·(i − W/2) + τ) mod n (as hashToBins) and the destination hashing·W + i, in ascending index order.
 */
export function sortedTaps(
  hashings: { sigma: number; tau: number }[],
  filt: SfftFilter,
  n: number,
): { addr: Uint32Array; dest: Uint32Array } {
  const { W, time } = filt;
  const half = W / 2;
  const mask = n - 1;
  const taps: number[] = [];
  for (let i = 0; i < W; i++) if (time[i] !== 0) taps.push(i);
  const count = hashings.length * taps.length;
  const addr = new Uint32Array(count);
  const dest = new Uint32Array(count);
  let c = 0;
  hashings.forEach((h, s) => {
    for (const i of taps) {
      addr[c] = (Math.imul(h.sigma | 0, i - half) + h.tau) & mask;
      dest[c] = s * W + i;
      c++;
    }
  });
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => addr[a] - addr[b] || a - b);
  return { addr: order.map((i) => addr[i]), dest: order.map((i) => dest[i]) };
}

function pWords(loop: SfftLoop, tau2: number, uSlot: number, vSlot: number, round: number, mode: number): Uint32Array {
  return new Uint32Array([loop.sigma, loop.sigmaInv, loop.tau, tau2, uSlot, vSlot, round, mode]);
}

interface ExactState {
  R: number;
  B: number;
  filt: SfftFilter;
  u: GPUBuffer;
  U: GPUBuffer;
  fft: WebGpuFft;
  list: GPUBuffer;
  corr: GPUBuffer;
  partials: GPUBuffer;
  /** Words of `partials` holding round 0's energy. */
  np: number;
  /** Stages, bins, final subtraction and estimation: one compute pass. */
  steps: Step[];
  hash: Program;
  hashSlots: GPUBuffer;
  /** gather 'sorted': the gather's program and tables (bound like the hashing) and the aliasing step. */
  sorted: { gather: Program; addr: GPUBuffer; dest: GPUBuffer; prod: GPUBuffer; count: number; alias: Step } | null;
  verify: Step[];
  verifyBinCounts: GPUBuffer;
  cap: number;
}

interface RobustState {
  bLoc: number;
  bEst: number;
  uLoc: GPUBuffer;
  uEst: GPUBuffer;
  ULoc: GPUBuffer;
  UEst: GPUBuffer;
  fftLoc: WebGpuFft;
  fftEst: WebGpuFft;
  hashLoc: Program;
  hashEst: Program;
  slotsLoc: GPUBuffer;
  slotsEst: GPUBuffer;
  gLoc: GPUBuffer;
  gEst: GPUBuffer;
  keptBits: GPUBuffer;
  hits: GPUBuffer;
  values: GPUBuffer;
  steps: Step[];
  verify: Step[];
  binCounts: GPUBuffer;
  cap: number;
}

export class WebGpuSfft {
  private destroyed = false;
  private readonly owned: GPUBuffer[] = [];
  private exactState: ExactState | null = null;
  private robustState: RobustState | null = null;
  private counters!: GPUBuffer;
  private stats!: GPUBuffer;
  private energies!: GPUBuffer;
  private verifyList!: GPUBuffer;
  private verifyCap = 0;
  private exactG: GPUBuffer | null = null;

  private constructor(
    readonly ctx: GpuContext,
    readonly recipe: SfftRecipe,
  ) {}

  static async create(ctx: GpuContext, recipe: SfftRecipe): Promise<WebGpuSfft> {
    ctx.assertUsable('createSfftPlan');
    const self = new WebGpuSfft(ctx, recipe);
    try {
      await self.build();
    } catch (e) {
      self.destroy();
      throw e;
    }
    return self;
  }

  /** The input buffer size a call needs (bytes). */
  get inputBytes(): number {
    return this.recipe.n * (this.recipe.real ? 4 : 8);
  }

  private buf(data: ArrayBufferView | number, label: string): GPUBuffer {
    const b = createStorageBuffer(this.ctx, data, label);
    this.owned.push(b);
    return b;
  }

  private uniform(words: Uint32Array): GPUBuffer {
    const b = this.ctx.device.createBuffer({
      size: P_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      label: 'sfft-p',
    });
    this.ctx.device.queue.writeBuffer(b, 0, words as Uint32Array<ArrayBuffer>);
    this.owned.push(b);
    return b;
  }

  private async prog(src: KernelSource): Promise<Program> {
    return { src, pipeline: await getPipeline(this.ctx, src) };
  }

  private grid(threads: number): [number, number] {
    return dispatchGrid(Math.ceil(threads / SFFT_WG), this.ctx.limits.maxComputeWorkgroupsPerDimension);
  }

  /** Invocations of the cutoff's one workgroup per location loop: as many as the device allows, up to 1024. */
  private cutoffWorkgroup(): number {
    const l = this.ctx.limits;
    const most = Math.min(1024, l.maxComputeInvocationsPerWorkgroup, l.maxComputeWorkgroupSizeX);
    return Math.max(256, 2 ** Math.floor(Math.log2(most)));
  }

  private checkBinding(bytes: number, what: string): void {
    const max = this.ctx.limits.maxStorageBufferBindingSize;
    if (bytes > max) throw new DeviceLimitError('maxStorageBufferBindingSize', bytes, max, what);
  }

  private async build(): Promise<void> {
    const { recipe } = this;
    const { n } = recipe;
    this.checkBinding(this.inputBytes, `the sparse FFT's input of n = ${n}`);
    const tw = twiddleTables(n);
    const twHi = this.buf(tw.hi, 'sfft-twhi');
    const twLo = this.buf(tw.low, 'sfft-twlo');
    // The exact path's bin counts (one set per stage after the first) follow the counter words, so the
    // hashing dispatch zeroes both at once.
    const ex = recipe.exact;
    const binWords = ex && recipe.feasible ? (ex.stages + 1) * ex.rounds * ex.B : 0;
    this.counters = this.buf((COUNTER_WORDS + binWords) * 4, 'sfft-counters');
    this.stats = this.buf(64 * 4, 'sfft-stats');
    const maxB = Math.max(recipe.exact?.B ?? 0, recipe.robust?.bEst ?? 0, recipe.robust?.bLoc ?? 0);
    this.energies = this.buf(2 * maxB * 4, 'sfft-energies');
    this.verifyCap = Math.max(recipe.k, 16);
    this.verifyList = this.buf(this.verifyCap * COEF_BYTES, 'sfft-verify-list');
    if (!recipe.feasible) return;
    const common = { twHi, twLo };
    if (recipe.exact) await this.buildExact(common);
    if (recipe.robust) await this.buildRobust(common);
  }

  private async buildExact(t: { twHi: GPUBuffer; twLo: GPUBuffer }): Promise<void> {
    const e = this.recipe.exact!;
    const { n } = this.recipe;
    const filt = buildSfftFilter(e.filter);
    const R = e.rounds;
    const B = e.B;
    const slots = 2 * R + 1;
    const twLoBits = Math.ceil(Math.log2(n) / 2);
    const G = this.buf(Float32Array.from(filt.time), 'sfft-g');
    this.exactG = G;
    const H = this.buf(Float32Array.from(filt.freq), 'sfft-h');
    const slotWords = new Uint32Array(4 * slots);
    const loopWords = new Uint32Array(4 * R);
    e.loops.forEach((l, r) => {
      const tau2 = exactTau2(l, e.delta, n);
      slotWords.set([l.sigma, l.tau, 0, 0], 8 * r);
      slotWords.set([l.sigma, tau2, 0, 0], 8 * r + 4);
      loopWords.set([l.sigma, l.sigmaInv, l.tau, tau2], 4 * r);
    });
    slotWords.set([e.verify.sigma, e.verify.tau, 0, 0], 4 * (slots - 1));
    const hashSlots = this.buf(slotWords, 'sfft-slots');
    const loops = this.buf(loopWords, 'sfft-loops');
    const u = this.buf(slots * B * 8, 'sfft-u');
    const U = this.buf(slots * B * 8, 'sfft-U');
    const cap = e.foundCapacity;
    const list = this.buf(cap * COEF_BYTES, 'sfft-list');
    const corr = this.buf(cap * 8, 'sfft-corr');
    const np = Math.ceil(B / SFFT_WG);
    const partials = this.buf(np * 4, 'sfft-partials');
    // Stages read their buckets from one buffer and write the residual to the other (a stage's invocations
    // re-decode other rounds' buckets from the input); bin tables alternate likewise.
    const U2 = this.buf(2 * R * B * 8, 'sfft-U2');
    const tables = [this.buf(R * B * e.slots * 4, 'sfft-bintable0'), this.buf(R * B * e.slots * 4, 'sfft-bintable1')];
    const verifyBinCounts = this.buf(B * 4, 'sfft-verify-bincounts');
    const verifyBinTable = this.buf(B * e.slots * 4, 'sfft-verify-bintable');
    const bc: BucketConsts = { n, B, D: filt.D, S: e.slots, twLoBits };
    const sc = {
      ...bc,
      rounds: R,
      thresh2PerB: (e.threshold * e.threshold) / B,
      tol: e.singletonTolerance,
      cap,
      binBase: COUNTER_WORDS,
    };
    const [hash, first, peel, final, estimate, bin, verifyPeel, reduce] = await Promise.all([
      this.prog(hashKernel({ n, B, W: filt.W, slots, real: this.recipe.real, zeroWords: this.counters.size / 4 })),
      this.prog(exactStageKernel(sc, 'first')),
      e.stages > 0 ? this.prog(exactStageKernel(sc, 'peel')) : null,
      this.prog(exactStageKernel(sc, 'final')),
      this.prog(estimateKernel(n, twLoBits, [{ B, D: filt.D, first: 0, count: R }], cap, 'coefs', true)),
      this.prog(binKernel(bc, this.verifyCap)),
      this.prog(peelKernel(bc)),
      this.prog(reduceKernel(B)),
    ]);
    const fft = await WebGpuFft.create(this.ctx, fftProblem({ n: B, batch: slots }));
    let sorted: ExactState['sorted'] = null;
    if (e.gather === 'sorted') {
      const all = [
        ...e.loops.flatMap((l) => [
          { sigma: l.sigma, tau: l.tau },
          { sigma: l.sigma, tau: exactTau2(l, e.delta, n) },
        ]),
        e.verify,
      ];
      const t = sortedTaps(all, filt, n);
      const real = this.recipe.real;
      const addr = this.buf(t.addr, 'sfft-gather-addr');
      const dest = this.buf(t.dest, 'sfft-gather-dest');
      const prod = this.buf(slots * filt.W * (real ? 4 : 8), 'sfft-gather-prod');
      const [gather, alias] = await Promise.all([
        this.prog(gatherKernel(t.addr.length, real)),
        this.prog(aliasKernel({ n, B, W: filt.W, slots, real, zeroWords: this.counters.size / 4 })),
      ]);
      sorted = {
        gather,
        addr,
        dest,
        prod,
        count: t.addr.length,
        alias: { prog: alias, bind: { 1: G, 3: u, 4: this.counters, 5: prod }, grid: this.grid(slots * B) },
      };
    }
    const stageGrid = this.grid(R * B);
    const tw = { 8: t.twHi, 9: t.twLo };
    const common = { 0: list, 1: this.counters, 2: loops, 6: H, ...tw };
    // Stage 0 decodes every round and bins what it keeps; stage s ≥ 1 subtracts those, decodes and bins
    // again; the final stage only subtracts, leaving the residual for the estimation's corrections.
    const steps: Step[] = [
      {
        prog: first,
        bind: { ...common, 4: this.uniform(pWords(e.loops[0], 0, 0, 0, 0, 0)), 5: U, 7: partials, 10: tables[0] },
        grid: stageGrid,
      },
    ];
    let from = U;
    for (let st = 1; st <= e.stages + 1; st++) {
      const to = from === U ? U2 : U;
      const bind = {
        ...common,
        3: tables[(st - 1) % 2],
        4: this.uniform(pWords(e.loops[0], 0, 0, 0, st, 0)),
        5: from,
        11: to,
      };
      if (st <= e.stages)
        steps.push({ prog: peel!, bind: { ...bind, 7: partials, 10: tables[st % 2] }, grid: stageGrid });
      else steps.push({ prog: final, bind, grid: stageGrid });
      from = to;
    }
    steps.push({
      prog: estimate,
      bind: { 0: list, 1: this.counters, 2: loops, 3: corr, 5: from, 6: H, ...tw },
      grid: this.grid(cap),
    });
    const pv = this.uniform(pWords(e.verify, 0, slots - 1, NONE, 1, 2));
    const verify: Step[] = [
      {
        prog: bin,
        bind: { 0: this.verifyList, 1: this.counters, 2: verifyBinCounts, 3: verifyBinTable, 4: pv },
        grid: this.grid(this.verifyCap),
      },
      // The verification hashing is slot 2R of U, which the stages never write.
      {
        prog: verifyPeel,
        bind: { 0: this.verifyList, 2: verifyBinCounts, 3: verifyBinTable, 4: pv, 5: U, 6: H, 7: this.energies, ...tw },
        grid: this.grid(B),
      },
      { prog: reduce, bind: { 4: pv, 7: this.energies, 10: this.stats }, grid: [1, 1] },
    ];
    this.exactState = {
      R,
      B,
      filt,
      u,
      U,
      fft,
      list,
      corr,
      partials,
      np,
      steps,
      hash,
      hashSlots,
      sorted,
      verify,
      verifyBinCounts,
      cap,
    };
  }

  private async buildRobust(t: { twHi: GPUBuffer; twLo: GPUBuffer }): Promise<void> {
    const r = this.recipe.robust!;
    const { n } = this.recipe;
    const twLoBits = Math.ceil(Math.log2(n) / 2);
    const fLoc = buildSfftFilter(r.filterLoc);
    const fEst = buildSfftFilter(r.filterEst);
    const gLoc = this.buf(Float32Array.from(fLoc.time), 'sfft-gloc');
    const gEst = this.buf(Float32Array.from(fEst.time), 'sfft-gest');
    const hLoc = this.buf(Float32Array.from(fLoc.freq), 'sfft-hloc');
    const hEst = this.buf(Float32Array.from(fEst.freq), 'sfft-hest');
    const L = r.loops.length;
    const loopWords = new Uint32Array(4 * L);
    r.loops.forEach((l, i) => loopWords.set([l.sigma, l.sigmaInv, l.tau, 0], 4 * i));
    const loops = this.buf(loopWords, 'sfft-loops');
    const slotsLoc = this.buf(
      Uint32Array.from(r.loops.slice(0, r.locLoops).flatMap((l) => [l.sigma, l.tau, 0, 0])),
      'sfft-slots-loc',
    );
    const estSlots = [...r.loops.slice(r.locLoops), r.verify];
    const slotsEst = this.buf(Uint32Array.from(estSlots.flatMap((l) => [l.sigma, l.tau, 0, 0])), 'sfft-slots-est');
    const { bLoc, bEst, kept, locLoops } = r;
    const uLoc = this.buf(locLoops * bLoc * 8, 'sfft-uloc');
    const ULoc = this.buf(locLoops * bLoc * 8, 'sfft-Uloc');
    const uEst = this.buf(estSlots.length * bEst * 8, 'sfft-uest');
    const UEst = this.buf(estSlots.length * bEst * 8, 'sfft-Uest');
    const keptBits = this.buf(Math.ceil((locLoops * bLoc) / 32) * 4, 'sfft-keptbits');
    const keptList = this.buf(locLoops * kept * 4, 'sfft-keptlist');
    const keptCount = this.buf(locLoops * 4, 'sfft-keptcount');
    const cap = r.hitCapacity;
    const hits = this.buf(cap * 4, 'sfft-hits');
    const values = this.buf(cap * 8, 'sfft-values');
    const binCounts = this.buf(bEst * 4, 'sfft-bincounts-est');
    const binTable = this.buf(bEst * 8 * 4, 'sfft-bintable-est');
    const groups = [
      { B: bLoc, D: fLoc.D, first: 0, count: locLoops },
      { B: bEst, D: fEst.D, first: locLoops, count: r.estLoops },
    ].filter((g) => g.count > 0);
    const bc: BucketConsts = { n, B: bEst, D: fEst.D, S: 8, twLoBits };
    const [hashLoc, hashEst, cutoff, vote, estimate, bin, peel, reduce] = await Promise.all([
      // The two hashings zero the counters and the kept-bucket bitset (no clear commands).
      this.prog(
        hashKernel({
          n,
          B: bLoc,
          W: fLoc.W,
          slots: locLoops,
          real: this.recipe.real,
          zeroWords: this.counters.size / 4,
        }),
      ),
      this.prog(
        hashKernel({
          n,
          B: bEst,
          W: fEst.W,
          slots: estSlots.length,
          real: this.recipe.real,
          zeroWords: keptBits.size / 4,
        }),
      ),
      this.prog(cutoffKernel(bLoc, kept, this.cutoffWorkgroup())),
      this.prog(voteKernel(n, bLoc, kept, locLoops, r.votes, cap)),
      this.prog(estimateKernel(n, twLoBits, groups, cap, 'hits', false)),
      this.prog(binKernel(bc, this.verifyCap)),
      this.prog(peelKernel(bc)),
      this.prog(reduceKernel(bEst)),
    ]);
    const fftLoc = await WebGpuFft.create(this.ctx, fftProblem({ n: bLoc, batch: locLoops }));
    const fftEst = await WebGpuFft.create(this.ctx, fftProblem({ n: bEst, batch: estSlots.length }));
    const estBind: Record<number, GPUBuffer> = {
      0: hits,
      1: this.counters,
      2: loops,
      3: values,
      5: ULoc,
      6: hLoc,
      8: t.twHi,
      9: t.twLo,
    };
    if (groups.length > 1) Object.assign(estBind, { 11: UEst, 12: hEst });
    if (groups[0].B === bEst && groups.length === 1) Object.assign(estBind, { 5: UEst, 6: hEst });
    const steps: Step[] = [
      { prog: cutoff, bind: { 0: ULoc, 1: keptBits, 2: keptList, 3: keptCount }, grid: [locLoops, 1] },
      {
        prog: vote,
        bind: { 1: this.counters, 2: loops, 4: keptBits, 5: keptList, 6: keptCount, 7: hits },
        grid: this.grid(locLoops * kept * (n / bLoc)),
      },
      { prog: estimate, bind: estBind, grid: this.grid(cap) },
    ];
    const pv = this.uniform(pWords(r.verify, 0, estSlots.length - 1, NONE, 1, 2));
    const verify: Step[] = [
      {
        prog: bin,
        bind: { 0: this.verifyList, 1: this.counters, 2: binCounts, 3: binTable, 4: pv },
        grid: this.grid(this.verifyCap),
      },
      {
        prog: peel,
        bind: {
          0: this.verifyList,
          2: binCounts,
          3: binTable,
          4: pv,
          5: UEst,
          6: hEst,
          7: this.energies,
          8: t.twHi,
          9: t.twLo,
        },
        grid: this.grid(bEst),
      },
      { prog: reduce, bind: { 4: pv, 7: this.energies, 10: this.stats }, grid: [1, 1] },
    ];
    this.robustState = {
      bLoc,
      bEst,
      uLoc,
      uEst,
      ULoc,
      UEst,
      fftLoc,
      fftEst,
      hashLoc,
      hashEst,
      slotsLoc,
      slotsEst,
      gLoc,
      gEst,
      keptBits,
      hits,
      values,
      steps,
      verify,
      binCounts,
      cap,
    };
  }

  private groupCache = new WeakMap<Step, GPUBindGroup>();

  private bindGroup(step: Step): GPUBindGroup {
    let g = this.groupCache.get(step);
    if (!g) {
      g = this.ctx.device.createBindGroup({
        layout: step.prog.pipeline.getBindGroupLayout(0),
        entries: Object.entries(step.bind).map(([b, buffer]) => ({ binding: Number(b), resource: { buffer } })),
        label: step.prog.src.name,
      });
      this.groupCache.set(step, g);
    }
    return g;
  }

  private runSteps(enc: GPUCommandEncoder, steps: Step[]): void {
    const pass = enc.beginComputePass();
    for (const s of steps) {
      pass.setPipeline(s.prog.pipeline);
      pass.setBindGroup(0, this.bindGroup(s));
      pass.dispatchWorkgroups(s.grid[0], s.grid[1]);
    }
    pass.end();
  }

  /** Hash dispatches read the caller's buffer: bind groups cached per input buffer. */
  private hashPass(
    enc: GPUCommandEncoder,
    x: GPUBuffer,
    cache: WeakMap<GPUBuffer, GPUBindGroup[]>,
    progs: { prog: Program; g: GPUBuffer; slots: GPUBuffer; u: GPUBuffer; threads: number; zero?: GPUBuffer }[],
  ): void {
    if (x.size < this.inputBytes)
      throw new ArgumentError('x', `GPUBuffer of ${x.size} bytes`, `at least ${this.inputBytes} bytes`);
    let groups = cache.get(x);
    if (!groups) {
      groups = progs.map((p) =>
        this.ctx.device.createBindGroup({
          layout: p.prog.pipeline.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: x, size: this.inputBytes } },
            { binding: 1, resource: { buffer: p.g } },
            { binding: 2, resource: { buffer: p.slots } },
            { binding: 3, resource: { buffer: p.u } },
            ...(p.zero ? [{ binding: 4, resource: { buffer: p.zero } }] : []),
          ],
        }),
      );
      cache.set(x, groups);
    }
    const pass = enc.beginComputePass();
    progs.forEach((p, i) => {
      pass.setPipeline(p.prog.pipeline);
      pass.setBindGroup(0, groups![i]);
      const grid = this.grid(p.threads);
      pass.dispatchWorkgroups(grid[0], grid[1]);
    });
    pass.end();
  }

  private assertUsable(): void {
    if (this.destroyed) throw new DestroyedError('sparse FFT plan was destroyed');
    this.ctx.assertUsable('sfft');
  }

  /**
   * Records the whole exact path into `enc`: the hashing of all rounds (one dispatch, which also zeroes the
   * counters and bin counts), their batched B-point FFTs, then one compute pass with the stages (see
   * buildExact).
   */
  encodeExact(enc: GPUCommandEncoder, x: GPUBuffer, upTo: 'hash' | 'fft' | 'all' = 'all'): void {
    this.assertUsable();
    const s = this.exactState;
    if (!s) throw new ArgumentError('mode', this.recipe.exact ? 'infeasible' : 'robust', 'a plan with the exact path');
    if (upTo !== 'hash' && upTo !== 'fft' && upTo !== 'all')
      throw new ArgumentError('upTo', upTo, "'hash', 'fft' or 'all'");
    // upTo: a prefix of the chain, for benchmarks that split the time between the steps. The hashing
    // also zeroes the counters and bin counts (no clear command).
    this.hashPassFor(enc, x, 'exact');
    if (upTo === 'hash') return;
    s.fft.encode(enc, s.u, s.U);
    if (upTo === 'fft') return;
    this.runSteps(enc, s.steps);
  }

  private readonly hashGroupsByPath = {
    exact: new WeakMap<GPUBuffer, GPUBindGroup[]>(),
    robust: new WeakMap<GPUBuffer, GPUBindGroup[]>(),
  };

  private hashPassFor(enc: GPUCommandEncoder, x: GPUBuffer, path: 'exact' | 'robust'): void {
    const cache = this.hashGroupsByPath[path];
    if (path === 'exact') {
      const s = this.exactState!;
      if (s.sorted) {
        const t = s.sorted;
        this.hashPass(enc, x, cache, [{ prog: t.gather, g: t.addr, slots: t.dest, u: t.prod, threads: t.count }]);
        this.runSteps(enc, [t.alias]);
      } else {
        this.hashPass(enc, x, cache, [
          {
            prog: s.hash,
            g: this.exactG!,
            slots: s.hashSlots,
            u: s.u,
            threads: (2 * s.R + 1) * s.B,
            zero: this.counters,
          },
        ]);
      }
    } else {
      const s = this.robustState!;
      const r = this.recipe.robust!;
      this.hashPass(enc, x, cache, [
        { prog: s.hashLoc, g: s.gLoc, slots: s.slotsLoc, u: s.uLoc, threads: r.locLoops * s.bLoc, zero: this.counters },
        {
          prog: s.hashEst,
          g: s.gEst,
          slots: s.slotsEst,
          u: s.uEst,
          threads: (r.estLoops + 1) * s.bEst,
          zero: s.keptBits,
        },
      ]);
    }
  }

  /** Records the whole robust path (hashing, FFTs, cutoff, voting, estimation) into `enc`; upTo as encodeExact. */
  encodeRobust(enc: GPUCommandEncoder, x: GPUBuffer, upTo: 'hash' | 'fft' | 'all' = 'all'): void {
    this.assertUsable();
    const s = this.robustState;
    if (!s) throw new ArgumentError('mode', this.recipe.robust ? 'infeasible' : 'exact', 'a plan with the robust path');
    if (upTo !== 'hash' && upTo !== 'fft' && upTo !== 'all')
      throw new ArgumentError('upTo', upTo, "'hash', 'fft' or 'all'");
    this.hashPassFor(enc, x, 'robust');
    if (upTo === 'hash') return;
    s.fftLoc.encode(enc, s.uLoc, s.ULoc);
    s.fftEst.encode(enc, s.uEst, s.UEst);
    if (upTo === 'fft') return;
    this.runSteps(enc, s.steps);
  }

  /** Bytes copied back to the host by this plan's calls so far (diagnostics for the benchmark). */
  readbackBytes = 0;

  /** Copies several buffer ranges into one staging buffer and maps it once. */
  private async readMany(
    parts: { buf: GPUBuffer; bytes: number; offset?: number }[],
    enc = this.ctx.device.createCommandEncoder(),
  ): Promise<ArrayBuffer[]> {
    const total = parts.reduce((s, p) => s + Math.ceil(p.bytes / 4) * 4, 0);
    this.readbackBytes += total;
    const staging = this.ctx.device.createBuffer({
      size: Math.max(16, total),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      let off = 0;
      for (const p of parts) {
        const b = Math.ceil(p.bytes / 4) * 4;
        if (b > 0) enc.copyBufferToBuffer(p.buf, p.offset ?? 0, staging, off, b);
        off += b;
      }
      await this.ctx.checked('sfft', () => this.ctx.device.queue.submit([enc.finish()]));
      await staging.mapAsync(GPUMapMode.READ);
      const all = staging.getMappedRange().slice(0);
      staging.unmap();
      const out: ArrayBuffer[] = [];
      off = 0;
      for (const p of parts) {
        out.push(all.slice(off, off + p.bytes));
        off += Math.ceil(p.bytes / 4) * 4;
      }
      return out;
    } finally {
      staging.destroy();
    }
  }

  async runExact(x: GPUBuffer): Promise<SfftPathResult> {
    const enc = this.ctx.device.createCommandEncoder();
    this.encodeExact(enc, x);
    return this.readExact(enc);
  }

  /** Reads the exact path's lists (after encodeExact into `enc`, or after a submitted encodeExact). */
  async readExact(enc?: GPUCommandEncoder): Promise<SfftPathResult> {
    const s = this.exactState!;
    const e = this.recipe.exact!;
    const [cnt, partials, list, corr] = await this.readMany(
      [
        { buf: this.counters, bytes: 16 },
        { buf: s.partials, bytes: s.np * 4 },
        { buf: s.list, bytes: s.cap * COEF_BYTES },
        { buf: s.corr, bytes: s.cap * 8 },
      ],
      enc,
    );
    const c = new Uint32Array(cnt);
    const count = Math.min(c[0], s.cap);
    const lu = new Uint32Array(list);
    const lf = new Float32Array(list);
    const cf = new Float32Array(corr);
    const F = new Uint32Array(count);
    const V = new Float64Array(2 * count);
    const C = new Float64Array(2 * count);
    for (let i = 0; i < count; i++) {
      F[i] = lu[4 * i];
      V[2 * i] = lf[4 * i + 1];
      V[2 * i + 1] = lf[4 * i + 2];
      C[2 * i] = cf[2 * i];
      C[2 * i + 1] = cf[2 * i + 1];
    }
    const energy = new Float32Array(partials).reduce((a, b) => a + b, 0);
    const thr2 = (e.threshold * e.threshold * energy) / s.B;
    const merged = mergeCoefficients(F, V, thr2, C);
    return {
      ...topK(merged.frequencies, merged.values, this.recipe.k),
      candidates: count,
      overflow: c[1] !== 0 || c[0] > s.cap,
    };
  }

  async runRobust(x: GPUBuffer): Promise<SfftPathResult> {
    const enc = this.ctx.device.createCommandEncoder();
    this.encodeRobust(enc, x);
    return this.readRobust(enc);
  }

  async readRobust(enc?: GPUCommandEncoder): Promise<SfftPathResult> {
    const s = this.robustState!;
    const r = this.recipe.robust!;
    // The buckets come back too (every loop's, not the verification slot): the candidates are refined on the
    // host as in the CPU executor (see sfft-refine.ts).
    const [cnt, hits, values, uLoc, uEst] = await this.readMany(
      [
        { buf: this.counters, bytes: 16 },
        { buf: s.hits, bytes: s.cap * 4 },
        { buf: s.values, bytes: s.cap * 8 },
        { buf: s.ULoc, bytes: r.locLoops * s.bLoc * 8 },
        { buf: s.UEst, bytes: r.estLoops * s.bEst * 8 },
      ],
      enc,
    );
    const c = new Uint32Array(cnt);
    const count = Math.min(c[0], s.cap);
    const freqs = new Uint32Array(hits, 0, count);
    const vals = Float64Array.from(new Float32Array(values, 0, 2 * count));
    const U: Float64Array[] = [];
    const fl = new Float32Array(uLoc);
    const fe = new Float32Array(uEst);
    for (let l = 0; l < r.locLoops; l++) U.push(Float64Array.from(fl.subarray(2 * l * s.bLoc, 2 * (l + 1) * s.bLoc)));
    for (let l = 0; l < r.estLoops; l++) U.push(Float64Array.from(fe.subarray(2 * l * s.bEst, 2 * (l + 1) * s.bEst)));
    const fLoc = buildSfftFilter(r.filterLoc);
    const fEst = buildSfftFilter(r.filterEst);
    const filters = r.loops.map((l) => (l.filter === 'loc' ? fLoc : fEst));
    const { n, k } = this.recipe;
    const refined = refineLargest({ n, U, loops: r.loops, filters, frequencies: freqs, values: vals, ...REFINE(k) });
    // The k largest of the located frequencies: the result (as in the CPU executor).
    const top = topK(refined.frequencies, refined.values, this.recipe.k);
    return {
      ...top,
      candidates: c[0],
      overflow: c[1] !== 0 || c[0] > s.cap,
    };
  }

  /**
   * Verification: subtracts `coeffs` from the fresh hashing made with the last run of `path` and returns
   * the bucket energies before and after (see residualCpu). Call right after that run.
   */
  async residual(_x: GPUBuffer, path: 'exact' | 'robust', coeffs: SfftCoefficients): Promise<SfftResidual> {
    this.assertUsable();
    const steps = path === 'exact' ? this.exactState?.verify : this.robustState?.verify;
    if (!steps) throw new ArgumentError('path', path, 'a path this plan prepared');
    const m = coeffs.frequencies.length;
    if (m > this.verifyCap) throw new ArgumentError('coeffs', m, `at most ${this.verifyCap} coefficients`);
    const words = new ArrayBuffer(Math.max(16, m * COEF_BYTES));
    const u = new Uint32Array(words);
    const f = new Float32Array(words);
    for (let i = 0; i < m; i++) {
      u[4 * i] = coeffs.frequencies[i];
      f[4 * i + 1] = coeffs.values[2 * i];
      f[4 * i + 2] = coeffs.values[2 * i + 1];
    }
    const q = this.ctx.device.queue;
    q.writeBuffer(this.verifyList, 0, words, 0, Math.max(16, m * COEF_BYTES));
    q.writeBuffer(this.counters, 8, new Uint32Array([m]));
    const enc = this.ctx.device.createCommandEncoder();
    enc.clearBuffer(path === 'exact' ? this.exactState!.verifyBinCounts : this.robustState!.binCounts);
    this.runSteps(enc, steps);
    // The verification slot's residual buckets: the last slot of U (exact) or UEst (robust).
    const B = path === 'exact' ? this.exactState!.B : this.robustState!.bEst;
    const slot = path === 'exact' ? 2 * this.exactState!.R : this.recipe.robust!.estLoops;
    const buckets = path === 'exact' ? this.exactState!.U : this.robustState!.UEst;
    const [stats, rest] = await this.readMany(
      [
        { buf: this.stats, bytes: 16 },
        { buf: buckets, bytes: B * 8, offset: slot * B * 8 },
      ],
      enc,
    );
    const sf = new Float32Array(stats);
    return { before: sf[2], after: sf[3], ...residualStats(new Float32Array(rest), B) };
  }

  /** Dense fallback: the full spectrum of x in f64 on the host (x is read back; used only when k is too large). */
  async dense(x: GPUBuffer): Promise<Float64Array> {
    const [data] = await this.readMany([{ buf: x, bytes: this.inputBytes }]);
    const f = new Float32Array(data);
    const { n } = this.recipe;
    const input = new Float64Array(2 * n);
    if (this.recipe.real) for (let i = 0; i < n; i++) input[2 * i] = f[i];
    else input.set(f);
    const out = new Float64Array(2 * n);
    planCpuFft(n).execute(input, out);
    return out;
  }

  /** Uploads host data as the f32 input buffer this plan expects (the caller destroys it). */
  upload(x: SignalArray): GPUBuffer {
    this.assertUsable();
    const data = x instanceof Float32Array ? x : Float32Array.from(x);
    return createStorageBuffer(this.ctx, data, 'sfft-input');
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.owned) b.destroy();
    this.exactState?.fft.destroy();
    this.robustState?.fftLoc.destroy();
    this.robustState?.fftEst.destroy();
  }
}
