#!/usr/bin/env bash
# The 16384-point single-workgroup FFT ('split4' exchange) against the kernels before it (commit 3528efb,
# .gpu/bench-fft-head.mjs), which ran 16384 in two passes: C2C 2^13 … 2^15, R2C / DHT / DCT-II 2^14 … 2^16
# (half-lengths 8192 … 32768). Two passes alternating processes. Writes $OUT/sweep27.tgz.
# Result: one pass lost to two (C2C 16384: 1.44 against 1.25 ms; R2C 2^15: 0.821 against 0.795; DHT 2^15:
# 0.850 against 0.867; DCT-II 0.90 against 0.89), so 'split4' is only an option.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep27.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s %s | ", $1, $(NF-4), $3 }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind c2c --sizes 13-14 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for b in head new; do
    B=.gpu/bench-fft.mjs; [ $b = head ] && B=.gpu/bench-fft-head.mjs
    for k in c2c r2c dht dct2; do
      s=14-16; [ $k = c2c ] && s=13-15
      echo "== $k $b $pass: $(timeout 100 node $B --kind $k --sizes $s --breakdown --label $b --json $R/$k-$b-$pass.jsonl 2>&1 | q)"
    done
  done
done
