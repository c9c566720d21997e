#!/usr/bin/env bash
# Multi-pass C2C 2^16 … 2^24 and R2C 2^17 … 2^25 with passes of up to 512 and 1024 points (--maxPass) against
# the default 256, now that pass kernels exchange in two rounds; per-pass breakdown, two passes alternating.
# Needs .gpu/bench-fft.mjs. Writes $OUT/sweep33.tgz.
# Result: one 512-point pass won only where it saved a pass (C2C 2^17: 1.68 → 1.42 ms); R2C 2^18 lost.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep33.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for pass in 1 2; do
  for v in default p512 p1024; do
    x=""; case $v in p512) x="--maxPass 512";; p1024) x="--maxPass 1024";; esac
    echo "c2c $v $pass: $(T 150 $B --kind c2c --sizes 16-24 --breakdown --label $v $x --json $R/side-c2c-$v-$pass.jsonl 2>&1 | q | grep -v ': ' | s)"
    echo "r2c $v $pass: $(T 150 $B --kind r2c --sizes 17-25 --breakdown --label $v $x --json $R/side-r2c-$v-$pass.jsonl 2>&1 | q | grep -v ': ' | s)"
  done
done
