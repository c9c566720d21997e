# Tridiagonal: partition chunks per workgroup (and chunk size), solve workgroup size for small N.
B="node .gpu/bench-tridiagonal.mjs"
run() { label=$1; lay=$2; sizes=$3; shift 3; echo "== $label $lay $*"; timeout 60 $B --label $label --sizes $sizes --layouts $lay --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print $2":"$(NF-2)}' | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep8.jsonl; }
L=11-24
run p128-c1 strided $L
run p128-c2 strided $L --chunks-per-wg 2
run p128-c4 strided $L --chunks-per-wg 4
run p128-c8 strided $L --chunks-per-wg 8
run p64-c4 strided $L --partition-rows 64 --chunks-per-wg 4
run p64-c8 strided $L --partition-rows 64 --chunks-per-wg 8
run p256-c2 strided $L --partition-rows 256 --chunks-per-wg 2
run p256-c4 strided $L --partition-rows 256 --chunks-per-wg 4
run m1024-p128-c4 strided 11 --max-rows 1024 --chunks-per-wg 4
run s-w256 strided 2-10 --target-rows 256
run s-w512 strided 2-10 --target-rows 512
run s-w128 strided 2-10
run i-p512-c2 interleaved 12-24 --chunks-per-wg 2
run i-p128-c4 interleaved 12-24 --partition-rows 128 --chunks-per-wg 4
run i-default interleaved 12-24
