#!/usr/bin/env bash
# One run for every FFT table of BENCHMARKS.md (C2C and R2C 2^1 … 2^27, DCT-II and DHT 2^2 … 2^27, 2-D 256² …
# 4096², other C2C lengths): ours, the kernels of commit 9204918 (.gpu/bench-fft-old.mjs) and the anchors, the
# anchors twice: as before (one untimed call, then the timed repetitions) and warmed up for 300 ms like ours
# (bench/common.ts) — the kit's anchor_cufft.py patched here into .gpu/anchor_cufft_warm.py, and
# bench/cufft_extra.py --warm-ms 300. Needs .gpu/bench-fft.mjs, .gpu/bench-fft-old.mjs, .gpu/anchor_cufft.py,
# .gpu/cufft_extra.py. Writes $OUT/${RUN:-final39}.tgz (RUN names a later run of the same script, see final40.sh).
# ONLY=real runs the R2C, DCT-II and DHT tables and their anchors alone (final45.sh).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/${RUN:-final39}.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
s() { awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs"; H="node .gpu/bench-fft-old.mjs"
L=12,100,500,1000,1500,2187,6561,59049,78125,102400,117649,177147,230400,1009,4099
S=256x256,512x512,1024x1024,2048x2048,4096x4096
ONLY=${ONLY:-all}
WK=c2c; XTRA="--c2c $L --shape2d $S"
[ "$ONLY" = real ] && WK=r2c && XTRA=""
python3 - <<'PY'
s = open('.gpu/anchor_cufft.py').read()
old = "def bench(f, reps):\n    f(); cp.cuda.Device().synchronize()\n"
new = ("def bench(f, reps):\n    import time\n    t0 = time.perf_counter()\n    f(); cp.cuda.Device().synchronize()\n"
       "    while time.perf_counter() - t0 < 0.3:\n        f(); cp.cuda.Device().synchronize()\n")
assert old in s
open('.gpu/anchor_cufft_warm.py', 'w').write(s.replace(old, new))
PY
T 60 $B --kind $WK --sizes 12-17 > /dev/null 2>&1
for X in new old; do
  P=$B; l=""; [ $X = old ] && P=$H && l="--label old"
  [ "$ONLY" = real ] || echo "c2c $X: $(T 100 $P --kind c2c --sizes 1-27 $l --json $R/c2c-$X.jsonl 2>&1 | q | s)"
  echo "r2c $X: $(T 100 $P --kind r2c --sizes 2-27 $l --json $R/r2c-$X.jsonl 2>&1 | q | s)"
  echo "dct2 $X: $(T 100 $P --kind dct2 --sizes 2-27 $l --json $R/dct2-$X.jsonl 2>&1 | q | s)"
  echo "dht $X: $(T 100 $P --kind dht --sizes 2-27 $l --json $R/dht-$X.jsonl 2>&1 | q | s)"
  [ "$ONLY" = real ] && continue
  echo "2d $X: $(T 60 $P --kind c2c --shape2d $S $l --json $R/c2c-2d-$X.jsonl 2>&1 | q | s)"
  echo "odd $X: $(T 60 $P --kind c2c --n $L $l --json $R/c2c-odd-$X.jsonl 2>&1 | q | s)"
done
echo "== anchors warmed up"
[ "$ONLY" = real ] || T 60 python3 .gpu/anchor_cufft_warm.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c-warm.jsonl
T 60 python3 .gpu/anchor_cufft_warm.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c-warm.jsonl
T 120 python3 .gpu/cufft_extra.py --total 27 --warm-ms 300 --r2r 2-27 $XTRA > $R/cufft-extra-warm.jsonl 2>$R/cufft-extra-warm.err
echo "== anchors as before"
[ "$ONLY" = real ] || T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 100 python3 .gpu/cufft_extra.py --total 27 --r2r 2-27 $XTRA > $R/cufft-extra.jsonl 2>$R/cufft-extra.err
python3 - "$R" <<'PY'
import json, sys, os
R = sys.argv[1]
def load(f):
    p = os.path.join(R, f)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []
for a, b in [('cufft-c2c.jsonl', 'cufft-c2c-warm.jsonl'), ('cufft-r2c.jsonl', 'cufft-r2c-warm.jsonl'), ('cufft-extra.jsonl', 'cufft-extra-warm.jsonl')]:
    key = lambda o: (o.get('kind'), o.get('N'), o.get('shape'))
    w = {key(o): o['ms'] for o in load(b) if 'ms' in o and o.get('lib') != 'device-copy'}
    r = [f"{k[1] if k[2] is None else k[2]}:{o['ms'] / w[k]:.3f}" for o in load(a) if 'ms' in o and (k := key(o)) in w]
    print(a, 'default/warm:', ' '.join(r))
PY
echo done
