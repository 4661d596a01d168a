"""Run a small program on the installed CPU JAX in a fresh interpreter and read back
what it printed: the runtime-truth tests' one way of asking JAX."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def result_lines(
    program: str | Path, marker: str = "RESULT ", *, stdin: str | None = None, timeout: int = 600
) -> list[str]:
    """Run ``program`` (source text, or a file) with ``JAX_PLATFORMS=cpu``; its lines that
    start with ``marker`` (at least one, else the test fails with the program's stderr)."""
    cmd = (
        [sys.executable, str(program)]
        if isinstance(program, Path)
        else [sys.executable, "-c", program]
    )
    run = subprocess.run(
        cmd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        timeout=timeout,
    )
    lines = [ln for ln in run.stdout.splitlines() if ln.startswith(marker)]
    assert lines, run.stderr[-3000:]
    return lines


def run_result(
    program: str | Path, marker: str = "RESULT ", *, stdin: str | None = None, timeout: int = 600
) -> Any:
    """The JSON of the last ``marker`` line ``program`` printed (see :func:`result_lines`)."""
    return json.loads(
        result_lines(program, marker, stdin=stdin, timeout=timeout)[-1][len(marker) :]
    )
