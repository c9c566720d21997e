#!/usr/bin/env bash
# The C2C power-of-two table of BENCHMARKS.md after the radix-32 stage order of the single-workgroup 8192
# (32·32·8, final34's side sweep): ours, the kernels of commit 9204918 (.gpu/bench-fft-old.mjs) and cuFFT in one
# run; then DCT-II and DHT at 2^26 and 2^27 (three passes since the long first pass) checked against the
# float64 CPU transforms (--checkMax 27). Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs,
# .gpu/anchor_cufft.py. Writes $OUT/final35.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final35.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
echo "== warm: $(T 60 $B --kind c2c --sizes 12-17 --json $R/c2c-1.jsonl 2>&1 | q | s)"
echo "c2c new: $(T 150 $B --kind c2c --sizes 1-27 --json $R/c2c-2.jsonl 2>&1 | q | s)"
echo "c2c old: $(T 150 $H --kind c2c --sizes 1-27 --label old --json $R/c2c-old.jsonl 2>&1 | q | s)"
echo "c2c 8192 again, new / old: $(T 30 $B --kind c2c --n 8192 --json $R/c2c-8192-3.jsonl 2>&1 | q | s) / $(T 30 $H --kind c2c --n 8192 --label old --json $R/c2c-8192-old-3.jsonl 2>&1 | q | s)"
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
echo "== checks against the float64 CPU transforms"
for k in dct2 dht; do
  T 280 $B --kind $k --sizes 26-27 --reps 2 --checkMax 27 --label check --json $R/check-$k.jsonl 2>&1 | q | tail -3
done
echo done
