# Tridiagonal 'expand' without the checks 'reduce' already made (today) against the previous commit (head).
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
run() { label=$1; b=$2; shift 2; echo "== $label $*"; timeout 100 node .gpu/$b.mjs --layouts strided --sizes 12-24 --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run head bench-tridiagonal-head
run new bench-tridiagonal
run head2 bench-tridiagonal-head
run new2 bench-tridiagonal
