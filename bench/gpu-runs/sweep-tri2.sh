# Tridiagonal planner choices after the unrolled staged load: rows per invocation, rows per workgroup,
# partition chunk rows, radix; strided N = 2^2 … 2^24 (and the default in both layouts).
B="node .gpu/bench-tridiagonal.mjs"
S=2,3,4,6,8,10,11,12,16,24
run() { label=$1; shift; echo "== $label $*"; timeout 40 $B --label $label --sizes $S --layouts strided --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk '{print $3, $(NF-2)}' | tail -10 | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep2.jsonl; }
run default
run rpt2 --rows-per-thread 2
run rpt8 --rows-per-thread 8
run rpt16 --rows-per-thread 16
run t256 --target-rows 256
run t512 --target-rows 512
run p256 --partition-rows 256
run p1024 --partition-rows 1024
run radix2 --radix 2
run rpt8p1024 --rows-per-thread 8 --partition-rows 1024
