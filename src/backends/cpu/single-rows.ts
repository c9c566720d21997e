/**
 * Single problems of a lane-batch length (odd n, or n that does not split across the lanes) as n = n1 · n2: a
 * lane-batch module puts W problems in its W lanes, so one problem alone leaves W − 1 of them empty (a quarter of
 * the rate in f32). Here each problem runs as the four-step factorisation instead,
 *
 *   X[k1 + n1·k2] = Σ_j2 w_n^(j2·k1) · (Σ_j1 x[j1·n2 + j2] · w_n1^(j1·k1)) · w_n2^(j2·k2),
 *
 * the n2 column transforms of length n1 as one batch, the twiddles w_n^(j2·k1), and the n1 transforms of length n2
 * as another: both batches fill the lanes, and the engine's column layouts move the strided sides through its
 * transposes. Batches of at least singleRowsBelow(W) problems take the lane-batch module directly.
 */
import { unitRoot } from '../../core/unit-root.js';
import { singleRowsBelow, type CpuEngineFftRecipe, type CpuPrecision } from '../../planner/cpu-fft.js';
import { resolveExec, type EngineExecOptions, type EngineFft, type ResidentRun } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;
type LaneBatch = Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' }> & {
  single: { n1: number; n2: number };
};

export class SingleRowsFft implements EngineFft {
  /** The twiddles w_n^(j2·k1) at j2·n1 + k1 (interleaved), in the plan's precision; made on first use. */
  private twiddles?: AnyArray;
  /** The intermediate n2 × n1 matrix of one problem. */
  private y?: AnyArray;
  constructor(
    readonly recipe: LaneBatch,
    /** The lane-batch plan for batches that fill the lanes. */
    private readonly whole: EngineFft,
    /** Engine plans of n1 and n2 (cached by the caller). */
    private readonly planOf: (n: number, precision: CpuPrecision) => EngineFft,
  ) {}
  get n(): number {
    return this.recipe.n;
  }
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    if ((options.batch ?? 1) >= singleRowsBelow(this.recipe.lanes)) return this.whole.execute(input, output, options);
    const n = this.n;
    const { batch, inverse, scale, li, lo } = resolveExec(n, input, output, options);
    const { n1, n2 } = this.recipe.single;
    // In place (or overlapping) calls: the input is read whole by the first phase before the output is written.
    const y = (this.y ??= new (input instanceof Float32Array ? Float32Array : Float64Array)(2 * n));
    const tw = this.table();
    const first = this.planOf(n1, this.precision);
    const second = this.planOf(n2, this.precision);
    const unscaled = inverse ? 'forward' : 'backward';
    for (let b = 0; b < batch; b++) {
      const inAt = li.offset + b * li.dist;
      // Columns: problem j2 is x[j2 + n2·j1], written as row j2 of y.
      first.execute(input, y, {
        batch: n2,
        inverse,
        norm: unscaled,
        input: { offset: inAt, stride: n2 * li.stride, dist: li.stride },
        output: { offset: 0, stride: 1, dist: n1 },
      });
      twiddle(y, tw, inverse);
      // Rows: problem k1 is y[k1 + n1·j2], written to X[k1 + n1·k2].
      second.execute(y, output, {
        batch: n1,
        inverse,
        norm: unscaled,
        scaleBy: scale,
        input: { offset: 0, stride: n1, dist: 1 },
        output: { offset: lo.offset + b * lo.dist, stride: n1 * lo.stride, dist: lo.stride },
      });
    }
  }
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    const l = { offset };
    this.execute(data, data, { inverse, norm: inverse ? 'forward' : 'backward', input: l, output: l, scaleBy: scale });
  }
  createBuffers(batch: number, threads?: number): { input: AnyArray; output: AnyArray } {
    return this.whole.createBuffers!(batch, threads);
  }
  residentRuns(input: AnyArray, output: AnyArray, options: EngineExecOptions, threads: number): ResidentRun[] | null {
    return this.whole.residentRuns?.(input, output, options, threads) ?? null;
  }
  runResident(run: ResidentRun): void {
    this.whole.runResident!(run);
  }

  private table(): AnyArray {
    if (this.twiddles) return this.twiddles;
    const { n1, n2 } = this.recipe.single;
    const n = this.n;
    const t = new (this.precision === 'f32' ? Float32Array : Float64Array)(2 * n);
    for (let j2 = 0; j2 < n2; j2++) {
      for (let k1 = 0, e = 0; k1 < n1; k1++, e = (e + j2) % n) {
        const [c, s] = unitRoot(e, n);
        t[2 * (j2 * n1 + k1)] = c;
        t[2 * (j2 * n1 + k1) + 1] = -s;
      }
    }
    return (this.twiddles = t);
  }
}

/** y ·= tw elementwise (complex, interleaved); the conjugate twiddles for the inverse. */
function twiddle(y: AnyArray, tw: AnyArray, inverse: boolean): void {
  const sg = inverse ? -1 : 1;
  for (let i = 0; i < y.length; i += 2) {
    const a = y[i]!,
      b = y[i + 1]!;
    const c = tw[i]!,
      d = sg * tw[i + 1]!;
    y[i] = a * c - b * d;
    y[i + 1] = a * d + b * c;
  }
}
