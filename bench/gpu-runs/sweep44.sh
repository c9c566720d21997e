#!/usr/bin/env bash
# (1) The long first pass where it saves a fourth pass (C2C 2^25 = 512·256·256, 2^26 = 1024·256·256, 2^27 =
# 1024·512·256; R2C/DHT half-lengths alike) against the kernels of commit 9204918 (.gpu/bench-fft-old.mjs)
# in alternating processes, with cuFFT in the same run; the first pass at 4 columns as a side option.
# (2) bench/l2-probe.ts: a two-pass FFT's data movement fused into one kernel whose intermediate stays in a
# small L2-resident scratch area, against the same movement in two dispatches and a device copy.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/bench-l2-probe.mjs. Writes $OUT/sweep44.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep44.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
F="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
T 120 node .gpu/bench-l2-probe.mjs --n 64x64,128x128,256x128,256x256,512x256 --scratchMB 4,8,16,32 --json $R/l2-probe.jsonl 2>&1 | q
T 60 $F --kind c2c --sizes 25 --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "c2c new $i: $(T 90 $F --kind c2c --sizes 22-27 --json $R/c2c-$i.jsonl 2>&1 | q | s)"
  echo "c2c old $i: $(T 90 $H --kind c2c --sizes 22-27 --label old --json $R/c2c-old-$i.jsonl 2>&1 | q | s)"
done
echo "c2c first4: $(T 90 $F --kind c2c --sizes 25-27 --firstCols 4 --label first4 --json $R/c2c-first4.jsonl 2>&1 | q | s)"
for i in 1 2; do
  echo "r2c new $i: $(T 90 $F --kind r2c --sizes 24-27 --json $R/r2c-$i.jsonl 2>&1 | q | s)"
  echo "r2c old $i: $(T 90 $H --kind r2c --sizes 24-27 --label old --json $R/r2c-old-$i.jsonl 2>&1 | q | s)"
done
echo "dht new: $(T 90 $F --kind dht --sizes 24-27 --json $R/dht.jsonl 2>&1 | q | s)"
echo "dht old: $(T 90 $H --kind dht --sizes 24-27 --label old --json $R/dht-old.jsonl 2>&1 | q | s)"
echo "dct2 new: $(T 90 $F --kind dct2 --sizes 24-27 --json $R/dct2.jsonl 2>&1 | q | s)"
echo "dct2 old: $(T 90 $H --kind dct2 --sizes 24-27 --label old --json $R/dct2-old.jsonl 2>&1 | q | s)"
T 120 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 22-27 > $R/cufft-c2c.jsonl 2>$R/cufft-c2c.err
T 120 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 24-27 > $R/cufft-r2c.jsonl 2>$R/cufft-r2c.err
T 120 python3 .gpu/cufft_extra.py --total 27 --r2r 24-27 > $R/cufft-r2r.jsonl 2>$R/cufft-r2r.err
python3 -c "
import json
for f in ['cufft-c2c','cufft-r2c','cufft-r2r']:
  for l in open('$R/'+f+'.jsonl'):
    try: o=json.loads(l); print(f, o.get('kind',''), o.get('N'), round(o['ms'],3))
    except Exception: pass
"
echo done
