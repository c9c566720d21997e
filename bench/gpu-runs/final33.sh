#!/usr/bin/env bash
# final32 again with the benches' longer warm-up (at least 300 ms of GPU time before timing, sweep45), the
# kernels of commit 9204918 (.gpu/bench-fft-old.mjs, built from that commit with the same bench/common.ts
# warm-up) and cuFFT in one run: BENCHMARKS.md's C2C and R2C power-of-two tables; then R2C 2^26 planned four
# times a process, in three fresh processes (final32: 1.26–3.77 ms with the old warm-up).
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/anchor_cufft.py. Writes $OUT/final33.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final33.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
echo "== warm"
for k in c2c r2c; do T 60 $B --kind $k --sizes 12-17 --json $R/$k-1.jsonl 2>&1 | q | s; done
echo "== tables"
echo "c2c new: $(T 150 $B --kind c2c --sizes 1-27 --json $R/c2c-2.jsonl 2>&1 | q | s)"
echo "r2c new: $(T 150 $B --kind r2c --sizes 2-27 --json $R/r2c-2.jsonl 2>&1 | q | s)"
echo "c2c old: $(T 150 $H --kind c2c --sizes 1-27 --label old --json $R/c2c-old.jsonl 2>&1 | q | s)"
echo "r2c old: $(T 150 $H --kind r2c --sizes 2-27 --label old --json $R/r2c-old.jsonl 2>&1 | q | s)"
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
echo "== one size planned four times a process"
for i in 1 2 3; do
  echo "r2c 2^26 $i: $(T 60 $B --kind r2c --n 67108864,67108864,67108864,67108864 --label rep --json $R/rep-r2c-$i.jsonl 2>&1 | q | s)"
done
echo done
