/**
 * Batched tridiagonal solvers: public API.
 *
 * Each system j of a batch is  a_i x_{i−1} + b_i x_i + c_i x_{i+1} = d_i,  i = 0 … N−1, with
 * `lower` = a, `diag` = b, `upper` = c, `rhs` = d. a_0 and c_{N−1} are ignored (as in LAPACK and
 * cuSPARSE) unless `cyclic` is set, where they are the corner entries coupling x_{N−1} and x_0.
 *
 * Layouts (element indices; complex elements are (re, im) pairs of consecutive floats):
 *  - 'strided' (cuSPARSE gtsv2StridedBatch): matrix j row i at j·N + i; right-hand side r at
 *    (r·batch + j)·N + i. Each system is contiguous.
 *  - 'interleaved' (cuSPARSE gtsvInterleavedBatch): matrix at i·batch + j; right-hand side r at
 *    (r·N + i)·batch + j.
 * `nrhs` right-hand sides share each matrix; the solution has the layout and size of `rhs`.
 *
 * Backends: 'webgpu' (float32, Wang & Mou / ID-TS kernels, multi-stage for N beyond one workgroup;
 * batches beyond one storage binding or one dispatch grid are split into chunks of whole systems),
 * 'cpu' (float64 or float32; Thomas by default, the Wang & Mou executable specification, or LU with
 * partial pivoting), 'auto' (WebGPU for float32 when an adapter exists, else CPU).
 *
 * Stability: Thomas and Wang & Mou do not pivot. They are stable when the matrix is diagonally
 * dominant (|b_i| ≥ |a_i| + |c_i|, strictly in at least one row), or symmetric positive definite.
 * For other matrices use `cpuAlgorithm: 'lu'` (partial pivoting, LAPACK gtsv's algorithm).
 *
 * Accuracy check: after every solve (every backend and algorithm, cyclic too) each solution's normwise
 * backward error η = ‖Ax − d‖∞ / (‖A‖∞‖x‖∞ + ‖d‖∞) is measured in float64 against the arrays passed in
 * (O(n) a system; GPUBuffer inputs are read back for it). A matrix whose η exceeds the tolerance gets
 * INACCURATE, so `ok` means: every x is the exact solution of a system within relative distance
 * tolerance of the one given, and its relative error is at most about cond(A)·tolerance. Under backend
 * 'auto' the matrices that fail (bits 1, 2 or 8) are solved again on the CPU by LU with partial pivoting
 * in float64 (bit PIVOTED), and checked again.
 *
 * Status (one u32 per matrix, bits OR-ed over all its right-hand sides; 0 = OK):
 *  - 1 ZERO_PIVOT: a pivot was zero, sub-normal, Inf or NaN, or (CPU) a matrix coefficient the solve
 *    reads is not finite in the working precision; the result is unreliable (for the LU solver: the
 *    matrix is exactly singular, x is NaN). Cyclic systems: also a matrix singular to working precision
 *    (Sherman–Morrison's 1 + vᵀz is rounding noise) with a right-hand side outside its range, where x would
 *    be noise over noise; with one inside it (the periodic Poisson problem) x is one of the solutions.
 *  - 2 NON_FINITE: some solution value is NaN or ±Infinity.
 *  - 4 NOT_DIAGONALLY_DOMINANT: a row has |b_i| < |a_i| + |c_i| (rows of the modified matrix, for cyclic
 *    systems): no stability guarantee for the non-pivoting solvers (informative; the check decides).
 *  - 8 INACCURATE: the backward error exceeds the tolerance (or is not finite).
 *  - 16 PIVOTED: informative; 'auto' re-solved this matrix by pivoting LU.
 * `result.ok` is true when no matrix has bit 1, 2 or 8; with `onFailure: 'throw'` a
 * TridiagonalBreakdownError is thrown otherwise.
 */
import { ArgumentError, ButterflyError, DestroyedError, UnsupportedError } from '../errors.js';
import { checkOptionNames, TRIDIAGONAL_DATA, TRIDIAGONAL_PLAN_OPTIONS } from './options.js';
import { readBuffer, createStorageBuffer, type GpuContext } from '../backends/webgpu/device.js';
import { gpuFor } from './backend.js';
import { TridiagonalGpuExecutor, type TridiagonalSplitLimits } from '../backends/webgpu/tridiagonal.js';
import {
  TRIDIAGONAL_STATUS,
  cpuThomasThreads,
  matIndex,
  planTridiagonal,
  rhsIndex,
  validateProblem,
  type TridiagonalLayout,
  type TridiagonalPlanOptions,
  type TridiagonalRecipe,
} from '../planner/tridiagonal.js';
import { complexField, realField, thomasComplex, thomasReal, type Field } from '../backends/cpu/thomas.js';
import { gtsvLu } from '../backends/cpu/gtsv-lu.js';
import { wangMouSolve } from '../backends/cpu/wang-mou.js';
import { cyclicCombine, cyclicPrepare } from '../backends/cpu/cyclic-tridiagonal.js';
import {
  createTridiagonalBatchScratch,
  giveBackTridiagonalBatchScratch,
  takeTridiagonalBatchScratch,
  createTridiagonalBuffers,
  releaseTridiagonalBatchScratch,
  defaultResidualTolerance,
  resolveSystemLu,
  solveTridiagonalBatchCpu32Threaded,
  solveTridiagonalBatchCpuThreaded,
  tridiagonalBackwardErrors,
  tridiagonalBuffersId,
  type TridiagonalBatchScratch,
} from '../backends/cpu/tridiagonal-batch.js';
import { releaseSharedMemories } from '../backends/cpu/shared-memories.js';
import { planeThreads, postThomasParts, runThomasParts } from '../backends/cpu/worker-pool.js';

export { TRIDIAGONAL_STATUS } from '../planner/tridiagonal.js';
export type { TridiagonalLayout, TridiagonalRecipe, TridiagonalPlanOptions } from '../planner/tridiagonal.js';
export type { TridiagonalSplitLimits } from '../backends/webgpu/tridiagonal.js';

export type TridiagonalBackend = 'webgpu' | 'cpu' | 'auto';
export type TridiagonalDtype = 'float32' | 'float64';
export type TridiagonalCpuAlgorithm = 'thomas' | 'wang-mou' | 'lu';
type FloatArray = Float32Array | Float64Array;
export type TridiagonalInput = FloatArray | GPUBuffer;

/** Thrown with `onFailure: 'throw'` when some system broke down (zero pivot or non-finite result). */
export class TridiagonalBreakdownError extends ButterflyError {
  override name = 'TridiagonalBreakdownError';
  constructor(
    readonly status: Uint32Array,
    readonly failed: number[],
  ) {
    super(
      `tridiagonal solve broke down or failed the residual check in ${failed.length} system(s) (first: matrix ${failed[0]}, ` +
        `status ${status[failed[0]]}); the matrix is singular, or not diagonally dominant enough for a non-pivoting solver: ` +
        'use backend "auto" (re-solves such systems by pivoting LU) or the CPU backend with cpuAlgorithm: "lu"',
    );
  }
}

/**
 * Experimental overrides, for benchmarks and tests: the planner's (radix, rows per thread, rows per
 * workgroup, algorithm variants; see TridiagonalPlanOptions) and, on WebGPU, lowered binding and dispatch
 * limits to split the batch into chunks with small data (never above the device's). Results do not depend
 * on them beyond rounding; names may change in any release.
 */
export interface TridiagonalTuning extends TridiagonalPlanOptions {
  splitLimits?: TridiagonalSplitLimits;
}

export interface TridiagonalPlanDescriptor {
  /** Rows per system, ≥ 1. */
  n: number;
  /** Number of matrices (default 1). */
  batch?: number;
  /** Right-hand sides per matrix (default 1). */
  nrhs?: number;
  layout?: TridiagonalLayout;
  complex?: boolean;
  /**
   * 'float32' (default for plans; the only WebGPU precision) or 'float64' (CPU); solveTridiagonal defaults to
   * the rhs array's type (but 'webgpu' to float32). On the CPU, real float32 Thomas solves
   * run the float64 kernel and round x to float32; the other CPU algorithms round every operation to float32,
   * as the GPU does. A float64 plan also takes Float32Array data (widened exactly); a float32 plan given
   * Float64Array data solves their float32 values.
   */
  dtype?: TridiagonalDtype;
  backend?: TridiagonalBackend;
  /** Periodic systems (a_0 and c_{N−1} are corner entries), solved by Sherman–Morrison. */
  cyclic?: boolean;
  /** CPU algorithm (default 'thomas'). */
  cpuAlgorithm?: TridiagonalCpuAlgorithm;
  /** GPU context (default: the shared one). */
  gpu?: GpuContext;
  /** 'status' (default): report breakdowns in result.status; 'throw': throw TridiagonalBreakdownError. */
  onFailure?: 'status' | 'throw';
  /** Experimental overrides, for benchmarks and tests (see TridiagonalTuning). */
  tuning?: TridiagonalTuning;
  /**
   * Largest backward error a solution may have and keep `ok` (default 2^10 units of roundoff of the
   * output precision: 6.1e-5 for float32, 1.1e-13 for float64).
   */
  residualTolerance?: number;
  /**
   * CPU real Thomas solves with one right-hand side: threads that share each block of systems (worker threads on a
   * shared WebAssembly memory; the calling thread copies ordinary arrays in and out). Default: the cores, where
   * SharedArrayBuffer exists; 1 = the calling thread only. Results are the same bit for bit either way. Solves
   * of fewer than 65536 rows (n · batch) run on the calling thread.
   */
  threads?: number;
  /**
   * Measure every solution's backward error (default true). false skips the check (and the read-back of
   * GPUBuffer inputs it needs): `ok` then only means that no pivot broke down and x is finite. On the CPU, real
   * Thomas solves then run a kernel without the residuals (the same x bit for bit).
   */
  checkResidual?: boolean;
}

export interface TridiagonalData<X extends TridiagonalInput = TridiagonalInput> {
  lower: X;
  diag: X;
  upper: X;
  rhs: X;
  /** Where to write the solution (GPUBuffer inputs: a GPUBuffer; typed arrays: a typed array). */
  out?: X;
}

export interface TridiagonalResult<X extends TridiagonalInput = TridiagonalInput> {
  /** Solution, layout of rhs: Float32Array (float32), Float64Array (float64), or a GPUBuffer. */
  x: X;
  /** One u32 per matrix (bits of TRIDIAGONAL_STATUS). */
  status: Uint32Array;
  /** No matrix has ZERO_PIVOT, NON_FINITE or INACCURATE set: every x passed the residual check. */
  ok: boolean;
  /**
   * Per matrix, the largest normwise backward error ‖Ax − d‖∞ / (‖A‖∞‖x‖∞ + ‖d‖∞) of its solutions, in
   * float64 (NaN when not finite); absent with checkResidual: false.
   */
  backwardError?: Float64Array;
  backend: 'webgpu' | 'cpu';
}

function isGpuBuffer(v: unknown): v is GPUBuffer {
  return (
    typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && typeof (v as GPUBuffer).mapAsync === 'function'
  );
}

interface Resolved {
  n: number;
  batch: number;
  nrhs: number;
  layout: TridiagonalLayout;
  complex: boolean;
  dtype: TridiagonalDtype;
  backend: 'webgpu' | 'cpu';
  cyclic: boolean;
  cpuAlgorithm: TridiagonalCpuAlgorithm;
  onFailure: 'status' | 'throw';
  /** backend 'auto': re-solve failed matrices by pivoting LU. */
  fallback: boolean;
  tolerance: number;
  check: boolean;
  /** Threads of CPU Thomas solves (cpuThomasThreads decides per solve). */
  threads: number;
}

/** The worker pool's runners of threaded Thomas solves. */
const THOMAS_PARTS = { run: runThomasParts, post: postThomasParts };

const FAILED = TRIDIAGONAL_STATUS.ZERO_PIVOT | TRIDIAGONAL_STATUS.NON_FINITE | TRIDIAGONAL_STATUS.INACCURATE;

/** A reusable solver for one problem shape. Create with createTridiagonalPlan(). */
export class TridiagonalPlan {
  private destroyed = false;
  /** Memory ids of the engine buffers this plan made: workers drop their instances on them at destroy(). */
  private readonly bufferIds: number[] = [];
  private statusBuf: GPUBuffer | null = null;
  private scratch: TridiagonalBatchScratch = takeTridiagonalBatchScratch();
  /** A CPU Thomas solve is using `scratch` (threaded solves await their workers). */
  private scratchBusy = false;

  /** @internal */
  constructor(
    private readonly p: Resolved,
    readonly recipe: TridiagonalRecipe | null,
    private readonly gpu: GpuContext | null,
    private readonly executor: TridiagonalGpuExecutor | null,
    private readonly innerPlan: TridiagonalPlan | null,
  ) {}

  get backend(): 'webgpu' | 'cpu' {
    return this.p.backend;
  }

  /** Chunks (binding windows) a WebGPU solve is split into: 1 when the arrays fit one binding, and on the CPU. */
  get chunkCount(): number {
    return this.innerPlan?.chunkCount ?? this.executor?.chunkCount ?? 1;
  }

  /** Elements (scalars: complex counts 2) of each matrix array and of rhs / x. */
  get sizes(): { matrix: number; rhs: number } {
    const w = this.p.complex ? 2 : 1;
    return { matrix: this.p.n * this.p.batch * w, rhs: this.p.n * this.p.batch * this.p.nrhs * w };
  }

  /**
   * Arrays of this plan's sizes and dtype to fill and pass to solve() call after call (`out` receives x).
   * On the CPU, for real float64 Thomas solves of the interleaved layout with one right-hand side (n ≥ 2,
   * batch ≥ 2, not cyclic), they live in the solver kernel's own WebAssembly memory, and solve() works on them
   * where they lie instead of copying the four arrays in and x out (1.4–2.1× the copying path in BENCHMARKS.md). Otherwise they
   * are ordinary arrays.
   */
  createBuffers(): Required<TridiagonalData<FloatArray>> {
    if (this.destroyed) throw new DestroyedError('tridiagonal plan: createBuffers() after destroy()');
    const { n, batch, nrhs, layout, complex, dtype, backend, cyclic, cpuAlgorithm } = this.p;
    if (backend === 'cpu' && dtype === 'float64' && !complex && !cyclic && nrhs === 1 && cpuAlgorithm === 'thomas') {
      const threaded = cpuThomasThreads(n, batch, this.p.threads) > 1;
      const r = createTridiagonalBuffers(n, batch, layout, threaded, this.p.check);
      if (r) {
        const id = tridiagonalBuffersId(r.lower);
        if (id !== undefined) this.bufferIds.push(id);
        return r;
      }
    }
    const { matrix, rhs } = this.sizes;
    const A = dtype === 'float64' ? Float64Array : Float32Array;
    return { lower: new A(matrix), diag: new A(matrix), upper: new A(matrix), rhs: new A(rhs), out: new A(rhs) };
  }

  async solve<X extends TridiagonalInput>(data: TridiagonalData<X>): Promise<TridiagonalResult<X>> {
    if (this.destroyed) throw new DestroyedError('tridiagonal plan: solve() after destroy()');
    checkOptionNames(data, TRIDIAGONAL_DATA, 'solve');
    const { matrix, rhs } = this.sizes;
    const gpuIn = isGpuBuffer(data.lower);
    for (const k of ['lower', 'diag', 'upper', 'rhs'] as const) {
      const v = data[k] as unknown;
      const need = k === 'rhs' ? rhs : matrix;
      if (gpuIn) {
        if (!isGpuBuffer(v)) throw new ArgumentError(k, v, 'a GPUBuffer like lower');
        if (this.p.backend !== 'webgpu') throw new ArgumentError(k, v, 'typed arrays for the CPU backend');
        if (v.size < need * 4) throw new ArgumentError(`${k}.size`, v.size, `≥ ${need * 4} bytes`);
      } else {
        if (!(v instanceof Float32Array || v instanceof Float64Array))
          throw new ArgumentError(k, v, 'a Float32Array or Float64Array');
        if (v.length !== need)
          throw new ArgumentError(
            `${k}.length`,
            v.length,
            `${need} (n·batch${k === 'rhs' ? '·nrhs' : ''}${this.p.complex ? '·2 for complex' : ''})`,
          );
      }
    }
    if (!gpuIn && data.out !== undefined) {
      // The residual check reads the inputs after the solve.
      for (const k of ['lower', 'diag', 'upper', 'rhs'] as const) {
        if (data[k] === data.out)
          throw new ArgumentError('out', 'the same array as ' + k, `an array different from ${k}`);
      }
    }
    let result: TridiagonalResult<TridiagonalInput>;
    if (this.p.cyclic) result = await this.solveCyclic(data as TridiagonalData<FloatArray>, gpuIn);
    else if (this.p.backend === 'cpu') result = await this.solveCpu(data as TridiagonalData<FloatArray>);
    else result = await this.solveGpu(data, gpuIn);
    if (this.p.onFailure === 'throw' && !result.ok) {
      const failed: number[] = [];
      result.status.forEach((s, j) => {
        if (s & FAILED) failed.push(j);
      });
      throw new TridiagonalBreakdownError(result.status, failed);
    }
    return result as TridiagonalResult<X>;
  }

  private async solveCyclic(
    data: TridiagonalData<FloatArray>,
    gpuIn: boolean,
  ): Promise<TridiagonalResult<TridiagonalInput>> {
    if (gpuIn)
      throw new UnsupportedError('cyclic systems take typed arrays (the Sherman–Morrison correction runs on the host)');
    const F: Field<unknown> = (this.p.complex ? complexField() : realField()) as Field<unknown>;
    const shape = { n: this.p.n, batch: this.p.batch, nrhs: this.p.nrhs, layout: this.p.layout };
    const prep = cyclicPrepare(F, shape, data.lower, data.diag, data.upper, data.rhs);
    const conv = (a: Float64Array) => (this.p.dtype === 'float32' ? Float32Array.from(a) : a);
    const inner = await this.innerPlan!.solve({
      lower: conv(prep.lower),
      diag: conv(prep.diag),
      upper: conv(prep.upper),
      rhs: conv(prep.rhs),
    });
    const x =
      data.out ?? (this.p.dtype === 'float32' ? new Float32Array(this.sizes.rhs) : new Float64Array(this.sizes.rhs));
    // The unit roundoff of the inner solution: float64 plans get it in float64, float32 plans rounded to float32.
    const unit = this.p.dtype === 'float64' ? 2 ** -53 : 2 ** -24;
    const singular = cyclicCombine(F, shape, data.lower, data.diag, data.upper, inner.x as FloatArray, x, unit);
    // The inner solve's residual check was on the modified matrix; what counts is the cyclic system's.
    const status = inner.status.map((s) => s & ~TRIDIAGONAL_STATUS.INACCURATE);
    // Singular to working precision with d outside the range: x is rounding noise divided by rounding noise.
    for (let j = 0; j < this.p.batch; j++) if (singular[j]) status[j] |= TRIDIAGONAL_STATUS.ZERO_PIVOT;
    for (let j = 0; j < this.p.batch; j++) {
      for (let r = 0; r < this.p.nrhs; r++) {
        for (let i = 0; i < this.p.n; i++) {
          const e = rhsIndex(this.p.layout, this.p.n, this.p.batch, r, j, i);
          if (!F.isFinite(F.load(x, e))) status[j] |= TRIDIAGONAL_STATUS.NON_FINITE;
        }
      }
    }
    const backwardError = this.verify(data, x, status);
    // 'auto' re-solves them by pivoting LU, whose last pivot is then rounding noise too: still no solution.
    for (let j = 0; j < this.p.batch; j++) if (singular[j]) status[j] |= TRIDIAGONAL_STATUS.ZERO_PIVOT;
    return { x, status, ok: statusOk(status), backend: inner.backend, backwardError };
  }

  /**
   * The residual check (sets INACCURATE) and, under backend 'auto', the pivoting LU re-solve of the
   * failed matrices, in place in x. `eta`: backward errors already computed by a fused solve.
   */
  private verify(
    data: TridiagonalData<FloatArray>,
    x: FloatArray,
    status: Uint32Array,
    eta?: Float64Array,
  ): Float64Array | undefined {
    const { n, batch, nrhs, layout, complex, cyclic, check, fallback, tolerance } = this.p;
    const shape = { n, batch, nrhs, layout, complex, cyclic };
    const e = check
      ? (eta ?? tridiagonalBackwardErrors(shape, data.lower, data.diag, data.upper, data.rhs, x))
      : undefined;
    const redo: number[] = [];
    for (let j = 0; j < batch; j++) {
      if (e && !(e[j] <= tolerance)) status[j] |= TRIDIAGONAL_STATUS.INACCURATE;
      if (fallback && status[j] & FAILED) redo.push(j);
    }
    if (redo.length === 0) return e;
    for (const j of redo) {
      const st = resolveSystemLu(shape, data.lower, data.diag, data.upper, data.rhs, x, j);
      status[j] = (status[j] & TRIDIAGONAL_STATUS.NOT_DIAGONALLY_DOMINANT) | st | TRIDIAGONAL_STATUS.PIVOTED;
    }
    if (e) {
      const e2 = tridiagonalBackwardErrors(shape, data.lower, data.diag, data.upper, data.rhs, x, redo);
      for (const j of redo) {
        e[j] = e2[j];
        if (!(e2[j] <= tolerance)) status[j] |= TRIDIAGONAL_STATUS.INACCURATE;
      }
    }
    return e;
  }

  /**
   * Real Thomas: the batched float64 kernel in the user's layout, with the residual check fused. float32 data runs it
   * too (exact widening), and x is rounded once at the end: at least as accurate as float32 arithmetic, and 5-8x
   * faster than the per-system float32 path.
   */
  private async solveThomasCpu(
    data: TridiagonalData<FloatArray>,
    scratch: TridiagonalBatchScratch,
  ): Promise<TridiagonalResult<TridiagonalInput>> {
    const { n, batch, nrhs, layout, dtype } = this.p;
    const wide = dtype === 'float64';
    const threads = cpuThomasThreads(n, batch, this.p.threads);
    const data32 = [data.lower, data.diag, data.upper, data.rhs].every((v) => v instanceof Float32Array);
    if (!wide && data32) {
      // float32 data straight into the kernel (widened as it is copied in), x rounded there, and the fused
      // backward errors those of the rounded x.
      const eta = this.p.check ? new Float64Array(batch) : undefined;
      const r = await solveTridiagonalBatchCpu32Threaded(
        { n, batch, nrhs, layout, ...data, out: data.out as Float32Array | undefined },
        scratch,
        eta,
        threads,
        THOMAS_PARTS,
      );
      if (r) {
        const backwardError = this.verify(data, r.x, r.status, eta);
        return { x: r.x, status: r.status, ok: statusOk(r.status), backend: 'cpu', backwardError };
      }
    }
    // float32 plans given float64 arrays solve the float32 values of the data, as the other paths do.
    const f64 = (v: FloatArray): Float64Array => {
      if (v instanceof Float64Array) return wide ? v : Float64Array.from(v, Math.fround);
      const w64 = new Float64Array(v.length);
      w64.set(v); // exact widening, far faster than Float64Array.from
      return w64;
    };
    const d64 = { lower: f64(data.lower), diag: f64(data.diag), upper: f64(data.upper), rhs: f64(data.rhs) };
    const eta = this.p.check && wide ? new Float64Array(batch) : undefined;
    const r = await solveTridiagonalBatchCpuThreaded(
      { n, batch, nrhs, layout, ...d64, out: wide ? (data.out as Float64Array | undefined) : undefined },
      scratch,
      eta,
      threads,
      THOMAS_PARTS,
    );
    if (wide) {
      const backwardError = this.verify(d64, r.x, r.status, eta);
      return { x: r.x, status: r.status, ok: statusOk(r.status), backend: 'cpu', backwardError };
    }
    const x32 = (data.out as Float32Array | undefined) ?? new Float32Array(this.sizes.rhs);
    x32.set(r.x);
    // The check reads the rounded x the caller gets.
    const backwardError = this.verify(data, x32, r.status);
    return { x: x32, status: r.status, ok: statusOk(r.status), backend: 'cpu', backwardError };
  }

  private async solveCpu(data: TridiagonalData<FloatArray>): Promise<TridiagonalResult<TridiagonalInput>> {
    const { n, batch, nrhs, layout, complex, dtype, cpuAlgorithm } = this.p;
    const w = complex ? 2 : 1;
    const round = dtype === 'float32' ? Math.fround : (v: number) => v;
    const F = (complex ? complexField(round) : realField(round)) as Field<unknown>;
    if (
      data.out &&
      (data.out.length !== this.sizes.rhs || !(data.out instanceof (dtype === 'float32' ? Float32Array : Float64Array)))
    ) {
      throw new ArgumentError(
        'out',
        data.out,
        `a ${dtype === 'float32' ? 'Float32Array' : 'Float64Array'} of length ${this.sizes.rhs}`,
      );
    }
    if (!complex && cpuAlgorithm === 'thomas') {
      // Threaded solves wait for workers: a second solve of this plan meanwhile gets a kernel memory of its own.
      const own = !this.scratchBusy;
      const scratch = own ? this.scratch : createTridiagonalBatchScratch();
      if (own) this.scratchBusy = true;
      try {
        return await this.solveThomasCpu(data, scratch);
      } finally {
        if (own) this.scratchBusy = false;
        else releaseTridiagonalBatchScratch(scratch);
      }
    }
    const x = data.out ?? (dtype === 'float32' ? new Float32Array(this.sizes.rhs) : new Float64Array(this.sizes.rhs));
    const status = new Uint32Array(batch);
    const a = new Float64Array(n * w),
      b = a.slice(),
      c = a.slice(),
      d = a.slice(),
      xs = a.slice();
    const scratch = new Float64Array(n * w);
    for (let j = 0; j < batch; j++) {
      for (let i = 0; i < n; i++) {
        const e = matIndex(layout, n, batch, j, i);
        for (let q = 0; q < w; q++) {
          a[i * w + q] = round(data.lower[e * w + q]);
          b[i * w + q] = round(data.diag[e * w + q]);
          c[i * w + q] = round(data.upper[e * w + q]);
        }
      }
      // A non-finite coefficient (or one that overflows float32) makes the elimination meaningless, yet
      // Thomas/LU can return finite numbers for it (an infinite diagonal entry gives x_i = 0): flag it.
      if (!coefficientsFinite(a, b, c, n, w)) status[j] |= TRIDIAGONAL_STATUS.ZERO_PIVOT;
      for (let r = 0; r < nrhs; r++) {
        for (let i = 0; i < n; i++) {
          const e = rhsIndex(layout, n, batch, r, j, i);
          for (let q = 0; q < w; q++) d[i * w + q] = round(data.rhs[e * w + q]);
        }
        let st: number;
        if (cpuAlgorithm === 'lu') st = gtsvLu(F, a, b, c, d, xs, n);
        else if (cpuAlgorithm === 'wang-mou') st = wangMouSolve(F, this.recipe!, a, b, c, d, xs, n);
        else
          st = complex
            ? thomasComplex(a, b, c, d, xs, n, round, scratch)
            : thomasReal(a, b, c, d, xs, n, round, scratch);
        status[j] |= st;
        for (let i = 0; i < n; i++) {
          const e = rhsIndex(layout, n, batch, r, j, i);
          for (let q = 0; q < w; q++) x[e * w + q] = xs[i * w + q];
        }
      }
    }
    const backwardError = this.verify(data, x, status);
    return { x, status, ok: statusOk(status), backend: 'cpu', backwardError };
  }

  private async solveGpu(
    data: TridiagonalData<TridiagonalInput>,
    gpuIn: boolean,
  ): Promise<TridiagonalResult<TridiagonalInput>> {
    const ctx = this.gpu!;
    const ex = this.executor!;
    const { rhs } = this.sizes;
    if (!this.statusBuf) this.statusBuf = createStorageBuffer(ctx, this.p.batch * 4, 'tridiagonal status');
    const temp: GPUBuffer[] = [];
    const up = (v: TridiagonalInput, label: string): GPUBuffer => {
      if (isGpuBuffer(v)) return v;
      const b = createStorageBuffer(ctx, v instanceof Float32Array ? v : Float32Array.from(v), label);
      temp.push(b);
      return b;
    };
    try {
      let out: GPUBuffer;
      if (gpuIn) {
        if (data.out !== undefined && !isGpuBuffer(data.out))
          throw new ArgumentError('out', data.out, 'a GPUBuffer (inputs are GPUBuffers)');
        if (data.out && (data.out as GPUBuffer).size < rhs * 4)
          throw new ArgumentError('out.size', (data.out as GPUBuffer).size, `≥ ${rhs * 4} bytes`);
        out = (data.out as GPUBuffer | undefined) ?? createStorageBuffer(ctx, rhs * 4, 'tridiagonal x');
        for (const k of ['lower', 'diag', 'upper', 'rhs'] as const) {
          if (data[k] === out) throw new ArgumentError('out', 'GPUBuffer', `a buffer different from ${k}`);
        }
      } else {
        out = createStorageBuffer(ctx, rhs * 4, 'tridiagonal x');
        temp.push(out);
      }
      const bufs = {
        lower: up(data.lower, 'tridiagonal lower'),
        diag: up(data.diag, 'tridiagonal diag'),
        upper: up(data.upper, 'tridiagonal upper'),
        rhs: up(data.rhs, 'tridiagonal rhs'),
        out,
        status: this.statusBuf,
      };
      await ctx.checked('tridiagonal solve', () => {
        const enc = ctx.device.createCommandEncoder({ label: 'tridiagonal solve' });
        ex.record(enc, bufs);
        ctx.device.queue.submit([enc.finish()]);
      });
      const status = new Uint32Array(await readBuffer(ctx, this.statusBuf, 0, this.p.batch * 4));
      let x: TridiagonalInput = out;
      let backwardError: Float64Array | undefined;
      if (!gpuIn) {
        const host = new Float32Array(await readBuffer(ctx, out, 0, rhs * 4));
        if (
          data.out &&
          (!(data.out instanceof Float32Array || data.out instanceof Float64Array) || data.out.length !== rhs)
        ) {
          throw new ArgumentError('out', data.out, `a Float32Array or Float64Array of length ${rhs}`);
        }
        backwardError = this.verify(data as TridiagonalData<FloatArray>, host, status);
        if (data.out) {
          (data.out as FloatArray).set(host);
          x = data.out;
        } else x = host;
      } else if (this.p.check || this.p.fallback) {
        // The check needs the data on the host: read the inputs and x back (a residual kernel would avoid
        // the transfer; the check is O(n) a system either way).
        const { matrix } = this.sizes;
        const need = (b: GPUBuffer, name: string, usage: number, what: string) => {
          if (typeof b.usage === 'number' && !(b.usage & usage)) {
            throw new ArgumentError(
              name,
              'GPUBuffer',
              `${what} usage for the residual check (or checkResidual: false)`,
            );
          }
        };
        for (const k of ['lower', 'diag', 'upper', 'rhs'] as const)
          need(bufs[k], k, GPUBufferUsage.COPY_SRC, 'COPY_SRC');
        need(out, 'out', GPUBufferUsage.COPY_SRC, 'COPY_SRC');
        const rd = async (b: GPUBuffer, len: number) => new Float32Array(await readBuffer(ctx, b, 0, len * 4));
        const host = {
          lower: await rd(bufs.lower, matrix),
          diag: await rd(bufs.diag, matrix),
          upper: await rd(bufs.upper, matrix),
          rhs: await rd(bufs.rhs, rhs),
        };
        const hx = await rd(out, rhs);
        backwardError = this.verify(host, hx, status);
        if (status.some((s) => s & TRIDIAGONAL_STATUS.PIVOTED)) {
          need(out, 'out', GPUBufferUsage.COPY_DST, 'COPY_DST');
          ctx.device.queue.writeBuffer(out, 0, hx.buffer, hx.byteOffset, hx.byteLength);
        }
      }
      return { x, status, ok: statusOk(status), backend: 'webgpu', backwardError };
    } finally {
      for (const b of temp) b.destroy();
    }
  }

  /** Releases GPU resources. The plan cannot be used afterwards. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.executor?.destroy();
    this.statusBuf?.destroy();
    this.innerPlan?.destroy();
    // A solve still running (destroyed meanwhile) keeps its scratch; else a later plan may reuse it.
    if (this.scratchBusy) releaseTridiagonalBatchScratch(this.scratch);
    else giveBackTridiagonalBatchScratch(this.scratch);
    // Workers drop their instances on the plan's engine buffers (the arrays stay valid where they are held).
    releaseSharedMemories(this.bufferIds);
  }
}

/** The coefficients a solve reads (a_0 and c_{N−1} are ignored) are all finite. */
function coefficientsFinite(a: Float64Array, b: Float64Array, c: Float64Array, n: number, w: number): boolean {
  for (let k = 0; k < n * w; k++) {
    if (!Number.isFinite(b[k])) return false;
    if (k >= w && !Number.isFinite(a[k])) return false;
    if (k < (n - 1) * w && !Number.isFinite(c[k])) return false;
  }
  return true;
}

function statusOk(status: Uint32Array): boolean {
  // A plain loop: batches of 65536 short systems spent 5% of a solve in every()'s callback.
  for (let j = 0; j < status.length; j++) if (status[j]! & FAILED) return false;
  return true;
}

/** Validates the descriptor, chooses the backend, plans and compiles. */
export async function createTridiagonalPlan(desc: TridiagonalPlanDescriptor): Promise<TridiagonalPlan> {
  if (typeof desc !== 'object' || desc === null) throw new ArgumentError('descriptor', desc, 'an object');
  checkOptionNames(desc, TRIDIAGONAL_PLAN_OPTIONS, 'createTridiagonalPlan');
  const p: Resolved = {
    n: desc.n,
    batch: desc.batch ?? 1,
    nrhs: desc.nrhs ?? 1,
    layout: desc.layout ?? 'strided',
    complex: desc.complex ?? false,
    dtype: desc.dtype ?? 'float32',
    backend: 'cpu',
    cyclic: desc.cyclic ?? false,
    cpuAlgorithm: desc.cpuAlgorithm ?? 'thomas',
    onFailure: desc.onFailure ?? 'status',
    fallback: (desc.backend ?? 'auto') === 'auto',
    check: desc.checkResidual ?? true,
    tolerance: desc.residualTolerance ?? defaultResidualTolerance(desc.dtype === 'float64' ? 'float64' : 'float32'),
    threads: 1,
  };
  if (typeof p.check !== 'boolean') throw new ArgumentError('checkResidual', p.check, 'true or false');
  if (typeof p.complex !== 'boolean') throw new ArgumentError('complex', p.complex, 'true or false');
  if (typeof p.cyclic !== 'boolean') throw new ArgumentError('cyclic', p.cyclic, 'true or false');
  if (!(p.tolerance > 0)) throw new ArgumentError('residualTolerance', p.tolerance, 'a positive number');
  p.threads = await planeThreads(desc.threads);
  validateProblem({ n: p.n, batch: p.batch, nrhs: p.nrhs, layout: p.layout, complex: p.complex });
  if (p.dtype !== 'float32' && p.dtype !== 'float64')
    throw new ArgumentError('dtype', p.dtype, "'float32' or 'float64'");
  if (!['thomas', 'wang-mou', 'lu'].includes(p.cpuAlgorithm))
    throw new ArgumentError('cpuAlgorithm', p.cpuAlgorithm, "'thomas', 'wang-mou' or 'lu'");
  if (p.onFailure !== 'status' && p.onFailure !== 'throw')
    throw new ArgumentError('onFailure', p.onFailure, "'status' or 'throw'");
  const want = desc.backend ?? 'auto';
  if (!['webgpu', 'cpu', 'auto'].includes(want)) throw new ArgumentError('backend', want, "'webgpu', 'cpu' or 'auto'");
  if (want === 'webgpu' && p.dtype === 'float64')
    throw new UnsupportedError('float64 tridiagonal solves run on the CPU backend only (WGSL has no f64)');
  if (want === 'webgpu' && desc.cpuAlgorithm === 'lu')
    throw new UnsupportedError("cpuAlgorithm 'lu' (pivoting) exists on the CPU backend only");
  // The one backend choice (api/backend.ts): 'auto' skips software adapters and keeps float64 on the CPU.
  let gpu: GpuContext | null = null;
  if (want === 'webgpu') gpu = await gpuFor('webgpu', desc.gpu);
  else if (want === 'auto' && p.dtype === 'float32' && desc.cpuAlgorithm === undefined)
    gpu = await gpuFor('auto', desc.gpu);

  if (p.cyclic) {
    // The inner (non-cyclic) plan solves nrhs + 1 right-hand sides (the Sherman–Morrison vector u); it
    // chooses the backend ('auto' falls back to the CPU as below).
    const inner = await createTridiagonalPlan({
      ...desc,
      cyclic: false,
      onFailure: 'status',
      backend: gpu ? want : 'cpu',
      gpu: gpu ?? undefined,
      nrhs: p.n <= 2 ? p.nrhs : p.nrhs + 1,
    });
    p.backend = inner.backend;
    return new TridiagonalPlan(p, inner.recipe, inner.backend === 'webgpu' ? gpu : null, null, inner);
  }
  const problem = { n: p.n, batch: p.batch, nrhs: p.nrhs, complex: p.complex, layout: p.layout };
  const { splitLimits: _split, ...planOptions } = desc.tuning ?? {};
  if (gpu) {
    // Arrays beyond one storage binding, and dispatches beyond one grid, are split into chunks by the
    // executor; a single system that does not fit raises DeviceLimitError, which 'auto' answers by
    // solving on the CPU (as any ButterflyError but ArgumentError from the GPU path).
    try {
      const recipe = planTridiagonal(problem, gpu.limits, planOptions);
      const executor = await TridiagonalGpuExecutor.create(gpu, recipe, { splitLimits: desc.tuning?.splitLimits });
      p.backend = 'webgpu';
      return new TridiagonalPlan(p, recipe, gpu, executor, null);
    } catch (e) {
      if (want === 'webgpu' || !(e instanceof ButterflyError) || e instanceof ArgumentError) throw e;
    }
  }
  p.backend = 'cpu';
  const cpuLimits = {
    maxComputeWorkgroupStorageSize: 32768,
    maxComputeInvocationsPerWorkgroup: 1024,
    maxComputeWorkgroupsPerDimension: 65535,
  };
  // The CPU's 'wang-mou' algorithm executes Wang & Mou levels (the GPU kernels' specification); its
  // recipe keeps them for small interleaved systems too (Thomas is the CPU's own default algorithm).
  const recipe = planTridiagonal(problem, cpuLimits, {
    ...planOptions,
    interleavedThomas: false,
    interleavedStreamRows: Infinity,
  });
  return new TridiagonalPlan(p, recipe, null, null, null);
}

/**
 * One-shot solve: plans, solves and releases the plan (pipelines stay cached per device). `dtype` defaults to
 * the right-hand side's array type, as the FFTs' results follow their input's: Float64Array data is solved in
 * float64 on the CPU (in float32 with backend 'webgpu', as FFTs there), Float32Array data and GPU buffers in float32.
 */
export async function solveTridiagonal<X extends TridiagonalInput>(
  desc: TridiagonalPlanDescriptor & TridiagonalData<X>,
): Promise<TridiagonalResult<X>> {
  if (typeof desc !== 'object' || desc === null) throw new ArgumentError('descriptor', desc, 'an object');
  checkOptionNames(desc, [...TRIDIAGONAL_PLAN_OPTIONS, ...TRIDIAGONAL_DATA], 'solveTridiagonal');
  const { lower, diag, upper, rhs, out, ...planDesc } = desc;
  const dtype = desc.dtype ?? (rhs instanceof Float64Array && desc.backend !== 'webgpu' ? 'float64' : undefined);
  const plan = await createTridiagonalPlan(dtype ? { ...planDesc, dtype } : planDesc);
  try {
    return await plan.solve({ lower, diag, upper, rhs, out });
  } finally {
    plan.destroy();
  }
}
