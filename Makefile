# The README's commands. Everything a machine needs is installed from here.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Workers for pytest: the development machine and CI have two cores.
JOBS   ?= 2

.PHONY: run test lint typecheck pytest bench playthroughs serve clean system-packages

# The main job: the web app on http://127.0.0.1:8000 with an embedded SQLite database.
run: $(VENV)/.run-installed
	$(BIN)/boneyard serve

# Every check: lint, the layers (import-linter's contracts in pyproject.toml), code nothing uses
# (vulture), types, tests (conformance, golden playthroughs, rules, interfaces).
test: system-packages $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports
	$(BIN)/vulture
	$(BIN)/mypy
	$(BIN)/pytest -n $(JOBS) -q

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports
	$(BIN)/vulture

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

pytest: system-packages $(VENV)/.dev-installed
	$(BIN)/pytest -n $(JOBS) -q

# Chromium, cairo and PostgreSQL for the tests: installed as root with apt, else one line that
# names them and stops the run before anything else starts.
system-packages:
	@.ci/system-packages

bench: $(VENV)/.run-installed
	$(BIN)/boneyard bench

# Rewrite the golden playthrough files after an intended rules change.
playthroughs: $(VENV)/.dev-installed
	$(BIN)/python -m boneyard.testing.playthroughs --write tests/playthroughs

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[web]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.run-installed

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache
