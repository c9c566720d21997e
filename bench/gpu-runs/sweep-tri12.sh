# Tridiagonal: branch-free radix-2 exchange update (default) against the branch (--branchy), twice each.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 2-24"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run default
run branchy --branchy
run default2
run branchy2 --branchy
