"""Inputs from a call site whose arguments are the parameters of the function it is in.

tests/fixtures/probes/callers is a project (its own pyproject.toml) whose targets are
called only as ``step(params, batch)`` inside ``def train(params, batch)`` and the like.
The probe follows the function's callers (in the file, then in the project) to give the
parameters values: one level up across modules, two levels up in the file, a default
when no call exists; a cycle and a chain too long stop with a reason that names them, and
a function called nowhere gives FactoryNotFound naming the parameters and the factory to
write.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from probe_support import FIXTURES, ROOT, probe_env, run_main, spec

pytest.importorskip("jax")

from jaxlint.runtime_probes import _call_sites  # noqa: E402
from jaxlint.runtime_probes import compile as compile_probe  # noqa: E402

PROJECT = FIXTURES / "callers"
MODEL = PROJECT / "proj" / "model.py"


def _compile(tmp_path, function: str) -> tuple[int, dict]:
    return run_main(compile_probe.main, [spec(MODEL, function)], tmp_path)


def test_one_level_up_in_another_module_gives_the_parameters(tmp_path):
    code, report = _compile(tmp_path, "step")
    assert code == 3, report  # it ran: JAX201's error, not FactoryNotFound
    assert report["error"]["class"] == "jax.errors.TracerBoolConversionError"
    (site,) = report["inputs_from"]["call_sites"]
    assert site["file"].endswith("train.py") and site["call"] == "step(params, batch)"
    (caller,) = site["via"]
    assert caller["call"] == "train(params, batch)" and caller["line"] == 13
    assert [a["aval"] for a in report["arguments"]] == ["float32[3]", "float32[4,3]"]


def test_two_levels_up_in_the_file(tmp_path):
    code, report = _compile(tmp_path, "scaled")
    assert code == 0, report.get("error")
    (site,) = report["inputs_from"]["call_sites"]
    assert site["call"] == "scaled(x)"
    (inner,) = site["via"]
    assert inner["call"] == "inner(y)"  # `y = x * scale` before it: outer's parameters
    (outer,) = inner["via"]
    assert outer["call"] == "outer(jnp.ones(3))" and "via" not in outer
    assert report["arguments"][0]["aval"] == "float32[3]"


def test_a_default_gives_a_parameter_no_call_gives(tmp_path):
    code, report = _compile(tmp_path, "defaulted")
    assert code == 0, report.get("error")
    (site,) = report["inputs_from"]["call_sites"]
    assert site["parameters"] == {"x": "the default of with_default"}
    assert report["arguments"][0]["aval"] == "float32[4]"


def test_a_cycle_of_callers_ends_with_a_message_naming_it(tmp_path):
    code, report = _compile(tmp_path, "cycled")
    assert code == 2 and report["error"]["class"] == "FactoryNotFound"
    message = report["error"]["message"]
    assert "cycled(x) passes parameter(s) x of a" in message
    assert "a cycle: a -> b -> a" in message


def test_nothing_found_names_what_is_missing_and_the_factory_to_write(tmp_path):
    code, report = _compile(tmp_path, "orphan")
    assert code == 2 and report["error"]["class"] == "FactoryNotFound"
    error = report["error"]
    assert "orphan(x) passes parameter(s) x of lonely" in error["message"]
    assert "lonely is called nowhere in the project" in error["message"]
    hint = error["hint"]
    assert "`def make_inputs():` that builds x as lonely gets them" in hint
    assert "`return (x,), {}`" in hint and "--args 'x=...'" in hint


def test_the_walk_stops_a_few_callers_up(tmp_path):
    code, report = _compile(tmp_path, "deep")
    assert code == 2 and report["error"]["class"] == "FactoryNotFound"
    levels = _call_sites.MAX_LEVELS
    assert (
        f"the search stops {levels} callers up (deep -> d1 -> d2 -> d3 -> d4)"
        in (report["error"]["message"])
    )


def test_the_verify_line_runs_as_printed():
    env = probe_env()
    env["PYTHONPATH"] = str(ROOT)
    check = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format", "json"]
        + ["proj/model.py"],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env=env,
        timeout=300,
    )
    (item,) = [i for i in json.loads(check.stdout) if i["code"] == "JAX201"]
    assert item["probe"] == "jaxlint probe compile proj/model.py:step --rule JAX201"
    words = shlex.split(item["probe"])
    run = subprocess.run(
        [sys.executable, "-m", "jaxlint", *words[1:], "--format", "json"],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env=env,
        timeout=300,
    )
    report = json.loads(run.stdout)
    assert run.returncode == 3 and report["rule_check"]["confirmed"] is True, report
