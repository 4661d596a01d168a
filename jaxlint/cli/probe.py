"""``jaxlint probe NAME ...``: run a runtime probe (they import and run the user's code)."""

from __future__ import annotations

import argparse
import importlib
import sys

from jaxlint.cli.common import EXIT_ERROR, EXIT_OK


def add_parser(sub: argparse._SubParsersAction) -> None:
    probe = sub.add_parser(
        "probe",
        help="run a runtime probe (env, compile, recompile, bench, syncs); runs your code",
        add_help=False,
    )
    # `jaxlint probe --help` (before a probe name); `jaxlint probe NAME --help` goes to NAME
    probe.add_argument("-h", "--help", action="store_true", dest="probe_help")
    probe.add_argument("name", nargs="?")
    probe.add_argument("args", nargs=argparse.REMAINDER)


def _available() -> list[str]:
    import pkgutil

    import jaxlint.runtime_probes as probes_pkg

    return sorted(
        m.name for m in pkgutil.iter_modules(probes_pkg.__path__) if not m.name.startswith("_")
    )


def _usage(available: list[str]) -> str:
    lines = [
        "usage: jaxlint probe NAME [ARGS...]",
        "",
        "Runtime probes check a finding on your own code and machine. They import and run",
        "your code (the target's module, its input factory): use them on trusted code only.",
        "",
        "probes:",
    ]
    for name in available:
        module = importlib.import_module(f"jaxlint.runtime_probes.{name}")  # imports no JAX
        lines.append(f"  {name:<10} {getattr(module, 'SUMMARY', '')}".rstrip())
    lines += [
        "",
        "`jaxlint probe NAME --help` explains a probe's flags, with examples;"
        " docs/probes.md documents the JSON reports and exit codes.",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    available = _available()
    if getattr(args, "probe_help", False) or args.name in ("-h", "--help"):
        print(_usage(available))
        return EXIT_OK
    if not args.name:
        print(_usage(available), file=sys.stderr)
        print("error: name a probe", file=sys.stderr)
        return EXIT_ERROR
    if args.name not in available:
        listed = ", ".join(available) or "none in this version"
        print(f"error: unknown probe {args.name!r} (available: {listed})", file=sys.stderr)
        return EXIT_ERROR
    from jaxlint.runtime_probes._supervise import run_command

    module = importlib.import_module(f"jaxlint.runtime_probes.{args.name}")
    return int(run_command(args.name, list(args.args), module.main))
