# The README's commands. Everything a machine needs is installed from here.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Workers for pytest: the development machine and CI have two cores.
JOBS   ?= 2
# The native engines are Rust (native/): rustup's cargo, wherever the shell's PATH leaves it.
export PATH := $(HOME)/.cargo/bin:$(PATH)
CARGO  := cargo --quiet
NATIVE := native/Cargo.toml native/Cargo.lock $(shell find native -path native/target -prune -o \( -name '*.rs' -o -name Cargo.toml \) -print)

.PHONY: run test lint typecheck pytest bench playthroughs serve clean system-packages native-checks

# The main job: the web app on http://127.0.0.1:8000 with an embedded SQLite database.
run: $(VENV)/.run-installed $(VENV)/.native-built
	$(BIN)/boneyard serve

# Every check: lint, the layers (import-linter's contracts in pyproject.toml), code nothing uses
# (vulture), types, tests (conformance, golden playthroughs, rules, interfaces). The slowest
# tests are listed at the end: the whole run is kept near 20 minutes on two cores.
test: system-packages $(VENV)/.dev-installed $(VENV)/.native-built native-checks
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports
	$(BIN)/vulture
	$(BIN)/mypy
	$(BIN)/pytest -n $(JOBS) -q --durations=25

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports
	$(BIN)/vulture

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

pytest: system-packages $(VENV)/.dev-installed $(VENV)/.native-built
	$(BIN)/pytest -n $(JOBS) -q --durations=25

# The Rust side's own checks: formatting, clippy with warnings as errors, its unit and property
# tests (the differential tests against the Python rules are pytest's, in tests/native).
native-checks:
	$(CARGO) fmt --manifest-path native/Cargo.toml --all --check
	$(CARGO) clippy --manifest-path native/Cargo.toml --all-targets -- -D warnings
	$(CARGO) test --manifest-path native/Cargo.toml

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

# pip's editable install builds the package with maturin (pyproject.toml's build backend): the
# native engines become the extension module src/boneyard/native/_engine.abi3.so, a release build.
$(VENV)/.run-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[web]"
	touch $@ $(VENV)/.native-built

$(VENV)/.dev-installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.run-installed $(VENV)/.native-built

# A Rust source changed since the last build: build the extension again (cargo's cache in
# native/target keeps it short).
$(VENV)/.native-built: $(NATIVE) | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

clean:
	rm -rf $(VENV) build dist .mypy_cache .pytest_cache .ruff_cache native/target src/boneyard/native/*.so
