#!/usr/bin/env bash
# Longer multi-pass passes with radix-32 stages: --maxRadix 32 with --maxPass 1024 / 2048 (1024 = 32·32,
# one exchange instead of two) and --maxRadix 64 --maxPass 2048 (64·32), against the defaults (passes of
# at most 256 points, radix ≤ 16). C2C 2^14 … 2^24 and R2C 2^15 … 2^24, per-pass breakdown, two passes
# alternating the variants. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep25.tgz.
# Result: slower except C2C 2^17 (1.67 against 1.74 ms): a 512-point pass (32·16) took 0.84–1.15 ms and a
# 1024-point one (32·32) 1.05–1.19 against 0.58–0.68 for 64/128-point passes; the defaults stay (…-sweep25).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep25.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s %s | ", $1, $(NF-4), $3 }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default r32p1024 r32p2048 r64p2048; do
    x=""
    case $v in
      r32p1024) x="--maxRadix 32 --maxPass 1024";;
      r32p2048) x="--maxRadix 32 --maxPass 2048";;
      r64p2048) x="--maxRadix 64 --maxPass 2048";;
    esac
    for k in c2c r2c; do
      s=14-24; [ $k = r2c ] && s=15-24
      echo "== $k $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind $k --sizes $s --breakdown --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
