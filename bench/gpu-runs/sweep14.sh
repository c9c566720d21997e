#!/usr/bin/env bash
# R2C / DCT-II / DHT: the default plans (paired last stage where it falls out) against --r2cPairAll
# (pairedLastRadices re-splits the powers of two whose last stage does not pair: N = 128, 512, 1024, 8192).
# Alternating processes, two passes. Writes $OUT/sweep14.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for pass in 1 2; do
  for v in default all; do
    x=""; [ $v = all ] && x="--r2cPairAll 1"
    for k in r2c dct2 dht; do
      echo "== $k $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes 6-14 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
tar czf $OUT/sweep14.tgz -C $R .
