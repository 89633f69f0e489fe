#!/bin/sh
# One-shot job for docker-compose.yml (runs in the postgres image, which ships psql): creates the
# chain store's database (docs/store.md) on the compose PostgreSQL unless it exists. The store
# creates its own tables on first use; this job only makes the empty database, so it is safe to
# re-run on every `up`, on a fresh volume and on one that predates the store alike.
set -eu

DB="${STORE_DBNAME:-thoughtline_store}"
log() { echo "[create-store-db] $*"; }

case "$DB" in
  ''|*[!a-z0-9_]*) log "STORE_DBNAME must be lowercase letters, digits and underscores, not '${DB}'"; exit 1 ;;
esac

if psql -tAc "SELECT 1 FROM pg_database WHERE datname = '${DB}'" | grep -q 1; then
  log "database ${DB} exists"
else
  psql -c "CREATE DATABASE ${DB}"
  log "database ${DB} created"
fi
