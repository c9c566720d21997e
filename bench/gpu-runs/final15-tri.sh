#!/usr/bin/env bash
# Tridiagonal table of BENCHMARKS.md (bench/results/2026-11-22-h200-final15-tri): ours (library defaults, direct
# rows) and cuSPARSE in the same run; the kernels of commit 2d51485 (bench-tridiagonal-old, before direct
# rows); and a second pass of the defaults. Needs .gpu/bench-tridiagonal.mjs and .gpu/bench-tridiagonal-old.mjs.
# A first pass of the defaults warms the GPU up (on a freshly started machine the first pass measured a device
# copy of 822 GB/s and strided 2^15 at 23k Mrows/s against 64.8k in the later passes); its output is discarded.
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
timeout 120 node .gpu/bench-tridiagonal.mjs --label warmup > /dev/null 2>&1
timeout 120 node .gpu/bench-tridiagonal.mjs --out $OUT/tri.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -50
timeout 90 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $OUT/cusparse.jsonl
echo "== old (2d51485)"; timeout 120 node .gpu/bench-tridiagonal-old.mjs --label old --out $OUT/tri-old.jsonl 2>&1 | S
echo "== default again"; timeout 120 node .gpu/bench-tridiagonal.mjs --label repeat --out $OUT/tri-repeat.jsonl 2>&1 | S
