#!/usr/bin/env bash
# final45 on the H200 read the 64-column fused last pass (the H100's win in sweep65) no faster than 32
# columns: R2C / DHT 2^15 … 2^17 and 2^20 … 2^25 within −3% … +2%. Per-kernel times (--breakdown) of the
# fused last pass in 32 columns (padded rows, five workgroups an SM), 64 (padded, two) and 64 swizzled
# (three), DHT and R2C at 2^15, 2^16, 2^17 and 2^20, two alternating rounds. Bundle: .gpu/bench-fft.mjs
# (commit 5c1a885). Writes $OUT/sweep66.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep66.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
for round in 1 2; do
  for l in 15 16 17 20; do
    for kind in dht r2c; do
      for v in c32 c64 c64s; do
        f="--lastCols ${v:1:2}"; [ $v = c64s ] && f="$f --lastPassLayout swizzled"
        timeout 60 $B --kind $kind --sizes $l --checkMax 0 --breakdown --label $v $f --json $R/$kind-$l-$v-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $kind $v /"
      done
    done
  done
done
echo done
