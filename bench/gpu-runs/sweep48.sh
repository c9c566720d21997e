#!/usr/bin/env bash
# Radix-32 stages for later multi-pass passes of 512 points (the new default: 32·16 instead of 8·8·8), C2C
# 2^19 = 1024·512 and 2^27 = 1024·512·256, against the kernels of commit 9204918 (.gpu/bench-fft-old.mjs),
# three alternating rounds; side variant: 2048² with radices 32·32·2 and 32·64 for both of its passes
# (the default 16·16·8). Result: 2^19 1.64 → 1.67 ms, 2^27 as 1024·512·256 before (2.44, final35) → 2.43 (the
# old bundle's 2.55 is its four passes); 2048² 1.61 against 1.82 (32·32·2) and 1.94 (32·64): none kept.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs. Writes $OUT/sweep48.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep48.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
for i in 1 2 3; do
  echo "new $i: $(T 90 $B --kind c2c --n 524288,134217728 --json $R/new-$i.jsonl 2>&1 | q | s)"
  echo "old $i: $(T 90 $H --kind c2c --n 524288,134217728 --label old --json $R/old-$i.jsonl 2>&1 | q | s)"
done
for r in 16.16.8 32.32.2 32.64; do
  echo "2048² $r: $(T 60 $B --kind c2c --shape2d 2048x2048 --radices $r --label r$r --json $R/2d-$r.jsonl 2>&1 | q | s)"
done
echo done
