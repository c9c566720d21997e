#!/usr/bin/env bash
# The run behind BENCHMARKS.md's R2C, DCT-II and DHT tables (bench/results/2026-11-22-h200-final28), after
# the long radix-32 first pass of half-lengths 2^17 and 2^18 (sweep38); ours (each kind once before in a process of its own, then the table's pass), the
# kernels at the start of this work (.gpu/bench-fft-s0.mjs, commit 1565ad7), cuFFT C2C / R2C and cuFFT R2C +
# CuPy kernels, in one run; then fresh-process repeats of R2C 2^24 … 2^27. Needs .gpu/bench-fft.mjs,
# .gpu/bench-fft-s0.mjs, .gpu/anchor_cufft.py, .gpu/cufft_extra.py. Writes $OUT/final28.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final28.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-s0.mjs"
echo "== pass 1"
for k in r2c dct2 dht; do T 60 $B --kind $k --sizes 12-17 --json $R/$k-1.jsonl 2>&1 | q | s; done
echo "== pass 2"
T 150 $B --kind r2c --sizes 2-27 --json $R/r2c-2.jsonl 2>&1 | q | s
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2-2.jsonl 2>&1 | q | s
T 60 $B --kind dht --sizes 2-20 --json $R/dht-2.jsonl 2>&1 | q | s
echo "== previous kernels"
T 150 $H --kind r2c --sizes 2-27 --label old --json $R/r2c-old.jsonl 2>&1 | q | s
for k in dct2 dht; do T 60 $H --kind $k --sizes 2-20 --label old --json $R/$k-old.jsonl 2>&1 | q | s; done
echo "== anchors"
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 150 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo "== R2C 2^24 … 2^27 in three fresh processes each"
for i in 1 2 3; do
  for b in new old; do
    X=$B; [ $b = old ] && X=$H
    echo "$b $i: $(T 60 $X --kind r2c --sizes 24-27 --label $b --json $R/repeat-r2c-$b-$i.jsonl 2>&1 | q | s)"
  done
done
echo done
