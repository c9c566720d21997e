#!/usr/bin/env bash
# Longer passes with the first pass at 4 columns: --maxPass 512 and 1024 against the default 256, C2C
# 2^17 … 2^21 and R2C 2^18 … 2^22, per-pass breakdown. Writes $OUT/sweep20.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep20.tgz" -C "$R" .' EXIT
for v in default p512 p1024; do
  x=""; case $v in p512) x="--maxPass 512";; p1024) x="--maxPass 1024";; esac
  for k in c2c r2c; do
    s=17-21; [ $k = r2c ] && s=18-22
    echo "== $k $v"
    timeout 90 node .gpu/bench-fft.mjs --kind $k --sizes $s --breakdown --label $v $x --json $R/$k-$v.jsonl 2>&1 | grep -e '^  [0-9]' | sed -e 's/-forward//g' | awk '{ if ($0 ~ /\|/) print $1, $(NF-4); else print }'
  done
done
