# Tridiagonal table of BENCHMARKS.md (bench/results/2026-11-22-h200-final8-tri): ours (library defaults) and
# cuSPARSE in the same run, plus the previous kernels (bench-tridiagonal-old = commit 3194ca8) for comparison.
timeout 120 node .gpu/bench-tridiagonal.mjs --out $OUT/tri.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -50
timeout 90 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $OUT/cusparse.jsonl
timeout 120 node .gpu/bench-tridiagonal-old.mjs --label old --out $OUT/tri-old.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print $1":"$2":"$(NF-2)}' | tr '\n' ' '
