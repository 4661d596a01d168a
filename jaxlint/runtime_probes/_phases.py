"""What a probe's child process is doing now, told to the parent that supervises it
(:mod:`jaxlint.runtime_probes._supervise`) through a small status file: the phases that
:mod:`jaxlint.runtime_probes._common` and ``_targets`` mark, below both of them."""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

CHILD_VARIABLE = "JAXLINT_PROBE_CHILD"
STATUS_VARIABLE = "JAXLINT_PROBE_STATUS"
REPORT_VARIABLE = "JAXLINT_PROBE_REPORT"
"""Where the child hands its finished report to the supervising process."""

IMPORT_PHASE = "importing JAX"
BACKEND_PHASE = "starting the JAX backend"
USER_CODE_PHASE = "running your code"


def mark_phase(phase: str) -> None:
    """Record what the probe is doing now (in a child; a no-op elsewhere)."""
    if os.environ.get(CHILD_VARIABLE) == "1":
        _write_status(f"phase {phase}")


def _write_status(line: str) -> None:
    path = os.environ.get(STATUS_VARIABLE)
    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(line + "\n")
    except OSError:
        pass


def in_child() -> bool:
    """True in the probe's child process (where :func:`deliver` hands the report over)."""
    return os.environ.get(CHILD_VARIABLE) == "1" and bool(os.environ.get(REPORT_VARIABLE))


def deliver(
    report: dict[str, Any], code: int, fmt: str | None, output: str | None, fd: int | None
) -> int:
    """In the child: hand the finished report to the supervising process, which prints it
    (standard output carries only the report: the user's output went to standard error).
    If the file cannot be written, the report goes to the original standard output."""
    path = os.environ.get(REPORT_VARIABLE, "")
    payload = {"code": code, "format": fmt, "output": output, "report": report}
    try:
        text = json.dumps(payload, default=_json_default, allow_nan=True)
        with open(path + ".part", "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(path + ".part", path)
    except (OSError, TypeError, ValueError):
        if fd is not None:
            report["ok"] = code == 0
            text = json.dumps(report, indent=2, default=_json_default, allow_nan=True) + "\n"
            with contextlib.suppress(OSError):
                os.write(fd, text.encode("utf-8"))
    return code


def _json_default(obj: object) -> object:
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return str(obj)
