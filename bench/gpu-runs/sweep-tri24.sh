#!/usr/bin/env bash
# Tridiagonal, after sweep-tri23 made direct rows the default (8 rows an invocation from 256 rows, whole
# systems up to 16384 rows): interleaved N = 4 … 16 with four systems an invocation as vec4 lanes (default)
# against one (--thomas-lanes 1); strided 16 rows an invocation from 1024 rows; 256-row workgroups for small
# strided systems. Two passes, variants alternating. Needs .gpu/bench-tridiagonal.mjs (commit 8154ab5's
# bench with --thomas-lanes). Writes $OUT/sweep-tri24.tgz.
# Result: lanes gained nothing (interleaved N = 4, 8: 197k either way; 16: 171k against 190k) and were removed;
# 16 rows an invocation won at 4096 (177k against 165k) and 8192 (131k against 128k), lost 4% at 1024 and
# 2048; 256-row workgroups won at N = 8 … 64 (N = 16, 32: 205k against 190–197k). Both now defaults.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep-tri24.tgz" -C "$R" .' EXIT
B="node .gpu/bench-tridiagonal.mjs"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
for pass in 1 2; do
  for v in il4 il1 strided rpt16 t256; do
    case $v in
      il4) x="--layouts interleaved --sizes 2-4";;
      il1) x="--layouts interleaved --sizes 2-4 --thomas-lanes 1";;
      strided) x="--layouts strided --sizes 2-14";;
      rpt16) x="--layouts strided --sizes 10-13 --rows-per-thread 16";;
      t256) x="--layouts strided --sizes 2-7 --target-rows 256";;
    esac
    echo "== $v $pass"
    timeout 90 $B $x --label $v --out $R/$v-$pass.jsonl 2>&1 | grep '^strided\|^interleaved' | awk '{print $3, $8}' | tr '\n' ' '; echo
  done
done
