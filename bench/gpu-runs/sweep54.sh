#!/usr/bin/env bash
# Workgroup memory against occupancy in single-workgroup FFTs. sweep53's occupancy probe found at most
# 48 KiB of workgroup memory resident an SM (2 workgroups of 17408 B, 1 of 34816): the padded split exchange
# of 4096 (17412 B) leaves 2 workgroups an SM where unpadded rows (16384 B) would leave 3, and 8192's
# (34820 B) leaves 1. Variants: --padding false (bank conflicts, more workgroups), 8192 in 'split4' rounds
# (16 KiB unpadded) with radices 16·32·16, 16·16·32 and 8·32·32, 4096 in split4, R2C 2^12 … 2^14; the
# default twice (first and last) for the run's noise. Bundle: .gpu/bench-fft.mjs. Writes $OUT/sweep54.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep54.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e BackendVk; }
s() { awk '$1 ~ /^[0-9]+$/ {print $1, $4, $6, $7, $10}' | tr '\n' ' '; echo; }
B="node .gpu/bench-fft.mjs --checkMax 27"
echo "== c2c default";      T 60 $B --kind c2c --sizes 11-13 --label default --json $R/c2c-default-1.jsonl 2>&1 | q | s
echo "== c2c nopad";        T 60 $B --kind c2c --sizes 11-13 --padding false --label nopad --json $R/c2c-nopad-1.jsonl 2>&1 | q | s
for r in 16.32.16 16.16.32 8.32.32; do
  echo "== 8192 split4 $r nopad"; T 60 $B --kind c2c --sizes 13 --radices $r --exchange split4 --padding false --label split4-$r-nopad --json $R/c2c-split4-$r-nopad.jsonl 2>&1 | q | s
done
echo "== 8192 split4 16.32.16 pad"; T 60 $B --kind c2c --sizes 13 --radices 16.32.16 --exchange split4 --label split4-16.32.16-pad --json $R/c2c-split4-16.32.16-pad.jsonl 2>&1 | q | s
echo "== 4096 split4 nopad"; T 60 $B --kind c2c --sizes 12 --exchange split4 --padding false --label split4-nopad --json $R/c2c-4096-split4-nopad.jsonl 2>&1 | q | s
echo "== r2c default";      T 60 $B --kind r2c --sizes 12-14 --label default --json $R/r2c-default-1.jsonl 2>&1 | q | s
echo "== r2c nopad";        T 60 $B --kind r2c --sizes 12-14 --padding false --label nopad --json $R/r2c-nopad-1.jsonl 2>&1 | q | s
echo "== c2c nopad again";  T 60 $B --kind c2c --sizes 11-13 --padding false --label nopad --json $R/c2c-nopad-2.jsonl 2>&1 | q | s
echo "== c2c default again"; T 60 $B --kind c2c --sizes 11-13 --label default --json $R/c2c-default-2.jsonl 2>&1 | q | s
echo done
