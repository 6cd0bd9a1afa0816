#!/usr/bin/env bash
# The production shape on one machine: PostgreSQL, Redis, two ASGI (daphne) processes on
# ports 8001 and 8002 and one Celery worker for bot moves.  `scripts/run-services.sh stop`
# stops the app processes (not PostgreSQL/Redis).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
RUN=var/run
LOG=var/log
mkdir -p "$RUN" "$LOG"

stop() {
  for pidfile in "$RUN"/*.pid; do
    [ -e "$pidfile" ] || continue
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
}
if [ "${1:-}" = stop ]; then stop; echo "stopped"; exit 0; fi
stop

eval "$(bash scripts/services-up.sh | sed 's/^/export /')"
export SECRET_KEY=${SECRET_KEY:-$(cat var/secret_key 2>/dev/null || $BIN/python -c 'import secrets; print(secrets.token_urlsafe(50))' | tee var/secret_key)}
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-127.0.0.1,localhost}
# Plain http on localhost; behind a TLS proxy leave these at their secure defaults.
export SECURE_SSL_REDIRECT=${SECURE_SSL_REDIRECT:-false}
export SESSION_COOKIE_SECURE=${SESSION_COOKIE_SECURE:-false}
export CSRF_COOKIE_SECURE=${CSRF_COOKIE_SECURE:-false}
export SECURE_HSTS_SECONDS=${SECURE_HSTS_SECONDS:-0}

$BIN/python manage.py migrate --noinput
$BIN/python manage.py collectstatic --noinput -v 0
# Demo accounts only in an empty database (never resets anyone's password afterwards).
if [ "$($BIN/python manage.py shell -v 0 -c 'from django.contrib.auth.models import User; print(User.objects.exists())')" = False ]; then
  $BIN/python manage.py demo_seed
fi

for port in 8001 8002; do
  nohup $BIN/daphne -b 127.0.0.1 -p "$port" gerrymander_site.asgi:application \
    >"$LOG/asgi-$port.log" 2>&1 &
  echo $! >"$RUN/asgi-$port.pid"
done
nohup $BIN/celery -A gerrymander_site worker -Q bots,bots_lobby,default --concurrency 2 -n bots1@%h \
  --beat --schedule var/run/celerybeat-schedule -l info >"$LOG/worker-1.log" 2>&1 &
echo $! >"$RUN/worker-1.pid"

echo "ASGI on http://127.0.0.1:8001 and http://127.0.0.1:8002, 1 Celery worker (logs in $LOG)."
echo "Stop with: make stop-services"
