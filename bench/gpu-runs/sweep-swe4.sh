#!/usr/bin/env bash
# Shallow-water kernel sweep 4 (issue #8): the halo update with its x- and y-edges split over two
# slices of invocations (edgeSplit, T×T×2 workgroups) against one invocation computing both, per-kernel
# breakdown included. The split (one edge flux an invocation, T×T×2 workgroups) measured much slower
# (4096² update 0.724 ms against 0.491) and was removed without being committed, so `:split` no longer
# parses; the results are in bench/results/2026-11-22-h200-sweep-swe4. Bundle bench/shallow-water.ts as .gpu/bench-swe.mjs, then
# `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe4.sh`. Writes $OUT/swe-sweep4-*.jsonl.
set -u
: "${OUT:?set OUT to the output folder}"
for pass in 1 2; do
  echo "== pass $pass"
  timeout 150 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 \
    --variants halo:16,halo:16:pair:split,halo:12:pair:split,halo:20:pair:split,halo:16:f32:split \
    --out "$OUT/swe-sweep4-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
done
