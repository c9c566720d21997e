#!/usr/bin/env bash
# The table of C2C lengths that are not powers of two in BENCHMARKS.md after the merged radices (twos packed
# with odd factors, sweep43) and the two-pass rule of sweep41 (bench/results/2026-11-24-h200-final31): ours,
# the kernels of commit df5f793 (.gpu/bench-fft-old.mjs) and cuFFT in one run, two alternating rounds; R2C at
# small lengths with twos and odd factors, ours and df5f793. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs,
# .gpu/cufft_extra.py. Writes $OUT/final31.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final31.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
L=12,100,500,1000,1500,2187,6561,59049,78125,102400,117649,177147,230400,1009,4099
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "new $i: $(T 90 $F --kind c2c --n $L --json $R/c2c-odd-$i.jsonl 2>&1 | q | s)"
  echo "old $i: $(T 90 $H --kind c2c --n $L --label old --json $R/c2c-odd-old-$i.jsonl 2>&1 | q | s)"
done
echo "r2c new: $(T 60 $F --kind r2c --n 12,100,192,500,1000,1500,6000 --json $R/r2c-small.jsonl 2>&1 | q | s)"
echo "r2c old: $(T 60 $H --kind r2c --n 12,100,192,500,1000,1500,6000 --label old --json $R/r2c-small-old.jsonl 2>&1 | q | s)"
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o['N'], round(o['ms'],3))
"
echo done
