#!/usr/bin/env bash
# DCT-II 2^27 read 1.49 ms in final41 and final42 and 2.84 in final43 against 1.34–1.35 for commit c2e6f89's
# kernels (padded rows): three alternating rounds of DCT-II 2^25 … 2^27 with the default (swizzled rows but the
# fused last pass), every pass padded (--passLayout padded), and R2C 2^27 (the same passes without the
# Makhoul gather) as a control. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep61.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep61.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
for round in 1 2 3; do
  for v in swizzled padded; do
    timeout 60 $B --kind dct2 --sizes 25-27 --checkMax 0 --breakdown --passLayout $v --label $v --json $R/dct2-$v-$round.jsonl 2>&1 | grep ' ms,'
    timeout 60 $B --kind r2c --sizes 27 --checkMax 0 --passLayout $v --label $v --json $R/r2c-$v-$round.jsonl > /dev/null 2>&1
  done
done
echo done
