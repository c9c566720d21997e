R=/tmp/res; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
T 150 $B --kind c2c --sizes 1-27 --json $R/c2c.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $3, $(NF-4), $(NF-1)}'
T 60 $B --kind c2c --n 1000,59049,78125,1009,4099 --json $R/c2c-odd.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 $B --kind c2c --shape2d 1024x1024,4096x4096,256x256 --json $R/c2c-2d.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 120 $B --kind r2c --sizes 2-27 --json $R/r2c.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 $B --kind dht --sizes 2-20 --json $R/dht.jsonl 2>&1 | grep -v Warning | grep -v '^#' | awk '{print $1, $(NF-4), $(NF-1)}'
T 60 python3 .gpu/anchor_cufft.py --kind c2c --total 27 --sizes 1-27 > $R/cufft-c2c.jsonl
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --c2c 1000,59049,78125,1009,4099 --shape2d 1024x1024,4096x4096,256x256 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt; tail -2 $R/err.txt
cat $R/c2c*.jsonl $R/r2c.jsonl $R/dct2.jsonl $R/dht.jsonl > $OUT/ours-fft.jsonl
cat $R/cufft-*.jsonl > $OUT/cufft.jsonl
echo done
