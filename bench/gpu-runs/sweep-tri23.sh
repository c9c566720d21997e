#!/usr/bin/env bash
# Strided tridiagonal N = 4 … 2^14: direct rows (each invocation loads and stores its own rows as vec4s, no
# staging through workgroup memory; whole systems up to --direct-max rows in one workgroup) against the
# staged kernels (--no-direct, byte-identical to those before), and direct with 8 rows an invocation and
# with 256 / 512-row workgroups for small systems. Two passes, variants alternating.
# Needs .gpu/bench-tridiagonal.mjs. Writes $OUT/sweep-tri23.tgz.
# Result (Mrows/s): direct beat staged everywhere (N = 4 165k → 190k, 1024 114k → 151k, 2048 77.6k → 128k,
# 4096 68.3k → 96.6k); 8 rows an invocation more so from 256 rows (1024 197k, 2048 183k, 4096 165k) but not
# below (128: 171k against 197k); whole systems in one workgroup beat partitioning at 8192 (128k against
# 68.3k) and 16384 (89.8k against 64.8k).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep-tri23.tgz" -C "$R" .' EXIT
B="node .gpu/bench-tridiagonal.mjs --layouts strided"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
for pass in 1 2; do
  for v in staged direct rpt8 t256 t512 dmax8k dmax16k; do
    x="--sizes 2-14"
    case $v in
      staged) x="$x --no-direct";;
      rpt8) x="$x --rows-per-thread 8";;
      t256) x="--sizes 2-10 --target-rows 256";;
      t512) x="--sizes 2-10 --target-rows 512";;
      dmax8k) x="--sizes 13 --direct-max 8192";;
      dmax16k) x="--sizes 13-14 --direct-max 16384";;
    esac
    echo "== $v $pass"
    timeout 90 $B $x --label $v --out $R/$v-$pass.jsonl 2>&1 | grep '^strided' | awk '{print $3, $8}' | tr '\n' ' '; echo
  done
done
