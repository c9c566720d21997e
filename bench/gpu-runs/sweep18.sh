#!/usr/bin/env bash
# Columns per workgroup of the first multi-pass kernel (Ns = 1): 4 columns took the 256-point first pass
# from 0.83 to 0.665 ms (sweep17, where --minCols 4 also slowed the later passes). firstPassColumns 4 and 2
# against the default 8, C2C 2^14 … 2^24 and R2C 2^15 … 2^24, per-pass breakdown. Writes $OUT/sweep18.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep18.tgz" -C "$R" .' EXIT
for pass in 1 2; do
  for v in default f4 f2; do
    x=""; case $v in f4) x="--firstCols 4";; f2) x="--firstCols 2";; esac
    for k in c2c r2c; do
      s=14-24; [ $k = r2c ] && s=15-24
      echo "== $k $v $pass"
      timeout 90 node .gpu/bench-fft.mjs --kind $k --sizes $s --breakdown --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | grep -e '^  [0-9]' | grep -v '|' | sed -e 's/-forward//g'
    done
  done
done
