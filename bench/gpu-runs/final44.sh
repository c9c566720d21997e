#!/usr/bin/env bash
# final39.sh after the short last passes (sweep63, sweep64: C2C 2^14 = 256·64 and 2^16 = 1024·64; the fused
# R2C / DHT / DCT-II last pass of 64 points, else 128, from half-lengths 2^14 to 2^24), with the kernels of
# commit f5c2ea7 as the previous kernels (.gpu/bench-fft-old.mjs built from it). The source of BENCHMARKS.md's
# FFT tables. Then the extras: DCT-II, DHT and R2C 2^27 each in a process of its own, ours and f5c2ea7's
# alternating, two rounds (final43 read DCT-II 2^27 at 2.84 ms at the end of a process that had run every
# size from 2^2). Writes $OUT/final44.tgz and $OUT/final44-extra.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
RUN=final44 bash "$(dirname "$0")/final39.sh"
R=$(mktemp -d)
trap 'tar czf "$OUT/final44-extra.tgz" -C "$R" .' EXIT
for round in 1 2; do
  for X in new old; do
    P=".gpu/bench-fft.mjs"; [ $X = old ] && P=".gpu/bench-fft-old.mjs"
    for kind in dct2 dht r2c; do
      timeout 60 node $P --kind $kind --sizes 27 --checkMax 0 --label $X --json $R/$kind-27-$X-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $X $kind /"
    done
  done
done
echo extras done
