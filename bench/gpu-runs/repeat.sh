# Fresh-process repeats of the real transforms that final7 (one long process) measured slow: DHT 2^12–2^16
# and R2C 2^25–2^27, three times each (bench/results/2026-11-22-h200-repeat).
for i in 1 2 3; do
  timeout 60 node .gpu/bench-fft.mjs --kind dht --sizes 12-16 --json $OUT/dht-$i.jsonl
  timeout 60 node .gpu/bench-fft.mjs --kind r2c --sizes 25-27 --json $OUT/r2c-$i.jsonl
done
