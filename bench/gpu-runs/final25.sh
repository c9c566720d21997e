#!/usr/bin/env bash
# The run behind BENCHMARKS.md's EDM, 2-D convolution and sparse FFT tables (bench/results/
# 2026-11-22-h200-final25), with the FFT kernels of final24 (split exchanges), the anchors (CuPy / cuFFT)
# in the same run: the commands of final7.sh for these benches. Needs .gpu/bench-edm.mjs,
# .gpu/bench-convolve.mjs, .gpu/bench-sfft.mjs, .gpu/edm_cupy.py, .gpu/sfft_cufft.py. Writes $OUT/final25.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final25.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
echo "== edm / convolution"
T 120 node .gpu/bench-edm.mjs --check some --json $R/edm.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -18
T 150 python3 .gpu/edm_cupy.py > $R/cupy.jsonl 2>$R/cupy.err; tail -2 $R/cupy.err
T 90 node .gpu/bench-convolve.mjs --json $R/conv.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -6
echo "== sfft"
T 120 node .gpu/bench-sfft.mjs --sizes 18-27 --k 1000 --ks 1000,2000,5000,10000 --snr 20 --reps 10 --json $R/sfft.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -45
T 40 python3 .gpu/sfft_cufft.py --sizes 18-27 --reps 50 > $R/sfft-cufft.jsonl
echo done
