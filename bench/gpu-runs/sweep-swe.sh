#!/usr/bin/env bash
# Shallow-water kernel sweep (issue #8): structures (staged, fused, halo), tile shapes and the depth
# pair at 1000², 2000², 4096², then the dam-break accuracy against the float64 reference.
#
# Run on the GPU machine from the repo root, after `source .gpu/setup.sh`, with the bench bundled as
#   npx esbuild bench/shallow-water.ts --bundle --platform=node --format=esm --external:webgpu --outfile=.gpu/bench-swe.mjs
# Writes JSON lines to "$OUT/swe-sweep.jsonl" (kind gpu / skip / copy / compare; see the bench's header)
# and the tables to stdout. Every command has its own timeout; together at most ~4 minutes.
# The 1000² comparison is not here: its float64 CPU reference alone takes 7–15 minutes; 400² (~1 min)
# and 200² (pair and f32 depth, which also shows whether the GPU compiler kept the two-sums) are.
#
# Overrides for a quick local check (e.g. on llvmpipe): SWE_SIZES, SWE_STEPS, SWE_CMP_BIG, SWE_CMP_SMALL,
# SWE_BENCH (the command that runs the bench).
set -u
: "${OUT:?set OUT to the output folder}"
B=${SWE_BENCH:-node .gpu/bench-swe.mjs}
SIZES=${SWE_SIZES:-1000,2000,4096}
STEPS=${SWE_STEPS:-50}
CMP_BIG=${SWE_CMP_BIG:-400}
CMP_SMALL=${SWE_CMP_SMALL:-200}
R=$(mktemp -d)
J="$OUT/swe-sweep.jsonl"
: > "$J"

# run NAME SECONDS ARGS...: one bench process; its JSON lines are appended to $J even if it times out.
run() {
  local name=$1 limit=$2
  shift 2
  echo "== $name"
  timeout "$limit" $B --cpu-steps 0 --out "$R/$name.jsonl" "$@" 2>&1 | grep -v -e Warning -e 'BackendVk' -e '^$'
  echo "   (exit ${PIPESTATUS[0]})"
  cat "$R/$name.jsonl" >> "$J" 2>/dev/null
}

# Speed: the first variant is the library default. Fused tiles own (W−2)×(H−2) cells; 20x20 and 24x16
# need more than WebGPU's default 256 invocations / 16 KiB and are skipped where the device lacks them.
run speed 130 --sizes "$SIZES" --steps "$STEPS" --variants \
halo:16,fused:16x16,staged:16x16,staged:32x8,fused:32x8,staged:64x4,fused:20x20,fused:24x16,staged:32x16,staged:16x16:f32,fused:16x16:f32,halo:16:f32

# Accuracy: dam break to t = 1, GPU f32 against the CPU float64 reference (L1 relative of h, qx, qy).
run compare-$CMP_BIG 70 --sizes 64 --steps 1 --variants halo:16 --compare "$CMP_BIG"
run compare-$CMP_SMALL-pair 20 --sizes 64 --steps 1 --variants staged:16x16 --compare "$CMP_SMALL"
run compare-$CMP_SMALL-f32 20 --sizes 64 --steps 1 --variants staged:16x16:f32 --compare "$CMP_SMALL"
rm -rf "$R"
echo "wrote $(wc -l < "$J") lines to $J"
