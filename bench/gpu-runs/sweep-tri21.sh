# Interleaved partition level across systems: G consecutive systems' chunk a workgroup, chunk sizes.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
B="node .gpu/bench-tridiagonal.mjs --layouts interleaved --sizes 12-24"
run() { label=$1; shift; echo "== $label $*"; timeout 100 $B --label $label --out $OUT/$label.jsonl "$@" 2>&1 | S; }
run g1
run g4 --il-partition-systems 4
run g8-p256 --il-partition-systems 8 --partition-rows 256
run g16-p128 --il-partition-systems 16 --partition-rows 128
run g8-p128 --il-partition-systems 8 --partition-rows 128
run g32-p64 --il-partition-systems 32 --partition-rows 64
