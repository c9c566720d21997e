#!/usr/bin/env bash
# Now that pass kernels exchange in two rounds (half the workgroup memory): 16 columns a workgroup in the
# later passes (--minCols 16, 128-byte runs) and 32 in the fused R2C last pass (--lastCols 32), against the
# defaults (8 / 16); and the single-workgroup 4096 / 8192 with the four-round 'split4' exchange (a quarter
# of the complex exchange's memory) against 'split'. Two passes alternating. Needs .gpu/bench-fft.mjs.
# Writes $OUT/sweep35.tgz.
# Result: 32-column fused R2C last pass won (2^21: 1.05 → 0.95 ms); 16 columns helped C2C last passes from
# 2^20 (not the first pass); split4 lost badly (4096: 0.63 → 0.90 ms).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep35.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default c16; do
    x=""; [ $v = c16 ] && x="--minCols 16"
    echo "== c2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind c2c --sizes 14-24 --breakdown --label $v $x --json $R/c2c-$v-$pass.jsonl 2>&1 | q)"
  done
  for v in default l32; do
    x=""; [ $v = l32 ] && x="--lastCols 32"
    echo "== r2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind r2c --sizes 15,16,18-25 --breakdown --label $v $x --json $R/r2c-$v-$pass.jsonl 2>&1 | q)"
  done
  for v in default q4; do
    x=""; [ $v = q4 ] && x="--exchange split4"
    echo "== c2c-wg $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 12-13 --label $v $x --json $R/wg-c2c-$v-$pass.jsonl 2>&1 | q)"
    echo "== r2c-wg $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 13-14 --label $v $x --json $R/wg-r2c-$v-$pass.jsonl 2>&1 | q)"
  done
done
