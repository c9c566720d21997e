#!/usr/bin/env bash
# The 2-D table of BENCHMARKS.md after the radix-32 column passes (sweep47) and 8 columns for 512 points (sweep50): ours, the kernels of commit
# 9204918 (.gpu/bench-fft-old.mjs) and cuFFT in one run, 256² … 4096² (2^27 elements each), two alternating
# rounds. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/cufft_extra.py. Writes $OUT/final38.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final38.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
S=256x256,512x512,1024x1024,2048x2048,4096x4096
for i in 1 2; do
  echo "new $i: $(T 90 $B --kind c2c --shape2d $S --json $R/c2c-2d-$i.jsonl 2>&1 | q | s)"
  echo "old $i: $(T 90 $H --kind c2c --shape2d $S --label old --json $R/c2c-2d-old-$i.jsonl 2>&1 | q | s)"
done
T 200 python3 .gpu/cufft_extra.py --total 27 --shape2d $S > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o.get('shape',''), round(o['ms'],3))
" | tr '\n' ';'; echo
echo done
