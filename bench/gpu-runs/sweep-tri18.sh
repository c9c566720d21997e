# Tridiagonal after the instruction trims: radix 4, rows per invocation, workgroup and chunk sizes again.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts strided"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run default --sizes 2-24
run r4 --sizes 2-24 --radix 4
run t8 --sizes 8-14 --rows-per-thread 8
run w256 --sizes 2-8 --target-rows 256
run w64 --sizes 2-6 --target-rows 64
run p256 --sizes 12-24 --partition-rows 256
run p64 --sizes 12-24 --partition-rows 64
run t8-p256 --sizes 12-24 --rows-per-thread 8 --partition-rows 256
