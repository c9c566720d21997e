/**
 * Real FFTs on the CPU engine. Even lengths whose half splits across the lanes run one module that
 * does the half-length complex FFT and the post-processing (src/codegen/wasm/rfft-post.ts) in one
 * call per chunk; every other case (odd n, short n, the inverse) uses the reference adapter's
 * arithmetic around an engine complex FFT (CpuRealFft built inside the engine scope).
 */
import { ArgumentError } from '../../errors.js';
import { planCpuEngineRfft, type CpuPrecision } from '../../planner/cpu-fft.js';
import { checkFits, checkLength, normScale, type StridedLayout } from './fft-mixed-radix.js';
import { CpuRealFft, type CpuRealExecOptions, type CpuRealFftRecipe, type RealFftPlan } from './fft-real.js';
import { tryFusedRealFft, type FusedRealFft } from './wasm-fft.js';
import type { CpuEngineFftRecipe } from '../../planner/cpu-fft.js';

type AnyArray = Float32Array | Float64Array;

function layout(l: StridedLayout | undefined, n: number, name: string): { offset: number; stride: number; dist: number } {
  const offset = l?.offset ?? 0;
  const stride = l?.stride ?? 1;
  const dist = l?.dist ?? n * stride;
  for (const [k, v] of [['offset', offset], ['stride', stride], ['dist', dist]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new ArgumentError(`${name}.${k}`, v, 'a non-negative integer');
  }
  return { offset, stride, dist };
}

export class EngineRealFft implements RealFftPlan {
  readonly nComplex: number;
  readonly recipe: CpuRealFftRecipe | { kind: 'real-fused'; n: number; inner: CpuEngineFftRecipe };
  private readonly fused: FusedRealFft | null;
  private readonly generic: CpuRealFft;
  constructor(
    readonly n: number,
    precision: CpuPrecision,
  ) {
    this.nComplex = Math.floor(n / 2) + 1;
    // Built inside the caller's engine scope, so its inner complex FFT is the engine's.
    this.generic = new CpuRealFft(n);
    const r = planCpuEngineRfft(n, precision);
    this.fused = r ? tryFusedRealFft(r) : null;
    this.recipe = r && this.fused ? { kind: 'real-fused', n, inner: r } : this.generic.recipe;
  }
  forward1(x: ArrayLike<number>, xo: number, y: AnyArray, yo: number, scale = 1): void {
    if (this.fused && (x instanceof Float32Array || x instanceof Float64Array)) {
      this.fused.forwardReal(x, { offset: xo, stride: 1, dist: 0 }, y, { offset: yo, stride: 1, dist: 0 }, 1, scale);
    } else this.generic.forward1(x, xo, y, yo, scale);
  }
  inverse1(y: ArrayLike<number>, yo: number, x: AnyArray, xo: number, scale = 1): void {
    this.generic.inverse1(y, yo, x, xo, scale);
  }
  forward(input: ArrayLike<number> & { length: number }, output: AnyArray, options: CpuRealExecOptions = {}): void {
    if (!this.fused || !(input instanceof Float32Array || input instanceof Float64Array)) {
      this.generic.forward(input, output, options);
      return;
    }
    const n = this.n;
    const batch = options.batch ?? 1;
    checkLength(batch, 'batch', 0);
    const li = layout(options.input, n, 'input');
    const lo = layout(options.output, this.nComplex, 'output');
    checkFits(input.length, n, batch, li, 'input', 1);
    checkFits(output.length, this.nComplex, batch, lo, 'output', 2);
    this.fused.forwardReal(input, li, output, lo, batch, normScale(n, options.norm, false));
  }
  inverse(input: ArrayLike<number> & { length: number }, output: AnyArray, options: CpuRealExecOptions = {}): void {
    this.generic.inverse(input, output, options);
  }
}
