# Tridiagonal table of BENCHMARKS.md (bench/results/2026-11-22-h200-final7-tri): ours and cuSPARSE, same run.
timeout 120 node .gpu/bench-tridiagonal.mjs --out $OUT/tri.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -50
timeout 90 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $OUT/cusparse.jsonl
