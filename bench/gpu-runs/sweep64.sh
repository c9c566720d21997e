#!/usr/bin/env bash
# Three-pass R2C / DHT / DCT-II (half-lengths 2^21 … 2^26) with the fused last pass shortened to 64 points
# (--passLengths): sweep63 put it at 0.36–0.38 ms for 64 points against 0.39–0.43 for 128 and 0.47–0.50 for 256 (R2C, DHT).
# Two alternating rounds of R2C and DHT, one of DCT-II; one size a process; round 1 with --breakdown.
# Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep64.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep64.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
one() { # round kind log2N lengths|default [flags]
  local round=$1 kind=$2 l=$3 pl=$4; shift 4
  local f=""; [ "$pl" != default ] && f="--passLengths $pl"
  timeout 60 $B --kind $kind --sizes $l --checkMax 0 --label $pl $f "$@" --json $R/$kind-$l-$pl-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $kind $pl /"
}
REAL="22:default,256.128.64,512.64.64 23:default,256.256.64,1024.64.64 24:default,512.256.64,1024.128.64 25:default,1024.256.64,512.512.64 26:default,1024.512.64,512.1024.64 27:default,1024.1024.64"
for round in 1 2; do
  bd=""; [ $round = 1 ] && bd="--breakdown"
  kinds="r2c dht"; [ $round = 1 ] && kinds="r2c dht dct2"
  for kind in $kinds; do
    for e in $REAL; do l=${e%%:*}; for pl in $(echo ${e#*:} | tr , " "); do one $round $kind $l $pl $bd; done; done
  done
done
echo done
