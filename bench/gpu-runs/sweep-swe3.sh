#!/usr/bin/env bash
# Shallow-water kernel sweep 3 (issue #8): the halo kernels with all loads issued before any branch and
# the tile max in two levels (two barriers instead of log2 N), against the previous codegen
# (.gpu/bench-swe-head.mjs, commit edc4c56 with this bench), per-kernel breakdown included.
# Bundle bench/shallow-water.ts as .gpu/bench-swe.mjs, then
# `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe3.sh`. Writes $OUT/swe-sweep3-*.jsonl.
set -u
: "${OUT:?set OUT to the output folder}"
for pass in 1 2; do
  for b in head new; do
    f=.gpu/bench-swe.mjs; V=halo:16,halo:32,staged:16x16,halo:16:f32
    [ $b = head ] && { f=.gpu/bench-swe-head.mjs; V=halo:16; }
    echo "== $b pass $pass"
    timeout 120 node $f --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --variants $V --out "$OUT/swe-sweep3-$b-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
  done
done
