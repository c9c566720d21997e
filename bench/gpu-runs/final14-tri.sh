# Tridiagonal table of BENCHMARKS.md (bench/results/2026-11-22-h200-final14-tri): ours (library defaults) and
# cuSPARSE in the same run; the kernels of commit 3194ca8 (bench-tridiagonal-old: the bench then forced
# radix 4); and a second pass of the defaults.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
timeout 120 node .gpu/bench-tridiagonal.mjs --out $OUT/tri.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -50
timeout 90 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $OUT/cusparse.jsonl
echo "== old (3194ca8)"; timeout 120 node .gpu/bench-tridiagonal-old.mjs --label old --out $OUT/tri-old.jsonl 2>&1 | S
echo "== default again"; timeout 120 node .gpu/bench-tridiagonal.mjs --label repeat --out $OUT/tri-repeat.jsonl 2>&1 | S
