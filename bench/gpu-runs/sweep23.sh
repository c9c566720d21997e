#!/usr/bin/env bash
# Multi-pass R2C / DHT / DCT-II: the fused last pass taking each output's own value from registers (only
# the mirror partner from workgroup memory) against reading both from workgroup memory (.gpu/bench-fft-head.mjs,
# commit 9d2171b), alternating processes, two passes, R2C with the per-kernel breakdown. Writes $OUT/sweep23.tgz.
# Result: no difference beyond 1% (the last pass 0.495 against 0.499 ms at 2^15); the change was not kept.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep23.tgz" -C "$R" .' EXIT
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for pass in 1 2; do
  for b in head new; do
    f=.gpu/bench-fft.mjs; [ $b = head ] && f=.gpu/bench-fft-head.mjs
    echo "== r2c $b $pass"
    timeout 90 node $f --kind r2c --sizes 15-22 --breakdown --label $b --json $R/r2c-$b-$pass.jsonl 2>&1 | grep -e '^  [0-9]' | grep -v '|' | sed -e 's/-forward//g' | awk '{print $1, $NF=="ms," ? "" : "", $(NF-1)}'
    for k in dht dct2; do echo "== $k $b $pass: $(timeout 60 node $f --kind $k --sizes 15-20 --label $b --json $R/$k-$b-$pass.jsonl 2>&1 | q)"; done
  done
done
