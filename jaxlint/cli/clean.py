"""``jaxlint clean``: remove the results caches jaxlint made."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from jaxlint.cache import (
    NotACacheError,
    cache_problem,
    claims_to_be_a_cache,
    default_cache_dir,
    find_caches,
    remove_cache,
)
from jaxlint.cli.common import EXIT_ERROR, EXIT_OK, cache_dir


def add_parser(sub: argparse._SubParsersAction) -> None:
    clean = sub.add_parser("clean", help="remove jaxlint's cache folders")
    clean.add_argument(
        "paths", nargs="*", help="folders to clear caches under (default: the current folder)"
    )
    clean.add_argument(
        "--cache-dir", type=cache_dir, help="also remove this cache folder (if it is one)"
    )


def run(args: argparse.Namespace) -> int:
    """Remove the cache folders jaxlint made, and only what jaxlint made in them.

    Candidates are the ``.jaxlint_cache`` folders under the given folders (never a
    given folder itself, nor the current folder or one that holds it) and the
    ``--cache-dir`` or ``$JAXLINT_CACHE_DIR`` folder. A candidate is removed only if
    it holds nothing but jaxlint's files (``jaxlint.cache.cache_problem``); one that
    holds jaxlint's marker and anything else (a ``.git`` folder, a user's file, a
    link) is refused with an error and exit 2, and nothing in it is deleted. A
    folder without the marker is not a cache and is left alone quietly.
    """
    roots = [Path(p) for p in args.paths] or [Path.cwd()]
    extra = [args.cache_dir] if args.cache_dir is not None else []
    env_dir = default_cache_dir(None)
    if os.environ.get("JAXLINT_CACHE_DIR"):
        extra.append(env_dir)
    code = EXIT_OK
    for folder in find_caches(roots, extra):
        problem = cache_problem(folder)
        if problem is not None:
            if claims_to_be_a_cache(folder):
                print(f"error: {folder}: not removed: {problem}", file=sys.stderr)
                code = EXIT_ERROR
            continue
        try:
            remove_cache(folder)
        except NotACacheError as exc:  # changed since it was checked
            print(f"error: {exc}", file=sys.stderr)
            code = EXIT_ERROR
            continue
        except OSError as exc:
            print(f"error: {folder}: cannot remove: {exc.strerror or exc}", file=sys.stderr)
            code = EXIT_ERROR
            continue
        print(f"Removing cache at: {folder}")
    return code
