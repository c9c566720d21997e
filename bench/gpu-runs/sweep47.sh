#!/usr/bin/env bash
# Radix-32 stages for N-D column passes of 512 points and more (the new default), against the kernels of
# commit 9204918 (.gpu/bench-fft-old.mjs) and radix 32 everywhere (--maxRadix 32, final36's variant), 2-D
# 256² … 4096², three alternating rounds. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs.
# Writes $OUT/sweep47.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep47.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
S=256x256,512x512,1024x1024,2048x2048,4096x4096
for i in 1 2 3; do
  echo "new $i: $(T 90 $B --kind c2c --shape2d $S --json $R/new-$i.jsonl 2>&1 | q | s)"
  echo "old $i: $(T 90 $H --kind c2c --shape2d $S --label old --json $R/old-$i.jsonl 2>&1 | q | s)"
  echo "r32 $i: $(T 90 $B --kind c2c --shape2d $S --maxRadix 32 --label r32 --json $R/r32-$i.jsonl 2>&1 | q | s)"
done
echo done
