#!/usr/bin/env bash
# The run behind BENCHMARKS.md's DCT-II table (bench/results/2026-11-22-h200-final18), after the DCT-II
# post-processing moved into the multi-pass last pass: ours (a warm-up process, then the table's), the
# previous kernels (.gpu/bench-fft-old.mjs, commit edc4c56) and cuFFT R2C + CuPy kernels in one run.
# Writes $OUT/final18.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final18.tgz" -C "$R" .' EXIT
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind dct2 --sizes 2-16 --json $R/dct2-1.jsonl 2>&1 | q
timeout 90 node .gpu/bench-fft.mjs --kind dct2 --sizes 2-20 --json $R/dct2-2.jsonl 2>&1 | q
timeout 90 node .gpu/bench-fft-old.mjs --kind dct2 --sizes 2-20 --label old --json $R/dct2-old.jsonl 2>&1 | q
timeout 120 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo done
