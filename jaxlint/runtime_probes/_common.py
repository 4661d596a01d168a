"""What every runtime probe shares: the report, its output, exit codes, the JAX guard.

Nothing here imports JAX at module level: ``import jaxlint.runtime_probes.env``
works without JAX installed, and the probe then fails with an install hint.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NoReturn

from jaxlint import __version__
from jaxlint.runtime_probes._errors import describe_exception
from jaxlint.runtime_probes._isolation import UserCode, is_forked_copy, sweep
from jaxlint.runtime_probes._phases import (
    BACKEND_PHASE,
    IMPORT_PHASE,
    USER_CODE_PHASE,
    deliver,
    in_child,
    mark_phase,
)
from jaxlint.signals import Terminated

#: Version of the JSON shapes documented in ``docs/probes.md``.
SCHEMA_VERSION = 1

EXIT_OK = 0  # the probe ran and every check passed
EXIT_EXPECTATION = 1  # the probe ran but an expectation the user set failed
EXIT_ERROR = 2  # usage or operational error (JAX missing, backend init, target not found)
EXIT_USER_CODE = 3  # the user's code raised (or broke the probe's contract on its output)

FIRST_CALL_LABEL = "first call (includes tracing/compilation; may hit caches)"

TRUST_WARNING = (
    "WARNING: this probe imports and runs your code (the target module, the input\n"
    "factory and everything they import). Use it on trusted code only."
)

INSTALL_HINT = (
    "JAX is not importable in this Python environment ({python}). The runtime probes need it;"
    " the linter does not. Install it with `pip install 'jaxlinter[probes]'` (CPU) or follow"
    " https://docs.jax.dev/en/latest/installation.html for GPU/TPU wheels."
)

EXIT_CODES_HELP = """\
exit codes:
  0  success
  1  the probe ran but an expectation you set failed (e.g. --expect-compiles)
  2  usage or operational error (JAX missing, backend init failed, target not found,
     a factory that breaks its contract)
  3  your code raised (or returned something the probe cannot honestly measure)
"""

Report = dict[str, Any]


class ProbeFailure(Exception):
    """Stops a probe: ``exit_code`` and the JSON ``error`` object to report."""

    def __init__(self, exit_code: int, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", ""))
        self.exit_code = exit_code
        self.error = error


def fail(exit_code: int, cls: str, message: str, **extra: Any) -> NoReturn:
    raise ProbeFailure(exit_code, {"class": cls, "message": message, **extra})


def usage_error(message: str) -> NoReturn:
    fail(EXIT_ERROR, "UsageError", message)


# -- JAX -------------------------------------------------------------------------------------


def import_jax() -> ModuleType:
    """Import JAX, or stop the probe with exit code 2 and an install hint."""
    mark_phase(IMPORT_PHASE)
    try:
        import jax
    except ImportError as exc:
        fail(
            EXIT_ERROR,
            "JaxNotInstalled",
            INSTALL_HINT.format(python=sys.executable),
            details=f"{type(exc).__name__}: {exc}",
        )
    except Exception as exc:  # e.g. ValueError for JAX_ENABLE_X64=maybe, raised at import
        fail(
            EXIT_ERROR,
            "JaxImportFailed",
            f"importing jax raised {type(exc).__name__}: {first_line(str(exc))}",
            details=str(exc)[:4000],
        )
    return jax


ABORTING_FLAG_VARIABLES = ("XLA_FLAGS", "LIBTPU_INIT_ARGS")
"""Variables whose bad values make XLA abort the process (a C++ fatal error, no exception)."""


def _backend_preflight() -> None:
    """Initialise the backend once in a child process when a variable that can abort it is set.

    XLA ends the process on an unknown flag in ``XLA_FLAGS`` (``abort()``, after
    printing the flag and its value): no exception, no report. The child takes that
    blow instead; its output is dropped (it holds the value), and the probe reports
    ``BackendAborted`` with exit code 2, as documented, and its JSON report.
    """
    import signal
    import subprocess

    if not any(os.environ.get(name) for name in ABORTING_FLAG_VARIABLES):
        return
    try:
        child = subprocess.run(
            [sys.executable, "-c", "import jax; jax.devices()"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=BACKEND_PREFLIGHT_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return  # slow, not aborted: let the probe itself try
    except OSError:
        return
    if child.returncode == 0:
        return
    if child.returncode < 0:
        try:
            how = f"was killed by {signal.Signals(-child.returncode).name}"
        except ValueError:
            how = f"was killed by signal {-child.returncode}"
    else:
        how = f"exited with code {child.returncode}"
    set_names = [name for name in ABORTING_FLAG_VARIABLES if os.environ.get(name)]
    fail(
        EXIT_ERROR,
        "BackendAborted",
        f"initialising the JAX backend {how} (tried in a child process)",
        hint=f"check {', '.join(set_names)}: an unknown or malformed flag aborts XLA"
        " (values are not shown)",
    )


BACKEND_PREFLIGHT_TIMEOUT = 300


def init_backend(jax: ModuleType) -> list[Any]:
    """Initialise the default backend and return its devices (exit 2 on failure)."""
    mark_phase(BACKEND_PHASE)
    _backend_preflight()
    try:
        devices = list(jax.devices())
        mark_phase(USER_CODE_PHASE)
        return devices
    except Exception as exc:
        fail(
            EXIT_ERROR,
            "BackendInitError",
            f"{type(exc).__name__}: {first_line(str(exc))}",
            details=str(exc)[:4000],
        )


# -- argument parsing ------------------------------------------------------------------------


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=100)


class ArgumentsError(Exception):
    """A command-line error; ``run_probe`` reports it in the chosen format (exit 2)."""


class ProbeParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ArgumentsError(message)


def count(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``minimum`` (``--repeat -1`` is a
    usage error, not a run that measures nothing)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"expected a number of at least {minimum}, got {value}"
            )
        return value

    parse.__name__ = "count"
    return parse


def make_parser(
    name: str, summary: str, details: str, examples: str, trust: str = TRUST_WARNING
) -> argparse.ArgumentParser:
    """A parser with the common flags; ``--help`` names the trust warning and exit codes."""
    parser = ProbeParser(
        prog=f"jaxlint probe {name}",
        description=f"{summary}\n\n{details.rstrip()}\n\n{trust}",
        epilog=(
            f"examples:\n{examples.rstrip()}\n\n{EXIT_CODES_HELP}\n"
            f"Also runnable as `python -m jaxlint.runtime_probes.{name} ...`."
            " The JSON shape is documented in docs/probes.md."
        ),
        formatter_class=_HelpFormatter,
    )
    parser.add_argument(
        "--format",
        choices=("json", "text"),
        default=None,
        help="output format: text (for people) or json (for scripts); default: text when"
        " standard output is a terminal, else json (pipes, files, --output)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the report to FILE instead of standard output",
    )
    parser.add_argument(
        "--rule",
        metavar="CODE",
        help="the jaxlint rule this run checks (verify lines pass it): the report's"
        " rule_check says whether the run confirmed it, or plainly why not",
    )
    return parser


def int_list(text: str) -> list[int]:
    """Parse ``0,2`` (or ``0``) into ``[0, 2]``."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers like 0 or 0,2; got {text!r}") from None


def name_list(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not all(n.isidentifier() for n in names):
        raise argparse.ArgumentTypeError(f"expected names like x or x,y; got {text!r}")
    return names


def add_jit_flags(parser: argparse.ArgumentParser, *, donate: bool = True) -> None:
    parser.add_argument(
        "--static-argnums",
        type=int_list,
        action="extend",
        default=[],
        metavar="I[,J]",
        help="positional arguments passed to jax.jit(static_argnums=...); repeatable",
    )
    parser.add_argument(
        "--static-argnames",
        type=name_list,
        action="extend",
        default=[],
        metavar="NAME[,NAME]",
        help="keyword arguments passed to jax.jit(static_argnames=...); repeatable",
    )
    if donate:
        parser.add_argument(
            "--donate-argnums",
            type=int_list,
            action="extend",
            default=[],
            metavar="I[,J]",
            help="positional arguments passed to jax.jit(donate_argnums=...): their buffers are"
            " consumed by the call; repeatable",
        )


# -- report and output -----------------------------------------------------------------------


def new_report(probe: str) -> Report:
    return {"version": SCHEMA_VERSION, "probe": probe, "jaxlint_version": __version__, "ok": False}


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def _json_default(obj: object) -> object:
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return str(obj)


def to_json(report: Report) -> str:
    return json.dumps(report, indent=2, default=_json_default, allow_nan=True) + "\n"


def write_output(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        directory = os.path.dirname(os.path.abspath(output))
        os.makedirs(directory, exist_ok=True)
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        fail(EXIT_ERROR, "OutputError", f"cannot write {output}: {exc.strerror or exc}")


def error_text(error: dict[str, Any]) -> list[str]:
    lines = [f"error: {error.get('class')}: {error.get('message')}"]
    if error.get("file"):
        where = f"{error['file']}:{error.get('line')}"
        if error.get("function"):
            where += f" in {error['function']}"
        lines.append(f"  at {where}")
        if error.get("code"):
            lines.append(f"    {error['code']}")
    if error.get("phase"):
        lines.append(f"  while: {error['phase']}")
    if error.get("rule"):
        lines.append(
            f"  predicted by jaxlint rule {error['rule']} (`jaxlint rule {error['rule']}`)"
        )
    for key in ("rule_if_jitted_note", "rule_note"):
        if error.get(key):
            lines.append(f"  {error[key]}")
    if error.get("hint"):
        lines.append(f"  hint: {error['hint']}")
    return lines


def run_probe(
    name: str,
    parser: argparse.ArgumentParser,
    run: Callable[[argparse.Namespace, Report], int],
    render_text: Callable[[Report], str],
    argv: Sequence[str] | None,
) -> int:
    """Parse ``argv``, run the probe, print its report; return the exit code.

    ``run`` fills the report and returns an exit code, or raises ``ProbeFailure``.
    The report's ``ok`` is true only for exit code 0: a probe never reports
    success for partial output.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help (0)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_ERROR
    except ArgumentsError as exc:
        return _arguments_error(name, parser, args_list, str(exc))
    report = new_report(name)
    guard = UserCode(child=in_child())
    try:
        with guard:
            code = run(args, report)
    except ProbeFailure as failure:
        code = failure.exit_code
        report["error"] = failure.error
    except KeyboardInterrupt as exc:
        if guard.interrupted or isinstance(exc, Terminated):  # a signal reached the probe
            code = EXIT_ERROR
            report["error"] = {"class": "KeyboardInterrupt", "message": "interrupted"}
        else:  # no SIGINT came: the user's code raised it, like any BaseException
            code = EXIT_USER_CODE
            report["error"] = describe_exception(exc, phase="running your code")
            report["error"]["hint"] = (
                "your code raised KeyboardInterrupt without an interrupt reaching the probe"
            )
    except SystemExit as exc:  # the user's code called sys.exit() (in a function, or at import)
        code = EXIT_USER_CODE
        report["error"] = _exited(exc)
    except Exception as exc:  # a bug in the probe, or user code outside a guarded call
        traceback.print_exc(file=sys.stderr)
        code = EXIT_ERROR
        report["error"] = {
            "class": "InternalError",
            "message": f"{type(exc).__name__}: {first_line(str(exc))}",
            "hint": "the probe itself failed; the traceback is on standard error",
        }
    except BaseException as exc:  # raise BaseException (or a subclass) in the user's code
        code = EXIT_USER_CODE
        report["error"] = describe_exception(exc, phase="running your code")
    if is_forked_copy():
        # a copy of the probe made by os.fork() in the user's code: one report, the original's
        os._exit(0)
    code = processes_verdict(report, code, forks=guard.forks, left=sweep() if guard.child else 0)
    if getattr(args, "rule", None):
        from jaxlint.runtime_probes._rule_check import rule_check

        report["rule_check"] = rule_check(args.rule, report, code)
    if guard.child:  # the supervising process picks the default format: it owns the terminal
        return deliver(report, code, args.format, args.output, guard.report_fd)
    fmt = args.format or default_format(args.output)
    return _emit(name, report, code, fmt, args.output, render_text)


def default_format(output: str | None) -> str:
    """``--format`` when it is not given (as ruff does): text on a terminal, else json
    (a pipe, a file, ``--output FILE``)."""
    if output is not None:
        return "json"
    try:
        return "text" if sys.stdout.isatty() else "json"
    except (AttributeError, ValueError):  # a replaced or closed stdout
        return "json"


def _format_of(argv: Sequence[str]) -> str:
    """The format a command line asks for, explicitly or by default."""
    asked = _raw_option(argv, "--format")
    if asked in ("json", "text"):
        return asked
    return default_format(_raw_option(argv, "--output"))


NUMBERS = ("results", "ratio", "time_split")
"""Report keys holding measurements, left out when the user's code started processes
(with the times inside ``compile``'s ``stages``: see :func:`_drop_measurements`)."""


def _drop_measurements(report: Report) -> None:
    """Leave out what was timed while processes the user's code started shared the
    machine: bench's results and ratio, compile's time split, and each compile stage's
    ``seconds`` and the ``*_seconds`` JAX recorded for it, the ``seconds`` of each of
    recompile's cases or steps, and syncs' seconds of its call and in its reads (the
    counts stay)."""
    for key in NUMBERS:
        report.pop(key, None)
    for key in ("cases", "steps", "lines"):
        for entry in report.get(key) or []:
            if isinstance(entry, dict):
                entry.pop("seconds", None)
                entry.pop("seconds_in_reads", None)  # syncs (its counts stay)
    for key in ("call", "line"):
        if isinstance(report.get(key), dict):
            report[key].pop("seconds", None)
            report[key].pop("seconds_in_reads", None)
    stages = report.get("stages")
    if not isinstance(stages, dict):
        return
    for info in stages.values():
        if not isinstance(info, dict):
            continue
        info.pop("seconds", None)
        events = info.get("jax_events")
        if isinstance(events, dict):
            for key in [k for k in events if k.endswith("_seconds")]:
                del events[key]


def processes_verdict(report: Report, code: int, *, forks: int, left: int | None) -> int:
    """``ok: false`` (exit 3) when the user's code forked the probe or left processes
    running (killed now): the numbers may include their work, and a forked copy of a
    multithreaded JAX process can deadlock. ``left`` is None when processes were there
    but could not be counted: the count is reported as null, never guessed. Returns the
    exit code."""
    if not forks and left == 0:
        return code
    info = report.setdefault("processes", {"os_fork_calls": 0, "left_running_and_killed": 0})
    info["os_fork_calls"] += forks  # the child's count, then the supervisor's finds
    counted = info["left_running_and_killed"]
    info["left_running_and_killed"] = None if left is None or counted is None else counted + left
    if code != EXIT_OK:
        return code
    _drop_measurements(report)
    if left is None:
        message = (
            "your code left processes in its process group when the probe ended (how many"
            " could not be read: /proc is not available); they were killed"
        )
    elif left:
        message = (
            f"your code left {left} process(es) running when the probe ended; they were killed"
        )
    else:
        message = f"your code called os.fork() {forks} time(s) while the probe ran it"
    left_some = left is None or left > 0
    report["error"] = {"class": "ProcessesLeftRunning" if left_some else "ForkInUserCode"}
    report["error"] |= {
        "message": message,
        "hint": "a probe's target and input factory must not start processes that outlive"
        " the call, nor fork the probe (JAX is multithreaded: a forked copy can deadlock);"
        " the measurements were left out",
    }
    return EXIT_USER_CODE


def _emit(
    name: str,
    report: Report,
    code: int,
    fmt: str,
    output: str | None,
    render_text: Callable[[Report], str],
) -> int:
    """Print (or write) the finished report; returns the exit code."""
    report["ok"] = code == EXIT_OK
    # the text report already shows the error when it goes to standard output
    stdout_text = fmt == "text" and output is None
    if code != EXIT_OK and "error" in report and not stdout_text:
        for line in error_text(report["error"]):
            print(
                f"jaxlint probe {name}: {line}" if line.startswith("error") else line,
                file=sys.stderr,
            )
    text = to_json(report) if fmt != "text" else render_text(report)
    if fmt == "text" and report.get("rule_check"):
        from jaxlint.runtime_probes._rule_check import rule_check_text

        text = "\n".join([text.rstrip("\n"), *rule_check_text(report["rule_check"])]) + "\n"
    try:
        write_output(text, output)
    except ProbeFailure as failure:
        print(f"jaxlint probe {name}: error: {failure.error['message']}", file=sys.stderr)
        return EXIT_ERROR
    return code


def emit_report(name: str, report: Report, code: int, fmt: str, output: str | None) -> int:
    """Print the report a probe's child process handed over (``_supervise``)."""
    import importlib

    render_text = importlib.import_module(f"jaxlint.runtime_probes.{name}").render_text
    return _emit(name, report, code, fmt, output, render_text)


def report_without_child(
    name: str, argv: Sequence[str], cls: str, message: str, code: int, **extra: Any
) -> int:
    """The report of a probe whose child process ended without writing one
    (``_supervise``): ``ok: false`` and the error, in the format and place asked for."""
    import importlib

    module = importlib.import_module(f"jaxlint.runtime_probes.{name}")
    report = new_report(name)
    report["error"] = {"class": cls, "message": message, **extra}
    fmt, output = _asked_output(module.build_parser(), argv)
    return _emit(name, report, code, fmt, output, module.render_text)


def _asked_output(parser: argparse.ArgumentParser, argv: Sequence[str]) -> tuple[str, str | None]:
    """``(format, --output)`` as the probe's own ``parser`` reads ``argv``, so that the
    report of a child that died goes where the child's own would have: argparse takes
    abbreviations (``--outp FILE``, ``--form text``) that a scan for the exact flag
    misses. A command line the parser refuses never reaches here (the child reports
    that itself); if it does, the exact flags are read."""
    try:
        known, _ = parser.parse_known_args(list(argv))
    except (ArgumentsError, SystemExit):
        return _format_of(argv), _raw_option(argv, "--output")
    output = getattr(known, "output", None)
    return getattr(known, "format", None) or default_format(output), output


def _exited(exc: SystemExit) -> dict[str, Any]:
    """The ``error`` object for ``sys.exit()`` in the user's code: never a silent exit 0."""
    status = exc.code
    shown = status if status is None or isinstance(status, int) else type(status).__name__
    error = describe_exception(exc, phase="running your code")
    error["class"] = "SystemExit"
    error["message"] = f"the code called sys.exit({shown!r}); the probe could not finish"
    error["hint"] = "a probe's target and input factory must return, not exit the process"
    return error


def _raw_option(argv: Sequence[str], flag: str) -> str | None:
    """The value of ``--flag VALUE`` / ``--flag=VALUE`` in ``argv`` (the last one wins)."""
    value = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == flag and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(flag + "="):
            value = word.split("=", 1)[1]
    return value


def _arguments_error(
    name: str, parser: argparse.ArgumentParser, argv: Sequence[str], message: str
) -> int:
    """A bad command line: the usage and the error on standard error, and, unless
    ``--format text`` was asked for, the JSON report with a ``UsageError`` (exit 2)."""
    sys.stderr.write(parser.format_usage())
    print(f"jaxlint probe {name}: error: {message}", file=sys.stderr)
    if _format_of(argv) == "text":
        return EXIT_ERROR
    report = new_report(name)
    report["error"] = {
        "class": "UsageError",
        "message": message,
        "hint": f"`jaxlint probe {name} --help` lists the flags",
    }
    try:
        write_output(to_json(report), _raw_option(argv, "--output"))
    except ProbeFailure as failure:
        print(f"jaxlint probe {name}: error: {failure.error['message']}", file=sys.stderr)
    return EXIT_ERROR


# -- small text helpers ----------------------------------------------------------------------


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3f} ms"
    return f"{value * 1e6:.1f} us"


def status_line(report: Report) -> str:
    return f"ok: {'yes' if report.get('ok') else 'NO'}"
