#!/usr/bin/env bash
# Shallow-water kernel sweep 6 (issue #8): the halo cfl kernel on the update's tiles (a column of
# `rows` cells per invocation) against the cfl with one cell per invocation (.gpu/bench-swe-head.mjs,
# commit 4cbd309), per-kernel breakdown included. Bundle bench/shallow-water.ts as .gpu/bench-swe.mjs, then
# `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe6.sh`. Writes $OUT/swe-sweep6-*.jsonl.
# As run, the bench's --variants parser gave `halo:16` one row (not the default two) in both bundles,
# so its results compare one row with one row (head, new) and three rows with one (r3: cfl 0.203 →
# 0.154 ms at 4096², update 0.487 → 0.529); the parser was fixed after it and sweep-swe7 separates the rows.
set -u
: "${OUT:?set OUT to the output folder}"
for pass in 1 2; do
  for b in head new; do
    f=.gpu/bench-swe.mjs; V=halo:16,halo:16:pair:r1,halo:16:pair:r3,halo:16:f32
    [ $b = head ] && { f=.gpu/bench-swe-head.mjs; V=halo:16; }
    echo "== $b pass $pass"
    timeout 120 node $f --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --variants $V --out "$OUT/swe-sweep6-$b-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
  done
done
