#!/usr/bin/env bash
# The radix-32 column passes of 512² and 1024² with 8 columns a workgroup (--minCols 8; default 4, which beat 8
# with radix 16 in sweep36), three alternating rounds. Result: 512² 1.25 → 1.16–1.17 ms (kept), 1024² 1.27–1.28 →
# 1.30 (not). Needs .gpu/bench-fft.mjs. Writes $OUT/sweep50.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep50.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for i in 1 2 3; do
  echo "default $i: $(T 60 $B --kind c2c --shape2d 512x512,1024x1024 --json $R/default-$i.jsonl 2>&1 | q | s)"
  echo "cols8 $i: $(T 60 $B --kind c2c --shape2d 512x512,1024x1024 --minCols 8 --label cols8 --json $R/cols8-$i.jsonl 2>&1 | q | s)"
done
echo done
