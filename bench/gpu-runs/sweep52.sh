#!/usr/bin/env bash
# Column passes with 2 columns a workgroup (--minCols 2: 16-byte runs, half the registers a workgroup) against
# the defaults (4; 8 up to 512 points), 2-D 1024² and 2048², three alternating rounds. Result: 1.27–1.28 / 1.61
# ms → 2.81 / 2.80 (16-byte runs): not kept.
# Needs .gpu/bench-fft.mjs. Writes $OUT/sweep52.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep52.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for i in 1 2 3; do
  echo "default $i: $(T 60 $B --kind c2c --shape2d 1024x1024,2048x2048 --json $R/default-$i.jsonl 2>&1 | q | s)"
  echo "cols2 $i: $(T 60 $B --kind c2c --shape2d 1024x1024,2048x2048 --minCols 2 --label cols2 --json $R/cols2-$i.jsonl 2>&1 | q | s)"
done
echo done
