# Tridiagonal: several partition chunks a workgroup again, now without a division per row (sweep-tri8 had one).
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 12-24"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run c1
run c2 --chunks-per-wg 2
run c4 --chunks-per-wg 4
run p64-c2 --partition-rows 64 --chunks-per-wg 2
run p64-c4 --partition-rows 64 --chunks-per-wg 4
run p256-c2 --partition-rows 256 --chunks-per-wg 2
run c1-again
run c2-again --chunks-per-wg 2
