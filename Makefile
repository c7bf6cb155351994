# Two commands do everything: `make lab` (or `make tutor`) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab tutor night docs test lint bench tournament clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# JupyterLab refuses to run as root unless told; containers often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $(ROOT_FLAG)

tutor: $(STAMP)
	$(BIN)/pepper-tutor lesson

night: $(STAMP)
	$(BIN)/pepper-tutor night $(NIGHT_ARGS)

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict
	@echo "site/ is built: open site/index.html, or run $(BIN)/python -m mkdocs serve"

lint: $(STAMP)
	$(BIN)/ruff check pepper_tutor tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m pepper_tutor.bench

# Duplicate matches between the computer players (several minutes).
tournament: $(STAMP)
	$(BIN)/python -m pepper_tutor.bench tournament

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
