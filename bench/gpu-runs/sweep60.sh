#!/usr/bin/env bash
# sweep59 timed the long 512-point first pass of C2C 2^25 (32·16, 4 columns) at 0.76 ms against 0.60 for the
# same pass length at 2^17: its elements lie 65536 apart. 128- and 256-point first passes take 8 columns from
# 8192 apart; with swizzled rows 8 columns of 512 points hold 16 KiB (3 workgroups an SM). Two alternating
# rounds of C2C 2^25, R2C 2^26 and DHT 2^26 (half-length 2^25: the same first pass) with --firstCols 8 against
# the default. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep60.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep60.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
timeout 60 $B --kind c2c --sizes 25 > /dev/null 2>&1
for round in 1 2; do
  for v in default first8; do
    extra=""; [ $v = first8 ] && extra="--firstCols 8"
    timeout 60 $B --kind c2c --sizes 25 --checkMax 0 --breakdown $extra --label $v --json $R/c2c-$v-$round.jsonl 2>&1 | grep ' ms,'
    timeout 60 $B --kind r2c --sizes 26 --checkMax 0 --breakdown $extra --label $v --json $R/r2c-$v-$round.jsonl 2>&1 | grep ' ms,'
    timeout 60 $B --kind dht --sizes 26 --checkMax 0 --breakdown $extra --label $v --json $R/dht-$v-$round.jsonl 2>&1 | grep ' ms,'
  done
done
echo done
