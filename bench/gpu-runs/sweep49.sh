#!/usr/bin/env bash
# Radix 32 in every pass (--maxRadix 32) against the defaults (radix 16 but for the long first passes, the
# single-workgroup 8192 and the N-D column passes of ≥ 512 points), C2C and R2C 2^12 … 2^27, two alternating
# rounds, with --breakdown (each kernel of a plan timed alone). Result: no size moved beyond noise but 8192
# (32·16·16 again with an explicit maxRadix: 0.84 against 0.82 ms). Needs .gpu/bench-fft.mjs. Writes $OUT/sweep49.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep49.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"
for i in 1 2; do
  for k in c2c r2c; do
    echo "$k default $i: $(T 120 $B --kind $k --sizes 12-27 --breakdown --json $R/$k-default-$i.jsonl 2>&1 | q | grep -v ' ms, ' | s)"
    echo "$k r32 $i: $(T 120 $B --kind $k --sizes 12-27 --maxRadix 32 --breakdown --label r32 --json $R/$k-r32-$i.jsonl 2>&1 | q | grep -v ' ms, ' | s)"
  done
done
echo done
