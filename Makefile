# jaxlint developer commands. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test lint format venv clean docs bench realworld heldout fuzz

# Find a Python >= 3.12 that really runs (current JAX needs 3.12+); never fall back to 3.11.
PYTHON312 := $(shell ./scripts/find_python312.sh 2>/dev/null)

$(VENV)/.installed: pyproject.toml
	@if [ -z "$(PYTHON312)" ]; then echo "error: no working Python >= 3.12 found (tried python3.13, python3.12, pyenv versions). Install one, or set PYTHON312=/path/to/python3.12." >&2; exit 2; fi
	@test -x $(PY) || $(PYTHON312) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

venv: $(VENV)/.installed

demo: venv
	@echo "== jaxlint check examples/ =="
	-$(VENV)/bin/jaxlint check examples/
	@echo
	@echo "== rules that are off by default (too noisy on real code; docs/precision/heldout.md) =="
	-$(VENV)/bin/jaxlint check --select JAX102,JAX105,JAX301,JAX401 examples/
	@echo
	@echo "== jaxlint check --diff --unsafe-fixes examples/ (nothing is written) =="
	-$(VENV)/bin/jaxlint check --diff --unsafe-fixes examples/
	@echo
	@echo "(exit code 1 above means findings were reported, as expected for the examples)"

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

docs: venv
	$(PY) -m jaxlint.docs_gen docs/rules

test: lint
	$(PY) -m pytest -q tests; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 1; fi; exit $$rc

bench: venv
	$(PY) benchmarks/bench.py

# jaxlint check, then --fix --unsafe-fixes --select ALL, on a copy of every pinned project:
# no crash, fixed files compile, a second fix run changes nothing (about 10-30 minutes)
realworld: venv
	$(PY) scripts/realworld.py

# the default rules on ten pinned projects never used for tuning (docs/precision/heldout.md):
# findings per 1,000 lines, a review sample and the fix diffs (written outside the repo)
heldout: venv
	$(PY) scripts/heldout.py --update-docs

# the fuzz tests of `make test`, with 10,000 examples per property instead of a few hundred
fuzz: venv
	JAXLINT_FUZZ_EXAMPLES=10000 $(PY) -m pytest -q -p no:cacheprovider tests/test_fuzz.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .jaxlint_cache .hypothesis
