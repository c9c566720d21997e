R=/tmp/res; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs --reps 10"
f() { label=$1; shift; echo "== $label"; T 90 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1)}' ; }
f direct --sizes 14-27
f staged --sizes 14-20 --passLoads staged
f direct8 --sizes 14-22 --minCols 8
f direct2d --shape2d 1024x1024,4096x4096,256x256
cat $R/*.jsonl > $OUT/sweep3.jsonl
