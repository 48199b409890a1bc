# Salon — the two commands of the Quick start, and a few for development.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SALON := $(BIN)/salon
# Every library at the version the project was tested with (docs/deployment.md, "The lock
# file"): `make lock` writes it from pyproject.toml; every install here goes through it.
CONSTRAINTS := constraints.txt
PIP_INSTALL := $(BIN)/pip install --constraint $(CONSTRAINTS)
# `make lock` takes every library's newest release; `make lock LOCK_UPGRADE=` keeps the
# pins it can and only adds what pyproject.toml gained; `LOCK_UPGRADE=--upgrade-package=X`
# moves one library.
LOCK_UPGRADE ?= --upgrade

.PHONY: run test lint format lock clean messages language

$(BIN)/python:
	@echo "Creating the virtual environment $(VENV)…"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	@echo "Installing Salon and its libraries into $(VENV) (the first time: about a minute)…"
	$(PIP_INSTALL) --progress-bar on -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	@echo "Installing Salon with its test tools into $(VENV) (the first time: a minute or two)…"
	$(PIP_INSTALL) --progress-bar on -e '.[test]'
	touch $@ $(VENV)/.installed

## make run: install, migrate the embedded SQLite database, seed the demo club, serve.
## On an installation whose club is not the demo, `salon demo` says so (status 2) and the
## club is served all the same.
run: $(VENV)/.installed
	$(SALON) migrate
	$(SALON) demo || [ $$? -eq 2 ]
	$(SALON) serve

## make test: install the test dependencies, lint, type-check and run the whole suite.
test: lint
	$(BIN)/pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check app tests migrations
	$(BIN)/ruff format --check app tests migrations
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format app tests migrations
	$(BIN)/ruff check --fix app tests migrations

## make lock: resolve pyproject.toml (the runtime and every extra) again into the lock file,
## for Python 3.11 and newer on any platform (uv's universal resolution). Then `make test`,
## and commit constraints.txt with the change that needed it.
lock: | $(BIN)/python
	$(BIN)/pip install --quiet 'uv>=0.5'
	$(BIN)/uv pip compile pyproject.toml --all-extras --universal --python-version 3.11 \
	    $(LOCK_UPGRADE) --custom-compile-command 'make lock' --quiet --output-file $(CONSTRAINTS)

## make messages: extract the marked words (Python, templates, scripts) and bring every
## catalog up to date; then translate what is new (tests/i18n fails until it is).
# (the scripts' own, t, tn and tp, are in babel.cfg)
MESSAGE_KEYWORDS := -k _ -k N_ -k ngettext:1,2 -k pgettext:1c,2 -k npgettext:1c,2,3
messages: $(VENV)/.installed
	$(BIN)/pybabel -q extract -F babel.cfg $(MESSAGE_KEYWORDS) --no-default-keywords \
	    --sort-by-file --project=Salon --omit-header -o .messages.pot .
	$(BIN)/pybabel -q update -i .messages.pot -d app/i18n/locales -N --ignore-obsolete \
	    --ignore-pot-creation-date
	rm -f .messages.pot

## make language CODE=de: a catalog for a new language, to translate (README).
language: $(VENV)/.installed
	@test -n "$(CODE)" || { echo "make language CODE=<code>"; exit 2; }
	$(BIN)/pybabel -q extract -F babel.cfg $(MESSAGE_KEYWORDS) --no-default-keywords \
	    --sort-by-file --project=Salon -o .messages.pot .
	$(BIN)/pybabel -q init -i .messages.pot -d app/i18n/locales -l $(CODE)
	rm -f .messages.pot

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
