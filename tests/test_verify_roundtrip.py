"""Each finding's verify command, pasted and run as printed, confirms the finding.

``jaxlint check`` runs on ``tests/fixtures/probes/roundtrip/program.py`` (no input
factory in it); the command is read from the text output's ``= verify:`` line and
from the JSON ``probe`` key (they must agree), split with ``shlex`` (its leading
``NAME=VALUE`` words become the environment, as a shell would do), and run with
``shell=False`` from the file's folder. The probe must then name the finding's rule
(``ok: false``, exit 3) or, for the compilation rules, count the recompilation
that the rule declares (``rules`` in the loop report).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from probe_support import FIXTURES, ROOT, probe_env

pytest.importorskip("jax")

FOLDER = FIXTURES / "roundtrip"
PROGRAM = "program.py"


def _jaxlint() -> list[str]:
    script = Path(sys.executable).parent / ("jaxlint.exe" if os.name == "nt" else "jaxlint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "jaxlint"]


def _env(**extra: str) -> dict[str, str]:
    env = probe_env(**extra)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _check(fmt: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_jaxlint(), "check", "--no-cache", "--select", "ALL", "--output-format", fmt, PROGRAM],
        capture_output=True,
        text=True,
        cwd=FOLDER,
        env=_env(),
        timeout=300,
    )


@pytest.fixture(scope="module")
def commands() -> dict[tuple[str, int], str]:
    """(code, line) -> the verify command, from the text output, checked against JSON."""
    text = _check("text")
    assert text.returncode == 1, text.stderr
    found: dict[tuple[str, int], str] = {}
    key = None
    for line in text.stdout.splitlines():
        if line.startswith(PROGRAM + ":"):
            _, row, _, rest = line.split(":", 3)
            key = (rest.split()[0], int(row))
        elif line.strip().startswith("= verify: ") and key is not None:
            found[key] = line.strip().removeprefix("= verify: ")
    items = json.loads(_check("json").stdout)
    assert {(i["code"], i["location"]["row"]): i["probe"] for i in items} == found
    sarif = json.loads(_check("sarif").stdout)
    results = sarif["runs"][0]["results"]
    assert {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]): r[
            "properties"
        ]["probe"]
        for r in results
    } == found
    return found


def run_as_printed(command: str) -> tuple[int, dict]:
    words = shlex.split(command)
    env = _env()
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    assert words[0] == "jaxlint", command
    proc = subprocess.run(
        [*_jaxlint(), *words[1:]],
        capture_output=True,
        text=True,
        cwd=FOLDER,
        env=env,
        timeout=300,
        shell=False,
    )
    return proc.returncode, json.loads(proc.stdout)


# (code, line): the command jaxlint prints, and the rule the probe then names
CASES = {
    ("JAX201", 14): ("jaxlint probe compile program.py:scaled --rule JAX201", "JAX201"),
    ("JAX201", 27): (
        "jaxlint probe compile program.py:power --static-argnums 1 --rule JAX201",
        "JAX201",
    ),
    ("JAX101", 37): ("jaxlint probe compile program.py:to_host --rule JAX101", "JAX101"),
    ("JAX301", 43): (
        "JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile program.py:draws --rule JAX301",
        "JAX301",
    ),
    ("JAX405", 60): ("jaxlint probe bench program.py:step_twice --rule JAX405", "JAX405"),
    ("JAX404", 71): ("jaxlint probe recompile program.py:total --rule JAX404", "JAX404"),
}


@pytest.mark.parametrize("key", sorted(CASES), ids=lambda k: f"{k[0]}-line{k[1]}")
def test_verify_command_run_as_printed_names_the_rule(commands, key):
    expected, rule = CASES[key]
    assert commands[key] == expected  # filled in: file, function, static argnums, env
    code, report = run_as_printed(commands[key])
    assert code == 3 and report["ok"] is False, report
    assert report["error"]["rule"] == rule, report["error"]
    assert report["rule_check"]["confirmed"] is True, report["rule_check"]  # --rule CODE
    inputs_from = report["inputs_from"].get("target", report["inputs_from"])  # bench: per side
    assert inputs_from["source"] in {"call site", "call sites", "annotations", "no parameters"}


def test_jit_of_a_fresh_lambda_recompiles_every_step_as_printed(commands):
    command = commands[("JAX402", 64)]
    assert command == "jaxlint probe recompile --loop program.py:train --steps 3 --rule JAX402"
    code, report = run_as_printed(command)
    assert code == 0 and report["ok"] is True, report.get("error")
    assert report["inputs_from"] == {
        "source": "annotations",
        "arguments": {"x": "float32[4]"},
        "values": report["inputs_from"]["values"],
    }
    assert report["steps_that_compiled_after_the_first"] == [1, 2]
    assert "JAX402" in report["rules"]
    assert report["rule_check"] == {
        "rule": "JAX402",
        "confirmed": True,
        "why": report["rule_check"]["why"],
    }


def test_key_reuse_needs_the_environment_the_command_carries(commands):
    """Without JAX_DEBUG_KEY_REUSE=1 the same probe passes: the variable is needed."""
    command = commands[("JAX301", 43)]
    code, report = run_as_printed(command.split(" ", 1)[1])
    assert code == 0 and report["ok"] is True


def test_wrong_static_argnums_do_not_confirm(commands):
    """The command's --static-argnums 1 is the code's own: with 0, `x` would be static
    and the probe fails otherwise (an array is not hashable), naming no JAX201."""
    code, report = run_as_printed("jaxlint probe compile program.py:power --static-argnums 0")
    assert code == 3
    assert report["error"]["rule"] != "JAX201"
