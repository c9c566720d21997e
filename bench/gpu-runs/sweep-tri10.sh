# Tridiagonal partition kernels: chunk (system, index) once a workgroup (today) against 5271579
# (bench-tridiagonal-head: a division by the chunk count for every row), chunk sizes again.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs"
echo "== head"; timeout 120 node .gpu/bench-tridiagonal-head.mjs --label head --sizes 10-24 --out $OUT/head.jsonl 2>&1 | S
echo "== default"; timeout 120 $B --label default --sizes 10-24 --out $OUT/default.jsonl 2>&1 | S
echo "== p64"; timeout 120 $B --label p64 --layouts strided --sizes 11-24 --partition-rows 64 --out $OUT/p64.jsonl 2>&1 | S
echo "== p256"; timeout 120 $B --label p256 --layouts strided --sizes 11-24 --partition-rows 256 --out $OUT/p256.jsonl 2>&1 | S
echo "== m1024"; timeout 120 $B --label m1024 --layouts strided --sizes 11 --max-rows 1024 --out $OUT/m1024.jsonl 2>&1 | S
echo "== head again"; timeout 120 node .gpu/bench-tridiagonal-head.mjs --label head2 --sizes 10-24 --out $OUT/head2.jsonl 2>&1 | S
echo "== default again"; timeout 120 $B --label default2 --sizes 10-24 --out $OUT/default2.jsonl 2>&1 | S
