#!/usr/bin/env bash
# The run behind bench/results/2026-11-22-h200-final16 (BENCHMARKS.md's R2C, DCT-II / DHT and shallow-water
# tables): R2C 2^2 … 2^27, DCT-II and DHT 2^2 … 2^20 with cuFFT R2C and cuFFT R2C + CuPy post-processing
# kernels in the same run; the previous FFT kernels (.gpu/bench-fft-head.mjs, commit ee3e2a2) beside them;
# shallow water with the previous kernels (.gpu/bench-swe-old.mjs, commit edc4c56's codegen); small-N
# DCT-II / DHT planner variants (a single-invocation M = 32, wider workgroups).
# Every FFT kind runs twice and the tables use the second process: in final15 the first process of a
# kind read up to 1.5× slow at some sizes while later processes agreed within a few percent (sweep12).
# The T timeouts keep the whole run under 10 minutes; the tarball is written on exit either way.
# Bundles as in README.md here; anchor_cufft.py and bench/cufft_extra.py copied to .gpu/.
# Writes everything into $OUT/final16.tgz (the device returns at most 8 files).
set -u
trap 'tar czf "$OUT/final16.tgz" -C "$R" .' EXIT
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4), $(NF-1)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
# Pass 1 (2^2 … 2^16) warms each kind up in its own process; pass 2 is the full range the tables use.
echo "== fft pass 1"
for k in r2c dct2 dht; do T 60 $B --kind $k --sizes 2-16 --json $R/$k-1.jsonl 2>&1 | q | s; done
echo "== fft pass 2"
T 150 $B --kind r2c --sizes 2-27 --json $R/r2c-2.jsonl 2>&1 | q | s
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2-2.jsonl 2>&1 | q | s
T 60 $B --kind dht --sizes 2-20 --json $R/dht-2.jsonl 2>&1 | q | s
echo "== previous kernels"
for k in r2c dct2 dht; do T 60 $H --kind $k --sizes 2-16 --label old --json $R/$k-old.jsonl 2>&1 | q | s; done
echo "== small-N DCT-II / DHT planner variants"
for k in dct2 dht; do
  T 30 $B --kind $k --sizes 2-8 --maxSingle 32 --label maxSingle32 --json $R/$k-ms32.jsonl 2>&1 | q | s
  T 30 $B --kind $k --sizes 2-8 --wg 64 --label wg64 --json $R/$k-wg64.jsonl 2>&1 | q | s
  T 30 $B --kind $k --sizes 2-8 --wg 128 --label wg128 --json $R/$k-wg128.jsonl 2>&1 | q | s
done
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo "== swe"
T 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-size 1000 --cpu-steps 3 --compare 400 --out $R/swe.jsonl 2>&1 | q | tail -8
T 90 node .gpu/bench-swe-old.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-old.jsonl 2>&1 | q | tail -5
T 90 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-again.jsonl 2>&1 | q | tail -5
echo done
