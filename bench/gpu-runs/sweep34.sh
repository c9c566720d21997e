#!/usr/bin/env bash
# Multi-pass R2C / DHT / DCT-II with the fused last pass exchanging real and imaginary parts in two rounds
# (f32 rows) against vec2 rows (.gpu/bench-fft-head.mjs, commit 59a3696); R2C with the per-kernel
# breakdown. Two passes alternating processes. Needs .gpu/bench-fft.mjs and .gpu/bench-fft-head.mjs.
# Writes $OUT/sweep34.tgz.
# Result: f32 rows in the fused last pass won (2^15: 0.49 → 0.40 ms for that pass; R2C 2^15 0.78 → 0.68).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep34.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 15-16 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for b in head new; do
    B=.gpu/bench-fft.mjs; [ $b = head ] && B=.gpu/bench-fft-head.mjs
    echo "== r2c $b $pass: $(timeout 150 node $B --kind r2c --sizes 15-25 --breakdown --label $b --json $R/r2c-$b-$pass.jsonl 2>&1 | q)"
    for k in dht dct2; do
      echo "== $k $b $pass: $(timeout 100 node $B --kind $k --sizes 15-20 --label $b --json $R/$k-$b-$pass.jsonl 2>&1 | q)"
    done
  done
done
