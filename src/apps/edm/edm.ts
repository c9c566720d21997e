/**
 * The EDM hot spot (seed 001): for every slice, zero-pad the M×M block of Fourier modes into an
 * mfft×mfft grid, FFT2, multiply point-wise by the slice's shape function, inverse FFT2 (normalised by
 * 1/mfft²), crop back to M×M.
 *
 * Layout (row-major, complex interleaved):
 *   field   [angles][shapes][components][M][M]     (slice s = (angle·shapes + shape)·components + component)
 *   shapes  [shapes][mfft][mfft]                   (shared by the components and by all angles)
 *   output  like field.
 * `shapes` = layers + 1 sample points in z, `components` = 3 field components.
 *
 * On WebGPU this is one grid-convolution plan (codegen/convolve-grid.ts): a single fused kernel when an
 * mfft×mfft grid fits the workgroup memory (mfft ≤ 64 on the lent GPU and on llvmpipe), three passes
 * otherwise. The float64 CPU reference follows the thesis' algorithm literally with our CPU FFT.
 */
import { ArgumentError } from '../../errors.js';
import { fft2, ifft2 } from '../../backends/cpu/fft-nd.js';
import { GridConvolver } from '../../backends/webgpu/convolve-grid.js';
import type { GridPlanOptions, GridConvRecipe } from '../../codegen/convolve-plan.js';
import { defaultGpuContext, type GpuContext } from '../../backends/webgpu/device.js';
import type { EdmCase } from './cases.js';

export interface EdmProblem {
  /** Modes per axis (2·harmonics + 1). */
  M: number;
  mfft: number;
  /** Shape functions (layers + 1). */
  shapes: number;
  /** Field components per shape function (3). */
  components?: number;
  /** Angles of incidence (batch). */
  angles?: number;
}

export interface ResolvedEdmProblem extends Required<EdmProblem> {
  slices: number;
}

export function edmProblem(c: EdmCase, angles = 1): ResolvedEdmProblem {
  return resolveEdm({ M: c.M, mfft: c.mfft, shapes: c.layers + 1, components: 3, angles });
}

export function resolveEdm(p: EdmProblem): ResolvedEdmProblem {
  const int = (name: string, v: unknown, min = 1) => {
    if (!Number.isSafeInteger(v) || (v as number) < min) throw new ArgumentError(name, v, `an integer ≥ ${min}`);
    return v as number;
  };
  const M = int('M', p.M);
  const mfft = int('mfft', p.mfft);
  if (M > mfft) throw new ArgumentError('M', M, `at most mfft = ${mfft} modes (the block is zero-padded into the grid)`);
  const shapes = int('shapes', p.shapes);
  const components = int('components', p.components ?? 3);
  const angles = int('angles', p.angles ?? 1);
  return { M, mfft, shapes, components, angles, slices: angles * shapes * components };
}

function checkArrays(p: ResolvedEdmProblem, field: ArrayLike<number>, shapeFns: ArrayLike<number>): void {
  if (field.length !== 2 * p.slices * p.M * p.M) throw new ArgumentError('field', field, `${2 * p.slices * p.M * p.M} values (${p.slices} slices of ${p.M}×${p.M}, interleaved complex)`);
  if (shapeFns.length !== 2 * p.shapes * p.mfft * p.mfft) throw new ArgumentError('shapes', shapeFns, `${2 * p.shapes * p.mfft * p.mfft} values (${p.shapes} grids of ${p.mfft}×${p.mfft}, interleaved complex)`);
}

/** Float64 reference: pad → fft2 → multiply → ifft2 → crop, slice by slice. */
export function edmReference(problem: EdmProblem, field: ArrayLike<number>, shapeFns: ArrayLike<number>): Float64Array {
  const p = resolveEdm(problem);
  checkArrays(p, field, shapeFns);
  const { M, mfft: n } = p;
  const out = new Float64Array(2 * p.slices * M * M);
  const grid = new Float64Array(2 * n * n);
  for (let s = 0; s < p.slices; s++) {
    grid.fill(0);
    for (let r = 0; r < M; r++) {
      for (let c = 0; c < M; c++) {
        const i = 2 * ((s * M + r) * M + c);
        grid[2 * (r * n + c)] = field[i];
        grid[2 * (r * n + c) + 1] = field[i + 1];
      }
    }
    const f = fft2(grid, [n, n]).data;
    const l = Math.floor(s / p.components) % p.shapes;
    const sb = 2 * l * n * n;
    for (let e = 0; e < n * n; e++) {
      const xr = f[2 * e];
      const xi = f[2 * e + 1];
      const yr = shapeFns[sb + 2 * e];
      const yi = shapeFns[sb + 2 * e + 1];
      f[2 * e] = xr * yr - xi * yi;
      f[2 * e + 1] = xr * yi + xi * yr;
    }
    const y = ifft2(f, [n, n]).data;
    for (let r = 0; r < M; r++) {
      for (let c = 0; c < M; c++) {
        const o = 2 * ((s * M + r) * M + c);
        out[o] = y[2 * (r * n + c)];
        out[o + 1] = y[2 * (r * n + c) + 1];
      }
    }
  }
  return out;
}

export interface EdmPlanOptions {
  gpu?: GpuContext;
  planner?: GridPlanOptions;
}

/** A WebGPU plan for one EDM problem: validate and compile once, run many times. */
export class EdmPlan {
  private constructor(
    readonly problem: ResolvedEdmProblem,
    private readonly conv: GridConvolver,
  ) {}

  static async create(problem: EdmProblem, options: EdmPlanOptions = {}): Promise<EdmPlan> {
    const p = resolveEdm(problem);
    const ctx = options.gpu ?? (await defaultGpuContext());
    const conv = await GridConvolver.create(
      ctx,
      { P: p.mfft, Q: p.mfft, inRows: p.M, inCols: p.M, outRow0: 0, outCol0: 0, outRows: p.M, outCols: p.M, inverse: true },
      p.slices,
      { ...options.planner, comps: p.components, layers: p.shapes },
    );
    return new EdmPlan(p, conv);
  }

  get recipe(): GridConvRecipe {
    return this.conv.recipe;
  }

  /** Number of dispatches per run (1 when fused). */
  get passes(): number {
    return this.conv.recipe.kernels.length;
  }

  /** Records one run into `encoder`: field (slices·M² complex) × shapes (shapes·mfft² complex) → out. */
  encode(encoder: GPUCommandEncoder, field: GPUBuffer, shapes: GPUBuffer, out: GPUBuffer): void {
    this.conv.encode(encoder, field, out, shapes);
  }

  /** Host round trip (uploads, runs, reads back). */
  async run(field: Float32Array, shapeFns: Float32Array): Promise<Float32Array> {
    checkArrays(this.problem, field, shapeFns);
    return this.conv.run(field, shapeFns);
  }

  destroy(): void {
    this.conv.destroy();
  }
}

export function createEdmPlan(problem: EdmProblem, options: EdmPlanOptions = {}): Promise<EdmPlan> {
  return EdmPlan.create(problem, options);
}
