#!/usr/bin/env bash
# Shallow-water kernel sweep 7 (issue #8): rows per invocation of the halo cfl kernel (cflRows J) with
# the update at two rows, per-kernel breakdown included. Bundle bench/shallow-water.ts as
# .gpu/bench-swe.mjs, then `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe7.sh`.
# Writes $OUT/swe-sweep7-*.jsonl.
set -u
: "${OUT:?set OUT to the output folder}"
for pass in 1 2; do
  echo "== pass $pass"
  timeout 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 \
    --variants halo:16:pair:r2c1,halo:16:pair:r2c2,halo:16:pair:r2c3,halo:16:pair:r2c4,halo:16:pair:r2c6,halo:16:pair:r2c8,halo:8:pair:r2c8,halo:16:f32:r2c4 \
    --out "$OUT/swe-sweep7-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
done
