"""What a probe's child process is doing now, told to the parent that supervises it
(:mod:`jaxlint.runtime_probes._supervise`) through a small status file: the phases that
:mod:`jaxlint.runtime_probes._common` and ``_targets`` mark, below both of them."""

from __future__ import annotations

import os

CHILD_VARIABLE = "JAXLINT_PROBE_CHILD"
STATUS_VARIABLE = "JAXLINT_PROBE_STATUS"

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
