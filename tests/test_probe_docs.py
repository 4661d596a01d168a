"""Every rule's docs show a runnable `jaxlint probe ...` command, and it runs.

For each rule in ``jaxlint.rules.all_rules()``, the command in ``rule.probe`` must
appear in the rule's docs page, and running it through the ``jaxlint`` CLI on
``tests/fixtures/probes/docs_example.py`` (substituted for ``FILE.py:FUNC``) must
not be a usage error (exit code 2).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from probe_support import FIXTURES, probe_env

from jaxlint.docs_gen import rule_markdown
from jaxlint.rules import all_rules
from jaxlint.verify import parse_declaration

pytest.importorskip("jax")

EXAMPLE = FIXTURES / "docs_example.py"
EXAMPLE_LINE = "14"  # `return buf + x + ...` in `example`
PLACEHOLDER = re.compile(r"\bFILE\.py:[A-Z_]+\b")


def _argv(command: str) -> tuple[list[str], dict[str, str]]:
    """The command line and the environment variables in front of it (``NAME=1 jaxlint ...``);
    ``LINE`` becomes the example's last line."""
    decl = parse_declaration(PLACEHOLDER.sub(f"{EXAMPLE}:example", command))
    assert decl.words[:2] == ("jaxlint", "probe"), command
    words = [EXAMPLE_LINE if w == "LINE" else w for w in decl.words[1:]]
    return [sys.executable, "-m", "jaxlint", *words], dict(decl.env)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_docs_show_the_probe_command(rule):
    assert parse_declaration(rule.probe).words[:2] == ("jaxlint", "probe")
    assert f"`{rule.probe}`" in rule_markdown(rule)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_probe_command_runs_without_usage_error(rule, tmp_path):
    argv, env = _argv(rule.probe)
    if "--format" not in argv:
        argv += ["--format", "json"]
    proc = subprocess.run(
        argv, capture_output=True, text=True, cwd=tmp_path, env=probe_env(**env), timeout=300
    )
    assert proc.returncode != 2, f"{rule.code}: {rule.probe}\n{proc.stdout}\n{proc.stderr}"
    report = json.loads(proc.stdout)
    assert report["version"] == 1
    assert report["ok"] is (proc.returncode == 0)
    if rule.code == "JAX602":  # "--dump jaxpr.txt shows an `empty` equation"
        assert "empty[" in (tmp_path / "jaxpr.txt").read_text()
    if rule.code == "JAX302":  # "a raw key shows as uint32[2]"
        outputs = report["stages"]["eval_shape"]["outputs"]
        assert [o["aval"] for o in outputs] == ["float32[3]", "uint32[2]"]
    if rule.code == "JAX701":  # "prints the installed JAX version"
        assert report["versions"]["jax"]


PROBES_DOC = FIXTURES.parent.parent.parent / "docs" / "probes.md"
PROBES_SRC = FIXTURES.parent.parent.parent / "jaxlint" / "runtime_probes"


def test_every_error_class_a_probe_makes_is_documented():
    made = set()
    for path in PROBES_SRC.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        made |= set(re.findall(r'fail\(\s*EXIT_\w+,\s*"(\w+)"', text))
        made |= set(re.findall(r'"class": "(\w+)"', text))
    assert {"UsageError", "InvalidMeasurement", "UnsynchronisableOutput"} <= made
    doc = PROBES_DOC.read_text(encoding="utf-8")
    (row,) = [line for line in doc.splitlines() if line.startswith("| `class` |")]
    assert sorted(name for name in made if f"`{name}`" not in row) == []


def test_exit_codes_are_documented():
    from jaxlint.runtime_probes import _common

    doc = PROBES_DOC.read_text(encoding="utf-8")
    for code in (
        _common.EXIT_OK,
        _common.EXIT_EXPECTATION,
        _common.EXIT_ERROR,
        _common.EXIT_USER_CODE,
    ):
        assert re.search(rf"^  \| {code} \| \S", doc, re.MULTILINE), code
    assert "exit code 0 only with `ok: true`" in doc
