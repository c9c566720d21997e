"""Batched float64 tridiagonal solves in numpy/scipy, the anchors of bench/tridiagonal-cpu.ts.

Same cases and the same diagonally dominant random systems as the TypeScript benchmark. Prints Mrows/s
(rows * batch / CPU time of the process, best of the repetitions; CPU time stays meaningful
when other processes share the cores) for
  - numpy-thomas: the Thomas algorithm vectorised across the batch (one numpy operation per row over all
    systems), on the layout where that is natural (row-major [n][batch], i.e. interleaved), and
  - solve_banded: scipy.linalg.solve_banded((1, 1), ...) called once per system (LAPACK gbsv, pivoting).

  python3 bench/tridiagonal_numpy.py [--reps 5] [--json]
"""
import argparse
import json
import time

import numpy as np
from scipy.linalg import solve_banded

CASES = [(1024, 1024), (64, 16384), (16384, 8), (16, 65536), (256, 4096)]


def systems(n, batch, seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (batch, n))
    c = rng.uniform(-1, 1, (batch, n))
    mag = np.abs(a) + np.abs(c) + 0.5 + rng.uniform(0, 1, (batch, n))
    b = np.where(rng.uniform(0, 1, (batch, n)) < 0.5, -mag, mag)
    d = rng.uniform(-1, 1, (batch, n))
    return a, b, c, d


def thomas_vectorised(a, b, c, d):
    """a, b, c, d: [n][batch] (row i of every system contiguous). Returns x, same shape."""
    n = a.shape[0]
    cp = np.empty_like(a)
    dp = np.empty_like(a)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        den = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / den
        dp[i] = (d[i] - a[i] * dp[i - 1]) / den
    x = dp
    for i in range(n - 2, -1, -1):
        x[i] -= cp[i] * x[i + 1]
    return x


def banded_per_system(a, b, c, d):
    """a, b, c, d: [batch][n]. Returns x [batch][n]."""
    batch, n = a.shape
    x = np.empty_like(d)
    ab = np.empty((3, n))
    for j in range(batch):
        ab[0, 1:] = c[j, :-1]
        ab[0, 0] = 0
        ab[1] = b[j]
        ab[2, :-1] = a[j, 1:]
        ab[2, -1] = 0
        x[j] = solve_banded((1, 1), ab, d[j], overwrite_ab=False, overwrite_b=False, check_finite=False)
    return x


def best(fn, reps, budget=3.0):
    # numpy and LAPACK run single-threaded at these sizes, so CPU time is the solve's time.
    times = []
    t_end = time.perf_counter() + budget
    for _ in range(reps):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
        if time.perf_counter() > t_end and len(times) >= 2:
            break
    return min(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--json', action='store_true')
    args = ap.parse_args()
    for n, batch in CASES:
        a, b, c, d = systems(n, batch, n + batch)
        # Reference check (float64): both methods must solve the systems.
        at, bt, ct, dt = (np.ascontiguousarray(v.T) for v in (a, b, c, d))
        t_np, x_np = best(lambda: thomas_vectorised(at, bt, ct, dt.copy()), args.reps)
        t_sb, x_sb = best(lambda: banded_per_system(a, b, c, d), args.reps)
        err = np.max(np.abs(x_np.T - x_sb)) / np.max(np.abs(x_sb))
        assert err < 1e-12, f'numpy Thomas and solve_banded disagree: {err}'
        rows = n * batch
        r = {'n': n, 'batch': batch, 'numpy_thomas_mrows': rows / t_np / 1e6, 'solve_banded_mrows': rows / t_sb / 1e6}
        if args.json:
            print(json.dumps(r))
        else:
            print(f"n {n:6d} x batch {batch:6d}: numpy-thomas {r['numpy_thomas_mrows']:8.1f} Mrows/s   "
                  f"solve_banded per system {r['solve_banded_mrows']:8.1f} Mrows/s")


if __name__ == '__main__':
    main()
