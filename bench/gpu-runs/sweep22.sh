#!/usr/bin/env bash
# DCT-II multi-pass (2^15 … 2^20), after the wrq hook (the fused pass gets its quarter-root twiddles from one table read an invocation): the post-processing as its own kernel (default for the DCT/DST hooks,
# whose outputs scatter) against fused into the last pass (--r2cFused 1), with the per-kernel breakdown
# (a 1-D DCT is one FFT plan). Two passes. Writes $OUT/sweep22.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep22.tgz" -C "$R" .' EXIT
for pass in 1 2; do
  for v in default fused; do
    x=""; [ $v = fused ] && x="--r2cFused 1"
    echo "== dct2 $v $pass"
    timeout 90 node .gpu/bench-fft.mjs --kind dct2 --sizes 15-20 --breakdown --label $v $x --json $R/dct2-$v-$pass.jsonl 2>&1 | grep -e '^  [0-9]' | sed -e 's/-forward//g' | awk '{ if ($0 ~ /\|/ || $0 ~ /  [0-9]+  +[0-9]+ /) print $1, $(NF-4); else print }'
  done
done
