#!/usr/bin/env bash
# Multi-pass R2C's fused last pass (post-processing on mirror column pairs) with 16 columns (default), 8
# and 4 a workgroup, with the first pass at 4 columns (1198451), R2C 2^15 … 2^24 and DCT-II / DHT 2^15 …
# 2^20, per-pass breakdown. Writes $OUT/sweep19.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep19.tgz" -C "$R" .' EXIT
for pass in 1 2; do
  for v in default l8 l4; do
    x=""; case $v in l8) x="--lastCols 8";; l4) x="--lastCols 4";; esac
    echo "== r2c $v $pass"
    timeout 90 node .gpu/bench-fft.mjs --kind r2c --sizes 15-24 --breakdown --label $v $x --json $R/r2c-$v-$pass.jsonl 2>&1 | grep -e '^  [0-9]' | grep -v '|' | sed -e 's/-forward//g'
    for k in dct2 dht; do
      echo "== $k $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes 15-20 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' ')"
    done
  done
done
