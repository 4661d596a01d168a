"""Helpers shared by the runtime-probe tests (tests/test_probes_*.py, tests/test_probe_docs.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "probes"
SAMPLE = FIXTURES / "sample.py"
BENCH = FIXTURES / "bench_cases.py"
SHARDED = FIXTURES / "sharded.py"
EIGHT_DEVICES = "--xla_force_host_platform_device_count=8"
COMPILE_COUNTER = """
import collections, json, runpy, sys
import jax
compiles = collections.Counter()

def listener(name, secs, **kw):
    if name == "/jax/core/compile/backend_compile_duration":
        compiles[kw.get("fun_name")] += 1

jax.monitoring.register_event_duration_secs_listener(listener)
"""
"""The start of a child program that counts XLA compilations per function name
(``compiles``), from JAX's own monitoring events."""


def spec(path: Path, func: str) -> str:
    return f"{path}:{func}"


def run_main(
    main: Callable[[list[str]], int], argv: Sequence[str], tmp_path: Path
) -> tuple[int, dict[str, Any]]:
    """Run a probe's ``main`` in this process; return its exit code and JSON report."""
    out = tmp_path / f"report-{uuid.uuid4().hex}.json"
    code = main([*argv, "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


def probe_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env["JAX_PLATFORMS"] = "cpu"
    env.update(extra)
    return env


def run_module(
    probe: str, argv: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m jaxlint.runtime_probes.PROBE ARGV`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", f"jaxlint.runtime_probes.{probe}", *argv],
        capture_output=True,
        text=True,
        env=env if env is not None else probe_env(),
        cwd=cwd or ROOT,
        timeout=300,
    )
