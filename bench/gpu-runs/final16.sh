#!/usr/bin/env bash
# The run behind bench/results/2026-11-22-h200-final16 (BENCHMARKS.md's R2C, DCT-II / DHT and shallow-water
# tables): R2C 2^2 … 2^27, DCT-II and DHT 2^2 … 2^20 with cuFFT R2C and cuFFT R2C + CuPy post-processing
# kernels in the same run; the previous FFT kernels (.gpu/bench-fft-head.mjs, commit ee3e2a2) beside them;
# shallow water with the previous kernels (.gpu/bench-swe-old.mjs, commit edc4c56's codegen).
# Every FFT kind runs twice and the tables use the second process: in final15 the first process of a
# kind read up to 1.5× slow at some sizes while later processes agreed within a few percent (sweep12).
# Bundles as in README.md here; anchor_cufft.py and bench/cufft_extra.py copied to .gpu/.
# Writes everything into $OUT/final16.tgz (the device returns at most 8 files).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4), $(NF-1)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-head.mjs"
for pass in 1 2; do
  echo "== fft pass $pass"
  T 150 $B --kind r2c --sizes 2-27 --json $R/r2c-$pass.jsonl 2>&1 | q | s
  T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2-$pass.jsonl 2>&1 | q | s
  T 60 $B --kind dht --sizes 2-20 --json $R/dht-$pass.jsonl 2>&1 | q | s
  T 150 $H --kind r2c --sizes 2-27 --label head --json $R/r2c-head-$pass.jsonl 2>&1 | q | s
done
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo "== swe"
T 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-size 1000 --cpu-steps 3 --compare 400 --out $R/swe.jsonl 2>&1 | q | tail -8
T 90 node .gpu/bench-swe-old.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-old.jsonl 2>&1 | q | tail -5
T 90 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-again.jsonl 2>&1 | q | tail -5
tar czf $OUT/final16.tgz -C $R .
echo done
