#!/usr/bin/env bash
# final39.sh again after the later 1024-point pass of C2C 2^20 took 4 columns (final41-extra: 1.61 → 1.50 ms),
# with the kernels of commit c2e6f89 as the previous kernels (.gpu/bench-fft-old.mjs built from it, as in
# final41). Then, two alternating rounds of C2C 2^21 in two passes, 1024·2048, with the 2048-point pass in 2
# columns (16 KiB, 16-byte runs; in 4 columns, 32 KiB, it lost in sweep58: 1.81 against 1.76 ms).
# Writes $OUT/final42.tgz and $OUT/final42-extra.tgz; `final42.sh extras` runs the extras alone.
set -u
: "${OUT:?set OUT to the output folder}"
[ "${1:-}" = extras ] || RUN=final42 bash "$(dirname "$0")/final39.sh"
R=$(mktemp -d)
trap 'tar czf "$OUT/final42-extra.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
for round in 1 2; do
  timeout 60 $B --kind c2c --sizes 21 --label default --json $R/c2c-21-default-$round.jsonl > /dev/null 2>&1
  timeout 60 $B --kind c2c --sizes 21 --minCols 2 --longFirstRest 2048 --label two-pass-2cols --json $R/c2c-21-two-pass-2cols-$round.jsonl > /dev/null 2>&1
done
echo extras done
