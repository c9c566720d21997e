#!/usr/bin/env bash
# R2C / DCT-II / DHT with one real-twiddle table read per invocation (.gpu/bench-fft.mjs) against the
# previous kernels (.gpu/bench-fft-head.mjs, commit ee3e2a2), alternating processes, two passes each:
# checks final15's single-process readings (DCT-II 2^13 and DHT 2^14 looked 1.5× slower, R2C 2^15 1.5×,
# in the first process of their kind). Writes $OUT/sweep12.tgz (the JSON lines).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4), $(NF-1)}'; }
for pass in 1 2; do
  for b in head new; do
    f=.gpu/bench-fft.mjs; [ $b = head ] && f=.gpu/bench-fft-head.mjs
    for k in r2c dct2 dht; do
      echo "== $k $b pass $pass"
      timeout 60 node $f --kind $k --sizes 9-16 --label $b --json $R/$k-$b-$pass.jsonl 2>&1 | q | tr '\n' ' '; echo
    done
  done
done
tar czf $OUT/sweep12.tgz -C $R .
