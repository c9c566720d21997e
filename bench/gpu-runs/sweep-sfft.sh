# Sparse FFT sweep (issue #6): exact-path variants and the robust path for n = 2^18 … 2^27, k = 1000,
# with cuFFT's dense C2C of the same lengths in the same run. JSON lines go to $OUT/sfft-sweep.jsonl;
# about 4 minutes. Run from the repository root on the GPU machine after `source .gpu/setup.sh`, with
#   npx esbuild bench/sfft.ts --bundle --platform=node --format=esm --external:webgpu --outfile=.gpu/bench-sfft.mjs
#   cp bench/sfft_cufft.py .gpu/
# and, optionally, the bench of the previous sparse FFT (commit 7f15e13) for a before/after in the same run:
#   mkdir -p /tmp/sfft-old && git archive 7f15e13 | tar -x -C /tmp/sfft-old && ln -s "$PWD/node_modules" /tmp/sfft-old/
#   (cd /tmp/sfft-old && npx esbuild bench/sfft.ts --bundle --platform=node --format=esm --external:webgpu --outfile="$OLDPWD/.gpu/bench-sfft-old.mjs")
#
# Exact variants: default (4 rounds, 1 peeling stage, B = pow2ceil(4k), direct gather), g (the same with
# the sorted gather), r3s2 (3 rounds, 2 stages), r3s1b8 (3 rounds, 1 stage, B = pow2ceil(8k)), r6s1 (6
# rounds, 1 stage). Each row: gpuMs (wall clock of 10 calls in one submission, as before), gpuTsMs
# (timestamp queries: GPU only), hashMs and hashFftMs (prefixes of the chain), dispatches, clears.
R=/tmp/sfft-sweep; rm -rf $R; mkdir -p $R
T() { timeout "$@"; }
S="node .gpu/bench-sfft.mjs --k 1000 --ks 1000 --reps 10 --count --breakdown"
show() { grep -v Warning | grep -v '^#' | tail -${1:-60}; }
echo "== exact variants"
T 110 $S --sizes 18-27 --paths exact --variants ,g,r3s2,r3s1b8,r6s1 --json $R/exact.jsonl 2>&1 | show
echo "== robust (exact signal and 20 dB)"
T 55 $S --sizes 18-27 --paths robust --snr 20 --json $R/robust.jsonl 2>&1 | show
echo "== exact, signal at the start of a 2^27-point buffer (is the hashing's cost the read range or the allocation?)"
T 25 $S --sizes 20-25 --paths exact --variants ,g --xbuf 27 --json $R/xbuf.jsonl 2>&1 | show 12
sed -i 's/"lib":"butterfly-sfft"/"lib":"butterfly-sfft-xbuf27"/; s/"lib":"butterfly-dense"/"lib":"butterfly-dense-xbuf27"/' $R/xbuf.jsonl
echo "== cuFFT"
T 20 python3 .gpu/sfft_cufft.py --sizes 18-27 --reps 50 > $R/cufft.jsonl; cat $R/cufft.jsonl
if [ -f .gpu/bench-sfft-old.mjs ]; then
  echo "== previous sparse FFT (same run)"
  T 25 node .gpu/bench-sfft-old.mjs --sizes 21-25 --k 1000 --ks 1000 --paths exact --reps 10 --json $R/old.jsonl 2>&1 | show 12
  sed -i 's/"lib":"butterfly-sfft"/"lib":"butterfly-sfft-old"/; s/"lib":"butterfly-dense"/"lib":"butterfly-dense-old"/' $R/old.jsonl
fi
cat $R/*.jsonl > "$OUT/sfft-sweep.jsonl"
echo done
