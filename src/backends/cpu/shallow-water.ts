/**
 * Float64 reference of the first-order path-conservative Roe scheme for the shallow-water equations
 * with a passive pollutant (seed 000 §2.2, after Castro et al.). It is the executable specification
 * of the WGSL kernels in src/codegen/shallow-water.ts: the same edge function, the same boundary and
 * wet–dry rules, the same time-step rule, evaluated in float64 with every edge computed once.
 *
 * Edge (cells i | j, unit normal η from i to j, along +x or +y). In the edge's frame the state is
 * (h, q_n, q_t, hC). With V = ΔF − S (flux jump minus the bathymetry source) the seed's numerical
 * flux is F⁻_ij = P⁻V + F(W_i)·η + corr, with the projection P⁻ = ½K(I − sgn D)K⁻¹ on the Roe
 * matrix's eigenvectors and corr = [F_α − (F_i + F_j)/2]·η − S_α the α entropy correction. Cell j
 * receives F⁻_ji = −(F⁻_ij + S_ij). How each part is evaluated, and why:
 *   - Mass and pollutant (where S has no component) use the flux form f = F⁻_ij: i gets +f and j gets
 *     −f, so water and pollutant are conserved to round-off.
 *   - Momentum uses the fluctuation form D⁻ = F⁻ − F_i·η for i and D⁺ = V − D⁻ for j (the cell's own
 *     F_i·η terms cancel around a closed cell). Pressure minus source is evaluated as g·h̃·Δζ with
 *     Δζ the surface jump (algebraically g/2·Δ(h²) − g·h̃·ΔH), and the α-correction's pressure part as
 *     g/2·α(1−α)·Δζ·(h_i − h_j); both vanish exactly for a lake at rest, so the scheme is well balanced
 *     in floating point, not only in exact arithmetic.
 *   - P⁻V in closed form: eigenvalues u_n ∓ c, u_n, u_n; eigenvectors (1, u_n ∓ c, u_t, C), e_t, e_C.
 *     sgn 0 = 0 gives the weight ½.
 * Wet–dry: velocities and concentrations are desingularised (u = q/h for h ≥ ε, √2·h·q/√(h⁴+ε⁴)
 * below); an edge whose dry side's bottom stands above the wet side's surface ("emerging bottom")
 * acts as a wall for both cells; where both depths are below h_eps the pollutant flux is the mass
 * flux times the upwind concentration (seed eq. 2.35); negative depths after an update are set to
 * zero together with that cell's discharge and pollutant (which breaks exact conservation only there).
 * Boundaries: wall = mirror state, open = zero-gradient ghost, tide = ghost with the tide's surface
 * elevation, the cell's discharge and clean water (C = 0).
 * Time step: Δt = min_i 2γ|V_i| / Σ_j |E_ij|·max|λ_ij| (seed eq. 2.31 printed upside down), i.e.
 * Δt = 2γ / max_i [(λ_L + λ_R)/dx + (λ_B + λ_T)/dy], clamped to the remaining time and dtMax.
 * Friction: semi-implicit Manning q ← q / (1 + Δt·g·n²·|u| / h^{4/3}) after the flux update.
 */
import type { SweProblem, SweState } from '../../planner/swe-problem.js';
import { tideElevation } from '../../planner/swe-problem.js';

/** Edges whose mean depth is below this carry nothing (both sides dry). */
export const SWE_H_DRY = 1e-12;

/** Scheme constants an edge needs. */
export interface EdgeParams {
  g: number;
  alpha: number;
  epsilon: number;
  hEps: number;
}

/**
 * Output slots of sweEdge: [0] mass flux f (i gets +f, j gets −f), [1] D⁻_n and [2] D⁻_t for i,
 * [3] pollutant flux (i +, j −), [4] D⁺_n and [5] D⁺_t for j, [6] λ seen by i, [7] λ seen by j.
 * Contributions enter as W −= Δt/|E|·(contribution).
 */
export type EdgeOut = Float64Array;

export function desing(q: number, h: number, eps: number): number {
  if (h >= eps) return q / h;
  const e4 = eps * eps * eps * eps;
  return (Math.SQRT2 * h * q) / Math.sqrt(h * h * h * h + e4);
}

/** Wall contributions for a cell on the low side (mirror on the high side) of an edge. */
function wallLow(out: EdgeOut, h: number, qn: number, qt: number, p: EdgeParams): void {
  const un = desing(qn, h, p.epsilon);
  const ut = desing(qt, h, p.epsilon);
  const c = Math.sqrt(p.g * h);
  const k = (1 - 2 * p.alpha) * (1 - 2 * p.alpha) - 1;
  out[1] = qn * (c + k * un);
  out[2] = -qn * ut;
  out[6] = c;
}

/** Wall contributions for a cell on the high side (mirror on the low side). */
function wallHigh(out: EdgeOut, h: number, qn: number, qt: number, p: EdgeParams): void {
  const un = desing(qn, h, p.epsilon);
  const ut = desing(qt, h, p.epsilon);
  const c = Math.sqrt(p.g * h);
  const k = (1 - 2 * p.alpha) * (1 - 2 * p.alpha) - 1;
  out[4] = qn * (c - k * un);
  out[5] = qn * ut;
  out[7] = c;
}

/** Boundary wall on the high side of cell i (its right/bottom edge). */
export function sweWallLow(out: EdgeOut, h: number, qn: number, qt: number, p: EdgeParams): void {
  out.fill(0);
  wallLow(out, h, qn, qt, p);
}

/** Boundary wall on the low side of cell j (its left/top edge). */
export function sweWallHigh(out: EdgeOut, h: number, qn: number, qt: number, p: EdgeParams): void {
  out.fill(0);
  wallHigh(out, h, qn, qt, p);
}

/** The edge between cells i (low side) and j (high side), in the edge's normal frame. */
export function sweEdge(
  out: EdgeOut,
  hi: number,
  qni: number,
  qti: number,
  ci: number,
  Hi: number,
  hj: number,
  qnj: number,
  qtj: number,
  cj: number,
  Hj: number,
  p: EdgeParams,
  cap = Infinity,
): void {
  out.fill(0);
  // Emerging bottom: the dry side's bottom (−H) stands above the wet side's surface (h − H).
  if ((hj < p.hEps && hi - Hi < -Hj) || (hi < p.hEps && hj - Hj < -Hi)) {
    wallLow(out, hi, qni, qti, p);
    wallHigh(out, hj, qnj, qtj, p);
    return;
  }
  const ht = 0.5 * (hi + hj);
  if (ht < SWE_H_DRY) return;
  const { g, alpha, epsilon: eps } = p;
  const uin = desing(qni, hi, eps),
    uit = desing(qti, hi, eps),
    Ci = desing(ci, hi, eps);
  const ujn = desing(qnj, hj, eps),
    ujt = desing(qtj, hj, eps),
    Cj = desing(cj, hj, eps);
  const sqi = Math.sqrt(hi),
    sqj = Math.sqrt(hj);
  const s = sqi + sqj;
  const un = (sqi * uin + sqj * ujn) / s;
  const ut = (sqi * uit + sqj * ujt) / s;
  const C = (sqi * Ci + sqj * Cj) / s;
  const c = Math.sqrt(g * ht);
  // Δζ as Δh − ΔH: both differences of nearby values are exact (Sterbenz), so in f32 the small
  // surface jump is not swamped by the rounding of each surface h − H (an error that grows as 1/dx).
  const dzeta = hj - hi - (Hj - Hi);
  // V = ΔF − S, pressure and source combined into g·h̃·Δζ.
  const v0 = qnj - qni;
  const v1 = qnj * ujn - qni * uin + g * ht * dzeta;
  const v2 = qnj * ujt - qni * uit;
  const v3 = qnj * Cj - qni * Ci;
  const inv2c = 0.5 / c;
  const a1 = ((un + c) * v0 - v1) * inv2c;
  const a2 = (v1 - (un - c) * v0) * inv2c;
  const a3 = v2 - ut * v0;
  const a4 = v3 - C * v0;
  const l1 = un - c,
    l2 = un + c;
  const w1 = l1 < 0 ? 1 : l1 > 0 ? 0 : 0.5;
  const w2 = l2 < 0 ? 1 : l2 > 0 ? 0 : 0.5;
  const w3 = un < 0 ? 1 : un > 0 ? 0 : 0.5;
  const b1 = w1 * a1,
    b2 = w2 * a2;
  const pm0 = b1 + b2;
  const pm1 = b1 * l1 + b2 * l2;
  const pm2 = pm0 * ut + w3 * a3;
  const pm3 = pm0 * C + w3 * a4;
  // α entropy correction: fluxes of the states (1−α)W_i + αW_j and αW_i + (1−α)W_j.
  const am = 1 - alpha;
  const ha = am * hi + alpha * hj,
    qna = am * qni + alpha * qnj,
    qta = am * qti + alpha * qtj,
    ca = am * ci + alpha * cj;
  const hb = alpha * hi + am * hj,
    qnb = alpha * qni + am * qnj,
    qtb = alpha * qti + am * qtj,
    cb = alpha * ci + am * cj;
  const uan = desing(qna, ha, eps),
    uat = desing(qta, ha, eps),
    Ca = desing(ca, ha, eps);
  const ubn = desing(qnb, hb, eps),
    ubt = desing(qtb, hb, eps),
    Cb = desing(cb, hb, eps);
  const corr0 = 0.5 * (qna + qnb) - 0.5 * (qni + qnj);
  const corr1 =
    0.5 * (qna * uan + qnb * ubn) - 0.5 * (qni * uin + qnj * ujn) + 0.5 * g * alpha * am * dzeta * (hi - hj);
  const corr2 = 0.5 * (qna * uat + qnb * ubt) - 0.5 * (qni * uit + qnj * ujt);
  const corr3 = 0.5 * (qna * Ca + qnb * Cb) - 0.5 * (qni * Ci + qnj * Cj);
  let f0 = qni + pm0 + corr0;
  let f3 = qni * Ci + pm3 + corr3;
  if (hi < p.hEps && hj < p.hEps) f3 = f0 * (un < 0 ? Cj : Ci);
  // Positivity: an edge may drain at most a quarter of a cell in one step (cap = |V|/(4·Δt·|E|)).
  const outI = hi * cap,
    outJ = hj * cap;
  let theta = 1;
  if (f0 > outI) theta = outI / f0;
  else if (-f0 > outJ) theta = outJ / -f0;
  f0 *= theta;
  f3 *= theta;
  const d1 = pm1 + corr1;
  const d2 = pm2 + corr2;
  out[0] = f0;
  out[1] = d1;
  out[2] = d2;
  out[3] = f3;
  out[4] = v1 - d1;
  out[5] = v2 - d2;
  const lam = Math.abs(un) + c;
  out[6] = lam;
  out[7] = lam;
}

/**
 * The wave speeds of sweEdge (slots 6, 7) alone: what the CFL pass needs, evaluated with the same
 * operations so both passes agree bit for bit.
 */
export function sweEdgeLambda(
  out: EdgeOut,
  hi: number,
  qni: number,
  Hi: number,
  hj: number,
  qnj: number,
  Hj: number,
  p: EdgeParams,
): void {
  if ((hj < p.hEps && hi - Hi < -Hj) || (hi < p.hEps && hj - Hj < -Hi)) {
    out[6] = Math.sqrt(p.g * hi);
    out[7] = Math.sqrt(p.g * hj);
    return;
  }
  const ht = 0.5 * (hi + hj);
  if (ht < SWE_H_DRY) {
    out[6] = out[7] = 0;
    return;
  }
  const uin = desing(qni, hi, p.epsilon),
    ujn = desing(qnj, hj, p.epsilon);
  const sqi = Math.sqrt(hi),
    sqj = Math.sqrt(hj);
  const un = (sqi * uin + sqj * ujn) / (sqi + sqj);
  out[6] = out[7] = Math.abs(un) + Math.sqrt(p.g * ht);
}

const KIND_CODE = { wall: 0, open: 1, tide: 2 } as const;

/**
 * The float64 solver. Holds the state; step() advances one time step and returns its Δt (0 when
 * tEnd is reached); advance(tEnd) steps until then.
 */
export class SweCpuSolver {
  readonly nx: number;
  readonly ny: number;
  h: Float64Array;
  qx: Float64Array;
  qy: Float64Array;
  hc: Float64Array;
  time = 0;
  steps = 0;
  /** Water volume removed/added by clipping negative depths to zero (diagnostic for wet–dry runs). */
  clippedWater = 0;
  private readonly acc: Float64Array;
  private readonly rate: Float64Array;
  private readonly e = new Float64Array(8);
  private readonly ep: EdgeParams;
  private readonly bc: number[];

  constructor(readonly problem: SweProblem) {
    this.nx = problem.nx;
    this.ny = problem.ny;
    this.h = Float64Array.from(problem.h);
    this.qx = Float64Array.from(problem.qx);
    this.qy = Float64Array.from(problem.qy);
    this.hc = Float64Array.from(problem.hc);
    this.acc = new Float64Array(4 * this.nx * this.ny);
    this.rate = new Float64Array(this.nx * this.ny);
    const p = problem.params;
    this.ep = { g: p.g, alpha: p.alpha, epsilon: p.epsilon, hEps: p.hEps };
    const b = problem.boundaries;
    this.bc = [KIND_CODE[b.xmin], KIND_CODE[b.xmax], KIND_CODE[b.ymin], KIND_CODE[b.ymax]];
  }

  state(): SweState {
    return {
      nx: this.nx,
      ny: this.ny,
      time: this.time,
      steps: this.steps,
      h: Float64Array.from(this.h),
      qx: Float64Array.from(this.qx),
      qy: Float64Array.from(this.qy),
      hc: Float64Array.from(this.hc),
    };
  }

  /**
   * One edge between cells a (low side) and b (high side), each an index or −1 for the ghost beyond
   * the domain boundary `side` (0 xmin, 1 xmax, 2 ymin, 3 ymax); `xdir` selects the frame. With
   * cap < 0 only the wave speeds are computed (CFL pass).
   */
  private edge(a: number, b: number, xdir: boolean, side: number, tideZ: number, cap: number): void {
    const { h, qx, qy, hc, e, ep } = this;
    const H = this.problem.H;
    const lambdaOnly = cap < 0;
    if (a >= 0 && b >= 0) {
      const qa = xdir ? qx[a] : qy[a],
        qb = xdir ? qx[b] : qy[b];
      if (lambdaOnly) sweEdgeLambda(e, h[a], qa, H[a], h[b], qb, H[b], ep);
      else
        sweEdge(e, h[a], qa, xdir ? qy[a] : qx[a], hc[a], H[a], h[b], qb, xdir ? qy[b] : qx[b], hc[b], H[b], ep, cap);
      return;
    }
    const cell = a >= 0 ? a : b;
    const qn = xdir ? qx[cell] : qy[cell];
    const qt = xdir ? qy[cell] : qx[cell];
    const kind = this.bc[side];
    if (kind === 0) {
      if (lambdaOnly) e[6] = e[7] = Math.sqrt(ep.g * h[cell]);
      else if (a >= 0) sweWallLow(e, h[cell], qn, qt, ep);
      else sweWallHigh(e, h[cell], qn, qt, ep);
      return;
    }
    // Ghost: zero-gradient copy (open) or the tide's surface with the cell's discharge and clean water.
    let gh = h[cell],
      gc = hc[cell];
    if (kind === 2) {
      gh = Math.max(0, tideZ + H[cell]);
      gc = 0;
    }
    if (lambdaOnly) {
      if (a >= 0) sweEdgeLambda(e, h[cell], qn, H[cell], gh, qn, H[cell], ep);
      else sweEdgeLambda(e, gh, qn, H[cell], h[cell], qn, H[cell], ep);
    } else if (a >= 0) sweEdge(e, h[cell], qn, qt, hc[cell], H[cell], gh, qn, qt, gc, H[cell], ep, cap);
    else sweEdge(e, gh, qn, qt, gc, H[cell], h[cell], qn, qt, hc[cell], H[cell], ep, cap);
  }

  /** Adds edge e's contributions (times 1/dx or 1/dy) to the accumulators, or its wave speeds to the rates. */
  private scatter(a: number, b: number, xdir: boolean, inv: number, lambdaOnly: boolean): void {
    const { acc, rate, e } = this;
    if (lambdaOnly) {
      if (a >= 0) rate[a] += e[6] * inv;
      if (b >= 0) rate[b] += e[7] * inv;
      return;
    }
    const n = xdir ? 1 : 2,
      t = xdir ? 2 : 1;
    if (a >= 0) {
      acc[4 * a] += e[0] * inv;
      acc[4 * a + n] += e[1] * inv;
      acc[4 * a + t] += e[2] * inv;
      acc[4 * a + 3] += e[3] * inv;
    }
    if (b >= 0) {
      acc[4 * b] -= e[0] * inv;
      acc[4 * b + n] += e[4] * inv;
      acc[4 * b + t] += e[5] * inv;
      acc[4 * b + 3] -= e[3] * inv;
    }
  }

  /** Visits every edge once: x-edges row by row, then y-edges. */
  private sweep(tideZ: number, dt: number): void {
    const { nx, ny } = this;
    const p = this.problem;
    const invDx = 1 / p.dx,
      invDy = 1 / p.dy;
    const lambdaOnly = dt < 0;
    const capX = lambdaOnly ? -1 : 1 / (4 * dt * invDx);
    const capY = lambdaOnly ? -1 : 1 / (4 * dt * invDy);
    for (let iy = 0; iy < ny; iy++) {
      const row = iy * nx;
      for (let k = -1; k < nx; k++) {
        const a = k >= 0 ? row + k : -1;
        const b = k + 1 < nx ? row + k + 1 : -1;
        this.edge(a, b, true, k < 0 ? 0 : 1, tideZ, capX);
        this.scatter(a, b, true, invDx, lambdaOnly);
      }
    }
    for (let k = -1; k < ny; k++) {
      for (let ix = 0; ix < nx; ix++) {
        const a = k >= 0 ? k * nx + ix : -1;
        const b = k + 1 < ny ? (k + 1) * nx + ix : -1;
        this.edge(a, b, false, k < 0 ? 2 : 3, tideZ, capY);
        this.scatter(a, b, false, invDy, lambdaOnly);
      }
    }
  }

  /** One time step towards tEnd. Returns Δt (0 if tEnd is already reached). */
  step(tEnd: number): number {
    const rem = tEnd - this.time;
    if (!(rem > 1e-12 * Math.abs(tEnd))) return 0;
    const p = this.problem;
    const tideZ = tideElevation(p.tide, this.time);
    // Pass 1 (the GPU's CFL kernel + reduction): Δt from the edges' wave speeds.
    this.rate.fill(0);
    this.sweep(tideZ, -1);
    let rmax = 0;
    for (let i = 0; i < this.rate.length; i++) if (this.rate[i] > rmax) rmax = this.rate[i];
    let dt = Math.min(rem, p.params.dtMax);
    if (rmax > 0) dt = Math.min(dt, (2 * p.params.cfl) / rmax);
    // Pass 2 (the GPU's update kernel): fluxes, then the update.
    this.acc.fill(0);
    this.sweep(tideZ, dt);
    this.update(dt);
    this.time += dt;
    this.steps++;
    return dt;
  }

  private update(dt: number): void {
    const { h, qx, qy, hc, acc } = this;
    const { g, manning, epsilon } = this.problem.params;
    const fr = g * manning * manning;
    const area = this.problem.dx * this.problem.dy;
    for (let i = 0; i < h.length; i++) {
      let hn = h[i] - dt * acc[4 * i];
      let qxn = qx[i] - dt * acc[4 * i + 1];
      let qyn = qy[i] - dt * acc[4 * i + 2];
      let hcn = hc[i] - dt * acc[4 * i + 3];
      if (hn <= 0) {
        this.clippedWater -= hn * area;
        hn = 0;
        qxn = qyn = hcn = 0;
      } else if (fr > 0) {
        const ux = desing(qxn, hn, epsilon),
          uy = desing(qyn, hn, epsilon);
        const f = 1 + (dt * fr * Math.sqrt(ux * ux + uy * uy)) / Math.pow(hn, 4 / 3);
        qxn /= f;
        qyn /= f;
      }
      h[i] = hn;
      qx[i] = qxn;
      qy[i] = qyn;
      hc[i] = hcn;
    }
  }

  /** Steps until tEnd (or maxSteps); returns the number of steps taken. */
  advance(tEnd: number, options: { maxSteps?: number; onStep?: (time: number, steps: number) => void } = {}): number {
    const max = options.maxSteps ?? Infinity;
    let n = 0;
    while (n < max) {
      const dt = this.step(tEnd);
      if (dt === 0) break;
      n++;
      options.onStep?.(this.time, this.steps);
    }
    return n;
  }
}
