#!/usr/bin/env bash
# The tables of C2C lengths that are not powers of two and of 2-D batches, again with the benches' longer
# warm-up (sweep45): ours, the kernels of commit 9204918 (.gpu/bench-fft-old.mjs; the same kernels for these
# shapes, so a second reading) and cuFFT in one run; and the 2-D shapes with radix-32 stages (--maxRadix 32) as
# a side variant. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/cufft_extra.py.
# Writes $OUT/final36.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final36.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
L=12,100,500,1000,1500,2187,6561,59049,78125,102400,117649,177147,230400,1009,4099
S=1024x1024,4096x4096,256x256
T 60 $B --kind c2c --n 1000,4099 --label warm > /dev/null 2>&1
echo "odd new: $(T 150 $B --kind c2c --n $L --json $R/c2c-odd-1.jsonl 2>&1 | q | s)"
echo "odd old: $(T 150 $H --kind c2c --n $L --label old --json $R/c2c-odd-old-1.jsonl 2>&1 | q | s)"
echo "2d new: $(T 90 $B --kind c2c --shape2d $S --json $R/c2c-2d.jsonl 2>&1 | q | s)"
echo "2d old: $(T 90 $H --kind c2c --shape2d $S --label old --json $R/c2c-2d-old.jsonl 2>&1 | q | s)"
echo "2d r32: $(T 90 $B --kind c2c --shape2d $S --maxRadix 32 --label r32 --json $R/c2c-2d-r32.jsonl 2>&1 | q | s)"
T 200 python3 .gpu/cufft_extra.py --total 27 --c2c $L --shape2d $S > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o.get('kind'), o.get('N'), o.get('shape',''), round(o['ms'],3))
" | tr '\n' ';'; echo
echo done
