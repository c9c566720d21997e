#!/usr/bin/env bash
# Multi-pass kernels' workgroup rows: swizzled and rotated a column (the new default, planner/row-layout.ts)
# against the odd-length padded rows before it (--passLayout padded), two alternating rounds: C2C 2^13 …
# 2^27 (2^13 is one workgroup: a control), R2C 2^14 … 2^27, DHT 2^15 … 2^20, 2-D 256² … 4096², multi-pass
# odd lengths; then C2C 2^20 in two passes (1024·1024: --longFirstRest 1024; 2^21 stays in three, a control)
# and R2C 2^19 … 2^22 with fused last passes of up to 512 points (--longFirstRest 512), both of which had lost
# with padded rows. The bank-conflict model puts the padded rows' exchanges at 2–3.5 wavefronts an
# access, the swizzled ones at 1–1.25. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep56.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep56.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e BackendVk; }
s() { awk '$1 ~ /^[0-9x]+$/ {print $1, $7}' | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
T 60 $B --kind c2c --sizes 14-16 > /dev/null 2>&1
for round in 1 2; do
  for v in swizzled padded; do
    extra="--passLayout $v"
    echo "== c2c $v $round"; T 90 $B --kind c2c --sizes 13-27 --checkMax 21 $extra --label $v --json $R/c2c-$v-$round.jsonl 2>&1 | q | s
    echo "== r2c $v $round"; T 90 $B --kind r2c --sizes 14-27 --checkMax 21 $extra --label $v --json $R/r2c-$v-$round.jsonl 2>&1 | q | s
    echo "== 2d $v $round"; T 60 $B --kind c2c --shape2d 256x256,512x512,1024x1024,2048x2048,4096x4096 $extra --label $v --json $R/c2c-2d-$v-$round.jsonl 2>&1 | q | s
  done
done
for v in swizzled padded; do
  echo "== dht $v"; T 60 $B --kind dht --sizes 15-20 --passLayout $v --label $v --json $R/dht-$v.jsonl 2>&1 | q | s
  echo "== odd $v"; T 60 $B --kind c2c --n 59049,78125,102400,117649,177147,230400 --passLayout $v --label $v --json $R/c2c-odd-$v.jsonl 2>&1 | q | s
done
for round in 1 2; do
  echo "== c2c 2^20-2^21 two passes $round"; T 60 $B --kind c2c --sizes 20-21 --longFirstRest 1024 --label two-pass --json $R/c2c-twopass-$round.jsonl 2>&1 | q | s
  echo "== r2c 2^21-2^22 longFirstRest 512 $round"; T 60 $B --kind r2c --sizes 19-22 --longFirstRest 512 --label rest512 --json $R/r2c-rest512-$round.jsonl 2>&1 | q | s
done
echo done
