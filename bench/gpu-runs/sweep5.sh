# Pass-length sweep: split exchange inside pass kernels (1024-point passes with 8 columns), more
# columns per workgroup (longer contiguous runs), and the batch-fastest N-D path.
R=/tmp/res5; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs --reps 10"
f() { label=$1; shift; echo "== $label"; T 100 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f def --sizes 14-27
f p1024 --sizes 15-27 --maxPass 1024
f c16 --sizes 14-27 --minCols 16
f p1024r32 --sizes 17-20 --maxPass 1024 --maxRadix 32
f p1024c4 --sizes 17-20 --maxPass 1024 --minCols 4
f p512c16 --sizes 17-20 --maxPass 512 --minCols 16
f nd --shape2d 1024x1024,4096x4096,256x256
f ndp1024 --shape2d 1024x1024,4096x4096 --maxPass 1024
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 14-27 > $R/cufft.jsonl
cat $R/*.jsonl > $OUT/sweep5.jsonl
