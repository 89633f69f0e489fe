#!/bin/sh
# One-shot job for docker-compose.yml (runs in the temporalio/admin-tools image, which ships
# temporal-sql-tool and the schemas of its release under /etc/temporal/schema). Creates the two
# databases the server uses and brings their schemas up to that release, as an operator would and
# as `npm run cluster` does (src/dev-server/cluster/database/cluster-schema.ts): create-database,
# setup-schema -v 0.0 (the version table only), update-schema -d <versioned>. Every step is
# idempotent: an existing database is kept, a versioned schema is not set up again, and
# update-schema applies only the versions it lacks.
set -eu

# The image's schemas; SCHEMA_DIR only to try the script outside the image (docs/operations.md).
SCHEMAS="${SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"
log() { echo "[setup-schema] $*"; }

# sql_tool DATABASE COMMAND...: temporal-sql-tool against DATABASE on the compose PostgreSQL; the
# password comes from SQL_PASSWORD, which the tool reads itself.
sql_tool() {
  db="$1"; shift
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" -u "$POSTGRES_USER" --db "$db" "$@"
}

# DATABASE:FOLDER pairs; the folders are the schema's, the names the ones the server is given.
for pair in "${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"; do
  db="${pair%%:*}"
  sql_tool "$db" create-database
  sql_tool "$db" setup-schema -v 0.0
  sql_tool "$db" update-schema -d "$SCHEMAS/${pair#*:}/versioned"
  log "database ${db}: schema up to date"
done
