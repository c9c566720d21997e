#!/usr/bin/env bash
# One runner for every GPU benchmark family of BENCHMARKS.md, with the anchors timed in the same run (cuFFT,
# cuSPARSE, CuPy; for the FFT family also VkFFT's Vulkan backend, when .gpu/vkfft-vk holds the gpu-kit's copy).
#   Here (after ../shared/gpu-kit/prepare.sh):  bash bench/gpu/run.sh bundle [--against <commit>]
#   On the GPU machine (carrying .gpu):         source .gpu/setup.sh && bash bench/gpu/run.sh all|fft|tridiagonal|edm|conv|sfft|swe
# `bundle` builds .gpu/bench-<name>.mjs from this tree, copies the prebuilt part of the VkFFT kit
# (../shared/gpu-kit/vkfft-vk) into .gpu/vkfft-vk and, with --against, builds .gpu/bench-<name>-old.mjs from
# that commit; where an -old bundle exists the run times it beside ours ("previous kernels") and ends with
# bench/compare.ts's table of new / old times, flagging rows more than 5% slower. The JSON lines
# go to $OUT/<family>/ (one tarball, $OUT/<RUN>.tgz, since the device returns few files).
set -u
here=$(cd "$(dirname "$0")" && pwd)
names="fft tridiagonal edm convolve sfft shallow-water compare vkfft"

bundle() { # bundle <source root> <suffix>
  for n in $names; do
    out=$(realpath -m "$dest")/bench-$n$2.mjs
    [ -f "$1/bench/$n.ts" ] || { echo "no bench/$n.ts in $1, skipped"; continue; }
    (cd "$1" && npx esbuild "bench/$n.ts" --bundle --platform=node --format=esm --external:webgpu \
      --log-level=warning --outfile="$out") && echo "$out"
  done
}

if [ "${1:-}" = bundle ]; then
  root=$(git rev-parse --show-toplevel); cd "$root"; dest=${BUNDLE_DIR:-.gpu}; mkdir -p "$dest"
  bundle "$root" ""
  cp bench/cufft_extra.py bench/sfft_cufft.py bench/edm_cupy.py "$dest/"
  # VkFFT's kit, only what `build.sh --prebuilt` needs (its sources, 2.8 MB, only serve a build from source).
  kit=$root/../shared/gpu-kit/vkfft-vk
  if [ -d "$kit" ] && [ ! -d "$dest/vkfft-vk" ]; then
    mkdir -p "$dest/vkfft-vk" && cp -r "$kit/debs" "$kit/prebuilt" "$kit/build.sh" "$kit/run.sh" "$kit/README.md" \
      "$dest/vkfft-vk/" && chmod -R u+w "$dest/vkfft-vk" && echo "$(realpath "$dest/vkfft-vk") ($(du -sh "$dest/vkfft-vk" | cut -f1))"
  fi
  if [ "${2:-}" = --against ]; then
    c=${3:?--against needs a commit}; w=$(mktemp -d)
    git archive "$c" | tar x -C "$w" && ln -s "$root/node_modules" "$w/node_modules" && bundle "$w" -old
    rm -rf "$w"
  fi
  exit 0
fi

: "${OUT:?set OUT to the output folder}"
family=${1:-all}
RUN=${RUN:-run-$family}
R=$(mktemp -d)
trap 'tar czf "$OUT/$RUN.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' -e BackendVk; }
old() { [ -f ".gpu/bench-$1-old.mjs" ]; }

fft() {
  mkdir -p "$R/fft"; local d=$R/fft P l X
  local L=12,100,500,1000,1500,2187,6561,59049,78125,102400,117649,177147,230400,1009,4099
  local S=256x256,512x512,1024x1024,2048x2048,4096x4096
  T 60 node .gpu/bench-fft.mjs --kind c2c --sizes 12-17 > /dev/null 2>&1 # warm-up process
  for X in new old; do
    P=.gpu/bench-fft.mjs; l=""
    if [ $X = old ]; then old fft || continue; P=.gpu/bench-fft-old.mjs; l="--label old"; fi
    T 100 node $P --kind c2c --sizes 1-27 $l --json $d/c2c-$X.jsonl 2>&1 | q | tail -1
    for k in r2c dct2 dht; do T 100 node $P --kind $k --sizes 2-27 $l --json $d/$k-$X.jsonl 2>&1 | q | tail -1; done
    T 60 node $P --kind c2c --shape2d $S $l --json $d/c2c-2d-$X.jsonl 2>&1 | q | tail -1
    T 60 node $P --kind c2c --n $L $l --json $d/c2c-odd-$X.jsonl 2>&1 | q | tail -1
  done
  # Accuracy on the same inputs as cuFFT (relative L2 against float64): the default twiddles and the
  # one-read recurrence (the previous default), each a fresh process.
  local A=/tmp/accuracy-inputs
  T 240 python3 .gpu/cufft_extra.py --accuracy 1000,1024,4096,4099,8192,59049,65536,1048576,16777216 --save $A > $d/cufft-accuracy.jsonl
  T 200 node .gpu/bench-fft.mjs --accuracy $A --json $d/accuracy-new.jsonl 2>&1 | q | tr '\n' ' '; echo
  T 200 node .gpu/bench-fft.mjs --accuracy $A --twiddles recurrence --label recurrence --json $d/accuracy-recurrence.jsonl 2>&1 | q | tr '\n' ' '; echo
  rm -rf $A
  T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $d/cufft-c2c.jsonl
  T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $d/cufft-r2c.jsonl
  T 120 python3 .gpu/cufft_extra.py --total 27 --warm-ms 300 --r2r 2-27 --c2c $L --shape2d $S \
    > $d/cufft-extra.jsonl 2> $d/cufft-extra.err
  # VkFFT (Vulkan): one suite process per size, each filling a 1 GiB (C2C) host buffer with rand() and
  # uploading it six times, so a size costs seconds; the budgets (about 150 s in all) keep an even sample of the sizes
  # when not all fit, and the ones left out get error lines.
  if [ -d .gpu/vkfft-vk ] && [ -f .gpu/bench-vkfft.mjs ]; then
    T 110 node .gpu/bench-vkfft.mjs --kind c2c --sizes 1-27 --budget 85 --json $d/vkfft-c2c.jsonl 2>&1 | q | tail -1
    T 80 node .gpu/bench-vkfft.mjs --kind r2c --sizes 2-27 --budget 60 --json $d/vkfft-r2c.jsonl 2>&1 | q | tail -1
  fi
}

tridiagonal() {
  mkdir -p "$R/tridiagonal"; local d=$R/tridiagonal
  T 60 node .gpu/bench-tridiagonal.mjs --label warmup --sizes 2-16 > /dev/null 2>&1
  T 150 node .gpu/bench-tridiagonal.mjs --out $d/tri.jsonl 2>&1 | q | tail -2
  T 120 python3 .gpu/anchor_cusparse.py --total 24 --sizes 2-24 > $d/cusparse.jsonl
  old tridiagonal && T 150 node .gpu/bench-tridiagonal-old.mjs --label old --out $d/tri-old.jsonl 2>&1 | q | tail -2
}

edm() {
  mkdir -p "$R/edm"; local d=$R/edm
  T 120 node .gpu/bench-edm.mjs --check some --json $d/edm.jsonl 2>&1 | q | tail -18
  T 150 python3 .gpu/edm_cupy.py > $d/cupy.jsonl 2> $d/cupy.err
  old edm && T 120 node .gpu/bench-edm-old.mjs --json $d/edm-old.jsonl 2>&1 | q | tail -2
}

conv() {
  mkdir -p "$R/conv"; local d=$R/conv
  T 90 node .gpu/bench-convolve.mjs --json $d/conv.jsonl 2>&1 | q | tail -6
  old convolve && T 90 node .gpu/bench-convolve-old.mjs --json $d/conv-old.jsonl 2>&1 | q | tail -2
}

sfft() {
  mkdir -p "$R/sfft"; local d=$R/sfft a="--sizes 18-27 --k 1000 --ks 1000,2000,5000,10000 --snr 20 --reps 10"
  T 120 node .gpu/bench-sfft.mjs $a --json $d/sfft.jsonl 2>&1 | q | tail -45
  T 40 python3 .gpu/sfft_cufft.py --sizes 18-27 --reps 50 > $d/sfft-cufft.jsonl
  old sfft && T 120 node .gpu/bench-sfft-old.mjs $a --json $d/sfft-old.jsonl 2>&1 | q | tail -2
}

swe() {
  mkdir -p "$R/swe"; local d=$R/swe a="--sizes 1000,2000,4096 --steps 50 --breakdown"
  T 150 node .gpu/bench-shallow-water.mjs $a --cpu-size 1000 --cpu-steps 3 --compare 400 --out $d/swe.jsonl 2>&1 | q | tail -8
  old shallow-water && T 90 node .gpu/bench-shallow-water-old.mjs $a --cpu-steps 0 --out $d/swe-old.jsonl 2>&1 | q | tail -5
}

case $family in
  all) for f in fft tridiagonal edm conv sfft swe; do echo "== $f"; $f; done ;;
  fft|tridiagonal|edm|conv|sfft|swe) $family ;;
  *) echo "usage: run.sh bundle [--against <commit>] | all|fft|tridiagonal|edm|conv|sfft|swe" >&2; exit 2 ;;
esac
# With -old bundles: new / old per family, and the rows more than 5% slower (repeat those in alternating
# processes before believing them; bench/compare.ts).
if ls .gpu/bench-*-old.mjs > /dev/null 2>&1 && [ -f .gpu/bench-compare.mjs ]; then
  echo "== new / old"; node .gpu/bench-compare.mjs "$R" || echo "rows more than 5% slower: repeat them"
fi
echo done
