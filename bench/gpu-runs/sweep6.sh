# Real transforms after the fused multi-pass R2C post-processing and the pair-wise split post:
# default against the separate post kernel, DCT-II and DHT, with cuFFT anchors in the same run.
R=/tmp/res6; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
f() { label=$1; shift; echo "== $label"; T 120 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f r2c --kind r2c --sizes 2-27
f r2cpk --kind r2c --sizes 14-27 --r2cPostKernel 1
f r2cwg64 --kind r2c --sizes 5-13 --wg 64
f r2cwg128 --kind r2c --sizes 5-13 --wg 128
f dct2 --kind dct2 --sizes 2-20
f dht --kind dht --sizes 2-20
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt; tail -2 $R/err.txt
cat $R/*.jsonl > $OUT/sweep6.jsonl
