/**
 * Transforms along any axes on the CPU engine, one axis at a time: an axis the engine transforms as rows runs
 * straight where it is the innermost axis, else between two WebAssembly transposes that make it innermost and put it
 * back, so the rows stream through the engine's modules instead of being gathered element by element a column at
 * a time. Axes the engine does not take (crop or pad, no module) are a caller's reference step.
 */
import { generateTransposeModule } from '../../codegen/wasm/transpose.js';
import { sharedMemory } from './worker-pool.js';
import { filledResult } from '../../util/filled-result.js';

type RealArray = Float32Array | Float64Array;

/**
 * One axis on the engine: rows of nIn elements (inPer numbers each: 1 real, 2 complex) become rows of nOut (outPer
 * numbers each). `rows(input, output, count)` transforms `count` contiguous rows.
 */
export interface EngineAxisStep {
  axis: number;
  /** Consecutive axes from `axis` taken as one (rows of their product; nIn = nOut, the shape kept). Default 1. */
  span?: number;
  nIn: number;
  nOut: number;
  inPer: 1 | 2;
  outPer: 1 | 2;
  rows(input: RealArray, output: RealArray, count: number): Promise<void>;
  /**
   * Where the axis is not the innermost: the step on the data where it lies, `outer` blocks of nIn × inner elements
   * to blocks of nOut × inner (no transposes). Planned for the inner size of the step's shape.
   */
  columns?(input: RealArray, output: RealArray, outer: number): void | Promise<void>;
}
/** One axis by other means: the data (row-major `shape`) transformed along `axis`, with its new shape. */
export interface ReferenceAxisStep {
  axis: number;
  reference(data: RealArray, shape: number[]): { data: RealArray; shape: number[] };
}
export type AxisStep = EngineAxisStep | ReferenceAxisStep;

interface Transposes {
  t4: Transpose;
  t8n: Transpose;
  t16: Transpose;
}
type Transpose = (src: number, dst: number, rows: number, cols: number, srcStride: number, dstStride: number) => void;
const transposeModules = new Map<boolean, WebAssembly.Module>();
/** Pages a shared staging memory may grow to (4 GiB, WebAssembly's limit). */
const SHARED_MAX_PAGES = 65536;
/** Source rows a transpose call walks (1024 × 1024 f32: 0.67 ms against 0.82 for all rows at once). */
const ROW_BLOCK = 64;

/**
 * A WebAssembly memory of three regions and the transposes over it: the data is copied in once, transposed there
 * (about 5× a JavaScript loop's rate, whose power-of-two strides also thrash L1), the engine reads and writes the
 * regions through views, and the result is copied out once. One per element type is kept between calls (fresh
 * pages cost more than the transposes: 1024 × 1024 f32 took 4× as long in a new memory). Shared where threads can
 * use it, so the engine's workers read and write the regions in place instead of through staged copies.
 */
class Staging<T extends RealArray> {
  private readonly t: Transposes;
  private readonly memory: WebAssembly.Memory;
  private region = 0;
  constructor(private readonly Type: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number }) {
    // Shared where workers can take it: the engine's threads then read and write the regions in place.
    let shared = sharedMemory();
    let memory: WebAssembly.Memory | null = null;
    if (shared) {
      try {
        memory = new WebAssembly.Memory({ initial: 1, maximum: SHARED_MAX_PAGES, shared: true });
      } catch {
        shared = false;
      }
    }
    this.memory = memory ?? new WebAssembly.Memory({ initial: 1 });
    let module = transposeModules.get(shared);
    if (!module) {
      module = new WebAssembly.Module(generateTransposeModule(shared, SHARED_MAX_PAGES) as BufferSource);
      transposeModules.set(shared, module);
    }
    this.t = new WebAssembly.Instance(module, { env: { memory: this.memory } }).exports as unknown as Transposes;
  }
  /** Regions of at least `length` numbers each (the memory grows where it must). */
  fit(length: number): this {
    this.region = Math.ceil((length * this.Type.BYTES_PER_ELEMENT) / 64) * 64;
    const need = 3 * this.region - this.memory.buffer.byteLength;
    if (need > 0) this.memory.grow(Math.ceil(need / 65536));
    return this;
  }
  /** Bytes the memory holds now. */
  bytes(): number {
    return this.memory.buffer.byteLength;
  }
  /** The first `length` numbers of region k. */
  view(k: number, length: number): T {
    return new this.Type(this.memory.buffer, k * this.region, length);
  }
  /** region[to][o][c][r] = region[from][o][r][c] for o < outer, r < rows, c < cols, elements of `per` numbers. */
  transpose(from: number, to: number, outer: number, rows: number, cols: number, per: 1 | 2): void {
    const e = per * this.Type.BYTES_PER_ELEMENT;
    const move = e === 4 ? this.t.t4 : e === 8 ? this.t.t8n : this.t.t16;
    const [src, dst] = [from * this.region, to * this.region];
    // ROW_BLOCK source rows at a time, so a block's source lines are still cached for the next column tile.
    for (let o = 0, p = 0; o < outer; o++, p += rows * cols * e)
      for (let r0 = 0; r0 < rows; r0 += ROW_BLOCK)
        move(src + p + r0 * cols * e, dst + p + r0 * e, Math.min(ROW_BLOCK, rows - r0), cols, cols * e, rows * e);
  }
}

/**
 * Idle stagings, one kept per element type. A call takes one for its whole run: calls in flight at once (their row
 * steps await workers) each get their own, and a step that calls back into this module cannot reuse its caller's.
 */
const idle = new Map<ArrayType, Staging<RealArray>>();
/** Largest staging memory kept between calls (three regions of 4096² f32 fit). */
const KEEP_BYTES = 256 * 2 ** 20;
type ArrayType = typeof Float32Array | typeof Float64Array;
function acquire(Type: ArrayType): Staging<RealArray> {
  const st = idle.get(Type);
  if (st) {
    idle.delete(Type);
    return st;
  }
  return new Staging(Type as typeof Float32Array);
}

const product = (a: readonly number[]): number => a.reduce((p, v) => p * v, 1);

/** Numbers on each side of an engine step at a shape. */
function stepSizes(step: EngineAxisStep, shape: readonly number[]) {
  const span = step.span ?? 1;
  const outer = product(shape.slice(0, step.axis));
  const inner = product(shape.slice(step.axis + span));
  return {
    span,
    outer,
    inner,
    inLen: outer * inner * step.nIn * step.inPer,
    outLen: outer * inner * step.nOut * step.outPer,
  };
}

/**
 * `x` (row-major `shape`) through `steps` in order. The last step writes to `into` where it has the result's
 * length (it must not overlap x); x itself is never written. Between engine steps the data stays in the staging
 * memory (one of its three regions), so it is copied in and out of WebAssembly memory once a call, not once a step.
 */
export async function transformAlongAxes(
  x: RealArray,
  shape: readonly number[],
  steps: readonly AxisStep[],
  into: RealArray | undefined,
): Promise<RealArray> {
  const Type = x instanceof Float32Array ? Float32Array : Float64Array;
  /**
   * Regions large enough for every input and output of the run of engine steps from step i (a reference step may
   * crop or pad, so sizes are known only from the shape it leaves); fitted while no data lives in the regions.
   */
  const runSize = (i: number, from: readonly number[]): number => {
    let most = 0;
    const sh = [...from];
    for (let j = i; j < steps.length; j++) {
      const step = steps[j]!;
      if ('reference' in step) break;
      const z = stepSizes(step, sh);
      most = Math.max(most, z.inLen, z.outLen);
      if (z.span === 1) sh[step.axis] = step.nOut;
    }
    return most;
  };
  const st = acquire(Type);
  try {
    let cur: RealArray = x;
    /** The staging region `cur` is a view of, or −1. */
    let at = -1;
    let curShape = [...shape];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const last = i === steps.length - 1;
      if ('reference' in step) {
        ({ data: cur, shape: curShape } = step.reference(cur, curShape));
        at = -1;
        continue;
      }
      if (at < 0) st.fit(runSize(i, curShape));
      const { span, outer, inner, inLen, outLen } = stepSizes(step, curShape);
      const out = (k: number) =>
        last ? (into && into.length === outLen ? into : filledResult(Type, outLen)) : st.view(k, outLen);
      if (inner === 1 || step.columns) {
        const k = (at + 1) % 3;
        const dst = out(k);
        if (inner === 1) await step.rows(cur, dst, outer);
        else await step.columns!(cur, dst, outer);
        [cur, at] = [dst, last ? -1 : k];
      } else {
        // [outer][nIn][inner] → [outer][inner][nIn], the rows, and [outer][inner][nOut] → [outer][nOut][inner].
        const a = at < 0 ? 0 : at;
        if (at < 0) st.view(a, inLen).set(cur);
        const [b, c] = [(a + 1) % 3, (a + 2) % 3];
        st.transpose(a, b, outer, step.nIn, inner, step.inPer);
        await step.rows(st.view(b, inLen), st.view(c, outLen), outer * inner);
        st.transpose(c, a, outer, inner, step.nOut, step.outPer);
        if (last) {
          const dst = out(a);
          dst.set(st.view(a, outLen));
          [cur, at] = [dst, -1];
        } else [cur, at] = [st.view(a, outLen), a];
      }
      if (span === 1) curShape[step.axis] = step.nOut;
    }
    // The last step wrote outside the staging memory (an engine step's result, or a reference step's).
    return cur;
  } finally {
    // Kept for the next call unless it grew past KEEP_BYTES (memory cannot shrink: a huge call's would stay).
    if (!idle.has(Type) && st.bytes() <= KEEP_BYTES) idle.set(Type, st);
  }
}
