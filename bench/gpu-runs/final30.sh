#!/usr/bin/env bash
# The tridiagonal table of BENCHMARKS.md after status by store where one invocation holds a whole system
# (bench/results/2026-11-24-h200-final30): ours, cuSPARSE, the kernels of commit df5f793 (previous kernels,
# timed by the same bench script) and a second pass of ours, then alternating fresh processes at N = 4 … 32.
# Then C2C lengths that are not powers of two (odd radices of up to 16 points, first passes of up to 1024
# points) against the kernels of df5f793 and cuFFT, and C2C 2^10 … 2^20 of both as a check that the powers of
# two did not move. Needs .gpu/bench-tridiagonal.mjs, .gpu/bench-tridiagonal-old.mjs, .gpu/bench-fft.mjs,
# .gpu/bench-fft-old.mjs, .gpu/anchor_cusparse.py, .gpu/cufft_extra.py. Writes $OUT/final30.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final30.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
S() { q | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
N="node .gpu/bench-tridiagonal.mjs"; O="node .gpu/bench-tridiagonal-old.mjs"
T 60 $N --label warmup --sizes 2-16 > /dev/null 2>&1
echo "== tridiagonal, ours"; T 150 $N --out $R/tri.jsonl 2>&1 | S
echo "== cuSPARSE"; T 120 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $R/cusparse.jsonl; grep -c Mrows $R/cusparse.jsonl
echo "== old (df5f793)"; T 150 $O --label old --out $R/tri-old.jsonl 2>&1 | S
echo "== ours again"; T 150 $N --label repeat --out $R/tri-repeat.jsonl 2>&1 | S
for i in 1 2 3; do
  echo "new $i: $(T 60 $N --sizes 2-5 --label ab-new --out $R/ab-new-$i.jsonl 2>&1 | S)"
  echo "old $i: $(T 60 $O --sizes 2-5 --label ab-old --out $R/ab-old-$i.jsonl 2>&1 | S)"
done
F="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"; L=1000,59049,78125,1009,4099,2187,6561,177147
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
echo "== C2C other lengths"
for i in 1 2; do
  echo "new $i: $(T 60 $F --kind c2c --n $L --json $R/c2c-odd-$i.jsonl 2>&1 | q | s)"
  echo "old $i: $(T 60 $H --kind c2c --n $L --label old --json $R/c2c-odd-old-$i.jsonl 2>&1 | q | s)"
done
echo "== C2C powers of two"
echo "new: $(T 90 $F --kind c2c --sizes 10-20 --json $R/c2c-pow2.jsonl 2>&1 | q | s)"
echo "old: $(T 90 $H --kind c2c --sizes 10-20 --label old --json $R/c2c-pow2-old.jsonl 2>&1 | q | s)"
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err
python3 -c "
import json
for l in open('$R/cufft-extra.jsonl'):
    o=json.loads(l); print(o['N'], round(o['ms'],3))
"
echo done
