R=/tmp/res6; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
T 120 $B --kind r2c --sizes 2-27 --json $R/r2c.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 $B --kind dht --sizes 2-20 --json $R/dht.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt
cat $R/r2c.jsonl $R/dct2.jsonl $R/dht.jsonl > $OUT/ours-real.jsonl
cat $R/cufft-*.jsonl > $OUT/cufft-real.jsonl
