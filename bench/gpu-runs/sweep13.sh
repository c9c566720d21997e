#!/usr/bin/env bash
# R2C / DCT-II / DHT with the paired last stage (post-processing in registers, no exchange):
# head (.gpu/bench-fft-head.mjs, commit c81be86: one real-twiddle read, exchange form), new default (paired
# where the plan allows), new with --r2cPairAll (every power of two planned to pair), new with
# --r2cUnpaired (the exchange form in this build). Alternating processes, two passes.
# Writes $OUT/sweep13.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for pass in 1 2; do
  for v in head paired all unpaired; do
    f=.gpu/bench-fft.mjs; x=""
    [ $v = head ] && f=.gpu/bench-fft-head.mjs
    [ $v = all ] && x="--r2cPairAll 1"
    [ $v = unpaired ] && x="--r2cUnpaired 1"
    for k in r2c dct2 dht; do
      echo "== $k $v $pass: $(timeout 60 node $f --kind $k --sizes 2-15 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
tar czf $OUT/sweep13.tgz -C $R .
