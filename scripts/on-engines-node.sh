#!/usr/bin/env bash
# Runs a command (npm test's suite) on Node 22.13 or later (what the CLI needs), so `npm test`
# works as the README says on a machine whose node is older: ensure-node.sh installs Node 22 from
# the npm registry once and puts it first on PATH. better-sqlite3, compiled by `npm install` for the
# older Node, cannot load in the newer one (another NODE_MODULE_VERSION), so it is rebuilt for it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/ensure-node.sh"
# Exit 3 only for a binding built for another Node; a missing optional package is left alone.
if ! (cd "$root" && node -e "
  try { require.resolve('better-sqlite3'); } catch { process.exit(0); }
  try { new (require('better-sqlite3'))(':memory:').close(); }
  catch (e) { process.exit(e.code === 'ERR_DLOPEN_FAILED' ? 3 : 0); }" 2>/dev/null); then
  echo "on-engines-node: better-sqlite3 was built for another Node; rebuilding it for $(node --version)" >&2
  (cd "$root" && npm rebuild better-sqlite3 --loglevel=error >&2)
fi
exec "$@"
