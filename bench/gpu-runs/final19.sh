#!/usr/bin/env bash
# The run behind BENCHMARKS.md's DCT-II and DHT tables (bench/results/2026-11-22-h200-final19), after the
# staged R2C outputs (DHT / DCT-II N = 64): ours (a warm-up process, then the table's), the kernels at the
# start of that work (.gpu/bench-fft-s0.mjs, commit 1565ad7) and cuFFT R2C + CuPy kernels in one run.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-s0.mjs, .gpu/cufft_extra.py. Writes $OUT/final19.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final19.tgz" -C "$R" .' EXIT
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for k in dct2 dht; do
  timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes 2-16 --json $R/$k-1.jsonl 2>&1 | q
  timeout 90 node .gpu/bench-fft.mjs --kind $k --sizes 2-20 --json $R/$k-2.jsonl 2>&1 | q
  timeout 90 node .gpu/bench-fft-s0.mjs --kind $k --sizes 2-20 --label old --json $R/$k-old.jsonl 2>&1 | q
done
timeout 150 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo done
