#!/usr/bin/env bash
# Shallow-water kernel sweep 5 (issue #8): the halo update with a column of K cells per invocation
# (rows = K: tiles of T × T·K cells on T×T invocations), per-kernel breakdown included.
# Bundle bench/shallow-water.ts as .gpu/bench-swe.mjs, then
# `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe5.sh`. Writes $OUT/swe-sweep5-*.jsonl.
set -u
: "${OUT:?set OUT to the output folder}"
for pass in 1 2; do
  echo "== pass $pass"
  timeout 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 \
    --variants halo:16,halo:16:pair:r2,halo:16:pair:r4,halo:8:pair:r4,halo:8:pair:r8,halo:32:pair:r2,halo:16:f32:r2 \
    --out "$OUT/swe-sweep5-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
done
