#!/bin/sh
# PostgreSQL image init script (docker-entrypoint-initdb.d, run once, when the
# data volume is first made): the service's own role. The servers and the
# migrations connect as `heroes`: no superuser, no CREATEDB, no CREATEROLE; it
# owns the `heroes` database (so its tables) and nothing else. The migrations
# need no more: pg_trgm is a trusted extension a database owner may create.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v password="$HEROES_DB_PASSWORD" <<'SQL'
CREATE ROLE heroes LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'password';
CREATE DATABASE heroes OWNER heroes;
REVOKE ALL ON DATABASE heroes FROM PUBLIC;
SQL
