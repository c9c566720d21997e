#!/usr/bin/env bash
# Per-kernel times (--breakdown: each kernel of a plan timed alone) of the multi-pass plans after the swizzled
# and rotated rows (final42's kernels), with the padded rows (--passLayout padded) alongside: C2C 2^14 … 2^27,
# R2C and DHT 2^15 … 2^27. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep59.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep59.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
timeout 60 $B --kind c2c --sizes 14-16 > /dev/null 2>&1
for v in swizzled padded; do
  echo "== $v"
  timeout 120 $B --kind c2c --sizes 14-27 --checkMax 0 --breakdown --passLayout $v --label $v --json $R/c2c-$v.jsonl 2>&1 | grep ' ms,' | head -30
  timeout 120 $B --kind r2c --sizes 15-27 --checkMax 0 --breakdown --passLayout $v --label $v --json $R/r2c-$v.jsonl > /dev/null 2>&1
  timeout 120 $B --kind dht --sizes 15-27 --checkMax 0 --breakdown --passLayout $v --label $v --json $R/dht-$v.jsonl > /dev/null 2>&1
done
echo done
