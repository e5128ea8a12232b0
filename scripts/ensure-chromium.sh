#!/usr/bin/env bash
# Makes sure Debian's Chromium is present for the browser tests (e2e). Never downloads a
# browser build: it installs the distribution package when running as root, else it fails
# with instructions.
set -euo pipefail

CHROMIUM="${PARLEY_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium and CJK fonts" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y chromium fonts-noto-cjk
  if [ -x "$CHROMIUM" ]; then
    exit 0
  fi
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-chromium: $CHROMIUM was not found, and it cannot be installed automatically
(this needs root and apt-get). Install it yourself, e.g.:

  sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk

or point PARLEY_CHROMIUM at an existing Chromium binary.
MSG
exit 1
