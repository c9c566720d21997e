R=/tmp/res; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs --reps 10"
f() { label=$1; shift; echo "== $label"; T 90 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f r32 --sizes 11-22 --maxRadix 32
f r32p1024 --sizes 14-22 --maxRadix 32 --maxPass 1024
f p512 --sizes 17-22 --maxPass 512
f r32wg64 --sizes 11-14 --maxRadix 32 --wg 64
f r64 --sizes 12-13 --maxRadix 64
cat $R/*.jsonl > $OUT/sweep4.jsonl
