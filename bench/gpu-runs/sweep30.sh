#!/usr/bin/env bash
# Single-workgroup R2C / DHT / DCT-II N = 2^5 … 2^11 with 64- and 128-invocation workgroups (--wg) against
# the default 32 (one problem a workgroup from half-length 512 on: 32 invocations, so at most 32 resident
# workgroups an SM leave half the invocation slots empty). Two passes alternating. Needs
# .gpu/bench-fft.mjs. Writes $OUT/sweep30.tgz.
# Result: 32 invocations stay best at every size and kind (e.g. R2C 1024: 0.31 against 0.34 / 0.41 ms).
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep30.tgz" -C "$R" .' EXIT
q() { grep -v ': ' | grep -e '^ *[0-9]' | awk '{ printf "%s %s | ", $1, $(NF-4) }'; echo; }
timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 8-9 --reps 5 > /dev/null 2>&1  # warm-up
for pass in 1 2; do
  for v in default wg64 wg128; do
    x=""; case $v in wg64) x="--wg 64";; wg128) x="--wg 128";; esac
    for k in r2c dht dct2 c2c; do
      echo "== $k $v $pass: $(timeout 100 node .gpu/bench-fft.mjs --kind $k --sizes 5-11 --label $v $x --json $R/$k-$v-$pass.jsonl 2>&1 | q)"
    done
  done
done
