"""Run a probe in a child process, so that a crash still ends with its report.

A probe runs the user's code and compiles it with XLA. Some failures there are
not Python exceptions: XLA aborts the process on an internal check, a C
extension segfaults, the user's code calls ``os.abort()`` or ``os._exit(0)``.
The process then ends without the JSON report, with whatever exit code the crash
gave (``os._exit(0)`` even reports success). ``jaxlint probe NAME`` and ``python -m
jaxlint.runtime_probes.NAME`` therefore run the probe in a child process (the same
command, marked by :data:`CHILD_VARIABLE`) and wait for it:

- The child hands its report to the parent through a file (:data:`REPORT_VARIABLE`,
  :func:`deliver`; its own standard output carries the user's prints to standard
  error, see ``_isolation``), then says so through a small status file
  (:data:`STATUS_VARIABLE`): ``done CODE``. The parent prints the report (JSON or
  text, to standard output or ``--output``) and returns ``CODE``.
- The child runs in its own session; when it ends, the parent kills what is left of
  its process group (processes the user's code started): the run is then
  ``ok: false``, exit 3 (``ProcessesLeftRunning``).
- Without that line (killed by a signal, or exited without reporting) the parent
  writes the report: ``ok: false``, ``ProbeProcessDied``, where it died (the last
  phase the child recorded with :func:`mark_phase`) and exit code 2 when it died
  starting the JAX backend, 3 when running the user's code.

``main(argv)`` called from Python runs in-process as before (tests, library use);
``JAXLINT_PROBE_IN_PROCESS=1`` makes the commands do so too (for a debugger).
The parent imports no JAX: its cost is one Python start.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import IO, Any, TextIO

from jaxlint import signals
from jaxlint.runtime_probes._isolation import kill_group
from jaxlint.runtime_probes._phases import (
    BACKEND_PHASE,
    CHILD_VARIABLE,
    IMPORT_PHASE,
    REPORT_VARIABLE,
    STATUS_VARIABLE,
    _write_status,
)

IN_PROCESS_VARIABLE = "JAXLINT_PROBE_IN_PROCESS"

SUPERVISED = frozenset({"env", "compile", "recompile", "bench", "syncs"})
"""Probes that start JAX or run the user's code (``source`` only reads files)."""

CHILD_GRACE_SECONDS = 30
"""How long the child gets to write its report after an interrupt before it is killed."""


def run_command(name: str, argv: Sequence[str] | None, main: Callable[[list[str]], int]) -> int:
    """What ``jaxlint probe NAME ARGS`` and ``python -m jaxlint.runtime_probes.NAME`` run."""
    args = list(sys.argv[1:] if argv is None else argv)
    if os.environ.get(CHILD_VARIABLE) == "1":
        code = main(args)
        _write_status(f"done {code}")
        return code
    if name not in SUPERVISED or os.environ.get(IN_PROCESS_VARIABLE) == "1":
        return main(args)
    return _supervise(name, args)


def _child_environment(status: Path) -> dict[str, str]:
    env = dict(os.environ)
    env[CHILD_VARIABLE] = "1"
    env[STATUS_VARIABLE] = str(status)
    # the child imports this jaxlint, however the parent found it
    root = str(Path(__file__).resolve().parents[2])
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = root if not old else f"{root}{os.pathsep}{old}"
    env[REPORT_VARIABLE] = str(status.with_name("report.json"))
    return env


def _supervise(name: str, args: list[str]) -> int:
    from jaxlint.runtime_probes import _common

    with tempfile.TemporaryDirectory(prefix="jaxlint-probe-") as folder:
        status = Path(folder) / "status"
        command = [sys.executable, "-m", f"jaxlint.runtime_probes.{name}", *args]
        # the child writes to this process's standard streams; where they are not the
        # OS's (Python code that redirected sys.stdout, a test capturing it), through pipes
        relay = [stream for stream in (sys.stdout, sys.stderr) if not _is_os_stream(stream)]
        try:
            child = subprocess.Popen(
                command,
                env=_child_environment(status),
                stdout=subprocess.PIPE if sys.stdout in relay else None,
                stderr=subprocess.PIPE if sys.stderr in relay else None,
                # its own process group and session: every process the user's code starts
                # is in it (unless it leaves), and is killed when the child ends
                start_new_session=hasattr(os, "killpg"),
            )
        except OSError as exc:
            return _common.report_without_child(
                name,
                args,
                "ProbeProcessFailed",
                f"cannot start the probe's process: {exc.strerror or exc}",
                _common.EXIT_ERROR,
            )
        copiers = [
            _copy(pipe, stream)
            for pipe, stream in ((child.stdout, sys.stdout), (child.stderr, sys.stderr))
            if pipe is not None
        ]
        forwarded = _forward_signals(child)
        interrupted = False
        try:
            while True:
                try:
                    returncode = child.wait()
                    break
                except KeyboardInterrupt:
                    # the child has its own process group: pass Ctrl-C on, let it report
                    interrupted = True
                    with contextlib.suppress(OSError):
                        child.send_signal(signal.SIGINT)
                    try:
                        returncode = child.wait(timeout=CHILD_GRACE_SECONDS)
                    except subprocess.TimeoutExpired:
                        child.kill()
                        returncode = child.wait()
                    break
        finally:
            signals.restore(forwarded)
            # what the user's code started and left, even after the child died
            left = kill_group(child.pid) if hasattr(os, "killpg") else 0
            for copier in copiers:
                copier.join()
        state = _read_status(status)
        delivered = _read_report(status.with_name("report.json"))
    if state.startswith("done "):
        if delivered is not None:
            code = _common.processes_verdict(
                delivered["report"], int(delivered["code"]), forks=0, left=left
            )
            return _common.emit_report(
                name,
                delivered["report"],
                code,
                delivered["format"] or _common.default_format(delivered["output"]),
                delivered["output"],
            )
        try:
            return int(state.split()[1])  # help, or a usage error the child printed itself
        except (IndexError, ValueError):
            pass
    phase = state[len("phase ") :] if state.startswith("phase ") else "starting"
    if returncode < 0:
        try:
            how = f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            how = f"was killed by signal {-returncode}"
    else:
        how = f"exited with code {returncode} without writing its report"
    if interrupted or -returncode in (signal.SIGINT, *_FORWARDED):
        code = _common.EXIT_ERROR
        hint = "the probe was interrupted"
    elif phase in ("starting", IMPORT_PHASE, BACKEND_PHASE) or name == "env":
        code = _common.EXIT_ERROR
        hint = "JAX crashed while starting: check its installation and XLA_FLAGS"
    else:
        code = _common.EXIT_USER_CODE
        hint = (
            "a crash in native code (XLA, a C extension your code calls) or os.abort()/os._exit()"
            " in your code; its own message, if any, is above"
        )
    return _common.report_without_child(
        name,
        args,
        "ProbeProcessDied",
        f"the probe's process {how} while {phase}",
        code,
        phase=phase,
        hint=hint,
    )


def _is_os_stream(stream: object) -> bool:
    try:
        return stream is not None and stream.fileno() in (1, 2)  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def _copy(pipe: IO[bytes], stream: TextIO) -> threading.Thread:
    """Copy the child's output to ``stream`` as it comes."""

    def run() -> None:
        decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        with pipe:
            for chunk in iter(lambda: pipe.read1(65536), b""):
                try:
                    stream.write(decode(chunk))
                    stream.flush()
                except (OSError, ValueError):
                    pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _read_report(path: Path) -> dict[str, Any] | None:
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("report"), dict):
        return None
    return payload


def _read_status(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


_FORWARDED = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def _forward_signals(child: subprocess.Popen[bytes]) -> dict[int, object]:
    """SIGTERM and SIGHUP to this process go to the child, which then ends the run."""

    def forward(signum: int, frame: FrameType | None) -> None:
        try:
            child.send_signal(signum)
        except OSError:
            pass

    previous: dict[int, object] = {}
    for signum in _FORWARDED:
        try:
            previous[signum] = signal.signal(signum, forward)
        except (OSError, ValueError):
            continue
    return previous
