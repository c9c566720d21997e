#!/usr/bin/env bash
# What the numpy layout's odd row length (n/2 + 1 complex) costs multi-pass R2C: output rows n/2 + 4 apart
# (--outPad 3: every row at a 32-byte boundary) against n/2 + 1, N = 2^14 … 2^24 with the per-kernel
# breakdown (the fused last pass writes 8-column runs that start mid-sector in odd rows). Two passes
# alternating. Needs .gpu/bench-fft.mjs. Writes $OUT/sweep29.tgz.
# Result: no difference beyond 2% (2^15 last pass unchanged), so the fused last pass's cost is not the
# odd row length.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep29.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 14-15 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default pad3; do
    x=""; [ $v = pad3 ] && x="--outPad 3"
    echo "== r2c $v $pass: $(timeout 150 node .gpu/bench-fft.mjs --kind r2c --sizes 14-24 --breakdown --label $v $x --json $R/r2c-$v-$pass.jsonl 2>&1 | q)"
  done
done
