#!/usr/bin/env bash
# C2C lengths that are not powers of two, in two passes where the later pass may be up to longFirstRest (512)
# points instead of 256 (270·270, 300·300, 320·320, 343·343, 350·350, 480·480, 500·500, 800·500, 768·512)
# against three passes (--longFirstRest 256, the rule before for these lengths), two alternating rounds, and
# cuFFT. Needs .gpu/bench-fft.mjs, .gpu/cufft_extra.py. Writes $OUT/sweep41.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep41.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"
L=72900,90000,102400,117649,122500,230400,250000,400000,393216
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "two $i: $(T 90 $F --kind c2c --n $L --label two --json $R/two-$i.jsonl 2>&1 | q | s)"
  echo "three $i: $(T 90 $F --kind c2c --n $L --longFirstRest 256 --label three --json $R/three-$i.jsonl 2>&1 | q | s)"
done
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o['N'], round(o['ms'],3))
"
echo done
