# Tridiagonal: streamed per-system Thomas for interleaved systems (chunk 4/8/16) against Wang & Mou
# with the 'thomas' interior; strided partition chunk sizes and rows per invocation, each in its own process.
B="node .gpu/bench-tridiagonal.mjs"
run() { label=$1; lay=$2; sizes=$3; shift 3; echo "== $label $lay $*"; timeout 60 $B --label $label --sizes $sizes --layouts $lay --reps 5 --out /tmp/t-$label.jsonl "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print $2":"$(NF-2)}' | tr '\n' ' '; echo; cat /tmp/t-$label.jsonl >> $OUT/tri-sweep6.jsonl; }
run i-s4 interleaved 5-16 --stream-rows 17 --stream-chunk 4
run i-s8 interleaved 5-16 --stream-rows 17 --stream-chunk 8
run i-s16 interleaved 5-16 --stream-rows 17 --stream-chunk 16
run i-t4 interleaved 5-16 --interior thomas --rows-per-thread 4
run i-t8-w2048 interleaved 5-16 --interior thomas --rows-per-thread 8 --target-rows 2048 --partition-rows 1024
run s-t4 strided 2-24 --interior thomas --rows-per-thread 4
run s-t2 strided 2-24 --interior thomas --rows-per-thread 2
for N in 11 12 13 14 20; do
  run s-t4-p128-$N strided $N --interior thomas --rows-per-thread 4 --partition-rows 128
  run s-t4-p256-$N strided $N --interior thomas --rows-per-thread 4 --partition-rows 256
  run s-t4-p512-$N strided $N --interior thomas --rows-per-thread 4 --partition-rows 512
  run s-t4-m1024-$N strided $N --interior thomas --rows-per-thread 4 --max-rows 1024 --partition-rows 256
done
