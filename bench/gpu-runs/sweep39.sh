#!/usr/bin/env bash
# C2C lengths with odd factors: odd prime factors grouped into composite odd radices of at most 16 or 27
# points (planner option maxOddRadix: 3^10 as 9·9·3 | 9·9·3 or 27·9 | 27·9, 3^8 in one workgroup as 9·9·9·9,
# 5^7 as 25·25 | 25·5) against one stage a prime factor (0, the rule before), two alternating rounds, and
# cuFFT. Needs .gpu/bench-fft.mjs and .gpu/cufft_extra.py. Writes $OUT/sweep39.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep39.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"; L=1000,3000,2187,6561,15625,59049,78125,177147,1009,4099
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  for m in 0 16 27; do
    echo "odd $m round $i: $(T 90 $F --kind c2c --n $L --maxOddRadix $m --label odd$m --json $R/odd$m-$i.jsonl 2>&1 | q | s)"
  done
done
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o['N'], round(o['ms'],3))
"
echo done
