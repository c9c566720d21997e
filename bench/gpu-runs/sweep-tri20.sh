# Per-system Thomas kernels after sharing one header (loadRow in the register kernel too): today against head.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
run() { label=$1; b=$2; shift 2; echo "== $label $*"; timeout 100 node .gpu/$b.mjs --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run head bench-tridiagonal-head --sizes 2-12 --layouts interleaved
run new bench-tridiagonal --sizes 2-12 --layouts interleaved
run head2 bench-tridiagonal-head --sizes 2-12 --layouts interleaved
run new2 bench-tridiagonal --sizes 2-12 --layouts interleaved
