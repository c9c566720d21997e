#!/usr/bin/env bash
# The single-workgroup 4096-point transforms with one vec2 exchange round (--exchange complex: 2 barriers an
# exchange instead of 4, twice the workgroup memory) against the default split exchange: C2C 4096 and the
# half-length 4096 of R2C / DHT / DCT-II 8192; also C2C 2048 and R2C 4096. Three alternating rounds.
# Result: much slower everywhere (C2C 4096 0.63 → 0.86–0.87 ms, 2048 0.52 → 0.77; R2C 8192 0.35–0.36 → 0.47):
# the split exchange stays.
# Needs .gpu/bench-fft.mjs. Writes $OUT/sweep51.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep51.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for i in 1 2 3; do
  for v in split complex; do
    x=""; [ $v = complex ] && x="--exchange complex"
    echo "c2c $v $i: $(T 60 $B --kind c2c --n 2048,4096 $x --label $v --json $R/c2c-$v-$i.jsonl 2>&1 | q | s)"
    for k in r2c dht dct2; do
      echo "$k $v $i: $(T 60 $B --kind $k --n 4096,8192 $x --label $v --json $R/$k-$v-$i.jsonl 2>&1 | q | s)"
    done
  done
done
echo done
