#!/bin/sh
# One-shot job for docker-compose.yml (runs in the temporalio/admin-tools image, which ships the
# `temporal` CLI). Waits until the Temporal server answers and the namespace exists (the
# create-namespace job registers it), then registers the custom search attributes every
# Thoughtline run upserts, as THOUGHTLINE_SEARCH_ATTRIBUTES lists them (docker-compose.yml sets it
# from src/domain/run/search-attributes.ts; a test keeps the two the same). Safe to re-run: attributes
# that already exist with the same type are skipped; one that exists with a different type fails
# the job on purpose.
set -eu

ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
# name=type pairs, space separated; types as the temporal CLI spells them. No default here: one list, in the compose file.
ATTRIBUTES="${THOUGHTLINE_SEARCH_ATTRIBUTES:?set THOUGHTLINE_SEARCH_ATTRIBUTES to name=type pairs (docker-compose.yml does)}"
WAIT_SECONDS="${WAIT_SECONDS:-180}"

log() { echo "[create-search-attributes] $*"; }

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

server_serving() {
  temporal operator cluster health --address "$ADDRESS" 2>/dev/null | grep -q SERVING
}

list_attributes() {
  temporal operator search-attribute list --namespace "$NAMESPACE" --address "$ADDRESS" --output json
}

wait_for "Temporal server at ${ADDRESS}" server_serving
# Listing, not describing: a namespace just created is described before other calls find it.
wait_for "namespace ${NAMESPACE}" list_attributes

# The JSON is the ListSearchAttributes response: "customAttributes": {"Name": "INDEXED_VALUE_TYPE_KEYWORD", ...}.
has_name() { echo "$1" | grep -q "\"$2\"[[:space:]]*:"; }
has_name_and_type() { echo "$1" | grep -Eiq "\"$2\"[[:space:]]*:[[:space:]]*\"(INDEXED_VALUE_TYPE_)?$3\""; }

for pair in $ATTRIBUTES; do
  name="${pair%%=*}"
  type="${pair#*=}"
  current="$(list_attributes)"
  if has_name_and_type "$current" "$name" "$type"; then
    log "${name} (${type}) already registered"
    continue
  fi
  if has_name "$current" "$name"; then
    log "${name} exists with a type other than ${type}; remove it or fix the name (refusing to continue)"
    exit 1
  fi
  log "creating ${name} (${type})"
  if ! out="$(temporal operator search-attribute create --namespace "$NAMESPACE" --address "$ADDRESS" \
      --name "$name" --type "$type" 2>&1)"; then
    echo "$out"
    # A concurrent run may have created it in between: tolerate "already exists", but not
    # "already exists and has different type".
    if echo "$out" | grep -qi "different type" || ! echo "$out" | grep -qi "already exists"; then
      exit 1
    fi
    log "${name} already exists"
  fi
done

# Wait until the server lists every attribute with its type and its frontend accepts them: it may
# accept a registration before it applies it, and a run started in between fails to start.
all_listed() {
  current="$(list_attributes)" || return 1
  unlisted=""
  for pair in $ATTRIBUTES; do
    has_name_and_type "$current" "${pair%%=*}" "${pair#*=}" || unlisted="${unlisted} ${pair}"
  done
  [ -z "$unlisted" ] || { echo "not listed:${unlisted}"; return 1; }
  # Listed is not applied: the frontend checks queries, as it checks a run's start, against its
  # namespace cache, which picks a registration up when it refreshes (every 10 s by default).
  query="WorkflowId = 'thoughtline-search-attribute-probe'"
  for pair in $ATTRIBUTES; do query="${query:+${query} AND }${pair%%=*} IS NULL"; done
  temporal workflow count --namespace "$NAMESPACE" --address "$ADDRESS" --query "$query"
}
wait_for "every search attribute listed and applied in namespace ${NAMESPACE}" all_listed
log "all search attributes registered in namespace ${NAMESPACE}"
