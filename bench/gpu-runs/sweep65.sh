#!/usr/bin/env bash
# Columns and row layout of the fused R2C / DHT last pass (--lastCols, --lastPassLayout). sweep63 put that
# pass at 0.36–0.38 ms for 64 points (32 columns, padded: 8.6 KiB, five workgroups an SM) and 0.47–0.50 for
# 256 (32 columns: 34 KiB, one workgroup an SM), against ~0.29 that its bytes take at copy speed. Variants:
# 16 or 64 columns (8 or 32 mirror pairs), padded or swizzled rows (16 KiB swizzled against 17.4 padded keeps
# 3 workgroups an SM instead of 2). DHT in two alternating rounds (round 1 with --breakdown and checks up to
# 2^20), then R2C once. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep65.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep65.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
one() { # round kind log2N variant
  local round=$1 kind=$2 l=$3 v=$4 f="" extra=""
  case $v in
    default) f="" ;;
    c*s) f="--lastCols ${v:1:-1} --lastPassLayout swizzled" ;;
    c*) f="--lastCols ${v:1}" ;;
  esac
  if [ $round = 1 ]; then extra="--breakdown --checkMax 20"; else extra="--checkMax 0"; fi
  timeout 60 $B --kind $kind --sizes $l --label $v $f $extra --json $R/$kind-$l-$v-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ |rror' | sed "s/^/$round $kind $v /"
}
SETS="15:default,c16s,c64,c64s 16:default,c16s,c64,c64s 17:default,c16s,c64,c64s 18:default,c16s,c32s 19:default,c16,c16s,c8s 20:default,c64s"
run() { # round kind
  for e in $SETS; do l=${e%%:*}; for v in $(echo ${e#*:} | tr , " "); do one $1 $2 $l $v; done; done
}
run 1 dht
run 2 dht
run 1 r2c
echo done
