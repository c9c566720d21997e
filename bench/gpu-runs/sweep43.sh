#!/usr/bin/env bash
# Single-workgroup C2C lengths with twos and odd factors: twos and odd factors packed into fewer stages
# (planner option mergedRadixUpTo: 12 = 12, 96 = 12·8, 100 = 10·10, 160 = 16·10, 192 = 16·12, 500 = 10·10·5,
# 800 = 10·10·8, 1000 = 10·10·10, 1500 = 15·10·10) against the planner's default radices, two alternating
# rounds. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep43.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep43.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $4, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"; L=12,96,100,160,192,500,800,1000,1500
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "default $i: $(T 60 $F --kind c2c --n $L --label default --json $R/default-$i.jsonl 2>&1 | q | s)"
  echo "merged $i: $(T 60 $F --kind c2c --n $L --mergedUpTo 100000 --label merged --json $R/merged-$i.jsonl 2>&1 | q | s)"
done
echo "== r2c (half-lengths 6, 48, 50, 80, 96, 250, 400, 500, 750)"
echo "default: $(T 60 $F --kind r2c --n $L --label default --json $R/r2c-default.jsonl 2>&1 | q | s)"
echo "merged: $(T 60 $F --kind r2c --n $L --mergedUpTo 100000 --label merged --json $R/r2c-merged.jsonl 2>&1 | q | s)"
echo done
