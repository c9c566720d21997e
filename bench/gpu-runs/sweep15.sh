#!/usr/bin/env bash
# R2C / DHT 2^11 … 2^14 and C2C 2^11 … 2^13 planner variants: the complex exchange (one vec2 round instead
# of two f32 rounds) where it fits, radix 32, wider workgroups. Alternating processes, two passes.
# Writes $OUT/sweep15.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep15.tgz" -C "$R" .' EXIT
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for pass in 1 2; do
  for v in default complex r32 wg64; do
    x=""
    [ $v = complex ] && x="--exchange complex"
    [ $v = r32 ] && x="--maxRadix 32"
    [ $v = wg64 ] && x="--wg 64"
    for k in r2c dht c2c; do
      s=11-14; [ $k = c2c ] && s=11-13
      echo "== $k $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes $s --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
