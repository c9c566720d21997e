#!/usr/bin/env bash
# Installs the system libraries the software WebGPU adapter needs (Mesa llvmpipe through EGL/GLES),
# only where they are missing. A machine with a GPU and its driver needs none of this.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
need=()
for p in libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}"
fi
