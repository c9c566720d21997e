R=/tmp/res; mkdir -p $R
T() { timeout "$@"; }
B="node .gpu/bench-fft.mjs"
T 120 $B --kind r2c --sizes 2-27 --json $R/r2c.jsonl 2>&1 | grep -v Warning | grep -v '^#'
T 60 $B --kind dct2 --sizes 2-20 --json $R/dct2.jsonl 2>&1 | grep -v Warning | grep -v '^#'
T 60 $B --kind dht --sizes 2-20 --json $R/dht.jsonl 2>&1 | grep -v Warning | grep -v '^#'
T 60 $B --kind c2c --shape2d 1024x1024,4096x4096,256x256 --json $R/c2c-2d.jsonl 2>&1 | grep -v Warning | grep -v '^#'
T 60 python3 .gpu/anchor_cufft.py --kind r2c --total 27 --sizes 2-27 > $R/cufft-r2c.jsonl
T 90 python3 .gpu/cufft_extra.py --total 27 --shape2d 1024x1024,4096x4096,256x256 --r2r 2-20 > $R/cufft-extra.jsonl 2>$R/err.txt; tail -2 $R/err.txt
T 200 node .gpu/bench-sfft.mjs --sizes 18-27 --k 1000 --ks 1000,2000,5000,10000 --snr 20 --reps 10 --json $R/sfft.jsonl 2>&1 | grep -v Warning | tail -30
T 60 python3 .gpu/sfft_cufft.py --sizes 18-27 --reps 50 > $R/sfft-cufft.jsonl
cat $R/r2c.jsonl $R/dct2.jsonl $R/dht.jsonl $R/c2c-2d.jsonl > $OUT/ours-fft2.jsonl
cat $R/cufft-*.jsonl > $OUT/cufft2.jsonl
cp $R/sfft.jsonl $R/sfft-cufft.jsonl $OUT/
echo done
