# Tridiagonal: bank-swizzled workgroup arrays (default now) against the row-struct array, and the 'thomas'
# interior against Wang & Mou, over rows per invocation / workgroup / partition chunk. Planner defaults
# otherwise (the bench no longer forces radix 4).
B="node .gpu/bench-tridiagonal.mjs"
run() { label=$1; lay=$2; sizes=$3; shift 3; echo "== $label $lay $*"; timeout 60 $B --label $label --sizes $sizes --layouts $lay --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 {print $2":"$(NF-2)}' | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep5.jsonl; }
ALL=2-24
run s-rows strided $ALL --no-swizzle
run s-wm strided $ALL
run s-wm-r4 strided $ALL --radix 4
run s-wm-rpt8 strided $ALL --rows-per-thread 8
run s-t4 strided $ALL --interior thomas --rows-per-thread 4
run s-t8 strided $ALL --interior thomas --rows-per-thread 8
run s-t16 strided $ALL --interior thomas --rows-per-thread 16
run s-t8-w256 strided $ALL --interior thomas --rows-per-thread 8 --target-rows 256 --partition-rows 512
run s-t8-w512 strided $ALL --interior thomas --rows-per-thread 8 --target-rows 512 --partition-rows 1024
run s-t16-w512 strided $ALL --interior thomas --rows-per-thread 16 --target-rows 512 --partition-rows 1024
run s-t16-w1024 strided $ALL --interior thomas --rows-per-thread 16 --target-rows 1024 --partition-rows 2048
run s-t8-r4 strided $ALL --interior thomas --rows-per-thread 8 --radix 4 --partition-rows 1024
run s-t4-w256 strided $ALL --interior thomas --rows-per-thread 4 --target-rows 256 --partition-rows 512
run i-rows interleaved 2-14 --no-swizzle
run i-wm interleaved 2-14
run i-t4 interleaved 2-14 --interior thomas --rows-per-thread 4
run i-t8 interleaved 2-14 --interior thomas --rows-per-thread 8
run i-t16 interleaved 2-14 --interior thomas --rows-per-thread 16
run i-t8-w2048 interleaved 2-14 --interior thomas --rows-per-thread 8 --target-rows 2048 --partition-rows 1024
run i-t16-w2048 interleaved 2-14 --interior thomas --rows-per-thread 16 --target-rows 2048 --partition-rows 2048
