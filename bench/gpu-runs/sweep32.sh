#!/usr/bin/env bash
# Multi-pass C2C 2^14 … 2^24: every pass kernel with the split exchange (--exchange split: real and
# imaginary parts in two rounds, half the workgroup memory) against the defaults (one vec2 round where the
# columns fit), per-pass breakdown. Two passes alternating. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep32.tgz.
# Result: split in every pass kernel won nearly everywhere (256-point pass 0.81 → 0.64 ms; C2C 2^16 1.47 →
# 1.22, 2^24 2.45 → 2.15); now the default.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep32.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default split; do
    x=""; [ $v = split ] && x="--exchange split"
    echo "== c2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind c2c --sizes 14-24 --breakdown --label $v $x --json $R/c2c-$v-$pass.jsonl 2>&1 | q)"
  done
done
