# Tridiagonal: radix 4 with the 'thomas' interior, smaller solve workgroups, and the workgroup size of the
# per-system Thomas kernels (interleaved).
B="node .gpu/bench-tridiagonal.mjs"
run() { label=$1; lay=$2; sizes=$3; shift 3; echo "== $label $lay $*"; timeout 60 $B --label $label --sizes $sizes --layouts $lay --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print $2":"$(NF-2)}' | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep7.jsonl; }
run s-default strided 2-24
run s-r4 strided 2-24 --radix 4
run s-w64 strided 2-8 --target-rows 64
run s-p64 strided 12-24 --partition-rows 64
run i-default interleaved 2-12
run i-tt32 interleaved 2-12 --thomas-threads 32
run i-tt128 interleaved 2-12 --thomas-threads 128
run i-tt256 interleaved 2-12 --thomas-threads 256
run i-s4-tt128 interleaved 5-12 --stream-chunk 4 --thomas-threads 128
run i-s12 interleaved 5-12 --stream-chunk 12
run s-default2 strided 2-24
