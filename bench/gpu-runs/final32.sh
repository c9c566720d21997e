#!/usr/bin/env bash
# The C2C and R2C power-of-two tables of BENCHMARKS.md after the long first pass that turns four passes into
# three (sweep44): ours (each kind once before in a process of its own, then the table's pass), the kernels of
# commit 9204918 (.gpu/bench-fft-old.mjs) and cuFFT in one run; the three-pass sizes checked against the
# float64 CPU FFT (--checkMax 27); then the same large size planned four times in one process, in fresh
# processes, to see whether the process-to-process variance at 2^26 … 2^27 follows the plan's buffers.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/anchor_cufft.py. Writes $OUT/final32.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final32.tgz" -C "$R" .' EXIT
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
echo "== checks against the float64 CPU FFT"
T 300 $B --kind c2c --sizes 25-27 --reps 2 --checkMax 27 --label check --json $R/check-c2c.jsonl 2>&1 | q | tail -4
T 300 $B --kind r2c --sizes 26-27 --reps 2 --checkMax 27 --label check --json $R/check-r2c.jsonl 2>&1 | q | tail -3
echo "== one size planned four times a process"
for i in 1 2 3; do
  echo "r2c 2^26 $i: $(T 60 $B --kind r2c --n 67108864,67108864,67108864,67108864 --label rep --json $R/rep-r2c-$i.jsonl 2>&1 | q | s)"
  echo "c2c 2^27 $i: $(T 60 $B --kind c2c --n 134217728,134217728,134217728,134217728 --label rep --json $R/rep-c2c-$i.jsonl 2>&1 | q | s)"
done
echo done
