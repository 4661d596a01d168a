"""Probes always end with their JSON report and a documented exit code (issue 18, items 11, 13).

``sys.exit()`` or ``raise BaseException`` in the user's code (in the function or at
import) is ``ok: false`` with exit code 3; an ``XLA_FLAGS`` that aborts XLA is
``ok: false`` with exit code 2 (the abort happens in a child process) and its value is
never printed; ``probe env`` never prints a value set from the environment, whatever
its type, unless it is one of the listed enumerations' words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from probe_support import probe_env, run_module

pytest.importorskip("jax")

TARGET = """\
import sys
import jax.numpy as jnp


def exits(x):
    sys.exit(0)


def exits_with_text(x):
    sys.exit("stopping here")


def raises_base(x):
    raise BaseException("custom base")


def fine(x):
    return jnp.sin(x)


def make_inputs():
    return (jnp.ones(3),), {}
"""

EXITS_AT_IMPORT = """\
import sys

sys.exit(0)


def f(x):
    return x


def make_inputs():
    return (1.0,), {}
"""


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "target.py"
    path.write_text(TARGET)
    return path


@pytest.mark.parametrize("probe", ["compile", "bench"])
@pytest.mark.parametrize(
    ("func", "cls"),
    [("exits", "SystemExit"), ("exits_with_text", "SystemExit"), ("raises_base", "BaseException")],
)
def test_exit_or_base_exception_in_user_code(target: Path, probe: str, func: str, cls: str) -> None:
    proc = run_module(probe, [f"{target}:{func}"])
    assert proc.returncode == 3, proc.stderr  # the user's code: never 0, never 1
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["error"]["class"] == cls
    assert "Traceback" not in proc.stderr


def test_sys_exit_at_import(tmp_path: Path) -> None:
    path = tmp_path / "exits.py"
    path.write_text(EXITS_AT_IMPORT)
    for probe in ("compile", "recompile", "bench"):
        proc = run_module(probe, [f"{path}:f"])
        assert proc.returncode == 3, (probe, proc.stderr)
        report = json.loads(proc.stdout)
        assert report["ok"] is False and report["error"]["class"] == "SystemExit", probe
        assert "sys.exit(0)" in report["error"]["message"]


def test_a_target_that_returns_still_passes(target: Path) -> None:
    proc = run_module("compile", [f"{target}:fine"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


SECRET_FLAG_VALUE = "s3cr3tFlagValue42"


@pytest.mark.parametrize("probe_args", [["env"], ["compile", "TARGET:fine"]])
def test_invalid_xla_flags_give_the_json_report_and_exit_2(
    target: Path, probe_args: list[str]
) -> None:
    argv = [str(target) + ":fine" if a == "TARGET:fine" else a for a in probe_args[1:]]
    proc = run_module(
        probe_args[0], argv, env=probe_env(XLA_FLAGS=f"--xla_no_such_flag={SECRET_FLAG_VALUE}")
    )
    assert proc.returncode == 2, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["error"]["class"] == "BackendAborted"
    assert "XLA_FLAGS" in report["error"]["hint"]
    assert SECRET_FLAG_VALUE not in proc.stdout + proc.stderr


def test_env_never_prints_values_whatever_their_type() -> None:
    env = probe_env(
        JAX_COMPILATION_CACHE_MAX_SIZE="987654321",  # an integer option
        JAX_PLATFORM_NAME="s3cr3tplatform",  # a listed option with a value that is not a word of it
        JAX_DEFAULT_MATMUL_PRECISION="highest",  # a listed enumeration, a valid value: shown
    )
    proc = run_module("env", [], env=env)
    everything = proc.stdout + proc.stderr
    assert "987654321" not in everything
    assert "s3cr3tplatform" not in everything
    report = json.loads(proc.stdout)
    assert report["config"]["jax_compilation_cache_max_size"].startswith("<set from")
    assert report["config"]["jax_default_matmul_precision"] == "highest"
    assert report["redactions"] >= 1  # the backend error quoted the platform name


def test_env_invalid_enum_value_is_not_printed() -> None:
    """JAX rejects it at import and quotes it; the report leaves it out, however short."""
    proc = run_module("env", [], env=probe_env(JAX_TRACEBACK_FILTERING="zq9"))
    assert proc.returncode == 2
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["error"]["class"] == "JaxImportFailed"
    assert "zq9" not in proc.stdout + proc.stderr
    assert report["redactions"] >= 1
