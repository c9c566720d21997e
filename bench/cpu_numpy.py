"""numpy / scipy anchors for bench/cpu.ts (run by it as a child process; usable alone for debugging).

  python3 bench/cpu_numpy.py SPEC.json     # prints one JSON object on stdout

SPEC.json (written by bench/cpu.ts):
  {"reps": 7, "min_rep_s": 0.05, "budget_s": 4, "cases": [
     {"id": "c2c-1024", "family": "c2c" | "r2c" | "dct2" | "dst2" | "dct4" | "c2c2d" | "tri", "n": 1024, "batch": 1024,
      "rows": 1024,                       # c2c2d only: rows x n
      "check_in": "/tmp/x.npy", "check_out": "/tmp/dir/c2c-1024"}]}   # optional accuracy check

Columns per case (seconds per call: best and median of the repetitions):
  numpy64      numpy.fft in complex128 / float64 (c2c, r2c, 2-D); scipy.fft.dct / dst float64, workers=1 (dct2, dst2, dct4)
  scipy32_w1   scipy.fft in complex64 / float32, workers=1
  scipy32_all  the same with workers=-1 (all cores)
  numpy_thomas, solve_banded (tri): bench/tridiagonal_numpy.py's vectorised Thomas and per-system LAPACK.
For the accuracy check the case's first transform (read from check_in, float64) is transformed by each column
in its own precision and written to check_out + "-<column>.npy" as float64 (complex as a trailing axis of 2, DCT real);
bench/cpu.ts compares it with its float64 reference, so a mis-wired call cannot report fast-but-wrong numbers.
"""
import json
import os
import platform
import sys
import time

import numpy as np
import scipy
import scipy.fft as sfft

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(fn, reps, min_rep_s, budget_s):
    """Best and median seconds per call: warm-up, an inner loop long enough for the clock, `reps` rounds."""
    fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    inner = max(1, int(np.ceil(min_rep_s / one)))
    times = []
    end = time.perf_counter() + budget_s
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
        if time.perf_counter() > end and len(times) >= 2:
            break
    return {'best_s': min(times), 'median_s': float(np.median(times)), 'reps': len(times), 'inner': inner}


def as_complex(a):
    return a[..., 0] + 1j * a[..., 1]


def save_complex(path, z):
    np.save(path, np.stack([z.real, z.imag], axis=-1).astype(np.float64))


# The real-to-real families: scipy.fft function and type.
R2R = {'dct2': (sfft.dct, 2), 'dst2': (sfft.dst, 2), 'dct4': (sfft.dct, 4)}


def fft_columns(case, rng):
    fam, n, batch = case['family'], case['n'], case['batch']
    if fam == 'c2c':
        x64 = (rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n))).astype(np.complex128)
        x32 = x64.astype(np.complex64)
        return {
            'numpy64': (lambda: np.fft.fft(x64), lambda v: np.fft.fft(v.astype(np.complex128))),
            'scipy32_w1': (lambda: sfft.fft(x32, workers=1), lambda v: sfft.fft(v.astype(np.complex64), workers=1)),
            'scipy32_all': (lambda: sfft.fft(x32, workers=-1), lambda v: sfft.fft(v.astype(np.complex64), workers=-1)),
        }
    if fam == 'r2c':
        x64 = rng.standard_normal((batch, n))
        x32 = x64.astype(np.float32)
        return {
            'numpy64': (lambda: np.fft.rfft(x64), lambda v: np.fft.rfft(v.astype(np.float64))),
            'scipy32_w1': (lambda: sfft.rfft(x32, workers=1), lambda v: sfft.rfft(v.astype(np.float32), workers=1)),
            'scipy32_all': (lambda: sfft.rfft(x32, workers=-1), lambda v: sfft.rfft(v.astype(np.float32), workers=-1)),
        }
    if fam in R2R:
        f, t = R2R[fam]
        x64 = rng.standard_normal((batch, n))
        x32 = x64.astype(np.float32)
        return {
            'numpy64': (lambda: f(x64, type=t, workers=1),
                        lambda v: f(v.astype(np.float64), type=t, workers=1)),
            'scipy32_w1': (lambda: f(x32, type=t, workers=1),
                           lambda v: f(v.astype(np.float32), type=t, workers=1)),
            'scipy32_all': (lambda: f(x32, type=t, workers=-1),
                            lambda v: f(v.astype(np.float32), type=t, workers=-1)),
        }
    if fam == 'c2c2d':
        rows = case['rows']
        x64 = (rng.standard_normal((batch, rows, n)) + 1j * rng.standard_normal((batch, rows, n))).astype(np.complex128)
        x32 = x64.astype(np.complex64)
        return {
            'numpy64': (lambda: np.fft.fft2(x64), lambda v: np.fft.fft2(v.astype(np.complex128))),
            'scipy32_w1': (lambda: sfft.fft2(x32, workers=1), lambda v: sfft.fft2(v.astype(np.complex64), workers=1)),
            'scipy32_all': (lambda: sfft.fft2(x32, workers=-1), lambda v: sfft.fft2(v.astype(np.complex64), workers=-1)),
        }
    raise ValueError(f'unknown family {fam}')


def run_fft_case(case, spec, rng):
    cols = fft_columns(case, rng)
    out = {'id': case['id'], 'cols': {}, 'checks': {}}
    check_in = case.get('check_in')
    if check_in:
        v = np.load(check_in)
        if case['family'] in ('c2c', 'c2c2d'):
            v = as_complex(v)
        for name, (_, once) in cols.items():
            path = f"{case['check_out']}-{name}.npy"
            y = np.asarray(once(v))
            if np.iscomplexobj(y):
                save_complex(path, y.astype(np.complex128))
            else:
                np.save(path, y.astype(np.float64))
            out['checks'][name] = path
    for name, (fn, _) in cols.items():
        out['cols'][name] = timed(fn, spec['reps'], spec['min_rep_s'], spec['budget_s'])
    return out


def run_tri_case(case, spec):
    # The cases, systems and both anchors are bench/tridiagonal_numpy.py's, so the two benchmarks agree.
    sys.path.insert(0, HERE)
    import tridiagonal_numpy as tn
    n, batch = case['n'], case['batch']
    a, b, c, d = tn.systems(n, batch, n + batch)
    at, bt, ct, dt = (np.ascontiguousarray(v.T) for v in (a, b, c, d))
    out = {'id': case['id'], 'cols': {}, 'residual': {}}

    def residual(x):
        # x: [batch][n]; max |A x - d| / max |d| (a_0 and c_{n-1} are outside the matrix).
        ax = b * x
        ax[:, 1:] += a[:, 1:] * x[:, :-1]
        ax[:, :-1] += c[:, :-1] * x[:, 1:]
        return float(np.max(np.abs(ax - d)) / np.max(np.abs(d)))

    out['residual']['numpy_thomas'] = residual(tn.thomas_vectorised(at, bt, ct, dt.copy()).T)
    out['residual']['solve_banded'] = residual(tn.banded_per_system(a, b, c, d))
    out['cols']['numpy_thomas'] = timed(lambda: tn.thomas_vectorised(at, bt, ct, dt.copy()), spec['reps'],
                                        spec['min_rep_s'], spec['budget_s'])
    out['cols']['solve_banded'] = timed(lambda: tn.banded_per_system(a, b, c, d), spec['reps'],
                                        spec['min_rep_s'], spec['budget_s'])
    return out


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    rng = np.random.default_rng(12345)
    results = []
    for case in spec['cases']:
        try:
            r = run_tri_case(case, spec) if case['family'] == 'tri' else run_fft_case(case, spec, rng)
        except Exception as e:  # one failing case must not lose the others' numbers
            r = {'id': case['id'], 'error': f'{type(e).__name__}: {e}'}
        results.append(r)
        print(f"  python {case['id']} done", file=sys.stderr, flush=True)
    print(json.dumps({
        'python': platform.python_version(), 'numpy': np.__version__, 'scipy': scipy.__version__,
        'cpu_count': os.cpu_count(), 'results': results,
    }))


if __name__ == '__main__':
    main()
