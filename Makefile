# Two commands do everything: `make lab` (or `make tutor`) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What is installed in .venv, one stamp per part: the core package (editable) and mypy, whose
# mypyc compiles the search; the notebooks' extra; game night's extra; everything the tests,
# the docs and the bench use (`dev`, which holds both extras).
CORE := $(VENV)/.core
NOTEBOOK := $(VENV)/.notebook
NIGHT := $(VENV)/.night
STAMP := $(VENV)/.installed
# The built double-dummy searches (pepper_tutor/analysis/native.py): the native one in C
# and the mypyc one, where a C compiler is at hand; without one the pure-Python search runs.
NATIVE := $(VENV)/.native
NATIVE_SOURCES := pepper_tutor/analysis/_search_native.c pepper_tutor/analysis/search.py \
	pepper_tutor/analysis/position.py pepper_tutor/engine/ranking.py \
	pepper_tutor/analysis/_sampling_native.c pepper_tutor/analysis/dealing.py \
	pepper_tutor/analysis/calling.py pepper_tutor/analysis/advice/sampling.py \
	pepper_tutor/analysis/advice/native_sampling.py

.PHONY: lab tutor night docs web lite check test lint bench fuzz clean tournament ladder puzzles

$(CORE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[native]'
	touch $(CORE)

$(NOTEBOOK): $(CORE)
	$(BIN)/pip install -q -e '.[notebook]'
	touch $(NOTEBOOK)

$(NIGHT): $(CORE)
	$(BIN)/pip install -q -e '.[night]'
	touch $(NIGHT)

$(STAMP): $(CORE)
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

$(NATIVE): $(CORE) $(NATIVE_SOURCES)
	$(BIN)/python -m pepper_tutor.analysis.native build
	touch $(NATIVE)

# axe-core from npm, pinned, for the browser tests' accessibility checks (tests/axe.py).
AXE_VERSION := 4.10.3
AXE := .cache/axe/node_modules/axe-core/axe.min.js

$(AXE):
	mkdir -p .cache/axe
	npm install --prefix .cache/axe --no-save --no-audit --no-fund --silent axe-core@$(AXE_VERSION)
	test -f $(AXE)

# JupyterLab refuses to run as root unless told; containers often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(NOTEBOOK) $(NATIVE)
	$(BIN)/jupyter lab notebooks/ $(ROOT_FLAG)

tutor: $(NATIVE)
	$(BIN)/pepper-tutor lesson

night: $(NIGHT) $(NATIVE)
	$(BIN)/pepper-tutor night $(NIGHT_ARGS)

# The Play and learn page (web/build.py): the pinned Pyodide runtime from npm, the pure wheels
# and the project's own, in build/web/ (downloads cached in .cache/web/); the docs put it in
# site/try/.
web: $(CORE)
	$(BIN)/python web/build.py

# The notebooks in JupyterLite (web/lite.py), offline, in build/lite/; the docs put it in
# site/lite/. Its tools need Python 3.12+ (found on PATH or under pyenv, or named with
# PEPPER_LITE_PYTHON) and live in their own venv, .cache/lite/venv.
lite: $(CORE)
	$(BIN)/python web/lite.py

docs: $(STAMP) web lite
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict
	@echo "site/ is built: open site/index.html, or run $(BIN)/python -m mkdocs serve"

lint: $(STAMP)
	$(BIN)/ruff check pepper_tutor tests web
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# The inner loop: lint, types, the layers and every test not marked slow (about a minute on
# two cores). `make test` (CI) runs everything, browser tests included.
check: lint $(NATIVE)
	$(BIN)/python -m pytest -q -m 'not slow'

# Then the solver's own tests again on the pure-Python search alone, the fallback of a machine
# without a C compiler (and of the browser), which the run before leaves to the native one.
test: lint $(NATIVE) web $(AXE)
	$(BIN)/python -m pytest -q
	PEPPER_TUTOR_PURE_SEARCH=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_solver.py tests/test_native.py

bench: $(STAMP) $(NATIVE) web
	$(BIN)/python -m pepper_tutor.bench
	$(BIN)/python web/bench.py

# The property tests of tests/test_fuzz.py (and the store faults of tests/test_fuzz_stores.py,
# the analysis API's refusals of tests/test_api_refusals.py) with their long budget: over
# 100,000 inputs (card notation, calls, tricks, whole hands, records and lessons: random and
# mutated; the learner store, the puzzle store, the daily board and game night under faults;
# 3,000 progress files to import, random, mutated and hostile), and the native search against
# the pure one on 100,000 random positions (tests/test_native.py), and the native sampling
# against the Python loop on the decisions of 300 hands (tests/test_native_sampling.py).
fuzz: $(STAMP) $(NATIVE)
	PEPPER_FUZZ=1 $(BIN)/python -m pytest -q -s -p no:cacheprovider --durations=0 tests/test_fuzz.py tests/test_fuzz_stores.py tests/test_api_refusals.py tests/test_native.py tests/test_native_sampling.py

# Duplicate matches between the computer players (several minutes).
tournament: $(STAMP) $(NATIVE)
	$(BIN)/python -m pepper_tutor.bench tournament

# The strength ladder: every pairing of beginner, reference (table tips), club, expert and the
# all-seeing ceiling, 10,000 duplicate deals a pairing, written to docs/ladder.md (hours on two
# cores: LADDER_ARGS='--deals 400 --executor dask-local:2 ...' for a shorter or wider run).
# Each pairing's result is kept in docs/ladder-records.jsonl as it ends (committed with the
# page it was written from): run it again after a stop, or after a change, and it plays only
# the pairings it lacks (those of the same players' code, deals, seed and rules).
LADDER_ARGS ?= --executor local --docs docs/ladder.md --records docs/ladder-records.jsonl
ladder: $(STAMP) $(NATIVE)
	$(BIN)/python -m pepper_tutor.bench ladder $(LADDER_ARGS)

# The shipped puzzles (pepper_tutor/data/puzzles.json, named with --out: puzzles mine writes
# only where it is told) at the lowest priority: the commands of
# pepper_tutor.teaching.puzzles.bank.REBUILD that the file does not record yet, one after
# another (a build cut short goes on; delete the file to build it anew); then the bank's
# answers by kind and the share of play puzzles the highest card answers.
puzzles: $(STAMP) $(NATIVE)
	$(BIN)/python -c "from pepper_tutor.teaching.puzzles.bank import missing_runs; print('\n'.join(missing_runs()))" | \
	while read -r cmd; do echo "$$cmd"; nice -n 19 $(BIN)/$$cmd --out pepper_tutor/data/puzzles.json || exit 1; done
	$(BIN)/python -m pepper_tutor.teaching.puzzles.shares

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
	rm -f pepper_tutor/analysis/_search_compiled*.so pepper_tutor/analysis/_search_native*.so
