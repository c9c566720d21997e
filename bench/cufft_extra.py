"""cuFFT anchors beyond the kit's power-of-two script, measured in the same run as ours (CuPy, data on the
GPU, out of place, CUDA events, median of repetitions). One JSON line per case.
  python3 bench/cufft_extra.py --total 27 --c2c 1000,59049,78125,1009 --shape2d 1024x1024,4096x4096
                               --r2r 2-20 [--warm-ms 300]
  python3 bench/cufft_extra.py --accuracy 1024,8192,1000 --save DIR
--accuracy: cuFFT C2C of one seeded complex64 input per N, relative L2 error against numpy's complex128 FFT
of the same input; --save writes each input as DIR/x-N.npy (float32 pairs) for bench/fft.ts --accuracy.
--r2r times the pipelines our fused DCT-II / DHT replace: (DCT-II) a gather kernel for Makhoul's
permutation, cuFFT R2C, and a post-processing kernel doing y_k = 2·Re(e^{-iπk/2N}·V_k) and y_{N-k};
(DHT) cuFFT R2C and a kernel doing h_k = Re V_k − Im V_k, h_{N-k} = Re V_k + Im V_k."""
import argparse, json, math, time
import cupy as cp
from cupy.cuda import cufft

WARM_S = 0.0

def bench(f, reps):
    # --warm-ms: run the case for at least that long before timing it (as bench/common.ts does for ours).
    t0 = time.perf_counter()
    f(); cp.cuda.Device().synchronize()
    while time.perf_counter() - t0 < WARM_S:
        f(); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event(); ts = []
    for _ in range(reps):
        s.record(); f(); e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
    ts.sort(); return ts[len(ts) // 2]

def rng(spec):
    out = []
    for part in spec.split(','):
        if '-' in part:
            a, b = part.split('-'); out += list(range(int(a), int(b) + 1))
        elif part: out.append(int(part))
    return out

ap = argparse.ArgumentParser()
ap.add_argument('--total', type=int, default=27)
ap.add_argument('--c2c', default='')
ap.add_argument('--shape2d', default='')
ap.add_argument('--r2r', default='')
ap.add_argument('--reps', type=int, default=20)
ap.add_argument('--warm-ms', type=float, default=0)
ap.add_argument('--accuracy', default='')
ap.add_argument('--save', default='')
a = ap.parse_args()

if a.accuracy:
    import numpy as np, os
    if a.save: os.makedirs(a.save, exist_ok=True)
    rs = np.random.default_rng(2026)
    dev = cp.cuda.runtime.getDeviceProperties(0)['name'].decode()
    for n in [int(v) for v in a.accuracy.split(',') if v]:
        xh = (rs.standard_normal(n) + 1j * rs.standard_normal(n)).astype(np.complex64)
        if a.save: np.save(f'{a.save}/x-{n}.npy', xh.view(np.float32))
        ref = np.fft.fft(xh.astype(np.complex128))
        got = cp.fft.fft(cp.asarray(xh)).get()
        err = float(np.linalg.norm(got - ref) / np.linalg.norm(ref))
        print(json.dumps({'lib': 'cuFFT', 'device': dev, 'kind': 'accuracy', 'N': n, 'relErr': err}), flush=True)
    raise SystemExit(0)
WARM_S = a.warm_ms / 1000
TOT = 1 << a.total
dev = cp.cuda.runtime.getDeviceProperties(0)['name'].decode()
x = (cp.random.standard_normal(TOT, dtype=cp.float32) + 1j * cp.random.standard_normal(TOT, dtype=cp.float32)).astype(cp.complex64)
y = cp.empty_like(x)

for n in [int(v) for v in a.c2c.split(',') if v]:
    b = TOT // n
    p = cufft.Plan1d(n, cufft.CUFFT_C2C, b)
    src, dst = x[:n * b], y[:n * b]
    t = bench(lambda: p.fft(src, dst, cufft.CUFFT_FORWARD), a.reps)
    print(json.dumps({'lib': 'cuFFT', 'device': dev, 'kind': 'c2c', 'N': n, 'batch': b, 'ms': t,
                      'GFLOPS': 5 * n * math.log2(n) * b / t / 1e6, 'GBps': 16 * n * b / t / 1e6}), flush=True)
    del p

for spec in [s for s in a.shape2d.split(',') if s]:
    r, c = [int(v) for v in spec.split('x')]
    b = max(1, TOT // (r * c))
    import cupyx.scipy.fft as cfft
    src = x[:r * c * b].reshape(b, r, c)
    p = cfft.get_fft_plan(src, axes=(1, 2), value_type='C2C')
    def run2():
        with p:
            cp.fft.fft2(src, axes=(1, 2))
    t = bench(run2, a.reps)
    print(json.dumps({'lib': 'cuFFT', 'device': dev, 'kind': 'c2c-2d', 'shape': spec, 'N': r * c, 'batch': b, 'ms': t,
                      'GFLOPS': 5 * r * c * math.log2(r * c) * b / t / 1e6, 'GBps': 16 * r * c * b / t / 1e6}), flush=True)
    del p

gather = cp.RawKernel(r'''
extern "C" __global__ void gather(const float* x, float* v, long long n, long long total) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  long long b = i / n, j = i % n;
  long long h = (n + 1) / 2;
  long long s = j < h ? 2 * j : 2 * (n - 1 - j) + 1;
  v[i] = x[b * n + s];
}''', 'gather')
dct_post = cp.RawKernel(r'''
extern "C" __global__ void post(const float2* V, float* y, long long n, long long batch) {
  long long h = n / 2 + 1;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h * batch) return;
  long long b = i / h, k = i % h;
  float2 v = V[b * h + k];
  float s, c;
  sincospif(-(float)k / (2.0f * (float)n), &s, &c);
  y[b * n + k] = 2.0f * (c * v.x - s * v.y);
  if (k > 0 && k < n - k) {
    float s2, c2;
    sincospif(-(float)(n - k) / (2.0f * (float)n), &s2, &c2);
    y[b * n + n - k] = 2.0f * (c2 * v.x + s2 * v.y);
  }
}''', 'post')
dht_post = cp.RawKernel(r'''
extern "C" __global__ void post(const float2* V, float* y, long long n, long long batch) {
  long long h = n / 2 + 1;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= h * batch) return;
  long long b = i / h, k = i % h;
  float2 v = V[b * h + k];
  y[b * n + k] = v.x - v.y;
  if (k > 0 && k < n - k) y[b * n + n - k] = v.x + v.y;
}''', 'post')

xr = x.view(cp.float32)[:TOT]
yr = y.view(cp.float32)[:TOT]
vbuf = cp.empty(TOT, cp.float32)
for l in rng(a.r2r):
    n = 1 << l; b = TOT // n; h = n // 2 + 1
    p = cufft.Plan1d(n, cufft.CUFFT_R2C, b)
    V = cp.empty((b, h), cp.complex64)
    T = 256
    def dct():
        gather((((TOT + T - 1) // T),), (T,), (xr, vbuf, cp.int64(n), cp.int64(TOT)))
        p.fft(vbuf, V, cufft.CUFFT_FORWARD)
        dct_post((((h * b + T - 1) // T),), (T,), (V, yr, cp.int64(n), cp.int64(b)))
    def dht():
        p.fft(xr, V, cufft.CUFFT_FORWARD)
        dht_post((((h * b + T - 1) // T),), (T,), (V, yr, cp.int64(n), cp.int64(b)))
    for kind, f in (('dct2', dct), ('dht', dht)):
        t = bench(f, a.reps)
        print(json.dumps({'lib': 'cuFFT+kernels', 'device': dev, 'kind': kind, 'log2N': l, 'N': n, 'batch': b, 'ms': t,
                          'GFLOPS': 2.5 * n * l * b / t / 1e6, 'GBps': 8 * n * b / t / 1e6}), flush=True)
    del p, V
