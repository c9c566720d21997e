#!/usr/bin/env bash
# The run behind BENCHMARKS.md's C2C tables (powers of two, other lengths, 2-D; bench/results/
# 2026-11-22-h200-final21), after the split exchange from n = 128: ours (once before in a process of its
# own, then the table's pass), the kernels at the start of that work (.gpu/bench-fft-s0.mjs, commit
# 1565ad7) and cuFFT, in one run. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-s0.mjs, .gpu/anchor_cufft.py,
# .gpu/cufft_extra.py. Writes $OUT/final21.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final21.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-s0.mjs"
T 60 $B --kind c2c --sizes 2-16 --json $R/c2c-1.jsonl 2>&1 | q | s
T 150 $B --kind c2c --sizes 1-27 --json $R/c2c-2.jsonl 2>&1 | q | s
T 150 $H --kind c2c --sizes 1-27 --label old --json $R/c2c-old.jsonl 2>&1 | q | s
T 60 $B --kind c2c --n 1000,59049,78125,1009,4099 --json $R/c2c-odd.jsonl 2>&1 | q | s
T 60 $B --kind c2c --shape2d 1024x1024,4096x4096,256x256 --json $R/c2c-2d.jsonl 2>&1 | q | s
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --c2c 1000,59049,78125,1009,4099 --shape2d 1024x1024,4096x4096,256x256 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo done
