# Salon — the two commands of the Quick start, and a few for development.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SALON := $(BIN)/salon

.PHONY: run test lint format clean

$(BIN)/python:
	@echo "Creating the virtual environment $(VENV)…"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "Installing Salon and its libraries into $(VENV) (the first time: about a minute)…"
	$(BIN)/pip install --progress-bar on -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "Installing Salon with its test tools into $(VENV) (the first time: a minute or two)…"
	$(BIN)/pip install --progress-bar on -e '.[test]'
	touch $@ $(VENV)/.installed

## make run: install, migrate the embedded SQLite database, seed the demo club, serve.
run: $(VENV)/.installed
	$(SALON) migrate
	$(SALON) demo
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

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
