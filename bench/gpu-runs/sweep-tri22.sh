#!/usr/bin/env bash
# Strided tridiagonal N = 2^11 … 2^13 (the sizes short of 100k Mrows/s): the single-workgroup solve
# (default at 2048) against partitioning into chunks of 512 / 1024 rows (--max-rows), and the partition
# level's chunk (--partition-rows 256 / 512, default 128) at 4096 and 8192. Two passes. Writes $OUT/sweep-tri22.tgz.
# Result: the defaults stay best (2048: 76.4k single workgroup against 69.2k partitioned; 4096: 69.2k with
# 128-row chunks against 64.8k / 62.4k with 256 / 512).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep-tri22.tgz" -C "$R" .' EXIT
B="node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 11-13"
for pass in 1 2; do
  for v in default m1024 m512 p256 p512; do
    x=""; case $v in m1024) x="--max-rows 1024";; m512) x="--max-rows 512";; p256) x="--partition-rows 256";; p512) x="--partition-rows 512";; esac
    echo "== $v $pass"
    timeout 60 $B $x --label $v --out $R/$v-$pass.jsonl 2>&1 | grep '^strided' | awk '{print $3, $5, $6, $8}'
  done
done
