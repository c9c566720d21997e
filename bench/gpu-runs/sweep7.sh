# Fused multi-pass R2C post-processing (unrolled, table reads first) against the separate kernel; DCT-II, DHT.
R=/tmp/res7; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
f() { label=$1; shift; echo "== $label"; T 120 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f r2c --kind r2c --sizes 2-27
f r2cpk --kind r2c --sizes 15-27 --r2cPostKernel 1
f dct2 --kind dct2 --sizes 2-20
f dct2pk --kind dct2 --sizes 15-20 --r2cPostKernel 1
f dht --kind dht --sizes 2-20
cat $R/*.jsonl > $OUT/sweep7.jsonl
