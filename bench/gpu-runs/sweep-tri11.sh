# Tridiagonal after the normalised rows and division-free chunk addressing: radix 4, rows per invocation,
# workgroup sizes, and partitioned solves for N = 1024 / 2048.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts strided"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run default --sizes 2-24
run r4 --sizes 2-24 --radix 4
run t8 --sizes 8-13 --rows-per-thread 8
run t16 --sizes 8-13 --rows-per-thread 16
run w256 --sizes 2-8 --target-rows 256
run w64 --sizes 2-6 --target-rows 64
run m512 --sizes 10-11 --max-rows 512
run m1024 --sizes 10-11 --max-rows 1024
run t8-p256 --sizes 12-24 --rows-per-thread 8 --partition-rows 256
run t8-p512 --sizes 12-24 --rows-per-thread 8 --partition-rows 512
run default2 --sizes 2-24
