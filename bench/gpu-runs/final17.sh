#!/usr/bin/env bash
# The run behind BENCHMARKS.md's C2C (powers of two), R2C, DCT-II and DHT tables (bench/results/
# 2026-11-22-h200-final17): the session's kernels, the previous ones (.gpu/bench-fft-old.mjs: commit
# edc4c56) and the anchors (cuFFT C2C and R2C, cuFFT R2C + CuPy post-processing kernels) in one run.
# Each kind runs once before (pass 1, a shorter range) in a process of its own; the tables use pass 2
# (in final15 the first process of a kind read up to 1.5× slow at some sizes).
# Bundles as in README.md here; anchor_cufft.py and bench/cufft_extra.py copied to .gpu/.
# Writes everything into $OUT/final17.tgz (written on exit, also after a timeout).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final17.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
echo "== pass 1"
for k in c2c r2c dct2 dht; do T 60 $B --kind $k --sizes 2-16 --json $R/$k-1.jsonl 2>&1 | q | s; done
echo "== pass 2"
T 150 $B --kind c2c --sizes 1-27 --json $R/c2c-2.jsonl 2>&1 | q | s
T 150 $B --kind r2c --sizes 2-27 --json $R/r2c-2.jsonl 2>&1 | q | s
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2-2.jsonl 2>&1 | q | s
T 60 $B --kind dht --sizes 2-20 --json $R/dht-2.jsonl 2>&1 | q | s
echo "== previous kernels"
T 120 $H --kind c2c --sizes 13-27 --label old --json $R/c2c-old.jsonl 2>&1 | q | s
T 120 $H --kind r2c --sizes 2-27 --label old --json $R/r2c-old.jsonl 2>&1 | q | s
for k in dct2 dht; do T 60 $H --kind $k --sizes 2-20 --label old --json $R/$k-old.jsonl 2>&1 | q | s; done
echo "== anchors"
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
echo done
