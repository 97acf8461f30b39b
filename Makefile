# Two commands matter: `make run` and `make test`.  Everything else supports them.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Task worker processes (post-game analyses) beside the web processes.
WORKERS ?= 1
# Bot worker processes (bot moves and hints), one per core: the web processes never
# search, and a worker yields the CPU to them (it runs at a lower priority), so the
# bots use what people leave idle.  One worker is one core of search at most.
BOT_WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
PYTEST_WORKERS ?= 2
# Each browser test runs Chromium, a daphne and a bot worker: two at once on 2 cores
# starve each other's timers, so they run one at a time.
BROWSER_WORKERS ?= 1

.PHONY: run test lint format messages run-cluster clean train-policy

# Reinstalls only when a requirements file changed since the last install.
$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

# Static files are collected (hashed, compressed, cached for good), as in production.
run: export DJANGO_COLLECTED_STATIC ?= 1
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py seed_puzzles --if-empty --queue --games 30
	@echo
	@echo "  Durak Online is starting on http://$(HOST):$(PORT)/"
	@echo "  Create an admin account with:  $(BIN)/python manage.py createsuperuser"
	@echo
	$(BIN)/python -m durak_site.cluster --embedded --no-migrate --host $(HOST) --ports $(PORT) --workers $(WORKERS) --bot-workers $(BOT_WORKERS)

# Daphne processes (CLUSTER_PORTS), task workers and bot workers sharing DATABASE_URL and REDIS_URL;
# refuses without them.  A process that dies is restarted while the others serve.
CLUSTER_PORTS ?= 8001,8002
run-cluster: $(STAMP)
	$(BIN)/python -m durak_site.cluster --host $(HOST) --ports $(CLUSTER_PORTS) --workers $(WORKERS) --bot-workers $(BOT_WORKERS)

# Browser tests run in a pytest process of their own: Playwright's sync API
# keeps an event loop running in its thread, which the asyncio tests can't share.
# On PostgreSQL one test process holds many in-process sockets at once, each database
# hop a pooled connection: the site's default pool of 10 ran dry under load.
test: export DATABASE_POOL_MAX ?= 20
test: $(STAMP)
	$(BIN)/python manage.py makemigrations --check --dry-run >/dev/null
	# The rules and bots library (durak/) is tested on its own, with no Django at all.
	env -u DJANGO_SETTINGS_MODULE $(BIN)/pytest -p no:django -n $(PYTEST_WORKERS) durak/tests $(PYTEST_ARGS)
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not browser" $(PYTEST_ARGS)
	$(BIN)/pytest -n $(BROWSER_WORKERS) -m browser $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Needs GNU gettext (Debian: gettext).  The compiled .mo files are committed,
# so running the site never needs it.
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l ru --ignore=.venv --ignore=staticfiles --no-obsolete
	$(BIN)/python manage.py makemessages -d djangojs -l ru --ignore=.venv --ignore=staticfiles --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache

# Trains the learned bot (durak/bots/learned/) from a seed and writes its weights and
# reports (docs/training/): first the policy is distilled from the hard search, then it
# learns from how its own games end. PyTorch (CPU) and matplotlib are for this alone:
# the site and the tests never import them. The distillation's games are kept under
# .training/, so a run that stops picks up where it was.
TRAIN_ARGS ?= --seed 1 --rounds 1 --games 300
OUTCOME_ARGS ?= --seed 1 --rounds 370 --games 400
DISTILLED = .training/distilled-2p-36.npz
train-policy: $(STAMP)
	$(BIN)/python -m pip install --quiet -r requirements-train.txt
	$(BIN)/python -m training $(TRAIN_ARGS) --out $(DISTILLED)
	$(BIN)/python -m training.outcomes --start $(DISTILLED) $(OUTCOME_ARGS)
