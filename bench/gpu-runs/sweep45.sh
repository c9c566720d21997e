#!/usr/bin/env bash
# The plan-to-plan variance of R2C 2^26 (final32: in one process, four plans of the same size ran 1.26–3.77 ms):
# plans kept alive and timed again at the end (--keep: does a slow plan stay slow, with nothing freed?), and
# plans freed with a 3 s pause before the next (--pauseMs). Needs .gpu/bench-fft.mjs. Writes $OUT/sweep45.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep45.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
N4=67108864,67108864,67108864,67108864
for i in 1 2 3; do
  T 90 $B --kind r2c --n $N4 --keep --label keep --json $R/keep-$i.jsonl > $R/keep-$i.txt 2>&1
  echo "keep $i: $(q < $R/keep-$i.txt | s) | again: $(grep 'timed again' $R/keep-$i.txt | cut -d: -f2)"
  echo "pause $i: $(T 90 $B --kind r2c --n $N4 --pauseMs 3000 --label pause --json $R/pause-$i.jsonl 2>&1 | q | s)"
  echo "plain $i: $(T 90 $B --kind r2c --n $N4 --label plain --json $R/plain-$i.jsonl 2>&1 | q | s)"
done
T 90 $B --kind r2c --sizes 22-27 --keep --label keep-sizes --json $R/keep-sizes.jsonl > $R/keep-sizes.txt 2>&1
echo "keep sizes: $(q < $R/keep-sizes.txt | s) | again: $(grep 'timed again' $R/keep-sizes.txt | cut -d: -f2)"
echo done
