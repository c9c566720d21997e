#!/usr/bin/env bash
# final39.sh again after the swizzled and rotated rows of multi-pass kernels (planner/row-layout.ts; the fused
# R2C last pass keeps padded rows) and C2C 2^20 in two passes, with the kernels of commit c2e6f89 as the
# previous kernels (.gpu/bench-fft-old.mjs built from it). Then, two alternating rounds: C2C 2^20 with its
# second 1024-point pass in 4 columns (16 KiB) instead of 8 (32 KiB: one workgroup an SM), and 2-D 4096² with
# padded column passes (its 64-point passes now XOR from bit 3, which sweep56 had not measured); and R2C
# 2^15 … 2^27 with the fused last pass in 16 columns, padded and swizzled (does the swizzled 32-column pass
# lose to its third resident workgroup an SM, 16 KiB against 17.5 KiB padded?).
# Writes $OUT/final41.tgz and $OUT/final41-extra.tgz; `final41.sh extras` runs the extras alone (the two
# parts were run as two commands, to stay within the device's 10-minute limit a command).
set -u
: "${OUT:?set OUT to the output folder}"
[ "${1:-}" = extras ] || RUN=final41 bash "$(dirname "$0")/final39.sh"
R=$(mktemp -d)
trap 'tar czf "$OUT/final41-extra.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
for round in 1 2; do
  timeout 60 $B --kind c2c --sizes 20 --label default --json $R/c2c-20-default-$round.jsonl > /dev/null 2>&1
  timeout 60 $B --kind c2c --sizes 20 --lastCols 4 --label lastcols4 --json $R/c2c-20-lastcols4-$round.jsonl > /dev/null 2>&1
  timeout 60 $B --kind c2c --shape2d 4096x4096 --label default --json $R/c2c-2d-default-$round.jsonl > /dev/null 2>&1
  timeout 60 $B --kind c2c --shape2d 4096x4096 --passLayout padded --label padded --json $R/c2c-2d-padded-$round.jsonl > /dev/null 2>&1
  timeout 90 $B --kind r2c --sizes 15-27 --label default --json $R/r2c-default-$round.jsonl > /dev/null 2>&1
  timeout 90 $B --kind r2c --sizes 15-27 --lastCols 16 --label last16 --json $R/r2c-last16-$round.jsonl > /dev/null 2>&1
  timeout 90 $B --kind r2c --sizes 15-27 --lastCols 16 --lastPassLayout swizzled --label last16swz --json $R/r2c-last16swz-$round.jsonl > /dev/null 2>&1
done
echo extras done
