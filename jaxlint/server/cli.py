"""``jaxlint server``: the language server over stdio (needs the ``lsp`` extra)."""

from __future__ import annotations

import argparse
import sys

INSTALL_HINT = "pip install 'jaxlinter[lsp]'"


def add_parser(sub: argparse._SubParsersAction) -> None:
    server = sub.add_parser(
        "server",
        help="run the language server (LSP over stdio, for editors; needs jaxlinter[lsp])",
        description=(
            "Run jaxlint as a Language Server on stdin/stdout: diagnostics while you type,"
            " quick fixes, fix-all, 'disable for this line' and hover docs."
            " See docs/integrations.md for editor setup."
        ),
    )
    server.add_argument(
        "--exact-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="idle time after an edit before the full lint follows the fast pass (default 0.3)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import lsprotocol.types  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls 2.x)
    except ImportError as exc:
        print(
            f"error: `jaxlint server` needs pygls >= 2 and lsprotocol ({exc}); install them with:"
            f" {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    old = _old_pygls()
    if old is not None:
        print(
            f"error: `jaxlint server` needs pygls >= 2, found pygls {old}; install it with:"
            f" {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    from jaxlint.server.app import DEFAULT_EXACT_DELAY, serve

    delay = args.exact_delay if args.exact_delay is not None else DEFAULT_EXACT_DELAY
    if delay < 0:
        print("error: --exact-delay must be 0 or more seconds", file=sys.stderr)
        return 2
    return serve(delay)


def _old_pygls() -> str | None:
    """pygls's version if it is older than 2 (its API differs), else None."""
    from importlib import metadata

    try:
        version = metadata.version("pygls")
    except metadata.PackageNotFoundError:  # importable without metadata: trust the import
        return None
    major = version.split(".", 1)[0]
    return version if major.isdigit() and int(major) < 2 else None
