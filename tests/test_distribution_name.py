"""The distribution name (issue 17): `jaxlint` on PyPI is an unrelated project, so jaxlint is
distributed as `jaxlinter`; no doc, hint or message may tell users to install `jaxlint`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DIST = "jaxlinter"

# `pip install jaxlint`, `pip install "jaxlint[probes]"`, `pip install -U jaxlint`, and any
# `jaxlint[extra]` (extras are spelled with the distribution name)
WRONG_INSTALL = re.compile(
    r"pip3?\s+install\b[^\n`]*?[\s\"'](jaxlint)(?=$|[\s\"'`\[=<>~!;,)])", re.M
)
WRONG_EXTRA = re.compile(r"(?<![\w./-])jaxlint\[")


def _texts() -> list[Path]:
    """Every tracked text file a user or the code shows: docs, README, the package."""
    proc = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    if proc.returncode != 0:
        pytest.skip("not a git checkout")
    names = [n for n in proc.stdout.decode().split("\0") if n]
    keep = []
    for name in names:
        if name.startswith("tests/") or ".examples/" in name:
            continue
        if name.endswith((".md", ".py", ".toml", ".yaml", ".yml", ".txt", ".cfg")) or name in (
            "Makefile",
        ):
            keep.append(ROOT / name)
    return keep


def test_the_distribution_is_not_named_jaxlint() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DIST
    assert re.sub(r"[-_.]+", "", project["name"].lower()) != "jaxlint"
    assert project["scripts"]["jaxlint"] == "jaxlint.cli:main"  # the command stays


def test_no_doc_or_hint_says_pip_install_jaxlint() -> None:
    files = _texts()
    assert (
        ROOT / "README.md" in files and ROOT / "jaxlint" / "runtime_probes" / "_common.py" in files
    )
    bad = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in (WRONG_INSTALL, WRONG_EXTRA):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                bad.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("pip install jaxlint", True),
        ("pip install 'jaxlint[probes]'", True),
        ('$ pip install -U "jaxlint"', True),
        ("pip install jaxlint==0.1", True),
        ("pip install jaxlinter", False),
        ("pip install 'jaxlinter[probes]'", False),
        ('pip install "git+https://github.com/OWNER/jaxlint"', False),
        ("pip install .", False),
    ],
)
def test_the_patterns(text: str, wrong: bool) -> None:
    assert bool(WRONG_INSTALL.search(text) or WRONG_EXTRA.search(text)) is wrong


def test_probe_install_hint_names_the_distribution() -> None:
    from jaxlint.runtime_probes._common import INSTALL_HINT

    assert f"pip install '{DIST}[probes]'" in INSTALL_HINT
