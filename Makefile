# Everything a newcomer needs: `make run` serves the site, `make test` runs all checks.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run setup content test test-suite test-db lint browser bench clean

# First Python >= 3.12 found: pyenv's for .python-version, then python3.13/3.12, then python3.
define find_python
for candidate in "$$(command -v pyenv >/dev/null && pyenv which python 2>/dev/null)" \
    "$$(command -v python3.13)" "$$(command -v python3.12)" "$$(command -v python3)"; do \
  if [ -n "$$candidate" ] && "$$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
    echo "$$candidate"; exit 0; fi; \
done; \
for candidate in $$HOME/.pyenv/versions/3.1[2-9]*/bin/python3; do \
  if [ -x "$$candidate" ]; then echo "$$candidate"; exit 0; fi; \
done; \
echo "Python >= 3.12 nicht gefunden" >&2; exit 1
endef

$(PY):
	@python_bin=$$($(find_python)) && echo "Erzeuge $(VENV) mit $$python_bin" && "$$python_bin" -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

setup: $(STAMP)

content: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	$(PY) manage.py simulate_kaetzchen --deals 20000 --if-missing
	$(PY) manage.py simulate_katz_und_maus --if-missing
	$(PY) manage.py simulate_alpaka --if-missing
	$(PY) manage.py simulate_the_cat --if-missing

run: content
	$(PY) manage.py ensure_dev_editor --url http://$(HOST):$(PORT)/admin/
	$(PY) manage.py runserver $(HOST):$(PORT)

# Debian's Chromium for the browser tests (no browser download is possible here) and
# Debian's nginx for the load-balancer test (tests/servers/test_load_balancer.py).
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/sbin/nginx ]; then \
	  echo "Installiere Chromium und nginx (Debian-Pakete) …"; \
	  SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-dejavu-core nginx >/dev/null; \
	fi

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Unit and view tests on both cores (pytest-xdist); then the browser tests, also on both
# cores but each file in one process (its tests share fixtures and run in order) – those
# that act inside an animation's time window too: they judge by the page's own timestamps
# and set up again when a busy machine made them miss the window; last, on their own, the
# tests that start real app servers (`servers`).
test-suite: setup browser
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -n 2 -m "not browser and not servers" $(PYTEST_ARGS)
	SQLITE_TEST_FILE=1 DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -n 2 --dist loadfile -m "browser and not servers" $(PYTEST_ARGS)
	SQLITE_TEST_FILE=1 DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -m "servers" $(PYTEST_ARGS)

# The tests that touch the database (CI runs them again on PostgreSQL): only tests that
# ask for a database (`--database-tests-only`), no pure engine tests and no long property
# tests – the others ran once already. Of the browser tests, those
# where several players write to one table or list at once (marker multiplayer, on both
# cores, each file in one process) and then, on their own, the app-server tests;
# single-player demos and pages ran in the browser on SQLite already.
test-db: setup browser
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -n 2 --database-tests-only -m "not browser and not slow and not servers" --ignore=tests/engines $(PYTEST_ARGS)
	SQLITE_TEST_FILE=1 DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -n 2 --dist loadfile -m "multiplayer and not servers" $(PYTEST_ARGS)
	SQLITE_TEST_FILE=1 DJANGO_ALLOW_ASYNC_UNSAFE=true $(VENV)/bin/pytest -m "servers" $(PYTEST_ARGS)

test: lint test-suite

bench: setup
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
