#!/usr/bin/env bash
# After final41 (swizzled multi-pass rows; 2^20 in two passes, its second pass in 4 columns): two alternating
# rounds of
# - C2C 2^20 … 2^21, default against 2^21 in two passes, 1024·2048 (--minCols 4 --longFirstRest 2048: the
#   2048-point pass holds 32 KiB, one workgroup an SM);
# - R2C and DHT 2^20 … 2^21 (half-lengths 2^19 … 2^20), default (three passes, the fused last pass ≤ 256
#   points in 32 padded columns) against two passes with a fused 512- or 1024-point last pass
#   (--longFirstRest 1024) in 16 padded columns (2^20: 34880 B; 2^21 does not fit 16 and takes 8, 34848 B),
#   8 padded (17440 / 34848 B) and 8 swizzled (16 / 32 KiB).
# Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep58.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep58.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
timeout 60 $B --kind r2c --sizes 20-21 > /dev/null 2>&1
for round in 1 2; do
  echo "== round $round"
  timeout 60 $B --kind c2c --sizes 20-21 --label default --json $R/c2c-default-$round.jsonl > /dev/null 2>&1
  timeout 60 $B --kind c2c --sizes 21 --minCols 4 --longFirstRest 2048 --label two-pass --json $R/c2c-two-pass-$round.jsonl > /dev/null 2>&1
  for k in r2c dht; do
    timeout 60 $B --kind $k --sizes 20-21 --label default --json $R/$k-default-$round.jsonl > /dev/null 2>&1
    timeout 60 $B --kind $k --sizes 20-21 --longFirstRest 1024 --label rest1024-16 --json $R/$k-rest1024-16-$round.jsonl > /dev/null 2>&1
    timeout 60 $B --kind $k --sizes 20-21 --longFirstRest 1024 --lastCols 8 --label rest1024-8 --json $R/$k-rest1024-8-$round.jsonl > /dev/null 2>&1
    timeout 60 $B --kind $k --sizes 20-21 --longFirstRest 1024 --lastCols 8 --lastPassLayout swizzled --label rest1024-8swz --json $R/$k-rest1024-8swz-$round.jsonl > /dev/null 2>&1
  done
done
echo done
