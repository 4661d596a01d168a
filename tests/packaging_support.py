"""Build a wheel of this checkout and install it into a folder, offline (tests/test_packaging.py,
tests/test_lsp_server.py).

The build copies what a build reads (pyproject.toml, setup.py, README.md, jaxlint/,
docs/) into a temporary folder first, so that setuptools' ``build/`` and ``*.egg-info``
never land in the checkout, and runs pip with ``--no-build-isolation --no-index``: the
setuptools of the interpreter running the tests builds it (the ``test`` extra installs
one), and nothing is downloaded. Without setuptools >= 77 the tests that need a wheel
are skipped, saying so.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "jaxlint", "docs")
SETUPTOOLS_NEEDED = (77,)  # pyproject.toml's build-system (the SPDX `license` string)


def need_setuptools() -> None:
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        version = None
    numbers = tuple(int(p) for p in (version or "0").split(".")[:1] if p.isdigit())
    if version is None or numbers < SETUPTOOLS_NEEDED:
        pytest.skip(
            f"building a wheel offline needs setuptools >= 77 in this interpreter (found"
            f" {version}); `pip install -e '.[test]'` installs it"
        )


def copy_sources(dest: Path) -> Path:
    """The files a build reads, without caches, in ``dest/src``."""
    src = dest / "src"
    src.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    return src


def _pip(*args: str, cwd: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, f"pip {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}"


def build_wheel(dest: Path) -> Path:
    """A wheel of the checkout as it is now, built offline; its path."""
    need_setuptools()
    src = copy_sources(dest)
    out = dest / "wheel"
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), ".", cwd=src)
    (wheel,) = out.glob("jaxlinter-*.whl")
    return wheel


def install_wheel(wheel: Path, target: Path) -> Path:
    """``pip install --target``: ``target`` then holds ``jaxlint/`` as a site-packages does."""
    _pip(
        "install", "--no-deps", "--no-index", "--target", str(target), str(wheel), cwd=target.parent
    )
    assert (target / "jaxlint" / "__init__.py").is_file()
    return target


def installed_env(target: Path) -> dict[str, str]:
    """An environment that imports jaxlint from ``target`` (before the checkout or an
    editable install), without ``$JAXLINT_DOCS_URL``."""
    env = {k: v for k, v in os.environ.items() if k != "JAXLINT_DOCS_URL"}
    env["PYTHONPATH"] = str(target)
    return env
