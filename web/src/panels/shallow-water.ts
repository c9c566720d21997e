/**
 * Shallow water with a pollutant: the library's app (src/apps/shallow-water/) on a 128² mesh (64² on
 * a software adapter or the CPU backend; ?sweN= sets it), the
 * path-conservative Roe scheme stepping on the page's backend (WebGPU f32: one cfl → reduce → update
 * pass per step, Δt chosen on the GPU), the pollutant concentration C = hC/h drawn through renderField.
 *
 * Checks exported to window.__butterfly.demos['shallow-water'] (raw fields in
 * window.__butterfly.data['shallow-water']): for each scenario (dam break with C = 1 in the column, the
 * synthetic tidal estuary with a pollutant release), createSweSimulation on the page's backend and on
 * the float64 CPU reference, both advanced to the same time in the same page. They must take the same
 * number of CFL steps and agree to relative L1 ≤ 1e-4 in h, q_x, q_y and hC (q of the estuary: ≤ 1e-3,
 * see ScenarioSpec.qBound; the dam break's walls also keep the water volume). On WebGPU the reference
 * starts from the problem rounded to float32 (roundToFloat32: the inputs the GPU actually has), so the
 * difference measures the f32 arithmetic of the scheme alone.
 *
 * Then it animates the chosen scenario (selector), looping, with play/pause: the concentration on the
 * left, a chosen field (surface elevation, depth, speed) on the right.
 */
import { createSweSimulation, type SweSimulation } from '../../../src/apps/shallow-water/simulation.js';
import { damBreak, estuary } from '../../../src/apps/shallow-water/scenarios.js';
import { renderField, SWE_FIELDS, type SweField } from '../../../src/apps/shallow-water/render.js';
import { masses, roundToFloat32, type SweProblem, type SweState } from '../../../src/apps/shallow-water/problem.js';
import { animations, button, canvas, checksum, errorText, fmt, nextFrame, panel, state, type Env } from '../common.js';

const ID = 'shallow-water';
/** Cells per side: 128 on a hardware adapter, 64 on a software one and on the CPU backend (?sweN= overrides). */
let N = 128;
const BOUND_F32 = 1e-4;

type ScenarioId = 'dam-break' | 'estuary';

interface ScenarioSpec {
  label: string;
  make(): SweProblem;
  /** Time to which both backends run for the check. */
  verifyT: number;
  /** Simulated time per animation frame, and where the animation loops back to the start. */
  frameDt: number;
  loopT: number;
  clock(t: number): string;
  /**
   * Bound on the relative L1 difference of q_x, q_y on float32 (h and hC always use BOUND_F32). The
   * estuary's flow at 10 min is driven by the tide boundary, whose elevation the kernel computes with
   * WGSL cos (allowed an absolute error of 2^-11): Chromium's SwiftShader shows ~1.4e-4 there.
   */
  qBound: number;
}

const SCENARIOS: Record<ScenarioId, ScenarioSpec> = {
  'dam-break': {
    label: 'Dam break (C = 1 in the column)',
    make: () => damBreak(N, { pollutant: 1 }),
    verifyT: 0.25,
    frameDt: 0.01,
    loopT: 3,
    clock: (t) => `t = ${t.toFixed(2)} s`,
    qBound: BOUND_F32,
  },
  estuary: {
    label: 'Tidal estuary (pollutant release)',
    make: () => estuary(N, { releaseRadius: 1000 }),
    verifyT: 600,
    frameDt: 90,
    loopT: 12.42 * 3600,
    clock: (t) => `t = ${Math.floor(t / 3600)} h ${String(Math.floor((t % 3600) / 60)).padStart(2, '0')} min`,
    qBound: 1e-3,
  },
};
const IDS = Object.keys(SCENARIOS) as ScenarioId[];

function l1Rel(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let num = 0,
    den = 0;
  for (let i = 0; i < ref.length; i++) {
    if (!Number.isFinite(a[i])) return Infinity;
    num += Math.abs(a[i] - ref[i]);
    den += Math.abs(ref[i]);
  }
  return den === 0 ? (num === 0 ? 0 : Infinity) : num / den;
}

/** Draws one field of the state (north up) scaled to the canvas, with a caption. */
function draw(cv: HTMLCanvasElement, problem: SweProblem, s: SweState, field: SweField, caption: string): void {
  let range: { min?: number; max?: number } = {};
  if (field === 'concentration') range = { min: 0, max: 1 };
  else if (field === 'surface') {
    // The wet cells' own range (renderField's default is symmetric about the reference level, which the
    // dam break's surface, at +1 m, lies far above).
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < s.h.length; i++) {
      if (s.h[i] < problem.params.hEps) continue;
      lo = Math.min(lo, s.h[i] - problem.H[i]);
      hi = Math.max(hi, s.h[i] - problem.H[i]);
    }
    if (lo <= hi)
      range = {
        min: (lo + hi) / 2 - Math.max((hi - lo) / 2, 1e-3),
        max: (lo + hi) / 2 + Math.max((hi - lo) / 2, 1e-3),
      };
  }
  const img = renderField(problem, s, field, range);
  const rgba = new ImageData(img.width, img.height);
  for (let i = 0; i < img.width * img.height; i++) {
    rgba.data[4 * i] = img.rgb[3 * i];
    rgba.data[4 * i + 1] = img.rgb[3 * i + 1];
    rgba.data[4 * i + 2] = img.rgb[3 * i + 2];
    rgba.data[4 * i + 3] = 255;
  }
  const off = new OffscreenCanvas(img.width, img.height);
  off.getContext('2d')!.putImageData(rgba, 0, 0);
  const g = cv.getContext('2d')!;
  g.imageSmoothingEnabled = true;
  g.drawImage(off, 0, 0, cv.width, cv.height);
  g.font = '12px system-ui, sans-serif';
  const text = `${caption}   ${field} ${fmt(img.min)} … ${fmt(img.max)}`;
  g.fillStyle = 'rgba(255,255,255,0.7)';
  g.fillRect(0, cv.height - 22, g.measureText(text).width + 12, 22);
  g.fillStyle = 'rgba(0,0,0,0.85)';
  g.fillText(text, 6, cv.height - 7);
}

interface Verified {
  time: number;
  steps: number;
  stepsCpu: number;
  timeCpu: number;
  l1RelVsCpu: { h: number; qx: number; qy: number; hc: number };
  bounds: { h: number; qx: number; qy: number; hc: number };
  checksum: { h: number; qx: number; qy: number; hc: number };
  checksumCpu: { h: number; qx: number; qy: number; hc: number };
  /** Relative change of the water volume over the run (walls only: the dam break). */
  waterDrift: number | null;
  ms: number;
  msCpu: number;
  pass: boolean;
}

const sums = (s: SweState) => ({ h: checksum(s.h), qx: checksum(s.qx), qy: checksum(s.qy), hc: checksum(s.hc) });

/** Runs one scenario to verifyT on the page's backend and on float64; returns the checks and the live simulation. */
async function verify(
  env: Env,
  id: ScenarioId,
): Promise<{ v: Verified; sim: SweSimulation; problem: SweProblem; s: SweState; ref: SweState }> {
  const spec = SCENARIOS[id];
  const problem = spec.make();
  const sim = await createSweSimulation(problem, { backend: env.backend, gpu: env.gpu ?? undefined });
  const t0 = performance.now();
  await sim.advance(spec.verifyT);
  const s = await sim.read();
  const ms = performance.now() - t0;
  const refSim = await createSweSimulation(sim.precision === 'float32' ? roundToFloat32(problem) : problem, {
    backend: 'cpu',
  });
  const t1 = performance.now();
  await refSim.advance(spec.verifyT);
  const ref = await refSim.read();
  const msCpu = performance.now() - t1;
  refSim.destroy();
  const l1RelVsCpu = {
    h: l1Rel(s.h, ref.h),
    qx: l1Rel(s.qx, ref.qx),
    qy: l1Rel(s.qy, ref.qy),
    hc: l1Rel(s.hc, ref.hc),
  };
  const f32 = sim.precision === 'float32';
  const bound = f32 ? BOUND_F32 : 1e-12;
  const bounds = { h: bound, qx: f32 ? spec.qBound : bound, qy: f32 ? spec.qBound : bound, hc: bound };
  let waterDrift: number | null = null;
  if (Object.values(problem.boundaries).every((b) => b === 'wall')) {
    const m0 = masses(problem, problem).water;
    waterDrift = Math.abs(masses(problem, s).water - m0) / m0;
  }
  const pass =
    s.steps === ref.steps &&
    s.steps > 0 &&
    Math.abs(s.time - spec.verifyT) <= 1e-6 * spec.verifyT &&
    (Object.keys(bounds) as (keyof typeof bounds)[]).every((k) => l1RelVsCpu[k] <= bounds[k]) &&
    (waterDrift === null || waterDrift < 1e-5);
  const v: Verified = {
    time: s.time,
    steps: s.steps,
    stepsCpu: ref.steps,
    timeCpu: ref.time,
    l1RelVsCpu,
    bounds,
    checksum: sums(s),
    checksumCpu: sums(ref),
    waterDrift,
    ms,
    msCpu,
    pass,
  };
  return { v, sim, problem, s, ref };
}

export async function start(env: Env): Promise<void> {
  const software = env.backend === 'cpu' || (env.gpu?.adapter.software ?? false);
  N = Number(env.params.get('sweN')) || (software ? 64 : 128);
  const p = panel(
    ID,
    'Shallow water with a pollutant (finite volumes)',
    `A ${N}×${N} shallow-water simulation (path-conservative Roe scheme, adaptive CFL time step chosen on the device) carrying a pollutant; left: the pollutant concentration C = hC/h, right: the field chosen below; dry land in tan.`,
  );
  // Left: the pollutant concentration; right: the field chosen in the selector (surface elevation first).
  const cvC = canvas(320, 320);
  const cvF = canvas(320, 320);
  const pics = document.createElement('div');
  pics.style.cssText = 'display: flex; gap: 8px; flex-wrap: wrap;';
  for (const c of [cvC, cvF]) {
    c.style.maxWidth = '320px';
    c.style.width = 'calc(50% - 4px)';
    c.style.minWidth = '240px';
  }
  pics.append(cvC, cvF);
  const controls = document.createElement('div');
  controls.className = 'controls';
  p.body.append(controls, pics);
  let field: SweField = 'surface';
  const show = (problem: SweProblem, s: SweState, caption: string) => {
    draw(cvC, problem, s, 'concentration', caption);
    draw(cvF, problem, s, field, caption);
  };

  // --- Verified part: both scenarios on this backend and on float64 -------------------------------
  const verified = {} as Record<ScenarioId, Verified>;
  let current: ScenarioId = 'dam-break';
  let live: { sim: SweSimulation; problem: SweProblem } | null = null;
  /** The state on the canvas (redrawn when the field changes while paused). */
  let shown: SweState | null = null;
  const data: Record<string, unknown> = {};
  for (const id of IDS) {
    const r = await verify(env, id);
    verified[id] = r.v;
    data[id] = {
      steps: r.s.steps,
      h: Array.from(r.s.h),
      qx: Array.from(r.s.qx),
      qy: Array.from(r.s.qy),
      hc: Array.from(r.s.hc),
      hCpu: Array.from(r.ref.h),
      qxCpu: Array.from(r.ref.qx),
      qyCpu: Array.from(r.ref.qy),
      hcCpu: Array.from(r.ref.hc),
    };
    if (id === current) {
      live = { sim: r.sim, problem: r.problem };
      shown = r.s;
      show(r.problem, r.s, `${SCENARIOS[id].clock(r.s.time)} (verified)`);
    } else r.sim.destroy();
    await nextFrame();
  }
  state.data[ID] = data;
  const backend = live!.sim.backend;
  const precision = live!.sim.precision;
  const bound = precision === 'float32' ? BOUND_F32 : 1e-12;
  const pass = IDS.every((id) => verified[id].pass);
  const result = {
    state: 'done' as const,
    pass,
    backend,
    precision,
    grid: N,
    bound,
    verified,
    scenario: current as ScenarioId,
    field: field as SweField,
    playing: true,
    simTime: live!.sim.time,
    simSteps: live!.sim.steps,
    animatedFrames: 0,
  };
  p.setResult(result);
  p.text.textContent =
    `backend ${backend} (${precision}); the float64 CPU reference ran to the same time in this page:\n` +
    IDS.map((id) => {
      const v = verified[id];
      const e = v.l1RelVsCpu;
      return (
        `${id} to ${SCENARIOS[id].clock(v.time)}: ${v.steps} steps (CPU ${v.stepsCpu}), ${fmt(v.ms / v.steps)} ms per step incl. read-back; ` +
        `relative L1 h ${fmt(e.h)} qx ${fmt(e.qx)} qy ${fmt(e.qy)} hC ${fmt(e.hc)} (bounds ${fmt(v.bounds.h)}, q ${fmt(v.bounds.qx)})` +
        (v.waterDrift !== null ? `, water drift ${fmt(v.waterDrift)}` : '')
      );
    }).join('\n');

  // --- Controls --------------------------------------------------------------------------------
  /** What the Play/Pause button asks for. */
  let playing = true;
  /** A frame is advancing the simulation; a Pause clicked meanwhile takes effect when it ends. */
  let stepping = false;
  /** Exports the state; `playing` turns false only once no frame is stepping, so a paused simTime is final. */
  const publish = () => {
    result.playing = playing || stepping;
    state.demos[ID] = { ...result };
  };
  /** A scenario chosen in the selector, started by the animation loop (never while it steps). */
  let pending: ScenarioId | null = null;
  const scenarioSel = document.createElement('select');
  scenarioSel.dataset.action = 'scenario';
  for (const id of IDS) scenarioSel.append(new Option(SCENARIOS[id].label, id, id === current, id === current));
  const fieldSel = document.createElement('select');
  fieldSel.dataset.action = 'field';
  for (const f of SWE_FIELDS) fieldSel.append(new Option(f, f, f === field, f === field));
  const playBtn = button('Pause', () => {
    playing = !playing;
    playBtn.textContent = playing ? 'Pause' : 'Play';
    publish();
  });
  playBtn.dataset.action = 'play';
  const restart = async (id: ScenarioId) => {
    const problem = SCENARIOS[id].make();
    const sim = await createSweSimulation(problem, { backend, gpu: env.gpu ?? undefined });
    live?.sim.destroy();
    live = { sim, problem };
    current = id;
    result.scenario = id;
    result.simTime = 0;
    result.simSteps = 0;
    shown = await sim.read();
    show(problem, shown, SCENARIOS[id].clock(0));
  };
  scenarioSel.addEventListener('change', () => {
    pending = scenarioSel.value as ScenarioId;
  });
  fieldSel.addEventListener('change', () => {
    field = fieldSel.value as SweField;
    result.field = field;
    if (live && shown) show(live.problem, shown, SCENARIOS[current].clock(shown.time));
  });
  const label = (text: string, el: HTMLElement) => {
    const l = document.createElement('label');
    l.append(`${text} `, el);
    return l;
  };
  controls.append(label('scenario', scenarioSel), label('field', fieldSel), playBtn);

  // --- Animation: advance frameDt of simulated time per frame, loop at loopT. ----------------------
  const animate = async () => {
    try {
      for (;;) {
        if (pending) {
          const id = pending;
          pending = null;
          await restart(id);
          publish();
        }
        if (playing && !document.hidden && !animations.paused && live) {
          const { sim, problem } = live;
          const spec = SCENARIOS[current];
          stepping = true;
          try {
            if (sim.time >= spec.loopT - 1e-9 * spec.loopT) await restart(current);
            else {
              await sim.advance(Math.min(spec.loopT, sim.time + spec.frameDt));
              const s = await sim.read();
              shown = s;
              show(problem, s, spec.clock(s.time));
              result.simTime = s.time;
              result.simSteps = s.steps;
              result.animatedFrames++;
            }
          } finally {
            stepping = false;
          }
          publish();
        }
        await nextFrame();
      }
    } catch (e) {
      state.errors.push(`${ID} animation: ${errorText(e)}`);
      p.verdict.textContent = `animation stopped: ${errorText(e)}`;
    }
  };
  void animate();
}
