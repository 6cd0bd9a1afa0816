#!/usr/bin/env bash
# Start PostgreSQL and Redis on this machine when they are not running, and make sure the
# project's database role exists. Used by .ci/run and `make run-services`.
# Prints the DATABASE_URL and REDIS_URL to use.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
DB_NAME=${DB_NAME:-gerrymander}
DB_USER=${DB_USER:-gerrymander}
DB_PASSWORD=${DB_PASSWORD:-gerrymander}

need_apt=()
command -v redis-server >/dev/null || need_apt+=(redis-server)
command -v pg_ctlcluster >/dev/null || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}" >&2
  apt-get update -qq >&2
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/gerrymander.log >&2
fi
if ! pg_isready -q -h 127.0.0.1; then
  version=$(ls /etc/postgresql | sort -V | tail -1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2
fi
for _ in $(seq 1 30); do
  redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 && break
  sleep 1
done
redis-cli -h 127.0.0.1 ping >/dev/null
pg_isready -q -h 127.0.0.1

psql_as_postgres() { su postgres -c "psql -qtAc \"$1\""; }
psql_as_postgres "SELECT 1 FROM pg_roles WHERE rolname='$DB_USER'" | grep -q 1 ||
  psql_as_postgres "CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASSWORD'" >/dev/null
psql_as_postgres "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'" | grep -q 1 ||
  su postgres -c "createdb -O $DB_USER $DB_NAME"

echo "DATABASE_URL=postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:5432/$DB_NAME"
echo "REDIS_URL=redis://127.0.0.1:6379/0"
