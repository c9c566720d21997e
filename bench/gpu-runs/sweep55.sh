#!/usr/bin/env bash
# XOR-swizzled workgroup rows (--swizzle: i ^ ((i >> 4) & 31), no padding) against the padded rows (default)
# in single-workgroup FFTs, in alternating processes: C2C 2^5 … 2^13, R2C, DCT-II and DHT 2^6 … 2^14; and
# 8192 / 4096 in 'split4' rounds with swizzled rows (16 KiB / 8 KiB a workgroup). sweep54 found unpadded
# rows (bank conflicts, 3 workgroups an SM instead of 2) 5% faster at 4096. Bundle: .gpu/bench-fft.mjs.
# Writes $OUT/sweep55.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep55.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e BackendVk; }
s() { awk '$1 ~ /^[0-9]+$/ {print $1, $7}' | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for round in 1 2; do
  for v in default swizzle; do
    extra=""; [ $v = swizzle ] && extra="--swizzle"
    echo "== c2c $v $round"; T 60 $B --kind c2c --sizes 5-13 $extra --label $v --json $R/c2c-$v-$round.jsonl 2>&1 | q | s
    for k in r2c dct2 dht; do
      echo "== $k $v $round"; T 60 $B --kind $k --sizes 6-14 $extra --label $v --json $R/$k-$v-$round.jsonl 2>&1 | q | s
    done
  done
done
for r in 16.32.16 8.32.32; do
  echo "== 8192 split4 $r swizzle"; T 60 $B --kind c2c --sizes 13 --radices $r --exchange split4 --swizzle --label split4-$r-swizzle --json $R/c2c-split4-$r-swizzle.jsonl 2>&1 | q | s
done
echo "== 4096 split4 swizzle"; T 60 $B --kind c2c --sizes 12 --exchange split4 --swizzle --label split4-swizzle --json $R/c2c-4096-split4-swizzle.jsonl 2>&1 | q | s
echo "== r2c 2^14 split4 swizzle"; T 60 $B --kind r2c --sizes 13-14 --exchange split4 --swizzle --label split4-swizzle --json $R/r2c-split4-swizzle.jsonl 2>&1 | q | s
echo done
