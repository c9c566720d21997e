/**
 * Colour-mapped images of a shallow-water state (no Node APIs: the RGB bytes can go to a canvas or,
 * in Node, to src/util/png.ts). North up: the image's top row is the mesh's last row (iy = ny − 1).
 * Dry cells (h below hEps) are drawn as land, shaded by bottom elevation.
 */
import { ArgumentError } from '../../errors.js';
import type { SweProblem, SweState } from './problem.js';

export type SweField = 'depth' | 'surface' | 'speed' | 'concentration';
export const SWE_FIELDS: SweField[] = ['depth', 'surface', 'speed', 'concentration'];

type Stops = [number, number, number, number][];
const VIRIDIS: Stops = [
  [0, 68, 1, 84],
  [0.125, 71, 44, 122],
  [0.25, 59, 81, 139],
  [0.375, 44, 113, 142],
  [0.5, 33, 144, 141],
  [0.625, 39, 173, 129],
  [0.75, 92, 200, 99],
  [0.875, 170, 220, 50],
  [1, 253, 231, 37],
];
/** Clean water light blue through yellow and orange to dark red at full concentration. */
const POLLUTANT: Stops = [
  [0, 205, 228, 245],
  [0.2, 255, 236, 140],
  [0.45, 250, 160, 60],
  [0.7, 215, 55, 35],
  [1, 105, 0, 20],
];
/** Diverging blue–white–red for the surface elevation. */
const DIVERGING: Stops = [
  [0, 33, 102, 172],
  [0.25, 103, 169, 207],
  [0.5, 247, 247, 247],
  [0.75, 239, 138, 98],
  [1, 178, 24, 43],
];

export function colormap(stops: Stops, v: number, out: Uint8Array, o: number): void {
  const x = Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
  let k = 1;
  while (k < stops.length - 1 && stops[k][0] < x) k++;
  const [x0, r0, g0, b0] = stops[k - 1];
  const [x1, r1, g1, b1] = stops[k];
  const f = x1 > x0 ? (x - x0) / (x1 - x0) : 0;
  out[o] = Math.round(r0 + f * (r1 - r0));
  out[o + 1] = Math.round(g0 + f * (g1 - g0));
  out[o + 2] = Math.round(b0 + f * (b1 - b0));
}

/** The scalar field of a state: depth h, surface h − H, speed |q|/h, concentration hC/h (wet cells). */
export function fieldValues(problem: SweProblem, state: SweState, field: SweField): Float64Array {
  const n = problem.nx * problem.ny;
  const out = new Float64Array(n);
  const hEps = problem.params.hEps;
  for (let i = 0; i < n; i++) {
    const h = state.h[i];
    const wet = h >= hEps;
    switch (field) {
      case 'depth':
        out[i] = h;
        break;
      case 'surface':
        out[i] = wet ? h - problem.H[i] : NaN;
        break;
      case 'speed':
        out[i] = wet ? Math.hypot(state.qx[i], state.qy[i]) / h : 0;
        break;
      case 'concentration':
        out[i] = wet ? state.hc[i] / h : 0;
        break;
      default:
        throw new ArgumentError('field', field, SWE_FIELDS.join(' | '));
    }
  }
  return out;
}

export interface RenderOptions {
  /** Colour range (default: the field's range over wet cells; concentration 0..1). */
  min?: number;
  max?: number;
}

/** RGB bytes (3 per pixel, width nx, height ny, north up) of one field. */
export function renderField(
  problem: SweProblem,
  state: SweState,
  field: SweField,
  options: RenderOptions = {},
): { width: number; height: number; rgb: Uint8Array; min: number; max: number } {
  const { nx, ny } = problem;
  const v = fieldValues(problem, state, field);
  const hEps = problem.params.hEps;
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < v.length; i++) {
    if (state.h[i] >= hEps && Number.isFinite(v[i])) {
      lo = Math.min(lo, v[i]);
      hi = Math.max(hi, v[i]);
    }
  }
  if (field === 'concentration') [lo, hi] = [0, Math.max(1e-12, hi)];
  if (field === 'surface') {
    const m = Math.max(Math.abs(lo), Math.abs(hi), 1e-12);
    [lo, hi] = [-m, m];
  }
  const min = options.min ?? (Number.isFinite(lo) ? lo : 0);
  const max = options.max ?? (Number.isFinite(hi) && hi > min ? hi : min + 1);
  const stops = field === 'concentration' ? POLLUTANT : field === 'surface' ? DIVERGING : VIRIDIS;
  let zmax = 0;
  for (let i = 0; i < v.length; i++) zmax = Math.max(zmax, -problem.H[i]);
  const rgb = new Uint8Array(nx * ny * 3);
  for (let iy = 0; iy < ny; iy++) {
    const row = ny - 1 - iy;
    for (let ix = 0; ix < nx; ix++) {
      const i = iy * nx + ix;
      const o = 3 * (row * nx + ix);
      if (state.h[i] < hEps) {
        // Land: tan, darker with height.
        const z = zmax > 0 ? Math.max(0, -problem.H[i]) / zmax : 0;
        rgb[o] = Math.round(214 - 90 * z);
        rgb[o + 1] = Math.round(196 - 90 * z);
        rgb[o + 2] = Math.round(150 - 80 * z);
      } else colormap(stops, (v[i] - min) / (max - min), rgb, o);
    }
  }
  return { width: nx, height: ny, rgb, min, max };
}
