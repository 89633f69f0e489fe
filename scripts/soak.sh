#!/usr/bin/env bash
# `npm run soak`: the production topology under steady mixed load with faults on a schedule
# (bench/soak/run-soak.ts). Starts a fresh cluster named `soak` (src/dev-server/cluster: the real
# Temporal server's four roles on PostgreSQL), builds the bench, runs the soak on it, then stops
# the cluster and deletes its data, also when the soak fails or is interrupted.
# SOAK_MINUTES (default 60), SOAK_RUNS_PER_MINUTE (30), SOAK_WATCHERS (50); the report goes to
# SOAK_OUT (default .thoughtline/soak/latest.json) and, when set, SOAK_HTML.
# Run it through scripts/on-engines-node.sh (the npm script does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node scripts/build-if-stale.cjs
# Its own output folder and build record: in CI the soak compiles beside the slow stage, whose peers
# test compiles the bench into .thoughtline/bench-dist at the same moment, and a file one of them
# loads must not be one the other is rewriting.
out=.thoughtline/soak-dist
npx tsc -p bench/tsconfig.json --outDir "$out" --tsBuildInfoFile .thoughtline/soak.tsbuildinfo
node scripts/vendor-sql-grammars.cjs "$out"
cluster() { node dist/dev-server/cluster/cluster-cli.js "$@"; }
# SOAK_KEEP_CLUSTER=1 leaves it running afterwards, to read the runs' histories (npm run cluster -- stop --name soak --delete).
[ "${SOAK_KEEP_CLUSTER:-}" = 1 ] || trap 'cluster stop --name soak --delete' EXIT
started="$(cluster start --name soak --fresh)"
export SOAK_TEMPORAL_ADDRESS="$(sed -n 's/^TEMPORAL_ADDRESS=//p' <<<"$started")"
export SOAK_TEMPORAL_NAMESPACE="$(sed -n 's/^TEMPORAL_NAMESPACE=//p' <<<"$started")"
export SOAK_CLUSTER=soak
node "$out/bench/soak/run-soak.js"
