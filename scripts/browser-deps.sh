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
  # Of the recommends (desktop integration, upower, printing, ...) headless runs need only a font.
  $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# `npm ci` installs exactly web/package-lock.json and never rewrites it (the checkout stays clean).
npm --prefix web ci --no-audit --no-fund
