#!/usr/bin/env bash
# (1) R2C / DHT / DCT-II N = 2^8 … 2^11 with --maxRadix 32 (half-length 512 = 32·16: two stages and a
# paired last stage without the re-split 16·16·2) against the defaults. (2) Strided tridiagonal N = 2^9 …
# 2^13: radix-4 exchange steps (--radix 4), 8 rows an invocation, and both, against the defaults (radix 2,
# 4 rows). Two passes alternating. Needs .gpu/bench-fft.mjs and .gpu/bench-tridiagonal.mjs. Writes
# $OUT/sweep28.tgz.
# Result: both slower (R2C 1024: 0.354 against 0.314 ms; tridiagonal 2048: 69k / 71k / 68k against 76k
# Mrows/s); the defaults stay.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep28.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 8-9 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default r32; do
    x=""; [ $v = r32 ] && x="--maxRadix 32"
    for k in r2c dht dct2; do
      echo "== $k $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind $k --sizes 8-11 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
  for v in default r4 rpt8 r4rpt8; do
    x=""; case $v in r4) x="--radix 4";; rpt8) x="--rows-per-thread 8";; r4rpt8) x="--radix 4 --rows-per-thread 8";; esac
    echo "== tri $v $pass"
    timeout 90 node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 9-13 $x --label $v --out $R/tri-$v-$pass.jsonl 2>&1 | grep '^strided' | awk '{print $3, $5, $6, $8}' | tr '\n' ' '; echo
  done
done
