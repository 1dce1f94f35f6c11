#!/usr/bin/env bash
# Installs what the browser tests need, skipping what is already there: Debian's Chromium and
# Node.js, and the npm packages pinned in tests/browser/package-lock.json. No browser is downloaded
# by a test tool (playwright-core drives the system Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }
apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

if [ ! -x /usr/bin/chromium ]; then
  step "installing Debian chromium"
  apt_install chromium
fi
# A CJK font, so that the Chinese UI renders (and its screenshots show characters, not boxes).
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  step "installing a Chinese font (fonts-wqy-microhei)"
  apt_install fonts-wqy-microhei
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  step "installing Debian nodejs and npm"
  apt_install nodejs npm
fi
# npm ci writes node_modules/.package-lock.json; newer than package-lock.json means up to date.
if [ ! tests/browser/node_modules/.package-lock.json -nt tests/browser/package-lock.json ]; then
  step "installing the browser tests' npm packages (npm ci)"
  (cd tests/browser && npm ci --no-audit --no-fund)
fi
