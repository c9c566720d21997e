#!/usr/bin/env bash
# With f32 rows in the pass kernels: passes of up to 512 / 1024 points with radix-32 stages (512 = 32·16,
# 1024 = 32·32: two stages, one exchange) against the defaults (≤ 256 points, one 512-point pass 8·8·8 for
# 2^17), C2C 2^17 … 2^21 with the per-pass breakdown. Two passes alternating. Needs .gpu/bench-fft.mjs.
# Writes $OUT/sweep37.tgz.
# Result: radix-32 first passes won where they saved a pass (2^17: 1.42 → 1.23 ms, 2^18: 1.74 → 1.57 with
# 512·512, 2^19: 1.82 → 1.68 with 1024·512); later 512/1024-point passes stayed slow (0.93 / 1.05 ms).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep37.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default r32p512 r32p1024; do
    x=""; case $v in r32p512) x="--maxRadix 32 --maxPass 512";; r32p1024) x="--maxRadix 32 --maxPass 1024";; esac
    echo "== c2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind c2c --sizes 17-21 --breakdown --label $v $x --json $R/c2c-$v-$pass.jsonl 2>&1 | q)"
  done
done
