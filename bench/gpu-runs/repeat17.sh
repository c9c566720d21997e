#!/usr/bin/env bash
# Fresh-process repeats of R2C 2^24 … 2^27 (final17 read 2^25 and 2^27 at 2.36 / 2.04 ms in its long
# process, the previous kernels 1.55 / 1.61 in theirs): the session's kernels and the previous ones
# (.gpu/bench-fft-old.mjs), three short processes each, alternating. Writes $OUT/repeat17.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/repeat17.tgz" -C "$R" .' EXIT
for i in 1 2 3; do
  for b in new old; do
    f=.gpu/bench-fft.mjs; [ $b = old ] && f=.gpu/bench-fft-old.mjs
    echo "== $b $i: $(timeout 60 node $f --kind r2c --sizes 24-27 --label $b --json $R/r2c-$b-$i.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk | awk '{print $1, $(NF-4)}' | tail -n +3 | tr '\n' ' ')"
  done
done
