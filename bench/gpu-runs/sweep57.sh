#!/usr/bin/env bash
# Follows sweep56, where swizzled rows made C2C 2^18 … 2^19 and 2^25 … 2^27 and 2-D 512² / 2048² 4–19% faster
# but R2C and DHT 2^15 … 2^27 3–8% slower: which pass loses? Two alternating rounds of R2C 2^14 … 2^27 and
# DHT 2^15 … 2^22 with every pass swizzled (default), every pass padded (--passLayout padded), and the fused
# last pass alone padded (--lastPassLayout padded). Then C2C in two passes where swizzled rows may make
# them pay: 2^20 = 1024·1024 (--longFirstRest 1024, 1.61 against 1.76 ms in sweep56), and 2^21 = 2048·1024,
# 2^22 = 2048·2048 (--maxPass 2048 --minCols 4), against the default three passes.
# Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep57.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep57.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
T 60 $B --kind r2c --sizes 15-17 > /dev/null 2>&1
for round in 1 2; do
  for v in swizzled padded lastpad; do
    extra="--passLayout $v"; [ $v = lastpad ] && extra="--lastPassLayout padded"
    echo "== $v $round"
    T 90 $B --kind r2c --sizes 14-27 --checkMax 21 $extra --label $v --json $R/r2c-$v-$round.jsonl > /dev/null 2>&1
    T 90 $B --kind dht --sizes 15-22 --checkMax 21 $extra --label $v --json $R/dht-$v-$round.jsonl > /dev/null 2>&1
  done
  echo "== c2c two-pass $round"
  T 60 $B --kind c2c --sizes 20-22 --label default --json $R/c2c-default-$round.jsonl > /dev/null 2>&1
  T 60 $B --kind c2c --sizes 20 --longFirstRest 1024 --label rest1024 --json $R/c2c-rest1024-$round.jsonl > /dev/null 2>&1
  T 60 $B --kind c2c --sizes 20-22 --maxPass 2048 --minCols 4 --label pass2048 --json $R/c2c-pass2048-$round.jsonl > /dev/null 2>&1
done
echo done
