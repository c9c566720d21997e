# Tridiagonal: normalised boundary rows and reciprocal-based Thomas (today's default) against the kernels of
# a39c896 (bench-tridiagonal-head) and --no-normalize, in one run; rows per invocation and chunk size again.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs"
echo "== head"; timeout 120 node .gpu/bench-tridiagonal-head.mjs --label head --out $OUT/head.jsonl 2>&1 | S
echo "== default"; timeout 120 $B --label default --out $OUT/default.jsonl 2>&1 | S
echo "== no-normalize"; timeout 120 $B --label no-normalize --no-normalize --out $OUT/nonorm.jsonl 2>&1 | S
echo "== t8"; timeout 120 $B --label t8 --layouts strided --rows-per-thread 8 --out $OUT/t8.jsonl 2>&1 | S
echo "== t8-w256"; timeout 120 $B --label t8-w256 --layouts strided --rows-per-thread 8 --target-rows 256 --partition-rows 256 --out $OUT/t8w256.jsonl 2>&1 | S
echo "== p256"; timeout 120 $B --label p256 --layouts strided --sizes 11-24 --partition-rows 256 --out $OUT/p256.jsonl 2>&1 | S
echo "== default again"; timeout 120 $B --label default2 --out $OUT/default2.jsonl 2>&1 | S
