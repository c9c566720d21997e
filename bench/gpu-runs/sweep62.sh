#!/usr/bin/env bash
# Multi-pass plans block by block (WebGpuFftOptions.l2Block, bench flag --block MiB [--ring]): every pass of
# one block of problems, then the next, so a pass reads its predecessor's output from the 50 MB L2. C2C
# 2^14 … 2^21 with blocks of 4 … 64 MiB of intermediate, full-size and one-block ring scratch, against the
# default (pass by pass); R2C and DHT 2^15 … 2^20 with the blocks C2C liked. Bundle: .gpu/bench-fft.mjs from
# commit d912253 (the option was removed after this run: every block size lost).
# Writes $OUT/sweep62.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep62.tgz" -C "$R" .' EXIT
B="node .gpu/bench-fft.mjs"
run() { # label kind sizes flags...
  local label=$1 kind=$2 sizes=$3; shift 3
  timeout 120 $B --kind $kind --sizes $sizes --checkMax 20 --label $label "$@" --json $R/$kind-$label.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$kind $label /" 
}
for round in 1 2; do
  run default-$round c2c 14-21
  for mb in 4 8 16 32 64; do
    run ring$mb-$round c2c 14-21 --block $mb --ring
  done
  run full16-$round c2c 14-21 --block 16
  run full64-$round c2c 14-21 --block 64
done
for kind in r2c dht; do
  run default $kind 15-20
  for mb in 8 16 32; do run ring$mb $kind 15-20 --block $mb --ring; done
done
echo done
