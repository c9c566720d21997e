# Tridiagonal sweep (issue #5): default plan for N = 2^2 … 2^24 in both layouts, how the time scales with
# the total rows (fixed costs), the planner choices one at a time, Dawn's bounds checks, and the cuSPARSE
# anchor of the same run. Run from the repo root on the GPU machine after `source .gpu/setup.sh`, with the
# bench bundled at .gpu/bench-tridiagonal.mjs:
#   npx esbuild bench/tridiagonal.ts --bundle --platform=node --format=esm --external:webgpu --outfile=.gpu/bench-tridiagonal.mjs
# Writes JSON lines (every line has a "label") to $OUT/tri-sweep.jsonl, prints the tables. ~4 minutes.
# TOTAL (default 24) shrinks everything for a dry run on a software adapter.
R=$(mktemp -d); OUTF="$OUT/tri-sweep.jsonl"; : > "$OUTF"
TOTAL=${TOTAL:-24}
B="node .gpu/bench-tridiagonal.mjs"
# run SECONDS LABEL [bench options...]: one bench process, its lines appended to the sweep file.
run() {
  local secs=$1 label=$2; shift 2
  echo "== $label $*"
  timeout "$secs" $B --label "$label" --out "$R/$label.jsonl" "$@" 2>&1 | grep -v -e Warning -e '^ *at ' -e '^$'
  cat "$R/$label.jsonl" >> "$OUTF" 2>/dev/null
}
ALL="2-$TOTAL"
SOME="2,4,6,8,10,11,12,13,16,$TOTAL"
SMALL="2,3,4,5,6,8,10,11"
LARGE="11,12,13,16,20,$TOTAL"

# 1. The default plan, every size, both layouts (the table).
run 80 default --total "$TOTAL" --sizes "$ALL"
# 2. Fixed costs: the same plan with 4x fewer and 4x more rows in total. Time proportional to the rows
#    means no fixed cost dominates; a constant offset shows up as Mrows/s rising with the total.
run 25 total-2 --total $((TOTAL - 2)) --sizes 2,4,8,11,12,16,20 --layouts strided --reps 5
run 35 total+2 --total $((TOTAL + 2)) --sizes 2,4,8,11,12,16,20 --layouts strided --reps 5
# 3. Planner choices, one at a time against the default.
run 20 rpt4 --total "$TOTAL" --sizes "$SOME" --rows-per-thread 4 --reps 5
run 20 rpt16 --total "$TOTAL" --sizes "$SOME" --rows-per-thread 16 --reps 5
run 15 thread16 --total "$TOTAL" --sizes 3,4,5 --thread-max-n 16 --reps 5
run 15 thread32 --total "$TOTAL" --sizes 3,4,5 --thread-max-n 32 --reps 5
run 15 clearstatus --total "$TOTAL" --sizes 2,4,6,8,10,11 --status-in-kernel off --reps 5
run 15 nopad --total "$TOTAL" --sizes "$SOME" --pad off --layouts strided --reps 5
run 15 radix2 --total "$TOTAL" --sizes 4,6,8,10,11,16,$TOTAL --radix 2 --layouts strided --reps 5
run 15 target2048 --total "$TOTAL" --sizes "$SMALL" --target-rows 2048 --layouts strided --reps 5
run 15 target512 --total "$TOTAL" --sizes "$SMALL" --target-rows 512 --reps 5
run 15 prows256 --total "$TOTAL" --sizes "$LARGE" --partition-rows 256 --reps 5
run 15 prows1024 --total "$TOTAL" --sizes "$LARGE" --partition-rows 1024 --reps 5
run 15 prows2048 --total "$TOTAL" --sizes 12,13,16,20,$TOTAL --partition-rows 2048 --layouts strided --reps 5
run 15 minsys1 --total "$TOTAL" --sizes 8,9,10,11,12,16,20 --min-systems 1 --layouts interleaved --reps 5
run 15 minsys4 --total "$TOTAL" --sizes 8,9,10,11,12 --min-systems 4 --layouts interleaved --reps 5
run 15 minsys16 --total "$TOTAL" --sizes 8,9,10,11,12,16,20 --min-systems 16 --layouts interleaved --reps 5
# 4. What Dawn's bounds checks (robustness transform) cost.
run 20 norobust --total "$TOTAL" --sizes "$SOME" --dawn-flag enable-dawn-features=disable_robustness --reps 5
# 5. cuSPARSE gtsv2StridedBatch / gtsvInterleavedBatch in the same run.
echo "== cusparse"
timeout 60 python3 .gpu/anchor_cusparse.py --total "$TOTAL" --sizes "2-$TOTAL" > "$R/cusparse.jsonl" 2> "$R/cusparse.err"
tail -2 "$R/cusparse.err"
sed 's/^{/{"label": "cusparse", /' "$R/cusparse.jsonl" >> "$OUTF"
wc -l "$OUTF"
