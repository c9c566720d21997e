# Tridiagonal partition kernels: chunk loads from a 32-byte boundary (--align-chunks) against the default.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 12-24"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run default
run align --align-chunks
run default2
run align2 --align-chunks
run align-p256 --align-chunks --partition-rows 256
