# Gerrymander Classroom - the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test test-fast bench bench-engine bench-bots bench-berrymandering bench-fptp bench-latency bench-fairness bench-ensemble run-services stop-services migrate demo lint check-deploy clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

## The optional `maps` extra (plotly-geo, pyshp) for `manage.py state_maps_build`: `make test`
## installs it (CI tests the command); `make run` does not need it.
MAPS_STAMP := $(VENV)/.installed-maps
$(MAPS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,maps]'
	touch $(MAPS_STAMP)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_seed

## Embedded default: SQLite, in-memory channel layer, bots in-process. Nothing else needed.
run: demo
	DEBUG=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

## The test suite. With DATABASE_URL/REDIS_URL set (CI) it runs on PostgreSQL and Redis, and
## then runs the embedded-shape tests again on SQLite.
test: $(STAMP) $(MAPS_STAMP)
	$(BIN)/lint-imports
	$(BIN)/pytest -m "not browser" $(PYTEST_ARGS)
	$(BIN)/pytest -m browser $(PYTEST_ARGS)
	@if [ -n "$$DATABASE_URL" ]; then \
	  echo "--- embedded shape (SQLite, in-memory layer, in-process bots) ---"; \
	  env -u DATABASE_URL -u REDIS_URL $(BIN)/pytest -m "embedded and not redis and not postgres" $(PYTEST_ARGS); \
	fi

test-fast: $(STAMP)
	$(BIN)/pytest -m "not browser and not slow" -x -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

## Benchmarks print figures side by side with their baselines (never asserted in tests).
bench: bench-engine bench-bots bench-berrymandering bench-fptp bench-ensemble bench-fairness bench-latency

# Benchmarks compare with tools the app itself does not need (GerryChain).
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench-engine: $(STAMP)
	$(BIN)/python -m bench.engine_bench

bench-bots: $(STAMP)
	$(BIN)/python -m bench.bots_ladder

## Berrymandering: engine speed against a naive reference, and its bots' ladder.
bench-berrymandering: $(STAMP)
	$(BIN)/python -m bench.berrymandering_bench

## First Past the Post: its bots' ladder (2 and 4 players) and decision times.
bench-fptp: $(STAMP)
	$(BIN)/python -m bench.fptp_bench

## The lesson's ensemble: 1,000 random maps of the 73-county board, against the engine's own
## playouts and GerryChain ReCom steps on the same county graph.
bench-ensemble: $(BENCH_STAMP)
	$(BIN)/python -m bench.ensemble_bench

## Other tables' bot latency while one student floods the server with bot-only games.
bench-fairness: $(STAMP)
	$(BIN)/python -m bench.bot_fairness

## Live-play latency at two paces: every table moving every 0.5-1.5 s (stress), and every
## 2-6 s (a class thinking about each border).
bench-latency: $(STAMP)
	bash bench/latency.sh --think 0.5 1.5 --rounds 20
	bash bench/latency.sh --think 2 6 --rounds 15

## Production shape on this machine: PostgreSQL, Redis, 2 ASGI processes, 1 Celery worker.
run-services: $(STAMP)
	bash scripts/run-services.sh

stop-services:
	bash scripts/run-services.sh stop

check-deploy: $(STAMP)
	DATABASE_URL=postgres://localhost/gerrymander REDIS_URL=redis://localhost:6379/0 \
	SECRET_KEY=$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))') \
	ALLOWED_HOSTS=classroom.example.org $(BIN)/python manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) staticfiles *.egg-info
