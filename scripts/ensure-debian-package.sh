#!/usr/bin/env bash
# Installs Debian packages the tests need (Chromium for the viewer, redis-server for the broker)
# when their program is missing: `ensure-debian-package.sh PROGRAM PACKAGE [PACKAGE…]`.
# Runs `apt-get update` only when the first install attempt fails (a fresh machine's lists are empty).
set -euo pipefail
program="$1"; shift
if command -v "$program" >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "$program is missing; install the Debian package(s) $* (as root: apt-get install -y $*)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "$@" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "$@" >/dev/null; }
command -v "$program" >/dev/null
