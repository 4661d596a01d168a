"""Every rule's embedded VALID and INVALID examples, run automatically (Fixit's habit)."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest

import jaxlint.rules
from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.fixers import fix_text
from jaxlint.rules import all_rules
from jaxlint.rules.base import Invalid, Rule, Valid, fixed_name
from jaxlint.verify import parse_declaration
from jaxlint.versions import NEWEST_KNOWN_JAX, parse_version


def _settings(example: Valid | Invalid, rule: type[Rule]) -> Settings:
    options = tuple((k, v) for k, v in example.options.items())
    return Settings(
        target_jax=parse_version(example.target_jax or NEWEST_KNOWN_JAX),
        rule_options=((rule.code, options),) if options else (),
    )


def _cases(kind: str):
    for rule in all_rules():
        for i, example in enumerate(getattr(rule, kind)):
            name = Path(example.file).stem if example.file else str(i)
            yield pytest.param(rule, example, id=f"{rule.code}-{kind.lower()}-{name}")


def _lint(rule: type[Rule], example: Valid | Invalid, text: str):
    result = lint_text(text, example.filename, _settings(example, rule), [rule], want_fixes=True)
    assert not result.internal_errors, result.internal_errors[0].traceback
    return result.diagnostics


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_definition(rule: type[Rule]) -> None:
    assert rule.check_definition() == []


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_has_enough_examples(rule: type[Rule]) -> None:
    assert len(rule.VALID) >= 6, "each rule needs near-miss VALID examples"
    assert len(rule.INVALID) >= 5


@pytest.mark.parametrize(("rule", "example"), list(_cases("VALID")))
def test_valid_example_is_silent(rule: type[Rule], example: Valid) -> None:
    diags = [d for d in _lint(rule, example, example.code) if d.code == rule.code]
    assert diags == [], f"{rule.code} fired on VALID code:\n{example.code}"


@pytest.mark.parametrize(("rule", "example"), list(_cases("INVALID")))
def test_invalid_example_fires(rule: type[Rule], example: Invalid) -> None:
    diags = [d for d in _lint(rule, example, example.code) if d.code == rule.code]
    assert diags, f"{rule.code} did not fire on INVALID code:\n{example.code}"
    first = diags[0]
    if example.line is not None:
        assert first.start.row == example.line
    if example.column is not None:
        assert first.start.column == example.column
    if example.count is not None:
        assert len(diags) == example.count
    if example.message_contains is not None:
        assert example.message_contains in first.message
    for d in diags:
        assert d.name == rule.name
        # the verify command, filled in for the finding (jaxlint/verify.py): the same probe
        # and environment, no placeholder left; none only where the rule's needs one
        declared = parse_declaration(rule.probe)
        if d.probe is None:
            assert declared.placeholder is not None
        else:
            filled = parse_declaration(d.probe)
            assert (filled.env, filled.probe) == (declared.env, declared.probe)
            assert d.probe.endswith(f" --rule {rule.code}")  # the report's rule_check
            assert (
                filled.placeholder is None
                and f"{example.filename}:" in d.probe
                or (declared.placeholder is None and d.probe == f"{rule.probe} --rule {rule.code}")
            )


@pytest.mark.parametrize(("rule", "example"), list(_cases("INVALID")))
def test_invalid_example_fix(rule: type[Rule], example: Invalid) -> None:
    def lint(text: str):
        return _lint(rule, example, text)

    once = fix_text(example.code, lint, unsafe=example.unsafe_fix)
    assert once.dropped == []
    if example.expected_fix is not None:
        assert once.text == example.expected_fix
    if once.text != example.code:
        cst.parse_module(once.text)
        ast.parse(once.text)
        # the fix removed the finding it fixed, and fixing again changes nothing
        twice = fix_text(once.text, lint, unsafe=example.unsafe_fix)
        assert twice.text == once.text
        assert twice.total_applied == 0
    if example.expected_fix is not None and example.expected_fix != example.code:
        remaining = [d for d in lint(once.text) if d.code == rule.code]
        assert remaining == []


RULES_DIR = Path(jaxlint.rules.__file__).parent


def test_every_example_file_is_used_once() -> None:
    """Each file in a ``*.examples/`` folder is one example (or the fix of one), named for
    its kind: a misspelt or forgotten file would otherwise never be checked."""
    used: list[str] = []
    for rule in all_rules():
        for kind in ("VALID", "INVALID"):
            for example in getattr(rule, kind):
                if example.file is None:
                    continue
                folder, name = example.file.split("/")
                assert name.startswith(f"{kind.lower()}_"), example.file
                used.append(example.file)
                if kind == "INVALID" and example.expected_fix is not None:
                    used.append(f"{folder}/{fixed_name(name)}")
    on_disk = sorted(
        f"{path.parent.name}/{path.name}" for path in RULES_DIR.glob("*/*.examples/*.py")
    )
    # the shared key-hygiene examples appear in several rules' VALID lists
    assert sorted(set(used)) == on_disk
    # each examples folder sits beside its module (prng/key_hygiene.py holds the shared ones)
    folders = {path.parent.relative_to(RULES_DIR) for path in RULES_DIR.glob("*/*.examples/*.py")}
    for folder in folders:
        assert (RULES_DIR / folder).with_suffix(".py").is_file(), folder


def test_one_rule_per_module() -> None:
    """ruff's layout: ``rules/<family>/<rule_name>.py`` holds that rule and no other."""
    for rule in all_rules():
        family, module = rule.__module__.split(".")[2:]
        assert module == rule.name.replace("-", "_"), rule.code
        assert (RULES_DIR / family / f"{module}.examples").is_dir(), rule.code


def test_example_files_are_packaged() -> None:
    """An installed jaxlint reads the example files too: pyproject's package-data ships them."""
    import tomllib

    root = RULES_DIR.parent
    pyproject = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["jaxlint"]
    shipped = {path for pattern in patterns for path in root.glob(pattern)}
    assert set(RULES_DIR.glob("*/*.examples/*.py")) <= shipped


def test_rule_size_limits() -> None:
    """A newcomer reads a rule in one sitting: no rule class above 400 lines (docs and
    examples list included) and no module of ``jaxlint/rules/`` above 800 lines. A rule
    whose analysis grows moves it to ``<rule_name>_analysis.py`` (a mixin)."""
    import inspect

    for rule in all_rules():
        assert len(inspect.getsourcelines(rule)[0]) <= 400, rule.code
    for path in RULES_DIR.rglob("*.py"):
        if ".examples" in path.parent.name:
            continue
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 800, path
