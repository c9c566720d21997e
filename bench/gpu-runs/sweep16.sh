#!/usr/bin/env bash
# Per-pass times of the multi-pass R2C (2^15 … 2^22) and C2C (2^14 … 2^22): --breakdown times each kernel of a
# plan alone. Two passes (the first process of a kind can read slow). Writes $OUT/sweep16.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep16.tgz" -C "$R" .' EXIT
for pass in 1 2; do
  for k in r2c c2c; do
    s=15-22; [ $k = c2c ] && s=14-22
    echo "== $k $pass"
    timeout 120 node .gpu/bench-fft.mjs --kind $k --sizes $s --breakdown --json $R/$k-$pass.jsonl 2>&1 | grep -e '^  [0-9]'
  done
done
