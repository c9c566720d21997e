# The run behind bench/results/2026-11-22-h200-final7 (BENCHMARKS.md): every FFT table with its cuFFT
# anchors, the sparse FFT with cuFFT, shallow water, EDM and 2-D fftconvolve with CuPy, all in one run.
R=/tmp/res7; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' | awk '{print $1, $(NF-4), $(NF-1)}'; }
T 150 $B --kind c2c --sizes 1-27 --json $R/c2c.jsonl 2>&1 | q
T 60 $B --kind c2c --n 1000,59049,78125,1009,4099 --json $R/c2c-odd.jsonl 2>&1 | q
T 60 $B --kind c2c --shape2d 1024x1024,4096x4096,256x256 --json $R/c2c-2d.jsonl 2>&1 | q
T 120 $B --kind r2c --sizes 2-27 --json $R/r2c.jsonl 2>&1 | q
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2.jsonl 2>&1 | q
T 60 $B --kind dht --sizes 2-20 --json $R/dht.jsonl 2>&1 | q
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --c2c 1000,59049,78125,1009,4099 --shape2d 1024x1024,4096x4096,256x256 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt; tail -2 $R/err.txt
cat $R/c2c*.jsonl $R/r2c.jsonl $R/dct2.jsonl $R/dht.jsonl > $OUT/ours-fft.jsonl
cat $R/cufft-*.jsonl > $OUT/cufft.jsonl
echo "== sfft"
T 150 node .gpu/bench-sfft.mjs --sizes 18-27 --k 1000 --ks 1000,2000,5000,10000 --snr 20 --reps 10 --json $OUT/sfft.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -45
T 40 python3 .gpu/sfft_cufft.py --sizes 18-27 --reps 50 > $OUT/sfft-cufft.jsonl
echo "== swe"
T 120 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --cpu-size 1000 --cpu-steps 3 --compare 400 --out $OUT/swe.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -12
echo "== edm / convolution"
T 120 node .gpu/bench-edm.mjs --check some --json $OUT/edm.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -18
T 150 python3 .gpu/edm_cupy.py > $OUT/cupy.jsonl 2>$R/cupy.err; tail -2 $R/cupy.err
T 90 node .gpu/bench-convolve.mjs --json $OUT/conv.jsonl 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$' | tail -6
echo done
