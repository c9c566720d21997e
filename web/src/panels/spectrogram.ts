/**
 * Spectrogram: short-time Fourier transform of a linear chirp (plus a steady tone and a little noise),
 * every frame Hann-windowed, all frames in one batched FFT plan on the chosen backend. The real frames
 * go in as complex data with zero imaginary parts and the first N/2+1 bins are kept (the library has
 * no GPU rfft yet); the reference is the float64 CPU rfft (planCpuRfft) of the same frames.
 *
 * Checks exported to window.__butterfly.demos.spectrogram:
 *  - relErrVsCpu: ‖X_backend − X_rfft64‖ / ‖X_rfft64‖ over all frames and bins (complex values);
 *  - peakMaxBinError: largest distance, in bins, between each frame's loudest bin and the chirp's
 *    instantaneous frequency at the frame's centre (a check that does not depend on the library).
 * Then "Live" scrolls a spectrogram of a generated up/down sweep, or of the microphone when allowed.
 */
import { createFftPlan, type FftPlan } from '../../../src/api/fft.js';
import { planCpuRfft } from '../../../src/backends/cpu/fft-real.js';
import { rng } from '../../../src/util/random.js';
import {
  animations,
  button,
  canvas,
  checksum,
  drawField,
  errorText,
  fmt,
  nextFrame,
  panel,
  relL2,
  state,
  type Env,
  LUT_INFERNO,
} from '../common.js';

const FS = 8000;
const N = 512;
const HOP = 128;
const SAMPLES = 16384;
const F0 = 200;
const F1 = 3600;
const DB_RANGE = 80;

function hann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

/** The test signal: linear chirp F0 → F1 over the whole signal, a 0.25-amplitude 1 kHz tone, noise. */
export function chirpSignal(): Float64Array {
  const T = SAMPLES / FS;
  const r = rng(9);
  const x = new Float64Array(SAMPLES);
  for (let i = 0; i < SAMPLES; i++) {
    const t = i / FS;
    x[i] =
      Math.sin(2 * Math.PI * (F0 * t + ((F1 - F0) * t * t) / (2 * T))) +
      0.25 * Math.sin(2 * Math.PI * 1000 * t) +
      0.02 * (2 * r() - 1);
  }
  return x;
}

function labels(c: HTMLCanvasElement, topHz: number, left: string): void {
  const g = c.getContext('2d')!;
  g.font = '12px system-ui, sans-serif';
  g.fillStyle = 'rgba(255,255,255,0.85)';
  g.fillText(`${(topHz / 1000).toFixed(topHz >= 10000 ? 0 : 1)} kHz`, 6, 14);
  g.fillText(`${(topHz / 2000).toFixed(topHz >= 10000 ? 0 : 1)} kHz`, 6, c.height / 2 + 4);
  g.fillText('0 Hz', 6, c.height - 6);
  g.fillText(left, c.width - g.measureText(left).width - 6, c.height - 6);
}

export async function start(env: Env): Promise<void> {
  const p = panel(
    'spectrogram',
    'Spectrogram (batched FFT)',
    `Short-time Fourier transform of a chirp sweeping ${F0} Hz → ${F1 / 1000} kHz, plus a 1 kHz tone: ${N}-point Hann-windowed frames, hop ${HOP}, all frames in one batched plan.`,
  );
  const cv = canvas(750, 300);
  const controls = document.createElement('div');
  controls.className = 'controls';
  p.body.append(cv, controls);

  // --- The verified computation -------------------------------------------------------------------
  const x = chirpSignal();
  const w = hann(N);
  const frames = Math.floor((SAMPLES - N) / HOP) + 1;
  const bins = N / 2 + 1;
  const Arr = env.backend === 'webgpu' ? Float32Array : Float64Array;
  const input = new Arr(2 * N * frames);
  const ref = new Float64Array(2 * bins * frames);
  const frame = new Float64Array(N);
  const rfft = planCpuRfft(N);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < N; i++) {
      frame[i] = x[f * HOP + i] * w[i];
      // The reference sees exactly the values the backend sees (rounded to f32 on WebGPU).
      if (env.backend === 'webgpu') frame[i] = Math.fround(frame[i]);
      input[2 * (f * N + i)] = frame[i];
    }
    rfft.forward1(frame, 0, ref, f * bins);
  }
  const t0 = performance.now();
  const plan = await createFftPlan({
    n: N,
    batch: frames,
    direction: 'forward',
    backend: env.backend,
    gpu: env.gpu ?? undefined,
  });
  const tPlan = performance.now() - t0;
  const t1 = performance.now();
  const full = await plan.execute(input);
  const tExec = performance.now() - t1;
  plan.destroy();
  const got = new Float64Array(2 * bins * frames);
  for (let f = 0; f < frames; f++) for (let k = 0; k < 2 * bins; k++) got[f * 2 * bins + k] = full[f * 2 * N + k];
  const relErr = relL2(got, ref);

  // Magnitudes in dB for the picture, and each frame's peak against the chirp's frequency.
  const img = new Float64Array(frames * bins); // row = bin (0 = DC), column = frame
  let maxMag = 0;
  for (let i = 0; i < bins * frames; i++) maxMag = Math.max(maxMag, Math.hypot(got[2 * i], got[2 * i + 1]));
  let peakMaxBinError = 0;
  const T = SAMPLES / FS;
  for (let f = 0; f < frames; f++) {
    let best = 0,
      bestK = 0;
    for (let k = 0; k < bins; k++) {
      const m = Math.hypot(got[2 * (f * bins + k)], got[2 * (f * bins + k) + 1]);
      img[k * frames + f] = 20 * Math.log10(m / maxMag + 1e-12);
      if (m > best) {
        best = m;
        bestK = k;
      }
    }
    const tc = (f * HOP + N / 2) / FS;
    const fExpected = F0 + ((F1 - F0) * tc) / T;
    peakMaxBinError = Math.max(peakMaxBinError, Math.abs(bestK - (fExpected * N) / FS));
  }
  drawField(cv, img, frames, bins, -DB_RANGE, 0, LUT_INFERNO, true);
  labels(cv, FS / 2, `${(SAMPLES / FS).toFixed(2)} s →`);

  const bound = env.backend === 'webgpu' ? 1e-5 : 1e-12;
  const pass = relErr < bound && peakMaxBinError <= 2;
  const result = {
    state: 'done' as const,
    pass,
    backend: plan.backend,
    n: N,
    frames,
    bins,
    relErrVsCpu: relErr,
    bound,
    peakMaxBinError,
    checksum: checksum(got),
    checksumCpu: checksum(ref),
    planMs: tPlan,
    execMs: tExec,
    liveFrames: 0,
    liveSource: 'none',
  };
  // A few frames' exact inputs and outputs, for a naive DFT outside the page (the browser test).
  const sampleFrames = [0, 17, 42, 63, 99, frames - 1];
  state.data.spectrogram = {
    n: N,
    bins,
    frames: sampleFrames.map((f) => ({
      index: f,
      input: Array.from({ length: N }, (_, i) => input[2 * (f * N + i)]),
      output: Array.from(got.subarray(2 * bins * f, 2 * bins * (f + 1))),
    })),
  };
  p.setResult(result);
  p.text.textContent =
    `backend ${plan.backend}, ${frames} frames × ${N} points: plan ${fmt(tPlan)} ms, execute ${fmt(tExec)} ms (incl. upload and read-back)\n` +
    `relative L2 error vs float64 CPU rfft: ${fmt(relErr)} (bound ${fmt(bound)})\n` +
    `loudest bin vs chirp frequency: within ${fmt(peakMaxBinError)} bins in every frame (bound 2)`;

  // --- Live mode ------------------------------------------------------------------------------------
  const COLS = 250;
  const live = new Float64Array(bins * COLS).fill(-DB_RANGE);
  let running = false;
  let mic: { analyser: AnalyserNode; ctx: AudioContext; stream: MediaStream } | null = null;
  let phase = 0,
    tLive = 0;
  const PER_TICK = 3;
  let livePlan: FftPlan | null = null;
  let livePlanBatch = 0;
  const liveInput = new Arr(2 * N * PER_TICK);
  const ring = new Float64Array(N + HOP * PER_TICK);

  async function tick(): Promise<void> {
    let k: number;
    let sampleRate = FS;
    if (mic) {
      const buf = new Float32Array(N);
      mic.analyser.getFloatTimeDomainData(buf);
      sampleRate = mic.ctx.sampleRate;
      k = 1;
      for (let i = 0; i < N; i++) liveInput[2 * i] = buf[i] * w[i];
    } else {
      // An up/down sweep between 100 Hz and 3.9 kHz (period 4 s) with a vibrato, continuous in phase.
      k = PER_TICK;
      // ring holds the last N + HOP·PER_TICK samples; frame j starts at HOP·(j + 1).
      ring.copyWithin(0, HOP * PER_TICK);
      const base = ring.length - HOP * PER_TICK;
      for (let i = 0; i < HOP * PER_TICK; i++) {
        tLive += 1 / FS;
        const s = (tLive % 4) / 4;
        const f = 100 + 3800 * (s < 0.5 ? 2 * s : 2 - 2 * s) + 60 * Math.sin(2 * Math.PI * 5 * tLive);
        phase += (2 * Math.PI * f) / FS;
        ring[base + i] = Math.sin(phase);
      }
      for (let j = 0; j < k; j++)
        for (let i = 0; i < N; i++) liveInput[2 * (j * N + i)] = ring[(j + 1) * HOP + i] * w[i];
    }
    if (!livePlan || livePlanBatch !== k) {
      livePlan?.destroy();
      livePlan = await createFftPlan({
        n: N,
        batch: k,
        direction: 'forward',
        backend: env.backend,
        gpu: env.gpu ?? undefined,
      });
      livePlanBatch = k;
    }
    const out = await livePlan.execute(k === PER_TICK ? liveInput : liveInput.subarray(0, 2 * N));
    // Scroll left by k columns and write the new ones.
    for (let b = 0; b < bins; b++) live.copyWithin(b * COLS, b * COLS + k, (b + 1) * COLS);
    for (let j = 0; j < k; j++) {
      for (let b = 0; b < bins; b++) {
        const m = Math.hypot(out[2 * (j * N + b)], out[2 * (j * N + b) + 1]);
        live[b * COLS + COLS - k + j] = 20 * Math.log10(m / (N / 4) + 1e-12);
      }
    }
    drawField(cv, live, COLS, bins, -DB_RANGE, 0, LUT_INFERNO, true);
    labels(cv, sampleRate / 2, mic ? 'microphone, live →' : 'generated sweep, live →');
    result.liveFrames += k;
    state.demos.spectrogram = { ...result };
  }

  async function loop(): Promise<void> {
    while (running) {
      try {
        if (!animations.paused) await tick();
      } catch (e) {
        running = false;
        p.verdict.textContent = `live mode stopped: ${errorText(e)}`;
        state.errors.push(`spectrogram live: ${errorText(e)}`);
      }
      await nextFrame();
    }
  }

  const liveBtn = button('Live: generated sweep', () => {
    if (running && !mic) {
      running = false;
      liveBtn.textContent = 'Live: generated sweep';
      return;
    }
    stopMic();
    result.liveSource = 'generated';
    running = true;
    liveBtn.textContent = 'Stop';
    void loop();
  });
  liveBtn.dataset.action = 'live';
  const micBtn = button('Live: microphone', async () => {
    if (mic) {
      stopMic();
      running = false;
      micBtn.textContent = 'Live: microphone';
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const ctx = new AudioContext();
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      ctx.createMediaStreamSource(stream).connect(analyser);
      mic = { analyser, ctx, stream };
      result.liveSource = 'microphone';
      micBtn.textContent = 'Stop microphone';
      liveBtn.textContent = 'Live: generated sweep';
      if (!running) {
        running = true;
        void loop();
      }
    } catch (e) {
      p.verdict.textContent = `microphone not available: ${errorText(e)}`;
    }
  });
  micBtn.dataset.action = 'mic';
  function stopMic(): void {
    if (!mic) return;
    for (const t of mic.stream.getTracks()) t.stop();
    void mic.ctx.close();
    mic = null;
    micBtn.textContent = 'Live: microphone';
  }
  const staticBtn = button('Show the verified chirp', () => {
    running = false;
    stopMic();
    liveBtn.textContent = 'Live: generated sweep';
    drawField(cv, img, frames, bins, -DB_RANGE, 0, LUT_INFERNO, true);
    labels(cv, FS / 2, `${(SAMPLES / FS).toFixed(2)} s →`);
  });
  if (!navigator.mediaDevices?.getUserMedia) micBtn.disabled = true;
  controls.append(liveBtn, micBtn, staticBtn);
  await nextFrame();
}
