/**
 * Shallow-water problem definition: mesh, bathymetry, initial state, boundaries and scheme parameters,
 * validated once into plain float64 arrays that both backends read.
 *
 * Conventions (seed 000 §2.2):
 * - Unknowns W = (h, q_x, q_y, hC): water depth, discharge per unit width, pollutant amount h·C.
 * - H is the depth of the bottom below a fixed reference level (positive down; land above the
 *   reference has H < 0). The free surface elevation is ζ = h − H, the bottom elevation −H.
 * - Structured mesh of nx × ny square-or-rectangular cells, row-major: cell (ix, iy) is at index
 *   iy·nx + ix; x grows with ix, y grows with iy. Cell centres at (x0 + (ix+½)dx, y0 + (iy+½)dy).
 * - Boundaries are named by the side of the index box: xmin (ix = 0), xmax, ymin (iy = 0), ymax.
 */
import { ArgumentError } from '../errors.js';

export type BoundaryKind = 'wall' | 'open' | 'tide';

export interface SweBoundaries {
  xmin: BoundaryKind;
  xmax: BoundaryKind;
  ymin: BoundaryKind;
  ymax: BoundaryKind;
}

/** One harmonic of the tide: ζ(t) = mean + Σ amplitude·cos(2π t / period − phase). */
export interface TideConstituent {
  amplitude: number;
  /** Seconds. */
  period: number;
  /** Radians (default 0). */
  phase?: number;
}

export interface TideSpec {
  /** Mean sea level relative to the reference (default 0). */
  mean?: number;
  /** Up to 4 constituents (the GPU kernel holds 4 in its uniform block). */
  constituents: TideConstituent[];
}

export interface SweParams {
  /** Gravity (default 9.81). */
  g: number;
  /** Entropy-fix parameter of the path-conservative Roe scheme (default 1/8; 0 = plain Roe). */
  alpha: number;
  /** CFL parameter γ, 0 < γ ≤ 1 (default 0.9). */
  cfl: number;
  /** Manning bed roughness n (default 0 = no friction). */
  manning: number;
  /** Desingularisation threshold ε of u = √2·h·q/√(h⁴ + max(h,ε)⁴) (default 1e-6). */
  epsilon: number;
  /** Depth below which a cell counts as dry for the wet–dry treatments (default 1e-4). */
  hEps: number;
  /** Upper bound on the time step (default Infinity). */
  dtMax: number;
}

export const DEFAULT_PARAMS: SweParams = {
  g: 9.81,
  alpha: 1 / 8,
  cfl: 0.9,
  manning: 0,
  epsilon: 1e-6,
  hEps: 1e-4,
  dtMax: Infinity,
};

/** Anything a 2-D field may be given as: flat row-major values, or rows (ny arrays of nx values). */
export type FieldInput = ArrayLike<number> | ArrayLike<number>[];

export interface SweProblemInput {
  nx: number;
  ny: number;
  /** Cell sizes (default dy = dx). */
  dx: number;
  dy?: number;
  /** Lower-left corner of the domain, for plotting and scenario set-up only (default 0, 0). */
  x0?: number;
  y0?: number;
  /** Depth of the bottom below the reference level, positive down (ny × nx). */
  bathymetry: FieldInput;
  /** Initial water depth (≥ 0). Give either h or surface (ζ; h = max(0, ζ + H)). */
  h?: FieldInput;
  surface?: FieldInput | number;
  /** Initial discharges (default 0). */
  qx?: FieldInput;
  qy?: FieldInput;
  /** Initial pollutant concentration C (≥ 0, default 0); hC = h·C. */
  concentration?: FieldInput;
  boundaries?: Partial<SweBoundaries> | BoundaryKind;
  tide?: TideSpec;
  params?: Partial<SweParams>;
}

/** A validated problem: float64 arrays of length nx·ny, every default filled in. */
export interface SweProblem {
  nx: number;
  ny: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
  H: Float64Array;
  h: Float64Array;
  qx: Float64Array;
  qy: Float64Array;
  hc: Float64Array;
  boundaries: SweBoundaries;
  tide: { mean: number; constituents: Required<TideConstituent>[] };
  params: SweParams;
}

/** The state of a simulation at one time (float64 copies, whatever the backend's precision). */
export interface SweState {
  nx: number;
  ny: number;
  time: number;
  steps: number;
  h: Float64Array;
  qx: Float64Array;
  qy: Float64Array;
  hc: Float64Array;
}

const KINDS: BoundaryKind[] = ['wall', 'open', 'tide'];
const MAX_CELLS = 2 ** 28;

function positiveNumber(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ArgumentError(name, v, 'a finite number > 0');
  return v;
}

/**
 * Turns a field input into a float64 array of nx·ny values, checking shape and finiteness. Rows are
 * accepted so that a caller's 2-D arrays (e.g. parsed CSV) need no reshaping.
 */
export function toField(name: string, input: FieldInput, nx: number, ny: number): Float64Array {
  const n = nx * ny;
  let out: Float64Array;
  const first = (input as ArrayLike<unknown>)[0];
  if (input.length > 0 && typeof first === 'object' && first !== null) {
    const rows = input as ArrayLike<number>[];
    if (rows.length !== ny) throw new ArgumentError(name, input, `${ny} rows of ${nx} values (ny × nx)`);
    out = new Float64Array(n);
    for (let r = 0; r < ny; r++) {
      const row = rows[r];
      if (!row || row.length !== nx) throw new ArgumentError(`${name}[${r}]`, row, `a row of ${nx} values`);
      for (let c = 0; c < nx; c++) out[r * nx + c] = Number(row[c]);
    }
  } else {
    const flat = input as ArrayLike<number>;
    if (flat.length !== n) throw new ArgumentError(name, input, `${n} values (ny × nx = ${ny} × ${nx}, row-major)`);
    out = Float64Array.from(flat as ArrayLike<number>);
  }
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(out[i])) {
      throw new ArgumentError(
        `${name}[${Math.floor(i / nx)}][${i % nx}]`,
        out[i],
        'a finite number (the field contains NaN or ±Infinity)',
      );
    }
  }
  return out;
}

function checkNonNegative(name: string, a: Float64Array, nx: number): void {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < 0)
      throw new ArgumentError(
        `${name}[${Math.floor(i / nx)}][${i % nx}]`,
        a[i],
        'a value ≥ 0 (negative depth or concentration)',
      );
  }
}

/** Validates an input into a SweProblem. Throws ArgumentError naming the offending field and cell. */
export function defineSweProblem(input: SweProblemInput): SweProblem {
  if (!input || typeof input !== 'object') throw new ArgumentError('problem', input, 'an object');
  const { nx, ny } = input;
  if (!Number.isInteger(nx) || nx < 2) throw new ArgumentError('nx', nx, 'an integer ≥ 2');
  if (!Number.isInteger(ny) || ny < 2) throw new ArgumentError('ny', ny, 'an integer ≥ 2');
  if (nx * ny > MAX_CELLS) throw new ArgumentError('nx·ny', nx * ny, `at most ${MAX_CELLS} cells`);
  const dx = positiveNumber('dx', input.dx);
  const dy = positiveNumber('dy', input.dy ?? input.dx);
  const x0 = input.x0 ?? 0;
  const y0 = input.y0 ?? 0;
  if (!Number.isFinite(x0)) throw new ArgumentError('x0', x0, 'a finite number');
  if (!Number.isFinite(y0)) throw new ArgumentError('y0', y0, 'a finite number');
  if (input.bathymetry === undefined) throw new ArgumentError('bathymetry', undefined, `${nx * ny} depths (ny × nx)`);
  const H = toField('bathymetry', input.bathymetry, nx, ny);
  if (H.some((v) => Math.abs(v) > 1e6))
    throw new ArgumentError('bathymetry', 'a value beyond ±1e6', 'depths within ±1e6 (metres)');

  let h: Float64Array;
  if (input.h !== undefined && input.surface !== undefined)
    throw new ArgumentError('h / surface', 'both', 'either h or surface, not both');
  if (input.h !== undefined) {
    h = toField('h', input.h, nx, ny);
    checkNonNegative('h', h, nx);
  } else if (input.surface !== undefined) {
    const s =
      typeof input.surface === 'number'
        ? new Float64Array(nx * ny).fill(input.surface)
        : toField('surface', input.surface, nx, ny);
    if (typeof input.surface === 'number' && !Number.isFinite(input.surface))
      throw new ArgumentError('surface', input.surface, 'a finite number');
    h = new Float64Array(nx * ny);
    for (let i = 0; i < h.length; i++) h[i] = Math.max(0, s[i] + H[i]);
  } else throw new ArgumentError('h', undefined, 'initial depths h (or a surface elevation)');
  if (h.some((v) => v > 1e6))
    throw new ArgumentError('h', 'a depth above 1e6', 'depths ≤ 1e6 (the desingularisation uses h⁴)');

  const qx = input.qx !== undefined ? toField('qx', input.qx, nx, ny) : new Float64Array(nx * ny);
  const qy = input.qy !== undefined ? toField('qy', input.qy, nx, ny) : new Float64Array(nx * ny);
  const hc = new Float64Array(nx * ny);
  if (input.concentration !== undefined) {
    const c = toField('concentration', input.concentration, nx, ny);
    checkNonNegative('concentration', c, nx);
    for (let i = 0; i < hc.length; i++) hc[i] = h[i] * c[i];
  }
  for (let i = 0; i < h.length; i++) {
    // A dry cell cannot carry momentum or pollutant: keep the initial state consistent with the update's rule.
    if (h[i] === 0) qx[i] = qy[i] = hc[i] = 0;
  }

  const b = input.boundaries ?? 'wall';
  const sides =
    typeof b === 'string'
      ? { xmin: b, xmax: b, ymin: b, ymax: b }
      : { xmin: 'wall', xmax: 'wall', ymin: 'wall', ymax: 'wall', ...b };
  for (const [side, kind] of Object.entries(sides)) {
    if (!['xmin', 'xmax', 'ymin', 'ymax'].includes(side))
      throw new ArgumentError('boundaries', side, 'sides xmin, xmax, ymin, ymax');
    if (!KINDS.includes(kind as BoundaryKind))
      throw new ArgumentError(`boundaries.${side}`, kind, `one of ${KINDS.join(', ')}`);
  }
  const boundaries = sides as SweBoundaries;
  const usesTide = Object.values(boundaries).includes('tide');
  const tideIn = input.tide ?? { constituents: [] };
  if (usesTide && !input.tide)
    throw new ArgumentError('tide', undefined, "a tide specification (a boundary is 'tide')");
  if (!Array.isArray(tideIn.constituents) || tideIn.constituents.length > 4) {
    throw new ArgumentError('tide.constituents', tideIn.constituents, 'an array of at most 4 constituents');
  }
  const constituents = tideIn.constituents.map((c, k) => {
    if (!Number.isFinite(c.amplitude))
      throw new ArgumentError(`tide.constituents[${k}].amplitude`, c.amplitude, 'a finite number');
    positiveNumber(`tide.constituents[${k}].period`, c.period);
    const phase = c.phase ?? 0;
    if (!Number.isFinite(phase)) throw new ArgumentError(`tide.constituents[${k}].phase`, phase, 'a finite number');
    return { amplitude: c.amplitude, period: c.period, phase };
  });
  const mean = tideIn.mean ?? 0;
  if (!Number.isFinite(mean)) throw new ArgumentError('tide.mean', mean, 'a finite number');

  const params: SweParams = { ...DEFAULT_PARAMS, ...(input.params ?? {}) };
  positiveNumber('params.g', params.g);
  if (!(params.alpha >= 0 && params.alpha < 0.5))
    throw new ArgumentError('params.alpha', params.alpha, 'a number in [0, 0.5)');
  if (!(params.cfl > 0 && params.cfl <= 1)) throw new ArgumentError('params.cfl', params.cfl, 'a number in (0, 1]');
  if (!(params.manning >= 0 && Number.isFinite(params.manning)))
    throw new ArgumentError('params.manning', params.manning, 'a finite number ≥ 0');
  positiveNumber('params.epsilon', params.epsilon);
  positiveNumber('params.hEps', params.hEps);
  if (!(params.dtMax > 0)) throw new ArgumentError('params.dtMax', params.dtMax, 'a number > 0 (or Infinity)');

  return { nx, ny, dx, dy, x0, y0, H, h, qx, qy, hc, boundaries, tide: { mean, constituents }, params };
}

/** Tide elevation at time t (seconds). */
export function tideElevation(tide: SweProblem['tide'], t: number): number {
  let z = tide.mean;
  for (const c of tide.constituents) z += c.amplitude * Math.cos((2 * Math.PI * t) / c.period - c.phase);
  return z;
}

/** Total water volume Σ h·dx·dy and pollutant amount Σ hC·dx·dy (float64 sums, Kahan-compensated). */
export function masses(
  p: { dx: number; dy: number },
  s: { h: ArrayLike<number>; hc: ArrayLike<number> },
): { water: number; pollutant: number } {
  return { water: ksum(s.h) * p.dx * p.dy, pollutant: ksum(s.hc) * p.dx * p.dy };
}

function ksum(a: ArrayLike<number>): number {
  let s = 0;
  let c = 0;
  for (let i = 0; i < a.length; i++) {
    const y = a[i] - c;
    const t = s + y;
    c = t - s - y;
    s = t;
  }
  return s;
}

/**
 * A copy of the problem whose fields (bathymetry, initial state) are rounded to float32, i.e. the
 * inputs the WebGPU backend actually computes with. Comparing the float64 reference on these inputs
 * measures the scheme's f32 arithmetic alone: on the raw inputs the bathymetry's rounding (~3e-8·H)
 * acts as a forcing error of order 3e-8·H / (ΔH between cells), which grows with the mesh size.
 */
export function roundToFloat32(p: SweProblem): SweProblem {
  const r = (a: Float64Array) => Float64Array.from(a, Math.fround);
  return { ...p, H: r(p.H), h: r(p.h), qx: r(p.qx), qy: r(p.qy), hc: r(p.hc) };
}

export type SweStructure = 'staged' | 'fused' | 'halo';

export interface SweKernelOptions {
  /**
   * Kernel structure of the cfl and update dispatches: 'halo' (default; T×T tiles whose first row and
   * column are idle halo invocations, every edge loading both cells from global memory), 'fused'
   * (staged, and the update kernel also computes the next step's CFL rates, so a step is reduce →
   * update with no cfl pass; see sweUpdateStaged) or 'staged' (W×H tiles that stage their cells and
   * per-cell values in workgroup memory, see STAGED).
   */
  structure: SweStructure;
  /** Halo structure: tile side T (T×T invocations, (T−1)² updated cells). Default 16. */
  tile: number;
  /**
   * Staged and fused structures: the workgroup's block of W×H cells (W·H invocations). Staged tiles own
   * all W×H cells; fused tiles own (W−2)×(H−2) and recompute a ring around them. Default 16×16.
   */
  tileX: number;
  tileY: number;
  /**
   * Hold the depth as an f32 pair (hi in the state, lo in a buffer of its own; see updateTail): 8 more
   * bytes per cell and step, and a q difference to the float64 reference several times smaller. Default true.
   */
  depthPair: boolean;
  /** Invocations of the reduction kernel. Default 256. */
  reduceSize: number;
  /**
   * Halo structure: cells per invocation of the update kernel, a column of `rows` cells (tiles of
   * T × T·rows cells for T×T invocations). Default 2.
   */
  rows: number;
  /** Halo structure: the same for the cfl kernel, whose tiles are then T × T·cflRows cells. Default 3. */
  cflRows: number;
}

// Halo 16 is the default, the fastest structure at every size measured; two rows an update invocation and
// three a cfl invocation: these kernels want more work per invocation, not more invocations
// (docs/DECISIONS.md: SWE_DEFAULT_KERNEL_OPTIONS).
export const SWE_DEFAULT_KERNEL_OPTIONS: SweKernelOptions = {
  structure: 'halo',
  tile: 16,
  tileX: 16,
  tileY: 16,
  depthPair: true,
  reduceSize: 256,
  rows: 2,
  cflRows: 3,
};
