# jaxlint developer commands. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
comma := ,

.PHONY: demo test lint format venv clean docs bench bench-scale realworld heldout fuzz

# Find a Python >= 3.12 that really runs (current JAX needs 3.12+); never fall back to 3.11.
PYTHON312 := $(shell ./scripts/find_python312.sh 2>/dev/null)

# The distribution was called "jaxlint" before it became "jaxlinter": a venv that still has
# the old one would load the flake8 plugin twice (every finding reported twice).
DROP_OLD_DIST = if $(PY) -m pip show --quiet jaxlint >/dev/null 2>&1; then $(PY) -m pip uninstall --quiet --yes jaxlint; fi

$(VENV)/.installed: pyproject.toml
	@if [ -z "$(PYTHON312)" ]; then echo "error: no working Python >= 3.12 found (tried python3.13, python3.12, pyenv versions). Install one, or set PYTHON312=/path/to/python3.12." >&2; exit 2; fi
	@test -x $(PY) || $(PYTHON312) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@$(DROP_OLD_DIST)
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

venv: $(VENV)/.installed

# The demo needs jaxlint alone (libcst): no test toolchain, no jax.
$(VENV)/.installed-demo: pyproject.toml
	@if [ -z "$(PYTHON312)" ]; then echo "error: no working Python >= 3.12 found (tried python3.13, python3.12, pyenv versions). Install one, or set PYTHON312=/path/to/python3.12." >&2; exit 2; fi
	@test -x $(PY) || $(PYTHON312) -m venv $(VENV)
	@$(DROP_OLD_DIST)
	$(PY) -m pip install --quiet -e .
	@touch $@

# jaxlint exits 1 when it reports findings, as it does on the examples: only 2
# (a usage, configuration or internal error) stops the demo.
JAXLINT_DEMO = rc=0; $(VENV)/bin/jaxlint check $(1) || rc=$$?; if [ $$rc -gt 1 ]; then exit $$rc; fi

demo: $(VENV)/.installed-demo
	@echo "== jaxlint check examples/ =="
	@$(call JAXLINT_DEMO,examples/)
	@echo
	@echo "== rules that are off by default (modernisations and narrow checks; each rule's page says why) =="
	@$(call JAXLINT_DEMO,--select JAX105$(comma)JAX302$(comma)JAX602$(comma)JAX704 examples/)
	@echo
	@echo "== jaxlint check --diff --unsafe-fixes examples/ (nothing is written) =="
	@$(call JAXLINT_DEMO,--diff --unsafe-fixes examples/)
	@echo
	@echo "Each run above exits 1: it found something, as expected for the examples."
	@echo "Next, on your own code (or activate the venv: source $(VENV)/bin/activate):"
	@echo "  $(VENV)/bin/jaxlint check path/to/your/code         # check your code"
	@echo "  $(VENV)/bin/jaxlint rule JAX101                     # explain a rule"
	@echo "  $(VENV)/bin/jaxlint check --fix path/to/your/code   # apply the safe fixes"

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
	$(PY) benchmarks/scale.py

# the project-wide analysis at 500 / 1,000 / 2,000 / 4,000 synthetic modules and on the
# corpus: cost per module, files linted again, a run right after a cached run / cold
# jaxlint probe bench against independent synchronised timings (docs/probes.md, the honesty
# table): the timing-ratio tests the default suite leaves out, then the table itself
.PHONY: honesty
honesty: venv
	JAXLINT_TIMING_TESTS=1 $(PY) -m pytest -q -p no:cacheprovider tests/test_bench_honesty.py
	$(PY) benchmarks/bench_honesty.py

bench-scale: venv
	$(PY) benchmarks/scale.py

# jaxlint check, then --fix --unsafe-fixes --select ALL, on a copy of every pinned project:
# no crash, fixed files compile, a second fix run changes nothing (about 10-30 minutes)
realworld: venv
	$(PY) scripts/realworld.py

# old releases (2021-2022) of twelve JAX libraries imported on the installed JAX before and after
# `jaxlint check --fix --unsafe-fixes --select ALL` (docs/precision/api_drift.md): 0 newly broken,
# fixed files compile, a second fix run changes nothing (about 5-10 minutes; downloads once)
.PHONY: upgrade
upgrade: venv
	$(PY) scripts/upgrade.py

# the default rules on ten pinned projects never used for tuning (docs/precision/heldout.md):
# findings per 1,000 lines, a review sample and the fix diffs (written outside the repo)
heldout: venv
	$(PY) scripts/heldout.py --update-docs

# the real-bug corpus (docs/precision/bugs.md): jaxlint on the parent and the fix of bug-fix
# commits of the tuning projects (metadata in tests/bugs/bugs.toml). The repositories' git
# histories must be under $(JAXLINT_BUGS_GIT) (bare clones: the script prints the clone line
# for a missing one); trees and results go to ~/.cache/jaxlint-bugs. About an hour on 2 cores
# the first time; reruns use the cached results.
JAXLINT_BUGS_GIT ?= $(HOME)/.cache/jaxlint-bugs/git
.PHONY: bugs
bugs: venv
	$(PY) scripts/bugs.py --git-root "$(JAXLINT_BUGS_GIT)" --update-docs

# the fuzz tests of `make test`, with 10,000 examples per property instead of a few hundred
fuzz: venv
	JAXLINT_FUZZ_EXAMPLES=10000 $(PY) -m pytest -q -p no:cacheprovider tests/test_fuzz.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .jaxlint_cache .hypothesis
