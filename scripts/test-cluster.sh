#!/usr/bin/env bash
# `npm run test:cluster`: starts a fresh production-like cluster named `test` (src/dev-server/cluster:
# the real Temporal server's four roles on PostgreSQL), runs vitest.cluster.config.mts against it
# through THOUGHTLINE_TEST_TEMPORAL_ADDRESS, then stops the cluster and deletes its data, also when
# the tests fail or are interrupted. Extra arguments go to vitest (a file name runs only that file).
# Run it through scripts/on-engines-node.sh (the npm script does), on Node >= 22.13.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run build --silent
cluster() { node dist/dev-server/cluster/cluster-cli.js "$@"; }
trap 'cluster stop --name test --delete' EXIT
started="$(cluster start --name test --fresh)"
address="$(sed -n 's/^TEMPORAL_ADDRESS=//p' <<<"$started")"
export THOUGHTLINE_TEST_TEMPORAL_ADDRESS="$address"
export THOUGHTLINE_TEST_TEMPORAL_NAMESPACE=default
# The cluster's own smoke test reads its state file by this name.
export THOUGHTLINE_TEST_CLUSTER_NAME=test
npx vitest run --config vitest.cluster.config.mts "$@"
