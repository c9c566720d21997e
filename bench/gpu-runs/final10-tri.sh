# Tridiagonal table of BENCHMARKS.md (bench/results/2026-11-22-h200-final10-tri): ours (library defaults) and
# cuSPARSE in the same run; the kernels of commit 3194ca8 (bench-tridiagonal-old: the bench then forced
# radix 4); and, as A/B of the last two changes, the previous commit's kernels (bench-tridiagonal-head:
# two barriers an exchange step, a modulo per row loaded) and today's with --no-ping-pong.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
timeout 120 node .gpu/bench-tridiagonal.mjs --out $OUT/tri.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -50
timeout 90 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $OUT/cusparse.jsonl
echo "== old (3194ca8)"; timeout 120 node .gpu/bench-tridiagonal-old.mjs --label old --out $OUT/tri-old.jsonl 2>&1 | S
echo "== head (previous commit)"; timeout 120 node .gpu/bench-tridiagonal-head.mjs --label head --out $OUT/tri-head.jsonl 2>&1 | S
echo "== no ping-pong"; timeout 120 node .gpu/bench-tridiagonal.mjs --label no-ping-pong --no-ping-pong --out $OUT/tri-nopp.jsonl 2>&1 | S
echo "== default again"; timeout 120 node .gpu/bench-tridiagonal.mjs --label repeat --out $OUT/tri-repeat.jsonl 2>&1 | S
