#!/usr/bin/env bash
# With f32 rows in the pass kernels: 2-D batches with 8 and 16 columns a workgroup in the column passes
# (--minCols; default 4 for the column pass of a 2-D transform, 8 in the batch-fastest multi-pass of
# 4096²), and C2C 2^14 … 2^24 with the first pass at 8 columns (--firstCols 8; default 4). Two passes
# alternating. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep36.tgz.
# Result: 8 columns for 256² column passes (1.25 → 1.06 ms) and 16 for 4096²'s batch-fastest passes (2.01 →
# 1.88) won, 1024² lost with 8; a first pass of 8 columns won where its elements lie ≥ 8192 apart.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep36.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default c8 c16; do
    x=""; case $v in c8) x="--minCols 8";; c16) x="--minCols 16";; esac
    echo "== 2d $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind c2c --shape2d 1024x1024,4096x4096,256x256 --label $v $x --json $R/2d-$v-$pass.jsonl 2>&1 | q)"
  done
  for v in default f8; do
    x=""; [ $v = f8 ] && x="--firstCols 8"
    echo "== c2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind c2c --sizes 14-24 --breakdown --label $v $x --json $R/c2c-$v-$pass.jsonl 2>&1 | q)"
  done
done
