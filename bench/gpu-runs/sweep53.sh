#!/usr/bin/env bash
# Occupancy probe (bench/occupancy-probe.ts: resident workgroups an SM against workgroup size, workgroup
# memory and live registers) and shallow water: the update kernel with c and 1/(2c) from one reciprocal
# square root and the friction without divisions, against the kernels of commit fa92f6b
# (.gpu/bench-swe-old.mjs) in alternating processes, plus the update kernel's probes (probe-l2: the
# arithmetic with L2-resident loads; probe-move: the loads and stores without the arithmetic) and rows
# per invocation again. Bundles: .gpu/bench-swe.mjs, .gpu/bench-swe-old.mjs, .gpu/bench-occupancy-probe.mjs.
# Writes $OUT/sweep53.tgz.
set -u
: "${OUT:?set OUT to the output folder}"
R=$(mktemp -d)
trap 'tar czf "$OUT/sweep53.tgz" -C "$R" .' EXIT
T() { timeout "$@"; }
q() { grep -v -e Warning -e '^ *at ' -e '^$' -e BackendVk; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $R/smi.txt 2>&1
echo "== occupancy"
T 120 node .gpu/bench-occupancy-probe.mjs --wg 64,128,256,512,1024 --smem 0,4352,8704,17408,24576,34816,49152 --regs 8,32,64,128 --json $R/occupancy.jsonl 2>&1 | q | tail -150
echo "== swe new / old / new / old"
T 120 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --compare 400 --out $R/swe-new-1.jsonl 2>&1 | q | tail -6
T 100 node .gpu/bench-swe-old.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-old-1.jsonl 2>&1 | q | tail -5
T 100 node .gpu/bench-swe.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-new-2.jsonl 2>&1 | q | tail -5
T 100 node .gpu/bench-swe-old.mjs --sizes 1000,2000,4096 --steps 50 --breakdown --cpu-steps 0 --out $R/swe-old-2.jsonl 2>&1 | q | tail -5
echo "== swe probes and rows"
T 150 node .gpu/bench-swe.mjs --sizes 2000,4096 --steps 50 --breakdown --cpu-steps 0 --variants halo:16:pair:r2c3,halo:16:pair:r2c3:probe-l2,halo:16:pair:r2c3:probe-move,halo:16:f32:r2c3,halo:16:f32:r2c3:probe-l2,halo:16:f32:r2c3:probe-move,halo:16:pair:r1c3,halo:16:pair:r3c3 --out $R/swe-probes.jsonl 2>&1 | q | tail -20
echo done
