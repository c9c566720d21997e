#!/usr/bin/env bash
# Installs what the browser tests need, only where it is missing: Debian's Chromium (/usr/bin/chromium;
# never a browser downloaded by Playwright) and the web/ packages (vite, playwright-core).
# WebGPU then runs in headless Chromium on SwiftShader, with no GPU (flags in test/browser/harness.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# `npm install`, not `npm ci`: npm 11.19 here wrote a lock file that lists only two of rollup's
# optional platform binaries (linux x64/arm64 gnu), and `npm ci` rejects it as out of sync; `npm install`
# installs exactly the locked versions and leaves the lock file as it is.
npm --prefix web install --no-audit --no-fund
