"""scipy anchors for bench/cpu-calls.ts (run by it as a child process).

  python3 bench/cpu_calls.py '{"rounds": 9, "cases": [{"id": ..., "shape": [...], "kernel": [...], "py": "sf.dctn(x, workers=1)"}]}'

Each case's expression is timed in float32 and float64 (x, k: seeded uniform arrays in [-0.5, 0.5); xc: x's last
axis of 2 as complex64 / complex128, built before the timing), best of `rounds`
calls after one warm-up; prints {"times": {"<id>/<f32|f64>": ms}, "versions": "..."} on stdout.
"""
import json
import sys
import time

import numpy as np
import scipy
import scipy.fft as sf
import scipy.signal as ss


def main():
    spec = json.loads(sys.argv[1])
    rng = np.random.default_rng(1)
    times = {}
    for c in spec["cases"]:
        for name, dtype in (("f32", np.float32), ("f64", np.float64)):
            x = (rng.random(c["shape"]) - 0.5).astype(dtype)
            k = (rng.random(c["kernel"]) - 0.5).astype(dtype) if c.get("kernel") else None
            # xc: complex views of (…, 2) real pairs, built outside the timing.
            xc = x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else None
            env = {"x": x, "xc": xc, "k": k, "np": np, "sf": sf, "ss": ss}
            eval(c["py"], env)
            best = float("inf")
            for _ in range(spec["rounds"]):
                t = time.perf_counter()
                eval(c["py"], env)
                best = min(best, time.perf_counter() - t)
            times[f'{c["id"]}/{name}'] = best * 1e3
    print(json.dumps({"times": times, "versions": f"numpy {np.__version__}, scipy {scipy.__version__}"}))


main()
