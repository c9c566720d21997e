#!/usr/bin/env bash
# Shallow-water kernel sweep 2 (issue #8): per-kernel breakdown (cfl / reduce / update alone) of the halo
# kernels before (edge physics with per-edge divisions, .gpu/bench-swe-head.mjs: commit edc4c56's codegen
# with this bench) and after (cells staged once per invocation, reciprocal edge form), tiles 16 and 32.
# Bundle bench/shallow-water.ts as .gpu/bench-swe.mjs (and the previous codegen as bench-swe-head.mjs),
# then `source .gpu/setup.sh && bash bench/gpu-runs/sweep-swe2.sh`. Writes $OUT/swe-sweep2-*.jsonl.
set -u
: "${OUT:?set OUT to the output folder}"
V=halo:16,halo:32,staged:16x16
for pass in 1 2; do
  for b in head new; do
    f=.gpu/bench-swe.mjs; [ $b = head ] && f=.gpu/bench-swe-head.mjs
    echo "== $b pass $pass"
    timeout 120 node $f --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --variants $V --out "$OUT/swe-sweep2-$b-$pass.jsonl" 2>&1 | grep -v -e Warning -e BackendVk -e '^$' -e 'at operator'
  done
done
