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


# -- a crash in native code or an exit that skips Python's cleanup ------------------------------

CRASHES = """\
import os
import jax.numpy as jnp


def aborts(x):
    os.abort()  # as an XLA internal check does


def exits_quietly(x):
    os._exit(0)  # no SystemExit: the process just ends, with "success"


def segfaults(x):
    import ctypes

    ctypes.string_at(0)


def make_inputs():
    return (jnp.ones(3),), {}


def make_cases():
    return [((jnp.ones(3),), {}), ((jnp.ones(4),), {})]
"""


@pytest.mark.parametrize("probe", ["compile", "bench", "recompile"])
@pytest.mark.parametrize(
    ("func", "how"),
    [
        ("aborts", "was killed by SIGABRT"),
        ("exits_quietly", "exited with code 0 without writing its report"),
        ("segfaults", "was killed by SIGSEGV"),
    ],
)
def test_crash_in_user_code_still_gives_the_report(
    tmp_path: Path, probe: str, func: str, how: str
) -> None:
    """The probe runs in a child process: when it dies without its report, the
    command writes one (``ok: false``, exit 3: the user's code was running)."""
    path = tmp_path / "crashes.py"
    path.write_text(CRASHES)
    proc = run_module(probe, [f"{path}:{func}"])
    assert proc.returncode == 3, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ok"] is False
    assert report["probe"] == probe
    assert report["error"]["class"] == "ProbeProcessDied"
    assert report["error"]["message"] == f"the probe's process {how} while running your code"
    assert "Traceback" not in proc.stderr


def test_crash_at_import_names_the_import(tmp_path: Path) -> None:
    path = tmp_path / "crashes_at_import.py"
    path.write_text("import os\nos.abort()\n\ndef f(x):\n    return x\n")
    out = tmp_path / "report.txt"
    proc = run_module("compile", [f"{path}:f", "--format", "text", "--output", str(out)])
    assert proc.returncode == 3, proc.stderr
    text = out.read_text()
    assert "ProbeProcessDied" in text
    assert f"while importing target file {path}" in text


@pytest.mark.parametrize(
    ("flags", "fmt"),
    [
        (["--outp", "{out}", "--form", "text"], "text"),  # argparse's abbreviations
        (["--output={out}", "--format=text"], "text"),
        (["--output", "{out}"], "json"),  # --output alone: JSON, as the child would write
    ],
)
def test_the_report_of_a_dead_child_goes_where_asked(
    tmp_path: Path, flags: list[str], fmt: str
) -> None:
    """The parent writes the report of a child that died: to --output FILE, in --format,
    read as the probe's own parser reads them (the child accepts `--outp FILE`, so its
    report would have gone there)."""
    path = tmp_path / "crashes.py"
    path.write_text(CRASHES)
    out = tmp_path / "report.out"
    argv = [f"{path}:aborts", *(flag.format(out=out) for flag in flags)]
    proc = run_module("bench", argv)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == ""
    text = out.read_text()
    if fmt == "json":
        report = json.loads(text)
        assert report["ok"] is False and report["error"]["class"] == "ProbeProcessDied"
    else:
        assert text.startswith("jaxlint probe bench\nok: NO\n")
        assert "error: ProbeProcessDied: the probe's process was killed by SIGABRT" in text


def test_the_jaxlint_command_supervises_too(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "crashes.py"
    path.write_text(CRASHES)
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "probe", "compile", f"{path}:aborts"],
        capture_output=True,
        text=True,
        env=probe_env(),
        cwd=Path(__file__).resolve().parents[1],
        timeout=300,
        check=False,
    )
    assert proc.returncode == 3, proc.stderr
    assert json.loads(proc.stdout)["error"]["class"] == "ProbeProcessDied"


def test_sigterm_reaches_the_probe_process(tmp_path: Path) -> None:
    """SIGTERM to the command is passed to the probe's process; the run ends with
    the report (exit 2: interrupted), not with an orphan still running."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "slow.py"
    path.write_text(
        "import time\nprint('started', flush=True)\ntime.sleep(120)\n\ndef f(x):\n    return x\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint.runtime_probes.compile", f"{path}:f", "--args", "f32[3]"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=probe_env(),
        cwd=Path(__file__).resolve().parents[1],
    )
    try:
        # the user's output goes to standard error (issue 28): stdout carries the report only
        assert proc.stderr is not None
        for line in proc.stderr:
            if line == "started\n":
                break
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.monotonic() - start < 60
    assert proc.returncode == 2, err
    report = json.loads(out)
    assert report["error"]["class"] == "ProbeProcessDied"
    assert "killed by SIGTERM" in report["error"]["message"]
