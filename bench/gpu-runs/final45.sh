#!/usr/bin/env bash
# The R2C, DCT-II and DHT tables of BENCHMARKS.md after the 64-column fused last pass (sweep65, on an H100):
# ours, the kernels of commit 565ee95 (.gpu/bench-fft-old.mjs: 32 columns) and the anchors in one run, the
# anchors twice (as before, and warmed up for 300 ms like ours), as in final39.sh. C2C, 2-D and the other
# lengths run the same kernels as in final44 and are not repeated. `final45.sh extras` instead: DHT and R2C at
# the sizes whose last pass changed, one size a process, ours and 565ee95's alternating, two rounds.
# Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/anchor_cufft.py, .gpu/cufft_extra.py.
# Writes $OUT/final45.tgz (or $OUT/final45-extra.tgz).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
if [ "${1:-}" = extras ]; then
  trap 'tar czf "$OUT/final45-extra.tgz" -C "$R" .' EXIT
  for round in 1 2; do
    for l in 15 16 17 20 22 24; do
      for kind in dht r2c; do
        for X in new old; do
          P=$B; [ $X = old ] && P=$H
          timeout 60 $P --kind $kind --sizes $l --checkMax 0 --label $X --json $R/$kind-$l-$X-$round.jsonl 2>&1 | grep -E '^ *[0-9]+ ' | sed "s/^/$round $X $kind /"
        done
      done
    done
  done
  echo extras done
  exit 0
fi
trap 'tar czf "$OUT/final45.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
python3 - <<'PY'
s = open('.gpu/anchor_cufft.py').read()
old = "def bench(f, reps):\n    f(); cp.cuda.Device().synchronize()\n"
new = ("def bench(f, reps):\n    import time\n    t0 = time.perf_counter()\n    f(); cp.cuda.Device().synchronize()\n"
       "    while time.perf_counter() - t0 < 0.3:\n        f(); cp.cuda.Device().synchronize()\n")
assert old in s
open('.gpu/anchor_cufft_warm.py', 'w').write(s.replace(old, new))
PY
T 60 $B --kind r2c --sizes 12-17 > /dev/null 2>&1
for X in new old; do
  P=$B; l=""; [ $X = old ] && P=$H && l="--label old"
  echo "r2c $X: $(T 100 $P --kind r2c --sizes 2-27 $l --json $R/r2c-$X.jsonl 2>&1 | q | s)"
  echo "dct2 $X: $(T 100 $P --kind dct2 --sizes 2-27 $l --json $R/dct2-$X.jsonl 2>&1 | q | s)"
  echo "dht $X: $(T 100 $P --kind dht --sizes 2-27 $l --json $R/dht-$X.jsonl 2>&1 | q | s)"
done
echo "== anchors warmed up"
T 60 python3 .gpu/anchor_cufft_warm.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c-warm.jsonl
T 120 python3 .gpu/cufft_extra.py --total 27 --warm-ms 300 --r2r 2-27 > $R/cufft-extra-warm.jsonl 2>$R/cufft-extra-warm.err
echo "== anchors as before"
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 100 python3 .gpu/cufft_extra.py --total 27 --r2r 2-27 > $R/cufft-extra.jsonl 2>$R/cufft-extra.err
echo done
