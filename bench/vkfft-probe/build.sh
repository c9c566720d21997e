#!/usr/bin/env bash
# Build plan16384 (VkFFT 1.3.4 plan dump / check / timing harness) against the gpu-kit's VkFFT copy.
# Usage: bash build.sh KIT_DIR [OUT_DIR]
#   KIT_DIR: a writable copy of gpu-kit/vkfft-vk on which `bash build.sh --prebuilt` has run (it unpacks
#            the Vulkan loader, headers and glslang into KIT_DIR/prefix).
# The harness needs two small additions to VkFFT (vkfft-1.3.4-harness.patch), applied to a copy of
# KIT_DIR/src/vkFFT under OUT_DIR (the kit itself is not changed):
#   VKFFT_FAKE_VENDOR=0x10DE  use NVIDIA's defaults and the H100's Vulkan limits (48 KiB, 1024, 1024x1024x64)
#                             on any device (for planning on lavapipe); leave unset on a real NVIDIA GPU;
#   VKFFT_DUMP_SPV=DIR        write each kernel's SPIR-V to DIR/kernel_K.spv;
#   VKFFT_CAPTURE_STATS       (set by the harness when VK_KHR_pipeline_executable_properties exists) create
#                             pipelines with CAPTURE_STATISTICS so the harness can print the driver's stats.
set -euo pipefail
KIT="$(cd "$1" && pwd)"; HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${2:-$HERE/build}"; mkdir -p "$OUT"
rm -rf "$OUT/vkFFT"; cp -r "$KIT/src/vkFFT" "$OUT/vkFFT"; chmod -R u+w "$OUT/vkFFT"
(cd "$OUT/vkFFT" && patch -p1 < "$HERE/vkfft-1.3.4-harness.patch")
P="$KIT/prefix/usr"; L="$P/lib/x86_64-linux-gnu"
g++ -O1 -std=c++14 -w -DVKFFT_BACKEND=0 -DVK_API_VERSION=11 -I"$P/include" -I"$P/include/glslang/Include" \
  -I"$OUT/vkFFT" -I"$KIT/src/half_lib" "$HERE/plan16384.cpp" -o "$OUT/plan16384" \
  -Wl,--start-group "$L/libSPIRV.a" "$L/libglslang.a" "$L/libMachineIndependent.a" "$L/libOSDependent.a" \
  "$L/libGenericCodeGen.a" "$L/libOGLCompiler.a" "$L/libSPIRV-Tools-opt.a" "$L/libSPIRV-Tools.a" -Wl,--end-group \
  "$L/libvulkan.so.1" -Wl,-rpath,"$L" -lpthread -ldl -lm
echo "built $OUT/plan16384"
