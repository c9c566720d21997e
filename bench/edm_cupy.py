"""CuPy/cuFFT anchor for the EDM workload (seed 001) and for 2-D fftconvolve, on the lent GPU.

The EDM pipeline "the straightforward way": zero-pad all slices into a (slices, mfft, mfft) complex64
array, one batched 2-D cuFFT plan (cupyx.scipy.fftpack.get_fft_plan over axes (1, 2)) forward, multiply
by each slice's shape function (broadcast over components and angles), the same plan inverse
(normalised), crop to (slices, M, M). Timed with CUDA events, median of --reps after warm-up; data
resident on the GPU. Two variants per case:
  lib 'cupy'        eager CuPy calls (what a user writes; includes Python launch overhead),
  lib 'cupy-graph'  the same calls captured once into a CUDA graph and replayed (launch overhead removed).
Each line is JSON with the fields of bench/edm.ts (lib, case, angles, M, mfft, slices, ms, relL2, device);
relL2 is against a complex128 run of the same pipeline.
Then 'fftconvolve' lines: cupyx.scipy.signal.fftconvolve of a 4096×4096 image with a 63×63 kernel
(float32 real and complex64), modes full and same.

  python3 bench/edm_cupy.py [--cases 1-7] [--angles 1,7] [--reps 50] [--no-conv]
"""
import argparse, json
import numpy as np
import cupy as cp
import cupyx.scipy.fft as cfft
import cupyx.scipy.fftpack as fftpack
import cupyx.scipy.signal as csig

CASES = {1: (3, 16, 16), 2: (3, 16, 24), 3: (3, 16, 32), 4: (7, 32, 32), 5: (7, 32, 64), 6: (15, 64, 64), 7: (31, 128, 128)}


def rng_list(spec):
    out = []
    for part in spec.split(','):
        if '-' in part:
            a, b = part.split('-'); out += list(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def bench(f, reps):
    for _ in range(3):
        f()
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event(); ts = []
    for _ in range(reps):
        s.record(); f(); e.record(); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
    ts.sort(); return ts[len(ts) // 2]


def edm_pipeline(x, S, M, mfft, angles, shapes, plan):
    B = x.shape[0]
    pad = cp.zeros((B, mfft, mfft), x.dtype)
    pad[:, :M, :M] = x
    F = cfft.fft2(pad, axes=(1, 2), overwrite_x=True, plan=plan)
    F = (F.reshape(angles, shapes, 3, mfft, mfft) * S[None, :, None]).reshape(B, mfft, mfft)
    y = cfft.ifft2(F, axes=(1, 2), overwrite_x=True, plan=plan)
    return cp.ascontiguousarray(y[:, :M, :M])


def graph_of(f):
    """Captures f() into a CUDA graph on a non-default stream; returns a replay function, or None."""
    try:
        stream = cp.cuda.Stream(non_blocking=True)
        with stream:
            f()  # allocate pool blocks and plans outside the capture
            stream.synchronize()
            stream.begin_capture()
            f()
            graph = stream.end_capture()
        def run():
            graph.launch(stream)
        return run, stream
    except Exception as ex:  # capture unsupported by this CuPy/CUDA: report and skip the variant
        print(json.dumps({'lib': 'cupy-graph', 'error': repr(ex)}), flush=True)
        return None, None


ap = argparse.ArgumentParser()
ap.add_argument('--cases', default='1-7')
ap.add_argument('--angles', default='1,7')
ap.add_argument('--reps', type=int, default=50)
ap.add_argument('--no-conv', action='store_true')
a = ap.parse_args()
dev = cp.cuda.runtime.getDeviceProperties(0)['name'].decode()
rs = np.random.default_rng(1)

for cid in rng_list(a.cases):
    h, mfft, layers = CASES[cid]
    M = 2 * h + 1; shapes = layers + 1
    for angles in rng_list(a.angles):
        B = angles * shapes * 3
        x = cp.asarray((rs.standard_normal((B, M, M)) + 1j * rs.standard_normal((B, M, M))).astype(np.complex64))
        S = cp.asarray((rs.standard_normal((shapes, mfft, mfft)) + 1j * rs.standard_normal((shapes, mfft, mfft))).astype(np.complex64))
        plan = fftpack.get_fft_plan(cp.zeros((B, mfft, mfft), cp.complex64), axes=(1, 2), value_type='C2C')
        f = lambda: edm_pipeline(x, S, M, mfft, angles, shapes, plan)
        y = f()
        ref = edm_pipeline(x.astype(cp.complex128), S.astype(cp.complex128), M, mfft, angles, shapes, None)
        rel = float(cp.linalg.norm(y - ref) / cp.linalg.norm(ref))
        base = {'case': cid, 'angles': angles, 'M': M, 'mfft': mfft, 'slices': B, 'relL2': rel, 'device': dev}
        ms = bench(f, a.reps)
        print(json.dumps({'lib': 'cupy', **base, 'ms': ms}), flush=True)
        g, stream = graph_of(f)
        if g is not None:
            def timed():
                g()
            # events on the capture stream
            for _ in range(3): g()
            stream.synchronize()
            s, e = cp.cuda.Event(), cp.cuda.Event(); ts = []
            for _ in range(a.reps):
                s.record(stream); g(); e.record(stream); e.synchronize(); ts.append(cp.cuda.get_elapsed_time(s, e))
            ts.sort()
            print(json.dumps({'lib': 'cupy-graph', **base, 'ms': ts[len(ts) // 2]}), flush=True)
        del plan

if not a.no_conv:
    n, k = 4096, 63
    for dtype in ('float32', 'complex64'):
        img = rs.standard_normal((n, n)); ker = rs.standard_normal((k, k))
        if dtype == 'complex64':
            img = img + 1j * rs.standard_normal((n, n)); ker = ker + 1j * rs.standard_normal((k, k))
        A = cp.asarray(img.astype(dtype)); K = cp.asarray(ker.astype(dtype))
        for mode in ('full', 'same'):
            ms = bench(lambda: csig.fftconvolve(A, K, mode=mode), max(5, a.reps // 5))
            print(json.dumps({'lib': 'cupyx.scipy.signal.fftconvolve', 'kind': 'fftconvolve2d', 'dtype': dtype, 'mode': mode,
                              'shape': [n, n], 'kernel': [k, k], 'ms': ms, 'device': dev}), flush=True)
