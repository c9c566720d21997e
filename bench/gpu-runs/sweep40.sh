#!/usr/bin/env bash
# Composite odd radices split into their prime factors in registers (dft-small emitSplit: a 27-point butterfly
# as three levels of 3-point ones with folded twiddles) instead of the O(r²) symmetric-pair sums: this build
# with maxOddRadix 16 (default), 25 and 27, against the build before (commit HEAD of that time,
# .gpu/bench-fft-head.mjs, odd radices ≤ 16 by the symmetric-pair sums), two alternating rounds, and cuFFT.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-head.mjs, .gpu/cufft_extra.py. Writes $OUT/sweep40.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep40.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-head.mjs"
L=1000,3000,2187,6561,15625,59049,78125,177147,4099,2401,117649,6000
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "head $i: $(T 90 $H --kind c2c --n $L --label head --json $R/head-$i.jsonl 2>&1 | q | s)"
  for m in 16 25 27; do
    echo "split $m $i: $(T 90 $F --kind c2c --n $L --maxOddRadix $m --label split$m --json $R/split$m-$i.jsonl 2>&1 | q | s)"
  done
done
echo "== r2c / dct2 at odd-factor lengths (default of each build)"
for k in r2c dct2; do
  echo "$k head: $(T 60 $H --kind $k --n 1000,2000,6000,6561,59049 --label head --json $R/$k-head.jsonl 2>&1 | q | s)"
  echo "$k new:  $(T 60 $F --kind $k --n 1000,2000,6000,6561,59049 --json $R/$k-new.jsonl 2>&1 | q | s)"
done
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o['N'], round(o['ms'],3))
"
echo done
