/**
 * Ready-made shallow-water problems: the seed's dam-break verification test, a synthetic tidal
 * estuary with a pollutant release (after the seed's Ría de Arousa case, whose real bathymetry we do
 * not have), a lake at rest over uneven bathymetry with islands, and a run-up on a sloping beach.
 */
import { ArgumentError } from '../../errors.js';
import { defineSweProblem, type SweParams, type SweProblem } from './problem.js';

function meshSize(n: number, name = 'n'): number {
  if (!Number.isInteger(n) || n < 4) throw new ArgumentError(name, n, 'an integer ≥ 4 (cells per side)');
  return n;
}

function grid(n: number, x0: number, len: number, f: (x: number, y: number) => number): Float64Array {
  const dx = len / n;
  const out = new Float64Array(n * n);
  for (let iy = 0; iy < n; iy++) {
    const y = x0 + (iy + 0.5) * dx;
    for (let ix = 0; ix < n; ix++) out[iy * n + ix] = f(x0 + (ix + 0.5) * dx, y);
  }
  return out;
}

export interface DamBreakOptions {
  /** Pollutant concentration inside the water column (default 0, as in the seed). */
  pollutant?: number;
  /** A circular pollutant patch in the still water outside the column (C inside; default none). */
  patch?: { x: number; y: number; radius: number; concentration?: number };
  params?: Partial<SweParams>;
}

/**
 * The pollutant of the `dam-break` scenario: the dam's water carries C = 1 (it spreads into a ring, about
 * four times its area by t = 1), and a patch of C = 0.5 in the still water beside it is pushed outward and
 * stretched along the front by the passing wave.
 */
export const DAM_BREAK_POLLUTANT = { pollutant: 1, patch: { x: 2, y: 0.8, radius: 0.5, concentration: 0.5 } } as const;

/**
 * Seed 000 §2.2.5.1: domain [−5, 5]², H = 1 − 0.4·e^{−x²−y²}, h = 4 inside x² + y² ≤ 0.36 else 2,
 * q = 0, walls, CFL 0.9, no friction; run to t = 1.
 */
export function damBreak(n: number, options: DamBreakOptions = {}): SweProblem {
  meshSize(n);
  const H = grid(n, -5, 10, (x, y) => 1 - 0.4 * Math.exp(-x * x - y * y));
  const h = grid(n, -5, 10, (x, y) => (x * x + y * y <= 0.36 ? 4 : 2));
  const patch = options.patch;
  const inPatch = (x: number, y: number) =>
    patch !== undefined && (x - patch.x) ** 2 + (y - patch.y) ** 2 <= patch.radius ** 2;
  if (patch && !grid(n, -5, 10, (x, y) => (inPatch(x, y) ? 1 : 0)).some((v) => v > 0)) {
    throw new ArgumentError('patch', patch, `a disc inside [-5, 5]² of radius at least half a cell (${5 / n})`);
  }
  const c =
    options.pollutant || patch
      ? grid(n, -5, 10, (x, y) =>
          x * x + y * y <= 0.36 ? (options.pollutant ?? 0) : inPatch(x, y) ? (patch!.concentration ?? 1) : 0,
        )
      : undefined;
  return defineSweProblem({
    nx: n,
    ny: n,
    dx: 10 / n,
    x0: -5,
    y0: -5,
    bathymetry: H,
    h,
    concentration: c,
    boundaries: 'wall',
    params: { cfl: 0.9, alpha: 1 / 8, manning: 0, ...options.params },
  });
}

export interface EstuaryOptions {
  /** Side of the square domain in metres (default 20 km). */
  length?: number;
  /** Manning n (default 0.025). */
  manning?: number;
  /** Radius of the pollutant release in metres (default 400, as in the seed). */
  releaseRadius?: number;
  params?: Partial<SweParams>;
}

/** Centre line of the synthetic estuary's channel, as a fraction of the domain side. */
function channelY(xf: number): number {
  return 0.5 + 0.08 * Math.sin(2.5 * Math.PI * xf);
}

/**
 * A synthetic tidal estuary: the sea to the west (xmin, tidal: M2 1.5 m + S2 0.5 m) and south (ymin,
 * tidal, starting at mean level), land rising to the east and north (open boundaries, mostly dry there), a meandering funnel
 * channel, two islands and sand banks that dry at low tide. The pollutant (C = 1) is released in a
 * circle in the middle of the estuary at t = 0. The surface starts flat at mean sea level, at rest.
 */
export function estuary(n: number, options: EstuaryOptions = {}): SweProblem {
  meshSize(n);
  const L = options.length ?? 20000;
  const dx = L / n;
  // Bottom elevation z = −H (metres above the reference level).
  const bottom = (x: number, y: number): number => {
    const xf = x / L,
      yf = y / L;
    let z = -22 + 30 * xf + 10 * Math.max(0, yf - 0.7) ** 2 * 40 * xf; // shelf rising to the east, higher land in the north-east
    const w = 0.16 * (1 - 0.65 * xf); // funnel: the channel narrows upstream
    const d = (yf - channelY(xf)) / w;
    z -= 14 * Math.exp(-d * d) * (1 - 0.3 * xf); // channel
    z += 4 * Math.max(0, Math.abs(d) - 1.2) * xf; // banks beside the channel upstream
    z += 1.2 * Math.sin(9 * xf) * Math.cos(7 * yf); // bed undulation
    const island = (cx: number, cy: number, r: number, top: number) =>
      top * Math.exp(-((xf - cx) ** 2 + (yf - cy) ** 2) / (r * r));
    z += island(0.42, 0.3, 0.05, 26) + island(0.58, 0.68, 0.04, 22) + island(0.3, 0.62, 0.025, 16);
    return z;
  };
  const H = grid(n, 0, L, (x, y) => -bottom(x, y));
  const xr = 0.55 * L,
    yr = channelY(0.55) * L;
  const r = options.releaseRadius ?? 400;
  const c = grid(n, 0, L, (x, y) => ((x - xr) ** 2 + (y - yr) ** 2 <= r * r ? 1 : 0));
  if (!c.some((v) => v > 0))
    throw new ArgumentError('releaseRadius', r, `a radius of at least half a cell (${dx / 2} m)`);
  return defineSweProblem({
    nx: n,
    ny: n,
    dx,
    bathymetry: H,
    surface: 0,
    concentration: c,
    boundaries: { xmin: 'tide', ymin: 'tide', xmax: 'open', ymax: 'open' },
    // Phases π/2: the tide starts at mean level (rising), matching the flat initial surface.
    tide: {
      mean: 0,
      constituents: [
        { amplitude: 1.5, period: 44714, phase: Math.PI / 2 },
        { amplitude: 0.5, period: 43200, phase: Math.PI / 2 },
      ],
    },
    params: { manning: options.manning ?? 0.025, ...options.params },
  });
}

export interface LakeOptions {
  /** Surface elevation of the lake (default 0: then h = H exactly in any precision). */
  surface?: number;
  params?: Partial<SweParams>;
}

/**
 * A lake at rest over uneven bathymetry (smooth hills, a step, islands whose tops are dry) with
 * walls: the exact solution is the initial state for all time.
 */
export function lakeAtRest(n: number, options: LakeOptions = {}): SweProblem {
  meshSize(n);
  const H = grid(n, 0, 1, (x, y) => {
    let d = 1 - 0.5 * Math.sin(3 * x) * Math.cos(5 * y) - (x > 0.6 ? 0.3 : 0);
    d -= 1.8 * Math.exp(-((x - 0.3) ** 2 + (y - 0.35) ** 2) / 0.01); // island above the surface
    d -= 1.2 * Math.exp(-((x - 0.7) ** 2 + (y - 0.7) ** 2) / 0.004);
    return d;
  });
  return defineSweProblem({
    nx: n,
    ny: n,
    dx: 1 / n,
    bathymetry: H,
    surface: options.surface ?? 0,
    boundaries: 'wall',
    params: options.params,
  });
}

/**
 * A column of water collapsing onto a sloping beach with walls: wet–dry fronts run up and down the
 * slope and around an emerging bump. Pollutant C = 1 in the column.
 */
export function beach(n: number, options: { params?: Partial<SweParams> } = {}): SweProblem {
  meshSize(n);
  const H = grid(n, 0, 1, (x, y) => 0.6 - 1.0 * x - 0.6 * Math.exp(-((x - 0.3) ** 2 + (y - 0.7) ** 2) / 0.005));
  const s = grid(n, 0, 1, (x, y) => ((x - 0.2) ** 2 + (y - 0.4) ** 2 < 0.01 ? 0.3 : 0));
  const c = grid(n, 0, 1, (x, y) => ((x - 0.2) ** 2 + (y - 0.4) ** 2 < 0.01 ? 1 : 0));
  return defineSweProblem({
    nx: n,
    ny: n,
    dx: 1 / n,
    bathymetry: H,
    surface: s,
    concentration: c,
    boundaries: 'wall',
    params: { manning: 0.01, ...options.params },
  });
}

export const SCENARIOS = ['dam-break', 'estuary', 'lake', 'beach'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Default end time (s) of each scenario. */
export const SCENARIO_T_END: Record<ScenarioName, number> = { 'dam-break': 1, estuary: 6 * 3600, lake: 1, beach: 1 };

export function scenario(name: string, n: number): SweProblem {
  switch (name) {
    case 'dam-break':
      return damBreak(n, DAM_BREAK_POLLUTANT);
    case 'estuary':
      return estuary(n);
    case 'lake':
      return lakeAtRest(n);
    case 'beach':
      return beach(n);
    default:
      throw new ArgumentError('scenario', name, SCENARIOS.join(' | '));
  }
}
