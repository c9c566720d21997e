# Unrolled staged copies (single-invocation transforms): C2C, R2C, DCT-II and DHT at small N.
R=/tmp/res10; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
f() { label=$1; shift; echo "== $label"; T 120 $B --label $label --json $R/$label.jsonl "$@" 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $4, $5, $(NF-4), $(NF-1), $NF}' ; }
f c2c --kind c2c --sizes 1-13
f c2codd --kind c2c --n 7,11,13,47,1000,1009,4099
f r2c --kind r2c --sizes 2-14
f dct2 --kind dct2 --sizes 2-14
f dht --kind dht --sizes 2-14
f dct2s8 --kind dct2 --sizes 2-7 --maxSingle 8
f dhts8 --kind dht --sizes 2-7 --maxSingle 8
cat $R/*.jsonl > $OUT/sweep10.jsonl
