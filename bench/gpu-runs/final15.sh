#!/usr/bin/env bash
# The run behind bench/results/2026-11-22-h200-final15: shallow water (issue #8) with the session's
# kernels and the previous ones (.gpu/bench-swe-old.mjs: commit edc4c56's codegen with this bench); R2C
# (issue #3) and DCT-II / DHT (issue #4) with one real-twiddle table read per invocation against the
# previous kernels (.gpu/bench-fft-head.mjs: commit ee3e2a2), with cuFFT R2C and cuFFT R2C + CuPy post
# kernels in the same run; a tridiagonal rows-per-invocation check at strided N = 2^10 … 2^13.
# Bundles: bench/{fft,shallow-water,tridiagonal}.ts as .gpu/bench-{fft,swe,tridiagonal}.mjs (esbuild, see
# README.md here), anchor_cufft.py and bench/cufft_extra.py copied to .gpu/.
set -u
: "${OUT:?set OUT to the output folder}"
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
echo "== swe"
T 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-size 1000 --cpu-steps 3 --compare 400 --out $OUT/swe.jsonl 2>&1 | q | tail -12
T 90 node .gpu/bench-swe-old.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $OUT/swe-old.jsonl 2>&1 | q | tail -6
echo "== fft"
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-head.mjs"
s() { awk '{print $1, $(NF-4), $(NF-1)}'; }
T 150 $B --kind r2c --sizes 2-27 --json $OUT/r2c.jsonl 2>&1 | q | s
T 60 $H --kind r2c --sizes 2-16 --label head --json $OUT/r2c-head.jsonl 2>&1 | q | s
T 60 $B --kind dct2 --sizes 2-20 --json $OUT/dct2.jsonl 2>&1 | q | s
T 60 $H --kind dct2 --sizes 2-20 --label head --json $OUT/dct2-head.jsonl 2>&1 | q | s
T 60 $B --kind dht --sizes 2-20 --json $OUT/dht.jsonl 2>&1 | q | s
T 60 $H --kind dht --sizes 2-20 --label head --json $OUT/dht-head.jsonl 2>&1 | q | s
T 60 $B --kind r2c --sizes 2-16 --label again --json $OUT/r2c-again.jsonl 2>&1 | q | s
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $OUT/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $OUT/cufft-extra.jsonl 2>$OUT/cufft-extra.err; tail -2 $OUT/cufft-extra.err
echo "== tridiagonal rows per invocation"
for r in 4 8 16; do
  T 60 node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 10-13 --rows-per-thread $r --label t$r --out $OUT/tri-t$r.jsonl 2>&1 | q | tail -5
done
echo done
