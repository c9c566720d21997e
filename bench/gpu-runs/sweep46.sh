#!/usr/bin/env bash
# A 2048-point first pass (16·16·8, 4 columns) where it saves a pass that 512 and 1024 cannot (option
# --longFirstMax 2048): C2C 2^19 = 2048·256 (default 1024·512), 2^27 = 2048·256·256 (default 1024·512·256),
# R2C / DHT / DCT-II 2^20 (half-length 2^19: two passes instead of three), against the defaults in alternating
# processes; then C2C 2^27 with it checked against the float64 CPU FFT. Result: slower everywhere (C2C 2^19
# 1.64 → 1.72 ms, 2^27 2.45 → 2.49, R2C 2^20 0.98 → 1.03, DHT 1.00 → 1.05). Needs .gpu/bench-fft.mjs.
# Writes $OUT/sweep46.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep46.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $3, $(NF-4), $NF}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for i in 1 2; do
  for v in default f2048; do
    x=""; [ $v = f2048 ] && x="--longFirstMax 2048"
    echo "c2c $v $i: $(T 60 $B --kind c2c --n 524288,134217728 $x --label $v --json $R/c2c-$v-$i.jsonl 2>&1 | q | s)"
    for k in r2c dht dct2; do
      echo "$k $v $i: $(T 60 $B --kind $k --sizes 20 $x --label $v --json $R/$k-$v-$i.jsonl 2>&1 | q | s)"
    done
  done
done
T 200 $B --kind c2c --sizes 27 --longFirstMax 2048 --reps 2 --checkMax 27 --label check --json $R/check-c2c.jsonl 2>&1 | q | tail -2
echo done
