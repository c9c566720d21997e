#!/usr/bin/env bash
# The R2C, DCT-II and DHT tables of BENCHMARKS.md after the 64-column fused last pass (sweep65, on an H100):
# final39.sh with ONLY=real, i.e. ours, the kernels of commit 565ee95 (.gpu/bench-fft-old.mjs: 32 columns) and
# the anchors in one run, the anchors twice (as before, and warmed up for 300 ms like ours). C2C, 2-D and the
# other lengths run the same kernels as in final44 and are not repeated. `final45.sh extras` instead: DHT and
# R2C at the sizes whose last pass changed, one size a process, ours and 565ee95's alternating, two rounds.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/anchor_cufft.py, .gpu/cufft_extra.py.
# Writes $OUT/final45.tgz (or $OUT/final45-extra.tgz).
set -u
: "${OUT:?set OUT to the output folder}"
[ "${1:-}" = extras ] || { RUN=final45 ONLY=real bash "$(dirname "$0")/final39.sh"; exit; }
R=$(mktemp -d)
trap 'tar czf "$OUT/final45-extra.tgz" -C "$R" .' EXIT
for round in 1 2; do
  for l in 15 16 17 20 22 24; do
    for kind in dht r2c; do
      for X in new old; do
        P="node .gpu/bench-fft.mjs"; [ $X = old ] && P="node .gpu/bench-fft-old.mjs"
        timeout 60 $P --kind $kind --sizes $l --checkMax 0 --label $X --json $R/$kind-$l-$X-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $X $kind /"
      done
    done
  done
done
echo extras done
