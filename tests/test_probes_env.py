"""``jaxlint probe env``: versions, devices, config, env var names (never values), smoke test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from probe_support import EIGHT_DEVICES, ROOT, probe_env, run_main, run_module

pytest.importorskip("jax")

from jaxlint.runtime_probes import env  # noqa: E402

SECRET = "s3cr3t-value-0123456789"


def test_env_json_in_process(tmp_path):
    code, report = run_main(env.main, [], tmp_path)
    assert code == 0
    assert report["version"] == 1 and report["probe"] == "env" and report["ok"] is True
    assert (
        report["versions"]["jax"] and report["versions"]["jaxlib"] and report["versions"]["numpy"]
    )
    backend = report["backend"]
    assert backend["default_backend"] == "cpu"
    assert backend["process_count"] == 1
    device = backend["devices"][0]
    assert device["platform"] == "cpu" and device["memory_stats"] is None  # CPU gives none
    assert {"jax_enable_x64", "jax_default_matmul_precision", "jax_debug_nans"} <= set(
        report["config"]
    )
    assert report["config"]["jax_legacy_prng_key"] == "allow"  # enums as plain values


def test_env_smoke_passes_with_stated_tolerance(tmp_path):
    code, report = run_main(env.main, ["--smoke"], tmp_path)
    assert code == 0, report.get("error")
    smoke = report["smoke"]
    assert smoke["ok"] is True
    assert smoke["tolerance"] == {"rtol": env.SMOKE_RTOL, "atol": env.SMOKE_ATOL}
    names = [c["name"] for c in smoke["checks"]]
    assert any("matmul" in n for n in names) and any("sum" in n for n in names)


def test_env_smoke_mismatch_exits_2(tmp_path, monkeypatch):
    monkeypatch.setattr(env, "SMOKE_ATOL", -1.0)  # nothing can be that close
    code, report = run_main(env.main, ["--smoke"], tmp_path)
    assert code == 2
    assert report["ok"] is False
    assert report["error"]["class"] == "SmokeTestMismatch"


def test_secret_values_never_reported_and_eight_devices():
    extra = {
        "XLA_FLAGS": EIGHT_DEVICES,
        "JAX_SECRET_TOKEN": SECRET,
        "JAX_COMPILATION_CACHE_DIR": f"/tmp/{SECRET}-cache",
        "NCCL_SOCKET_IFNAME": f"eth-{SECRET}",
    }
    for fmt in ("json", "text"):
        proc = run_module("env", ["--format", fmt], env=probe_env(**extra))
        assert proc.returncode == 0, proc.stderr
        everything = proc.stdout + proc.stderr
        for name, value in extra.items():
            assert value not in everything, (fmt, name)
            assert name in proc.stdout, (fmt, name)
        assert SECRET not in everything
        if fmt == "json":
            report = json.loads(proc.stdout)
            assert report["backend"]["device_count"] == 8
            assert [d["id"] for d in report["backend"]["devices"]] == list(range(8))
            assert "JAX_SECRET_TOKEN" in report["environment_variables_set"]
            assert report["config"]["jax_compilation_cache_dir"].startswith("<set from")
        else:
            assert proc.stdout.count("platform cpu") == 8


def test_env_smoke_on_eight_devices_includes_a_sharded_sum():
    proc = run_module("env", ["--smoke"], env=probe_env(XLA_FLAGS=EIGHT_DEVICES))
    assert proc.returncode == 0, proc.stderr
    checks = json.loads(proc.stdout)["smoke"]["checks"]
    assert any("sharded over 8 devices" in c["name"] and c["ok"] for c in checks)


def test_env_without_jax_gives_install_hint_and_exit_2():
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "import jaxlint.runtime_probes.env as env\n"
        "import jaxlint.runtime_probes.compile, jaxlint.runtime_probes.recompile\n"
        "import jaxlint.runtime_probes.bench\n"
        "sys.exit(env.main([]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 2
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["error"]["class"] == "JaxNotInstalled"
    assert "pip install" in report["error"]["message"]
    assert "pip install" in proc.stderr
    # one error schema: the full text is under `details`, as docs/probes.md says
    assert "import of jax halted" in report["error"]["details"]
    assert "detail" not in report["error"]


def test_help_explains_flags(capsys):
    assert env.main(["--help"]) == 0
    text = capsys.readouterr().out
    for flag in ("--format", "--output", "--smoke", "examples:", "exit codes:"):
        assert flag in text
    assert env.main(["--no-such-flag"]) == 2


def test_backend_init_failure_exits_2_with_partial_report():
    proc = run_module("env", [], env=probe_env(JAX_PLATFORMS="gpu"))  # no GPU backend here
    if proc.returncode == 0:
        pytest.skip("a GPU backend is available")
    assert proc.returncode == 2
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["error"]["class"] == "BackendInitError"
    assert report["versions"]["jax"] and "backend" not in report
    assert "detail" not in report["error"] and report["error"]["details"]


def test_jaxlint_probe_help_lists_the_probes(capsys):
    from jaxlint.cli import main

    for flag in ("--help", "-h"):
        assert main(["probe", flag]) == 0
        out = capsys.readouterr().out
        for name in ("env", "compile", "recompile", "bench"):
            assert f"  {name} " in out
        assert "trusted code only" in out
    assert main(["probe"]) == 2  # no probe named: usage on stderr, exit 2
    assert "name a probe" in capsys.readouterr().err
    assert main(["probe", "env", "--help"]) == 0
    assert "--smoke" in capsys.readouterr().out


@pytest.mark.parametrize("probe", ["env", "compile", "recompile", "bench"])
def test_argument_errors_are_json_unless_text_is_asked_for(probe, tmp_path, capsys):
    import importlib

    module = importlib.import_module(f"jaxlint.runtime_probes.{probe}")
    bad = ["--no-such-flag"] if probe == "env" else ["x.py:f", "--no-such-flag"]
    assert module.main(bad) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["ok"] is False and report["probe"] == probe and report["version"] == 1
    assert report["error"]["class"] == "UsageError"
    assert "--no-such-flag" in report["error"]["message"]
    assert "usage:" in captured.err
    # with --output the report goes to the file; with --format text only stderr
    out = tmp_path / "r.json"
    assert module.main([*bad, "--output", str(out)]) == 2
    assert json.loads(out.read_text())["error"]["class"] == "UsageError"
    capsys.readouterr()
    assert module.main([*bad, "--format", "text"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "unrecognized arguments" in captured.err


def test_format_defaults_to_text_on_a_terminal_and_json_in_a_pipe():
    """As ruff does: no --format gives text when stdout is a terminal, JSON in a pipe."""
    import os
    import pty

    env = probe_env()
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "jaxlint", "probe", "env"]
    piped = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert piped.returncode == 0 and json.loads(piped.stdout)["probe"] == "env"
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            command, stdout=follower, stderr=subprocess.PIPE, env=env, timeout=300
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal has no writer left
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    shown = b"".join(chunks).decode()
    assert proc.returncode == 0
    assert not shown.lstrip().startswith("{") and "jax" in shown.lower(), shown[:300]


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_default_format_rules(monkeypatch):
    from jaxlint.runtime_probes import _common

    monkeypatch.setattr(sys, "stdout", _Terminal())
    assert _common.default_format(None) == "text"
    assert _common.default_format("report.json") == "json"  # --output: a file
    assert _common._format_of(["x.py:f"]) == "text"
    assert _common._format_of(["x.py:f", "--format", "json"]) == "json"  # explicit wins
    assert _common._format_of(["x.py:f", "--output", "r.json"]) == "json"
