"""cuFFT anchor for the sparse FFT benchmark (bench/sfft.ts): dense complex64 C2C forward transforms of
length n = 2^18 ... 2^27 (batch 1, data resident on the GPU, out of place) through CuPy's cuFFT plan,
timed with CUDA events: median of --reps after warm-up. One JSON line per size with the fields of
bench/sfft.ts's 'butterfly-dense' lines (lib, device, n, log2n, gpuMs), lib = 'cufft'. Join on n.

  python3 bench/sfft_cufft.py [--sizes 18-27] [--reps 50]
"""
import argparse, json
import cupy as cp
import cupyx.scipy.fft as cfft
import cupyx.scipy.fftpack as fftpack

ap = argparse.ArgumentParser()
ap.add_argument('--sizes', default='18-27')
ap.add_argument('--reps', type=int, default=50)
a = ap.parse_args()
lo, _, hi = a.sizes.partition('-')
sizes = range(int(lo), int(hi or lo) + 1)
dev = cp.cuda.runtime.getDeviceProperties(0)['name'].decode()

for l in sizes:
    n = 2 ** l
    rs = cp.random.default_rng(l)
    x = (rs.standard_normal(n, dtype=cp.float32) + 1j * rs.standard_normal(n, dtype=cp.float32)).astype(cp.complex64)
    plan = fftpack.get_fft_plan(x, value_type='C2C')
    f = lambda: cfft.fft(x, plan=plan)
    for _ in range(3):
        f()
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(a.reps):
        s.record(); f(); e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
    ts.sort()
    print(json.dumps({'lib': 'cufft', 'device': dev, 'n': n, 'log2n': l, 'gpuMs': ts[len(ts) // 2], 'reps': a.reps}), flush=True)
    del plan, x
    cp.get_default_memory_pool().free_all_blocks()
