/**
 * Single problems of a lane-batch length (odd n, or n that does not split across the lanes): a lane-batch module puts
 * W problems in its W lanes, so one problem alone leaves W − 1 of them empty (a quarter of the rate in f32). Calls of
 * fewer than singleRowsBelow(W) problems run the recipe's `single` plan instead, the four-step recipe with partial
 * lane groups (W adjacent columns of one problem in the lanes); larger batches take the lane-batch module.
 */
import { singleRowsBelow, type CpuEngineFftRecipe, type CpuPrecision } from '../../planner/cpu-fft.js';
import type { EngineExecOptions, EngineFft, ResidentRun } from './wasm-fft.js';

type AnyArray = Float32Array | Float64Array;
type LaneBatch = Extract<CpuEngineFftRecipe, { kind: 'lane-split' | 'lane-batch' }>;

export class SingleRowsFft implements EngineFft {
  constructor(
    readonly recipe: LaneBatch,
    /** The lane-batch plan, for batches that fill the lanes. */
    private readonly whole: EngineFft,
    /** The plan of recipe.single. */
    private readonly one: EngineFft,
  ) {}
  get n(): number {
    return this.recipe.n;
  }
  get precision(): CpuPrecision {
    return this.recipe.precision;
  }
  execute(input: AnyArray, output: AnyArray, options: EngineExecOptions = {}): void {
    const few = (options.batch ?? 1) < singleRowsBelow(this.recipe.lanes);
    (few ? this.one : this.whole).execute(input, output, options);
  }
  transformInPlace(data: AnyArray, offset: number, inverse: boolean, scale = 1): void {
    this.one.transformInPlace(data, offset, inverse, scale);
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
  runResidentProblems(run: ResidentRun, q0: number, count: number): void {
    this.whole.runResidentProblems!(run, q0, count);
  }
  get slotProblems(): number | undefined {
    return this.whole.slotProblems;
  }
}
