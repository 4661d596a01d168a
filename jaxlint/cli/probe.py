"""``jaxlint probe NAME ...``: run a runtime probe (they import and run the user's code)."""

from __future__ import annotations

import argparse
import importlib
import sys

from jaxlint.cli.common import EXIT_ERROR, EXIT_OK


def add_parser(sub: argparse._SubParsersAction) -> None:
    probe = sub.add_parser(
        "probe",
        help="run a runtime probe (env, compile, recompile, bench); runs your code",
        add_help=False,
    )
    probe.add_argument("name", nargs="?")
    probe.add_argument("args", nargs=argparse.REMAINDER)


def run(args: argparse.Namespace) -> int:
    import pkgutil

    import jaxlint.runtime_probes as probes_pkg

    available = sorted(
        m.name for m in pkgutil.iter_modules(probes_pkg.__path__) if not m.name.startswith("_")
    )
    if not args.name or args.name in ("-h", "--help"):
        print("usage: jaxlint probe NAME [ARGS...]")
        print("Runtime probes import and run your code: use them on trusted code only.")
        print(f"available probes: {', '.join(available) or 'none in this version'}")
        return EXIT_OK if args.name else EXIT_ERROR
    if args.name not in available:
        listed = ", ".join(available) or "none in this version"
        print(f"error: unknown probe {args.name!r} (available: {listed})", file=sys.stderr)
        return EXIT_ERROR
    module = importlib.import_module(f"jaxlint.runtime_probes.{args.name}")
    return int(module.main(list(args.args)))
