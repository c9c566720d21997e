#!/usr/bin/env bash
# The DCT-II and DHT tables of BENCHMARKS.md, every N from 4 to 2^27, with the benches' longer warm-up
# (sweep45): ours, the kernels of commit 9204918 (.gpu/bench-fft-old.mjs) and cuFFT R2C + CuPy kernels in one
# run. Side sweep: the stage radices of the single-workgroup C2C 4096 and 8192 (option --radices), two
# alternating rounds. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/cufft_extra.py.
# Writes $OUT/final34.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final34.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
echo "== warm"
for k in dct2 dht; do T 60 $B --kind $k --sizes 12-17 --json $R/$k-1.jsonl 2>&1 | q | s; done
echo "== tables"
for k in dct2 dht; do
  echo "$k new: $(T 200 $B --kind $k --sizes 2-27 --json $R/$k-2.jsonl 2>&1 | q | s)"
  echo "$k old: $(T 200 $H --kind $k --sizes 2-27 --label old --json $R/$k-old.jsonl 2>&1 | q | s)"
done
T 200 python3 .gpu/cufft_extra.py --total 27 --r2r 2-27 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo "== radices of the single-workgroup C2C 4096 and 8192"
for i in 1 2; do
  for r in 16.16.16 32.16.8 8.16.32 32.32.4 8.8.8.8 16.16.4.4; do
    echo "4096 $r $i: $(T 30 $B --kind c2c --n 4096 --radices $r --label r$r --json $R/rad-4096-$r-$i.jsonl 2>&1 | q | s)"
  done
  for r in 32.16.16 16.16.32 32.32.8 8.32.32 16.16.16.2 16.8.8.8 64.16.8; do
    echo "8192 $r $i: $(T 30 $B --kind c2c --n 8192 --radices $r --label r$r --json $R/rad-8192-$r-$i.jsonl 2>&1 | q | s)"
  done
done
echo done
