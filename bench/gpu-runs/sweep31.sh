#!/usr/bin/env bash
# Single-workgroup R2C / DHT / DCT-II N = 2^8 … 2^13: the split exchange (two f32 rounds, half the
# workgroup memory) and the complex one (one vec2 round) forced, against the defaults (complex below a
# half-length of 1024, split from it). Two passes alternating. Needs .gpu/bench-fft.mjs. Writes
# $OUT/sweep31.tgz.
# Result: split won for half-lengths 256 and 512 (R2C N = 1024: 0.312 → 0.272 ms), lost 2% at 128.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep31.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 8-9 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default split complex; do
    x=""; case $v in split) x="--exchange split";; complex) x="--exchange complex";; esac
    for k in r2c dht dct2; do
      echo "== $k $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind $k --sizes 8-13 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
