#!/usr/bin/env bash
# Tridiagonal table after status by store (no status clear before whole-solve levels with one right-hand
# side) and the timing change of bench/tridiagonal.ts (a timestamp span of ≥ 5 ms, ≤ 400 solves, instead of
# 20 solves, so Dawn's ~65 µs timestamp quantum is ≤ ~1.3% of a reading); the kernels of commit df5f793
# (.gpu/bench-tridiagonal-old.mjs: that commit's src with this bench script) and cuSPARSE in the same run;
# alternating fresh processes of both at interleaved and strided N = 4 … 16; the per-system Thomas
# workgroup size at N = 4 … 16. Then C2C lengths that are not powers of two with the long first pass of up to
# 1024 points (5^7 = 625·125, 3^11 = 729·243) against the rule before (longFirstMax 512) and cuFFT.
# Needs .gpu/bench-tridiagonal.mjs, .gpu/bench-tridiagonal-old.mjs, .gpu/bench-fft.mjs, .gpu/cufft_extra.py,
# .gpu/anchor_cusparse.py. Writes $OUT/final29.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/final29.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
S() { q | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
N="node .gpu/bench-tridiagonal.mjs"; O="node .gpu/bench-tridiagonal-old.mjs"
# A first pass warms the GPU up (a fresh machine measured far lower numbers in its first pass); discarded.
T 60 $N --label warmup --sizes 2-16 > /dev/null 2>&1
echo "== tridiagonal, ours"; T 150 $N --out $R/tri.jsonl 2>&1 | q | tail -50
echo "== cuSPARSE"; T 120 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $R/cusparse.jsonl; grep -c Mrows $R/cusparse.jsonl
echo "== old (df5f793)"; T 150 $O --label old --out $R/tri-old.jsonl 2>&1 | S
echo "== ours again"; T 150 $N --label repeat --out $R/tri-repeat.jsonl 2>&1 | S
echo "== small N, alternating fresh processes"
for i in 1 2 3; do
  echo "new $i: $(T 60 $N --sizes 2-4 --label ab-new --out $R/ab-new-$i.jsonl 2>&1 | S)"
  echo "old $i: $(T 60 $O --sizes 2-4 --label ab-old --out $R/ab-old-$i.jsonl 2>&1 | S)"
done
echo "== per-system Thomas workgroup size (interleaved)"
for t in 64 128 512; do echo "threads $t: $(T 60 $N --layouts interleaved --sizes 2-4 --thomas-threads $t --label tt$t --out $R/tt-$t.jsonl 2>&1 | S)"; done
echo "== C2C other lengths"
F="node .gpu/bench-fft.mjs"; L=1000,59049,78125,177147,1009
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
T 60 $F --kind c2c --n $L --label warm > /dev/null 2>&1
for i in 1 2; do
  echo "new $i: $(T 60 $F --kind c2c --n $L --json $R/odd-new-$i.jsonl 2>&1 | q | s)"
  echo "512 $i: $(T 60 $F --kind c2c --n $L --longFirstMax 512 --label lf512 --json $R/odd-512-$i.jsonl 2>&1 | q | s)"
done
T 150 python3 .gpu/cufft_extra.py --total 27 --c2c $L > $R/cufft-extra.jsonl 2>$R/cufft-extra.err; tail -2 $R/cufft-extra.err; cat $R/cufft-extra.jsonl | cut -c1-160
echo done
