/**
 * EDM benchmark/check driver shared by the CLI (`butterfly edm`) and bench/edm.ts: for each case and
 * angle count, random complex field and shape functions, one checked run against the float64
 * reference, then GPU timing of the plan with the data resident on the device.
 *
 * Timing: after ≥ 100 ms of warm-up, rounds of k ≥ reps runs (k sized for ≥ 20 ms per round) recorded
 * into one submission between two onSubmittedWorkDone waits (the ~50 µs submit round trip amortised),
 * median of `rounds`. Each run is one compute pass (1 dispatch fused,
 * 3 split). Fields of the JSON records match bench/edm_cupy.py's.
 */
import { createStorageBuffer, readBuffer, type GpuContext } from '../../backends/webgpu/device.js';
import { randomFloat32 } from '../../util/random.js';
import { relativeL2 } from '../../util/metrics.js';
import { EDM_CASES, type EdmCase } from './cases.js';
import { createEdmPlan, edmProblem, edmReference } from './edm.js';
import { median, timeSubmission } from '../../util/gpu-timing.js';

export interface EdmRunOptions {
  cases?: number[];
  angles?: number[];
  reps?: number;
  rounds?: number;
  /** Check against the float64 reference ('all' slices, 'some' = at most 64 slices, 'none'). */
  check?: 'all' | 'some' | 'none';
  tuning?: import('./edm.js').EdmTuning;
  onRecord?: (r: EdmRecord) => void;
}

export interface EdmRecord {
  lib: 'butterfly';
  case: number;
  angles: number;
  M: number;
  mfft: number;
  slices: number;
  ms: number;
  /** Bytes the fused/split kernels must move at least (field in, shapes in, output), per ms → GB/s. */
  GBps: number;
  passes: number;
  algorithm: string;
  relL2: number | null;
  thesisGpuMs: number;
  device: string;
}

export async function timeEncode(
  ctx: GpuContext,
  encode: (enc: GPUCommandEncoder) => void,
  reps: number,
  rounds = 7,
): Promise<number> {
  const run = (k: number) => timeSubmission(ctx, encode, k);
  // Warm up for ≥ 100 ms of GPU work: after an idle spell (e.g. the CPU reference check) the GPU's
  // clocks ramp up slowly, and a few short runs measured a large case 5× too slow.
  let per = (await run(1)) || 0.01;
  for (let spent = 0; spent < 100; ) {
    const k = Math.max(1, Math.min(4096, Math.ceil(20 / per)));
    const t = await run(k);
    per = t / k;
    spent += t;
  }
  // each timed round ≥ ~20 ms of work so the submit round trip stays negligible
  const k = Math.max(reps, Math.min(4096, Math.ceil(20 / per)));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) times.push((await run(k)) / k);
  return median(times);
}

export async function runEdm(ctx: GpuContext, options: EdmRunOptions = {}): Promise<EdmRecord[]> {
  const cases: EdmCase[] = (options.cases ?? [1, 2, 3, 4, 5, 6, 7]).map((id) => {
    const c = EDM_CASES.find((x) => x.id === id);
    if (!c) throw new RangeError(`EDM case ${id}: cases are 1..7`);
    return c;
  });
  const device =
    `${ctx.adapter.vendor} ${ctx.adapter.architecture} ${ctx.adapter.device || ctx.adapter.description}`.trim();
  const out: EdmRecord[] = [];
  for (const c of cases) {
    for (const angles of options.angles ?? [1, 7]) {
      const p = edmProblem(c, angles);
      const field = randomFloat32(2 * p.slices * p.M * p.M, 1000 * c.id + angles);
      const shapes = randomFloat32(2 * p.shapes * p.mfft * p.mfft, 2000 * c.id + angles);
      const plan = await createEdmPlan(p, { gpu: ctx, tuning: options.tuning });
      const fb = createStorageBuffer(ctx, field, 'edm field');
      const sb = createStorageBuffer(ctx, shapes, 'edm shapes');
      const ob = createStorageBuffer(ctx, new Float32Array(field.length).fill(NaN), 'edm out');
      try {
        let relL2: number | null = null;
        const check = options.check ?? 'all';
        if (check !== 'none') {
          await ctx.checked('edm', () => {
            const enc = ctx.device.createCommandEncoder();
            plan.encode(enc, fb, sb, ob);
            ctx.device.queue.submit([enc.finish()]);
          });
          const y = new Float32Array(await readBuffer(ctx, ob, 0, field.byteLength));
          // 'some': the first slices of every angle would repeat shapes; take the first ≤ 64 slices
          const n = check === 'all' ? p.slices : Math.min(p.shapes * p.components, 64);
          const sub = { ...p, angles: 1, shapes: p.shapes, components: p.components };
          const per = 2 * p.M * p.M;
          if (n === p.slices) relL2 = relativeL2(y, edmReference(p, field, shapes));
          else {
            // the first n slices of angle 0 use shapes ⌊s/3⌋, a prefix of the reference's own layout
            const full = edmReference(sub, field.subarray(0, per * p.shapes * p.components), shapes);
            relL2 = relativeL2(y.subarray(0, per * n), full.subarray(0, per * n));
          }
        }
        const reps = options.reps ?? 5;
        const ms = await timeEncode(ctx, (enc) => plan.encode(enc, fb, sb, ob), reps, options.rounds ?? 7);
        const bytes = 8 * (2 * p.slices * p.M * p.M + p.shapes * p.mfft * p.mfft);
        const rec: EdmRecord = {
          lib: 'butterfly',
          case: c.id,
          angles,
          M: p.M,
          mfft: p.mfft,
          slices: p.slices,
          ms,
          GBps: bytes / ms / 1e6,
          passes: plan.passes,
          algorithm: plan.recipe.algorithm,
          relL2,
          thesisGpuMs: c.thesisGpuMs,
          device,
        };
        out.push(rec);
        options.onRecord?.(rec);
      } finally {
        fb.destroy();
        sb.destroy();
        ob.destroy();
        plan.destroy();
      }
    }
  }
  return out;
}
