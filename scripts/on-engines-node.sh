#!/usr/bin/env bash
# Runs a command (npm test's suite) on Node 22.13 or later (what the CLI needs), so `npm test`
# works as the README says on a machine whose node is older: ensure-node.sh installs Node 22 from
# the npm registry once and puts it first on PATH. Nothing in node_modules is built for one Node
# (the SQLite tool uses Node's own node:sqlite), so nothing is rebuilt for the other.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/ensure-node.sh"
exec "$@"
