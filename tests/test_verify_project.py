"""A verify line run as printed on a src-layout project (tests/fixtures/probes/srclayout).

`src/mypkg/model.py` imports `mypkg.layers` (absolute) and `.layers` (relative), and its
jitted `apply(params, x)` takes a pytree and is called only from `src/mypkg/train.py`.
The probe must import the file as `mypkg.model` from `src` (as `check` resolves it) and
build the inputs from the call site in the other module, with no factory written.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from probe_support import FIXTURES, ROOT, probe_env

pytest.importorskip("jax")

PROJECT = FIXTURES / "srclayout"


def _env() -> dict[str, str]:
    env = probe_env()
    env["PYTHONPATH"] = str(ROOT)  # jaxlint itself; never the project's src
    return env


def test_src_layout_verify_line_runs_as_printed_with_inputs_from_another_module():
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxlint",
            "check",
            "--no-cache",
            "--output-format",
            "json",
            "src/mypkg/model.py",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env=_env(),
        timeout=300,
    )
    assert check.returncode == 1, check.stderr
    (item,) = [i for i in json.loads(check.stdout) if i["code"] == "JAX201"]
    assert item["probe"] == "jaxlint probe compile src/mypkg/model.py:apply --rule JAX201"
    words = shlex.split(item["probe"])
    run = subprocess.run(
        [sys.executable, "-m", "jaxlint", *words[1:], "--format", "json"],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env=_env(),
        timeout=300,
    )
    report = json.loads(run.stdout)
    assert run.returncode == 3, report
    error = report["error"]
    assert error["class"] == "jax.errors.TracerBoolConversionError", error
    assert error["rule"] == "JAX201" and error["line"] == 13
    assert report["rule_check"]["confirmed"] is True
    (site,) = report["inputs_from"]["call_sites"]
    assert site["file"].endswith("train.py") and site["call"] == "model.apply(params, x)"
