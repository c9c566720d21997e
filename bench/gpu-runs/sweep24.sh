#!/usr/bin/env bash
# Single-workgroup C2C 2^11 … 2^13 and R2C 2^12 … 2^14: twiddles from the table instead of by recurrence,
# and maxRadix 8 / 64, against the defaults. Two passes. Writes $OUT/sweep24.tgz.
# Result: the defaults stay best (C2C 4096: 0.64 ms against 1.06 table, 0.84 radix 8, 0.99 radix 64).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep24.tgz" -C "$R" .' EXIT
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
for pass in 1 2; do
  for v in default table r8 r64; do
    x=""; case $v in table) x="--twiddles table";; r8) x="--maxRadix 8";; r64) x="--maxRadix 64";; esac
    for k in c2c r2c; do
      s=11-13; [ $k = r2c ] && s=12-14
      echo "== $k $v $pass: $(timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes $s --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
