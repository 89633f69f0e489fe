#!/usr/bin/env bash
# `npm run test:cluster`: starts fresh production-like clusters (src/dev-server/cluster: the real
# Temporal server's four roles on PostgreSQL): `test`, which the suite runs on through
# THOUGHTLINE_TEST_TEMPORAL_ADDRESS, and `test-mtls`, started with --mtls, which
# test/connection/secured-cluster.test.ts and test/cluster/mtls-cluster.test.ts reach through
# THOUGHTLINE_TEST_MTLS_*, set from the client variables its start printed; for the whole set, a
# third, `test-chaos`, for the chaos scenario alone. Runs vitest.cluster.config.mts, then stops the
# clusters and deletes their data, also when the tests fail or are interrupted. Extra arguments go
# to vitest (a file name runs only that file, on `test`). Run it through
# scripts/on-engines-node.sh (the npm script does), on Node >= 22.13.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node scripts/build-if-stale.cjs
cluster() { node dist/dev-server/cluster/cluster-cli.js "$@"; }
started_clusters=()
stop_clusters() { for name in "${started_clusters[@]}"; do cluster stop --name "$name" --delete; done; }
trap stop_clusters EXIT
# One after the other: the first start builds the server when it is missing, once; the others
# then take seconds.
started_clusters+=(test)
started="$(cluster start --name test --fresh)"
started_clusters+=(test-mtls)
mtls="$(cluster start --name test-mtls --fresh --mtls)"
variable() { sed -n "s/^$1=//p" <<<"$2"; }

export THOUGHTLINE_TEST_TEMPORAL_ADDRESS="$(variable TEMPORAL_ADDRESS "$started")"
export THOUGHTLINE_TEST_TEMPORAL_NAMESPACE=default
# The cluster's own smoke test reads its state file by this name.
export THOUGHTLINE_TEST_CLUSTER_NAME=test

export THOUGHTLINE_TEST_MTLS_ADDRESS="$(variable TEMPORAL_ADDRESS "$mtls")"
export THOUGHTLINE_TEST_MTLS_NAMESPACE="$(variable TEMPORAL_NAMESPACE "$mtls")"
export THOUGHTLINE_TEST_MTLS_CA="$(variable TEMPORAL_TLS_SERVER_CA_CERT_PATH "$mtls")"
export THOUGHTLINE_TEST_MTLS_CERT="$(variable TEMPORAL_TLS_CLIENT_CERT_PATH "$mtls")"
export THOUGHTLINE_TEST_MTLS_KEY="$(variable TEMPORAL_TLS_CLIENT_KEY_PATH "$mtls")"
export THOUGHTLINE_TEST_MTLS_SERVER_NAME="$(variable TEMPORAL_TLS_SERVER_NAME "$mtls")"
# test/cluster/mtls-cluster.test.ts reads its state file by this name.
export THOUGHTLINE_TEST_MTLS_CLUSTER_NAME=test-mtls
if [ $# -gt 0 ]; then
  npx vitest run --config vitest.cluster.config.mts "$@"
else
  # The chaos scenario restarts its cluster's Temporal server and PostgreSQL, so it has a cluster of
  # its own (no other file finds its frontend down: cli-serve once did, "nothing accepts
  # connections"), and runs beside the rest: both mostly wait on their servers. Its log is printed
  # once both have ended; either failing fails the stage.
  chaos=test/cluster/production-chaos.test.ts
  started_clusters+=(test-chaos)
  chaos_cluster="$(cluster start --name test-chaos --fresh)"
  chaos_log=.thoughtline/cluster/test-chaos.log
  THOUGHTLINE_TEST_TEMPORAL_ADDRESS="$(variable TEMPORAL_ADDRESS "$chaos_cluster")" \
    THOUGHTLINE_TEST_CLUSTER_NAME=test-chaos \
    npx vitest run --config vitest.cluster.config.mts "$chaos" > "$chaos_log" 2>&1 &
  chaos_run=$!
  rest_status=0
  npx vitest run --config vitest.cluster.config.mts --exclude "$chaos" || rest_status=$?
  chaos_status=0
  wait "$chaos_run" || chaos_status=$?
  echo "--- $chaos, on its own cluster beside the rest:"
  cat "$chaos_log"
  [ "$rest_status" = 0 ] || exit "$rest_status"
  exit "$chaos_status"
fi
