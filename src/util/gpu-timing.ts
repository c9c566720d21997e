/** GPU timing shared by the benchmark scripts and the applications' own timers. */
// Structural, so util needs no backend import: any GpuContext fits.
type GpuContext = { readonly device: GPUDevice };

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Milliseconds for `k` repetitions of `encode` recorded into one submission, between submit and
 * onSubmittedWorkDone (the ~50 µs round trip is amortised over the k repetitions).
 */
export async function timeSubmission(
  ctx: GpuContext,
  encode: (enc: GPUCommandEncoder) => void,
  k: number,
): Promise<number> {
  const d = ctx.device;
  const enc = d.createCommandEncoder();
  for (let i = 0; i < k; i++) encode(enc);
  const t0 = performance.now();
  d.queue.submit([enc.finish()]);
  await d.queue.onSubmittedWorkDone();
  return performance.now() - t0;
}
