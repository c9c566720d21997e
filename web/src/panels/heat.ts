/**
 * Implicit 2-D heat diffusion by Peaceman–Rachford ADI: each half step is one batched tridiagonal solve
 * (x-lines: 'strided' systems, y-lines: 'interleaved' systems, no transpose), the scheme of
 * src/apps/heat-adi.ts. The page runs its own time loop on the library's tridiagonal plans because it
 * needs the field after each step to draw it (runHeatAdi returns only its error norms).
 *
 * Checks exported to window.__butterfly.demos.heat:
 *  - fieldRelErrVsCpu: the animated problem after VERIFY_STEPS steps on the page's backend against the
 *    same steps with float64 CPU (Thomas) plans;
 *  - adi: runHeatAdi (the library's app) on both backends against the exact solution
 *    sin(πx) sin(πy) e^{−2π²κt}: the backend's error must be that of float64 to within float32 noise.
 */
import { createTridiagonalPlan, type TridiagonalPlan } from '../../../src/api/tridiagonal.js';
import { runHeatAdi } from '../../../src/apps/heat-adi.js';
import { rng } from '../../../src/util/random.js';
import {
  animations,
  canvas,
  checksum,
  drawField,
  errorText,
  fmt,
  LUT_COOLWARM,
  nextFrame,
  panel,
  relL2,
  state,
  type Env,
} from '../common.js';

const M = 96; // interior points per direction
const R = 2; // r = κΔt/h²: 8 times the explicit scheme's stability limit of 1/4, no problem for the implicit one
const VERIFY_STEPS = 12;

type Arr = Float32Array | Float64Array;

class AdiStepper {
  private constructor(
    readonly planX: TridiagonalPlan,
    readonly planY: TridiagonalPlan,
    private readonly lower: Arr,
    private readonly diag: Arr,
    private readonly upper: Arr,
    private readonly rhs: Arr,
  ) {}

  static async create(backend: 'webgpu' | 'cpu', dtype: 'float32' | 'float64', env: Env): Promise<AdiStepper> {
    const A = dtype === 'float32' ? Float32Array : Float64Array;
    const common = {
      n: M,
      batch: M,
      dtype,
      backend,
      gpu: backend === 'webgpu' ? (env.gpu ?? undefined) : undefined,
    } as const;
    const planX = await createTridiagonalPlan({ ...common, layout: 'strided' });
    const planY = await createTridiagonalPlan({ ...common, layout: 'interleaved' });
    return new AdiStepper(
      planX,
      planY,
      new A(M * M).fill(-R / 2),
      new A(M * M).fill(1 + R),
      new A(M * M).fill(-R / 2),
      new A(M * M),
    );
  }

  /** One Peaceman–Rachford step; returns the new field and the OR of the solver status bits. */
  async step(u: Arr): Promise<{ u: Arr; status: number }> {
    const { rhs, lower, diag, upper } = this;
    const at = (v: Arr, i: number, j: number) => (i < 0 || j < 0 || i >= M || j >= M ? 0 : v[j * M + i]);
    for (let j = 0; j < M; j++) {
      for (let i = 0; i < M; i++)
        rhs[j * M + i] = u[j * M + i] + (R / 2) * (at(u, i, j - 1) - 2 * u[j * M + i] + at(u, i, j + 1));
    }
    const hx = await this.planX.solve({ lower, diag, upper, rhs });
    const us = hx.x as Arr;
    for (let j = 0; j < M; j++) {
      for (let i = 0; i < M; i++)
        rhs[j * M + i] = us[j * M + i] + (R / 2) * (at(us, i - 1, j) - 2 * us[j * M + i] + at(us, i + 1, j));
    }
    const hy = await this.planY.solve({ lower, diag, upper, rhs });
    const status = [...hx.status, ...hy.status].reduce((a, v) => a | v, 0);
    return { u: hy.x as Arr, status };
  }

  destroy(): void {
    this.planX.destroy();
    this.planY.destroy();
  }
}

/** Draws u on a symmetric colour scale that follows the field's current extent, with a caption. */
function draw(cv: HTMLCanvasElement, u: Arr, caption: string): void {
  let mx = 0;
  for (let i = 0; i < u.length; i++) mx = Math.max(mx, Math.abs(u[i]));
  const s = Math.max(mx, 1e-3);
  drawField(cv, u, M, M, -s, s, LUT_COOLWARM);
  const g = cv.getContext('2d')!;
  g.font = '12px system-ui, sans-serif';
  g.fillStyle = 'rgba(0,0,0,0.75)';
  g.fillText(`${caption}   colour scale ±${s.toFixed(3)}`, 6, cv.height - 8);
}

/** Hot and cold Gaussian spots (seeded), zero on the boundary. */
function initialField(seed: number, A: typeof Float32Array | typeof Float64Array): Arr {
  const r = rng(seed);
  const u = new A(M * M);
  const spots = Array.from({ length: 7 }, () => ({
    x: 0.15 + 0.7 * r(),
    y: 0.15 + 0.7 * r(),
    s: 0.03 + 0.05 * r(),
    a: r() < 0.3 ? -1 : 1,
  }));
  for (let j = 0; j < M; j++) {
    for (let i = 0; i < M; i++) {
      const x = (i + 1) / (M + 1),
        y = (j + 1) / (M + 1);
      let v = 0;
      for (const s of spots) v += s.a * Math.exp(-((x - s.x) ** 2 + (y - s.y) ** 2) / (2 * s.s * s.s));
      u[j * M + i] = v * Math.sin(Math.PI * x) * Math.sin(Math.PI * y);
    }
  }
  return u;
}

export async function start(env: Env): Promise<void> {
  const p = panel(
    'heat',
    'Heat diffusion (ADI, batched tridiagonal solves)',
    `Implicit Peaceman–Rachford steps on a ${M}×${M} grid, r = κΔt/h² = ${R}: each half step solves ${M} tridiagonal systems of ${M} rows at once. Click the picture to add heat.`,
  );
  const cv = canvas(384, 384);
  cv.style.maxWidth = '384px';
  p.body.append(cv);

  // --- Verified part ------------------------------------------------------------------------------
  const dtype = env.backend === 'webgpu' ? 'float32' : 'float64';
  const A = dtype === 'float32' ? Float32Array : Float64Array;
  const stepper = await AdiStepper.create(env.backend, dtype, env);
  const ref = await AdiStepper.create('cpu', 'float64', env);
  let u: Arr = initialField(1, A);
  let uRef: Arr = initialField(1, Float64Array);
  draw(cv, u, 'step 0');
  let status = 0;
  const t0 = performance.now();
  for (let s = 0; s < VERIFY_STEPS; s++) {
    const r = await stepper.step(u);
    u = r.u;
    status |= r.status;
  }
  const stepMs = (performance.now() - t0) / VERIFY_STEPS;
  for (let s = 0; s < VERIFY_STEPS; s++) uRef = (await ref.step(uRef)).u;
  ref.destroy();
  const fieldErr = relL2(u, uRef);
  draw(cv, u, `step ${VERIFY_STEPS} (verified)`);

  // The library's own app against the exact solution, on this backend and on float64.
  const adiOpts = { gridSize: 64, steps: 40, tEnd: 0.05 };
  const adiB = await runHeatAdi({ ...adiOpts, backend: env.backend, dtype, gpu: env.gpu ?? undefined });
  const adiRef = await runHeatAdi({ ...adiOpts, backend: 'cpu', dtype: 'float64' });
  const fieldBound = dtype === 'float32' ? 1e-4 : 1e-12;
  const adiOk =
    adiB.l2RelError <= adiRef.l2RelError + (dtype === 'float32' ? 1e-4 : 1e-12) &&
    adiRef.l2RelError < 1e-2 &&
    adiB.status === 0;
  const pass = fieldErr < fieldBound && status === 0 && adiOk;
  const result = {
    state: 'done' as const,
    pass,
    backend: stepper.planX.backend,
    grid: M,
    steps: VERIFY_STEPS,
    fieldRelErrVsCpu: fieldErr,
    bound: fieldBound,
    status,
    checksum: checksum(u),
    checksumCpu: checksum(uRef),
    stepMs,
    adi: {
      backend: adiB.backend,
      l2RelErrorVsExact: adiB.l2RelError,
      l2RelErrorVsExactFloat64: adiRef.l2RelError,
      maxRelErrorVsExact: adiB.maxRelError,
      status: adiB.status,
    },
    animatedSteps: 0,
  };
  p.setResult(result);
  p.text.textContent =
    `backend ${result.backend} (${dtype}): ${fmt(stepMs)} ms per step (2 batched solves incl. upload/read-back)\n` +
    `field after ${VERIFY_STEPS} steps vs float64 CPU: relative L2 ${fmt(fieldErr)} (bound ${fmt(fieldBound)}), solver status ${status}\n` +
    `runHeatAdi 64² / 40 steps vs exact solution: ${fmt(adiB.l2RelError)} (${adiB.backend}) vs ${fmt(adiRef.l2RelError)} (float64 CPU)`;

  // --- Animation: keep stepping; restart with new spots when it has cooled; clicks add heat. --------
  let seed = 2;
  let steps = 0;
  let sinceStart = VERIFY_STEPS;
  cv.addEventListener('click', (ev) => {
    const rect = cv.getBoundingClientRect();
    const cx = ((ev.clientX - rect.left) / rect.width) * M,
      cy = ((ev.clientY - rect.top) / rect.height) * M;
    for (let j = 0; j < M; j++)
      for (let i = 0; i < M; i++) u[j * M + i] += 1.5 * Math.exp(-((i - cx) ** 2 + (j - cy) ** 2) / 18);
  });
  const animate = async () => {
    try {
      for (;;) {
        if (!document.hidden && !animations.paused) {
          u = (await stepper.step(u)).u;
          steps++;
          sinceStart++;
          let mx = 0;
          for (let i = 0; i < u.length; i++) mx = Math.max(mx, Math.abs(u[i]));
          if (mx < 0.02 || sinceStart >= 400) {
            u = initialField(seed++, A);
            sinceStart = 0;
          }
          draw(cv, u, `step ${sinceStart}`);
          result.animatedSteps = steps;
          state.demos.heat = { ...result };
        }
        await nextFrame();
      }
    } catch (e) {
      state.errors.push(`heat animation: ${errorText(e)}`);
      p.verdict.textContent = `animation stopped: ${errorText(e)}`;
    }
  };
  void animate();
}
