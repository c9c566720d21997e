R=/tmp/res; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs --reps 10"
f() { label=$1; shift; echo "== $label"; T 60 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1)}' ; }
f base --sizes 12-20
f wg64 --sizes 14-20 --wg 64
f wg128 --sizes 14-20 --wg 128
f wg256 --sizes 14-20 --wg 256
f r8 --sizes 12-20 --maxRadix 8
f cols2 --sizes 14-22 --minCols 2
f cx --sizes 12-13 --exchange complex
f tab --sizes 12-20 --twiddles table
echo "== tri radix2"; T 60 node .gpu/bench-tridiagonal.mjs --radix 2 --sizes 2-12 --layouts strided 2>&1 | grep -v Warning | tail -12
cat $R/*.jsonl > $OUT/sweep.jsonl
