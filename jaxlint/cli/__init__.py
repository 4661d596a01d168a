"""The ``jaxlint`` command: ``check`` (with ``--fix``), ``rule``, ``probe`` and ``clean``.

One module per subcommand (``check.py``, ``rule.py``, ``probe.py``, ``clean.py``), each
with ``add_parser(sub)`` and ``run(args)``; what they share is in ``common.py``.

Exit codes: 0 nothing found (or everything fixed), 1 findings remain (or, with
``--diff``, something would change), 2 usage, configuration, IO or internal error;
130, 143, 129 interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP (``jaxlint.signals``).
"""

from __future__ import annotations

import argparse
import codecs
import difflib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

from jaxlint import __version__, signals
from jaxlint.cli.common import EXIT_ERROR, Parser, UsageError, one_line
from jaxlint.config import ConfigError

# The order is the order of ``jaxlint --help``; ``check`` is the default command.
SUBCOMMANDS = {
    "check": "jaxlint.cli.check",
    "rule": "jaxlint.cli.rule",
    "probe": "jaxlint.cli.probe",
    "clean": "jaxlint.cli.clean",
    "server": "jaxlint.server.cli",
}
"""Each subcommand's module (``add_parser(sub)``, ``run(args)``), imported only when the
command line names it: ``jaxlint --version`` and ``jaxlint rule`` never import the
checker, the cache or the language server (docs/performance.md, "Start-up")."""
_HELP_ORDER = ("check", "clean", "rule", "probe", "server")


def subcommand(name: str) -> ModuleType:
    return importlib.import_module(SUBCOMMANDS[name])


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every subcommand, or with ``only`` that one (what
    parsing a command line that starts with its name needs; its help and errors are
    the same)."""
    parser = Parser(
        prog="jaxlint",
        description="A linter for JAX code, with autofixes and runtime probes.",
    )
    parser.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    for name in _HELP_ORDER if only is None else (only,):
        subcommand(name).add_parser(sub)
    return parser


def _normalize_argv(argv: Sequence[str]) -> list[str]:
    """``check`` is the default command: ``jaxlint src/`` means ``jaxlint check src/``.

    A first word that is neither a subcommand nor an existing path, and does not look
    like a path (no ``/``, ``.`` or ``\\``), is a mistyped subcommand: a usage error
    (with ruff's "did you mean"), never a lint of the current folder.
    """
    argv = list(argv)
    if not argv:
        return ["check"]
    first = argv[0]
    if first in SUBCOMMANDS or first in ("-h", "--help", "--version"):
        return argv
    if not first.startswith("-") and not _looks_like_path(first):
        close = difflib.get_close_matches(first, list(SUBCOMMANDS), n=1, cutoff=0.6)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise UsageError(
            f"unrecognized subcommand '{first}'{hint} (subcommands: {', '.join(_HELP_ORDER)};"
            f" to check a path of that name, write 'jaxlint check {first}')"
        )
    return ["check", *argv]


def _looks_like_path(word: str) -> bool:
    return os.path.lexists(word) or any(c in word for c in "/.\\") or word == "-"


_OUTPUT_ERRORS = "jaxlint-output"


def _output_errors(exc: UnicodeError) -> tuple[bytes, int]:
    """``surrogateescape`` for the surrogates it stands for (a file name's undecodable
    bytes), ``backslashreplace`` for any other surrogate (a lone ``\\ud800`` in a
    notebook's JSON or in source read with a ``unicode_escape`` coding line)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = bytearray()
    for char in exc.object[exc.start : exc.end]:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += char.encode("ascii", "backslashreplace")
    return bytes(out), exc.end


def _tolerant_output() -> None:
    """Never crash on a character the output cannot encode.

    On a non-UTF-8 terminal, such characters print as escapes. On a UTF-8 one, a file
    name that is not UTF-8 (held as surrogate escapes, as the OS gave it) prints as
    its original bytes, as ``ls`` shows it, instead of ``UnicodeEncodeError``; any
    other surrogate (one that is no byte) prints as an escape (``\\ud800``).
    """
    try:
        codecs.lookup_error(_OUTPUT_ERRORS)
    except LookupError:
        codecs.register_error(_OUTPUT_ERRORS, _output_errors)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        utf8 = encoding in ("utf8", "utf8sig")
        if utf8 and getattr(stream, "errors", None) not in ("strict", "surrogateescape"):
            continue
        try:
            reconfigure(errors=_OUTPUT_ERRORS if utf8 else "backslashreplace")
        except (ValueError, OSError):
            pass


def _run_command(args: argparse.Namespace) -> int:
    """Run the subcommand; SIGTERM and SIGHUP end it as Ctrl-C does (cleanup runs).

    The language server keeps its own handling (its client stops it)."""
    command = args.command or "check"
    if command == "server":
        return subcommand(command).run(args)
    with signals.terminate_like_interrupt():
        return subcommand(command).run(args)


def _interrupted(exc: KeyboardInterrupt) -> int:
    """Exit 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP (128 + the signal)."""
    if isinstance(exc, signals.Terminated):
        print(f"error: terminated by {exc.signal_name}", file=sys.stderr)
    else:
        print("error: interrupted", file=sys.stderr)
    return signals.exit_code_for(exc)


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_output()
    try:
        argv = _normalize_argv(sys.argv[1:] if argv is None else argv)
        if argv[0] == "--version":  # what argparse's version action prints, without the parser
            print(f"jaxlint {__version__}")
            return 0
        parser = build_parser(argv[0] if argv[0] in SUBCOMMANDS else None)
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except SystemExit as exc:  # --help / --version
        return int(exc.code or 0)
    try:
        return _run_command(args)
    except (ConfigError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:  # a bug in jaxlint: one clear line and exit 2, not a traceback
        if getattr(args, "show_internal_tracebacks", False):
            traceback.print_exc()
        print(f"error: internal error: {one_line(f'{type(exc).__name__}: {exc}')}", file=sys.stderr)
        return EXIT_ERROR


def __getattr__(name: str) -> ModuleType:
    """``jaxlint.cli.check`` and the other submodules, imported on first use."""
    if name in (
        "check",
        "checking",
        "clean",
        "common",
        "noqa_add",
        "probe",
        "progress",
        "project_run",
        "report",
        "rule",
        "watch",
    ):
        return importlib.import_module(f"jaxlint.cli.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
