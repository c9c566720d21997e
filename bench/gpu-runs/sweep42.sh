#!/usr/bin/env bash
# Single-workgroup C2C of 2^a·5^b lengths with balanced composite radices (every stage the same number of
# butterflies: 1000 = 10·10·10 on 100 invocations, 500 = 10·10·5, 2000 = 20·10·10, 100 = 10·10, 3000 =
# 30·10·10) against the planner's radices (1000 = 8·5·5·5 on 125 invocations, some idle in the radix-5
# stages), two alternating rounds (planner option radices). Needs .gpu/bench-fft.mjs. Writes $OUT/sweep42.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep42.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $4, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"
T 60 $F --kind c2c --n 1000 --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "default $i: $(T 60 $F --kind c2c --n 100,500,1000,2000,3000 --label default --json $R/default-$i.jsonl 2>&1 | q | s)"
  for v in 100:10.10 500:10.10.5 1000:10.10.10 2000:20.10.10 3000:30.10.10 1000:20.10.5 1000:10.20.5; do
    n=${v%%:*}; r=${v#*:}
    echo "$n $r $i: $(T 60 $F --kind c2c --n $n --radices $r --label r$r --json $R/r$n-$r-$i.jsonl 2>&1 | q | s)"
  done
done
echo done
