#!/usr/bin/env bash
# Prints the bin folder of the newest installed PostgreSQL server (/usr/lib/postgresql/<v>/bin),
# installing Debian's `postgresql` package first when no server is installed.
set -euo pipefail
newest_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin="$(newest_bin)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  here="$(cd "$(dirname "$0")" && pwd)"
  # initdb is never on PATH (it lives in the versioned folder), so the installer always installs
  # and then fails its own PATH check; the folder is checked again below instead.
  bash "$here/ensure-debian-package.sh" initdb postgresql || true
  bin="$(newest_bin)"
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL's server is missing; install the Debian package postgresql (as root: apt-get install -y postgresql)" >&2
  exit 1
fi
echo "$bin"
