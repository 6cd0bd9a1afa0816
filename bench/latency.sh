#!/usr/bin/env bash
# Live-play latency benchmark (production shape): PostgreSQL, Redis channel layer, several
# daphne processes.  Starts its own services and a separate database; prints figures.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash scripts/services-up.sh | sed 's/^/export /')"
BENCH_DB=gerrymander_bench
su postgres -c "dropdb --force --if-exists $BENCH_DB"
su postgres -c "createdb -O gerrymander $BENCH_DB"
export DATABASE_URL=${DATABASE_URL%/*}/$BENCH_DB
export SECRET_KEY=bench-only-secret-key-$(date +%s)-0123456789abcdefghijklmnopqrstuvwxyz
export ALLOWED_HOSTS=127.0.0.1,localhost SECURE_SSL_REDIRECT=false SECURE_HSTS_SECONDS=0
export ENABLE_ECHO_SOCKET=true CHANNEL_PREFIX=bench-$$ LOG_LEVEL=WARNING
.venv/bin/python manage.py migrate --noinput -v 0
.venv/bin/python -m bench.latency "$@"
