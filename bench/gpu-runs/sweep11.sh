# Single-invocation limit for small real transforms (DCT-II, DHT, R2C at N = 32 … 256): 16 (default) vs 32.
# Result: 32 is slower at N = 64 (DHT 0.75 against 0.60 ms), so the default stays.
for k in dct2 dht r2c; do for s in 16 32; do
  timeout 40 node .gpu/bench-fft.mjs --kind $k --sizes 5-8 --maxSingle $s --json $OUT/ms-$k-$s.jsonl
done; done
