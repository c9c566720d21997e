#!/usr/bin/env bash
# (1) Single-workgroup R2C / DHT / DCT-II, N = 2^2 … 2^11: outputs staged through workgroup memory and
# written by a coalesced copy (--stageOut true), against direct stores (--stageOut false, the kernels
# before) and the default rule (staged where an invocation's stores cover < 32 bytes).
# (2) Multi-pass R2C / DHT, fused last pass with 32 columns (16 mirror pairs, 128-byte runs: --lastCols 32)
# against the default 16; N = 2^15, 2^16, 2^18 … 2^24 (2^17's 256-point last pass does not fit 32 columns).
# Two passes alternating the variants. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep26.tgz.
# Result: staged outputs won where the stores were shorter than a sector (DHT 64: 0.595 → 0.341 ms, DCT-II
# 64: 0.547 → 0.364) and lost 5–30% from N = 128 on (the default rule stages only the former); 32
# columns in the fused last pass were 1–5% slower than 16.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep26.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 6-8 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default staged direct; do
    x=""; case $v in staged) x="--stageOut true";; direct) x="--stageOut false";; esac
    for k in dht dct2 r2c; do
      echo "== $k $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind $k --sizes 2-11 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
  for v in default c32; do
    x=""; [ $v = c32 ] && x="--lastCols 32"
    for k in r2c dht; do
      echo "== $k $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind $k --sizes 15,16,18-24 --breakdown --label $v $x --json $R/mp-$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
