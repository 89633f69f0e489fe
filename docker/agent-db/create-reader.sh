#!/bin/sh
# Runs once, when the agent-db volume is first created (the postgres image runs
# /docker-entrypoint-initdb.d/*). Makes the role the sql_query tool connects as: it logs in, reads
# every table the owner creates in `public` from now on, and writes nothing (docs/tools-sql.md).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v reader_password="$AGENT_DB_READER_PASSWORD" <<'SQL'
CREATE ROLE agent_reader LOGIN PASSWORD :'reader_password';
GRANT CONNECT ON DATABASE agent TO agent_reader;
GRANT USAGE ON SCHEMA public TO agent_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO agent_reader;
ALTER ROLE agent_reader SET default_transaction_read_only = on;
-- PostgreSQL lets every role write a logical-decoding message to the WAL, which no rollback
-- undoes; sql_query refuses a role that can (docs/tools-sql.md, "The role to create").
DO $$ DECLARE f regprocedure; BEGIN
  FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE proname = 'pg_logical_emit_message' LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP; END $$;
SQL
