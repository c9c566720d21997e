#!/usr/bin/env bash
# Pass splits of the two-pass R2C / DHT / DCT-II (half-lengths 2^14 … 2^19) and C2C 2^14 … 2^18: a longer
# first pass and a shorter fused last pass (--passLengths, WebGpuFftOptions.passLengths). sweep59's per-kernel
# times put the fused last pass at 0.47–0.50 ms for 256 points (32 columns: 34 KiB, one workgroup an SM),
# 0.39–0.41 for 128 (two) and 0.36 for 64, against 0.30–0.34 for first passes of 128 … 1024 points.
# Two alternating rounds, one size a process; round 1 with --breakdown. Bundle: .gpu/bench-fft.mjs.
# Writes $OUT/sweep63.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep63.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
one() { # round kind log2N lengths|default [flags]
  local round=$1 kind=$2 l=$3 pl=$4; shift 4
  local f=""; [ "$pl" != default ] && f="--passLengths $pl"
  timeout 60 $B --kind $kind --sizes $l --checkMax 20 --label $pl $f "$@" --json $R/$kind-$l-$pl-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $kind $pl /"
}
REAL="15:default,256.64 16:default,512.64 17:default,512.128,1024.64 18:default,1024.128 19:default,2048.128 20:default,1024.512,2048.256"
CPLX="14:default,256.64 15:default,512.64 16:default,512.128,1024.64 17:default,1024.128 18:default,2048.128"
for round in 1 2; do
  bd=""; [ $round = 1 ] && bd="--breakdown"
  for kind in r2c dht dct2; do
    for e in $REAL; do l=${e%%:*}; for pl in $(echo ${e#*:} | tr , " "); do one $round $kind $l $pl $bd; done; done
  done
  for e in $CPLX; do l=${e%%:*}; for pl in $(echo ${e#*:} | tr , " "); do one $round c2c $l $pl $bd; done; done
done
echo done
