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
import { ArgumentError, DeviceLimitError } from '../../errors.js';
import { fft2, ifft2 } from '../../backends/cpu/fft-nd.js';
import { GridConvolver } from '../../backends/webgpu/convolve-grid.js';
import type { GridPlanOptions, GridConvRecipe } from '../../planner/convolve-grid.js';
import {
  checkReadback,
  createStorageBuffer,
  defaultGpuContext,
  readBuffer,
  type GpuContext,
} from '../../backends/webgpu/device.js';
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
  if (M > mfft)
    throw new ArgumentError('M', M, `at most mfft = ${mfft} modes (the block is zero-padded into the grid)`);
  const shapes = int('shapes', p.shapes);
  const components = int('components', p.components ?? 3);
  const angles = int('angles', p.angles ?? 1);
  return { M, mfft, shapes, components, angles, slices: angles * shapes * components };
}

function checkArrays(p: ResolvedEdmProblem, field: ArrayLike<number>, shapeFns: ArrayLike<number>): void {
  if (field.length !== 2 * p.slices * p.M * p.M)
    throw new ArgumentError(
      'field',
      field,
      `${2 * p.slices * p.M * p.M} values (${p.slices} slices of ${p.M}×${p.M}, interleaved complex)`,
    );
  if (shapeFns.length !== 2 * p.shapes * p.mfft * p.mfft)
    throw new ArgumentError(
      'shapes',
      shapeFns,
      `${2 * p.shapes * p.mfft * p.mfft} values (${p.shapes} grids of ${p.mfft}×${p.mfft}, interleaved complex)`,
    );
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
  /** Experimental planner overrides, for benchmarks and tests (see EdmTuning). */
  tuning?: EdmTuning;
}

/**
 * The grid planner's overrides (GridPlanOptions: fused or split kernels, radices, workgroup shape), and a
 * lowered binding limit to split the angles into windows (never above the device's), so tests exercise
 * several windows with small data. Results do not depend on them.
 */
export interface EdmTuning extends GridPlanOptions {
  splitLimits?: { maxStorageBufferBindingSize?: number };
}

/** A run of consecutive angles of incidence, convolved by one dispatch chain. */
interface EdmWindow {
  /** First angle and number of angles. */
  angle0: number;
  angles: number;
  conv: GridConvolver;
  /** Byte offset of the window in the field and output buffers (both hold M² complex per slice). */
  offset: number;
  /** Whether the offset is a valid binding offset; if not, the window goes through staging buffers. */
  aligned: boolean;
}

/**
 * A WebGPU plan for one EDM problem: validate and compile once, run many times.
 *
 * When the field, the output or the split version's intermediates of all angles exceed one storage binding,
 * the angles run in windows of equal size (the last one smaller), one dispatch chain each. A window that
 * starts at an offset the device cannot bind is copied into (and out of) plan-owned staging buffers.
 */
export class EdmPlan {
  private staging: { field: GPUBuffer; out: GPUBuffer } | null = null;

  private constructor(
    readonly problem: ResolvedEdmProblem,
    private readonly ctx: GpuContext,
    private readonly windows: EdmWindow[],
  ) {}

  static async create(problem: EdmProblem, options: EdmPlanOptions = {}): Promise<EdmPlan> {
    const p = resolveEdm(problem);
    const ctx = options.gpu ?? (await defaultGpuContext());
    const geometry = {
      P: p.mfft,
      Q: p.mfft,
      inRows: p.M,
      inCols: p.M,
      outRow0: 0,
      outCol0: 0,
      outRows: p.M,
      outCols: p.M,
      inverse: true,
    };
    const perAngle = p.shapes * p.components;
    const maxBinding = Math.min(
      ctx.limits.maxStorageBufferBindingSize,
      options.tuning?.splitLimits?.maxStorageBufferBindingSize ?? Infinity,
    );
    const angleBytes = perAngle * GridConvolver.bindingBytesPerSlice(ctx, geometry, options.tuning);
    const fit = Math.floor(maxBinding / angleBytes);
    if (fit < 1) {
      throw new DeviceLimitError(
        'maxStorageBufferBindingSize',
        angleBytes,
        maxBinding,
        `one angle of incidence of the EDM problem (${perAngle} slices of ${p.mfft}×${p.mfft})`,
      );
    }
    // Equal windows (the last one smaller): the fewest that fit, so no window is needlessly tiny.
    const count = Math.ceil(p.angles / fit);
    const per = Math.ceil(p.angles / count);
    const { splitLimits: _split, ...grid } = options.tuning ?? {};
    const opts = { ...grid, comps: p.components, layers: p.shapes };
    const main = await GridConvolver.create(ctx, geometry, per * perAngle, opts);
    const windows: EdmWindow[] = [];
    try {
      const align = ctx.limits.minStorageBufferOffsetAlignment;
      const angleFieldBytes = perAngle * p.M * p.M * 8;
      for (let a = 0; a < p.angles; a += per) {
        const angles = Math.min(per, p.angles - a);
        const conv = angles === per ? main : main.withBatch(angles * perAngle);
        const offset = a * angleFieldBytes;
        windows.push({ angle0: a, angles, conv, offset, aligned: offset % align === 0 });
      }
    } catch (e) {
      for (const w of windows) if (w.conv !== main) w.conv.destroy();
      main.destroy();
      throw e;
    }
    return new EdmPlan(p, ctx, windows);
  }

  get recipe(): GridConvRecipe {
    return this.windows[0].conv.recipe;
  }

  /** Number of dispatches per window (1 when fused). */
  get passes(): number {
    return this.recipe.kernels.length;
  }

  /** The angle windows: [first angle, number of angles] each, in order. */
  get angleWindows(): [number, number][] {
    return this.windows.map((w) => [w.angle0, w.angles]);
  }

  /** Bytes of the field and output buffers (slices · M² complex). */
  get fieldBytes(): number {
    return 8 * this.problem.slices * this.problem.M * this.problem.M;
  }

  private stagingBuffers(): { field: GPUBuffer; out: GPUBuffer } {
    if (!this.staging) {
      const bytes = 8 * this.windows[0].conv.inputLength;
      const d = this.ctx.device;
      this.staging = {
        field: d.createBuffer({
          size: bytes,
          usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
          label: 'edm field window',
        }),
        out: d.createBuffer({
          size: bytes,
          usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
          label: 'edm output window',
        }),
      };
    }
    return this.staging;
  }

  /**
   * Records one run into `encoder`: field (slices·M² complex) × shapes (shapes·mfft² complex) → out.
   * With several windows at unaligned offsets, field needs COPY_SRC and out COPY_DST usage as well
   * (createStorageBuffer gives both).
   */
  encode(encoder: GPUCommandEncoder, field: GPUBuffer, shapes: GPUBuffer, out: GPUBuffer): void {
    const ctx = this.ctx;
    ctx.assertUsable('EDM');
    ctx.checkEncoder('encoder', encoder);
    ctx.checkBuffer('field', field, this.fieldBytes);
    ctx.checkBuffer('shapes', shapes, 8 * this.problem.shapes * this.problem.mfft * this.problem.mfft);
    ctx.checkBuffer('out', out, this.fieldBytes);
    if (field === out) throw new ArgumentError('out', 'the field buffer', 'a different buffer');
    if (this.windows.length === 1) {
      this.windows[0].conv.encode(encoder, field, out, shapes);
      return;
    }
    if (this.windows.some((w) => !w.aligned)) {
      if ((field.usage & GPUBufferUsage.COPY_SRC) === 0)
        throw new ArgumentError(
          'field',
          `GPUBuffer with usage ${field.usage}`,
          'COPY_SRC usage as well (angle windows are staged)',
        );
      if ((out.usage & GPUBufferUsage.COPY_DST) === 0)
        throw new ArgumentError(
          'out',
          `GPUBuffer with usage ${out.usage}`,
          'COPY_DST usage as well (angle windows are staged)',
        );
    }
    for (const w of this.windows) {
      const bytes = 8 * w.conv.inputLength;
      if (w.aligned) {
        w.conv.encode(encoder, field, out, shapes, w.offset, w.offset);
        continue;
      }
      const st = this.stagingBuffers();
      encoder.copyBufferToBuffer(field, w.offset, st.field, 0, bytes);
      w.conv.encode(encoder, st.field, st.out, shapes);
      encoder.copyBufferToBuffer(st.out, 0, out, w.offset, bytes);
    }
  }

  /** Host round trip (uploads, runs, reads back). */
  async run(field: Float32Array, shapeFns: Float32Array): Promise<Float32Array> {
    checkArrays(this.problem, field, shapeFns);
    if (this.windows.length === 1) return this.windows[0].conv.run(field, shapeFns);
    const ctx = this.ctx;
    checkReadback(this.fieldBytes, `the EDM result of ${this.problem.slices} slices`);
    const fb = createStorageBuffer(ctx, field, 'edm field');
    const sb = createStorageBuffer(ctx, shapeFns, 'edm shapes');
    const ob = createStorageBuffer(ctx, new Float32Array(field.length).fill(NaN), 'edm out');
    try {
      await ctx.checked('EDM', () => {
        const enc = ctx.device.createCommandEncoder();
        this.encode(enc, fb, sb, ob);
        ctx.device.queue.submit([enc.finish()]);
      });
      return new Float32Array(await readBuffer(ctx, ob, 0, this.fieldBytes));
    } finally {
      fb.destroy();
      sb.destroy();
      ob.destroy();
    }
  }

  destroy(): void {
    // Variants first: they share the main window's buffers.
    for (const w of [...this.windows].reverse()) w.conv.destroy();
    this.staging?.field.destroy();
    this.staging?.out.destroy();
    this.staging = null;
  }
}

export function createEdmPlan(problem: EdmProblem, options: EdmPlanOptions = {}): Promise<EdmPlan> {
  return EdmPlan.create(problem, options);
}
