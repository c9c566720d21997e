#!/usr/bin/env bash
# The 256-point multi-pass kernels ran at 0.65 of copy against 0.82 for 128-point ones (sweep16): columns
# per workgroup, workgroup size and pass length for C2C 2^15 … 2^16 and R2C 2^16 … 2^17, per-pass breakdown.
# Writes $OUT/sweep17.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep17.tgz" -C "$R" .' EXIT
for pass in 1 2; do
  for v in default c4 c16 wg64 wg256 p128 r8; do
    x=""
    case $v in c4) x="--minCols 4";; c16) x="--minCols 16";; wg64) x="--wg 64";; wg256) x="--wg 256";; p128) x="--maxPass 128";; r8) x="--maxRadix 8";; esac
    for k in c2c r2c; do
      s=15-16; [ $k = r2c ] && s=16-17
      echo "== $k $v $pass"
      timeout 60 node .gpu/bench-fft.mjs --kind $k --sizes $s --breakdown --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | grep -e '^  [0-9]' | grep -v '|'
    done
  done
done
