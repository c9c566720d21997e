/**
 * Real 1-D FFT and overlap-add convolution on the CPU engine, in the operands' precision (f32 when both are):
 * the engine's batched real FFT rows, no complex widening and no float64 copies, as planRealConvolution1d says.
 * FFT: the longer operand one row zero-padded to p, the shorter one another, the spectra multiplied, one inverse
 * row. Overlap-add (scipy.signal.oaconvolve): the longer operand cut into blocks of L, every block a row of one
 * batched call, each spectrum times the shorter operand's, one batched inverse, and the blocks added at their
 * offsets. Both return the mode's window of the full convolution.
 */
import { convGeometry, planRealConvolution1d, type ConvGeometry, type ConvMode } from '../../planner/convolve.js';
import type { CpuPrecision } from '../../planner/cpu-fft.js';
import { runRows } from './engine-rows.js';
import { generateConvolvePointwiseModule } from '../../codegen/wasm/convolve-pointwise.js';

type RealArray = Float32Array | Float64Array;
type ArrayType = typeof Float32Array | typeof Float64Array;

interface Pointwise {
  cmul(dst: number, a: number, b: number, count: number): void;
  addInto(dst: number, src: number, count: number): void;
}

/**
 * A WebAssembly memory the convolution's arrays live in (the engine reads and writes them through views) and the
 * pointwise module over it; one per precision, grown to the largest convolution seen.
 */
class Workspace {
  readonly memory = new WebAssembly.Memory({ initial: 1 });
  readonly ops: Pointwise;
  private next = 0;
  constructor(readonly Type: ArrayType) {
    const bytes = generateConvolvePointwiseModule(Type.BYTES_PER_ELEMENT as 4 | 8);
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes as BufferSource), {
      env: { memory: this.memory },
    });
    this.ops = inst.exports as unknown as Pointwise;
  }
  /** Lays out arrays of the given lengths (16-byte aligned), growing the memory where it must; their byte offsets. */
  layout(lengths: number[]): number[] {
    const e = this.Type.BYTES_PER_ELEMENT;
    this.next = 0;
    const at = lengths.map((n) => {
      const p = this.next;
      this.next += Math.ceil((n * e) / 64) * 64;
      return p;
    });
    const need = this.next - this.memory.buffer.byteLength;
    if (need > 0) this.memory.grow(Math.ceil(need / 65536));
    return at;
  }
  view(at: number, length: number): RealArray {
    return new this.Type(this.memory.buffer, at, length);
  }
}
const workspaces = new Map<ArrayType, Workspace>();
/** Largest workspace kept between calls. */
const KEEP_BYTES = 256 * 2 ** 20;

export function convolveReal1d(
  a: RealArray,
  b: RealArray,
  mode: ConvMode,
  method: 'fft' | 'oa',
  precision: CpuPrecision,
): RealArray {
  const Type = precision === 'f32' ? Float32Array : Float64Array;
  const g = convGeometry([a.length], [b.length], mode);
  const { swap, L, p, blocks } = planRealConvolution1d(a.length, b.length, method, precision);
  const [x, k] = swap ? [b, a] : [a, b];
  const ws = workspaces.get(Type) ?? new Workspace(Type);
  try {
    return convolveIn(ws, x, k, g, { L, p, blocks }, precision);
  } finally {
    // Kept for the next call unless it grew past KEEP_BYTES (a memory cannot shrink).
    if (ws.memory.buffer.byteLength <= KEEP_BYTES) workspaces.set(Type, ws);
    else workspaces.delete(Type);
  }
}

function convolveIn(
  ws: Workspace,
  x: RealArray,
  k: RealArray,
  g: ConvGeometry,
  { L, p, blocks }: { L: number; p: number; blocks: number },
  precision: CpuPrecision,
): RealArray {
  const Type = ws.Type;
  const h = Math.floor(p / 2) + 1;
  const w = 16 / Type.BYTES_PER_ELEMENT;
  // Rows of the blocks and of the kernel (one more row), their spectra, the inverse rows, the full convolution.
  const nFull = g.full[0]!;
  const [rowsP, specP, yP, fullP] = ws.layout([(blocks + 1) * p, 2 * h * (blocks + 1), p * blocks, nFull]);
  const rows = ws.view(rowsP, (blocks + 1) * p);
  rows.fill(0);
  for (let j = 0; j < blocks; j++) rows.set(x.subarray(j * L, Math.min(x.length, (j + 1) * L)), j * p);
  rows.set(k, blocks * p);
  const spectra = ws.view(specP, 2 * h * (blocks + 1));
  runRows({ kind: 'rfft', n: p, precision }, rows, spectra, blocks + 1);
  // Every block's spectrum times the kernel's (the last row): whole vectors in WebAssembly, the tail here.
  const e = Type.BYTES_PER_ELEMENT;
  const kAt = 2 * h * blocks;
  const whole = h - (h % w);
  for (let j = 0; j < blocks; j++) {
    const at = 2 * h * j;
    if (whole > 0) ws.ops.cmul(specP + at * e, specP + at * e, specP + kAt * e, whole);
    for (let i = 2 * whole; i < 2 * h; i += 2) {
      const [xr, xi, kr, ki] = [spectra[at + i]!, spectra[at + i + 1]!, spectra[kAt + i]!, spectra[kAt + i + 1]!];
      spectra[at + i] = xr * kr - xi * ki;
      spectra[at + i + 1] = xr * ki + xi * kr;
    }
  }
  const y = ws.view(yP, p * blocks);
  runRows({ kind: 'irfft', n: p, precision, norm: 'backward' }, spectra.subarray(0, kAt), y, blocks);
  if (blocks === 1) return y.slice(g.start[0], g.start[0]! + g.out[0]!);
  // Block j's full convolution (L + nk − 1 values) lands at j·L.
  const full = ws.view(fullP, nFull);
  full.fill(0);
  for (let j = 0; j < blocks; j++) {
    const len = Math.min(L + k.length - 1, nFull - j * L);
    const vec = len - (len % w);
    if (vec > 0) ws.ops.addInto(fullP + j * L * e, yP + j * p * e, vec);
    for (let t = vec; t < len; t++) full[j * L + t] = full[j * L + t]! + y[j * p + t]!;
  }
  return full.slice(g.start[0], g.start[0]! + g.out[0]!);
}
