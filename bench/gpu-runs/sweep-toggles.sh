# Dawn toggles that drop work Dawn adds to every kernel: zero-initialisation of workgroup memory and the
# robustness clamps on array indices (both unsafe, measured to see what they cost; not used by default).
# BUTTERFLY_DAWN_FLAGS is passed to Dawn's Node create() (src/backends/webgpu/device.ts).
S() { grep -v -e Warning -e '^ *at ' -e '^$' | awk 'NR>2 && NF>4 {print substr($1,1,1)":"$2":"$(NF-2)}' | tr '\n' ' '; echo; }
Q() { grep -v -e Warning -e '^ *at ' -e '^$' -e '^#' | awk '{print $1":"$(NF-4)}' | tr '\n' ' '; echo; }
U="enable-dawn-features=allow_unsafe_apis"
for v in none "$U,disable_workgroup_init" "$U,disable_robustness" "$U,disable_workgroup_init,disable_robustness"; do
  f=$v; [ "$v" = none ] && f=""
  tag=$(echo "$v" | sed 's/.*apis,//; s/,/+/g')
  echo "== tri $tag"; BUTTERFLY_DAWN_FLAGS="$f" timeout 100 node .gpu/bench-tridiagonal.mjs --layouts strided --sizes 2-24 --label "$tag" --out $OUT/tri-$tag.jsonl 2>&1 | S
  echo "== c2c $tag"; BUTTERFLY_DAWN_FLAGS="$f" timeout 120 node .gpu/bench-fft.mjs --kind c2c --sizes 8-24 --json $OUT/c2c-$tag.jsonl 2>&1 | Q
done
