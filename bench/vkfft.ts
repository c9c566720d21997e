/**
 * VkFFT (v1.3.4, Vulkan backend) as an anchor beside cuFFT, timed in the same run on the same GPU through the
 * gpu-kit's vkfft-vk/ (its prebuilt VkFFT_TestSuite). Same problems as bench/fft.ts: total elements fixed
 * (2^27), batch = total / N, fp32; GFLOPS = 5·N·log2N·batch/t (C2C) or 2.5·… (R2C), GB/s at the bytes a
 * transform must read and write once (16·N·batch for C2C, (4·N + 8·(N/2+1))·batch for R2C), as there.
 *
 * What VkFFT's user benchmark (-benchmark_vkfft, user_benchmark_VkFFT.cpp) times, per size: 2 passes × 3 runs,
 * each run with a fresh plan and a fresh in-place buffer uploaded from the host; a run records `--iters` ×
 * (forward + inverse) of the whole batch into one command buffer and takes the host's wall clock from
 * vkQueueSubmit to the fence (performVulkanFFTiFFT, utils_VkFFT.cpp), divided by the iterations. The first
 * pass is an unprinted warm-up; the second prints one `VkFFT System: …` line, avg_time_per_step = the mean
 * of its 3 runs (std_error their spread). With -R2C 1, X is the real length N (rows of N + 2 floats, in
 * place) and the inverse is the C2R, so a step is one R2C + one C2R.
 *
 * Usage: USAGE below (`--help` prints it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Output, parseArgs, parseRange, table } from './common.js';

const args = parseArgs(process.argv.slice(2));
const USAGE = `VkFFT (v1.3.4, Vulkan) anchor through the gpu-kit's vkfft-vk/, one JSON line per size.
  node .gpu/bench-vkfft.mjs [--kit .gpu/vkfft-vk] [--kind c2c|r2c] [--sizes 1-27] [--total 27] [--iters 12]
                            [--timeout 40] [--budget 0] [--dev N] [--no-save] [--json out.jsonl]
  --sizes    log2 N, "a-b" or "a,b,c" (default 1-27 for c2c, 2-27 for r2c); batch = 2^total / N
  --iters    forward+inverse pairs per submission (-N of VkFFT's user benchmark)
  --timeout  seconds for one size; its process group is killed then and the size gets an error line
  --budget   seconds for all sizes (0: no limit). Sizes run spread over the range first (largest, smallest,
             middle, quarters, ...), so a budget that runs out leaves an even sample; the sizes it leaves
             out get an error line, as refused or timed-out ones do
  --dev      Vulkan device index (default: the first listed device that is not a CPU implementation)
  --no-save  compile every plan (default: the first run of a size saves its kernels, the other five load them)
  ms is ONE transform: half of VkFFT's avg_time_per_step (one forward + one inverse of the whole batch).`;
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const kit = args.kit ?? '.gpu/vkfft-vk';
const kind = (args.kind ?? 'c2c') as 'c2c' | 'r2c';
if (kind !== 'c2c' && kind !== 'r2c') throw new Error(`--kind c2c|r2c, not ${kind}`);
const totalLog2 = Number(args.total ?? 27);
const sizes = parseRange(args.sizes ?? (kind === 'c2c' ? '1-27' : '2-27')).filter((l) => l >= 1 && l <= totalLog2);
// VkFFT's own sample 0 runs 12 forward+inverse pairs per submission at this buffer size (1 GiB): 2-10 ms a
// pair on an H100, so 6 runs × 12 pairs stay well under a second of GPU time and the submit latency is amortised.
const iters = Number(args.iters ?? 12);
const perSizeS = Number(args.timeout ?? 40);
const budgetS = Number(args.budget ?? 0);
// The kernel cache (-save: the first run compiles with glslang and saves the binaries, the other five load
// them) only shortens plan creation, which is not timed.
const save = !args['no-save'];
const out = new Output(args.json);
const LIB = 'VkFFT';
const VERSION = '1.3.4 (Vulkan)';
const NOTE = 'in place; forward+inverse pair halved';
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;

// Exit codes of the suite: its VkFFTResult mod 256 (README of the kit), or the shell's.
const EXIT: Record<number, string> = {
  1: 'VKFFT_ERROR_MALLOC_FAILED (or a bad argument)',
  3: 'VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER',
  124: 'timed out',
  137: 'killed (SIGKILL)',
  139: 'segmentation fault',
  161: 'VKFFT_ERROR_FAILED_TO_ALLOCATE (4001)',
  166: 'VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE (4006)',
  167: 'VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES (4007)',
  173: 'VKFFT_ERROR_FAILED_SHADER_PREPROCESS (4013)',
  174: 'VKFFT_ERROR_FAILED_SHADER_PARSE (4014)',
  175: 'VKFFT_ERROR_FAILED_SHADER_LINK (4015)',
  176: 'VKFFT_ERROR_FAILED_SPIRV_GENERATE (4016)',
  177: 'VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE (4017)',
  178: 'VKFFT_ERROR_FAILED_TO_CREATE_INSTANCE (4018): no Vulkan ICD found',
  180: 'VKFFT_ERROR_FAILED_TO_FIND_PHYSICAL_DEVICE (4020)',
  181: 'VKFFT_ERROR_FAILED_TO_CREATE_DEVICE (4021)',
  184: 'VKFFT_ERROR_FAILED_TO_CREATE_BUFFER (4024)',
  185: 'VKFFT_ERROR_UNSUPPORTED_RADIX (3001) or FAILED_TO_ALLOCATE_MEMORY (4025)',
  186: 'VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH (3002) or FAILED_TO_BIND_BUFFER_MEMORY (4026)',
  187: 'VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C (3003) or FAILED_TO_FIND_MEMORY (4027)',
  243: 'VKFFT_ERROR_EMPTY_FILE (1011): kernel cache missing',
};
const exitText = (rc: number) => `exit code ${rc}${EXIT[rc] ? ` (${EXIT[rc]})` : ''}`;

/** Sizes in an order that covers the range evenly early: last, first, then midpoints of the gaps, level by level. */
function spreadOrder(xs: number[]): number[] {
  const s = [...new Set(xs)].sort((a, b) => a - b);
  if (s.length <= 2) return s.reverse();
  const order = [s.length - 1, 0];
  const queue: [number, number][] = [[0, s.length - 1]];
  while (queue.length) {
    const [lo, hi] = queue.shift()!;
    if (hi - lo < 2) continue;
    const mid = (lo + hi) >> 1;
    order.push(mid);
    queue.push([lo, mid], [mid, hi]);
  }
  return order.map((i) => s[i]!);
}

// The kit's run.sh (ICD discovery, its loader on LD_LIBRARY_PATH) with ARGS; its log copies go to a scratch
// folder rather than $OUT, and it prints `=== exit code N` after the suite's own output.
const logDir = mkdtempSync(join(tmpdir(), 'vkfft-logs-'));
process.on('exit', () => rmSync(logDir, { recursive: true, force: true }));
let current: ReturnType<typeof spawn> | null = null;

/** Runs the kit's run.sh in its own process group, killing the whole group (bash, suite, tee) on timeout. */
function runKit(
  kitArgs: string[],
  env: Record<string, string>,
  timeoutS: number,
): Promise<{ text: string; rc: number | null; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(kit, 'run.sh'), ...kitArgs], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOGDIR: logDir, ...env },
    });
    current = child;
    let text = '';
    child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutS * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      current = null;
      const m = [...text.matchAll(/^=== exit code (\d+)/gm)].pop();
      resolve({ text, rc: m ? Number(m[1]) : null, timedOut });
    });
  });
}

function killGroup(child: ReturnType<typeof spawn>): void {
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // the group has already exited
    }
  };
  kill('SIGTERM');
  setTimeout(() => kill('SIGKILL'), 5000).unref();
}

// An outer `timeout` stops node only: take the suite (in its own process group) down with it, so it does not
// run on into the next benchmark.
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (current) {
      try {
        process.kill(-current.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    console.log(`VkFFT ${kind}: stopped by ${sig} after ${elapsed().toFixed(0)} s`);
    process.exit(130);
  });
}

// 1. The suite's binary: the kit's prebuilt one, unpacked in seconds (building from source takes minutes).
const bin = join(kit, 'vkfft_bench_vk');
if (!existsSync(bin)) {
  const b = spawnSync('bash', [join(kit, 'build.sh'), '--prebuilt'], { encoding: 'utf8', timeout: 120_000 });
  process.stdout.write(b.stdout ?? '');
  process.stderr.write(b.stderr ?? '');
}
if (!existsSync(bin)) {
  out.record({ lib: LIB, version: VERSION, kind, error: `no ${bin} (build.sh --prebuilt failed)` });
  console.log(`VkFFT ${kind}: no ${bin}; build.sh --prebuilt failed`);
  process.exit(1);
}

// 2. The device: the suite's -devices list (the user benchmark does not print the device's name).
const listing = await runKit(['-devices'], {}, 60);
const devices = [...listing.text.matchAll(/^Device id: (\d+) name: (.*?) API:(\S+)/gm)].map((m) => ({
  id: Number(m[1]),
  name: m[2]!.trim(),
  api: m[3]!,
}));
if (devices.length === 0) {
  const why = listing.rc !== null ? exitText(listing.rc) : 'no output';
  out.record({ lib: LIB, version: VERSION, kind, error: `no Vulkan device listed: ${why}` });
  console.log(listing.text.trim());
  console.log(`VkFFT ${kind}: no Vulkan device (${why})`);
  process.exit(1);
}
const software = (name: string) => /llvmpipe|lavapipe|swiftshader|software/i.test(name);
const dev =
  args.dev !== undefined
    ? Number(args.dev)
    : process.env.DEV !== undefined
      ? Number(process.env.DEV)
      : (devices.find((d) => !software(d.name)) ?? devices[0]!).id;
const chosen = devices.find((d) => d.id === dev);
const nvidiaSmi = () =>
  spawnSync('nvidia-smi', ['--query-gpu=name', '--format=csv,noheader'], { encoding: 'utf8' })
    .stdout?.split('\n')[0]
    ?.trim();
const device = chosen?.name || nvidiaSmi() || 'unknown';
console.log(
  `# VkFFT ${VERSION} ${kind.toUpperCase()} — ${device} (Vulkan device ${dev}, API ${chosen?.api ?? '?'}) — ${new Date().toISOString()}`,
);
console.log(
  `# total 2^${totalLog2} elements, in place, fp32; ${iters} forward+inverse pairs per submission, mean of 3 runs ` +
    `after a 3-run warm-up; ms = half a pair`,
);

// 3. One suite process per size.
const cacheName = (n: number, batch: number) =>
  `VkFFT_binary_X${n}_Y1_Z1_P0_B${batch}_N${iters}_R2C${kind === 'r2c' ? 1 : 0}_DCT0_`;
const LINE =
  /VkFFT System: (\d+)x(\d+)x(\d+) Batch: (\d+) Buffer: (\d+) MB avg_time_per_step: ([\d.]+) ms std_error: ([\d.]+) num_iter: (\d+)/g;
const rows: Record<string, unknown>[] = [];
// The longest a timed size took so far (wall clock: the suite's process, its host buffer filled with rand(),
// six plans and uploads, and the GPU work), to decide whether one more fits the budget.
let slowest = 0;
for (const l of spreadOrder(sizes)) {
  const n = 2 ** l;
  const batch = 2 ** (totalLog2 - l);
  const base = { lib: LIB, version: VERSION, device, kind, log2N: l, N: n, batch };
  // Start a size only while the budget still holds one more of the slowest timed so far; a size that hangs
  // stops at most 15 s past the budget, so the caller's outer time limit can sit just above it.
  if (budgetS > 0 && elapsed() + Math.max(slowest, 1) > budgetS) {
    rows.push({ ...base, error: `not run: the ${budgetS} s budget ran out` });
    out.record(rows[rows.length - 1]!);
    continue;
  }
  const t0 = elapsed();
  const kitArgs = ['-benchmark_vkfft', '-X', String(n), '-B', String(batch), '-N', String(iters)];
  if (kind === 'r2c') kitArgs.push('-R2C', '1');
  const limit = () => (budgetS > 0 ? Math.min(perSizeS, Math.max(5, budgetS + 15 - elapsed())) : perSizeS);
  let lim = limit();
  let r = await runKit(save ? [...kitArgs, '-save'] : kitArgs, { DEV: String(dev) }, lim);
  // A failure other than a timeout with the kernel cache on: once more compiling every plan.
  if (save && !r.timedOut && r.rc !== 0 && (budgetS <= 0 || 2 * elapsed() - t0 <= budgetS)) {
    lim = limit();
    r = await runKit(kitArgs, { DEV: String(dev) }, lim);
  }
  for (const f of readdirSync(kit)) if (f.startsWith(cacheName(n, batch))) unlinkSync(join(kit, f));
  const took = elapsed() - t0;
  const m = [...r.text.matchAll(LINE)].pop();
  let row: Record<string, unknown>;
  if (r.timedOut || r.rc !== 0 || !m || Number(m[1]) !== n || Number(m[4]) !== batch) {
    const tail = r.text
      .split('\n')
      .filter((s) => s.trim() && !s.startsWith('===') && !s.startsWith('Vulkan ICD') && !s.startsWith('  {'))
      .slice(-2)
      .join(' | ');
    const why = r.timedOut
      ? `timed out after ${lim.toFixed(0)} s`
      : r.rc !== null && r.rc !== 0
        ? exitText(r.rc)
        : 'no timing line';
    row = { ...base, error: why + (tail ? `: ${tail.slice(0, 300)}` : ''), seconds: +took.toFixed(1) };
  } else {
    // The printed time is one forward + one inverse transform of the whole batch (C2C + C2C, or R2C + C2R),
    // so ONE transform is taken as half of it: the mean of the two directions, which it times only together.
    slowest = Math.max(slowest, took);
    const stepMs = Number(m[6]);
    const ms = stepMs / 2;
    const flops = (kind === 'c2c' ? 5 : 2.5) * n * l * batch;
    const bytes = kind === 'c2c' ? 16 * n * batch : (4 * n + 8 * (n / 2 + 1)) * batch;
    row = {
      ...base,
      ms,
      GFLOPS: flops / ms / 1e6,
      GBps: bytes / ms / 1e6,
      stepMs,
      stdErrorMs: Number(m[7]),
      iters,
      note: NOTE,
      seconds: +took.toFixed(1),
    };
  }
  rows.push(row);
  out.record(row);
  console.log(
    `2^${l}: ${row.error ? `error: ${row.error}` : `${(row.ms as number).toFixed(3)} ms`} (${took.toFixed(1)} s)`,
  );
}

// Rows in size order (they were written as measured, so a killed run keeps what it had).
rows.sort((a, b) => (a.log2N as number) - (b.log2N as number));
if (args.json) writeFileSync(args.json, rows.map((r) => JSON.stringify(r) + '\n').join(''));
const ok = rows.filter((r) => r.ms !== undefined);
console.log(
  table(
    ['N', 'batch', 'ms', 'GFLOPS', 'GB/s', 'pair ms', '±'],
    rows.map((r) =>
      r.ms === undefined
        ? [String(r.N), String(r.batch), '—', '—', '—', '—', String(r.error).slice(0, 40)]
        : [
            String(r.N),
            String(r.batch),
            r.ms as number,
            r.GFLOPS as number,
            r.GBps as number,
            r.stepMs as number,
            r.stdErrorMs as number,
          ],
    ),
  ),
);
const largest = ok[ok.length - 1];
console.log(
  `VkFFT ${kind}: ${ok.length}/${rows.length} sizes timed on ${device} in ${elapsed().toFixed(0)} s` +
    (largest ? `; 2^${largest.log2N}: ${(largest.ms as number).toFixed(3)} ms a transform` : '') +
    (ok.length < rows.length ? `; ${rows.length - ok.length} without a time (see the JSON's error fields)` : ''),
);
