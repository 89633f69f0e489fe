#!/usr/bin/env bash
# `npm run test:cluster`: starts two fresh production-like clusters (src/dev-server/cluster: the
# real Temporal server's four roles on PostgreSQL): `test`, which the suite runs on through
# THOUGHTLINE_TEST_TEMPORAL_ADDRESS, and `test-mtls`, started with --mtls, which
# test/connection/secured-cluster.test.ts and test/cluster/mtls-cluster.test.ts reach through
# THOUGHTLINE_TEST_MTLS_*, set from the client variables its start printed. Runs
# vitest.cluster.config.mts, then stops both clusters and deletes their data, also when the tests
# fail or are interrupted. Extra arguments go to vitest
# (a file name runs only that file). Run it through scripts/on-engines-node.sh (the npm script
# does), on Node >= 22.13.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node scripts/build-if-stale.cjs
cluster() { node dist/dev-server/cluster/cluster-cli.js "$@"; }
trap 'cluster stop --name test --delete; cluster stop --name test-mtls --delete' EXIT
# One after the other: the first start builds the server when it is missing, once; the second
# then takes seconds.
started="$(cluster start --name test --fresh)"
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
  # The chaos scenario restarts this cluster's Temporal server and PostgreSQL: it runs alone, after the
  # rest, so no other file finds the frontend down (cli-serve once did: "nothing accepts connections").
  chaos=test/cluster/production-chaos.test.ts
  npx vitest run --config vitest.cluster.config.mts --exclude "$chaos"
  npx vitest run --config vitest.cluster.config.mts "$chaos"
fi
