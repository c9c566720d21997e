# Tridiagonal small systems: rows per workgroup and per invocation around the new defaults (strided, N ≤ 2^12).
B="node .gpu/bench-tridiagonal.mjs"
S=2,3,4,5,6,7,8,9,10,11,12
run() { label=$1; shift; echo "== $label $*"; timeout 40 $B --label $label --sizes $S --layouts strided --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk '{print $3, $(NF-2)}' | tail -11 | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep3.jsonl; }
run default
run t128 --target-rows 128
run t64 --target-rows 64
run rpt2 --rows-per-thread 2
run t128rpt2 --target-rows 128 --rows-per-thread 2
run t512 --target-rows 512
