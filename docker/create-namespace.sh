#!/bin/sh
# One-shot job for docker-compose.yml (runs in the temporalio/admin-tools image, which ships the
# `temporal` CLI). Waits until the cluster is healthy, registers the namespace unless it exists,
# and sets how long closed runs are kept, as `npm run cluster -- start` does
# (src/dev-server/cluster/lifecycle/ensure-namespace.ts). Exits 0 once the namespace is usable. Safe to re-run.
set -eu

ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
# How long closed runs stay (THOUGHTLINE_RETENTION_DAYS, default 90, like `thoughtline dev`); export chains that must outlive it.
RETENTION_DAYS="${THOUGHTLINE_RETENTION_DAYS:-90}"
WAIT_SECONDS="${WAIT_SECONDS:-180}"

log() { echo "[create-namespace] $*"; }

case "$RETENTION_DAYS" in
  ''|*[!0-9]*) log "THOUGHTLINE_RETENTION_DAYS must be a whole number of days, not '${RETENTION_DAYS}'"; exit 1 ;;
esac

# wait_for DESCRIPTION COMMAND...: retry COMMAND every 2 s until it succeeds or WAIT_SECONDS pass.
wait_for() {
  what="$1"; shift
  waited=0
  until "$@" >/dev/null 2>&1; do
    if [ "$waited" -ge "$WAIT_SECONDS" ]; then
      log "gave up after ${WAIT_SECONDS}s waiting for ${what}; last attempt said:"
      "$@" || true
      exit 1
    fi
    sleep 2
    waited=$((waited + 2))
  done
  log "${what}: ok"
}

# The port opens before every role has joined the ring: wait for the health check to say SERVING.
serving() { temporal operator cluster health --address "$ADDRESS" | grep -q SERVING; }
wait_for "Temporal server at ${ADDRESS}" serving

RETENTION="$((RETENTION_DAYS * 24))h"
if ! temporal operator namespace describe --namespace "$NAMESPACE" --address "$ADDRESS" >/dev/null 2>&1; then
  temporal operator namespace create --namespace "$NAMESPACE" --address "$ADDRESS" --retention "$RETENTION"
fi
# Set on every run, so a changed THOUGHTLINE_RETENTION_DAYS applies to an existing namespace too.
# Retried: a namespace just created is described at once but "not found" by other calls for a few
# seconds, until the frontend's namespace cache has it (seen on 1.32.2); once this succeeds, the
# next job can use it.
wait_for "namespace ${NAMESPACE} keeping closed runs ${RETENTION_DAYS} days" \
  temporal operator namespace update --namespace "$NAMESPACE" --address "$ADDRESS" --retention "$RETENTION"
