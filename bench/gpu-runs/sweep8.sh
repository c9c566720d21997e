# Columns per workgroup (64- vs 128-byte runs) and row stores for the first pass, after the pass probe
# (bench/pass-probe.ts) showed strided runs of 16 columns at ~0.9 of copy against ~0.7 for 8.
R=/tmp/res8; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs --reps 10"
f() { label=$1; shift; echo "== $label"; T 100 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f def --sizes 14-27
f rows --sizes 14-27 --passStore rows
f c16 --sizes 14-27 --minCols 16
f c16rows --sizes 14-27 --minCols 16 --passStore rows
f p512c16 --sizes 17-27 --maxPass 512 --minCols 16
f p512c16rows --sizes 17-27 --maxPass 512 --minCols 16 --passStore rows
f nd --shape2d 1024x1024,4096x4096,256x256
f ndc16 --shape2d 1024x1024,4096x4096,256x256 --minCols 16
T 60 node .gpu/bench-pass-probe.mjs --n 64,128,256 --B 4,8,16,32 --E 8,16 --modes strided,rows --json $R/probe.jsonl | tail -30
cat $R/*.jsonl > $OUT/sweep8.jsonl
