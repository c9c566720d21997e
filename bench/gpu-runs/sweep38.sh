#!/usr/bin/env bash
# Multi-pass R2C / DHT with the C2C planner's long radix-32 first pass (--r2cLongFirst: half-length 2^17 =
# 512·256, 2^18 = 1024·256, 2^19 = 1024·512 in two passes) against passes of at most 256 points (default),
# N = 2^17 … 2^21, R2C with the per-kernel breakdown. Two passes alternating. Needs .gpu/bench-fft.mjs.
# Writes $OUT/sweep38.tgz.
# Result: R2C 2^18 0.90 → 0.81 ms, 2^19 0.94 → 0.85, DHT 2^18 0.98 → 0.83; 2^20 (a 512-point fused last
# pass) lost (0.97 → 1.02), so the fused R2C keeps its last pass ≤ 256 points.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep38.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 16-17 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default long; do
    x=""; [ $v = long ] && x="--r2cLongFirst"
    echo "== r2c $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind r2c --sizes 17-21 --breakdown --label $v $x --json $R/r2c-$v-$pass.jsonl 2>&1 | q)"
    echo "== dht $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind dht --sizes 17-20 --label $v $x --json $R/dht-$v-$pass.jsonl 2>&1 | q)"
  done
done
