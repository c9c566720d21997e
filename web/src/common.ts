/**
 * What the panels share: the backend chosen at start-up, the results object the browser tests read
 * (`window.__butterfly`), panel scaffolding, and small canvas helpers (colour maps, line plots).
 */
import type { GpuContext } from '../../src/backends/webgpu/device.js';

export type Backend = 'webgpu' | 'cpu';

export interface DemoResult {
  /** 'running' while it computes, 'done' when the checks below are final, 'error' on an exception. */
  state: 'running' | 'done' | 'error';
  /** true when the GPU result matched the CPU reference (and the physics checks) within the bounds. */
  pass?: boolean;
  error?: string;
  [k: string]: unknown;
}

export interface PageState {
  status: 'starting' | 'ready' | 'error';
  backend: Backend | null;
  /** Why WebGPU is not used (no navigator.gpu, no adapter, forced by ?backend=cpu, …). */
  fallbackReason: string | null;
  adapter: { description: string; vendor: string; architecture: string; software: boolean } | null;
  limits: Record<string, number> | null;
  demos: Record<string, DemoResult>;
  /** Raw samples for checks made outside the page (plain arrays, small). */
  data: Record<string, unknown>;
  errors: string[];
}

declare global {
  interface Window {
    __butterfly: PageState;
  }
}

export const state: PageState = {
  status: 'starting',
  backend: null,
  fallbackReason: null,
  adapter: null,
  limits: null,
  demos: {},
  data: {},
  errors: [],
};
window.__butterfly = state;

/** Animations hold still while the benchmark runs, so they do not disturb its timings. */
export const animations = { paused: false };

export interface Env {
  backend: Backend;
  gpu: GpuContext | null;
  params: URLSearchParams;
}

/** Creates the panel's section; the browser tests find it by data-demo and read data-state. */
export function panel(
  id: string,
  title: string,
  what: string,
): {
  root: HTMLElement;
  body: HTMLElement;
  setResult: (r: DemoResult) => void;
  text: HTMLElement;
  verdict: HTMLElement;
} {
  const root = document.createElement('section');
  root.className = 'panel';
  root.id = `panel-${id}`;
  root.dataset.demo = id;
  root.dataset.state = 'running';
  root.innerHTML = `<h2>${title}</h2><p class="what">${what}</p>`;
  const body = document.createElement('div');
  const verdict = document.createElement('div');
  verdict.className = 'verdict running';
  verdict.textContent = 'running…';
  const text = document.createElement('div');
  text.className = 'result';
  root.append(body, verdict, text);
  document.getElementById('panels')!.append(root);
  const setResult = (r: DemoResult) => {
    state.demos[id] = r;
    root.dataset.state = r.state;
    if (r.pass !== undefined) root.dataset.pass = String(r.pass);
    verdict.className = `verdict ${r.state === 'running' ? 'running' : r.pass ? 'ok' : 'bad'}`;
    if (r.state === 'error') verdict.textContent = `error: ${r.error}`;
    else if (r.state === 'running') verdict.textContent = 'running…';
    else verdict.textContent = r.pass ? '✓ matches the float64 CPU reference' : '✗ does not match the reference';
  };
  setResult({ state: 'running' });
  return { root, body, setResult, text, verdict };
}

export function canvas(width: number, height: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
}

export function button(label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

// Colour maps: piecewise-linear through a few stops of matplotlib's 'inferno' and a diverging map.
const INFERNO: [number, number, number][] = [
  [0, 0, 4],
  [40, 11, 84],
  [101, 21, 110],
  [159, 42, 99],
  [212, 72, 66],
  [245, 125, 21],
  [250, 193, 39],
  [252, 255, 164],
];
const COOLWARM: [number, number, number][] = [
  [59, 76, 192],
  [124, 159, 249],
  [192, 212, 245],
  [242, 203, 183],
  [238, 133, 105],
  [180, 4, 38],
];

function lut(stops: [number, number, number][]): Uint8ClampedArray {
  const out = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = t - k;
    for (let c = 0; c < 3; c++) out[3 * i + c] = stops[k][c] * (1 - f) + stops[k + 1][c] * f;
  }
  return out;
}
export const LUT_INFERNO = lut(INFERNO);
export const LUT_COOLWARM = lut(COOLWARM);

/** Writes value v ∈ [lo, hi] as a colour into rgba at pixel p. */
export function putColour(
  rgba: Uint8ClampedArray,
  p: number,
  v: number,
  lo: number,
  hi: number,
  map: Uint8ClampedArray,
): void {
  let t = (v - lo) / (hi - lo);
  t = t < 0 ? 0 : t > 1 ? 1 : Number.isFinite(t) ? t : 0;
  const i = 3 * Math.round(t * 255);
  rgba[4 * p] = map[i];
  rgba[4 * p + 1] = map[i + 1];
  rgba[4 * p + 2] = map[i + 2];
  rgba[4 * p + 3] = 255;
}

/** Draws a w×h field (row 0 at the top unless flipY) scaled to the canvas. */
export function drawField(
  c: HTMLCanvasElement,
  f: ArrayLike<number>,
  w: number,
  h: number,
  lo: number,
  hi: number,
  map = LUT_INFERNO,
  flipY = false,
): void {
  const img = new ImageData(w, h);
  for (let y = 0; y < h; y++) {
    const src = flipY ? h - 1 - y : y;
    for (let x = 0; x < w; x++) putColour(img.data, y * w + x, f[src * w + x], lo, hi, map);
  }
  const off = new OffscreenCanvas(w, h);
  off.getContext('2d')!.putImageData(img, 0, 0);
  const g = c.getContext('2d')!;
  g.imageSmoothingEnabled = false;
  g.drawImage(off, 0, 0, c.width, c.height);
}

export function relL2(a: ArrayLike<number>, ref: ArrayLike<number>, n = ref.length): number {
  let num = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    const d = a[i] - ref[i];
    if (!Number.isFinite(a[i])) return Infinity;
    num += d * d;
    den += ref[i] * ref[i];
  }
  return den === 0 ? (num === 0 ? 0 : Infinity) : Math.sqrt(num / den);
}

/** A checksum that is stable across runs and sensitive to every element: Σ x_i·w_i with w_i = 1 + (i mod 7)/7. */
export function checksum(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * (1 + (i % 7) / 7);
  return s;
}

export function fmt(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e-2 && a < 1e5
    ? v.toFixed(Math.max(0, digits - Math.floor(Math.log10(a))))
    : v.toExponential(digits - 1);
}

export function nextFrame(): Promise<void> {
  return new Promise((r) => requestAnimationFrame(() => r()));
}

export function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
