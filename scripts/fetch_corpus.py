#!/usr/bin/env python3
"""Download pinned sdists of real JAX-ecosystem projects from PyPI, for benchmarks and
real-world checks. The code is cached OUTSIDE the repository and never committed.

    python scripts/fetch_corpus.py                 # the default set (flax, optax, equinox)
    python scripts/fetch_corpus.py --all           # every pinned project
    python scripts/fetch_corpus.py flax numpyro    # chosen ones

Prints the folder of each extracted project. The cache is ``$JAXLINT_CORPUS`` or
``~/.cache/jaxlint-corpus``.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import os
import re
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

PINNED = {
    "flax": "0.12.12",
    "optax": "0.2.8",
    "equinox": "0.13.8",
    "dm-haiku": "0.0.17",
    "numpyro": "0.22.0",
    "blackjax": "1.7.1",
    "diffrax": "0.7.2",
    "chex": "0.1.92",
    "brax": "0.14.2",
    "orbax-checkpoint": "0.12.8",
    "jax": "0.12.0.1",
}
DEFAULT = ("flax", "optax", "equinox")


def cache_dir() -> Path:
    env = os.environ.get("JAXLINT_CORPUS")
    return Path(env) if env else Path.home() / ".cache" / "jaxlint-corpus"


def _safe_members(tar: tarfile.TarFile, dest: Path):
    root = dest.resolve()
    for member in tar.getmembers():
        target = (dest / member.name).resolve()
        if root not in target.parents and target != root:
            continue
        if member.issym() or member.islnk() or member.isdev():
            continue
        yield member


INDEX = os.environ.get("JAXLINT_INDEX_URL", "https://pypi.org/simple")


def _download_sdist(name: str, version: str, downloads: Path) -> Path:
    """Fetch the sdist from the package index's simple page and check its sha256."""
    page = urllib.request.urlopen(f"{INDEX}/{name}/", timeout=60).read().decode()
    norm = re.sub(r"[-_.]+", "[-_.]", name.lower())
    pattern = re.compile(
        rf'href="([^"]*/({norm}-{re.escape(version)}\.(?:tar\.gz|zip)))#sha256=([0-9a-f]+)"',
        re.IGNORECASE,
    )
    match = pattern.search(page)
    if match is None:
        raise SystemExit(f"error: no sdist for {name}=={version} on {INDEX}")
    url, filename, sha = match.groups()
    target = downloads / filename
    if not target.exists() or hashlib.sha256(target.read_bytes()).hexdigest() != sha:
        data = urllib.request.urlopen(html.unescape(url), timeout=300).read()
        if hashlib.sha256(data).hexdigest() != sha:
            raise SystemExit(f"error: sha256 mismatch for {filename}")
        target.write_bytes(data)
    return target


def fetch(name: str, version: str, cache: Path) -> Path:
    dest = cache / f"{name}-{version}"
    marker = dest / ".complete"
    if marker.exists():
        return dest
    downloads = cache / "_sdists"
    downloads.mkdir(parents=True, exist_ok=True)
    archive = _download_sdist(name, version, downloads)
    dest.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, members=list(_safe_members(tf, dest)))
    marker.touch()
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", help=f"names from: {', '.join(PINNED)}")
    parser.add_argument("--all", action="store_true", help="every pinned project")
    args = parser.parse_args(argv)
    names = list(PINNED) if args.all else (args.projects or list(DEFAULT))
    unknown = [n for n in names if n not in PINNED]
    if unknown:
        parser.error(f"unknown project(s): {', '.join(unknown)}")
    cache = cache_dir()
    for name in names:
        print(fetch(name, PINNED[name], cache))
    return 0


if __name__ == "__main__":
    sys.exit(main())
