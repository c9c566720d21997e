# Real transforms: wider fused last pass (16/32 columns: 64/128-byte output runs), fusion with DCT/DHT
# output hooks, the unrolled staged post-processing; cuFFT anchors in the same run.
R=/tmp/res9; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
f() { label=$1; shift; echo "== $label"; T 120 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f r2c --kind r2c --sizes 2-27
f r2cl16 --kind r2c --sizes 15-27 --lastCols 16
f r2cl16f --kind r2c --sizes 15-27 --lastCols 16 --r2cFused 1
f r2cl32f --kind r2c --sizes 15-27 --lastCols 32 --r2cFused 1
f dct2 --kind dct2 --sizes 2-20
f dct2l16f --kind dct2 --sizes 15-20 --lastCols 16 --r2cFused 1
f dht --kind dht --sizes 2-20
f dhtl16f --kind dht --sizes 15-20 --lastCols 16 --r2cFused 1
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt; tail -2 $R/err.txt
cat $R/*.jsonl > $OUT/sweep9.jsonl
