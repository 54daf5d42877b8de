#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test (never a browser download of Playwright's own).
# Exits non-zero, saying why, where it cannot be installed.
set -uo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "Chromium is not installed and there is no apt-get here to install it" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is not installed; installing it takes root: apt-get install chromium" >&2
  exit 1
fi
echo "== apt-get install chromium"
apt-get update -qq && apt-get install -y -qq chromium >/dev/null || {
  echo "apt-get could not install chromium" >&2
  exit 1
}
