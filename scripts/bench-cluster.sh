#!/usr/bin/env bash
# `npm run bench:cluster`: the benchmark figures on a production-like cluster (src/dev-server/cluster:
# the real Temporal server's four roles on PostgreSQL) instead of a dev server. Starts a fresh
# cluster named `bench`, runs `npm run bench` against it through BENCH_TEMPORAL_ADDRESS (figure 2b,
# `workers`, unless BENCH_ONLY says otherwise; results in bench/results/cluster.json unless BENCH_OUT
# does), then stops the cluster and deletes its data, also when the figures fail or are interrupted.
# Extra arguments go to `cluster start` (e.g. --shards 16). Run it through scripts/on-engines-node.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node scripts/build-if-stale.cjs
cluster() { node dist/dev-server/cluster/cluster-cli.js "$@"; }
trap 'cluster stop --name bench --delete' EXIT
started="$(cluster start --name bench --fresh "$@")"
export BENCH_TEMPORAL_ADDRESS="$(sed -n 's/^TEMPORAL_ADDRESS=//p' <<<"$started")"
export BENCH_TEMPORAL_NAMESPACE="$(sed -n 's/^TEMPORAL_NAMESPACE=//p' <<<"$started")"
export BENCH_ONLY="${BENCH_ONLY:-workers}"
export BENCH_OUT="${BENCH_OUT:-bench/results/cluster.json}"
npm run bench
